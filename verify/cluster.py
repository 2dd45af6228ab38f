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
  cache key hashes those files on the driver, so its answers would be filed under the wrong key;
  one that cannot import the project at all is one error line, not its remote traceback;
- a tls:// scheduler is reached with the certificates of a security file only, a plain tcp://
  one only on loopback or a private network unless --insecure (cluster_security.py).
Every failure is a ClusterError whose message names the scheduler's address.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import socket
import ssl
import sys
import threading
import time
from functools import partial
from pathlib import Path

from distributed import Client, KilledWorker, Security, as_completed
from distributed.comm import CommClosedError, connect as comm_connect

from .cluster_security import check_address, dask_config_security, load_security
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


def connect(address: str, timeout: float | None = None, security: Security | None = None,
            insecure: bool = False) -> Client:
    """A client of the scheduler at `address`, over TLS with `security` (tls:// only); ClusterError,
    within `timeout` seconds, when the address is not one, may not be used so
    (cluster_security.check_address), nothing answers there, or the scheduler refuses us."""
    timeout = SCHEDULER_TIMEOUT if timeout is None else timeout
    try:
        check_address(address, security, insecure)
        # A bare handshake first: a Client that fails to start leaves a noisy finaliser behind.
        connection_args = security.get_connection_args("client") if security is not None else {}
        _run_in_own_thread(_handshake(address, timeout, connection_args))
        return Client(address, timeout=timeout, set_as_default=False, security=security)
    except ValueError as e:  # no port, unknown scheme
        if "IOStream is not idle" in str(e):
            # tls:// to a plain scheduler that spoke first: Tornado cannot start TLS over its bytes.
            raise _closed(address, security) from None
        raise ClusterError(f"--scheduler {shown(address)}: not a Dask address ({shown(str(e))}); give one "
                           "like tcp://127.0.0.1:8786") from None
    except TypeError as e:  # a scheme this Dask is not set up for: ucx://
        raise ClusterError(f"--scheduler {shown(address)}: Dask cannot connect there as it is set up "
                           f"({shown(str(e))})") from None
    except CommClosedError as e:  # it answered, then hung up during the TLS or Dask handshake
        if _caused_by(e, ssl.SSLCertVerificationError):  # we checked its certificate, and our CA did not sign it
            raise ClusterError(f"the Dask scheduler at {shown(address)} shows a certificate that the security "
                               "file's ca-file did not sign: use the files made with the cluster's certificates") \
                from None
        raise _closed(address, security) from None
    except OSError:  # refused, unknown host, timed out
        raise ClusterError(f"no Dask scheduler answers at {shown(address)} (waited {timeout:g} s); "
                           "start one with `dask scheduler`, or check the address") from None


def _closed(address: str, security: Security | None) -> ClusterError:
    return ClusterError(f"the Dask scheduler at {shown(address)} closed the connection: "
                        + ("it does not accept the security file's certificate (not signed by its CA), or does not speak TLS"
                           if security is not None else
                           "if it runs with TLS, give its tls:// address and --security FILE"))


def _caused_by(error: BaseException, kind: type) -> bool:
    """Whether `error` or an exception it was raised from or while handling is a `kind`."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, kind):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


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


async def _handshake(address: str, timeout: float, connection_args: dict) -> None:
    comm = await comm_connect(address, timeout=timeout, **connection_args)
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
        except (ImportError, RuntimeError) as e:
            # The scheduler (RuntimeError "Error during deserialization of the task graph") or a worker
            # (ImportError) could not read a task: its Python lacks this project.
            if isinstance(e, RuntimeError) and not _caused_by(e, ImportError) and "deserializ" not in str(e):
                raise
            raise ClusterError(f"the Dask cluster at {shown(self.address)} cannot import this project's code "
                               "(its scheduler or a worker runs a Python without it); install the same version "
                               "on every machine of the cluster (pip install -e .) and start Dask there") from None
        if future.cancelled():  # the scheduler went away: Dask cancels what it held
            raise ClusterError(f"the Dask scheduler at {shown(self.address)} stopped answering")
        return self.tags.pop(future.key), result

    def stop(self) -> None:
        """After a stop or an error, the rest is not worth running."""
        self.client.cancel(list(self.futures.futures))
        self.futures.clear()

    def close(self) -> None:
        self.client.close()


def open_pool(address: str, progress: bool, security_file: Path | None = None, insecure: bool = False) -> DaskPool:
    """A DaskPool on the scheduler at `address` (over TLS with the certificates of `security_file`,
    else of Dask's own configuration, for a tls:// address), said on stderr with the cluster's size."""
    # A lost scheduler is reported once, as a ClusterError, not also as the tracebacks of the
    # client's reconnection and of its event loop's callbacks.
    for name in ("distributed.client", "tornado.application"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    if security_file is not None:
        security = load_security(security_file)
    else:
        security = dask_config_security() if address.startswith("tls://") else None
    client = connect(address, security=security, insecure=insecure)
    if progress:
        print(f"survey: on the Dask cluster at {address}{' (TLS)' if security else ''}: {describe(client)}",
              file=sys.stderr)
    return DaskPool(client, address)
