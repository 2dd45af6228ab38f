"""A limit on a test's CPU time while numba's compiler is off (a mutation run of the independent
decider, NUMBA_DISABLE_JIT=1): a mutant that loops then fails its test after so many CPU-seconds
of this process, and the run goes on at once; a machine paused or busy counts no CPU time.
Compiled, the first call compiles the search (seconds each): no limit then."""
import signal
from contextlib import contextmanager

import numba


@contextmanager
def cpu_seconds_without_the_compiler(seconds: float):
    if not numba.config.DISABLE_JIT:
        yield
        return

    def stop(signum, frame):
        raise TimeoutError(f"still running after {seconds:g} CPU-seconds: a loop that does not end")
    before = signal.signal(signal.SIGVTALRM, stop)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, before)
