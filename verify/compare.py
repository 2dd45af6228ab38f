"""Both engines side by side: every answer is computed twice and must agree.

The app's engine answers through the Node bridge (verify/app.py); the independent engine is
verify/rules.py. A difference is a Disagreement, never silently resolved.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import deal as independent_deal
from . import rules
from .app import AppEngine, AppError


class Disagreement(Exception):
    """The two engines gave different answers: a bug in one of them (exit code 3)."""


@dataclass
class Refusal(Exception):
    """A move both engines refuse, for the same rule."""

    move_number: int
    move: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"move {self.move_number} '{self.move}' is illegal: {self.message}"


def opening_layout(app: AppEngine, n: int) -> dict:
    """Deal n's layout, after checking that both engines lay it out identically."""
    n = independent_deal.parse_deal_number(n)
    mine = independent_deal.layout_json(independent_deal.deal(n), n)
    theirs = app.deal(n)
    if mine != theirs:
        raise Disagreement(f"deal {n}: the app lays out {theirs} but the independent engine {mine}")
    return mine


def play_both(app: AppEngine, start: dict, moves: list[str]) -> dict:
    """Applies moves from a position in both engines, comparing after every move.

    Returns the final position (JSON); raises Refusal on the first illegal move.
    """
    position = start
    for number, text in enumerate(moves, 1):
        try:
            mine = rules.to_json(rules.apply(rules.from_json(position), text))
            mine_error = None
        except rules.IllegalMove as e:
            mine, mine_error = None, e
        try:
            theirs = app.apply(position, text)
            theirs_error = None
        except AppError as e:
            theirs, theirs_error = None, e
        if mine_error and theirs_error:
            if mine_error.rule != theirs_error.rule:
                raise Disagreement(
                    f"move {number} '{text}': the app refuses it for rule {theirs_error.rule}, "
                    f"the independent engine for rule {mine_error.rule}")
            message = str(theirs_error)
            prefix = f"{rules.format_move(rules.parse_move(text))}: " if mine_error.rule != "notation" else ""
            raise Refusal(number, text, mine_error.rule, message.removeprefix(prefix))
        if mine_error or theirs_error:
            who = "the app" if theirs_error else "the independent engine"
            raise Disagreement(f"move {number} '{text}': only {who} refuses it: {theirs_error or mine_error}")
        if mine != theirs:
            raise Disagreement(f"move {number} '{text}': positions differ:\n  app:         {theirs}\n  independent: {mine}")
        position = theirs
    return position
