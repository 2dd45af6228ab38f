"""Running a survey: the deals of a range from the cache, the rest mapped in chunks over a pool
of worker processes (all cores by default) or a Dask cluster (verify/cluster.py), window by
window so that memory holds one window's records whatever the range. The driver alone writes
the cache, one file per finished chunk: a stopped survey loses no finished chunk.
"""
from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..app import find_node
from ..settings import DEFAULT_CHUNK, DEFAULT_MAX_NODES, FIRST_CHECKED
from .cache import CacheIndex, cache_dir, own_files, own_folder, variant_rules, windows, write_chunk
from .figures import Tally
from .worker import app_decider, check_deal, survey_chunk


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
    directory = own_folder(cache_dir(variant, cache_root))  # never a link: the survey deletes files here
    if recompute:
        for path in own_files(directory):
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
