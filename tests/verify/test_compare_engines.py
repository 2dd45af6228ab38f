"""verify/compare.py, the move-by-move comparison of the two engines, against a stand-in app whose
answers the test sets (tests/verify/test_differential.py runs the real app): the same position after
every move passes; a different position, a refusal by one engine only, or refusals for two
different rules are each a Disagreement naming the move; a move both refuse for the same rule
is a MoveRefused with the move's number, the rule and the app's reason once. Fast (no Node), so
`make mutation MODULE=compare` can run it for each mutant."""
import pytest

from verify import compare
from verify.app import AppError
from verify.errors import Disagreement, InputError, MoveRefused
from verify.independent import deal as independent_deal
from verify.independent import rules

START = rules.to_json(rules.opening(25))


def first_moves(count: int) -> list[str]:
    """`count` legal moves from deal 25's opening, each the first the independent engine lists."""
    position, moves = rules.opening(25), []
    for _ in range(count):
        move = rules.format_move(rules.legal_moves(position)[0])
        moves.append(move)
        position = rules.apply(position, move)
    return moves


class StandInApp:
    """The independent engine's answers, changed at the move numbers given."""

    def __init__(self, change=None, layout=None):
        self.change = change or {}
        self.layout = layout
        self.seen = []

    def deal(self, n):
        return self.layout if self.layout is not None else independent_deal.layout_json(independent_deal.deal(n), n)

    def apply(self, position, text):
        self.seen.append((position, text))
        number = len(self.seen)
        if number in self.change:
            return self.change[number](position, text)
        try:
            return rules.to_json(rules.apply(rules.from_json(position), text))
        except rules.IllegalMove as e:
            if e.rule == "notation":
                raise AppError(e.rule, f"cannot read {text}: the app's reason") from None
            raise AppError(e.rule, f"{rules.format_move(rules.parse_move(text))}: the app's reason") from None


def expected_after(moves: list[str]) -> dict:
    position = rules.opening(25)
    for move in moves:
        position = rules.apply(position, move)
    return rules.to_json(position)


def test_the_same_position_after_every_move_gives_the_final_position():
    moves = first_moves(4)
    app = StandInApp()
    assert compare.play_both(app, START, moves) == expected_after(moves)
    # each move is applied to the position both reached after the one before
    assert [p for p, _ in app.seen] == [START] + [expected_after(moves[:i]) for i in range(1, 4)]
    assert compare.play_both(StandInApp(), START, []) == START


def test_a_different_position_is_a_disagreement_naming_the_move():
    moves = first_moves(3)
    changed = {**expected_after(moves[:2]), "points": 999}
    app = StandInApp({2: lambda position, text: changed})
    with pytest.raises(Disagreement) as e:
        compare.play_both(app, START, moves)
    assert str(e.value) == (f"move 2 '{moves[1]}': positions differ:\n  app:         {changed}\n"
                            f"  independent: {expected_after(moves[:2])}")


def test_a_move_only_the_app_refuses_is_a_disagreement():
    moves = first_moves(2)

    def refuse(position, text):
        raise AppError("pair.sum", "no such pair")

    with pytest.raises(Disagreement) as e:
        compare.play_both(StandInApp({2: refuse}), START, moves)
    assert str(e.value) == f"move 2 '{moves[1]}': only the app refuses it: no such pair"


def test_a_move_only_the_independent_engine_refuses_is_a_disagreement():
    accepted = {**START, "moves": 1}
    with pytest.raises(Disagreement) as e:
        compare.play_both(StandInApp({1: lambda position, text: accepted}), START, ["pair KS QH"])
    assert str(e.value).startswith("move 1 'pair KS QH': only the independent engine refuses it: ")
    assert "only the app" not in str(e.value)


def test_refusals_for_two_different_rules_are_a_disagreement():
    def refuse(position, text):
        raise AppError("some.other.rule", "for another reason")

    with pytest.raises(Disagreement) as e:
        compare.play_both(StandInApp({1: refuse}), START, ["king QS"])
    mine = rules_refusal(START, "king QS")
    assert str(e.value) == (f"move 1 'king QS': the app refuses it for rule some.other.rule, "
                            f"the independent engine for rule {mine.rule}")


def rules_refusal(position, text) -> rules.IllegalMove:
    with pytest.raises(rules.IllegalMove) as e:
        rules.apply(rules.from_json(position), text)
    return e.value


@pytest.mark.parametrize("move", ["pair 2S 3S", "king 5H", "draw draw"])
def test_a_move_both_refuse_for_the_same_rule_is_refused_with_its_number_rule_and_the_apps_reason(move):
    moves = first_moves(2) + [move]
    after = expected_after(moves[:2])
    mine = rules_refusal(after, move)
    with pytest.raises(MoveRefused) as e:
        compare.play_both(StandInApp(), START, moves)
    assert (e.value.move_number, e.value.move, e.value.rule) == (3, move, mine.rule)
    if mine.rule == "notation":  # no move to name: the app's message whole
        assert e.value.message == f"cannot read {move}: the app's reason"
    else:  # the move named once, by MoveRefused's own text
        assert e.value.message == "the app's reason"


def test_a_notation_refusal_keeps_the_apps_whole_message():
    def refuse(position, text):
        raise AppError("notation", "draw: not a move")

    with pytest.raises(MoveRefused) as e:
        compare.play_both(StandInApp({1: refuse}), START, ["zzz"])
    assert e.value.rule == "notation" and e.value.message == "draw: not a move"


def test_both_engines_lay_out_the_deal_alike():
    assert compare.opening_layout(StandInApp(), "25") == independent_deal.layout_json(independent_deal.deal(25), 25)


def test_a_different_layout_is_a_disagreement():
    wrong = {**independent_deal.layout_json(independent_deal.deal(25), 25), "stock": []}
    mine = independent_deal.layout_json(independent_deal.deal(25), 25)
    with pytest.raises(Disagreement) as e:
        compare.opening_layout(StandInApp(layout=wrong), 25)
    assert str(e.value) == f"deal 25: the app lays out {wrong} but the independent engine {mine}"


@pytest.mark.parametrize("text", ["0", "abc", "4294967296", ""])
def test_a_bad_deal_number_is_bad_input(text):
    with pytest.raises(InputError) as e:
        compare.deal_number(text)
    with pytest.raises(independent_deal.DealNumberError) as plain:
        independent_deal.parse_deal_number(text)
    assert str(e.value) == str(plain.value)
    assert e.value.__cause__ is None and e.value.__suppress_context__


def test_a_deal_number_is_read_like_the_independent_engine_reads_it():
    assert compare.deal_number("42") == 42 and compare.deal_number(4294967295) == 4294967295
