"""The build's bounds as a whole: memory and time, whatever a page or a string asks for.

Inside a page the sandbox counts loop passes, calls, characters and seconds (generator/guard/sandbox.py);
these bounds catch whatever is left:
- memory: `python -m generator build|publish|lint` caps its address space at MEMORY_BYTES
  (RLIMIT_AS; MkDocs, which it starts, inherits the cap). Past it Python raises MemoryError,
  which the command reports as one `error:` line. A build needs about a tenth of it.
- time: gathering, writing and checking the site must end within BUILD_SECONDS (SIGALRM in the
  main thread; a thread of `make serve` goes without). A build takes well under a minute.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from generator.errors import BuildError

MEMORY_BYTES = 4 * 1024 ** 3
BUILD_SECONDS = 600


class BuildTimeout(BuildError):
    exit_code = 1


def cap_memory(limit: int = MEMORY_BYTES) -> None:
    """RLIMIT_AS for this process and what it starts (never raised above a lower existing cap)."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): the page bounds still hold
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


@contextmanager
def time_bound(seconds: int = BUILD_SECONDS):
    """BuildTimeout if the body runs longer than `seconds` (main thread only; elsewhere no bound)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum, frame):
        raise BuildTimeout(f"the build took longer than {seconds} s and was stopped; nothing was changed")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
