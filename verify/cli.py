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
MAX_POSITION_BYTES = 100_000  # a saved position is about 1 KB; a bigger file is not one
# Control characters in a message (from a file name or an argument) would break its one line.
ESCAPED = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)]}


class InputError(Exception):
    """Bad input from the user: printed as it is, exit code 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is an InputError: one line `error: …` and exit 2 like any
    other bad input, instead of the usage text (`verify COMMAND --help` shows that)."""

    def error(self, message):
        raise InputError(f"{self.prog}: {message}")


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
    """The position of a saved JSON file (docs/positions.md), as it could arise in a game;
    InputError naming the file for anything else."""
    from . import rules

    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_POSITION_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a position file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot be read ({e.strerror})") from None
    except ValueError:  # open() refuses a name holding a NUL character
        raise InputError(f"{independent_deal.shown(str(path))}: not a possible file name") from None
    if len(raw) > MAX_POSITION_BYTES:
        raise InputError(f"{path}: larger than {MAX_POSITION_BYTES:,} bytes; a saved position is about 1 KB")
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=_refuse_duplicate_keys)
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text (byte {raw[e.start]:#04x} at offset {e.start})") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}, line {e.lineno}: not valid JSON ({e.msg})") from None
    except RecursionError:
        raise InputError(f"{path}: nested too deeply to be a position") from None
    except ValueError as e:  # a duplicate key, or an integer of thousands of digits
        raise InputError(f"{path}: not a position ({e})") from None
    try:
        position = rules.from_json(data)
        rules.check_deck(position)
    except ValueError as e:
        raise InputError(f"{path}: {e}") from None
    return rules.to_json(position)


def _refuse_duplicate_keys(pairs: list) -> dict:
    """json's object hook: a key given twice is an error, not the last one silently kept."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"the key {independent_deal.shown(key)} appears twice in one object")
        obj[key] = value
    return obj


def one_line(message: str) -> str:
    """The message with control characters (a newline in a file name, say) escaped."""
    return message.translate(ESCAPED)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="verify", description="Pyramide's checker: both engines, both solvers, every check.")
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
    try:
        args = build_parser().parse_args(argv)
        with AppEngine() as app:
            return args.run(args, app)
    except NodeMissing as e:
        return _fail(str(e), EXIT_NODE)
    except (independent_deal.DealNumberError, InputError) as e:
        return _fail(str(e), EXIT_INPUT)
    except Refusal as e:
        return _fail(f"move {e.move_number} {independent_deal.shown(e.move)} is illegal: {e.message}", EXIT_INPUT)
    except Disagreement as e:  # of the solvers too (solving.SolverDisagreement)
        print(f"error: the engines disagree — {e}", file=sys.stderr)  # a bug, not bad input: shown whole
        return EXIT_DISAGREE


def _fail(message: str, code: int) -> int:
    print(f"error: {one_line(message)}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
