"""Solves the openings of deals FIRST … LAST with the independent solver; one JSON line per deal,
with the wall-clock seconds and the CPU seconds of this process (fairer on a busy machine)."""
import json
import sys
import time
from pathlib import Path

# This checkout's code, not whatever `verify` the virtualenv's editable install points at (a
# worktree or a copy of older code shares the venv): run as a script, only bench/ is on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verify.independent import rules, solver  # noqa: E402

first, last = map(int, sys.argv[1:3])
solver.solve(rules.to_json(rules.opening(25)))  # compile (numba) before timing
for n in range(first, last + 1):
    cpu = time.process_time()
    r = solver.solve(rules.to_json(rules.opening(n)))
    print(json.dumps({"deal": n, "max_removed": r.max_removed, "shortest": r.shortest, "positions": r.positions,
                      "seconds": r.seconds, "cpu_seconds": time.process_time() - cpu}), flush=True)
