"""The survey on a Dask cluster: `verify survey --scheduler ADDRESS`.

The survey's unit of work (survey.survey_chunk) is a pure function of its task, so a cluster
only has to run its tasks. DaskPool gives a distributed.Client the three methods of a survey pool
(slots, submit, next_result); the driver alone reads and writes the cache, as in a local run.
What it promises:
- the same tasks (chunks of deals), hence the same records and the same cache files as a local run;
- a worker that dies loses nothing and duplicates nothing: the scheduler gives its tasks to
  another worker, and each task's result reaches the driver once (one future per task), which
  writes that chunk's file once;
- a worker whose engine, deciders or checker differ from the driver's refuses every task: the
  cache key hashes those files on the driver, so its answers would be filed under the wrong key.
Every failure is a ClusterError whose message names the scheduler's address.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import socket
import sys
import threading
import time
from functools import partial

from distributed import Client, KilledWorker, as_completed
from distributed.comm import connect as comm_connect

from .errors import ClusterError, CodeMismatch
from .independent.deal import shown
from .settings import ROOT
from .survey.cache import KEY_FILES

SCHEDULER_TIMEOUT = 10.0  # seconds to reach the scheduler before `--scheduler` gives up


def code_digest() -> str:
    """Hash of the files that make or check a result (KEY_FILES), as this machine has them."""
    h = hashlib.sha256()
    for name in KEY_FILES:
        h.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def on_same_code(expected: str, fn, task):
    """fn(task) on a worker, once it has checked that its files are the driver's (CodeMismatch if not)."""
    here = code_digest()
    if here != expected:
        raise CodeMismatch(f"the worker on {socket.gethostname()} has other engine, decider or checker files "
                           f"than the driver (code {here}, driver {expected}); install the same version on every worker")
    return fn(task)


def connect(address: str, timeout: float | None = None) -> Client:
    """A client of the scheduler at `address`; ClusterError, within `timeout` seconds, when
    the address is not one or nothing answers there."""
    timeout = SCHEDULER_TIMEOUT if timeout is None else timeout
    try:
        # A bare handshake first: a Client that fails to start leaves a noisy finaliser behind.
        _run_in_own_thread(_handshake(address, timeout))
        return Client(address, timeout=timeout, set_as_default=False)
    except ValueError as e:  # no port, unknown scheme
        raise ClusterError(f"--scheduler {shown(address)}: not a Dask address ({shown(str(e))}); give one "
                           "like tcp://127.0.0.1:8786") from None
    except TypeError as e:  # a scheme this Dask is not set up for: tls:// without certificates, ucx://
        raise ClusterError(f"--scheduler {shown(address)}: Dask cannot connect there as it is set up "
                           f"({shown(str(e))})") from None
    except OSError:  # refused, unknown host, timed out
        raise ClusterError(f"no Dask scheduler answers at {shown(address)} (waited {timeout:g} s); "
                           "start one with `dask scheduler`, or check the address") from None


def _run_in_own_thread(coroutine) -> None:
    """asyncio.run(coroutine), also where the caller's thread already runs an event loop (a
    notebook, Playwright's sync API in the tests), which asyncio.run refuses: a new thread has none."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as e:  # handed back to the caller's thread, as raised
            failure.append(e)

    thread = threading.Thread(target=run, name="dask-handshake")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


async def _handshake(address: str, timeout: float) -> None:
    comm = await comm_connect(address, timeout=timeout)
    await comm.close()


def describe(client: Client) -> str:
    """'2 workers, 2 threads' of the cluster now (workers may join or leave later)."""
    threads = client.nthreads()
    return f"{len(threads)} worker(s), {sum(threads.values())} thread(s)"


class DaskPool:
    """A Dask cluster as a survey pool (verify/survey/pools.py: slots, submit, next_result)."""

    SLOTS_EVERY = 5.0  # seconds between two readings of the cluster's size (workers join and leave)

    def __init__(self, client: Client, address: str):
        self.client, self.address = client, address
        self.code = code_digest()
        self.tags: dict[str, object] = {}
        self.futures = as_completed(with_results=True, loop=client.loop)
        self._slots, self._read_at = 1, -math.inf

    def slots(self) -> int:
        """The cluster's worker threads now, read again every few seconds."""
        if time.monotonic() - self._read_at > self.SLOTS_EVERY:
            self._slots = max(1, sum(self.client.nthreads().values()))
            self._read_at = time.monotonic()
        return self._slots

    def submit(self, fn, task, tag) -> None:
        # pure=False: a task's key never depends on its content, so no result is shared or cached
        # by the scheduler between runs; a task on a worker that dies is run again elsewhere.
        future = self.client.submit(partial(on_same_code, self.code, fn), task, pure=False)
        self.tags[future.key] = tag
        self.futures.add(future)

    def next_result(self):
        """The next task to finish, with its tag; each task's result comes once."""
        try:
            future, result = next(self.futures)
        except KilledWorker as e:  # the same task took down several workers: a crash, not bad luck
            raise ClusterError(f"the Dask cluster at {shown(self.address)} lost every worker that ran one task "
                               f"({e})") from None
        except CodeMismatch as e:
            raise ClusterError(f"the Dask cluster at {shown(self.address)}: {e}") from None
        if future.cancelled():  # the scheduler went away: Dask cancels what it held
            raise ClusterError(f"the Dask scheduler at {shown(self.address)} stopped answering")
        return self.tags.pop(future.key), result

    def stop(self) -> None:
        """After a stop or an error, the rest is not worth running."""
        self.client.cancel(list(self.futures.futures))
        self.futures.clear()

    def close(self) -> None:
        self.client.close()


def open_pool(address: str, progress: bool) -> DaskPool:
    """A DaskPool on the scheduler at `address`, said on stderr with the cluster's size."""
    # A lost scheduler is reported once, as a ClusterError, not also as the tracebacks of the
    # client's reconnection and of its event loop's callbacks.
    for name in ("distributed.client", "tornado.application"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    client = connect(address)
    if progress:
        print(f"survey: on the Dask cluster at {address}: {describe(client)}", file=sys.stderr)
    return DaskPool(client, address)
