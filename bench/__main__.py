"""`make bench`: every benchmark of the project, figures printed (and saved to build/bench.json)."""
import json
import sys
from pathlib import Path

from . import solver_bench

SECTIONS = {"solvers": solver_bench.run}


def main(names: list[str]) -> None:
    chosen = names or list(SECTIONS)
    results = {}
    for name in chosen:
        print(f"== {name}", flush=True)
        results[name] = SECTIONS[name]()
    out = Path("build/bench.json")
    out.parent.mkdir(exist_ok=True)
    previous = json.loads(out.read_text()) if out.exists() else {}
    out.write_text(json.dumps({**previous, **results}, indent=1))
    print(f"Figures saved to {out}.")


main(sys.argv[1:])
