"""Each rule check catches an engine that breaks its rule sentence, and says so in the words a
maintainer reads when `make verify` fails: the rule, the engine and the case. Each broken engine
below is the independent engine with one bug, so the whole file needs no Node and takes seconds.
Last, the number of cases each check compares, the figures the sources page prints."""
import pytest

from verify.checks import Checked
from verify.checks.engines import EngineRefused, IndependentSide
from verify.checks.rule_checks import RULE_CHECKS, Checker, RuleCheckFailed, check_rules
from verify.independent.rules import COVERED_BY

OPENING_1 = IndependentSide().opening(1)


def opening_cards(n: int) -> list[str]:
    """The 24 cards beside the pyramid at deal n's start: the waste, then the stock."""
    opening = IndependentSide().opening(n)
    return opening["waste"] + opening["stock"]


class Broken(IndependentSide):
    """The independent engine with one method wrapped: wrong(the right method, its arguments…)."""

    name = "broken"

    def __init__(self, method: str, wrong):
        right = getattr(super(), method)
        setattr(self, method, lambda *args: wrong(right, *args))


def refuse(rule, message):
    raise EngineRefused(rule, message)


def rule_of(right, *args):
    """The rule the right engine refuses the move for (None when it is legal)."""
    try:
        right(*args)
    except EngineRefused as e:
        return e.rule
    return None


def cards(move: str) -> list[str]:
    return move.split()[1:]


def in_play(pos: dict) -> set[str]:
    return {c for c in pos["pyramid"] if c} | set(pos["stock"]) | set(pos["waste"])


def changed(pos: dict, **values) -> dict:
    return {**pos, **values}


def without(pos: dict, move: str) -> dict:
    """The position with the move's cards taken from wherever they lie, as a wrong engine takes them."""
    gone = set(cards(move))
    return changed(pos, pyramid=[None if x in gone else x for x in pos["pyramid"]],
                   stock=[x for x in pos["stock"] if x not in gone], waste=[x for x in pos["waste"] if x not in gone],
                   won=False)


def second_stock_card_free(right, pos, m, o):
    """stockTop read as "the stock's top two cards are free": a pair with the second one is taken."""
    try:
        return right(pos, m, o)
    except EngineRefused:
        if m.startswith("pair") and pos["stock"][1:2] and pos["stock"][1] in cards(m) and set(cards(m)) <= in_play(pos):
            return without(pos, m)
        raise


def other_cover_overlooked(right, pos, m, o):
    """coverPair read as "a card may pair with a free card on it", the card's other cover overlooked."""
    try:
        return right(pos, m, o)
    except EngineRefused:
        pyramid = pos["pyramid"]
        if m.startswith("pair") and all(x in pyramid for x in cards(m)):
            low, high = sorted(pyramid.index(x) for x in cards(m))
            on_it = high in COVERED_BY[low]
            high_free = not any(pyramid[k] for k in COVERED_BY[high])
            if on_it and high_free:
                return without(pos, m)
        raise


def one_card_put_back(after: dict, pos: dict, m: str, which) -> dict:
    """After a pair of two pyramid cards, one of them (the place `which` picks) is back."""
    places = [pos["pyramid"].index(x) for x in cards(m) if x in pos["pyramid"]]
    if len(places) < 2:
        return after
    pyramid = list(after["pyramid"])
    pyramid[which(places)] = pos["pyramid"][which(places)]
    return changed(after, pyramid=pyramid)


# (rule, method, bug, what the check says)
BREAKS = [
    # cards.values / pair.thirteen: all 1,326 pairs, in the order of the deck (spades first)
    ("pair.thirteen", "apply", lambda right, pos, m: pos if [c[0] for c in cards(m)] == ["7", "7"] else right(pos, m),
     "'pair 7S 7H' was accepted, expected a refusal for pair.thirteen"),
    ("cards.values", "apply", lambda right, pos, m: refuse("pair.thirteen", "not 13") if m == "pair AS QS" else right(pos, m),
     "'pair AS QS' refused (not 13), expected legal"),
    ("cards.values", "apply", lambda right, pos, m: refuse("pair.thirteen", "no") if "KS" in m else right(pos, m),
     "'pair AS KS' refused for pair.thirteen, expected king.alone"),
    # deal.layout
    ("deal.layout", "deal", lambda right, n: changed(d := right(n), waste=d["waste"] + d["stock"][:1], stock=d["stock"][1:]),
     "deal 1: not 28 + 1 + 23"),
    ("deal.layout", "deal", lambda right, n: changed(d := right(n), stock=d["pyramid"][:1] + d["stock"][1:]),
     "deal 1: not 52 different cards"),
    ("deal.layout", "deal", lambda right, n: right(1) if n == 0 else right(n), "deal number 0 was accepted"),
    ("deal.layout", "deal", lambda right, n: right(n) if n != "" else right(1), "deal number '' was accepted"),
    ("deal.layout", "deal", lambda right, n: right(n) if n != -1 else refuse("notation", "not a number"),
     "deal -1 refused for notation"),
    ("deal.layout", "deal", lambda right, n: right(1) if n == 2**32 else right(n),  # one past the largest
     "deal number 4294967296 was accepted"),
    ("deal.layout", "deal", lambda right, n: right(int(n[:-1])) if n == "12x" else right(n),  # JavaScript's parseInt
     "deal number '12x' was accepted"),
    # free.covered
    ("free.covered", "legal", lambda right, pos: right(pos) + [f"king {pos['pyramid'][0]}"],
     f"deal 1: legal move 'king {OPENING_1['pyramid'][0]}' uses a card that is not available"),
    ("free.covered", "apply", lambda right, pos, m: pos if pos["stock"][0] in cards(m) else right(pos, m),
     f"'pair {OPENING_1['stock'][0]} {OPENING_1['pyramid'][21]}' was accepted, expected a refusal for free.covered"),
    # pair.one-waste
    ("pair.one-waste", "apply", lambda right, pos, m: pos if set(cards(m)) <= set(pos["waste"]) else right(pos, m),
     "'pair 7S 6H' was accepted, expected a refusal for pair.one-waste"),
    ("pair.one-waste", "legal", lambda right, pos: right(pos) + [f"pair {' '.join(pos['waste'][::-1])}"] * (len(pos["waste"]) == 2),
     "a card under the waste top appears in a legal move"),
    ("pair.one-waste", "apply", lambda right, pos, m: changed(right(pos, m), waste=pos["waste"]),
     "the pair did not leave pyramid and waste"),
    ("pair.one-waste", "apply", lambda right, pos, m: changed(right(pos, m), pyramid=pos["pyramid"]),
     "the pair did not leave pyramid and waste"),
    # king.alone
    ("king.alone", "apply", lambda right, pos, m: changed(a := right(pos, m), points=a["points"] + 5),
     "a free pyramid king went with 5 points"),
    ("king.alone", "apply", lambda right, pos, m: changed(a := right(pos, m), waste=a["waste"][:-1]),
     "the waste-top king did not go alone"),
    ("king.alone", "apply", lambda right, pos, m: pos if m == "king KS" else right(pos, m),
     "'king KS' was accepted, expected a refusal for free.covered"),
    ("king.alone", "apply", lambda right, pos, m: pos if m == "king KC" and pos["waste"][-1] != "KC" else right(pos, m),
     "'king KC' was accepted, expected a refusal for free.covered"),
    ("king.alone", "apply", lambda right, pos, m: pos if m == "pair KS AH" else right(pos, m),
     "'pair KS AH' was accepted, expected a refusal for king.alone"),
    ("king.alone", "apply", lambda right, pos, m: pos if m == "king QS" else right(pos, m),
     "'king QS' was accepted, expected a refusal for king.alone"),
    # draw.nonempty
    ("draw.nonempty", "apply", lambda right, pos, m: changed(a := right(pos, m), waste=a["waste"][::-1]),
     "draw did not put the stock's top card on the waste"),
    ("draw.nonempty", "apply", lambda right, pos, m: pos if not pos["stock"] else right(pos, m),
     "'draw' was accepted, expected a refusal for draw.nonempty"),
    ("draw.nonempty", "apply",  # a draw from the empty stock that changes nothing, once no turn is left
     lambda right, pos, m: changed(pos, moves=pos["moves"] + 1) if m == "draw" and not pos["stock"] and pos["turns_left"] == 0 else right(pos, m),
     "'draw' was accepted, expected a refusal for draw.nonempty"),
    ("draw.nonempty", "apply",  # a draw from the empty stock that turns the waste over by itself while turns are left
     lambda right, pos, m: right(pos, "turn") if m == "draw" and not pos["stock"] and pos["turns_left"] > 0 else right(pos, m),
     "'draw' was accepted, expected a refusal for draw.nonempty"),
    # turn.when
    ("turn.when", "apply", lambda right, pos, m: pos if m == "turn" and pos["stock"] else right(pos, m),
     "'turn' was accepted, expected a refusal for turn.when"),
    ("turn.when", "apply", lambda right, pos, m: pos if m == "turn" and not pos["waste"] else right(pos, m),
     "'turn' was accepted, expected a refusal for turn.when"),
    ("turn.when", "apply", lambda right, pos, m: changed(a := right(pos, m), stock=a["stock"][::-1]),
     "turn did not move the waste back"),
    # turn.limit: two turns, so three passes through the stock
    ("turn.limit", "apply",
     lambda right, pos, m: changed(pos, stock=pos["waste"], waste=[]) if rule_of(right, pos, m) == "turn.limit" else right(pos, m),
     "'turn' was accepted, expected a refusal for turn.limit"),
    ("turn.limit", "legal", lambda right, pos: [m for m in right(pos) if m != "turn" or pos["turns_left"] == 2],
     "2 passes through the stock, expected 3"),
    ("turn.limit", "status", lambda right, pos: "playing", "no move left, but not stuck"),
    ("turn.limit", "apply",  # a turn that is not counted down: three passes, and turns still left
     lambda right, pos, m: changed(right(pos, m), turns_left=pos["turns_left"]) if m == "turn" else right(pos, m),
     "3 passes through the stock, expected 3"),
    # turn.order
    ("turn.order", "apply", lambda right, pos, m: changed(a := right(pos, m), stock=a["stock"][::-1]) if m == "turn" else right(pos, m),
     "deal 1: after a turn the stock is not in the old order"),
    ("turn.order", "apply",
     lambda right, pos, m: changed(a := right(pos, m), stock=sorted(a["stock"])) if m == "turn" and len(pos["waste"]) < 23 else right(pos, m),
     "after a removal and a turn the order changed"),
    # removed.gone
    ("removed.gone", "apply", lambda right, pos, m: pos if not set(cards(m)) <= in_play(pos) else right(pos, m),
     "'pair 7S 6H' was accepted, expected a refusal for removed.gone"),
    ("removed.gone", "apply", lambda right, pos, m: changed(a := right(pos, m), waste=a["waste"] + ["6H"]) if m == "draw" else right(pos, m),
     "removed cards came back"),
    ("removed.gone", "apply", lambda right, pos, m: changed(a := right(pos, m), waste=a["waste"] + ["7S"]) if m == "draw" else right(pos, m),
     "removed cards came back"),
    ("removed.gone", "apply",
     lambda right, pos, m: refuse("notation", "no such card") if m == "pair JD 2S" else right(pos, m),
     "'pair JD 2S' refused for notation, expected removed.gone"),
    # end.win
    ("end.win", "apply", lambda right, pos, m: changed(right(pos, m), status="playing"), "emptying the pyramid did not win"),
    ("end.win", "apply",  # no win with no turn left
     lambda right, pos, m: changed(a := right(pos, m), status="playing" if a["turns_left"] == 0 else a["status"]),
     "emptying the pyramid did not win"),
    ("end.win", "apply",  # no win with one turn left
     lambda right, pos, m: changed(a := right(pos, m), status="playing" if a["turns_left"] == 1 else a["status"]),
     "emptying the pyramid did not win"),
    ("end.win", "apply", lambda right, pos, m: changed(right(pos, m), stock=[]),
     "cards beside the pyramid were touched at the win"),
    ("end.win", "legal", lambda right, pos: right(pos) or ["draw"], "moves are still legal after the win"),
    ("end.win", "apply", lambda right, pos, m: pos if m == "draw" else right(pos, m),
     "'draw' was accepted, expected a refusal for end.win"),
    # end.stuck
    ("end.stuck", "status", lambda right, pos: "playing", "no move possible but not stuck"),
    ("end.stuck", "status", lambda right, pos: "stuck" if pos["turns_left"] == 0 else right(pos),
     "a move is possible but status is stuck"),
    ("end.stuck", "status",  # the last turn not seen as a move
     lambda right, pos: "stuck" if pos["turns_left"] == 1 and not pos["stock"] else right(pos),
     "a move is possible but status is stuck"),
    ("end.stuck", "status",  # a draw not seen as a move when no turn is left
     lambda right, pos: "stuck" if pos["turns_left"] == 0 and pos["stock"] else right(pos),
     "a move is possible but status is stuck"),
    ("end.stuck", "status",  # a pair in the pyramid not seen as a move when nothing is beside it
     lambda right, pos: "stuck" if pos["turns_left"] == 0 and not pos["stock"] and not pos["waste"] else right(pos),
     "a move is possible but status is stuck"),
    # points.table
    ("points.table", "apply", lambda right, pos, m: changed(a := right(pos, m), points=a["points"] - 5),
     "a pair gave 5 points, expected 10"),
    ("points.table", "apply", lambda right, pos, m: changed(a := right(pos, m), points=min(a["points"], 10)),
     "emptying row 3 gave 10, expected 35"),
    ("points.table", "apply",  # the bonus forgotten for row 2 only
     lambda right, pos, m: changed(a := right(pos, m), points=a["points"] - 25 * (pos["pyramid"][1:3] == ["6H", "7S"])),
     "emptying row 2 gave 10, expected 35"),
    ("points.table", "apply",
     lambda right, pos, m: changed(a := right(pos, m), points=a["points"] - 50 * a["turns_left"] * (a["status"] == "won")),
     "win with 1 turns left gave 130, expected 180"),
    ("points.table", "apply",  # the win's 100 forgotten when no turn is left
     lambda right, pos, m: changed(a := right(pos, m), points=a["points"] - 100 * (a["status"] == "won" and a["turns_left"] == 0)),
     "win with 0 turns left gave 30, expected 130"),
    ("points.table", "apply", lambda right, pos, m: changed(a := right(pos, m), points=a["points"] + (m == "draw")),
     "draw changed the points or did not count one move"),
    ("points.table", "apply", lambda right, pos, m: changed(a := right(pos, m), moves=a["moves"] - (m == "turn")),
     "turn changed the points or did not count one move"),
    # moves.undo
    ("moves.undo", "positions_of_game", lambda right, n, moves: [changed(p, moves=0) for p in right(n, moves)],
     "one move did not count one"),
    ("moves.undo", "positions_of_game", lambda right, n, moves: [changed(p, moves=min(p["moves"], 1)) for p in right(n, moves)],
     "the second move did not count"),
    ("moves.undo", "positions_of_game", lambda right, n, moves: (p := right(n, moves))[:2] + [p[1], p[3]],
     "undo did not restore the position, points and moves"),
    ("moves.undo", "positions_of_game", lambda right, n, moves: (p := right(n, moves))[:3] + [p[2]],
     "undo to the start did not give the opening back"),
    # an undo of a removal that keeps its points, or leaves its cards out of the pyramid
    ("moves.undo", "positions_of_game", lambda right, n, moves: (p := right(n, moves))[:3] + [changed(p[3], points=p[2]["points"])],
     "undo to the start did not give the opening back"),
    ("moves.undo", "positions_of_game", lambda right, n, moves: (p := right(n, moves))[:3] + [changed(p[3], pyramid=p[2]["pyramid"])],
     "undo to the start did not give the opening back"),
    # variant.strict: the card beside the pyramid must go too
    ("variant.strict", "apply_under", lambda right, pos, m, o: changed(a := right(pos, m, o), won=not any(a["pyramid"])),
     "an empty pyramid won with a card left beside it"),
    ("variant.strict", "legal_under", lambda right, pos, o: right(pos, o) if any(pos["pyramid"]) else [],
     "with the pyramid empty, the stock's card cannot be drawn"),
    ("variant.strict", "apply_under", lambda right, pos, m, o: changed(right(pos, m, o), won=False),
     "every card gone is not a win"),
    # variant.one-pass
    ("variant.one-pass", "apply_under", lambda right, pos, m, o: changed(pos, won=False) if m == "turn" else right(pos, m, o),
     "'turn' was accepted under {'turns': 0}, expected refused: no turn in a one-pass game"),
    ("variant.one-pass", "legal_under", lambda right, pos, o: right(pos, o) or ["turn"],
     "moves are left after the one pass"),
    # variant.unlimited
    ("variant.unlimited", "apply_under",
     lambda right, pos, m, o: changed(a := right(pos, m, o), turns_left=max(0, a["turns_left"] - 1)) if m == "turn" else right(pos, m, o),
     "a turn back was refused or counted"),
    ("variant.unlimited", "apply_under",
     lambda right, pos, m, o: refuse("variant", "no turn left") if m == "turn" and pos["turns_left"] == 0 else right(pos, m, o),
     "'turn' refused under {'unlimitedTurns': True} (no turn left), expected legal"),
    ("variant.unlimited", "apply_under", lambda right, pos, m, o: changed(pos, won=False) if m == "turn" and pos["stock"] else right(pos, m, o),
     "'turn' was accepted under {'unlimitedTurns': True}, expected refused: the stock is not empty"),
    # the turns beyond the two a path of their own, which reverses the stock
    ("variant.unlimited", "apply_under",
     lambda right, pos, m, o: changed(a := right(pos, m, o), stock=a["stock"][::-1]) if m == "turn" and pos["turns_left"] == 0 else right(pos, m, o),
     "a turn back was refused or counted"),
    # the turn listed by the standard rules: not once the two turns are used
    ("variant.unlimited", "legal_under", lambda right, pos, o: [m for m in right(pos, o) if m != "turn" or pos["turns_left"]],
     "deal 2, {'unlimitedTurns': True}: legal moves ['king KD'] differ from the rule text's ['king KD', 'turn']"),
    # variant.stock-top
    ("variant.stock-top", "apply_under", lambda right, pos, m, o: changed(right(pos, m, o), stock=pos["stock"]),
     "the stock's top card did not leave the stock"),
    ("variant.stock-top", "apply_under", lambda right, pos, m, o: second_stock_card_free(right, pos, m, o),
     "'pair JH 2C' was accepted under {'stockTop': True}, expected refused: the second stock card is not free"),
    ("variant.stock-top", "apply_under", lambda right, pos, m, o: right(pos, m, {"stockTop": True}),
     "'pair 7S 6H' was accepted under {}, expected refused: the standard rules never take a stock card"),
    # variant.cover-pair
    ("variant.cover-pair", "apply_under", lambda right, pos, m, o: changed(right(pos, m, o), pyramid=pos["pyramid"]),
     "the covering pair did not leave the pyramid"),
    ("variant.cover-pair", "apply_under", lambda right, pos, m, o: other_cover_overlooked(right, pos, m, o),
     "'pair 7S 6H' was accepted under {'coverPair': True}, expected refused: another card still covers 6H"),
    # the covering pair takes one of its two cards only: the covered one, or the one on it
    ("variant.cover-pair", "apply_under", lambda right, pos, m, o: one_card_put_back(right(pos, m, o), pos, m, max),
     "the covering pair did not leave the pyramid"),
    ("variant.cover-pair", "apply_under", lambda right, pos, m, o: one_card_put_back(right(pos, m, o), pos, m, min),
     "the covering pair did not leave the pyramid"),
    ("variant.cover-pair", "apply_under", lambda right, pos, m, o: right(pos, m, {"coverPair": True}),
     "'pair 7S 6H' was accepted under {}, expected refused: the standard rules never pair a card with the card on it"),
]


@pytest.mark.parametrize("rule, method, bug, message", BREAKS,
                         ids=[f"{rule}-{i}" for i, (rule, *_) in enumerate(BREAKS)])
def test_a_broken_rule_is_caught_and_named(rule, method, bug, message):
    with pytest.raises(RuleCheckFailed) as failure:
        RULE_CHECKS[rule](Checker(rule, Broken(method, bug)))
    assert failure.value.rule == rule
    assert str(failure.value) == f"rule {rule}, broken engine: {message}"


class NoTurnLimitAtAll(IndependentSide):
    """An engine that lists and makes a third turn, and a fourth…"""

    name = "broken"

    def legal(self, position):
        extra = not position["stock"] and position["waste"] and position["turns_left"] == 0
        return super().legal(position) + ["turn"] * bool(extra)

    def apply(self, position, move):
        if move == "turn" and not position["stock"] and position["turns_left"] == 0:
            return {**position, "stock": position["waste"], "waste": [], "moves": position["moves"] + 1}
        return super().apply(position, move)


def test_a_third_turn_is_caught_when_it_is_offered_and_made():
    """Three passes (two draws, a turn, three draws, a turn, three draws) use all ten moves of
    the check: the third turn is then refused, or the check says so."""
    with pytest.raises(RuleCheckFailed) as failure:
        RULE_CHECKS["turn.limit"](Checker("turn.limit", NoTurnLimitAtAll()))
    assert str(failure.value) == "rule turn.limit, broken engine: 'turn' was accepted, expected a refusal for turn.limit"


@pytest.mark.parametrize("n", [4294967295, 4294967294, 2**31, 2**31 - 1])
def test_a_deal_wrong_only_at_the_ends_of_the_number_range_is_caught(n):
    """The largest deal numbers, and those either side of 2**31 (where a signed 32-bit number
    turns negative): a shuffle wrong there alone is caught, each one by its number."""
    wrong_at_n = Broken("deal", lambda right, m: changed(d := right(m), stock=d["pyramid"][:1] + d["stock"][1:]) if m == n else right(m))
    with pytest.raises(RuleCheckFailed) as failure:
        RULE_CHECKS["deal.layout"](Checker("deal.layout", wrong_at_n))
    assert str(failure.value) == f"rule deal.layout, broken engine: deal {n}: not 52 different cards"


@pytest.mark.parametrize("n", [2, 3, 1000])
def test_a_turn_out_of_order_in_any_of_the_four_deals_is_caught(n):
    """turn.order plays deals 1, 2, 3 and 1000 through the stock and turns: a turn that reverses
    the stock of one of them alone is caught, by its deal number (deal 1 is the BREAKS' case)."""
    deal_cards = sorted(opening_cards(n))
    reverses_deal_n = Broken("apply", lambda right, pos, m: changed(a := right(pos, m), stock=a["stock"][::-1])
                             if m == "turn" and sorted(pos["waste"]) == deal_cards else right(pos, m))
    with pytest.raises(RuleCheckFailed) as failure:
        RULE_CHECKS["turn.order"](Checker("turn.order", reverses_deal_n))
    assert str(failure.value) == f"rule turn.order, broken engine: deal {n}: after a turn the stock is not in the old order"


@pytest.mark.parametrize("n", [1, 2, 3])
def test_an_undo_wrong_in_any_of_the_three_deals_is_caught(n):
    """moves.undo plays deals 1, 2 and 3: an undo wrong in one of them alone is caught."""
    wrong_in_deal_n = Broken("positions_of_game", lambda right, k, moves: (p := right(k, moves))[:2] + [p[1], p[3]]
                             if k == n else right(k, moves))
    with pytest.raises(RuleCheckFailed) as failure:
        RULE_CHECKS["moves.undo"](Checker("moves.undo", wrong_in_deal_n))
    assert str(failure.value) == "rule moves.undo, broken engine: undo did not restore the position, points and moves"


@pytest.mark.parametrize("rule, options", [("variant.cover-pair", {"coverPair": True}), ("variant.stock-top", {"stockTop": True})])
def test_legal_moves_the_variants_rule_text_does_not_allow_are_caught(rule, options):
    """Along played-out games, the engine's legal moves under the variant against the rule text's:
    an engine that lists the standard rules' moves is caught, both lists shown."""
    standard = Broken("legal_under", lambda right, pos, o: right(pos, {}))
    with pytest.raises(RuleCheckFailed) as failure:
        RULE_CHECKS[rule](Checker(rule, standard))
    text = str(failure.value)
    assert text.startswith(f"rule {rule}, broken engine: deal "), text
    shown, rest = text.split(f", {options}: legal moves ", 1)[1].split(" differ from the rule text's ")
    assert shown != rest and shown.startswith("[") and rest.startswith("[")


def test_a_refusal_of_a_malformed_case_is_not_taken_for_the_rule_refusing_it():
    """A variant's case that an engine reads as a malformed position (say a card code mistyped in
    rule_checks.py) is refused for "notation": the check says so instead of counting it refused."""
    from verify.checks.rule_checks import _refused_under, position

    malformed = Broken("apply_under", lambda right, pos, m, o: refuse("notation", "invalid position: 'XS' is no card"))
    with pytest.raises(RuleCheckFailed) as failure:
        _refused_under(Checker("variant.one-pass", malformed), position({21: "2S"}), "turn", {"turns": 0}, "no turn")
    assert str(failure.value) == ("rule variant.one-pass, broken engine: 'turn' refused under {'turns': 0} as malformed "
                                  "(invalid position: 'XS' is no card), expected refused: no turn")


def test_a_game_won_along_the_way_ends_its_comparisons():
    """The played-out games stop at a win: a won position is compared once, not again for the
    steps left. (No deal the variants' checks play is won within their 40 steps.)"""
    from verify.checks.rule_checks import _same_moves_along_games, position

    one_king_left = Broken("opening", lambda right, n: position({0: "KC"}) | {"status": "playing"})
    c = Checker("variant.strict", one_king_left)
    _same_moves_along_games(c, {}, deals=[1, 2])
    assert c.count == 2 * 2  # per deal: the legal moves compared, the king accepted


# The cases each check compares (the sources page prints them per engine). Those of the
# hand-made checks follow from the cases written in rule_checks.py; the played-out games of
# free.covered, turn.order and the variants count what today's checks compare along them,
# pinned so that a check that stops comparing early, or compares nothing, is seen.
CASES = {
    "cards.values": 1326,  # every pair of 52 cards, once
    "pair.thirteen": 1326,  # the same sweep
    "deal.layout": 204 * 2 + 7,  # 204 deals, two checks each; 7 bad deal numbers
    "free.covered": 595,
    "pair.one-waste": 3 * 4,  # 3 pairs: refused, no legal move with the lower card, accepted, both gone
    "king.alone": 8,  # 2 accepted and checked, 4 refused
    "draw.nonempty": 4,  # accepted, checked, refused with no turn left and with turns left
    "turn.when": 4,  # 2 refused, 1 accepted and checked
    "turn.limit": 13,  # 10 moves, the passes, the refused turn, the status
    "turn.order": 4 * 31,  # 4 deals: 23 draws, a turn, the order; 3 draws, a pair, a turn, the order
    "removed.gone": 6,  # 2 accepted, 3 refused, the check that nothing came back
    "end.win": 3 * 5,  # per number of turns left: accepted, won, stock kept, no legal move, draw refused
    "end.stuck": 4,  # 1 stuck, 3 playing
    "points.table": 16,  # 3 pairs and 3 wins (accepted and checked), draw and turn (the same)
    "moves.undo": 3 * 4,  # 3 deals, 4 positions each
    "variant.strict": 406,
    "variant.one-pass": 372,
    "variant.unlimited": 413,
    "variant.stock-top": 404,
    "variant.cover-pair": 404,
}


def test_each_rule_check_compares_its_cases_and_the_figures_add_up():
    engine = IndependentSide()
    checked = check_rules([engine])
    assert isinstance(checked, Checked)
    assert checked.data == {rule: {"independent": n} for rule, n in CASES.items()}
    assert checked.counts == {"rules": 20, "cases_independent": sum(CASES.values())}
