"""One executable check per rule of docs/rules.md, by the rule ids of docs/positions.md.

Each check builds positions (hand-made or dealt), asks an engine, and compares with what the
rule sentence says. A check returns how many cases it compared; a wrong answer raises
RuleCheckFailed naming the rule, the engine and the case. The site cites these ids.
"""
from __future__ import annotations

import itertools

from ..errors import CheckFailed
from ..independent.deal import RANKS, SUITS
from . import Checked

ALL = [r + s for s in SUITS for r in RANKS]


class RuleCheckFailed(CheckFailed):
    """An engine's answer differs from what a rule sentence says."""

    def __init__(self, rule: str, engine: str, message: str):
        super().__init__(f"rule {rule}, {engine} engine: {message}")
        self.rule = rule


def value(code: str) -> int:
    return RANKS.index(code[0]) + 1


def position(pyramid: dict[int, str] | None = None, stock=(), waste=(), turns_left=2, points=0, moves=0) -> dict:
    """A hand-made position: pyramid given as {index: code}, every other place empty."""
    pyr = [None] * 28
    for k, c in (pyramid or {}).items():
        pyr[k] = c
    return {"pyramid": pyr, "stock": list(stock), "waste": list(waste),
            "turns_left": turns_left, "points": points, "moves": moves}


class Checker:
    """Runs the checks of one rule against one engine, counting cases."""

    def __init__(self, rule: str, engine):
        self.rule, self.engine, self.count = rule, engine, 0

    def expect(self, condition: bool, message: str):
        self.count += 1
        if not condition:
            raise RuleCheckFailed(self.rule, self.engine.name, message)

    def refused(self, pos: dict, move: str, rule: str):
        """The move must be refused for `rule`."""
        from .engines import EngineRefused

        try:
            self.engine.apply(pos, move)
        except EngineRefused as e:
            self.expect(e.rule == rule, f"'{move}' refused for {e.rule}, expected {rule}")
            return
        self.expect(False, f"'{move}' was accepted, expected a refusal for {rule}")

    def accepted(self, pos: dict, move: str) -> dict:
        from .engines import EngineRefused

        try:
            after = self.engine.apply(pos, move)
        except EngineRefused as e:
            raise RuleCheckFailed(self.rule, self.engine.name, f"'{move}' refused ({e}), expected legal") from None
        self.count += 1
        return after


def free_indices(pyramid: list) -> set[int]:
    """The checker's own reading of free.covered: there, and (r+1,c), (r+1,c+1) both gone."""
    free, k = set(), 0
    for r in range(1, 8):
        for _ in range(r):
            below = [k + r, k + r + 1] if r < 7 else []
            if pyramid[k] and all(pyramid[b] is None for b in below):
                free.add(k)
            k += 1
    return free


def check_cards_values(c: Checker):
    # Every pair of two different cards side by side in row 7: legal exactly when the values
    # add up to 13 (suit and colour never matter); otherwise refused for the right rule.
    for a, b in itertools.combinations(ALL, 2):
        pos = position({21: a, 22: b})
        move = f"pair {a} {b}"
        if "K" in (a[0], b[0]):
            c.refused(pos, move, "king.alone")
        elif value(a) + value(b) == 13:
            c.accepted(pos, move)
        else:
            c.refused(pos, move, "pair.thirteen")


def check_deal_layout(c: Checker):
    from .engines import EngineRefused

    for n in list(range(1, 201)) + [4294967295, 4294967294, 2**31, 2**31 - 1]:
        d = c.engine.deal(n)
        cards = d["pyramid"] + d["waste"] + d["stock"]
        c.expect((len(d["pyramid"]), len(d["waste"]), len(d["stock"])) == (28, 1, 23), f"deal {n}: not 28 + 1 + 23")
        c.expect(sorted(cards) == sorted(ALL), f"deal {n}: not 52 different cards")
    for bad in (0, -1, 4294967296, 1.5, "abc", "", "12x"):
        try:
            c.engine.deal(bad)
        except EngineRefused as e:
            c.expect(e.rule == "deal.layout", f"deal {bad!r} refused for {e.rule}")
            continue
        c.expect(False, f"deal number {bad!r} was accepted")


def check_free_covered(c: Checker):
    for n in range(1, 41):
        pos = c.engine.opening(n)
        free = free_indices(pos["pyramid"])
        available = {pos["pyramid"][k] for k in free} | set(pos["waste"][-1:])
        for move in c.engine.legal(pos):
            named = set(move.split()[1:])
            c.expect(named <= available, f"deal {n}: legal move '{move}' uses a card that is not available")
        # Every covered card, paired with a free partner of the right value, is refused.
        for k, code in enumerate(pos["pyramid"]):
            if k in free or code[0] == "K":
                continue
            partners = [pos["pyramid"][f] for f in free if value(pos["pyramid"][f]) == 13 - value(code)]
            for partner in partners:
                c.refused(pos, f"pair {code} {partner}", "free.covered")
        # Stock cards are never available.
        c.refused(pos, f"pair {pos['stock'][0]} {pos['pyramid'][21]}", "free.covered")


def check_pair_one_waste(c: Checker):
    for low, high in [("6H", "7S"), ("AD", "QC"), ("5S", "8H")]:
        pos = position({21: "KH"}, stock=["2C"], waste=[low, high])
        c.refused(pos, f"pair {high} {low}", "pair.one-waste")
        c.expect(not any(low in m for m in c.engine.legal(pos)), "a card under the waste top appears in a legal move")
        # One from the waste and one free pyramid card is fine.
        pos = position({21: low}, waste=[high])
        after = c.accepted(pos, f"pair {high} {low}")
        c.expect(after["waste"] == [] and after["pyramid"][21] is None, "the pair did not leave pyramid and waste")


def check_king_alone(c: Checker):
    pos = position({15: "KS", 21: "4D", 22: "9C", 27: "KH"}, stock=["3C"], waste=["QD", "KC"])
    after = c.accepted(pos, "king KH")
    c.expect(after["pyramid"][27] is None and after["points"] == 5, "a free pyramid king went with 5 points")
    after = c.accepted(pos, "king KC")
    c.expect(after["waste"] == ["QD"], "the waste-top king did not go alone")
    c.refused(pos, "king KS", "free.covered")  # covered by 4D and 9C
    c.refused(position({21: "KS"}, waste=["KC", "2D"]), "king KC", "free.covered")  # under the top
    c.refused(position({21: "KS", 22: "AH"}), "pair KS AH", "king.alone")
    c.refused(position({21: "QS"}), "king QS", "king.alone")


def check_draw_nonempty(c: Checker):
    pos = position({21: "2S"}, stock=["9H", "4C"], waste=["JD"])
    after = c.accepted(pos, "draw")
    c.expect(after["stock"] == ["4C"] and after["waste"] == ["JD", "9H"], "draw did not put the stock's top card on the waste")
    c.refused(position({21: "2S"}, waste=["JD"], turns_left=0), "draw", "draw.nonempty")
    # With turns left as well: a draw never turns the waste over by itself (that is a turn).
    c.refused(position({21: "2S"}, waste=["JD"]), "draw", "draw.nonempty")


def check_turn_when(c: Checker):
    c.refused(position({21: "2S"}, stock=["9H"], waste=["JD"]), "turn", "turn.when")
    c.refused(position({21: "2S"}), "turn", "turn.when")
    after = c.accepted(position({21: "2S"}, waste=["JD", "9H"]), "turn")
    c.expect(after["stock"] == ["JD", "9H"] and after["waste"] == [], "turn did not move the waste back")


def check_turn_limit(c: Checker):
    pos = position({21: "2S"}, stock=["9H", "4C"], waste=["JD"])
    passes = 1
    for _ in range(10):
        legal = c.engine.legal(pos)
        if "draw" in legal:
            pos = c.accepted(pos, "draw")
        elif "turn" in legal:
            pos = c.accepted(pos, "turn")
            passes += 1
        else:
            break
    c.expect(passes == 3 and pos["turns_left"] == 0, f"{passes} passes through the stock, expected 3")
    c.refused(pos, "turn", "turn.limit")
    c.expect(c.engine.status(pos) == "stuck", "no move left, but not stuck")


def check_turn_order(c: Checker):
    for n in (1, 2, 3, 1000):
        pos = c.engine.opening(n)
        order = pos["waste"] + pos["stock"]
        for _ in range(len(pos["stock"])):
            pos = c.accepted(pos, "draw")
        pos = c.accepted(pos, "turn")
        c.expect(pos["stock"] == order, f"deal {n}: after a turn the stock is not in the old order")
        # With cards removed from the waste meanwhile, the rest keep their order.
        removed_waste = position({21: "2S", 22: "5H"}, stock=["9H", "4C", "JD"], waste=["5C"])
        for _ in range(3):
            removed_waste = c.accepted(removed_waste, "draw")
        removed_waste = c.accepted(removed_waste, "pair JD 2S")
        removed_waste = c.accepted(removed_waste, "turn")
        c.expect(removed_waste["stock"] == ["5C", "9H", "4C"], "after a removal and a turn the order changed")


def check_removed_gone(c: Checker):
    pos = position({21: "6H", 22: "7S", 23: "AC"}, stock=["QD"], waste=["2C"])
    after = c.accepted(pos, "pair 7S 6H")
    c.refused(after, "pair 7S 6H", "removed.gone")
    after = c.accepted(after, "draw")
    c.expect("6H" not in str(after) and "7S" not in str(after), "removed cards came back")
    c.refused(after, "pair 6H 7S", "removed.gone")
    c.refused(position({21: "2S"}), "pair JD 2S", "removed.gone")  # a card not in play at all


def check_end_win(c: Checker):
    for turns in (0, 1, 2):
        pos = position({0: "6H"}, stock=["QD", "3C"], waste=["7S"], turns_left=turns, points=100)
        after = c.accepted(pos, "pair 7S 6H")
        c.expect(after["status"] == "won", "emptying the pyramid did not win")
        c.expect(after["stock"] == ["QD", "3C"], "cards beside the pyramid were touched at the win")
        c.expect(c.engine.legal(after) == [], "moves are still legal after the win")
        c.refused(after, "draw", "end.win")


def check_end_stuck(c: Checker):
    stuck = position({21: "2S", 22: "3S"}, waste=["4D"], turns_left=0)
    c.expect(c.engine.status(stuck) == "stuck" and c.engine.legal(stuck) == [], "no move possible but not stuck")
    for pos in (position({21: "2S", 22: "3S"}, waste=["4D"], turns_left=1),
                position({21: "2S", 22: "3S"}, stock=["4D"], turns_left=0),
                position({21: "2S", 22: "JS"}, turns_left=0)):
        c.expect(c.engine.status(pos) == "playing", f"a move is possible but status is {c.engine.status(pos)}")


def check_points_table(c: Checker):
    after = c.accepted(position({21: "6H", 22: "7S", 23: "AC"}), "pair 7S 6H")
    c.expect(after["points"] == 10, f"a pair gave {after['points']} points, expected 10")
    after = c.accepted(position({1: "2C", 3: "6H", 4: "7S", 21: "AC"}), "pair 7S 6H")
    c.expect(after["points"] == 10 + 25, f"emptying row 3 gave {after['points']}, expected 35")
    after = c.accepted(position({1: "6H", 2: "7S", 21: "AC"}), "pair 7S 6H")
    c.expect(after["points"] == 10 + 25, f"emptying row 2 gave {after['points']}, expected 35")
    for turns in (0, 1, 2):
        after = c.accepted(position({0: "KS"}, stock=["QD"], turns_left=turns), "king KS")
        expected = 5 + 25 + 100 + 50 * turns
        c.expect(after["points"] == expected, f"win with {turns} turns left gave {after['points']}, expected {expected}")
    for move, pos in (("draw", position({21: "2S"}, stock=["9H"])), ("turn", position({21: "2S"}, waste=["9H"]))):
        after = c.accepted(pos, move)
        c.expect(after["points"] == 0 and after["moves"] == 1, f"{move} changed the points or did not count one move")


def check_moves_undo(c: Checker):
    for n in (1, 2, 3):
        opening = c.engine.opening(n)
        legal = c.engine.legal(opening)
        # A removal where there is one: the first move in order, a draw, leaves the pyramid and
        # the points alone, so undoing it would not show an undo that forgets a removal.
        first = min(legal, key=lambda m: m == "draw")
        after = c.engine.apply(opening, first)
        seq = [first, "draw", "undo", "undo"]
        positions = c.engine.positions_of_game(n, seq)
        c.expect(positions[0] == after and after["moves"] == 1, "one move did not count one")
        c.expect(positions[1]["moves"] == 2, "the second move did not count")
        c.expect(positions[2] == after, "undo did not restore the position, points and moves")
        c.expect(positions[3] == opening, "undo to the start did not give the opening back")


# ---------------------------------------------------------------- the variants' rules
# Each variant's rule sentence (docs/<lang>/pages/variants.md, verify/independent/variants.py),
# checked under its rules options by hand-made cases, then the same legal moves in both engines
# along played-out games of dealt positions (where the variants' moves differ from the standard).

def _refused_under(c: Checker, pos: dict, move: str, options: dict, why: str):
    from .engines import EngineRefused

    try:
        c.engine.apply_under(pos, move, options)
    except EngineRefused as e:
        # Refused by a rule of play: a case the engine reads as malformed shows no rule at all.
        c.expect(e.rule != "notation", f"'{move}' refused under {options} as malformed ({e}), expected refused: {why}")
        return
    c.expect(False, f"'{move}' was accepted under {options}, expected refused: {why}")


def _accepted_under(c: Checker, pos: dict, move: str, options: dict) -> dict:
    from .engines import EngineRefused

    try:
        after = c.engine.apply_under(pos, move, options)
    except EngineRefused as e:
        raise RuleCheckFailed(c.rule, c.engine.name, f"'{move}' refused under {options} ({e}), expected legal") from None
    c.count += 1
    return after


def _rule_text_moves(pos: dict, options: dict) -> list[str]:
    """The moves the variant's rule text allows, each tried alone in the independent decider's
    move-by-move replay (verify/independent/decider.py replay, written from the rule text):
    draw, turn, every king and every pair worth 13 among the cards in play."""
    from ..independent.decider import IllegalVariantMove, replay

    cards = [x for x in pos["pyramid"] if x] + pos["stock"] + pos["waste"]
    candidates = ["draw", "turn"] + [f"king {x}" for x in cards if x[0] == "K"]
    candidates += [f"pair {a} {b}" for a in cards for b in cards if value(a) + value(b) == 13 and value(a) > value(b)]
    allowed = []
    for move in candidates:
        try:
            replay(pos, [move], options)
        except IllegalVariantMove:
            continue
        allowed.append(move)
    return sorted(allowed)


def _same_moves_along_games(c: Checker, options: dict, deals=range(1, 6), turns_left=2, steps=40):
    """Along a game of each deal (the first removal each time, else the first move), the legal
    moves of the engine are exactly those the rule text allows."""
    for n in deals:
        pos = {k: v for k, v in c.engine.opening(n).items() if k != "status"} | {"turns_left": turns_left}
        for _ in range(steps):
            legal = c.engine.legal_under(pos, options)
            c.expect(legal == _rule_text_moves(pos, options),
                     f"deal {n}, {options}: legal moves {legal} differ from the rule text's {_rule_text_moves(pos, options)}")
            if not legal:
                break
            removal = [m for m in legal if m.startswith(("pair", "king"))]
            after = _accepted_under(c, pos, (removal or legal)[0], options)
            if after["won"]:
                break
            pos = {k: after[k] for k in ("pyramid", "stock", "waste", "turns_left")} | {"points": 0, "moves": 0}


def check_variant_strict(c: Checker):
    strict = {"strictWin": True}
    # The pyramid emptied is not yet a win: the card beside it must go too.
    pos = position({0: "6H"}, stock=["KC"], waste=["7S"])
    after = _accepted_under(c, pos, "pair 7S 6H", strict)
    c.expect(not after["won"] and after["stock"] == ["KC"], "an empty pyramid won with a card left beside it")
    rest = position(stock=["KC"])
    c.expect(c.engine.legal_under(rest, strict) == ["draw"], "with the pyramid empty, the stock's card cannot be drawn")
    drawn = _accepted_under(c, rest, "draw", strict)
    won = _accepted_under(c, position(waste=drawn["waste"]), "king KC", strict)
    c.expect(won["won"], "every card gone is not a win")
    _same_moves_along_games(c, strict)


def check_variant_one_pass(c: Checker):
    one = {"turns": 0}
    # Dealt with no turn: when the stock is empty it stays empty.
    pos = position({21: "2S"}, stock=["9H"], waste=["JD"], turns_left=0)
    pos = _accepted_under(c, pos, "draw", one)
    pos = position({21: "2S"}, waste=pos["waste"], turns_left=0)
    _refused_under(c, pos, "turn", one, "no turn in a one-pass game")
    c.expect(c.engine.legal_under(pos, one) == [], "moves are left after the one pass")
    _same_moves_along_games(c, one, turns_left=0)


def check_variant_unlimited(c: Checker):
    free = {"unlimitedTurns": True}
    for turns in (0, 2):  # as often as the player likes, never counted down
        pos = position({21: "2S"}, waste=["JD", "9H"], turns_left=turns)
        for _ in range(3):
            after = _accepted_under(c, pos, "turn", free)
            c.expect(after["stock"] == ["JD", "9H"] and after["turns_left"] == turns, "a turn back was refused or counted")
            pos = position({21: "2S"}, waste=after["stock"], turns_left=after["turns_left"])
    _refused_under(c, position({21: "2S"}, stock=["9H"], waste=["JD"]), "turn", free, "the stock is not empty")
    _same_moves_along_games(c, free, turns_left=0)


def check_variant_stock_top(c: Checker):
    top = {"stockTop": True}
    pos = position({21: "6H"}, stock=["7S", "2C"], waste=["JD"])
    after = _accepted_under(c, pos, "pair 7S 6H", top)
    c.expect(after["stock"] == ["2C"] and after["waste"] == ["JD"], "the stock's top card did not leave the stock")
    _refused_under(c, position({21: "JH"}, stock=["7S", "2C"]), "pair JH 2C", top, "the second stock card is not free")
    _refused_under(c, pos, "pair 7S 6H", {}, "the standard rules never take a stock card")
    _same_moves_along_games(c, top)


def check_variant_cover_pair(c: Checker):
    cover = {"coverPair": True}
    # 6H (row 6) is covered by 7S alone, and 7S is free: the two may pair.
    pos = position({15: "6H", 21: "7S"})
    after = _accepted_under(c, pos, "pair 7S 6H", cover)
    c.expect(after["pyramid"][15] is None and after["pyramid"][21] is None, "the covering pair did not leave the pyramid")
    _refused_under(c, position({15: "6H", 21: "7S", 22: "AC"}), "pair 7S 6H", cover, "another card still covers 6H")
    _refused_under(c, pos, "pair 7S 6H", {}, "the standard rules never pair a card with the card on it")
    _same_moves_along_games(c, cover)


RULE_CHECKS = {
    "cards.values": check_cards_values,
    "deal.layout": check_deal_layout,
    "free.covered": check_free_covered,
    "pair.thirteen": check_cards_values,  # the same sweep over all 1,326 card pairs proves both
    "pair.one-waste": check_pair_one_waste,
    "king.alone": check_king_alone,
    "draw.nonempty": check_draw_nonempty,
    "turn.when": check_turn_when,
    "turn.limit": check_turn_limit,
    "turn.order": check_turn_order,
    "removed.gone": check_removed_gone,
    "end.win": check_end_win,
    "end.stuck": check_end_stuck,
    "points.table": check_points_table,
    "moves.undo": check_moves_undo,
    "variant.strict": check_variant_strict,
    "variant.one-pass": check_variant_one_pass,
    "variant.unlimited": check_variant_unlimited,
    "variant.stock-top": check_variant_stock_top,
    "variant.cover-pair": check_variant_cover_pair,
}


def run_rule_checks(engines) -> dict[str, dict[str, int]]:
    """{rule id: {engine name: cases compared}}; raises RuleCheckFailed on the first wrong answer."""
    results = {}
    for rule, check in RULE_CHECKS.items():
        results[rule] = {}
        for engine in engines:
            checker = Checker(rule, engine)
            check(checker)
            results[rule][engine.name] = checker.count
    return results


def check_rules(engines) -> Checked:
    """Every rule check against each engine; makes {rule id: {engine name: cases compared}}."""
    results = run_rule_checks(engines)
    counts = {"rules": len(results)}
    for engine in engines:
        counts[f"cases_{engine.name}"] = sum(r[engine.name] for r in results.values())
    return Checked(counts, results)
