"""Independent exact solver for Pyramid solitaire (the solver's question of docs/rules.md).

Written from docs/rules.md and docs/positions.md only; it shares no code with the app.

Question: from a position, under a rules variant (variants.py), the shortest game that wins;
when none wins, the largest number of pyramid cards that can still be removed, and among all
games removing that many, the fewest moves (pair, king, draw and turn each count one).

How (each step exact; the app's solver is written separately to the same plan, so the two
check each other):

* Steps are "some draws and turns, then a removal". Draws and turns never change which cards
  are in play; between removals a game walks the fixed chain of draws and turns of its card
  set. A game that ends in draws or turns is never needed, so the search runs over the
  positions reached right after a removal, a step costing its draws and turns plus one.
* Along one chain a position with the same waste boundary as an earlier one has the same
  cards where they were, no more turns, and costs more: the walk stops there. A removal of
  pyramid cards only gives the same position at once as further down the chain, followed by
  the same draws: it is tried at the start only; further down, only moves that take the
  waste top (or the playable stock top) are new. A free pyramid king goes at once (any best
  game removes it, and moved to the front it keeps every other move legal and the length).
* The goal first: a depth-first walk over card sets, each entered at the highest point of
  its chain met so far, finds whether a win exists and the largest count (both independent
  of the moves spent), cutting branches whose upper bound on removable cards cannot help.
* Then A* (best first by moves so far + a lower bound on the moves still needed, in buckets,
  a position reached again for fewer moves expanded again; within one f the lowest bound
  first): for a win the bound counts the removals per pair of values (with the most pairs the
  pyramid can still make among its own cards, two cards where one covers the other never
  pairing) and the draws needed to bring needed cards out of the stock;
  for a count, the same with the slack the count leaves. Positions that can no longer reach
  the goal are dropped. Within one card set a position that reaches another's boundary with
  at least its turns, for no more moves in all, stands for it: the other is dropped.

Encoding of a position as one non-negative int64 key
----------------------------------------------------
The cards beside the pyramid never change order: ``side = waste + stock`` (waste
bottom first, then stock in draw order) is fixed for the whole search. A position is
    bits  0..27  pyramid card k still there
    bits 28..51  side card i still there (at most 24 side cards)
    bits 52..56  boundary b: side cards with index < b are on the waste, >= b in stock
    bits 57..58  turns left
The boundary is kept canonical: b = 1 + index of the last present side card on the
waste side (0 when the waste is empty), so the waste top is always side[b - 1] and two
keys are equal exactly when the positions are equal (points and move counters are not
part of a position: they do not change which moves are legal).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from .deal import RANKS, SUITS
from .variants import COVER_PAIR, STOCK_TOP, STRICT_WIN, UNLIMITED_TURNS, options_of

NPYR = 28
MAXSIDE = 24  # 52 cards - 28 pyramid places
SIDE_SHIFT = 28
B_SHIFT = 52
T_SHIFT = 57
PYR_MASK = (1 << NPYR) - 1
SIDE_MASK = (1 << MAXSIDE) - 1

# Move codes: kind * 4096 + a * 64 + b. PS: pyramid and stock top; WS: waste top and stock top.
PAIR_PP, PAIR_PW, KING_P, KING_W, DRAW, TURN, PAIR_PS, KING_S, PAIR_WS = range(9)
MAX_CHILDREN = 512  # > 28*27/2 pyramid pairs + 28 pyramid/waste pairs + kings + draw + turn
H_SLOTS = 128  # queue slots per f, by h (a larger h shares the last slot)
MAX_STEPS = 4096  # steps of one position: its removals at the start and down its chain


# ---------------------------------------------------------------- card codes

def parse_card(code: str) -> str:
    """Canonical code of a card: 'td', '10d', 'TD' -> 'TD'."""
    c = code.strip().upper()
    if c.startswith("10"):
        c = "T" + c[2:]
    if len(c) != 2 or c[0] not in RANKS or c[1] not in SUITS:
        raise ValueError(f"unknown card code {code!r}")
    return c


def card_value(code: str) -> int:
    return RANKS.index(code[0]) + 1


def _cover_masks() -> np.ndarray:
    """covm[k] = bits of the two pyramid cards covering card k (0 on row 7)."""
    covm = np.zeros(NPYR, dtype=np.int64)
    for r in range(1, 7):
        for c in range(1, r + 1):
            k = r * (r - 1) // 2 + c - 1
            below = (r + 1) * r // 2 + c - 1  # (r+1, c); (r+1, c+1) is next to it
            covm[k] = (1 << below) | (1 << (below + 1))
    return covm


COVM = _cover_masks()


def _related_masks() -> np.ndarray:
    """rel[k] = the places that may cover k or be covered by k, directly or not (whatever is
    gone): two cards outside each other's rel never cover each other."""
    below = [0] * NPYR  # the places covering k, directly or through others
    for k in range(NPYR - 1, -1, -1):
        d = int(COVM[k])
        below[k] = d
        for j in range(NPYR):
            if (d >> j) & 1:
                below[k] |= below[j]
    return np.array([below[k] | sum(1 << j for j in range(NPYR) if (below[j] >> k) & 1) for k in range(NPYR)],
                    dtype=np.int64)


REL = _related_masks()
# under[k]: the cards k covers directly (the cover-pair variant pairs a card with one of them)
UNDER = np.array([sum(1 << j for j in range(NPYR) if (int(COVM[j]) >> k) & 1) for k in range(NPYR)], dtype=np.int64)


# ---------------------------------------------------------------- numba kernels
# The rules flags reach every kernel as one int, `options` (variants.options_of: STRICT_WIN,
# UNLIMITED_TURNS, STOCK_TOP, COVER_PAIR), each kernel reading the bits it needs.

@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _low(x):
    i = 0
    while not (x >> i) & 1:
        i += 1
    return i


@njit(cache=True, inline="always")
def _hash(x):
    # splitmix64-style finaliser (arithmetic shifts on int64 are fine for mixing)
    x = (x ^ (x >> 30)) * -4658895280553007687  # 0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * -7723592293110705685  # 0x94D049BB133111EB
    return x ^ (x >> 31)


@njit(cache=True, inline="always")
def _boundary_below(side, i):
    """Canonical boundary once waste card i is gone: just after the next present card below it."""
    below = side & ((np.int64(1) << i) - 1)
    nb = 0
    while below >> nb:
        nb += 1
    return nb


@njit(cache=True, inline="always")
def _stock_top(side, b):
    st = side >> b
    return -1 if st == 0 else b + _low(st)


@njit(cache=True)
def _free_mask(pyr, covm):
    f = np.int64(0)
    for k in range(NPYR):
        if (pyr >> k) & 1 and (pyr & covm[k]) == 0:
            f |= np.int64(1) << k
    return f


@njit(cache=True)
def gen_moves(key, pv, sv, covm, under, options, side_only, out_k, out_c):
    """Legal moves of position `key` under the rules flags (`options`, variants.py's bits): child
    keys into out_k, move codes into out_c; returns their number. side_only: only the moves taking
    the waste top or the playable stock top. The game is over once won (the pyramid gone; strict:
    every card)."""
    return _moves_with(key, _free_mask(key & PYR_MASK, covm), pv, sv, covm, under, options, side_only, out_k, out_c)


@njit(cache=True)
def _moves_with(key, free, pv, sv, covm, under, options, side_only, out_k, out_c):
    """gen_moves, the free pyramid cards given (they stay the same down a chain of draws and turns)."""
    strict = (options & STRICT_WIN) != 0
    unlimited = (options & UNLIMITED_TURNS) != 0
    stock_top = (options & STOCK_TOP) != 0
    cover_pair = (options & COVER_PAIR) != 0
    pyr = key & PYR_MASK
    side = (key >> SIDE_SHIFT) & SIDE_MASK
    if pyr == 0 and (not strict or side == 0):
        return 0
    b = (key >> B_SHIFT) & 31
    t = (key >> T_SHIFT) & 3
    tb = t << T_SHIFT
    n = 0
    top = b - 1  # canonical boundary: the waste top is side[b-1]
    topv = sv[top] if top >= 0 else 0
    wkey = np.int64(0)  # the position once the waste top is gone
    if top >= 0:
        nside = side & ~(np.int64(1) << top)
        wkey = pyr | (nside << SIDE_SHIFT) | (_boundary_below(side, top) << B_SHIFT) | tb
    for i in range(NPYR):
        if not (free >> i) & 1:
            continue
        bi = np.int64(1) << i
        if pv[i] == 13:
            if not side_only:
                out_k[n] = key ^ bi
                out_c[n] = KING_P * 4096 + i * 64
                n += 1
            continue
        if not side_only:
            for j in range(i + 1, NPYR):
                if (free >> j) & 1 and pv[i] + pv[j] == 13:
                    out_k[n] = key ^ bi ^ (np.int64(1) << j)
                    out_c[n] = PAIR_PP * 4096 + i * 64 + j
                    n += 1
        if top >= 0 and pv[i] + topv == 13:
            out_k[n] = wkey ^ bi
            out_c[n] = PAIR_PW * 4096 + i * 64 + top
            n += 1
    if top >= 0 and topv == 13:
        out_k[n] = wkey
        out_c[n] = KING_W * 4096 + top
        n += 1
    if cover_pair and not side_only:
        # a card whose only cover left is one free card pairs with that card
        for x in range(NPYR):
            on = pyr & covm[x]
            if (pyr >> x) & 1 and on != 0 and (on & (on - 1)) == 0:
                y = _low(on)
                if (free >> y) & 1 and pv[x] + pv[y] == 13:
                    out_k[n] = key ^ (np.int64(1) << x) ^ on
                    out_c[n] = PAIR_PP * 4096 + x * 64 + y
                    n += 1
    if stock_top:
        s = _stock_top(side, b)
        if s >= 0:
            sb = np.int64(1) << s
            skey = key ^ (sb << SIDE_SHIFT)  # the waste stays as it is
            if sv[s] == 13:
                out_k[n] = skey
                out_c[n] = KING_S * 4096 + s
                n += 1
            else:
                for i in range(NPYR):
                    if (free >> i) & 1 and pv[i] + sv[s] == 13:
                        out_k[n] = skey ^ (np.int64(1) << i)
                        out_c[n] = PAIR_PS * 4096 + i * 64 + s
                        n += 1
                if top >= 0 and topv + sv[s] == 13:
                    out_k[n] = wkey ^ (sb << SIDE_SHIFT)
                    out_c[n] = PAIR_WS * 4096 + top * 64 + s
                    n += 1
    if side_only:
        return n
    if (side >> b) != 0:  # draw: the next stock card becomes the waste top
        out_k[n] = (key & ~(np.int64(31) << B_SHIFT)) | ((_stock_top(side, b) + 1) << B_SHIFT)
        out_c[n] = DRAW * 4096
        n += 1
    elif top >= 0 and (t > 0 or unlimited):
        # turn: stock empty, waste not: everything goes back to the stock, same order
        nt = t if unlimited else t - 1
        out_k[n] = pyr | (side << SIDE_SHIFT) | (nt << T_SHIFT)
        out_c[n] = TURN * 4096
        n += 1
    return n


@njit(cache=True)
def _without_waste_top(key):
    side = (key >> SIDE_SHIFT) & SIDE_MASK
    top = ((key >> B_SHIFT) & 31) - 1
    nside = side & ~(np.int64(1) << top)
    return ((key & PYR_MASK) | (nside << SIDE_SHIFT) | (np.int64(_boundary_below(side, top)) << B_SHIFT)
            | (key & (np.int64(3) << T_SHIFT)))


@njit(cache=True)
def _next_on_chain(side, b, t, options):
    """(boundary, turns) after one more draw or turn; (-1, -1) when neither is possible."""
    unlimited = (options & UNLIMITED_TURNS) != 0
    s = _stock_top(side, b)
    if s >= 0:
        return s + 1, t
    if b > 0 and (t > 0 or unlimited):
        return 0, (t if unlimited else t - 1)
    return -1, -1


@njit(cache=True)
def _steps(key, below, pv, sv, covm, under, options, out_k, out_c, out_s, tmp_k, tmp_c, waste_kings):
    """The steps from position `key`: child keys, move codes and the draws/turns made first.
    Only chain points above rank `below` (-1: all). See the module text. waste_kings (the
    walk for the goal only): a king on the waste top goes at once and stands for the rest of
    the chain -- the game without it can play any game with it, skipping the draw that brings
    it up, so it removes as much and wins as often; not so for the fewest moves."""
    unlimited = (options & UNLIMITED_TURNS) != 0
    stock_top = (options & STOCK_TOP) != 0
    pyr = key & PYR_MASK
    side = (key >> SIDE_SHIFT) & SIDE_MASK
    b = (key >> B_SHIFT) & 31
    t = (key >> T_SHIFT) & 3
    free = _free_mask(pyr, covm)
    for k in range(NPYR):
        if (free >> k) & 1 and pv[k] == 13:  # a free pyramid king goes at once
            out_k[0] = key ^ (np.int64(1) << k)
            out_c[0] = KING_P * 4096 + k * 64
            out_s[0] = 0
            return 1
    if waste_kings and b > 0 and sv[b - 1] == 13:
        out_k[0] = _without_waste_top(key)
        out_c[0] = KING_W * 4096 + b - 1
        out_s[0] = 0
        return 1
    n = 0
    m = _moves_with(key, free, pv, sv, covm, under, options, False, tmp_k, tmp_c)
    for j in range(m):
        kind = tmp_c[j] // 4096
        if kind != DRAW and kind != TURN:
            out_k[n] = tmp_k[j]
            out_c[n] = tmp_c[j]
            out_s[n] = 0
            n += 1
    need = np.int64(1) << 13  # values whose card on the waste top has a move
    for k in range(NPYR):
        if (free >> k) & 1:
            need |= np.int64(1) << (13 - pv[k])
    seen = np.int64(1) << b
    q, u = b, t
    steps = 0
    while True:
        q, u = _next_on_chain(side, q, u, options)
        if q < 0:
            break
        steps += 1
        if (seen >> q) & 1:
            break  # met above: everything from here was
        if below >= 0 and not unlimited and u * 32 + 31 - q <= below:
            break
        seen |= np.int64(1) << q
        if waste_kings and q > 0 and sv[q - 1] == 13:
            out_k[n] = _without_waste_top(pyr | (side << SIDE_SHIFT) | (np.int64(q) << B_SHIFT) | (np.int64(u) << T_SHIFT))
            out_c[n] = KING_W * 4096 + q - 1
            out_s[n] = steps
            return n + 1
        st = _stock_top(side, q) if stock_top else -1
        if st < 0 and (q == 0 or not (need >> sv[q - 1]) & 1):
            continue
        ck = pyr | (side << SIDE_SHIFT) | (np.int64(q) << B_SHIFT) | (np.int64(u) << T_SHIFT)
        m = _moves_with(ck, free, pv, sv, covm, under, options, True, tmp_k, tmp_c)
        for j in range(m):
            out_k[n] = tmp_k[j]
            out_c[n] = tmp_c[j]
            out_s[n] = steps
            n += 1
    return n


@njit(cache=True)
def _usable(pyr, side, b, t, sv, pmask, smask, options):
    """Side cards that may still be taken: all while a turn is left. With none left, a waste
    card under the top comes up only once the cards above it are gone; under a card that can
    never go (not a king, no card of the other value in the pyramid, nor in the stock when the
    stock top is playable) the waste stays buried."""
    stock_top = (options & STOCK_TOP) != 0
    if t > 0 or (options & UNLIMITED_TURNS) != 0 or b == 0:
        return side
    stock = side & ~((np.int64(1) << b) - 1)
    i = b - 1
    while i >= 0:
        if (side >> i) & 1:
            w = 13 - sv[i]
            if w != 0 and pyr & pmask[w] == 0 and not (stock_top and stock & smask[w]):
                return side & ~((np.int64(1) << i) - 1)
        i -= 1
    return side


@njit(cache=True)
def _alive(pyr, side, pv, pmask, smask, covm, options, cov):
    """Pyramid cards that may still go. cov[k]: cards still there covering k, directly or
    through cards still there (k is free only once they are gone, so never together with one
    of them; cover-pair: except a direct cover). A non-king card with no possible partner
    left (a side card of the other value, or a pyramid card in no such relation) never goes,
    nor does any card it covers; repeated until nothing changes."""
    cover_pair = (options & COVER_PAIR) != 0
    kings = pmask[13]
    lonely = False
    m = pyr & ~kings
    while m:
        k = _low(m)
        m &= m - 1
        if side & smask[13 - pv[k]] == 0:
            lonely = True
            break
    if not lonely:
        return pyr
    _cover_sets(pyr, covm, cov)
    alive = pyr
    changed = True
    while changed:
        changed = False
        m = alive & ~kings
        while m:
            k = _low(m)
            m &= m - 1
            if not (alive >> k) & 1:
                continue
            w = 13 - pv[k]
            if side & smask[w]:
                continue
            near = covm[k] if cover_pair else np.int64(0)
            partners = alive & pmask[w] & ~(cov[k] & ~near)
            q = partners
            while q:
                j = _low(q)
                q &= q - 1
                nj = covm[j] if cover_pair else np.int64(0)
                if (cov[j] & ~nj) >> k & 1:
                    partners &= ~(np.int64(1) << j)
            if partners:
                continue
            alive &= ~(np.int64(1) << k)
            q = alive
            while q:
                j = _low(q)
                q &= q - 1
                if (cov[j] >> k) & 1:
                    alive &= ~(np.int64(1) << j)
            changed = True
    return alive


@njit(cache=True)
def _upper(pyr, side, start_cnt, pv, pmask, smask, covm, options, cov):
    """Pyramid cards removed at most, from this position on: per pair of values v, 13 - v,
    of the a and b cards that may still go at most min(a, b + side cards of 13 - v) of v."""
    return _upper_of(_alive(pyr, side, pv, pmask, smask, covm, options, cov), pyr, side, start_cnt, pmask, smask)


@njit(cache=True)
def _upper_of(alive, pyr, side, start_cnt, pmask, smask):
    """_upper once the cards that may still go are known."""
    bound = start_cnt - _popcount(pyr) + _popcount(alive & pmask[13])
    for v in range(1, 7):
        a = _popcount(alive & pmask[v])
        bb = _popcount(alive & pmask[13 - v])
        bound += min(a, bb + _popcount(side & smask[13 - v])) + min(bb, a + _popcount(side & smask[v]))
    return bound


@njit(cache=True)
def _cover_sets(pyr, covm, cov):
    """cov[k]: the cards still there covering k, directly or through cards still there."""
    for k in range(NPYR - 1, -1, -1):
        if not (pyr >> k) & 1:
            cov[k] = 0
            continue
        d = pyr & covm[k]
        c = d
        while d:
            j = _low(d)
            d &= d - 1
            c |= cov[j]
        cov[k] = c


@njit(cache=True)
def _pyramid_pairs(va, wb, cov, covm, options):
    """The most pyramid pairs that can still be made, each of one card of mask va and one of
    mask wb (values v and 13 - v), no card in two: a maximum matching where two cards match
    unless one covers the other through cards still there (the covered one is free only once
    the other is gone, and the other cannot go before it: cover-pair excepts a direct cover).
    Any game's pyramid pairs of these values are such a matching, so no game makes more.
    At most 4 cards of a value (one deck): an exhaustive matching over the subsets of wb's
    cards, best[m] packed 4 bits per subset m into one word (no allocation)."""
    cover_pair = (options & COVER_PAIR) != 0
    na = _popcount(va)
    nb = _popcount(wb)
    if na == 0 or nb == 0:
        return 0
    if na > 4 or nb > 4:
        return min(na, nb)  # never with one deck; the plain bound still holds
    adj = np.int64(0)  # 4 bits per card of va: the cards of wb (by rank in wb) it may pair with
    full = True
    q = va
    i = 0
    while q:
        k = _low(q)
        q &= q - 1
        ck = cov[k] & ~covm[k] if cover_pair else cov[k]
        r = wb
        t = 0
        while r:
            j = _low(r)
            r &= r - 1
            cj = cov[j] & ~covm[j] if cover_pair else cov[j]
            if not (ck >> j) & 1 and not (cj >> k) & 1:
                adj |= np.int64(1) << (4 * i + t)
            else:
                full = False
            t += 1
        i += 1
    if full:
        return min(na, nb)
    # best: 4 bits per subset m of wb's cards, the most pairs of va's cards so far using exactly
    # m (15: none); each card of va is added by going through m downwards, so that a subset is
    # read before any of its supersets is written for the same card
    size = 1 << nb
    best = np.int64(-1) ^ np.int64(15)  # best[0] = 0, all others 15
    for i in range(na):
        for m in range(size - 1, -1, -1):
            here = (best >> (4 * m)) & 15
            if here == 15:
                continue
            free_b = (adj >> (4 * i)) & 15 & ~m
            while free_b:
                t = _low(free_b)
                free_b &= free_b - 1
                m2 = m | (1 << t)
                there = (best >> (4 * m2)) & 15
                if there == 15 or here + 1 > there:
                    best = (best & ~(np.int64(15) << (4 * m2))) | (np.int64(here + 1) << (4 * m2))
    top = 0
    for m in range(size):
        here = (best >> (4 * m)) & 15
        if here != 15 and here > top:
            top = here
    return top


@njit(cache=True)
def _pairs_per_value(pyr, alive, pmask, covm, options, cov):
    """_pyramid_pairs of the cards of `alive` for each value pair v, 13 - v (v = 1 … 6), 3 bits
    each at bit 3v. The plain min(a, b) unless two of the cards might cover each other."""
    packed = np.int64(0)
    known = False  # cov filled in
    for v in range(1, 7):
        va = alive & pmask[v]
        wb = alive & pmask[13 - v]
        m = min(_popcount(va), _popcount(wb))
        q = va
        while q:
            k = _low(q)
            q &= q - 1
            if REL[k] & wb:
                if not known:
                    _cover_sets(pyr, covm, cov)
                    known = True
                m = _pyramid_pairs(va, wb, cov, covm, options)
                break
        packed |= np.int64(m) << (3 * v)
    return packed


@njit(cache=True)
def _draws_to(stock, cards, n):
    """Draws until the n-th card of `cards` (a mask within the stock) is out: the stock cards up to it."""
    m = cards
    for _ in range(n - 1):
        m &= m - 1
    at = _low(m)
    return _popcount(stock & ((np.int64(2) << at) - 1))


@njit(cache=True)
def _bound(key, target, start_cnt, pv, sv, pmask, smask, covm, options, cov, deep, memo):
    """Lower bound on the moves to the goal (target -1: the win; else that many pyramid cards
    removed), or -1 when it is out of reach. A pair takes one card of value v and one of
    13 - v, a king goes alone: for a, b cards of the two values in the pyramid, of which at
    most m pairs can still be made within the pyramid (_pyramid_pairs; m <= min(a, b)),
    a + b - m removals, and a - m cards of value 13 - v (b - m of v) needed from beside the
    pyramid (strict: every card, a + c). Draws bring the stock out in order: a card needed
    from it costs the draws up to it. For a count with slack k (cards that may go but need
    not), k needed cards are left out where they save the most (leaving a card out lowers
    a + b - m, and one of a - m, b - m, by one at most: m drops by at most one). memo: the
    m of each value by card set (_pairs_per_value), int64 pairs of key and value, -1 empty.
    Drops by at most the cost of a step (a removed card is free, so it covers nothing: the
    pairs of the other cards stay possible)."""
    strict = (options & STRICT_WIN) != 0
    stock_top = (options & STOCK_TOP) != 0
    pyr = key & PYR_MASK
    all_side = (key >> SIDE_SHIFT) & SIDE_MASK
    b = (key >> B_SHIFT) & 31
    side = _usable(pyr, all_side, b, (key >> T_SHIFT) & 3, sv, pmask, smask, options)
    if strict and target < 0 and side != all_side:
        return -1  # a buried card never goes
    waste = side & ((np.int64(1) << b) - 1)
    stock = side & ~waste
    removed = start_cnt - _popcount(pyr)
    if target >= 0:
        r = target - removed
        if r <= 0:
            return 0
    alive = _alive(pyr, side, pv, pmask, smask, covm, options, cov)
    if target >= 0 and _upper_of(alive, pyr, side, start_cnt, pmask, smask) < target:
        return -1
    if target < 0 and alive != pyr:
        return -1
    slack = removed + _popcount(alive) - target if target >= 0 else 0
    moves = _popcount(alive & pmask[13])
    pairs = 0
    draws = 0
    nd = 0
    packed = np.int64(0)
    if strict and target < 0:
        moves += _popcount(side & smask[13])
        draws = _popcount(stock)
    else:
        # the pairs per value depend on the cards there and those that may go only: kept in a
        # small direct-mapped memo (a position's card set recurs with many boundaries)
        mkey = alive | (pyr << NPYR)
        hm = _hash(mkey) & (len(memo) // 2 - 1)
        if memo[2 * hm] == mkey:
            packed = memo[2 * hm + 1]
        else:
            packed = _pairs_per_value(pyr, alive, pmask, covm, options, cov)
            memo[2 * hm] = mkey
            memo[2 * hm + 1] = packed
    for v in range(1, 13):
        w = 13 - v
        a = _popcount(alive & pmask[v])
        bb = _popcount(alive & pmask[w])
        if strict and target < 0:
            if v <= 6:
                c = _popcount(side & smask[v])
                d = _popcount(side & smask[w])
                if a + c != bb + d or c > bb or d > a:
                    return -1
                moves += a + c
            continue
        # mt pyramid pairs at most (_pyramid_pairs): a + bb - mt removals, and the a - mt cards
        # of value v left unpaired need a side card of value w each
        mt = (packed >> (3 * min(v, w))) & 7
        if v <= 6:
            moves += a + bb - mt
            pairs += mt
        if a <= mt:
            continue
        side_w = side & smask[w]
        if target < 0 and a - mt > _popcount(side_w):
            return -1
        if stock_top:
            continue
        from_stock = min(a - mt, _popcount(side_w)) - _popcount(side_w & waste)
        if from_stock > 0:
            deep[nd] = side_w & stock
            deep[nd + 1] = from_stock
            nd += 2
    if not (strict and target < 0):
        left = slack
        while True:
            worst = -1
            worst_at = 0
            for i in range(0, nd, 2):
                if deep[i + 1] > 0:
                    at = _draws_to(stock, deep[i], deep[i + 1])
                    if at > worst_at:
                        worst_at = at
                        worst = i
            if left == 0 or worst < 0:
                draws = worst_at
                break
            deep[worst + 1] -= 1
            left -= 1
    full = max(0, moves - slack) + draws
    if target >= 0:
        plain = (target - removed) - min(pairs, (target - removed) // 2)
        return max(full, plain)
    return full


@njit(cache=True)
def _won(key, options):
    return (key & PYR_MASK) == 0 and ((options & STRICT_WIN) == 0 or ((key >> SIDE_SHIFT) & SIDE_MASK) == 0)


@njit(cache=True)
def _max_removable(key0, start_cnt, pv, sv, pmask, smask, covm, under, options):
    """(largest count, won, card sets entered): depth first over card sets, each entered at
    the highest rank of its chain met (rank = turns * 32 + 31 - boundary; a position reaches
    every one of lower rank of its card set), cutting branches that can neither beat the
    best count nor (strict) still win; stops at the first win."""
    strict = (options & STRICT_WIN) != 0
    unlimited = (options & UNLIMITED_TURNS) != 0
    cov = np.zeros(NPYR, dtype=np.int64)
    tmp_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    tmp_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    ch_k = np.empty(MAX_STEPS, dtype=np.int64)
    ch_c = np.empty(MAX_STEPS, dtype=np.int64)
    ch_s = np.empty(MAX_STEPS, dtype=np.int64)
    sk = np.full(1 << 14, -1, dtype=np.int64)  # card set: pyramid | side << 28
    sr = np.zeros(1 << 14, dtype=np.int8)  # its highest rank entered
    used = 0
    buf = np.empty(1 << 12, dtype=np.int64)
    end = 0
    f_from = np.zeros(64, dtype=np.int64)
    f_to = np.zeros(64, dtype=np.int64)
    f_next = np.zeros(64, dtype=np.int64)
    side0 = _usable(key0 & PYR_MASK, (key0 >> SIDE_SHIFT) & SIDE_MASK, (key0 >> B_SHIFT) & 31, (key0 >> T_SHIFT) & 3,
                    sv, pmask, smask, options)
    limit = _upper(key0 & PYR_MASK, side0, start_cnt, pv, pmask, smask, covm, options, cov)
    best = 0
    won = False
    nodes = 0
    d = 0
    key = key0
    below = -1
    # the start's card set
    ck = key0 & (PYR_MASK | (SIDE_MASK << SIDE_SHIFT))
    h = _hash(ck) & (len(sk) - 1)
    sk[h] = ck
    sr[h] = 1 if unlimited else ((key0 >> T_SHIFT) & 3) * 32 + 31 - ((key0 >> B_SHIFT) & 31)
    used = 1
    while True:
        # enter `key` at depth d
        nodes += 1
        cnt = start_cnt - _popcount(key & PYR_MASK)
        if cnt > best:
            best = cnt
        if _won(key, options):
            won = True
        if won or (not strict and best == limit):
            break
        n = _steps(key, below, pv, sv, covm, under, options, ch_k, ch_c, ch_s, tmp_k, tmp_c, True)
        if end + n > len(buf):
            nb = np.empty(max(len(buf) * 2, end + n), dtype=np.int64)
            nb[:end] = buf[:end]
            buf = nb
        buf[end:end + n] = ch_k[:n]
        f_from[d] = end
        f_next[d] = end
        end += n
        f_to[d] = end
        # the next child to enter, backing up when a frame is done
        found = False
        while not found:
            if f_next[d] == f_to[d]:
                end = f_from[d]
                if d == 0:
                    break
                d -= 1
                continue
            c = buf[f_next[d]]
            f_next[d] += 1
            cp = c & PYR_MASK
            r = 1 if unlimited else ((c >> T_SHIFT) & 3) * 32 + 31 - ((c >> B_SHIFT) & 31)
            ck = c & (PYR_MASK | (SIDE_MASK << SIDE_SHIFT))
            mask = len(sk) - 1
            h = _hash(ck) & mask
            while sk[h] != -1 and sk[h] != ck:
                h = (h + 1) & mask
            before = 0
            if sk[h] == ck:
                before = sr[h]
                if before >= r:
                    continue  # entered before at this rank or higher
            cs = _usable(cp, (c >> SIDE_SHIFT) & SIDE_MASK, (c >> B_SHIFT) & 31, (c >> T_SHIFT) & 3, sv, pmask, smask,
                         options)
            ub = _upper(cp, cs, start_cnt, pv, pmask, smask, covm, options, cov)
            if ub <= best and not (strict and ub == start_cnt):
                continue
            if sk[h] != ck:
                sk[h] = ck
                used += 1
            sr[h] = r
            if used * 2 > len(sk):
                nk = np.full(len(sk) * 2, -1, dtype=np.int64)
                nr = np.zeros(len(sk) * 2, dtype=np.int8)
                m2 = len(nk) - 1
                for i in range(len(sk)):
                    if sk[i] != -1:
                        h2 = _hash(sk[i]) & m2
                        while nk[h2] != -1:
                            h2 = (h2 + 1) & m2
                        nk[h2] = sk[i]
                        nr[h2] = sr[i]
                sk = nk
                sr = nr
            below = before if before > 0 else -1
            key = c
            d += 1
            found = True
        if not found:
            break
    return best, won, nodes


@njit(cache=True)
def _chain_distance(side, b1, t1, b2, t2, options):
    """Draws and turns from (b1, t1) to boundary b2 with at least t2 turns left; -1 if none."""
    unlimited = (options & UNLIMITED_TURNS) != 0
    if not unlimited and t1 < t2:
        return -1
    if b2 >= b1:
        return _popcount(side & ((np.int64(1) << b2) - 1) & ~((np.int64(1) << b1) - 1))
    if not unlimited and t1 - 1 < t2:
        return -1
    return _popcount(side & ~((np.int64(1) << b1) - 1)) + 1 + _popcount(side & ((np.int64(1) << b2) - 1))


@njit(cache=True)
def _astar(key0, target, start_cnt, pv, sv, pmask, smask, covm, under, options):
    """A* over positions after removals. Returns (goal index or -1, keys, g, parent, count)."""
    cov = np.zeros(NPYR, dtype=np.int64)
    deep = np.zeros(32, dtype=np.int64)
    memo = np.full(2 << 15, -1, dtype=np.int64)  # 32,768 slots, 512 KB
    tmp_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    tmp_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    ch_k = np.empty(MAX_STEPS, dtype=np.int64)
    ch_c = np.empty(MAX_STEPS, dtype=np.int64)
    ch_s = np.empty(MAX_STEPS, dtype=np.int64)
    cap = 1 << 14
    keys = np.empty(cap, dtype=np.int64)
    g = np.empty(cap, dtype=np.int32)
    hh = np.empty(cap, dtype=np.int32)
    parent = np.empty(cap, dtype=np.int32)
    link = np.empty(cap, dtype=np.int32)  # the next position of the same card set
    state = np.zeros(cap, dtype=np.int8)  # 0 open, 1 expanded, 2 dropped (dominated)
    table = np.full(cap * 2, -1, dtype=np.int32)  # position -> index
    set_key = np.full(cap * 2, -1, dtype=np.int64)  # card set -> its latest position
    set_head = np.full(cap * 2, -1, dtype=np.int32)
    n = 0
    n_sets = 0
    # buckets by (f, h), f = g + h, taken lowest f first and, within one f, lowest h first
    # (the positions nearest the goal by the bound); linked lists, last in first out. Which
    # of the positions of the lowest f goes first does not change what A* proves: the first
    # goal taken off has g = f <= the length of a shortest game, as every position of a lower f
    # went before it; the order within f only decides how many of them are expanded on the way.
    b_head = np.full(H_SLOTS * 512, -1, dtype=np.int32)
    e_idx = np.empty(cap, dtype=np.int32)
    e_next = np.empty(cap, dtype=np.int32)
    n_e = 0

    h0 = _bound(key0, target, start_cnt, pv, sv, pmask, smask, covm, options, cov, deep, memo)
    if h0 < 0:
        return -1, keys, g, parent, 0
    keys[0] = key0
    g[0] = 0
    hh[0] = h0
    parent[0] = -1
    link[0] = -1
    n = 1
    table[_hash(key0) & (len(table) - 1)] = 0
    cs0 = key0 & (PYR_MASK | (SIDE_MASK << SIDE_SHIFT))
    hs = _hash(cs0) & (len(set_key) - 1)
    set_key[hs] = cs0
    set_head[hs] = 0
    n_sets = 1
    e_idx[0] = 0
    e_next[0] = -1
    slot = h0 * H_SLOTS + min(h0, H_SLOTS - 1)
    b_head[slot] = 0
    n_e = 1
    while slot < len(b_head):
        e = b_head[slot]
        if e < 0:
            slot += 1
            continue
        b_head[slot] = e_next[e]
        i = e_idx[e]
        if state[i] != 0 or g[i] + hh[i] != slot // H_SLOTS:
            continue
        key = keys[i]
        if target < 0:
            if _won(key, options):
                return i, keys, g, parent, n
        elif start_cnt - _popcount(key & PYR_MASK) >= target:
            return i, keys, g, parent, n
        state[i] = 1
        m = _steps(key, -1, pv, sv, covm, under, options, ch_k, ch_c, ch_s, tmp_k, tmp_c, False)
        for j in range(m):
            ck = ch_k[j]
            cg = g[i] + ch_s[j] + 1
            # room for one more position, one more queue entry, tables at most half full
            if n + 1 >= len(keys) or n_e + 1 >= len(e_idx):
                size = len(keys) * 2
                keys = _grow(keys, size)
                g = _grow(g, size)
                hh = _grow(hh, size)
                parent = _grow(parent, size)
                link = _grow(link, size)
                state = _grow(state, size)
                e_idx = _grow(e_idx, size)
                e_next = _grow(e_next, size)
            if (n + 1) * 2 > len(table):
                table = np.full(len(table) * 2, -1, dtype=np.int32)
                mt = len(table) - 1
                for x in range(n):
                    ht = _hash(keys[x]) & mt
                    while table[ht] != -1:
                        ht = (ht + 1) & mt
                    table[ht] = x
            if (n_sets + 1) * 2 > len(set_key):
                nk = np.full(len(set_key) * 2, -1, dtype=np.int64)
                nh = np.full(len(set_key) * 2, -1, dtype=np.int32)
                ms = len(nk) - 1
                for x in range(len(set_key)):
                    if set_key[x] != -1:
                        h2 = _hash(set_key[x]) & ms
                        while nk[h2] != -1:
                            h2 = (h2 + 1) & ms
                        nk[h2] = set_key[x]
                        nh[h2] = set_head[x]
                set_key = nk
                set_head = nh
            mt = len(table) - 1
            ht = _hash(ck) & mt
            while table[ht] != -1 and keys[table[ht]] != ck:
                ht = (ht + 1) & mt
            idx = table[ht]
            if idx >= 0:
                if g[idx] <= cg:
                    continue
                state[idx] = 0  # reached for fewer moves: (again) to be expanded
            else:
                cside = (ck >> SIDE_SHIFT) & SIDE_MASK
                cb = (ck >> B_SHIFT) & 31
                ct = (ck >> T_SHIFT) & 3
                cset = ck & (PYR_MASK | (SIDE_MASK << SIDE_SHIFT))
                ms = len(set_key) - 1
                hs = _hash(cset) & ms
                while set_key[hs] != -1 and set_key[hs] != cset:
                    hs = (hs + 1) & ms
                dominated = False
                x = set_head[hs] if set_key[hs] == cset else -1
                while x >= 0:
                    dd = _chain_distance(cside, (keys[x] >> B_SHIFT) & 31, (keys[x] >> T_SHIFT) & 3, cb, ct, options)
                    if dd >= 0 and g[x] + dd <= cg:
                        dominated = True
                        break
                    x = link[x]
                if dominated:
                    continue
                ch = _bound(ck, target, start_cnt, pv, sv, pmask, smask, covm, options, cov, deep, memo)
                if ch < 0:
                    continue
                x = set_head[hs] if set_key[hs] == cset else -1
                while x >= 0:
                    if state[x] == 0:
                        dd = _chain_distance(cside, cb, ct, (keys[x] >> B_SHIFT) & 31, (keys[x] >> T_SHIFT) & 3,
                                             options)
                        if dd >= 0 and cg + dd <= g[x]:
                            state[x] = 2
                    x = link[x]
                idx = n
                n += 1
                keys[idx] = ck
                hh[idx] = ch
                state[idx] = 0
                table[ht] = idx
                if set_key[hs] != cset:
                    set_key[hs] = cset
                    set_head[hs] = -1
                    n_sets += 1
                link[idx] = set_head[hs]
                set_head[hs] = idx
            g[idx] = cg
            parent[idx] = i
            fb = (cg + hh[idx]) * H_SLOTS + min(hh[idx], H_SLOTS - 1)
            if fb >= len(b_head):
                continue  # f >= 512: more moves than any game of 52 cards and 3 turns has
            e_idx[n_e] = idx
            e_next[n_e] = b_head[fb]
            b_head[fb] = n_e
            n_e += 1
            if fb < slot:
                slot = fb
    return -1, keys, g, parent, n


@njit(cache=True)
def _grow(a, size):
    b = np.empty(size, dtype=a.dtype)
    b[: len(a)] = a
    return b


# ---------------------------------------------------------------- Python side

@dataclass
class SolveResult:
    max_removed: int
    shortest: int
    game: list[str]
    positions: int
    seconds: float
    winnable: bool


@dataclass
class Encoded:
    key: int
    pyramid: list  # canonical code or None, 28 entries
    side: list  # canonical codes, waste bottom first then stock in draw order
    pv: np.ndarray
    sv: np.ndarray


def encode(position: dict) -> Encoded:
    """Key and card tables of a JSON position (docs/positions.md)."""
    pyramid = [None if c is None else parse_card(c) for c in position["pyramid"]]
    if len(pyramid) != NPYR:
        raise ValueError("pyramid must have 28 entries")
    waste = [parse_card(c) for c in position.get("waste", [])]
    stock = [parse_card(c) for c in position.get("stock", [])]
    side = waste + stock
    if len(side) > MAXSIDE:
        raise ValueError("more than 24 cards beside the pyramid")
    turns = int(position.get("turns_left", 2))
    if not 0 <= turns <= 3:
        raise ValueError("turns_left out of range")
    pv = np.array([0 if c is None else card_value(c) for c in pyramid], dtype=np.int64)
    sv = np.zeros(MAXSIDE, dtype=np.int64)
    sv[: len(side)] = [card_value(c) for c in side]
    pyr = sum(1 << k for k, c in enumerate(pyramid) if c is not None)
    key = (pyr | (((1 << len(side)) - 1) << SIDE_SHIFT)
           | (len(waste) << B_SHIFT) | (turns << T_SHIFT))
    return Encoded(key, pyramid, side, pv, sv)


def move_text(code: int, enc: Encoded) -> str:
    kind, a, b = code // 4096, (code // 64) % 64, code % 64
    if kind == DRAW:
        return "draw"
    if kind == TURN:
        return "turn"
    if kind == KING_P:
        return f"king {enc.pyramid[a]}"
    if kind in (KING_W, KING_S):
        return f"king {enc.side[b]}"
    x = enc.side[a] if kind == PAIR_WS else enc.pyramid[a]
    y = enc.pyramid[b] if kind == PAIR_PP else enc.side[b]
    if card_value(y) > card_value(x):  # canonical: higher value first
        x, y = y, x
    return f"pair {x} {y}"


def legal_moves(position: dict, rules=None) -> list[str]:
    """Canonical legal moves of a position under the rules (for cross-checks against other engines)."""
    enc = encode(position)
    out_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    out_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    m = gen_moves(np.int64(enc.key), enc.pv, enc.sv, COVM, UNDER, options_of(rules), False, out_k, out_c)
    return sorted(move_text(int(out_c[j]), enc) for j in range(m))


def _value_masks(enc: Encoded):
    pmask = np.zeros(14, dtype=np.int64)
    smask = np.zeros(14, dtype=np.int64)
    for k, c in enumerate(enc.pyramid):
        if c is not None:
            pmask[card_value(c)] |= 1 << k
    for i, c in enumerate(enc.side):
        smask[card_value(c)] |= 1 << i
    return pmask, smask


def solve(position: dict, progress=None, rules=None) -> SolveResult:
    """Exact answer to the solver's question for a JSON position ("status" ignored) under the
    rules options (variants.py; default the standard rules). max_removed counts pyramid cards;
    winnable is the rules' win (strict: every card gone). progress(moves, positions) is called
    once the goal is known and once found."""
    t0 = time.perf_counter()
    enc = encode(position)
    options = options_of(rules)
    start_cnt = sum(c is not None for c in enc.pyramid)
    key0 = np.int64(enc.key)
    if _won(key0, options):
        return SolveResult(0, 0, [], 1, time.perf_counter() - t0, True)
    pmask, smask = _value_masks(enc)
    best, won, sets = _max_removable(key0, start_cnt, enc.pv, enc.sv, pmask, smask, COVM, UNDER, options)
    if progress is not None:
        progress(0, int(sets))
    game: list[str] = []
    positions = int(sets)
    if won or best > 0:
        target = -1 if won else int(best)
        goal, keys, g, parent, n = _astar(key0, target, start_cnt, enc.pv, enc.sv, pmask, smask, COVM, UNDER, options)
        if goal < 0:
            raise AssertionError("the goal of the search was not reached")
        positions += int(n)
        path = []
        s = int(goal)
        while s >= 0:
            path.append(s)
            s = int(parent[s])
        path.reverse()
        game = _game_along(path, keys, g, enc, options)
        if progress is not None:
            progress(len(game), positions)
    return SolveResult(
        max_removed=start_cnt if won else int(best),
        shortest=len(game),
        game=game,
        positions=positions,
        seconds=time.perf_counter() - t0,
        winnable=bool(won),
    )


def _game_along(path, keys, g, enc: Encoded, options: int) -> list[str]:
    """The moves along a path of stored positions: per step, its draws and turns, then the removal."""
    out_k = np.empty(MAX_STEPS, dtype=np.int64)
    out_c = np.empty(MAX_STEPS, dtype=np.int64)
    out_s = np.empty(MAX_STEPS, dtype=np.int64)
    tmp_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    tmp_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    game = []
    for a, b in zip(path, path[1:]):
        parent_key, child_key, cost = int(keys[a]), int(keys[b]), int(g[b]) - int(g[a])
        m = _steps(np.int64(parent_key), -1, enc.pv, enc.sv, COVM, UNDER, options, out_k, out_c, out_s, tmp_k, tmp_c,
                   False)
        found = [j for j in range(m) if int(out_k[j]) == child_key and int(out_s[j]) + 1 == cost]
        assert found, "broken parent link"
        j = found[0]
        side = (parent_key >> SIDE_SHIFT) & SIDE_MASK
        bnd, turns = (parent_key >> B_SHIFT) & 31, (parent_key >> T_SHIFT) & 3
        for _ in range(int(out_s[j])):
            game.append("draw" if side >> bnd else "turn")
            bnd, turns = _next_on_chain(np.int64(side), np.int64(bnd), np.int64(turns), options)
        game.append(move_text(int(out_c[j]), enc))
    return game
