"""The solver's question answered twice: by the app's solver (in Node) and the independent one."""
from __future__ import annotations

import sys
import time

from .independent import decider as independent_decider
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


def replay_independent(start: dict, game: list[str], rules_options: dict | None = None) -> dict:
    """The final position of a game in the independent engine (raises IllegalMove); under a
    variant's rules options, in the independent variant replayer (decider.replay)."""
    if rules_options:
        return independent_decider.replay(start, game, rules_options)
    position = rules.from_json(start)
    for move in game:
        position = rules.apply(position, move)
    return rules.to_json(position)


def _won(final: dict, rules_options: dict | None) -> bool:
    gone = all(c is None for c in final["pyramid"])
    if rules_options and rules_options.get("strictWin"):
        return gone and not final["stock"] and not final["waste"]
    return gone


def solve_both(app: AppEngine, start: dict, which: str | None = None, progress: bool = True,
               rules_options: dict | None = None) -> dict:
    """{max_removed, shortest, winnable, game, solvers: {app: {...}, independent: {...}}, agree}.

    rules_options: a variant's rules (verify/independent/variants.py), default the standard
    rules. Each solver's game is replayed in the other engine, so a game that only one side
    accepts is caught here too. Raises SolverDisagreement when the numbers differ.
    """
    solvers = {}
    games = {}
    if which in (None, "app"):
        r = app.solve(start, progress=_progress_printer("app", progress), rules=rules_options)
        solvers["app"] = {k: r[k] for k in ("max_removed", "shortest", "winnable", "positions", "seconds")}
        games["app"] = r["game"]
    if which in (None, "independent"):
        r = independent_solver.solve(start, progress=_progress_printer("independent", progress), rules=rules_options)
        solvers["independent"] = {"max_removed": r.max_removed, "shortest": r.shortest, "winnable": r.winnable,
                                  "positions": r.positions, "seconds": round(r.seconds, 3)}
        games["independent"] = r.game
    first = next(iter(solvers))
    pyramid_left = sum(c is not None for c in start["pyramid"])
    answer = {
        "max_removed": solvers[first]["max_removed"],
        "shortest": solvers[first]["shortest"],
        "winnable": solvers[first]["winnable"],
        "game": games[first],
        "solvers": solvers,
        "agree": len({(s["max_removed"], s["shortest"], s["winnable"]) for s in solvers.values()}) == 1,
    }
    # Each game must be legal in the other engine and remove what it claims.
    for name, game in games.items():
        if name == "app":
            final = replay_independent(start, game, rules_options)
        else:
            final = app.replay_from(start, game, rules_options)
        removed = pyramid_left - sum(c is not None for c in final["pyramid"])
        if (removed != solvers[name]["max_removed"] or len(game) != solvers[name]["shortest"]
                or _won(final, rules_options) != solvers[name]["winnable"]):
            answer["agree"] = False
            raise SolverDisagreement(f"the {name} solver's game removes {removed} cards in {len(game)} moves, "
                                     f"not the {solvers[name]['max_removed']} in {solvers[name]['shortest']} it claims", answer)
    if not answer["agree"]:
        raise SolverDisagreement(
            "; ".join(f"{k}: {v['max_removed']} cards in {v['shortest']} moves" for k, v in solvers.items()), answer)
    return answer
