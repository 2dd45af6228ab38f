"""Where a survey's tasks run: the one small protocol the driver (run.py) needs, and its local forms.

A pool has three methods:
- slots() — how many tasks it can run at once now (worker processes, or a cluster's threads);
- submit(fn, task, tag) — start fn(task) as soon as a slot is free; returns at once;
- next_result() — waits for any submitted task to finish and returns (tag, result), or raises
  what the task raised.
The driver keeps about two tasks per slot submitted (so a slot that frees up finds its next
task already there) and no more, so its memory stays bounded whatever the range. Forms here:
LocalPool (worker processes of this machine), ExecutorPool (any concurrent.futures executor);
verify/cluster.py has DaskPool.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import queue


class LocalPool:
    """Worker processes on this machine (all cores by default), started at the first submit, each
    with the app's decider in a Node process of its own (`initializer`)."""

    def __init__(self, processes: int | None, initializer):
        self.processes = processes or os.cpu_count() or 1
        self.initializer = initializer
        self.pool = None
        self.done: queue.Queue = queue.Queue()

    def slots(self) -> int:
        return self.processes

    def submit(self, fn, task, tag) -> None:
        if self.pool is None:
            self.pool = multiprocessing.get_context("fork").Pool(self.processes, initializer=self.initializer)
        self.pool.apply_async(fn, (task,), callback=lambda result: self.done.put((tag, result, None)),
                              error_callback=lambda error: self.done.put((tag, None, error)))

    def next_result(self):
        tag, result, error = self.done.get()
        if error is not None:
            raise error
        return tag, result

    def stop(self) -> None:
        """After an error or Ctrl+C: the running tasks are not worth finishing."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()  # workers end normally: each closes its Node process
            self.pool.join()


class ExecutorPool:
    """Any concurrent.futures executor (a ProcessPoolExecutor, Dask's client.get_executor())."""

    def __init__(self, executor: concurrent.futures.Executor, slots: int | None = None):
        self.executor = executor
        self._slots = slots or getattr(executor, "_max_workers", None) or os.cpu_count() or 1
        self.pending: dict[concurrent.futures.Future, object] = {}

    def slots(self) -> int:
        return self._slots

    def submit(self, fn, task, tag) -> None:
        self.pending[self.executor.submit(fn, task)] = tag

    def next_result(self):
        done, _ = concurrent.futures.wait(self.pending, return_when=concurrent.futures.FIRST_COMPLETED)
        future = next(iter(done))
        return self.pending.pop(future), future.result()

    def stop(self) -> None:
        for future in self.pending:
            future.cancel()
