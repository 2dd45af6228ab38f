"""Command line of the checker: `python -m verify COMMAND` (or `verify COMMAND` in the venv).

Exit codes: 0 fine; 1 a check failed; 2 bad input (deal number, move, file); 3 the two engines
or the two solvers disagree; 4 Node.js missing.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import deal as independent_deal
from .app import AppEngine, NodeMissing
from .compare import Disagreement, Refusal, opening_layout, play_both
from .report import format_position

EXIT_CHECK, EXIT_INPUT, EXIT_DISAGREE, EXIT_NODE = 1, 2, 3, 4


class InputError(Exception):
    """Bad input from the user: printed as it is, exit code 2."""


def cmd_deal(args, app: AppEngine) -> int:
    layout = opening_layout(app, args.number)
    if args.json:
        print(json.dumps(layout))
    else:
        position = dict(pyramid=layout["pyramid"], stock=layout["stock"], waste=layout["waste"])
        print(f"Deal {layout['deal']} (the app and the independent engine agree)")
        print(format_position(position))
    return 0


def cmd_play(args, app: AppEngine) -> int:
    n = independent_deal.parse_deal_number(args.number)
    opening_layout(app, n)
    position = play_both(app, app.opening(n), args.moves)
    if args.json:
        print(json.dumps(position))
    else:
        print(f"Deal {n} after {len(args.moves)} move(s) (both engines agree)")
        print(format_position(position))
        print(f"Turns left: {position['turns_left']}   Points: {position['points']}   "
              f"Moves: {position['moves']}   Status: {position['status']}")
    return 0


def cmd_solve(args, app: AppEngine) -> int:
    from .solving import solve_both, SolverDisagreement

    if args.position:
        start, label = load_position(Path(args.position)), {"position": args.position}
    elif args.number is not None:
        n = independent_deal.parse_deal_number(args.number)
        opening_layout(app, n)
        start, label = app.opening(n), {"deal": n}
    else:
        raise InputError("solve needs a deal number or --position FILE")
    try:
        answer = solve_both(app, start, which=args.solver, progress=not args.quiet)
    except SolverDisagreement as e:
        if args.json:
            print(json.dumps({**label, **e.answer}))
        raise
    if args.json:
        print(json.dumps({**label, **answer}))
        return 0
    print(("Deal " + str(label["deal"])) if "deal" in label else f"Position {label['position']}")
    print(f"  winnable:            {'yes' if answer['winnable'] else 'no'}")
    print(f"  most pyramid cards:  {answer['max_removed']}")
    print(f"  fewest moves:        {answer['shortest']}")
    print(f"  game:                {', '.join(answer['game']) or '(no move)'}")
    for name, s in answer["solvers"].items():
        print(f"  {name + ' solver:':20} {s['max_removed']} cards in {s['shortest']} moves, "
              f"{s['positions']:,} positions, {s['seconds']:.2f} s")
    if len(answer["solvers"]) == 2:
        print("  the two solvers agree")
    return 0


def cmd_check(args, app: AppEngine) -> int:
    from . import checking  # imported here: it pulls in the survey and numba, which deal/play do not need

    return checking.run(args, app)


def cmd_example(args, app: AppEngine) -> int:
    from . import new_example

    return new_example.run(args, app)


def load_position(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}, line {e.lineno}: not valid JSON ({e.msg})") from None
    from . import rules

    try:
        return rules.to_json(rules.from_json(data))
    except ValueError as e:
        raise InputError(f"{path}: {e}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="verify", description="Pyramide's checker: both engines, both solvers, every check.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("deal", help="the opening layout of deal N")
    p.add_argument("number")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("play", help="apply moves to deal N in both engines")
    p.add_argument("number")
    p.add_argument("moves", nargs="*", metavar="MOVE", help="e.g. 'pair 7H 6S', 'king KD', draw, turn")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("solve", help="largest number of pyramid cards removable and the fewest moves")
    p.add_argument("number", nargs="?")
    p.add_argument("--position", metavar="FILE", help="a saved position (JSON, docs/positions.md)")
    p.add_argument("--solver", choices=["app", "independent"], help="run only one solver")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("check", help="run every check and write build/verified.json (make verify)")
    p.add_argument("--examples", default="examples")
    p.add_argument("--out", default="build/verified.json")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("example", help="write a new example file from the solvers' shortest game")
    p.add_argument("number")
    p.add_argument("--id", help="example id (default: deal-N)")
    p.add_argument("--dir", default="examples")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(run=cmd_example)

    from .survey import add_survey_parser

    add_survey_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from .solving import SolverDisagreement

    try:
        with AppEngine() as app:
            return args.run(args, app)
    except NodeMissing as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_NODE
    except (independent_deal.DealNumberError, InputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except Refusal as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except (Disagreement, SolverDisagreement) as e:
        print(f"error: the engines disagree — {e}", file=sys.stderr)
        return EXIT_DISAGREE


if __name__ == "__main__":
    sys.exit(main())
