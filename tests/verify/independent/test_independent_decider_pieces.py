"""verify/independent/decider.py piece by piece, each answer exact: the pyramid's geometry, the
bit helpers, the chain of draws and turns and its levels, the table of card sets (probing and
growing, which the 600 small positions of test_independent_decider_prunings.py never fill), the
value masks, Hall's condition and the partners check, a child written into its frame or refused
as dead, the forced removals, and on the Python side the notation of a line, the strict win's
kings, and the variant replayer's every move and refusal. Run first in `make mutation
MODULE=independent-decider` (a second or two, where the positions take 15 s): a mutant here fails
at once. Each function is called as the search calls it (numba's, or plain Python without it)."""

import numpy as np
import pytest
from helpers.cpu_limit import cpu_seconds_without_the_compiler

from verify.independent import decider as d
from verify.independent.variants import FLAG_BITS, STOCK_TOP, STRICT_WIN, UNLIMITED_TURNS


@pytest.fixture(autouse=True)
def no_endless_loop():
    """A mutant's loop fails its test after 20 CPU-seconds without the compiler (a test takes
    well under one)."""
    with cpu_seconds_without_the_compiler(20):
        yield


PLACES = [(r, c) for r in range(1, 8) for c in range(1, r + 1)]  # row 1 is the apex, row 7 is free
INDEX = {rc: k for k, rc in enumerate(PLACES)}


def mask(places) -> int:
    return sum(1 << k for k in places)


def covering(k) -> set[int]:
    r, c = PLACES[k]
    return {INDEX[r + 1, c], INDEX[r + 1, c + 1]} if r < 7 else set()


def above(k) -> set[int]:
    out, todo = set(), list(covering(k))
    while todo:
        j = todo.pop()
        if j not in out:
            out.add(j)
            todo += covering(j)
    return out


def test_the_geometry_is_the_pyramid_of_the_rules():
    for k in range(28):
        assert int(d.COVER[k]) == mask(covering(k)), k
        assert int(d.RELATED[k]) == mask(above(k) | {j for j in range(28) if k in above(j)}), k
        assert int(d.NEAR[k]) == mask(covering(k) | {j for j in range(28) if k in covering(j)}), k
    # Written out: the apex is covered by places 1 and 2 and related to every other card; place 27
    # (row 7, last) covers nothing's way down but the right edge above it; place 12 (row 5, middle)
    # is a direct neighbour of the two above it and the two below.
    assert (int(d.COVER[0]), int(d.COVER[21]), int(d.COVER[27])) == (0b110, 0, 0)
    assert int(d.RELATED[0]) == (1 << 28) - 2
    assert int(d.RELATED[27]) == mask([0, 2, 5, 9, 14, 20])
    assert int(d.NEAR[12]) == mask([7, 8, 17, 18])
    assert (d.NPYR, d.MAXSIDE, d.KING, d.RANKS) == (28, 24, 13, "A23456789TJQK")


def test_the_search_settings_are_bits_of_the_options_above_the_rules():
    settings = (d.KING_FIRST, d.DEAD_CARDS, d.SIDE_KINGS, d.FORCED_PAIRS)
    assert settings == (1 << 8, 1 << 9, 1 << 10, 1 << 11)
    bits = list(FLAG_BITS.values()) + list(settings)
    assert all(b > 0 and b & (b - 1) == 0 for b in bits) and len(set(bits)) == len(bits)
    assert min(settings) > max(FLAG_BITS.values())


def test_bits_and_lowest_bit():
    assert [d._bits(x) for x in (0, 1, 0b1011, (1 << 52) - 1)] == [0, 1, 3, 52]
    assert [d._low(x) for x in (1, 0b1000, 0b1100, 1 << 51)] == [0, 3, 2, 51]


def test_free_cards_are_those_nothing_covers():
    assert d._free(np.int64((1 << 28) - 1), d.COVER) == mask(range(21, 28))
    assert d._free(np.int64(mask([0, 1])), d.COVER) == mask([1])
    assert d._free(np.int64(mask([0, 4, 7])), d.COVER) == mask([0, 7])
    assert d._free(np.int64(0), d.COVER) == 0


def test_a_level_counts_the_draws_and_turns_left_along_the_chain():
    # Three side cards, one on the waste: 2 draws, then per turn left a turn and 3 draws.
    assert d._level(0b111, 1, 2, 0) == 2 + 2 * 4
    assert d._level(0b111, 3, 0, 0) == 0
    assert d._level(0b1011, 2, 1, 0) == 1 + 4  # side card 2 is gone: the stock is card 3 alone
    assert d._level(0b111, 1, 2, UNLIMITED_TURNS) == 0  # unlimited turns: every position reaches every other
    assert d._level(0b111, 1, 2, ~UNLIMITED_TURNS) == 2 + 2 * 4  # no other option says unlimited


def test_the_waste_boundary_once_its_top_is_gone():
    assert d._after_waste_removed(0b1101, 2) == 1  # card 1 is gone too: card 0 is the new top
    assert d._after_waste_removed(0b1101, 3) == 3
    assert d._after_waste_removed(0b1101, 0) == 0
    assert d._after_waste_removed(0b1111, 3) == 3


def test_the_stock_top():
    assert d._stock_top(0b1100, 1) == 2
    assert d._stock_top(0b1100, 3) == 3
    assert d._stock_top(0b0011, 2) == -1
    assert d._stock_top(0b0101, 0) == 0
    assert d._stock_top(0, 0) == -1


def test_the_next_position_of_the_chain_is_a_draw_then_a_turn():
    assert d._next(0b111, 1, 2, 0) == (2, 2, True)  # draw card 1
    assert d._next(0b101, 1, 2, 0) == (3, 2, True)  # card 1 is gone: draw card 2
    assert d._next(0b111, 3, 2, 0) == (0, 1, True)  # turn
    assert d._next(0b111, 3, 1, 0) == (0, 0, True)
    assert d._next(0b111, 3, 0, 0) == (3, 0, False)  # no turn left
    assert d._next(0b111, 3, 0, ~UNLIMITED_TURNS) == (3, 0, False)  # no other option says unlimited
    assert d._next(0b111, 3, 0, UNLIMITED_TURNS) == (0, 0, True)  # unlimited turns: t is not counted
    assert d._next(0b111, 3, 5, UNLIMITED_TURNS) == (0, 5, True)
    assert d._next(0, 0, 2, 0) == (0, 2, False)  # nothing beside the pyramid: no turn either


def key_at(slot: int, size: int) -> int:
    """A key whose home slot in a table of `size` is `slot`."""
    return next(k for k in range(1, 10**6) if int(d._hash(np.int64(k))) & (size - 1) == slot)


def test_the_table_of_card_sets_probes_the_next_slots_in_turn():
    keys = np.zeros(8, dtype=np.int64)
    a = key_at(5, 8)
    assert d._find(keys, a) == 5
    keys[5] = a
    assert d._find(keys, a) == 5
    b = next(k for k in range(a + 1, 10**6) if int(d._hash(np.int64(k))) & 7 == 5)
    assert d._find(keys, b) == 6  # its home is taken: the next slot
    keys[6] = b
    keys[7] = key_at(7, 8)
    c = next(k for k in range(b + 1, 10**6) if int(d._hash(np.int64(k))) & 7 == 6)
    assert d._find(keys, c) == 0  # 6 and 7 are taken: round to the start
    assert d._find(keys, b) == 6


def test_the_table_grows_to_twice_its_size_keeping_every_card_set():
    keys = np.zeros(8, dtype=np.int64)
    vals = np.zeros(8, dtype=np.int32)
    entered = {key_at(3, 8): 4, 11: 7, 12: 1}
    for key, level in entered.items():
        h = d._find(keys, key)
        keys[h], vals[h] = key, level
    k2, v2 = d._grow(keys, vals)
    assert (len(k2), len(v2), k2.dtype, v2.dtype) == (16, 16, np.int64, np.int32)
    assert sorted(int(k) for k in k2 if k) == sorted(entered)
    for key, level in entered.items():
        h = d._find(k2, key)
        assert (int(k2[h]), int(v2[h])) == (key, level)
    assert sum(1 for v in v2 if v) == 3


def test_value_masks_name_each_value_s_places_and_side_cards():
    pv = np.zeros(28, dtype=np.int64)
    pv[[0, 5, 27]] = [6, 13, 6]
    sv = np.zeros(24, dtype=np.int64)
    sv[[0, 1, 2]] = [7, 6, 7]
    sv[3] = 1  # beyond the side cards given: not counted
    pmask, smask = d._value_masks(pv, sv, 3)
    assert len(pmask) == len(smask) == 14
    assert int(pmask[6]) == mask([0, 27]) and int(pmask[13]) == mask([5])
    assert int(pmask[0]) == (1 << 28) - 1 - mask([0, 5, 27])  # the empty places
    assert int(smask[7]) == 0b101 and int(smask[6]) == 0b010 and int(smask[1]) == 0
    assert sum(int(m) for m in smask) == 0b111


def hall(must, partners) -> bool:
    scratch = np.zeros(8, dtype=np.int64)
    scratch[:len(partners)] = partners
    return d._hall(np.int64(must), scratch, len(partners))


def test_hall_s_condition():
    assert hall(0, []) is True
    assert hall(0b1, [0]) is False  # a card that must go with no partner at all
    assert hall(0b1, [0b100]) is True
    assert hall(0b11, [0b1, 0b10]) is True
    assert hall(0b11, [0b1, 0b1]) is False  # two cards, one partner between them
    assert hall(0b01, [0b1, 0b1]) is True  # the second card need not go
    assert hall(0b10, [0, 0b1]) is True  # the first card need not go, and has none
    assert hall(0b111, [0b1, 0b10, 0b11]) is False
    assert hall(0b111, [0b1, 0b110, 0b11]) is True
    assert hall(0b1000, [0, 0, 0, 0b1]) is True  # only the fourth card: the last subsets are tried
    assert hall(0b1000, [0b1, 0b1, 0b1, 0]) is False


def kernel_arrays(pyramid: dict, side=()):
    pv = np.zeros(28, dtype=np.int64)
    for k, value in pyramid.items():
        pv[k] = value
    sv = np.zeros(24, dtype=np.int64)
    sv[:len(side)] = side
    pmask, smask = d._value_masks(pv, sv, len(side))
    return pv, sv, pmask, smask


def partners_ok(pyramid: dict, side=(), v=6, strict=False, stock_top=False, cover_pair=False) -> bool:
    _, _, pmask, smask = kernel_arrays(pyramid, side)
    related = d.RELATED & ~d.NEAR if cover_pair else d.RELATED
    options = (STRICT_WIN if strict else 0) | (STOCK_TOP if stock_top else 0)
    return d._partners_ok(np.int64(mask(pyramid)), np.int64((1 << len(side)) - 1), v, pmask, smask, related,
                          options, np.zeros(8, dtype=np.int64))


def test_the_partners_check():
    # A 6 under the 7 covering it can never meet it, unless the cover-pair variant pairs them.
    assert partners_ok({0: 6, 1: 7}) is False
    assert partners_ok({0: 6, 1: 7}, v=7) is False  # asked by either value
    assert partners_ok({0: 6, 1: 7}, cover_pair=True) is True
    assert partners_ok({0: 6, 3: 7}, cover_pair=True) is False  # two rows apart: still related
    assert partners_ok({0: 6, 1: 7}, v=5) is True  # another value's cards: nothing to check
    assert partners_ok({0: 1, 1: 12}, v=1) is False and partners_ok({0: 1, 1: 12}, v=12) is False  # aces too
    assert partners_ok({0: 13, 1: 13}, v=13) is True and partners_ok({0: 6, 1: 7}, v=0) is True
    assert partners_ok({0: 6, 1: 7}, side=[7]) is False  # a side 7 takes the 6, but the 7 has no 6
    assert partners_ok({0: 6, 1: 7}, side=[7, 6]) is True  # the side 6 takes it
    assert partners_ok({0: 6, 1: 7}, side=[7, 6], v=7) is True
    assert partners_ok({0: 6, 27: 7}) is False  # 27 covers the apex too
    assert partners_ok({1: 6, 27: 7}) is True  # a 7 that does not cover the 6
    # Two 6s (places 0 and 1) that the pyramid's 7 at place 21 covers both: one side 7 for two.
    assert partners_ok({0: 6, 1: 6, 21: 7}, side=[7]) is False
    assert partners_ok({0: 6, 2: 6, 27: 7}, side=[7]) is False  # 27 covers both 0 and 2
    assert partners_ok({1: 6, 2: 6, 27: 7}, side=[7]) is True  # 27 does not cover 1


def test_the_side_cards_partners_and_the_strict_variant():
    # Side cards need not go unless strict; there they need a pyramid partner, or a side one
    # when the stock top is available too.
    assert partners_ok({0: 1}, side=[6, 7, 12]) is True
    assert partners_ok({0: 1}, side=[6, 7, 12], strict=True) is False
    assert partners_ok({0: 1}, side=[6, 7, 12], strict=True, stock_top=True) is True
    assert partners_ok({0: 1}, side=[6, 12], v=6, strict=True, stock_top=True) is False
    assert partners_ok({0: 7}, side=[6, 6], strict=True) is False  # two side 6s, one 7
    assert partners_ok({0: 7, 27: 7}, side=[6, 6], strict=True) is True
    assert partners_ok({0: 7, 27: 7}, side=[6, 6], strict=True, v=7) is True


def add(pyramid, side, cpyr, cside, move, strict=False, dead_cards=True, nch=2):
    """_add of a child into frame 1 of a fresh buffer, already holding nch children: (count, won, buffer)."""
    pv, sv, pmask, smask = kernel_arrays(pyramid, side)
    ch = np.full((2, 4, 7), -9, dtype=np.int64)
    options = (STRICT_WIN if strict else 0) | (d.DEAD_CARDS if dead_cards else 0)
    n, won = d._add(1, np.int64(mask(pyramid)), np.int64((1 << len(side)) - 1), np.int64(cpyr), np.int64(cside),
                    3, 1, move, 5, 2, ch, nch, pv, sv, pmask, smask, d.RELATED, options, np.zeros(8, dtype=np.int64))
    return n, won, ch


def test_a_child_is_written_whole_into_its_frame():
    n, won, ch = add({0: 6, 1: 7, 21: 13}, [5], mask([0, 1]), 0b1, d.KING_PYR * 4096 + 21 * 64)
    assert (n, won) == (3, False)
    assert list(ch[1, 2]) == [mask([0, 1]), 0b1, 3, 1, d.KING_PYR * 4096 + 21 * 64, 5, 2]
    assert (ch[0] == -9).all() and (ch[1, :2] == -9).all() and (ch[1, 3] == -9).all()


def test_a_child_with_the_pyramid_gone_is_a_win_unless_strict_leaves_a_card_that_is_no_king():
    move = d.PAIR_PP * 4096 + 1 * 64 + 2
    assert add({1: 6, 2: 7}, [5, 13], 0, 0b11, move)[:2] == (3, True)
    n, won, ch = add({1: 6, 2: 7}, [5, 13], 0, 0b11, move, strict=True)
    assert (n, won) == (2, False) and (ch == -9).all()
    assert add({1: 6, 2: 7}, [5, 13], 0, 0b10, move, strict=True)[:2] == (3, True)  # only the king is left
    assert add({1: 6, 2: 7}, [13, 13], 0, 0b11, move, strict=True, nch=0)[:2] == (1, True)


def test_a_pair_that_leaves_a_dead_card_is_no_child():
    # 6 at the apex, 7 at place 1 covering it: once the other 6 and 7 are gone they can never pair.
    pyramid = {0: 6, 1: 7, 26: 6, 27: 7, 25: 5, 24: 8}
    pair_67 = d.PAIR_PP * 4096 + 26 * 64 + 27
    n, won, ch = add(pyramid, [], mask([0, 1, 24, 25]), 0, pair_67)
    assert (n, won) == (2, False) and (ch == -9).all()
    assert add(pyramid, [], mask([0, 1, 24, 25]), 0, pair_67, dead_cards=False)[:2] == (3, False)
    # A pair of other values is checked for its own values only (the 6 and 7 were so before).
    assert add(pyramid, [], mask([0, 1, 26, 27]), 0, d.PAIR_PP * 4096 + 24 * 64 + 25)[:2] == (3, False)
    # A king's removal is not checked: it leaves every other value as it was.
    assert add({**pyramid, 20: 13}, [], mask(pyramid), 0, d.KING_PYR * 4096 + 20 * 64)[:2] == (3, False)
    # Two side cards paired: their value is read from the side.
    n, won, _ = add({0: 6, 2: 7}, [5, 6, 7], mask([0, 2]), 0b001, d.PAIR_SS * 4096 + 1 * 64 + 2)
    assert (n, won) == (2, False)  # (place 1 is empty: read from the pyramid, its value would be none)
    n, won, _ = add({0: 6, 1: 7, 2: 5}, [8, 5, 6, 7], mask([0, 1]), 0b1100, d.PAIR_PS * 4096 + 2 * 64 + 0)
    assert (n, won) == (3, False)  # the 5 and 8 gone: the 6s and 7s not checked, the side ones save them


def test_a_side_king_or_a_free_card_s_sole_partner_goes_at_once():
    sv = np.zeros(24, dtype=np.int64)
    sv[[0, 1, 2]] = [13, 7, 4]
    sole_for = np.zeros(24, dtype=np.int64)
    sole_for[1] = 9
    pyr = np.int64(mask([5, 9]))
    assert d._king_or_sole_partner(0, pyr, sv, np.int64(0b10), sole_for, d.SIDE_KINGS) == (d.KING_SIDE * 4096 + 0, pyr)
    assert d._king_or_sole_partner(0, pyr, sv, np.int64(0b10), sole_for, 0) == (-1, pyr)
    assert d._king_or_sole_partner(0, pyr, sv, np.int64(0b10), sole_for, ~d.SIDE_KINGS) == (-1, pyr)
    assert d._king_or_sole_partner(1, pyr, sv, np.int64(0b10), sole_for, d.SIDE_KINGS) == \
        (d.PAIR_PS * 4096 + 9 * 64 + 1, mask([5]))
    assert d._king_or_sole_partner(2, pyr, sv, np.int64(0b10), sole_for, d.SIDE_KINGS) == (-1, pyr)
    assert d._king_or_sole_partner(1, pyr, sv, np.int64(0b1), sole_for, d.SIDE_KINGS) == (-1, pyr)


def forced(pyramid, side, cp, ct=1, strict=False, stock_top=False, side_kings=True, forced_pairs=True,
           sole=0, sole_for=None):
    """_forced at (cp, ct) into frame 0 holding one child: (count, won, found, the child written)."""
    pv, sv, pmask, smask = kernel_arrays(pyramid, side)
    pyr = np.int64(mask(pyramid))
    ch = np.full((1, 3, 7), -9, dtype=np.int64)
    table = np.zeros(24, dtype=np.int64)
    for c, k in (sole_for or {}).items():
        table[c] = k
    options = ((STRICT_WIN if strict else 0) | (STOCK_TOP if stock_top else 0) | (d.SIDE_KINGS if side_kings else 0)
               | (d.FORCED_PAIRS if forced_pairs else 0) | d.DEAD_CARDS)
    n, won, found = d._forced(0, pyr, np.int64((1 << len(side)) - 1), cp, ct, d._free(pyr, d.COVER), np.int64(sole),
                              table, 1, ch, pv, sv, pmask, smask, d.RELATED, options, np.zeros(8, dtype=np.int64))
    assert (ch[0, 0] == -9).all() and (ch[0, 2] == -9).all()
    return n, won, found, (list(ch[0, 1]) if n == 2 else None)


def test_a_king_on_the_waste_goes_at_once():
    # Side cards 0, 1 on the waste (1 the top, a king), 2 in the stock.
    assert forced({21: 3}, [4, 13, 9], cp=2) == \
        (2, False, True, [mask([21]), 0b101, 1, 1, d.KING_SIDE * 4096 + 1, 2, 1])
    assert forced({21: 3}, [4, 13, 9], cp=2, ct=0) == \
        (2, False, True, [mask([21]), 0b101, 1, 0, d.KING_SIDE * 4096 + 1, 2, 0])
    assert forced({21: 3}, [4, 13, 9], cp=2, side_kings=False) == (1, False, False, None)
    assert forced({21: 3}, [4, 13, 9], cp=1) == (1, False, False, None)  # the top is the 4
    assert forced({21: 3}, [13, 9], cp=0) == (1, False, False, None)  # no waste: the king is in the stock


def test_a_king_on_the_stock_top_goes_at_once_when_the_stock_top_is_available():
    assert forced({21: 3}, [4, 5, 13], cp=2, stock_top=True) == \
        (2, False, True, [mask([21]), 0b011, 2, 1, d.KING_SIDE * 4096 + 2, 2, 1])
    assert forced({21: 3}, [4, 5, 13], cp=2) == (1, False, False, None)
    assert forced({21: 3}, [13, 5], cp=0, stock_top=True) == \
        (2, False, True, [mask([21]), 0b10, 0, 1, d.KING_SIDE * 4096 + 0, 0, 1])
    assert forced({21: 3}, [4, 5], cp=2, stock_top=True) == (1, False, False, None)  # no stock


def test_a_free_card_s_sole_partner_goes_with_it_at_once():
    # The waste top (side card 1, a 10) is the only partner left of the free 3 at place 21.
    assert forced({21: 3, 22: 5}, [4, 10], cp=2, sole=0b10, sole_for={1: 21}) == \
        (2, False, True, [mask([22]), 0b01, 1, 1, d.PAIR_PS * 4096 + 21 * 64 + 1, 2, 1])
    assert forced({21: 3}, [4, 10], cp=2, sole=0b10, sole_for={1: 21}) == \
        (2, True, True, [0, 0b01, 1, 1, d.PAIR_PS * 4096 + 21 * 64 + 1, 2, 1])  # and wins
    assert forced({21: 5, 22: 3}, [4, 10, 8], cp=1, stock_top=True, sole=0b10, sole_for={1: 22}) == \
        (2, False, True, [mask([21]), 0b101, 1, 1, d.PAIR_PS * 4096 + 22 * 64 + 1, 1, 1])


def test_strict_the_waste_top_goes_with_its_only_pyramid_partner_once_that_is_free():
    # Strict: every card must go, so the waste top 6 must pair with a 7, and there is one.
    assert forced({0: 7, 22: 5}, [6], cp=1, strict=True) == \
        (2, False, True, [mask([22]), 0, 0, 1, d.PAIR_PS * 4096 + 0 * 64 + 0, 1, 1])
    assert forced({0: 7, 22: 5}, [6], cp=1) == (1, False, False, None)  # not strict
    assert forced({0: 7, 22: 5}, [6], cp=1, strict=True, forced_pairs=False) == (1, False, False, None)
    assert forced({0: 7, 1: 5}, [6], cp=1, strict=True) == (1, False, False, None)  # the 7 is covered
    assert forced({0: 7, 22: 7}, [6], cp=1, strict=True) == (1, False, False, None)  # two 7s
    assert forced({0: 7, 22: 5}, [13], cp=1, strict=True, side_kings=False) == (1, False, False, None)


# ---------------------------------------------------------------- the Python side: lines and replay

def position(pyramid: dict, stock=(), waste=(), turns_left=2) -> dict:
    places = [None] * 28
    for k, code in pyramid.items():
        places[k] = code
    return {"pyramid": places, "stock": list(stock), "waste": list(waste), "turns_left": turns_left,
            "points": 0, "moves": 0}


def test_a_kernel_move_is_written_in_canonical_notation():
    pyramid = [None] * 28
    pyramid[3], pyramid[7], pyramid[21] = "6H", "7S", "KC"
    side = ["9D", "4C", "KD", "6S"]
    text = [d._move_text(code, pyramid, side) for code in (
        d.DRAW * 4096, d.TURN * 4096, d.KING_PYR * 4096 + 21 * 64, d.KING_SIDE * 4096 + 2,
        d.PAIR_PP * 4096 + 3 * 64 + 7, d.PAIR_PS * 4096 + 7 * 64 + 3, d.PAIR_SS * 4096 + 1 * 64 + 0)]
    assert text == ["draw", "turn", "king KC", "king KD", "pair 7S 6H", "pair 7S 6S", "pair 9D 4C"]
    assert d._pair_text("4C", "9D") == "pair 9D 4C" and d._pair_text("9D", "4C") == "pair 9D 4C"
    assert d._pair_text("QH", "AS") == "pair QH AS"


def test_a_strict_win_ends_with_the_kings_beside_the_pyramid_waste_first():
    assert d._finish(["pair 7S 6H"], ["KS", "KH", "KD"], 2, False) == ["pair 7S 6H"]
    moves = ["pair 7S 6H"]
    assert d._finish(moves, ["KS", "KH", "KD", "KC"], 2, True) == \
        ["pair 7S 6H", "king KH", "king KS", "draw", "king KD", "draw", "king KC"]
    assert moves == ["pair 7S 6H"]  # the caller's list is left as it was
    assert d._finish([], [], 0, True) == []


def test_replay_plays_every_kind_of_move_and_says_won():
    start = position({0: "6H", 1: "AS", 2: "KC"}, stock=["QD", "7S"], waste=["KD"])
    end = d.replay(start, ["king KD", "draw", "pair QD AS", "king KC", "draw", "pair 7S 6H"])
    assert end == {"pyramid": [None] * 28, "stock": [], "waste": [], "turns_left": 2, "points": 0, "moves": 0,
                   "won": True}
    assert start["waste"] == ["KD"] and start["pyramid"][1] == "AS"  # the start is left as it was
    turned = d.replay(position({21: "2S"}, waste=["JD", "9H"]), ["turn", "draw"])
    assert (turned["stock"], turned["waste"], turned["turns_left"], turned["won"]) == (["9H"], ["JD"], 1, False)
    unlimited = d.replay(position({21: "2S"}, waste=["JD"], turns_left=0), ["turn", "draw", "turn"],
                         {"unlimitedTurns": True})
    assert (unlimited["stock"], unlimited["waste"], unlimited["turns_left"]) == (["JD"], [], 0)


def test_a_variants_opening_is_the_deal_with_nothing_scored_and_its_turns():
    start = d.opening(1)
    assert {k: start[k] for k in ("turns_left", "points", "moves")} == {"turns_left": 2, "points": 0, "moves": 0}
    assert sorted(start) == ["moves", "points", "pyramid", "stock", "turns_left", "waste"]
    assert d.opening(1, {"turns": 0})["turns_left"] == 0


@pytest.mark.parametrize("start, moves, rules, message", [
    (position({21: "2S"}), ["draw"], None, "move 1 'draw' is not legal"),
    (position({21: "2S"}, stock=["9H"]), ["draw", "turn", "turn"], None, "move 3 'turn' is not legal"),
    (position({21: "2S"}, stock=["9H"]), ["turn"], None, "move 1 'turn' is not legal"),
    (position({21: "2S"}), ["turn"], None, "move 1 'turn' is not legal"),  # nothing to turn
    (position({21: "2S"}, waste=["9H"], turns_left=0), ["turn"], None, "move 1 'turn' is not legal"),
    (position({21: "2S"}, waste=["9H"], turns_left=-1), ["turn"], None, "move 1 'turn' is not legal"),
    (position({21: "KS", 22: "2S"}, stock=["KD"]), ["king KD"], None, "move 1 'king KD' is not legal"),
    (position({0: "KS", 1: "2S"}), ["king KS"], None, "move 1 'king KS' is not legal"),  # covered
    (position({21: "QS", 22: "2S"}), ["king QS"], None, "move 1 'king QS' is not legal"),
    (position({21: "6H", 22: "7S"}), ["pair 6H 6H"], None, "move 1 'pair 6H 6H' is not legal"),
    (position({21: "6H", 22: "8S"}), ["pair 8S 6H"], None, "move 1 'pair 8S 6H' is not legal"),
    (position({0: "6H", 1: "7S"}), ["pair 7S 6H"], None, "move 1 'pair 7S 6H' is not legal"),  # 6H covered
    (position({21: "6H"}, stock=["7S"]), ["pair 7S 6H"], None, "move 1 'pair 7S 6H' is not legal"),
    (position({21: "2S"}, waste=["6H", "7S"]), ["pair 7S 6H"], None, "move 1 'pair 7S 6H' is not legal"),
    (position({21: "7S"}, waste=["6H", "2S"]), ["pair 7S 6H"], None, "move 1 'pair 7S 6H' is not legal"),  # 6H under the top
    (position({21: "2S"}, waste=["9H"]), ["turn", "draw", "turn", "draw", "turn"], None, "move 5 'turn' is not legal"),
    (position({21: "2S"}, stock=["6H"], waste=["7S"]), ["pair 7S 6H"], {"stockTop": True}, None),
    (position({21: "2S"}, stock=["9H", "6H"], waste=["7S"]), ["pair 7S 6H"], {"stockTop": True},
     "move 1 'pair 7S 6H' is not legal"),
    (position({21: "6H"}, stock=["7S"]), ["pair 7S 6H", "draw"], {"stockTop": True},
     "move 2 'draw': the game is already won"),
    (position({21: "2S"}), ["pass"], None, "move 1 'pass' is not legal"),
    (position({21: "2S"}), ["king"], None, "move 1 'king' is not legal"),
    (position({21: "2S"}), ["pair 2S"], None, "move 1 'pair 2S' is not legal"),
    (position({21: "2S"}), ["draw now"], None, "move 1 'draw now' is not legal"),
    (position({21: "2S"}, stock=["JD"]), ["turn now"], None, "move 1 'turn now' is not legal"),
    (position({21: "KS"}), ["king KS", "king KS"], None, "move 2 'king KS': the game is already won"),
])
def test_replay_refuses_naming_the_move(start, moves, rules, message):
    if message is None:
        assert d.replay(start, moves, rules)["won"] is False
        return
    with pytest.raises(d.IllegalVariantMove) as refused:
        d.replay(start, moves, rules)
    assert str(refused.value) == message


def test_replay_of_the_cover_pair_variant():
    cover_pair = {"coverPair": True}
    # 6H at place 1 is covered by 7S (place 3) alone, which is free: they may pair.
    start = position({0: "2C", 1: "6H", 3: "7S"})
    assert d.replay(start, ["pair 7S 6H"], cover_pair)["pyramid"] == [("2C" if k == 0 else None) for k in range(28)]
    assert d.replay(start, ["pair 6H 7S"], cover_pair)["pyramid"][1] is None  # named either way round
    with pytest.raises(d.IllegalVariantMove, match="^move 1 'pair 7S 6H' is not legal$"):
        d.replay(start, ["pair 7S 6H"])
    with pytest.raises(d.IllegalVariantMove, match="^move 1 'pair 7S 6H' is not legal$"):
        d.replay(position({0: "2C", 1: "6H", 3: "7S", 4: "AC"}), ["pair 7S 6H"], cover_pair)  # AC covers it too
    with pytest.raises(d.IllegalVariantMove, match="^move 1 'pair 7S 6H' is not legal$"):
        d.replay(position({0: "2C", 1: "6H", 3: "7S", 6: "AC"}), ["pair 7S 6H"], cover_pair)  # 7S is not free
    with pytest.raises(d.IllegalVariantMove, match="^move 1 'pair 7S 6H' is not legal$"):
        d.replay(position({0: "6H", 2: "AC", 5: "7S"}), ["pair 7S 6H"], cover_pair)  # its one cover is the AC


def test_replay_of_the_strict_variant_wins_only_with_every_card_gone():
    strict = {"strictWin": True}
    start = position({21: "6H"}, stock=["7S", "KD"], waste=["KC"])
    end = d.replay(start, ["draw", "pair 7S 6H"], strict)
    assert end["won"] is False and end["stock"] == ["KD"] and end["waste"] == ["KC"]
    assert d.replay(start, ["draw", "pair 7S 6H", "king KC", "draw", "king KD"], strict)["won"] is True
    # stop_at_win=False plays on past the win (as decide() does to find the kings' places).
    assert d.replay(position({21: "6H"}, stock=["7S"]), ["draw", "pair 7S 6H"], None)["won"] is True
    with pytest.raises(d.IllegalVariantMove, match="^move 2 'draw': the game is already won$"):
        d.replay(position({21: "KS"}, stock=["QD"]), ["king KS", "draw"])
    assert d.replay(position({21: "KS"}, stock=["QD"]), ["king KS", "draw"], stop_at_win=False)["waste"] == ["QD"]


def test_a_decision_s_card_sets_and_its_options():
    start = position({0: "6H", 1: "7S", 2: "KC"}, stock=["2D"])
    assert d.decide(start) == d.Decision("lost", None, 0)  # the 6H's only 7 covers it: lost at once
    plain = d.decide(start, dead_cards=False)
    assert plain.result == "lost" and plain.nodes > 0
    # Once the KC is gone the 7S is the 6H's only cover, and free: the cover-pair variant pairs them.
    assert d.decide(start, "cover-pair") == d.Decision("won", ["king KC", "pair 7S 6H"], 2)
    with pytest.raises(ValueError, match="^unknown variant 'nope': one of standard, strict, one-pass"):
        d.decide(start, "nope")
    # The first card set is entered whatever the limit: a win found there needs no other.
    assert d.decide(position({21: "6H"}, stock=["7S"], turns_left=0), max_nodes=0) == \
        d.Decision("won", ["draw", "pair 7S 6H"], 1)
