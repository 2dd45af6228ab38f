"""The checker's errors: one family, each kind carrying the exit code a shell sees.

`python -m verify` catches VerifyError once (cli.main), prints report() and any notes added on
the way up (add_note, e.g. "No bundle written.") and exits with .exit_code. The independent
engine (verify/independent/) raises its own errors, which know nothing of exit codes; a command
turns them into these where it reads a user's input.
"""
from __future__ import annotations

from .independent.deal import shown  # the one way the checker quotes a user's text

# Control characters in a message (from a file name or an argument) would break its one line.
ESCAPED = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)]}


def one_line(message: str) -> str:
    """The message with control characters (a newline in a file name, say) escaped."""
    return message.translate(ESCAPED)


class VerifyError(Exception):
    """Anything that stops a command."""

    exit_code = 1

    def report(self) -> str:
        """What stderr shows: one line, whatever the message holds."""
        return f"error: {one_line(str(self))}"


class Problems(VerifyError):
    """Several problems found in one run (verify check goes on after one, as far as what is left
    can be checked): each is said on its own line, as it says itself. The exit code is the highest
    of theirs: a disagreement (3) before bad input (2) before a failed check (1)."""

    def __init__(self, problems: list[VerifyError]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
        self.exit_code = max(p.exit_code for p in self.problems)

    def report(self) -> str:
        return "\n".join(p.report() for p in self.problems)


def all_of(problems: list[VerifyError]) -> VerifyError:
    """One problem as itself, several as Problems."""
    return problems[0] if len(problems) == 1 else Problems(problems)


class CheckFailed(VerifyError):
    """A check found something wrong in the examples, the rules or the survey cache."""

    exit_code = 1

    def report(self) -> str:
        return f"FAILED: {self}"


class InputError(VerifyError):
    """Bad input: a deal number, a move, a file, an option."""

    exit_code = 2


class Disagreement(VerifyError):
    """The two engines, the two solvers or the two deciders answered differently: a bug in one
    of them, so the message is shown whole (it may hold both positions, line by line)."""

    exit_code = 3
    who = "the engines"

    def report(self) -> str:
        return f"error: {self.who} disagree — {self}"


class NodeMissing(VerifyError):
    """No Node.js to run the app's own code."""

    exit_code = 4


class Stopped(VerifyError):
    """Stopped by the user (Ctrl-C); the message says what was kept."""

    exit_code = 130

    def report(self) -> str:
        return str(self)


# ---------------------------------------------------------------- the survey's

class SurveyDisagreement(Disagreement):
    """The app's decider and the independent side disagree about a deal."""

    who = "the app and the independent side"

    def __init__(self, deal: int, message: str):
        super().__init__(f"deal {deal}: {message}")
        self.deal = deal

    def __reduce__(self):  # crosses from a worker process
        return (SurveyDisagreement, (self.deal, str(self).split(": ", 1)[1]))


class SurveyIncomplete(CheckFailed):
    """The cache does not hold every deal asked for: run the survey first."""


class ClusterError(InputError):
    """The Dask cluster of `--scheduler` cannot be reached or cannot finish a task (verify/cluster.py)."""


class CodeMismatch(VerifyError):
    """A Dask worker holds other engine, decider or checker files than the driver."""


class MoveRefused(InputError):
    """A move a user gave that both engines refuse, for the same rule."""

    def __init__(self, move_number: int, move: str, rule: str, message: str):
        self.move_number, self.move, self.rule, self.message = move_number, move, rule, message
        super().__init__(f"move {move_number} {shown(move)} is illegal: {message}")


class SolverDisagreement(Disagreement):
    """The two solvers' answers differ; .answer holds both, for --json."""

    def __init__(self, message: str, answer: dict):
        super().__init__(message)
        self.answer = answer
