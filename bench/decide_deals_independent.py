"""Decides the openings of deals FIRST … LAST under VARIANT with the independent decider
(verify/independent/decider.py), one JSON line per deal. One process, so one core."""
import json
import sys
import time
from pathlib import Path

# This checkout's code, not whatever `verify` the shared virtualenv's editable install points at.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verify.independent import decider  # noqa: E402

variant, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = decider.rules_of(variant)
decider.decide_deal(first, rules)  # numba compiles (or loads its cache) before the clock starts
for n in range(first, last + 1):
    started = time.perf_counter()
    d = decider.decide_deal(n, rules)
    ms = (time.perf_counter() - started) * 1000
    print(json.dumps({"deal": n, "result": d.result, "nodes": d.nodes, "ms": ms}), flush=True)
