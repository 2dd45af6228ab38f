"""Decides the openings of deals FIRST … LAST under VARIANT with the independent decider
(verify/independent/decider.py), one JSON line per deal. One process, so one core."""
import json
import sys
import time

from verify.independent import decider

variant, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = decider.rules_of(variant)
decider.decide_deal(first, rules)  # numba compiles (or loads its cache) before the clock starts
for n in range(first, last + 1):
    started = time.perf_counter()
    d = decider.decide_deal(n, rules)
    ms = (time.perf_counter() - started) * 1000
    print(json.dumps({"deal": n, "result": d.result, "nodes": d.nodes, "ms": ms}), flush=True)
