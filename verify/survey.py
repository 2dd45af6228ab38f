"""The survey of random deals: for every deal number of a range, can it be won?

`python -m verify survey --deals 1-10000 [--variant V] [--json] [--scheduler ADDRESS]`

The question is a pure function of (deal number, rules), mapped over the range in chunks by a
pool of worker processes (all cores by default) or by a Dask cluster (verify/cluster.py). Each
worker keeps one Node process running verify/survey_worker.mjs, which asks the app's decider
(app/decider.js). Nothing it says is trusted: in the worker, every winning game is replayed in
the independent engine (verify/rules.py, or the variant replayer of verify/decider.py), and
every "lost" is decided again by the independent decider (verify/decider.py) — all of them by
default, or a sample. Any disagreement stops the survey and names the deal.

Cache: build/survey-cache/<variant>-<key>/, where the key hashes the rules options and every
file that makes or checks a result (engine, both deciders, the independent engine), so an
unchanged engine never redoes a deal and a changed one never reuses it. One small JSON file per
finished chunk, written atomically (temporary file, then rename), with a SHA-256 of its
content: a stopped survey loses no finished chunk, and a file that does not verify is deleted
and its deals recomputed.
"""
from __future__ import annotations

import argparse
import atexit
import concurrent.futures
import hashlib
import json
import math
import multiprocessing
import multiprocessing.util
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import decider, rules as independent_rules
from .app import find_node
from .deal import MAX_DEAL, DealNumberError, parse_deal_number, shown

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).with_name("survey_worker.mjs")
CACHE_ROOT = ROOT / "build" / "survey-cache"
FORMAT = 1  # of the cache files; part of the key
KEY_FILES = ("app/engine.js", "app/decider.js", "verify/decider.py", "verify/rules.py", "verify/deal.py")
DEFAULT_MAX_NODES = 20_000_000  # card sets per deal before the app's decider says 'undecided'
CHECK_MAX_NODES = 200_000_000  # the independent decider's limit when it decides again
DEFAULT_CHUNK = 50
MAX_CHUNK = 10_000  # deals per task: one task's records are held in memory at once
MAX_JOBS = 4096  # worker processes
MAX_NODES_LIMIT = 10**12  # exact in JavaScript, far beyond any decided deal
WINDOW_CHUNKS = 200  # chunks per window: a survey holds one window's records, whatever its range
POOL_SIZE = 1000
FIRST_CHECKED = 40  # in a sampled survey, the first lost deals are always decided again
EXIT_DISAGREE, EXIT_INPUT, EXIT_STOPPED = 3, 2, 130


class SurveyDisagreement(Exception):
    """The app's decider and the independent side disagree about a deal."""

    def __init__(self, deal: int, message: str):
        super().__init__(f"deal {deal}: {message}")
        self.deal = deal

    def __reduce__(self):  # crosses from a worker process
        return (SurveyDisagreement, (self.deal, str(self).split(": ", 1)[1]))


class SurveyIncomplete(Exception):
    """The cache does not hold every deal asked for: run the survey first."""


class ClusterError(Exception):
    """The Dask cluster of `--scheduler` cannot be reached or cannot finish a task (verify/cluster.py)."""


# ---------------------------------------------------------------- ranges, keys, cache

def parse_range(text: str) -> tuple[int, int]:
    """'1-10000' or '42' → (first, last); ValueError for anything else. Each end is read by
    deal.parse_deal_number, the reader of `verify deal N`, so both accept the same numbers."""
    parts = text.split("-") if isinstance(text, str) and len(text) <= 80 else []
    try:
        first, last = (parse_deal_number(parts[0]), parse_deal_number(parts[-1])) if 1 <= len(parts) <= 2 else (0, 0)
    except DealNumberError:
        first = last = 0
    if not 1 <= first <= last:
        raise ValueError(f"--deals wants a range like 1-10000 of deal numbers 1 … 4294967295, got {shown(text)}")
    return first, last


def windows(first: int, last: int, chunk: int):
    """(start, end) of each window of first … last: WINDOW_CHUNKS aligned chunks, so a chunk (and
    its cache file) never straddles two windows and any range makes the same files."""
    size = chunk * WINDOW_CHUNKS
    start = first
    while start <= last:
        end = min(last, ((start - 1) // size + 1) * size)
        yield start, end
        start = end + 1


def variant_rules(variant: str) -> dict:
    return decider.rules_of(variant)


def cache_key(rules: dict) -> str:
    """Hash of the rules options, the cache format and every file that makes or checks a result."""
    h = hashlib.sha256(json.dumps({"format": FORMAT, "rules": rules}, sort_keys=True).encode())
    for name in KEY_FILES:
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_dir(variant: str, cache_root: Path | None = None) -> Path:
    return Path(cache_root or CACHE_ROOT) / f"{variant}-{cache_key(variant_rules(variant))}"


def _checksum(payload: dict) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_chunk(directory: Path, records: dict[int, dict], prefix: str = "deals") -> Path:
    """Writes finished deals as one file, atomically: a reader sees the whole file or none."""
    directory.mkdir(parents=True, exist_ok=True)
    deals = sorted(records)
    payload = {"format": FORMAT, "deals": {str(n): records[n] for n in deals}}
    path = directory / f"{prefix}-{deals[0]}-{deals[-1]}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({**payload, "sha256": _checksum(payload)}, separators=(",", ":")))
    os.replace(tmp, path)
    return path


_STRENGTH = {"redecided": 2, "replayed": 2, "unchecked": 1, "none": 0}


def load_cache(directory: Path, max_nodes: int = DEFAULT_MAX_NODES) -> tuple[dict[int, dict], list[Path]]:
    """Every valid record of the cache directory; files that do not verify are deleted (and
    listed), so their deals are recomputed. An 'undecided' found with a smaller node limit than
    asked now is left out, to be tried again."""
    index = CacheIndex(directory)
    return index.records(1, MAX_DEAL, max_nodes), index.dropped


class CacheIndex:
    """The cache files of one directory by the deals they span (from their names), so a window
    of a survey reads only the files that can hold its deals."""

    def __init__(self, directory: Path):
        self.spans: dict[Path, tuple[int, int]] = {}
        self.dropped: list[Path] = []
        if directory.is_dir():
            for path in sorted(directory.glob("*.json")):
                self.spans[path] = _span(path)

    def records(self, first: int, last: int, max_nodes: int) -> dict[int, dict]:
        """The valid records of deals first … last (see load_cache)."""
        records: dict[int, dict] = {}
        for path, (low, high) in list(self.spans.items()):
            if high < first or low > last:
                continue
            chunk = _read_chunk(path)
            if chunk is None:
                path.unlink(missing_ok=True)
                self.dropped.append(path)
                del self.spans[path]
                continue
            for n, r in chunk.items():
                if not first <= n <= last or (r["result"] == "undecided" and r.get("max_nodes", 0) < max_nodes):
                    continue
                old = records.get(n)
                if old is not None and old["result"] != r["result"]:
                    raise SurveyDisagreement(n, f"two cache files disagree ({old['result']} / {r['result']}) in {path.parent}")
                if old is None or _STRENGTH[r["check"]] > _STRENGTH[old["check"]]:
                    records[n] = r
        return records


def _span(path: Path) -> tuple[int, int]:
    """First and last deal of a file named prefix-FIRST-LAST.json (write_chunk); any deal otherwise."""
    parts = path.stem.rsplit("-", 2)
    if len(parts) == 3 and all(p.isascii() and p.isdigit() and len(p) <= 10 for p in parts[1:]):
        return int(parts[1]), int(parts[2])
    return 1, MAX_DEAL


def _read_chunk(path: Path) -> dict[int, dict] | None:
    """The records of one cache file, or None when it does not verify."""
    try:
        data = json.loads(path.read_text())
        payload = {k: v for k, v in data.items() if k != "sha256"}
        if data.get("format") != FORMAT or data.get("sha256") != _checksum(payload):
            raise ValueError("checksum")
        return {int(n): _valid_record(r) for n, r in data["deals"].items()}
    except (ValueError, KeyError, TypeError, AttributeError, json.JSONDecodeError, OSError):
        return None


_CHECKS = {"won": ("replayed",), "lost": ("redecided", "unchecked"), "undecided": ("none",)}


def _valid_record(r: dict) -> dict:
    """A record as the survey writes it: a win only with its replayed game."""
    if r["check"] not in _CHECKS[r["result"]] or (r["result"] == "won") != isinstance(r["line"], list):
        raise ValueError("record")
    return r


# ---------------------------------------------------------------- in a worker process

class NodeDecider:
    """One Node process running verify/survey_worker.mjs (the app's decider), JSON lines."""

    def __init__(self):
        self.process = subprocess.Popen([find_node(), str(WORKER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0
        self.max_rss_kb = 0
        self.owner = os.getpid()

    def decide(self, deals: list[int], rules: dict, max_nodes: int, positions: list[dict] | None = None) -> dict[int, dict]:
        """The app's answers for deal numbers (or for positions, keyed by list index)."""
        self.next_id += 1
        self.process.stdin.write(json.dumps({"id": self.next_id, "deals": deals, "positions": positions or [],
                                             "rules": rules, "maxNodes": max_nodes}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the survey's Node process ended unexpectedly")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"the app's decider failed: {answer['error']}")
        self.max_rss_kb = max(self.max_rss_kb, answer.get("maxRssKb", 0))
        return {int(n): r for n, r in answer["results"].items()}

    def close(self):
        if self.owner == os.getpid() and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


_local = threading.local()  # this thread's Node child, started at its first chunk


def app_decider() -> NodeDecider:
    """The app's decider for this worker (process, or thread of a threaded Dask worker), whatever
    started it: a local pool, Dask, Ray. Started once, closed when the process ends."""
    node = getattr(_local, "node", None)
    # A forked process inherits its parent's: it must start its own (the owner pid differs).
    if node is None or node.owner != os.getpid() or node.process.poll() is not None:
        node = _local.node = NodeDecider()
        multiprocessing.util.Finalize(None, node.close, exitpriority=10)  # pool workers skip atexit
        atexit.register(node.close)
    return node


def _sampled(n: int, share: float) -> bool:
    """A fixed pseudo-random choice of deals, the same in every run."""
    if share >= 1:
        return True
    digest = hashlib.sha256(f"survey-sample-{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < share * 2**64


def replay_won(n: int, line: list[str], rules: dict) -> None:
    """The app's winning game, in the independent engine; SurveyDisagreement if it does not win."""
    try:
        if set(rules) <= {"turns"}:  # the app's rules (one pass = 0 turns): verify/rules.py itself
            position = independent_rules.from_json(decider.opening(n, rules))
            for move in line:
                position = independent_rules.apply(position, move)
            won = independent_rules.status(position) == "won"
        else:
            won = decider.replay(decider.opening(n, rules), line, rules)["won"]
    except ValueError as e:  # IllegalMove of either engine
        raise SurveyDisagreement(n, f"the app's winning game is refused by the independent engine: {e}") from None
    if not won:
        raise SurveyDisagreement(n, f"the app's winning game ({len(line)} moves) does not win in the independent engine")


def decide_again(n: int, rules: dict) -> None:
    """A deal the app calls lost, decided by the independent decider; SurveyDisagreement if won."""
    again = decider.decide_deal(n, rules, max_nodes=CHECK_MAX_NODES)
    if again.result == "won":
        raise SurveyDisagreement(n, "the app's decider says lost, the independent decider wins it with: "
                                    + ", ".join(again.line))
    if again.result != "lost":
        raise SurveyDisagreement(n, "the app's decider says lost, the independent decider could not decide it")


def _check(n: int, record: dict, rules: dict, check_lost: bool) -> dict:
    started = time.perf_counter()
    if record["result"] == "won":
        replay_won(n, record["line"], rules)
        check = "replayed"
    elif record["result"] == "lost" and check_lost:
        decide_again(n, rules)
        check = "redecided"
    else:
        check = "unchecked" if record["result"] == "lost" else "none"
    record = {**record, "check": check, "check_ms": round((time.perf_counter() - started) * 1000, 3)}
    if record["result"] != "won":
        record["line"] = None
    return record


def survey_chunk(task: tuple) -> tuple[dict[int, dict], int]:
    """The unit of work, a pure function of its task (deals, rules, max_nodes, check_share):
    decide the deals in the app, check each answer. Returns the records and the worker's peak
    memory (its Node and its Python, kB). Any executor can map it over the tasks."""
    deals, rules, max_nodes, share = task
    node = app_decider()
    answers = node.decide(deals, rules, max_nodes)
    records = {}
    for n in deals:
        record = _check(n, answers[n], rules, _sampled(n, share))
        if record["result"] == "undecided":
            record["max_nodes"] = max_nodes
        records[n] = record
    return records, node.max_rss_kb + resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def check_deal(task: tuple) -> tuple[int, dict]:
    """Worker: decide again a lost deal (n, record, rules) left unchecked by a sampled run."""
    n, record, rules = task
    return n, _check(n, record, rules, True)


# ---------------------------------------------------------------- the survey

@dataclass
class Tally:
    """Counts of a survey's records, added one at a time (no record is kept)."""

    won: int = 0
    lost: int = 0
    undecided: int = 0
    replayed: int = 0
    redecided: int = 0
    first: int | None = None
    last: int | None = None

    def add(self, n: int, record: dict) -> None:
        setattr(self, record["result"], getattr(self, record["result"]) + 1)
        self.replayed += record["check"] == "replayed"
        self.redecided += record["check"] == "redecided"
        self.first = n if self.first is None else min(self.first, n)
        self.last = n if self.last is None else max(self.last, n)

    @property
    def deals(self) -> int:
        return self.won + self.lost + self.undecided


@dataclass
class Survey:
    variant: str
    first: int
    last: int
    results: dict[int, dict]  # every record when run with keep=True (the default), else empty
    seconds: float
    computed: int = 0  # deals decided in this run (the rest came from the cache)
    dropped: list = field(default_factory=list)  # cache files that did not verify
    peak_rss_kb: int = 0
    tally: Tally = field(default_factory=Tally)

    def counts(self) -> dict:
        return {k: getattr(self.tally, k) for k in ("won", "lost", "undecided")}

    def to_json(self) -> dict:
        c = self.counts()
        return {"deals": self.tally.deals, "won": c["won"], "undecided": c["undecided"],
                "seconds": round(self.seconds, 3),
                "results": {str(n): self.results[n]["result"] for n in sorted(self.results)}}


class Progress:
    """One line on stderr: deals done, won, time so far and the time left."""

    def __init__(self, label: str, total: int, done_before: int, enabled: bool):
        self.label, self.total, self.done_before, self.enabled = label, total, done_before, enabled
        self.started = time.monotonic()
        self.last = 0.0
        self.tty = sys.stderr.isatty()

    def show(self, done: int, won: int, final: bool = False):
        now = time.monotonic()
        if not self.enabled or (not final and now - self.last < (0.5 if self.tty else 10)):
            return
        self.last = now
        elapsed = now - self.started
        rate = (done - self.done_before) / elapsed if elapsed > 0 else 0  # deals from the cache took no time
        left = (self.total - done) / rate if rate > 0 else float("nan")
        text = (f"survey {self.label}: {done:,}/{self.total:,} deals, {won:,} won, {_duration(elapsed)}"
                + ("" if final else f", about {_duration(left)} left"))
        print(("\r" + text.ljust(90)) if self.tty else text, end="\n" if final or not self.tty else "",
              file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m} min {s:02d} s" if m else f"{s} s"


def run_survey(first: int, last: int, variant: str = "standard", jobs: int | None = None,
               check_share: float = 1.0, max_nodes: int = DEFAULT_MAX_NODES, chunk: int = DEFAULT_CHUNK,
               cache_root: Path | None = None, progress: bool = True, recompute: bool = False,
               pool=None, keep: bool = True, on_window=None) -> Survey:
    """Decide every deal of first … last: from the cache, the rest on `pool` (anything with
    multiprocessing.Pool's imap_unordered, e.g. ExecutorPool(a Dask client)) or local processes.

    The range is done window by window (windows()), so memory holds one window's records
    whatever the range: the counts go to survey.tally, each window's records to
    on_window(records), and to survey.results only with keep=True."""
    started = time.monotonic()
    find_node()  # fail here, not in every worker, when Node.js is missing
    rules = variant_rules(variant)
    directory = cache_dir(variant, cache_root)
    if recompute and directory.is_dir():
        for path in directory.glob("*.json"):
            path.unlink()
    index = CacheIndex(directory)
    survey = Survey(variant, first, last, {}, 0.0)
    bar = Progress(f"{variant} {first}-{last}", last - first + 1, 0, progress)
    runner = _Runner(pool, jobs)
    lost_seen = 0  # in a sampled survey, the first FIRST_CHECKED lost deals of the range are decided again
    try:
        for start, end in windows(first, last, chunk):
            results = index.records(start, end, max_nodes)
            if len(index.dropped) > len(survey.dropped) and progress:
                print(f"survey: {len(index.dropped) - len(survey.dropped)} cache file(s) did not verify and were "
                      "deleted; their deals are recomputed", file=sys.stderr)
            survey.dropped = list(index.dropped)
            bar.done_before += len(results)
            # Aligned chunks, so runs over different ranges share files.
            tasks: dict[int, list[int]] = {}
            for n in range(start, end + 1):
                if n not in results:
                    tasks.setdefault((n - 1) // chunk, []).append(n)
            survey.computed += sum(map(len, tasks.values()))
            # Lost deals left unchecked by an earlier sampled run are decided again when all are asked for.
            recheck = [n for n, r in results.items() if r["result"] == "lost" and r["check"] != "redecided"] \
                if check_share >= 1 else []
            if tasks or recheck:
                runner.run(survey, results, bar, directory,
                           [(deals, rules, max_nodes, check_share) for deals in tasks.values()], rules, recheck)
            if check_share < 1 and lost_seen < FIRST_CHECKED:
                first_lost = [n for n in sorted(results) if results[n]["result"] == "lost"][:FIRST_CHECKED - lost_seen]
                lost_seen += len(first_lost)
                todo = [n for n in first_lost if results[n]["check"] != "redecided"]
                if todo:
                    runner.run(survey, results, bar, directory, [], rules, todo)
            for n in sorted(results):
                survey.tally.add(n, results[n])
            if keep:
                survey.results.update(results)
            if on_window:
                on_window(results)
        if runner.pool is not None:
            bar.show(survey.tally.deals, survey.tally.won, final=True)
    except BaseException:
        runner.stop()
        if progress:
            print(file=sys.stderr)
        raise
    runner.close()
    survey.seconds = time.monotonic() - started
    return survey


class ExecutorPool:
    """Any concurrent.futures executor (a ProcessPoolExecutor, Dask's client.get_executor()) seen
    as the one method of multiprocessing.Pool the survey uses."""

    def __init__(self, executor: concurrent.futures.Executor):
        self.executor = executor

    def imap_unordered(self, fn, tasks, chunksize=1):
        futures = [self.executor.submit(fn, task) for task in tasks]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()


class _Runner:
    """Maps survey_chunk over tasks (and check_deal over deals to decide again) on `pool` —
    anything with multiprocessing.Pool's imap_unordered — or on a local process pool started at
    the first window that needs it; the driver alone writes the cache, one file per finished chunk."""

    def __init__(self, pool, jobs):
        self.pool, self.jobs, self.own = pool, jobs, pool is None

    def run(self, survey: Survey, results: dict[int, dict], bar: "Progress", directory: Path, tasks: list,
            rules: dict, recheck: list[int]) -> None:
        if self.pool is None:
            self.pool = multiprocessing.get_context("fork").Pool(processes=self.jobs or os.cpu_count(),
                                                                 initializer=app_decider)
        done = survey.tally.deals  # deals of the earlier windows
        won = survey.tally.won + sum(r["result"] == "won" for r in results.values())
        for records, rss in self.pool.imap_unordered(survey_chunk, tasks):
            write_chunk(directory, records)
            results.update(records)
            survey.peak_rss_kb = max(survey.peak_rss_kb, rss)
            won += sum(r["result"] == "won" for r in records.values())
            bar.show(done + len(results), won)
        checked = dict(self.pool.imap_unordered(check_deal, [(n, results[n], rules) for n in recheck]))
        if checked:
            write_chunk(directory, checked, prefix="checks")
            results.update(checked)

    def stop(self) -> None:
        if self.own and self.pool is not None:
            self.pool.terminate()

    def close(self) -> None:
        if self.own and self.pool is not None:
            self.pool.close()  # workers end normally: each closes its Node process
            self.pool.join()


# ---------------------------------------------------------------- figures for the site

def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a share k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At k = 0 (k = n) the bound is exactly 0 (1); rounding would leave a speck.
    return (0.0 if k == 0 else centre - half, 1.0 if k == n else centre + half)


def cached_results(first: int = 1, last: int = 10000, variant: str = "standard",
                   cache_root: Path | None = None) -> dict[int, dict]:
    """The cached records of a whole range; SurveyIncomplete when any deal is missing."""
    records, _ = load_cache(cache_dir(variant, cache_root), max_nodes=0)
    missing = [n for n in range(first, last + 1) if n not in records]
    if missing:
        raise SurveyIncomplete(f"the {variant} survey of deals {first}-{last} misses {len(missing)} deal(s) "
                               f"(first: {missing[0]}); run: python -m verify survey --deals {first}-{last} "
                               f"--variant {variant}")
    return {n: records[n] for n in range(first, last + 1)}


def summarise(records, variant: str = "standard") -> dict:
    """The figures of a survey from its records ({deal: record}) or from its Tally."""
    tally = records
    if not isinstance(records, Tally):
        tally = Tally()
        for n, r in records.items():
            tally.add(n, r)
    won, lost, undecided = tally.won, tally.lost, tally.undecided
    decided = won + lost
    low, high = wilson(won, decided)
    return {
        "variant": variant, "rules": variant_rules(variant),
        "first": tally.first, "last": tally.last, "deals": tally.deals,
        "won": won, "lost": lost, "undecided": undecided,
        "share": won / decided if decided else None, "interval95": [low, high],
        "replayed": tally.replayed, "redecided": tally.redecided,
    }


def survey_summary(first: int = 1, last: int = 10000, variant: str = "standard",
                   cache_root: Path | None = None) -> dict:
    """The survey figures for the site: deals surveyed, won, share of the decided deals won with
    its 95 % Wilson interval, undecided, and how many answers were checked. From the cache."""
    return summarise(cached_results(first, last, variant, cache_root), variant)


def pool(count: int = POOL_SIZE, first: int = 1, last: int = 10000, variant: str = "standard",
         cache_root: Path | None = None) -> list[dict]:
    """New game's pool: the first `count` winnable deal numbers of the survey, each with its
    winning game (replayed in the independent engine): [{"deal": n, "game": [moves]}, ...]."""
    records = cached_results(first, last, variant, cache_root)
    won = [{"deal": n, "game": r["line"]} for n, r in records.items() if r["result"] == "won" and r["check"] == "replayed"]
    if len(won) < count:
        raise SurveyIncomplete(f"only {len(won)} winnable deals in {first}-{last}, {count} wanted")
    return won[:count]


def variant_table(first: int = 1, last: int = 2000, cache_root: Path | None = None) -> list[dict]:
    """One summary per variant (each surveyed over first … last), for the win-rate table."""
    return [survey_summary(first, last, v, cache_root) for v in decider.VARIANTS]


# ---------------------------------------------------------------- command line

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
    p.add_argument("--deals", default="1-10000", help="range of deal numbers, e.g. 1-10000 (default)")
    p.add_argument("--variant", default="standard", choices=list(decider.VARIANTS))
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
    p.add_argument("--cache", default=None, help=f"cache directory (default {CACHE_ROOT.relative_to(ROOT)})")
    p.add_argument("--recompute", action="store_true", help="forget this variant's cached results first")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=cmd_survey)


def cmd_survey(args, app=None) -> int:
    try:
        first, last = parse_range(args.deals)
        if not 0 < args.check_share <= 1 or not 1 <= args.chunk <= MAX_CHUNK or args.max_nodes < 1 \
                or (args.jobs is not None and args.jobs < 1):
            raise ValueError(f"--check-share must be in (0, 1], --chunk from 1 to {MAX_CHUNK:,}, "
                             "--jobs and --max-nodes at least 1")
        cache_root = Path(args.cache) if args.cache else None
        if cache_root is not None and cache_root.exists() and not cache_root.is_dir():
            raise ValueError(f"--cache {cache_root}: is a file, not a folder")
        if args.scheduler is not None and args.jobs is not None:
            raise ValueError("--jobs counts local processes; with --scheduler the cluster's workers do the work")
        pool = _cluster_pool(args.scheduler, not args.quiet) if args.scheduler is not None else None
    except (ValueError, ClusterError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    # --json lists every deal: into a temporary file window by window, so memory stays bounded.
    listing = tempfile.TemporaryFile("w+") if args.json else None
    try:
        survey = run_survey(first, last, args.variant, jobs=args.jobs, check_share=args.check_share,
                            max_nodes=args.max_nodes, chunk=args.chunk, cache_root=cache_root,
                            progress=not args.quiet, recompute=args.recompute, keep=False, pool=pool,
                            on_window=(lambda records: _list_results(listing, records)) if listing else None)
    except ClusterError as e:
        print(f"error: {e}; finished chunks are kept in the cache, run the same command to resume", file=sys.stderr)
        return EXIT_INPUT
    except SurveyDisagreement as e:
        print(f"error: the app and the independent side disagree — {e}", file=sys.stderr)
        return EXIT_DISAGREE
    except KeyboardInterrupt:
        print("survey stopped; finished deals are kept in the cache, run the same command to resume",
              file=sys.stderr)
        return EXIT_STOPPED
    except OSError as e:
        print(f"error: the survey cache: {e.strerror} ({shown(str(e.filename))})", file=sys.stderr)
        return EXIT_INPUT
    finally:
        if pool is not None:
            pool.close()
    if listing:
        with listing:
            _print_json(survey, listing)
        return 0
    s = summarise(survey.tally, args.variant)
    low, high = s["interval95"]
    print(f"Survey of deals {first}-{last}, {args.variant} rules")
    print(f"  deals:      {s['deals']:,} ({survey.computed:,} decided now, the rest from the cache)")
    print(f"  won:        {s['won']:,} = {s['share']:.2%} of the decided (95 % interval {low:.2%} - {high:.2%})"
          if s["share"] is not None else f"  won:        {s['won']:,}")
    print(f"  lost:       {s['lost']:,} ({s['redecided']:,} decided again independently)")
    print(f"  undecided:  {s['undecided']:,}")
    print(f"  checked:    every winning game replayed in the independent engine ({s['replayed']:,})")
    print(f"  time:       {survey.seconds:.1f} s")
    return 0


def _cluster_pool(address: str, progress: bool):
    """cluster.DaskPool on the scheduler at `address`; ClusterError when Dask is not installed or
    nothing answers there."""
    try:
        from . import cluster  # here: Dask is an optional extra, and a second to import
    except ModuleNotFoundError as e:
        if e.name not in ("dask", "distributed"):
            raise
        raise ClusterError("--scheduler needs Dask, which is not installed: pip install -e '.[cluster]'") from None
    return cluster.open_pool(address, progress)


def _list_results(listing, records: dict[int, dict]) -> None:
    listing.write("".join(f',"{n}":"{records[n]["result"]}"' for n in sorted(records)))


def _print_json(survey: Survey, listing) -> None:
    """The JSON of Survey.to_json, its results copied from the listing without loading it whole."""
    head = {k: v for k, v in survey.to_json().items() if k != "results"}
    listing.seek(0)
    listing.read(1)  # the first entry's leading comma
    sys.stdout.write(json.dumps(head)[:-1] + ', "results": {')
    shutil.copyfileobj(listing, sys.stdout)
    sys.stdout.write("}}\n")


def main(argv: list[str] | None = None) -> int:
    """`python -m verify.survey …`: the survey subcommand on its own (same flags)."""
    from .cli import InputError, OneLineParser

    parser = OneLineParser(prog="python -m verify.survey")
    add_survey_parser(parser.add_subparsers(dest="command"))
    try:
        args = parser.parse_args(["survey", *(sys.argv[1:] if argv is None else argv)])
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    return args.run(args, None)


if __name__ == "__main__":
    sys.exit(main())
