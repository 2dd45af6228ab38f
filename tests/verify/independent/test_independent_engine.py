"""Tests of the independent engine (verify/independent/deal.py, verify/independent/rules.py) against docs/rules.md and the rest of docs/."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from verify.independent.deal import (ALL_CARDS, CardCodeError, DealNumberError, card_value, deal, layout_json,
                         mulberry32, parse_card, parse_deal_number)
from verify.independent.rules import (Game, IllegalMove, Move, Position, apply, available_cards, format_move,
                          free_indices, from_json, legal_moves, opening, parse_move, pyramid_removed,
                          status, to_json)

MAX_DEAL = 4294967295
deal_numbers = st.integers(1, MAX_DEAL)


def position(cards=None, stock=(), waste=(), turns_left=2, points=0, moves=0):
    """A hand-made position: `cards` maps (row, place) to a code; every other pyramid place is empty."""
    pyramid = [None] * 28
    for (r, c), code in (cards or {}).items():
        pyramid[r * (r - 1) // 2 + c - 1] = code
    return Position(tuple(pyramid), tuple(stock), tuple(waste), turns_left, points, moves)


def refused(pos, move):
    with pytest.raises(IllegalMove) as e:
        apply(pos, move)
    return e.value


# ---------------------------------------------------------------- cards

def test_base_order_and_values():
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 52
    assert (ALL_CARDS[0], ALL_CARDS[12], ALL_CARDS[13], ALL_CARDS[51]) == ("AS", "KS", "AH", "KC")
    assert ALL_CARDS[:13] == tuple(r + "S" for r in "A23456789TJQK")
    assert [card_value(r + "H") for r in "A23456789TJQK"] == list(range(1, 14))
    assert {card_value(c) for c in ALL_CARDS if c[0] == "Q"} == {12}  # suit never matters


@pytest.mark.parametrize("text,code", [("10d", "TD"), ("td", "TD"), ("10D", "TD"), (" ks ", "KS"),
                                       ("aH", "AH"), ("9c", "9C")])
def test_parse_card(text, code):
    assert parse_card(text) == code


@pytest.mark.parametrize("text", ["1D", "TX", "", "10", "KSS", "T10", "11S", "0S", None, 5, "K S"])
def test_parse_card_refuses(text):
    with pytest.raises(CardCodeError):
        parse_card(text)


# ---------------------------------------------------------------- deal numbers

@pytest.mark.parametrize("value", [0, -1, MAX_DEAL + 1, 2**40, True, False, 1.0, 1.5, "1.5", "", " ",
                                   "abc", "1e3", "0", "-3", "+5", "4294967296", None, "12 3", "١٢"])
def test_deal_number_refused(value):
    with pytest.raises(DealNumberError, match="whole number from 1 to 4294967295"):
        parse_deal_number(value)


@pytest.mark.parametrize("value,n", [(1, 1), ("1", 1), (" 42 ", 42), ("007", 7), (MAX_DEAL, MAX_DEAL),
                                     (str(MAX_DEAL), MAX_DEAL), (np.int64(9), 9)])
def test_deal_number_accepted(value, n):
    assert parse_deal_number(value) == n


def test_deal_refuses_bad_numbers():
    for bad in (0, "x", MAX_DEAL + 1):
        with pytest.raises(DealNumberError):
            deal(bad)


# ---------------------------------------------------------------- the shuffle

def reference_mulberry32(seed, count):
    """A second restatement of docs/shuffle.md §3 with numpy uint32 wrap-around instead of masks."""
    with np.errstate(over="ignore"):
        s = np.uint32(seed)
        out = []
        for _ in range(count):
            s = np.uint32(s + np.uint32(0x6D2B79F5))
            t = s
            t = np.uint32((t ^ (t >> np.uint32(15))) * (t | np.uint32(1)))
            t = np.uint32(t + np.uint32((t ^ (t >> np.uint32(7))) * (t | np.uint32(61)))) ^ t
            out.append(int(t ^ (t >> np.uint32(14))))
    return out


def test_mulberry32_known_values():
    # Computed by hand-following the doc in Python and in node (Math.imul / >>> 0); the first
    # value / 2**32 = 0.6270739405881613, the widely published first output of mulberry32(1).
    assert list(itertools.islice(mulberry32(1), 3)) == [2693262067, 11749833, 2265367787]
    assert list(itertools.islice(mulberry32(MAX_DEAL), 3)) == [3850105811, 813802916, 3073704848]


@settings(max_examples=60, deadline=None)
@given(deal_numbers)
def test_mulberry32_matches_reference(seed):
    assert list(itertools.islice(mulberry32(seed), 51)) == reference_mulberry32(seed, 51)
    assert all(0 <= x < 2**32 for x in itertools.islice(mulberry32(seed), 51))


def reference_deck(n):
    """Fisher-Yates from the end as in docs/shuffle.md §4, using the reference generator."""
    rnd = reference_mulberry32(n, 51)
    deck = list(ALL_CARDS)
    for step, i in enumerate(range(51, 0, -1)):
        j = rnd[step] * (i + 1) // 2**32
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def check_layout(n):
    lay = deal(n)
    assert (len(lay.pyramid), len(lay.waste), len(lay.stock)) == (28, 1, 23)
    assert sorted(lay.pyramid + lay.waste + lay.stock) == sorted(ALL_CARDS)  # 52 different cards
    assert list(lay.pyramid + lay.waste + lay.stock) == reference_deck(n)


def test_many_deals_lay_out_52_different_cards():
    for n in itertools.chain(range(1, 201), range(MAX_DEAL - 50, MAX_DEAL + 1)):
        check_layout(n)


@settings(max_examples=100, deadline=None)
@given(deal_numbers)
def test_any_deal_lays_out_52_different_cards(n):
    check_layout(n)
    assert deal(n) == deal(str(n))  # fully determined by N


def test_deals_differ_and_json():
    assert len({deal(n).pyramid for n in range(1, 101)}) == 100
    j = layout_json(deal(7), 7)
    assert j["deal"] == 7 and list(j) == ["deal", "pyramid", "waste", "stock"]
    assert j["pyramid"] + j["waste"] + j["stock"] == reference_deck(7)


# ---------------------------------------------------------------- notation

@pytest.mark.parametrize("text,canon", [("pair 6s 7h", "pair 7H 6S"), ("PAIR qc ah", "pair QC AH"),
                                        ("pair 3d 10c", "pair TC 3D"), ("king kd", "king KD"),
                                        ("  draw ", "draw"), ("Turn", "turn"), ("pair AH QC", "pair QC AH")])
def test_canonical_notation(text, canon):
    assert format_move(parse_move(text)) == canon
    assert parse_move(text) == parse_move(canon)


@pytest.mark.parametrize("text", ["", "jump", "pair 7H", "pair 7H 7h", "pair 7H 6X", "king", "king KD KS",
                                  "draw 5", "turn now", "pair 7H 6S 5D", None])
def test_malformed_notation(text):
    with pytest.raises(IllegalMove) as e:
        parse_move(text)
    assert e.value.rule == "notation"
    assert refused(opening(1), text).rule == "notation"


@given(st.sampled_from(ALL_CARDS), st.sampled_from(ALL_CARDS))
def test_pair_notation_round_trip(a, b):
    if a == b:
        return
    m = parse_move(f"pair {b.lower()} {a}")
    assert parse_move(format_move(m)) == m
    assert card_value(m.cards[0]) >= card_value(m.cards[1])  # higher value first


# ---------------------------------------------------------------- opening and JSON

def test_opening():
    p, lay = opening(5), deal(5)
    assert (p.pyramid, p.waste, p.stock) == (lay.pyramid, lay.waste, lay.stock)
    assert (p.turns_left, p.points, p.moves, status(p)) == (2, 0, 0, "playing")
    assert sorted(free_indices(p)) == list(range(21, 28))  # row 7 uncovered at the start
    assert available_cards(p) == list(lay.pyramid[21:]) + [lay.waste[0]]
    assert Move("draw") in legal_moves(p)


def test_json_round_trip_and_lenient_input():
    g = Game(3)
    for _ in range(5):
        g.play("draw")
    j = to_json(g.position)
    assert j["status"] == "playing" and j["moves"] == 5
    assert from_json(j) == g.position
    lower = dict(j, pyramid=[c.lower().replace("t", "10") if c else c for c in j["pyramid"]])
    assert from_json(lower) == g.position


@pytest.mark.parametrize("change", [
    lambda j: j.update(pyramid=j["pyramid"][:27]),
    lambda j: j.update(stock=j["stock"] + [j["pyramid"][0]]),          # a card in two places
    lambda j: j.update(waste=["ZZ"]),
    lambda j: j.update(turns_left=3),
    lambda j: j.update(turns_left=-1),
    lambda j: j.update(points=True),
    lambda j: j.update(moves=1.0),
    lambda j: j.pop("stock"),
    lambda j: j.update(extra=1),
    lambda j: j.update(pyramid="AS"),
])
def test_from_json_refuses(change):
    j = to_json(opening(1))
    change(j)
    with pytest.raises(ValueError):
        from_json(j)


# ---------------------------------------------------------------- random legal games

def check_invariants(before, move, after, removed):
    present = [c for c in after.pyramid if c] + list(after.stock) + list(after.waste)
    assert len(present) == len(set(present))                                   # never in two places
    assert sorted(present + sorted(removed)) == sorted(ALL_CARDS)              # all 52 accounted for
    assert after.moves == before.moves + 1
    # turn.order: the cards beside keep their draw order, minus the cards removed.
    gone = set(move.cards)
    assert [c for c in before.waste + before.stock if c not in gone] == list(after.waste + after.stock)
    if move.kind in ("pair", "king"):
        assert set(move.cards) <= set(available_cards(before))
        assert sum(card_value(c) for c in move.cards) == 13 or move.kind == "king"
        assert after.points - before.points >= 5 * len(move.cards)
    else:
        assert after.points == before.points
    assert 0 <= after.turns_left <= 2


@settings(max_examples=40, deadline=None)
@given(deal_numbers, st.randoms(use_true_random=False))
def test_random_legal_games(n, rnd):
    game, removed = Game(n), set()
    while legal_moves(game.position):
        before = game.position
        legal = legal_moves(before)
        assert len(set(legal)) == len(legal)
        # A random pair or king of present cards is accepted exactly when it is listed as legal.
        present = [c for c in before.pyramid if c] + list(before.stock) + list(before.waste)
        a, b = rnd.sample(present, 2)
        for probe in (Move("pair", (a, b)), Move("king", (a,))):
            try:
                apply(before, probe)
                assert probe in legal
            except IllegalMove as e:
                assert probe not in legal and e.rule != "notation"
        move = rnd.choice(legal)
        after = game.play(move)
        removed |= set(move.cards)
        check_invariants(before, move, after, removed)
        assert pyramid_removed(after) == sum(c in removed for c in deal(n).pyramid)
        if rnd.random() < 0.1:  # undo restores exactly, and the move replays the same
            assert game.undo() == before
            assert game.play(move) == after
    assert status(game.position) in ("won", "stuck")
    assert game.position.moves == len(game.history) - 1
    if status(game.position) == "stuck":
        assert game.position.turns_left == 0 or not game.position.waste + game.position.stock
    while len(game.history) > 1:
        game.undo()
    assert game.position == opening(n)


# ---------------------------------------------------------------- each illegal move and its rule id

# A small hand-made position: row 7 holds 6D 7C 5S ... and row 6 place 1 holds 8H (covered by 6D, 7C).
SMALL = position({(6, 1): "8H", (7, 1): "6D", (7, 2): "7C", (7, 4): "KH", (7, 6): "AS", (7, 7): "9D"},
                 stock=("4C", "QS"), waste=("5H", "3S", "QD"))


def test_small_position_moves():
    assert {format_move(m) for m in legal_moves(SMALL)} == {
        "pair 7C 6D", "king KH", "pair QD AS", "draw"}
    assert status(SMALL) == "playing"


@pytest.mark.parametrize("move,rule", [
    ("pair 9C 4D", "removed.gone"),       # not in this position
    ("king KS", "removed.gone"),
    ("pair QD AH", "removed.gone"),
    ("pair 5H 3S", "pair.one-waste"),     # both in the waste (and one under the top)
    ("pair QD 5H", "pair.one-waste"),
    ("pair 8H 5H", "free.covered"),       # covered pyramid card
    ("pair 9D 4C", "free.covered"),       # stock card
    ("pair 9D 3S", "free.covered"),       # waste card under the top
    ("king QS", "free.covered"),          # covered before not-a-king
    ("king 6D", "king.alone"),            # not a king
    ("pair KH AS", "king.alone"),         # a king in a pair (checked before the sum)
    ("pair 6D 9D", "pair.thirteen"),
    ("pair QD 9D", "pair.thirteen"),
    ("pair 8H 6D", "free.covered"),       # covered beats the wrong sum
])
def test_illegal_move_rule_ids(move, rule):
    e = refused(SMALL, move)
    assert e.rule == rule, str(e)
    assert f"(rule {rule})" in str(e) and format_move(parse_move(move)) in str(e)


def test_covered_message_names_the_covering_cards():
    assert "8H is covered by 6D and 7C" in str(refused(SMALL, "pair 8H 5H"))
    half = apply(SMALL, "pair 7C 6D")
    assert "8H" in available_cards(half)
    assert "4C is in the stock" in str(refused(SMALL, "pair 9D 4C"))
    assert "3S is in the waste under QD" in str(refused(SMALL, "pair 9D 3S"))


def test_draw_and_turn_rules():
    empty_stock = position({(7, 1): "6D"}, stock=(), waste=("5H", "3S"), turns_left=1)
    assert refused(empty_stock, "draw").rule == "draw.nonempty"
    assert refused(SMALL, "turn").rule == "turn.when"                           # stock not empty
    assert refused(position({(7, 1): "6D"}), "turn").rule == "turn.when"       # both empty
    assert refused(replace_turns(SMALL, 0), "turn").rule == "turn.when"       # turn.when checked first
    assert refused(replace_turns(empty_stock, 0), "turn").rule == "turn.limit"
    turned = apply(empty_stock, "turn")
    assert (turned.stock, turned.waste, turned.turns_left) == (("5H", "3S"), (), 0)


def replace_turns(pos, t):
    return Position(pos.pyramid, pos.stock, pos.waste, t, pos.points, pos.moves)


def test_removed_cards_never_come_back():
    after = apply(SMALL, "pair 7C 6D")
    assert refused(after, "pair 7C 6D").rule == "removed.gone"
    assert refused(after, "king 7C").rule == "removed.gone"


# ---------------------------------------------------------------- points

def test_pair_scores_ten_and_king_five():
    p = apply(SMALL, "pair 6D 7C")
    assert (p.points, p.moves) == (10, 1)
    assert apply(p, "king KH").points == 15
    assert apply(SMALL, "draw").points == 0


def test_emptied_row_scores_25():
    p = position({(1, 1): "KS", (7, 3): "5C", (7, 5): "8D"}, stock=("2H",))
    assert apply(p, "pair 8D 5C").points == 10 + 25
    # Two rows emptied by one pair: 25 each.
    q = position({(1, 1): "KS", (6, 6): "9C", (7, 1): "4H"}, stock=("2H",))
    assert apply(q, "pair 9C 4H").points == 10 + 50
    # A pair from the pyramid and the waste top that does not empty a row.
    r = position({(1, 1): "KS", (7, 3): "5C", (7, 5): "8D"}, waste=("8C",))
    assert apply(r, "pair 8C 5C").points == 10


@pytest.mark.parametrize("turns_left", [0, 1, 2])
def test_win_bonus_and_win_ends_the_game(turns_left):
    p = position({(1, 1): "KS"}, stock=("2H", "3H"), waste=("QD",), turns_left=turns_left, points=40, moves=9)
    won = apply(p, "king KS")
    assert won.points == 40 + 5 + 25 + 100 + 50 * turns_left
    assert (status(won), won.moves, legal_moves(won)) == ("won", 10, [])
    assert (won.stock, won.waste) == (("2H", "3H"), ("QD",))  # cards left beside stay
    for move in ("draw", "king KS", "pair QD AH", "turn", "nonsense"):
        assert refused(won, move).rule == "end.win"
    assert to_json(won)["status"] == "won"
    # Winning with a pyramid card and the waste top.
    q = apply(position({(1, 1): "9S"}, waste=("4D",), turns_left=turns_left), "pair 9S 4D")
    assert q.points == 10 + 25 + 100 + 50 * turns_left and status(q) == "won"


def test_stuck():
    p = position({(7, 1): "6D", (7, 2): "6C"}, stock=(), waste=("2S", "3S"), turns_left=0)
    assert legal_moves(p) == [] and status(p) == "stuck"
    assert to_json(p)["status"] == "stuck"
    assert status(replace_turns(p, 1)) == "playing"


# ---------------------------------------------------------------- turns

def test_turn_keeps_order_and_at_most_two_turns():
    start = opening(11)
    order = start.waste + start.stock
    game, turns = Game(11), 0
    while True:
        moves = {format_move(m) for m in legal_moves(game.position)}
        if "draw" in moves:
            game.play("draw")
        elif "turn" in moves:
            game.play("turn")
            turns += 1
            assert game.position.stock == order and game.position.waste == ()
        else:
            break
    assert turns == 2 and game.position.turns_left == 0
    assert game.position.waste == order and game.position.stock == ()
    assert refused(game.position, "turn").rule == "turn.limit"
    assert game.position.moves == 23 + 24 + 24 + 2  # 23 draws, then 24 per pass (the first waste card joins), two turns
    assert game.position.points == 0


# ---------------------------------------------------------------- undo

def test_undo():
    game = Game(2)
    with pytest.raises(IllegalMove) as e:
        game.undo()
    assert e.value.rule == "moves.undo"
    start = game.position
    first = legal_moves(start)[0]
    after = game.play(first)
    assert after.moves == 1 and after != start
    assert game.undo() == start and game.history == [start]
    g2 = Game.from_position(SMALL)
    g2.play("pair 7C 6D")
    g2.play("king KH")
    assert g2.position.points == 15
    g2.undo()
    assert g2.position.points == 10 and g2.position.moves == 1
    g2.undo()
    assert g2.position == SMALL
