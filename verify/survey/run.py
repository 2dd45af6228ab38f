"""Running a survey: the deals of a range from the cache, the rest sent in chunks to a pool of
worker processes (all cores by default) or a Dask cluster (verify/cluster.py).

The driver keeps every worker busy: it submits chunks as slots free up, about two per slot
ahead (pools.py), reading the range window by window from the cache as it goes, and counts
each record as soon as it is known, so a slow chunk holds up nothing but itself. Memory holds
the tasks in flight and one window's queue, whatever the range. The driver alone writes the
cache, one file per finished chunk, as each arrives: a stopped survey loses no finished chunk.
"""
from __future__ import annotations

import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from ..app import find_node
from ..settings import DEFAULT_CHUNK, DEFAULT_MAX_NODES, FIRST_CHECKED
from .cache import CacheIndex, cache_dir, own_files, own_folder, variant_rules, windows, write_chunk
from .figures import Tally
from .pools import LocalPool
from .progress import Progress
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
    peak_in_flight: int = 0  # the most tasks submitted and not yet back (what bounds the driver's memory)

    def counts(self) -> dict:
        return {k: getattr(self.tally, k) for k in ("won", "lost", "undecided")}

    def to_json(self) -> dict:
        c = self.counts()
        return {"deals": self.tally.deals, "won": c["won"], "undecided": c["undecided"],
                "seconds": round(self.seconds, 3),
                "results": {str(n): self.results[n]["result"] for n in sorted(self.results)}}


def run_survey(first: int, last: int, variant: str = "standard", jobs: int | None = None,
               check_share: float = 1.0, max_nodes: int = DEFAULT_MAX_NODES, chunk: int = DEFAULT_CHUNK,
               cache_root: Path | None = None, progress: bool = True, recompute: bool = False,
               pool=None, keep: bool = True, on_window=None, bar: Progress | None = None) -> Survey:
    """Decide every deal of first … last: from the cache, the rest on `pool` (pools.py: LocalPool,
    ExecutorPool, cluster.DaskPool, or anything with slots/submit/next_result), by default local
    processes. The counts go to survey.tally, the records as they become known to
    on_window(records) (in batches: a window's cached records, a chunk's), and to survey.results
    only with keep=True. bar: a Progress shared with other surveys (verify survey --all), else its own."""
    started = time.monotonic()
    find_node()  # fail here, not in every worker, when Node.js is missing
    rules = variant_rules(variant)
    directory = own_folder(cache_dir(variant, cache_root))  # never a link: the survey deletes files here
    if recompute:
        for path in own_files(directory):
            path.unlink()
    survey = Survey(variant, first, last, {}, 0.0)
    own_bar = bar is None
    bar = Progress(f"survey {variant} {first}-{last}", last - first + 1, progress) if own_bar else bar
    bar.part(f"survey {variant} {first}-{last}")
    own = pool is None
    pool = LocalPool(jobs, app_decider) if own else pool
    driver = _Driver(survey, pool, CacheIndex(directory), directory, rules, max_nodes, check_share, bar, progress,
                     keep, on_window)
    try:
        driver.run(windows(first, last, chunk), chunk)
        bar.show(survey.tally.deals, survey.tally.won)
    except BaseException:
        if hasattr(pool, "stop"):
            pool.stop()
        bar.stop()  # the bar's line ends before the error is said
        raise
    if own:
        pool.close()
    survey.seconds = time.monotonic() - started
    if own_bar:
        bar.close(survey.computed)
    return survey


class _Driver:
    """Reads the range window by window from the cache and submits what is missing as slots free up.

    Nothing waits for a window to finish: each record is counted (and listed) when it is known,
    from the cache or as its chunk comes back, so one slow chunk never holds the rest. The
    driver holds the tasks in flight (about two per slot) and at most one window's queued tasks."""

    def __init__(self, survey: Survey, pool, index: CacheIndex, directory: Path, rules: dict, max_nodes: int,
                 check_share: float, bar: Progress, progress: bool, keep: bool, on_window):
        self.survey, self.pool, self.index, self.directory = survey, pool, index, directory
        self.rules, self.max_nodes, self.check_share = rules, max_nodes, check_share
        self.bar, self.progress, self.keep, self.on_window = bar, progress, keep, on_window
        self.jobs: deque = deque()  # (fn, task) of the current window, not yet submitted
        self.in_flight = 0
        self.sent = 0
        # A sampled survey decides every lost deal again in the first chunks of the range, until
        # they hold FIRST_CHECKED lost deals: chunks go out in order, so those are the range's first.
        self.lost_in_checked = 0
        self.done = 0  # for the progress line

    def run(self, window_ranges, chunk: int) -> None:
        ranges = iter(window_ranges)
        more = True
        while True:
            ahead = 2 * max(1, self.pool.slots())
            while self.in_flight < ahead and (self.jobs or more):
                if not self.jobs:
                    span = next(ranges, None)
                    if span is None:
                        more = False
                    else:
                        self._open(*span, chunk)
                    continue
                self._submit(*self.jobs.popleft())
            self.survey.peak_in_flight = max(self.survey.peak_in_flight, self.in_flight)
            if self.in_flight == 0:
                return  # nothing queued, nothing left to read, nothing out
            self._receive(*self.pool.next_result())

    @property
    def _check_all(self) -> bool:
        return self.check_share >= 1 or self.lost_in_checked < FIRST_CHECKED

    def _open(self, start: int, end: int, chunk: int) -> None:
        """A window from the cache: its records counted, its missing deals queued as aligned
        chunks (so runs over different ranges share files), and its cached lost deals that a
        sampled run left unchecked queued for checking when every lost deal is to be checked."""
        results = self.index.records(start, end, self.max_nodes)
        if len(self.index.dropped) > len(self.survey.dropped) and self.progress:
            print(f"survey: {len(self.index.dropped) - len(self.survey.dropped)} cache file(s) did not verify and "
                  "were deleted; their deals are recomputed", file=sys.stderr)
        self.survey.dropped = list(self.index.dropped)
        self.done += len(results)
        recheck = {}
        for n in sorted(results):
            r = results[n]
            if r["result"] == "lost" and self._check_all:
                self.lost_in_checked += 1
                if r["check"] != "redecided":
                    recheck[n] = r
        known = {n: r for n, r in results.items() if n not in recheck}
        self._count(known)
        tasks: dict[int, list[int]] = {}
        for n in range(start, end + 1):
            if n not in results:
                tasks.setdefault((n - 1) // chunk, []).append(n)
        self.survey.computed += sum(map(len, tasks.values()))
        for n, r in recheck.items():
            self.jobs.append((check_deal, (n, r, self.rules)))
        for deals in tasks.values():
            self.jobs.append((survey_chunk, deals))  # the share is fixed when it is sent

    def _submit(self, fn, task) -> None:
        if fn is survey_chunk:
            task = (task, self.rules, self.max_nodes, 1.0 if self._check_all else self.check_share)
        self.in_flight += 1
        self.sent += 1
        self.pool.submit(fn, task, (fn, task[-1] >= 1 if fn is survey_chunk else True))

    def _receive(self, tag, result) -> None:
        fn, checked_all = tag
        self.in_flight -= 1
        if fn is survey_chunk:
            records, rss = result
            write_chunk(self.directory, records)
            self.survey.peak_rss_kb = max(self.survey.peak_rss_kb, rss)
            if checked_all:
                self.lost_in_checked += sum(r["result"] == "lost" for r in records.values())
            self.done += len(records)
        else:
            n, record = result
            write_chunk(self.directory, {n: record}, prefix="checks")
            records = {n: record}
        self._count(records)
        self.bar.show(self.done, self.survey.tally.won)

    def _count(self, records: dict[int, dict]) -> None:
        for n in sorted(records):
            self.survey.tally.add(n, records[n])
        if self.keep:
            self.survey.results.update(records)
        if self.on_window and records:
            self.on_window(records)


__all__ = ["Progress", "Survey", "run_survey"]
