"""Tests of verify/independent/solver.py, the independent exact solver.

The reference is a deliberately plain breadth-first search written here over
verify.independent.rules (legal_moves / apply), with Python sets of whole positions: slow, but
obviously an answer to the question docs/rules.md asks ("The solver's question").
"""

from __future__ import annotations

import random

import pytest

from verify.independent import decider, rules
from verify.independent.deal import ALL_CARDS
from verify.independent.solver import SolveResult, legal_moves as solver_moves, solve
from verify.independent.variants import COVER_PAIR, VARIANTS, options_of


# ---------------------------------------------------------------- reference

def _state(p: rules.Position):
    # Points and the move counter are not part of a position for the search.
    return p.pyramid, p.stock, p.waste, p.turns_left


def reference(position: dict):
    """(max_removed, shortest, positions seen) by plain BFS over verify.independent.rules."""
    start = rules.from_json(position)
    base = rules.pyramid_removed(start)
    seen = {_state(start)}
    frontier, depth, best = [start], 0, (0, 0)
    while frontier:
        depth += 1
        nxt = []
        for p in frontier:
            for m in rules.legal_moves(p):  # none once won: the game ends there
                q = rules.apply(p, m)
                if _state(q) in seen:
                    continue
                seen.add(_state(q))
                nxt.append(q)
                removed = rules.pyramid_removed(q) - base
                if removed > best[0]:  # first time at this count = fewest moves
                    best = (removed, depth)
        frontier = nxt
    return best[0], best[1], len(seen)


def reference_variant(position: dict, options: dict):
    """(max_removed, shortest, won) by plain BFS, one move at a time, under a variant: the moves
    from the solver's move generator, each applied by the variant replayer (decider.replay)."""
    def state(p):
        return tuple(p["pyramid"]), tuple(p["stock"]), tuple(p["waste"]), p["turns_left"]

    def won(p):
        gone = all(c is None for c in p["pyramid"])
        return gone and (not options.get("strictWin") or not (p["stock"] or p["waste"]))

    left = sum(c is not None for c in position["pyramid"])
    start = {**position, "points": 0, "moves": 0}
    if won(start):
        return 0, 0, True
    seen, frontier, depth, best = {state(start)}, [start], 0, (0, 0)
    while frontier:
        depth += 1
        nxt = []
        for p in frontier:
            for m in solver_moves(p, options):
                q = decider.replay(p, [m], options)
                if state(q) in seen:
                    continue
                seen.add(state(q))
                removed = left - sum(c is not None for c in q["pyramid"])
                if won(q):
                    return left, depth, True
                if removed > best[0]:
                    best = (removed, depth)
                nxt.append({**q, "points": 0, "moves": 0})
        frontier = nxt
    return best[0], best[1], False


def replay(position: dict, result: SolveResult) -> rules.Position:
    """Play result.game with verify.independent.rules; checks the game is legal and as long as claimed."""
    p = rules.from_json(position)
    base = rules.pyramid_removed(p)
    for move in result.game:
        assert move == str(rules.parse_move(move)), f"not canonical: {move!r}"
        p = rules.apply(p, move)
    assert len(result.game) == result.shortest
    assert rules.pyramid_removed(p) - base == result.max_removed
    return p


def position(pyramid, stock=(), waste=(), turns_left=2) -> dict:
    return {"pyramid": list(pyramid), "stock": list(stock), "waste": list(waste),
            "turns_left": turns_left, "points": 0, "moves": 0, "status": "playing"}


def random_small(rng: random.Random) -> dict:
    """A random position with few pyramid cards and a short stock/waste."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    pyramid = [None] * 28
    # Mostly the lower rows, so that some cards cover others.
    places = rng.sample(range(10, 28), rng.randint(1, 9)) + rng.sample(range(10), rng.randint(0, 2))
    for k in places:
        pyramid[k] = deck.pop()
    nw, ns = rng.randint(0, 3), rng.randint(0, 7)
    waste = [deck.pop() for _ in range(nw)]
    stock = [deck.pop() for _ in range(ns)]
    return position(pyramid, stock, waste, rng.randint(0, 2))


# ---------------------------------------------------------------- tests

def test_random_small_positions_match_plain_bfs():
    rng = random.Random(20240611)
    checked_full = 0
    for _ in range(400):
        pos = random_small(rng)
        want_removed, want_len, want_positions = reference(pos)
        got = solve(pos)
        assert (got.max_removed, got.shortest) == (want_removed, want_len), pos
        left = sum(c is not None for c in pos["pyramid"])
        assert got.winnable == (got.max_removed == left)
        replay(pos, got)
        if not got.winnable:
            # The best-first search walks removals only, with dominance: far fewer positions.
            assert got.positions <= 2 * want_positions, pos
            checked_full += 1
    assert checked_full > 100


def test_legal_moves_agree_with_rules_along_random_games():
    rng = random.Random(7)
    for n in range(1, 31):
        p = rules.opening(n)
        while True:
            want = sorted(str(m) for m in rules.legal_moves(p))
            assert solver_moves(rules.to_json(p)) == want, rules.to_json(p)
            if not want:
                break
            p = rules.apply(p, rng.choice(want))


def test_turn_needed_and_limited():
    # The 6 lies under the 9 on the waste; it comes back only after a turn.
    pyr = [None] * 28
    pyr[27] = "7C"
    pos = position(pyr, stock=[], waste=["6D", "9S"], turns_left=1)
    got = solve(pos)
    assert (got.max_removed, got.shortest) == (1, 3)
    assert got.game == ["turn", "draw", "pair 7C 6D"]
    replay(pos, got)
    pos0 = position(pyr, stock=[], waste=["6D", "9S"], turns_left=0)
    assert solve(pos0).max_removed == 0


def test_won_position_is_zero_zero():
    got = solve(position([None] * 28, stock=["AS", "2S"], waste=["KD"]))
    assert (got.max_removed, got.shortest, got.game) == (0, 0, [])
    assert got.winnable and got.positions == 1


def test_nothing_can_go():
    pyr = [None] * 28
    pyr[0], pyr[1], pyr[2] = "5S", "8S", "4H"  # the 8 covers the 5
    pos = position(pyr, stock=["2C", "3C"], waste=["TD"], turns_left=2)
    got = solve(pos)
    assert (got.max_removed, got.shortest, got.game) == (0, 0, [])
    assert not got.winnable


def test_input_case_and_ten_and_canonical_pair_order():
    pyr = [None] * 28
    pyr[21], pyr[22] = "as", "10h"  # row 7: both free
    pos = position(pyr, stock=["qd", "3c"], waste=[], turns_left=0)
    got = solve(pos)
    assert (got.max_removed, got.shortest) == (2, 4)
    assert got.game in (["draw", "pair QD AS", "draw", "pair TH 3C"],
                        ["draw", "draw", "pair TH 3C", "pair QD AS"])
    replay(pos, got)


@pytest.mark.parametrize("n", [7, 1])
def test_deal_opening_game_replays(n):
    pos = rules.to_json(rules.opening(n))
    calls = []
    got = solve(pos, progress=lambda moves, k: calls.append((moves, k)))
    end = replay(pos, got)
    assert got.winnable == (got.max_removed == 28)
    if got.winnable:
        assert rules.status(end) == "won"
    # progress: once the goal is known, once it is reached (with the game's length)
    assert calls[-1] == (got.shortest, got.positions)
    assert all(a[1] <= b[1] for a, b in zip(calls, calls[1:]))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_matches_plain_bfs_on_random_small_positions(variant):
    options = dict(VARIANTS[variant])
    rng = random.Random(sum(map(ord, variant)))
    won = 0
    for _ in range(60):
        pos = random_small(rng)
        want = reference_variant(pos, options)
        got = solve(pos, rules=options)
        assert (got.max_removed, got.shortest, got.winnable) == want, (variant, pos)
        final = decider.replay(pos, got.game, options)
        assert sum(c is not None for c in pos["pyramid"]) - sum(c is not None for c in final["pyramid"]) == got.max_removed
        assert final["won"] == got.winnable and len(got.game) == got.shortest
        won += got.winnable
    if not options.get("strictWin"):  # strict: every card beside must go too, rare here
        assert 0 < won < 60, f"a mix of won and lost ({won} won)"


def test_strict_wins_once_the_cards_beside_are_gone_too():
    pyr = [None] * 28
    pyr[27] = "9H"
    pos = position(pyr, stock=["KS"], waste=["4D"], turns_left=0)
    assert solve(pos).game == ["pair 9H 4D"]
    got = solve(pos, rules=VARIANTS["strict"])
    assert (got.max_removed, got.shortest, got.winnable) == (1, 3, True)
    assert got.game in (["pair 9H 4D", "draw", "king KS"], ["draw", "king KS", "pair 9H 4D"])
    lost = solve(position(pyr, stock=["2S"], waste=["4D"], turns_left=0), rules=VARIANTS["strict"])
    assert (lost.max_removed, lost.shortest, lost.winnable) == (1, 1, False)


def test_unknown_rules_are_refused():
    with pytest.raises(ValueError, match="strictWin cannot be combined with stockTop"):
        solve(rules.to_json(rules.opening(1)), rules={"strictWin": True, "stockTop": True})
    with pytest.raises(ValueError, match="unknown rules options"):
        solve(rules.to_json(rules.opening(1)), rules={"relaxed": True})


def test_pyramid_pairs_is_a_maximum_matching_of_cards_that_do_not_cover_each_other():
    """_pyramid_pairs, against an exhaustive matching written here: two cards pair unless one
    covers the other through cards still there (cover-pair: except a direct cover)."""
    import numpy as np
    from verify.independent import solver as S
    rng = random.Random(28)
    cov = np.zeros(28, dtype=np.int64)
    below_min = 0
    for _ in range(600):
        pyr = sum(1 << k for k in rng.sample(range(28), rng.randint(2, 28)))
        S._cover_sets(np.int64(pyr), S.COVM, cov)
        cards = [k for k in range(28) if pyr >> k & 1]
        va = rng.sample(cards, min(len(cards), rng.randint(1, 4)))
        rest = [c for c in cards if c not in va]
        wb = rng.sample(rest, min(len(rest), rng.randint(1, 4))) if rest else []
        cover_pair = rng.random() < 0.5

        def covers(x, y):  # y covers x through cards still there
            return (int(cov[x]) & ~(int(S.COVM[x]) if cover_pair else 0)) >> y & 1

        def most(i, used):
            if i == len(va):
                return 0
            return max([most(i + 1, used)] + [1 + most(i + 1, used | {j}) for j in wb
                                              if j not in used and not covers(va[i], j) and not covers(j, va[i])])
        want = most(0, frozenset())
        got = S._pyramid_pairs(np.int64(sum(1 << k for k in va)), np.int64(sum(1 << k for k in wb)), cov, S.COVM,
                               COVER_PAIR if cover_pair else 0)
        assert got == want, (va, wb, cover_pair)
        below_min += want < min(len(va), len(wb))
    assert below_min > 50  # the covers matter often enough to be tested


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_bound_never_exceeds_the_shortest_game(variant):
    """A*'s lower bound from a position, against the plain BFS's length of the shortest game
    to the same goal (the win, or the most cards): it may be lower, never higher."""
    import numpy as np
    from verify.independent import solver as S
    options = dict(VARIANTS[variant])
    rng = random.Random(sum(map(ord, variant)) + 28)
    checked = tight = 0
    for _ in range(60):
        pos = random_small(rng)
        removed, shortest, won = reference_variant(pos, options)
        if shortest == 0:
            continue
        enc = S.encode(pos)
        pmask, smask = S._value_masks(enc)
        start = sum(c is not None for c in enc.pyramid)
        bound = S._bound(np.int64(enc.key), -1 if won else removed, start, enc.pv, enc.sv, pmask, smask, S.COVM,
                         options_of(options), np.zeros(28, dtype=np.int64), np.zeros(32, dtype=np.int64),
                         np.full(2 << 15, -1, dtype=np.int64))
        assert 0 <= bound <= shortest, (variant, pos, bound, shortest)
        checked += 1
        tight += bound == shortest
    assert checked > 30 and tight > 0
