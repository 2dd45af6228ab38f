"""`make bench`: every benchmark of the project, figures printed (and saved to build/bench.json)."""
import json
import sys
from pathlib import Path

from . import (blocking, browser_solver_bench, decider_bench, game_bench, lighthouse, motion_bench, reload_bench, solver_bench,
               survey_bench)


def game() -> dict:
    """Hint and size figures, on the pool of New game from the verified bundle."""
    bundle = Path("build/verified.json")
    pool = json.loads(bundle.read_text())["survey"]["pool_deals"] if bundle.exists() else game_bench.default_pool()
    return game_bench.run(pool)


SECTIONS = {"solvers": solver_bench.run,
            "browser-solver": browser_solver_bench.run,  # the app's solver in Chromium's worker, mid-game
            "deciders": decider_bench.run, "survey": survey_bench.run, "game": game,
            "lighthouse": lighthouse.run,  # mobile scores of the built site (site/)
            "blocking": blocking.run,  # the load's blocking time in real loads, CPU 4x slower
            "motion": motion_bench.run,  # long tasks while the game moves, CPU 4x slower
            "reload": reload_bench.run}  # make serve: from a save to the reloaded page, before and after


def main(names: list[str]) -> None:
    chosen = names or list(SECTIONS)
    unknown = [n for n in chosen if n not in SECTIONS]
    if unknown:
        sys.exit(f"error: no bench section {', '.join(map(repr, unknown))}; the sections are {', '.join(SECTIONS)} "
                 "(make bench SECTION=name)")
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
