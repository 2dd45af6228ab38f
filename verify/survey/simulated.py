"""A pool of many simulated workers on a virtual clock, for measuring the driver (run.py) itself:
how busy it keeps a large cluster, and how much it holds. Nothing is decided; each chunk's deals
come back as lost (checked), after a random time drawn from `durations`. Used by
tests/verify/survey/test_survey_pipeline.py and `make bench SECTION=survey`.
"""
from __future__ import annotations

import heapq
import itertools
from collections import deque


class SimulatedPool:
    def __init__(self, workers: int, durations):
        self.workers, self.durations = workers, durations
        self.now = 0.0
        self.busy_time = 0.0
        self.running: list = []  # heap of (finish time, order, tag, task)
        self.waiting: deque = deque()
        self.order = itertools.count()

    def slots(self) -> int:
        return self.workers

    def submit(self, fn, task, tag) -> None:
        self.waiting.append((tag, task))
        self._start()

    def _start(self) -> None:
        while self.waiting and len(self.running) < self.workers:
            tag, task = self.waiting.popleft()
            seconds = self.durations()
            self.busy_time += seconds
            heapq.heappush(self.running, (self.now + seconds, next(self.order), tag, task))

    def next_result(self):
        finish, _, tag, task = heapq.heappop(self.running)
        self.now = finish
        self._start()
        if isinstance(task[0], list):  # a chunk: (deals, rules, max_nodes, share)
            return tag, ({n: {"result": "lost", "check": "redecided", "line": None} for n in task[0]}, 0)
        n, record, _ = task
        return tag, (n, {**record, "check": "redecided"})

    def utilisation(self) -> float:
        """The share of the workers' time spent on tasks, from the start to the last result."""
        return self.busy_time / (self.workers * self.now) if self.now else 0.0
