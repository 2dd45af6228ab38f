"""Command line of the checker: `python -m verify COMMAND` (or `verify COMMAND` in the venv).

Exit codes (verify/errors.py): 0 fine; 1 a check failed; 2 bad input (deal number, move, file,
option); 3 the two engines, solvers or deciders disagree; 4 Node.js missing; 130 stopped.
Every command's module is imported when the command runs: deal and play need neither numba nor
the survey.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .app import AppEngine
from .compare import deal_number, opening_layout, play_both
from .errors import ClusterError, InputError, Stopped, VerifyError
from .independent.deal import shown
from .independent.variants import VARIANTS
from .report import format_position
from .settings import (BUNDLE, CERT_DAYS, DEFAULT_CHUNK, DEFAULT_MAX_NODES, FIRST_CHECKED, MAX_CERT_DAYS, MAX_CHUNK,
                       MAX_JOBS, MAX_NODES_LIMIT, ROOT, SURVEY_CACHE, SURVEY_RANGE, VARIANT_RANGE)

if TYPE_CHECKING:
    from .survey import Survey

NO_APP = ("survey", "cluster-certs", "variants")  # the survey's workers start their own Node processes; the rest need none
MAX_POSITION_BYTES = 100_000  # a saved position is about 1 KB; a bigger file is not one


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
    n = deal_number(args.number)
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
    from .errors import SolverDisagreement
    from .solving import solve_both

    if args.position:
        start, label = load_position(Path(args.position)), {"position": args.position}
    elif args.number is not None:
        n = deal_number(args.number)
        opening_layout(app, n)
        start, label = app.opening(n), {"deal": n}
        if VARIANTS[args.variant].get("turns") is not None:
            start = {**start, "turns_left": VARIANTS[args.variant]["turns"]}
    else:
        raise InputError("solve needs a deal number or --position FILE")
    if args.variant != "standard":
        label["variant"] = args.variant
    try:
        answer = solve_both(app, start, which=args.solver, progress=not args.quiet,
                            rules_options=dict(VARIANTS[args.variant]))
    except SolverDisagreement as e:
        if args.json:
            print(json.dumps({**label, **e.answer}))
        raise
    if args.json:
        print(json.dumps({**label, **answer}))
        return 0
    print((("Deal " + str(label["deal"])) if "deal" in label else f"Position {label['position']}")
          + (f", {args.variant} rules" if args.variant != "standard" else ""))
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
    from .independent import rules

    try:
        raw = _read_regular_file(path, MAX_POSITION_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a position file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot be read ({e.strerror})") from None
    except ValueError:  # open() refuses a name holding a NUL character
        raise InputError(f"{shown(str(path))}: not a possible file name") from None
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


def _read_regular_file(path: Path, limit: int) -> bytes:
    """Up to limit bytes of path, which must be a regular file: a FIFO would block the read until
    someone writes to it, a device would answer forever. Checked before opening (nothing is
    opened that is not a file) and again on the open file (it may have been swapped meanwhile);
    opened without blocking, so even a swapped-in FIFO returns at once. InputError otherwise."""
    mode = os.stat(path).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a folder is said below, as IsADirectoryError
        raise InputError(f"{path}: is not a regular file (a FIFO, socket or device); give a saved position file")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            raise InputError(f"{path}: is not a regular file (a FIFO, socket or device); give a saved position file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit)
    finally:
        os.close(fd)


def _refuse_duplicate_keys(pairs: list) -> dict:
    """json's object hook: a key given twice is an error, not the last one silently kept."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"the key {shown(key)} appears twice in one object")
        obj[key] = value
    return obj


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
    p.add_argument("--variant", default="standard", choices=list(VARIANTS),
                   help="the rules of a variant (a deal's opening then gets that variant's turns)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("check", help="run every check and write build/verified.json (make verify)")
    p.add_argument("--examples", default="examples")
    p.add_argument("--out", default=str(BUNDLE.relative_to(ROOT)))
    p.add_argument("--no-cache", action="store_true",
                   help="compute every check, ignoring (and not filling) build/check-cache/")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("example", help="write a new example file from the solvers' shortest game")
    p.add_argument("number")
    p.add_argument("--id", help="example id (default: deal-N)")
    p.add_argument("--dir", default="examples")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.set_defaults(run=cmd_example)

    add_survey_parser(sub)

    p = sub.add_parser("variants", help="the variants registry's ids, one a line, standard first (make survey)")
    p.add_argument("--without-standard", action="store_true", help="leave out the app's own rules (standard): its variants only")
    p.set_defaults(run=cmd_variants)

    p = sub.add_parser("cluster-certs", help="write a CA and the certificates of a TLS Dask cluster "
                                             "(survey --scheduler tls://… --security DIR/client.yaml)")
    p.add_argument("folder", metavar="DIR", help="a new or empty folder")
    p.add_argument("--days", type=whole_number(1, MAX_CERT_DAYS), default=CERT_DAYS,
                   help=f"how long the certificates are valid (default {CERT_DAYS} days)")
    p.set_defaults(run=cmd_cluster_certs)
    return parser


def whole_number(low: int, high: int):
    """An argparse type: ASCII digits only (int() would take '١٢' and '1_0'), low … high."""
    def read(text: str) -> int:
        if not (isinstance(text, str) and 0 < len(text) <= 12 and text.isascii() and text.isdigit()) \
                or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"wants a whole number from {low:,} to {high:,}, got {shown(text)}")
        return int(text)
    return read


def share(text: str) -> float:
    """An argparse type: a decimal in (0, 1] written in ASCII ('0.1', '1'), no 'nan' or '1e-3'."""
    if not (isinstance(text, str) and re.fullmatch(r"[0-9]{1,3}(\.[0-9]{0,9})?|\.[0-9]{1,9}", text)) \
            or not 0 < float(text) <= 1:
        raise argparse.ArgumentTypeError(f"wants a share from 0 (excluded) to 1, like 0.1, got {shown(text)}")
    return float(text)


def add_survey_parser(subparsers) -> None:
    p = subparsers.add_parser("survey", help="decide which deals of a range can be won (cached, checked)")
    p.add_argument("--deals", default=None, help="range of deal numbers, e.g. 1-10000 (default)")
    p.add_argument("--variant", default=None, choices=list(VARIANTS))
    p.add_argument("--all", action="store_true",
                   help=f"the whole survey make survey runs: standard rules over {_span(SURVEY_RANGE)}, each "
                        f"variant over {_span(VARIANT_RANGE)}; one progress line, no summaries")
    p.add_argument("--jobs", type=whole_number(1, MAX_JOBS), default=None,
                   help="worker processes (default: all cores)")
    p.add_argument("--check-share", type=share, default=1.0, metavar="F",
                   help="share of lost deals decided again independently (default 1 = all; below 1 a fixed "
                        f"pseudo-random sample plus the first {FIRST_CHECKED} lost deals)")
    p.add_argument("--max-nodes", type=whole_number(1, MAX_NODES_LIMIT), default=DEFAULT_MAX_NODES,
                   help="card sets per deal before the app's decider gives up (undecided)")
    p.add_argument("--chunk", type=whole_number(1, MAX_CHUNK), default=DEFAULT_CHUNK,
                   help="deals per task and per cache file")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the chunks on the Dask cluster of this scheduler, e.g. tcp://127.0.0.1:8786 "
                        "(Dask comes with: pip install -e '.[cluster]')")
    p.add_argument("--security", metavar="FILE", default=None,
                   help="for a tls:// scheduler: the certificates to use, e.g. DIR/client.yaml of "
                        "`verify cluster-certs DIR`")
    p.add_argument("--insecure", action="store_true",
                   help="allow a plain tcp:// scheduler outside loopback and the private ranges")
    p.add_argument("--cache", default=None, help=f"cache directory (default {SURVEY_CACHE.relative_to(ROOT)})")
    p.add_argument("--recompute", action="store_true", help="forget this variant's cached results first")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=cmd_survey)


def _span(deals: tuple[int, int]) -> str:
    return f"{deals[0]}-{deals[1]}"


def surveys_asked(args) -> list[tuple[str, str]]:
    """(variant, deals) of each survey to run: --all's, or the one of --variant and --deals."""
    if not args.all:
        return [(args.variant or "standard", args.deals or _span(SURVEY_RANGE))]
    if args.deals is not None or args.variant is not None or args.json:
        raise ValueError("--all runs the whole survey (every variant over its range): not with --deals, "
                         "--variant or --json")
    return [(v, _span(SURVEY_RANGE if v == "standard" else VARIANT_RANGE)) for v in VARIANTS]


def cmd_survey(args, app=None) -> int:
    from .survey import parse_range, run_survey, summarise  # numba and the worker pool: only here
    from .survey.progress import Progress

    try:
        asked = [(variant, *parse_range(deals)) for variant, deals in surveys_asked(args)]
        if not 0 < args.check_share <= 1 or not 1 <= args.chunk <= MAX_CHUNK or args.max_nodes < 1 \
                or (args.jobs is not None and args.jobs < 1):
            raise ValueError(f"--check-share must be in (0, 1], --chunk from 1 to {MAX_CHUNK:,}, "
                             "--jobs and --max-nodes at least 1")
        cache_root = Path(args.cache) if args.cache else None
        if cache_root is not None and cache_root.exists() and not cache_root.is_dir():
            raise ValueError(f"--cache {cache_root}: is a file, not a folder")
        if args.scheduler is not None and args.jobs is not None:
            raise ValueError("--jobs counts local processes; with --scheduler the cluster's workers do the work")
        if args.scheduler is None and (args.security is not None or args.insecure):
            raise ValueError("--security and --insecure are about the cluster of --scheduler ADDRESS; "
                             "a local survey has none")
    except ValueError as e:
        raise InputError(str(e)) from None
    pool = _cluster_pool(args, not args.quiet) if args.scheduler is not None else None
    # --json lists every deal: into a temporary file window by window, so memory stays bounded.
    listing = tempfile.TemporaryFile("w+") if args.json else None
    # --all: one bar over every survey, and its last line is all it says.
    bar = Progress("survey", sum(last - first + 1 for _, first, last in asked), not args.quiet) if args.all else None
    computed = 0
    try:
        for variant, first, last in asked:
            survey = run_survey(first, last, variant, jobs=args.jobs, check_share=args.check_share,
                                max_nodes=args.max_nodes, chunk=args.chunk, cache_root=cache_root,
                                progress=not args.quiet, recompute=args.recompute, keep=False, pool=pool, bar=bar,
                                on_window=(lambda records: _list_results(listing, records)) if listing else None)
            computed += survey.computed
    except ClusterError as e:
        raise ClusterError(f"{e}; finished chunks are kept in the cache, run the same command to resume") from None
    except KeyboardInterrupt:
        raise Stopped("survey stopped; finished deals are kept in the cache, run the same command to resume") from None
    except OSError as e:
        raise InputError(f"the survey cache: {e.strerror} ({shown(str(e.filename))})") from None
    finally:
        if pool is not None:
            pool.close()
    if bar:
        bar.close(computed)
        return 0
    if listing:
        with listing:
            _print_json(survey, listing)
        return 0
    s = summarise(survey.tally, variant)
    low, high = s["interval95"]
    print(f"Survey of deals {first}-{last}, {variant} rules")
    print(f"  deals:      {s['deals']:,} ({survey.computed:,} decided now, the rest from the cache)")
    print(f"  won:        {s['won']:,} = {s['share']:.2%} of the decided (95 % interval {low:.2%} - {high:.2%})"
          if s["share"] is not None else f"  won:        {s['won']:,}")
    print(f"  lost:       {s['lost']:,} ({s['redecided']:,} decided again independently)")
    print(f"  undecided:  {s['undecided']:,}")
    print(f"  checked:    every winning game replayed in the independent engine ({s['replayed']:,})")
    print(f"  time:       {survey.seconds:.1f} s")
    return 0


def _cluster_pool(args, progress: bool):
    """cluster.DaskPool on the scheduler of --scheduler (with --security, --insecure); ClusterError
    when Dask is not installed, the address may not be used or nothing answers there."""
    try:
        from . import cluster  # here: Dask is an optional extra, and a second to import
    except ModuleNotFoundError as e:
        if e.name not in ("dask", "distributed"):
            raise
        raise ClusterError("--scheduler needs Dask, which is not installed: pip install -e '.[cluster]'") from None
    return cluster.open_pool(args.scheduler, progress, Path(args.security) if args.security else None,
                             args.insecure)


def cmd_variants(args, app=None) -> int:
    """The ids of app/core/variant-registry.js (as the independent engine reads it), one a line."""
    print("\n".join(v for v in VARIANTS if not (args.without_standard and v == "standard")))
    return 0


def cmd_cluster_certs(args, app=None) -> int:
    try:
        from . import cluster_certs  # here: cryptography comes with the cluster extra
    except ModuleNotFoundError as e:
        if e.name != "cryptography":
            raise
        raise InputError("cluster-certs needs cryptography, which is not installed: pip install -e '.[cluster]'") \
            from None
    folder = Path(args.folder)
    cluster_certs.write_certificates(folder, args.days)
    print(cluster_certs.describe(folder, args.days))
    return 0


def _list_results(listing, records: dict[int, dict]) -> None:
    listing.write("".join(f',"{n}":"{records[n]["result"]}"' for n in sorted(records)))


def _print_json(survey: "Survey", listing) -> None:
    """The JSON of Survey.to_json, its results copied from the listing without loading it whole."""
    head = {k: v for k, v in survey.to_json().items() if k != "results"}
    listing.seek(0)
    listing.read(1)  # the first entry's leading comma
    sys.stdout.write(json.dumps(head)[:-1] + ', "results": {')
    shutil.copyfileobj(listing, sys.stdout)
    sys.stdout.write("}}\n")


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command in NO_APP:
            return args.run(args, None)
        with AppEngine() as app:
            return args.run(args, app)
    except VerifyError as e:
        print(e.report(), *getattr(e, "__notes__", ()), sep="\n", file=sys.stderr)
        return e.exit_code


if __name__ == "__main__":
    sys.exit(main())
