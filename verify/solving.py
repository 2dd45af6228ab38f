"""The solver's question answered twice: by the app's solver (in Node) and the independent one."""
from __future__ import annotations

import sys
import time

from .independent import rules
from .independent import solver as independent_solver
from .app import AppEngine
from .errors import SolverDisagreement


def _progress_printer(name: str, enabled: bool):
    last = [0.0]

    def show(depth, positions):
        now = time.monotonic()
        if enabled and now - last[0] > 1.0:
            last[0] = now
            print(f"  {name} solver: depth {depth}, {positions:,} positions", file=sys.stderr, flush=True)

    return show


def replay_independent(start: dict, game: list[str]) -> dict:
    """The final position of a game in the independent engine (raises IllegalMove)."""
    position = rules.from_json(start)
    for move in game:
        position = rules.apply(position, move)
    return rules.to_json(position)


def solve_both(app: AppEngine, start: dict, which: str | None = None, progress: bool = True) -> dict:
    """{max_removed, shortest, winnable, game, solvers: {app: {...}, independent: {...}}, agree}.

    Each solver's game is replayed in the other engine, so a game that only one side accepts
    is caught here too. Raises SolverDisagreement when the numbers differ.
    """
    solvers = {}
    games = {}
    if which in (None, "app"):
        r = app.solve(start, progress=_progress_printer("app", progress))
        solvers["app"] = {k: r[k] for k in ("max_removed", "shortest", "positions", "seconds")}
        games["app"] = r["game"]
    if which in (None, "independent"):
        r = independent_solver.solve(start, progress=_progress_printer("independent", progress))
        solvers["independent"] = {"max_removed": r.max_removed, "shortest": r.shortest,
                                  "positions": r.positions, "seconds": round(r.seconds, 3)}
        games["independent"] = r.game
    first = next(iter(solvers))
    pyramid_left = sum(c is not None for c in start["pyramid"])
    answer = {
        "max_removed": solvers[first]["max_removed"],
        "shortest": solvers[first]["shortest"],
        "winnable": solvers[first]["max_removed"] == pyramid_left,
        "game": games[first],
        "solvers": solvers,
        "agree": len({(s["max_removed"], s["shortest"]) for s in solvers.values()}) == 1,
    }
    # Each game must be legal in the other engine and remove what it claims.
    for name, game in games.items():
        final = replay_independent(start, game) if name == "app" else app.replay_from(start, game)
        removed = pyramid_left - sum(c is not None for c in final["pyramid"])
        if removed != solvers[name]["max_removed"] or len(game) != solvers[name]["shortest"]:
            answer["agree"] = False
            raise SolverDisagreement(f"the {name} solver's game removes {removed} cards in {len(game)} moves, "
                                     f"not the {solvers[name]['max_removed']} in {solvers[name]['shortest']} it claims", answer)
    if not answer["agree"]:
        raise SolverDisagreement(
            "; ".join(f"{k}: {v['max_removed']} cards in {v['shortest']} moves" for k, v in solvers.items()), answer)
    return answer
