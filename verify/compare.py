"""Both engines side by side: every answer is computed twice and must agree.

The app's engine answers through the Node bridge (verify/app.py); the independent engine is
verify/independent/rules.py. A difference is a Disagreement, never silently resolved.
"""
from __future__ import annotations

from .app import AppEngine, AppError
from .errors import Disagreement, InputError, MoveRefused
from .independent import deal as independent_deal
from .independent import rules


def deal_number(text) -> int:
    """A deal number as a user gave it; InputError saying what is wrong with it."""
    try:
        return independent_deal.parse_deal_number(text)
    except independent_deal.DealNumberError as e:
        raise InputError(str(e)) from None


def opening_layout(app: AppEngine, n) -> dict:
    """Deal n's layout, after checking that both engines lay it out identically."""
    n = deal_number(n)
    mine = independent_deal.layout_json(independent_deal.deal(n), n)
    theirs = app.deal(n)
    if mine != theirs:
        raise Disagreement(f"deal {n}: the app lays out {theirs} but the independent engine {mine}")
    return mine


def play_both(app: AppEngine, start: dict, moves: list[str]) -> dict:
    """Applies moves from a position in both engines, comparing after every move.

    Returns the final position (JSON); raises MoveRefused on the first illegal move.
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
            raise MoveRefused(number, text, mine_error.rule, message.removeprefix(prefix))
        if mine_error or theirs_error:
            who = "the app" if theirs_error else "the independent engine"
            raise Disagreement(f"move {number} '{text}': only {who} refuses it: {theirs_error or mine_error}")
        if mine != theirs:
            raise Disagreement(f"move {number} '{text}': positions differ:\n  app:         {theirs}\n  independent: {mine}")
        position = theirs
    return position
