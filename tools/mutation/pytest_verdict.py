"""pytest for mutmut 2: exit 1 whenever the tests did not all pass. mutmut 2 counts a mutant as
survived unless its runner exits exactly 1, so a mutant that breaks the import (pytest: 2, a
collection error) or pytest itself (3) would be called a survivor; here each is the kill it is.
pytest runs in a child process, so that a mutant which kills the process running the tests (a
liveness probe `os.kill(pid, 1)` sends itself SIGHUP) is a kill too, not a runner gone without
an exit code of 1.

Hypothesis does not shrink a failing example here: a mutant is killed by the first one, and
shrinking it (minutes, on a busy machine) only makes it small for a reader, who has none here.
Nor does it keep examples in .hypothesis/ (each mutant's are of another program).

The child dies with this process: mutmut stops a mutant past its time (one that loops) by killing
the runner, and a child left running held mutmut's output pipe open, so mutmut waited for ever."""
import ctypes
import os
import signal
import subprocess
import sys

PR_SET_PDEATHSIG = 1  # Linux prctl(2): the signal a process gets when its parent dies

CHILD = "PYRAMIDE_VERDICT_CHILD"


def run_tests(args: list[str]) -> int:
    import pytest
    from hypothesis import Phase, settings
    settings.register_profile("mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate], database=None)
    settings.load_profile("mutation")
    return pytest.main(args)


if __name__ == "__main__":
    if os.environ.get(CHILD):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        sys.exit(run_tests(sys.argv[1:]))
    child = subprocess.run([sys.executable, __file__, *sys.argv[1:]], env={**os.environ, CHILD: "1"})
    sys.exit(0 if child.returncode == 0 else 1)  # a signal's death is a negative code: killed
