"""The independent engine's rules (verify/independent/rules.py) held to their exact promise: the
pyramid's rows and covers as docs/rules.md lays them out, each refusal's whole message, and every
limit at its edge (the last value accepted, the first refused)."""
import pytest

from verify.independent import rules
from verify.independent.deal import shown
from verify.independent.rules import IllegalMove, Move, Position, apply, from_json, opening, parse_move, to_json


def refusal(pos, move) -> str:
    with pytest.raises(IllegalMove) as e:
        apply(pos, move)
    return str(e.value)


def test_the_rows_and_what_covers_each_card():
    assert rules.ROWS == ((0,), (1, 2), (3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13, 14),
                          (15, 16, 17, 18, 19, 20), (21, 22, 23, 24, 25, 26, 27))
    assert rules.ROW_OF == {k: r for r, row in enumerate(rules.ROWS, 1) for k in row} and len(rules.ROW_OF) == 28
    assert rules.COVERED_BY[0] == (1, 2) and rules.COVERED_BY[5] == (8, 9) and rules.COVERED_BY[20] == (26, 27)
    assert all(rules.COVERED_BY[k] == () for k in range(21, 28))


def test_a_refusal_says_the_move_the_reason_and_the_rule():
    assert str(IllegalMove("pair.thirteen", "7 + 5 = 12, not 13", "pair 7H 5S")) == \
        "pair 7H 5S: 7 + 5 = 12, not 13 (rule pair.thirteen)"
    assert str(IllegalMove("notation", "no move")) == "no move (rule notation)"


def test_move_text_is_read_up_to_its_limit_and_refused_beyond_it():
    assert rules.MAX_MOVE_TEXT == 64
    assert parse_move("draw" + " " * 60) == Move("draw")  # 64 characters: read
    with pytest.raises(IllegalMove) as e:
        parse_move("draw" + " " * 61)
    assert str(e.value) == f"cannot read move {shown('draw' + ' ' * 61)}: longer than 64 characters (rule notation)"


def test_at_most_24_cards_lie_beside_the_pyramid():
    start = to_json(opening(7))
    assert len(start["stock"]) + len(start["waste"]) == rules.BESIDE == 24
    assert from_json(start) == opening(7)
    with pytest.raises(ValueError) as e:
        from_json({**start, "stock": start["stock"] + ["AS"]})
    assert str(e.value) == "at most 24 cards can lie beside the pyramid (stock + waste), got 25"


@pytest.mark.parametrize("key", ["points", "moves"])
def test_a_counter_goes_up_to_a_million(key):
    start = to_json(opening(7))
    assert getattr(from_json({**start, key: 1_000_000}), key) == 1_000_000
    with pytest.raises(ValueError) as e:
        from_json({**start, key: 1_000_001})
    assert str(e.value) == f"{key} must be a whole number from 0 to 1,000,000, got 1000001"


@pytest.mark.parametrize("kind, cards, message", [
    ("pair", ("7H",), "'pair' names 2 card(s), got 1"),
    ("king", ("KH", "KS"), "'king' names 1 card(s), got 2"),
    ("draw", ("7H",), "'draw' names 0 card(s), got 1"),
    ("jump", (), "unknown move kind 'jump'"),
    ("pair", ("7H", "7h"), "the same card 7H is named twice"),
])
def test_a_move_badly_named_is_refused_as_notation(kind, cards, message):
    with pytest.raises(IllegalMove) as e:
        Move(kind, cards)
    assert (e.value.rule, e.value.detail, str(e.value)) == ("notation", message, f"{message} (rule notation)")


def test_a_card_code_that_is_no_card_is_refused_as_notation_with_the_card_codes_own_words():
    from verify.independent.deal import CardCodeError, parse_card
    with pytest.raises(CardCodeError) as card:
        parse_card("ZZ")
    with pytest.raises(IllegalMove) as e:
        Move("pair", ("7H", "ZZ"))
    assert (e.value.rule, e.value.detail) == ("notation", str(card.value))


@pytest.mark.parametrize("text", [7, None, ["pair", "7H", "6S"]])
def test_a_move_that_is_not_text_is_refused_as_notation(text):
    with pytest.raises(IllegalMove) as e:
        parse_move(text)
    assert str(e.value) == f"a move must be text like 'pair 7H 6S', got {shown(text)} (rule notation)"


def test_a_move_with_a_hidden_character_is_refused_unread():
    from verify.independent.deal import NOT_PLAIN
    text = "pair 7H\u200b 6S"
    with pytest.raises(IllegalMove) as e:
        parse_move(text)
    assert (e.value.rule, str(e.value)) == ("notation", f"cannot read move {shown(text)}: {NOT_PLAIN} (rule notation)")


@pytest.mark.parametrize("text, why", [
    ("jump 7H", "expected 'pair XX YY', 'king KX', 'draw' or 'turn'"),
    ("   ", "expected 'pair XX YY', 'king KX', 'draw' or 'turn'"),
    ("pair 7H", "'pair' names 2 card(s), got 1"),
    ("king KH KH", "'king' names 1 card(s), got 2"),
    ("pair 7H 7H", "the same card 7H is named twice"),
])
def test_a_move_text_that_names_no_move_is_refused_with_the_text_and_why(text, why):
    with pytest.raises(IllegalMove) as e:
        parse_move(text)
    assert (e.value.rule, str(e.value)) == ("notation", f"cannot read move {shown(text)}: {why} (rule notation)")


def hand_made(stock=("4C", "QS"), waste=("5H", "3S", "QD"), turns_left=2):
    """Row 7 holds 6D 7C . KH . AS 9D; row 6 place 1 holds 8H (covered by 6D and 7C)."""
    pyramid = [None] * 28
    for k, code in {15: "8H", 21: "6D", 22: "7C", 24: "KH", 26: "AS", 27: "9D"}.items():
        pyramid[k] = code
    return Position(tuple(pyramid), tuple(stock), tuple(waste), turns_left)


@pytest.mark.parametrize("position, move, message", [
    (hand_made(), "pair 6d 9d", "pair 9D 6D: 9 + 6 = 15, not 13 (rule pair.thirteen)"),
    (hand_made(), "king QD", "king QD: QD is not a king; only a king is removed alone (rule king.alone)"),
    (hand_made(), "pair AS KH", "pair KH AS: KH is a king and is removed alone, not in a pair (rule king.alone)"),
    (hand_made(), "pair 3S QD", "pair QD 3S: at most one card of a pair may come from the waste (rule pair.one-waste)"),
    (hand_made(), "pair 9D 4C", "pair 9D 4C: 4C is in the stock (rule free.covered)"),
    (hand_made(), "pair 9D 3S", "pair 9D 3S: 3S is in the waste under QD (rule free.covered)"),
    (hand_made(), "pair 8H 5H", "pair 8H 5H: 8H is covered by 6D and 7C (rule free.covered)"),
    (hand_made(), "pair TC 3S", "pair TC 3S: TC is not in the pyramid, stock or waste (already removed) (rule removed.gone)"),
    (hand_made(), "turn", "turn: a turn needs an empty stock and a non-empty waste (rule turn.when)"),
    (hand_made(stock=()), "draw", "draw: the stock is empty (rule draw.nonempty)"),
    (hand_made(stock=(), turns_left=0), "turn", "turn: no turns left (at most 2 per game) (rule turn.limit)"),
    (Position((None,) * 28, ("4C",), ()), "draw", "draw: the game is already won; no move after the win (rule end.win)"),
])
def test_each_illegal_move_is_refused_with_its_whole_message(position, move, message):
    assert refusal(position, move) == message


def test_a_position_may_name_its_deal_and_status():
    start = to_json(opening(7))
    assert from_json({**start, "deal": 7}) == opening(7) and "status" in start


@pytest.mark.parametrize("edit, message", [
    (lambda j: [j], "a position must be a JSON object, got list"),
    (lambda j: {**{k: v for k, v in j.items() if k != "stock"}, **{k: 1 for k in "abcdef"}},
     f"position keys: missing ['stock'], unknown [{', '.join(shown(k) for k in 'abcde')}]"),
    (lambda j: {**j, "pyramid": "AS"}, "pyramid, stock and waste must each be a list of card codes"),
    (lambda j: {**j, "waste": None}, "pyramid, stock and waste must each be a list of card codes"),
    (lambda j: {**j, "pyramid": j["pyramid"][:27]}, "pyramid must have 28 entries (null once removed), got 27"),
    (lambda j: {**j, "turns_left": 3}, "turns_left must be 0, 1 or 2, got 3"),
    (lambda j: {**j, "stock": j["stock"][:-1] + [j["pyramid"][0]]}, f"cards in two places or twice: {opening(7).pyramid[0]}"),
])
def test_a_position_that_is_not_one_is_refused_saying_what_is_wrong(edit, message):
    with pytest.raises(ValueError) as e:
        from_json(edit(to_json(opening(7))))
    assert str(e.value) == message


def test_a_card_code_in_a_position_is_named_by_its_place():
    from verify.independent.deal import CardCodeError, parse_card
    start = to_json(opening(7))
    for key, value in (("stock", None), ("waste", "ZZ")):
        with pytest.raises(CardCodeError) as card:
            parse_card(value)
        with pytest.raises(ValueError) as e:
            from_json({**start, key: [value] + start[key][1:]})
        assert str(e.value) == f"{key}[0]: {card.value}"


def test_every_card_given_twice_is_named_in_deck_order():
    start = to_json(opening(7))
    a, b = start["pyramid"][0], start["pyramid"][1]
    with pytest.raises(ValueError) as e:
        from_json({**start, "stock": start["stock"][:-2] + [b, a]})
    named = sorted([a, b], key=rules.CARD_INDEX.get)
    assert str(e.value) == f"cards in two places or twice: {named[0]}, {named[1]}"


def test_a_deck_with_only_kings_and_pairs_gone_is_whole():
    pos = opening(27)
    rules.check_deck(pos)
    for move in ("king KD", "pair 7D 6C", "pair QD AD"):  # deal 27's first moves (examples/winnable.yaml)
        pos = apply(pos, move)
    rules.check_deck(pos)


@pytest.mark.parametrize("gone, rank, other", [("AS", "A", "Q"), ("6H", "6", "7"), ("7H", "6", "7")])
def test_a_card_that_vanished_is_refused_naming_it(gone, rank, other):
    start = to_json(opening(7))
    where = next(k for k in ("pyramid", "stock", "waste") if gone in start[k])
    pos = from_json({**start, where: [None if c == gone else c for c in start[where]] if where == "pyramid"
                     else [c for c in start[where] if c != gone]})
    counts = (1, 0) if rank == gone[0] else (0, 1)
    with pytest.raises(ValueError) as e:
        rules.check_deck(pos)
    assert str(e.value) == (
        f"the position holds 51 of the 52 cards, and the missing ones cannot all have been removed: "
        f"{counts[0]} card(s) of rank {rank} but {counts[1]} of rank {other} are gone ({gone}); cards go in pairs "
        "adding up to 13, kings alone (rules pair.thirteen, king.alone)")


def test_a_position_with_removed_pyramid_cards_is_read_back():
    pos = apply(opening(27), "king KD")
    assert from_json(to_json(pos)) == pos and None in to_json(pos)["pyramid"]


def test_every_vanished_card_is_named():
    start = to_json(opening(7))
    pos = from_json({**start, "stock": [c for c in start["stock"] if c not in ("AS", "AH")],
                     "waste": [c for c in start["waste"] if c not in ("AS", "AH")],
                     "pyramid": [None if c in ("AS", "AH") else c for c in start["pyramid"]]})
    with pytest.raises(ValueError) as e:
        rules.check_deck(pos)
    assert "0 of rank Q are gone (AS, AH); cards go" in str(e.value)


def test_undo_at_the_opening_is_refused():
    with pytest.raises(IllegalMove) as e:
        rules.Game(7).undo()
    assert str(e.value) == "there is no move to undo (rule moves.undo)"
