"""The survey's progress, one line: a tqdm bar on a terminal; elsewhere (make's output in a log,
a pipe) a plain line every LOG_SECONDS and the last one, so a log holds a few lines, not a bar.

One Progress may span several surveys (`verify survey --all`: the standard rules and every
variant, one bar): each survey calls part() first and then counts from zero within it.
"""
from __future__ import annotations

import sys
import time

from tqdm import tqdm

LOG_SECONDS = 30.0


class Progress:
    def __init__(self, label: str, total: int, enabled: bool = True):
        self.label, self.total, self.enabled = label, total, enabled
        self.tty = sys.stderr.isatty()
        self.started = self.logged = time.monotonic()
        self.base_done = self.base_won = self.done = self.won = 0
        self.bar = tqdm(total=total, desc=label, unit=" deals", unit_scale=False, file=sys.stderr,
                        disable=not (enabled and self.tty), dynamic_ncols=True, leave=True)

    def part(self, label: str) -> None:
        """A new survey starts: its counts go on from the totals so far."""
        self.base_done, self.base_won = self.done, self.won
        self.bar.set_description_str(label, refresh=False)

    def show(self, done: int, won: int) -> None:
        """The current survey has done `done` deals, `won` of them won."""
        self.done, self.won = self.base_done + done, self.base_won + won
        self.bar.set_postfix_str(f"{self.won:,} won", refresh=False)
        self.bar.update(self.done - self.bar.n)
        now = time.monotonic()
        if self.enabled and not self.tty and now - self.logged >= LOG_SECONDS:
            self.logged = now
            print(self.line(), file=sys.stderr, flush=True)

    def close(self, computed: int) -> None:
        """The last line: on a terminal the bar stays as it ends; elsewhere it is printed."""
        self.bar.set_postfix_str(f"{self.won:,} won, {computed:,} decided now", refresh=False)
        self.bar.close()
        if self.enabled and not self.tty:
            print(self.line(f", {computed:,} decided now (the rest from the cache)"), file=sys.stderr, flush=True)

    def stop(self) -> None:
        """Stopped by an error or Ctrl+C: the bar's line ends, the error is said below it."""
        self.bar.close()

    def line(self, more: str = "") -> str:
        return f"{self.label}: {self.done:,}/{self.total:,} deals, {self.won:,} won{more}, {self._elapsed()}"

    def _elapsed(self) -> str:
        m, s = divmod(round(time.monotonic() - self.started), 60)
        return f"{m} min {s:02d} s" if m else f"{s} s"
