"""Independent decider: can a position of Pyramid solitaire still be won?

Written from docs/rules.md and docs/positions.md only; it shares no code with the app
(app/core/decider.js), nor with verify/independent/solver.py. The survey (verify/survey/worker.py) asks it again about
every deal the app's decider calls lost, and its replayer checks winning games of the variants.

The search (numba, depth first, stops at the first win):

* Card sets. Draws and turns never change which cards are in play, so the search walks card
  sets (pyramid mask, side mask). For one card set the positions form one chain of draws and
  turns: the stock is drawn in a fixed order and a turn starts it again (turn.order). A
  position is measured by ``level`` = the draws and turns still possible from it along that
  chain; a position reaches, by draws and turns alone, every position of its card set with a
  lower level. A card set entered at level L stands for all its positions of level <= L, and
  its children are the removals made at any of them. A card set met again at a level no
  higher than an earlier entry is skipped: every move removes a card, so the earlier entry is
  no ancestor, hence finished and lost (the search stops at the first win), and it reached
  everything the new one can.
* A free pyramid king goes at once: any win must remove it; moved to the front, the rest of
  the win stays legal (it takes part in no other move, removing it only frees cards, and it
  touches neither stock nor waste).
* Forced removals. Taking a card c beside the pyramid off now rather than later never hurts:
  any game from here can be played without c, move for move, skipping the draw that would
  bring c up (and a turn that would leave only c to turn, which leaves a turn more), so every
  other card it has available is available too; taking a pyramid card off earlier only frees
  cards. Hence a removal that every win must make, whose cards are in no other move, can be
  made first, and it stands for the rest of the chain from where it is available. Two such
  removals are made alone: a king on the waste top (or the playable stock top); and a pair of
  a card that must go (a free pyramid card; in the strict variant the waste top too) with its
  only possible partner left (see Partners), once both are available.
* Partners. The cards of values v and 13 - v must be paired off: every non-king pyramid card
  (and in the strict variant every card) goes in a pair with a card of the other value, each
  card once, and the two are available together — never so for two pyramid cards one of which
  covers the other at any distance (except direct neighbours in the cover-pair variant), nor
  for two side cards (only the waste top is available beside the pyramid, unless the stock top
  is too). A card set where no such pairing exists cannot be won. Checked as two matchings:
  one saturating the must-go cards of value v, one those of value 13 - v; by the
  Mendelsohn-Dulmage theorem both exist exactly when one matching saturates all of them.

Rules options (the same names as the app's, so one JSON object serves both):
strictWin (all 52 cards must go), turns (turns of a new deal; 0 = one pass), unlimitedTurns,
stockTop (the stock's top card is available too), coverPair (a card may pair with the card
directly covering it when that one is free and is the only card still covering it). The kernels
take the flags as one int, `options`: variants.py's bits (STRICT_WIN …) and, above them, the
search's own settings (KING_FIRST, DEAD_CARDS, SIDE_KINGS, FORCED_PAIRS).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from . import deal as deals
from .deal import RANKS
from .illegal import IllegalMove
from .variants import COVER_PAIR, STOCK_TOP, STRICT_WIN, UNLIMITED_TURNS, options_of, rules_of

KING = 13
NPYR = 28
MAXSIDE = 24

# Move codes of the kernel: kind * 4096 + a * 64 + b.
DRAW, TURN, KING_PYR, KING_SIDE, PAIR_PP, PAIR_PS, PAIR_SS = range(7)
WON, LOST, UNDECIDED = 1, 0, 2
MAX_DEPTH = 64  # every step of the search removes a card
MAX_CHILDREN = 1024
MAX_LINE = 4096
# The search's own settings (decide()'s keywords), in the kernels' `options` beside the rules'
# flags (variants.py: STRICT_WIN, UNLIMITED_TURNS, STOCK_TOP, COVER_PAIR, bits 0 to 3).
KING_FIRST = 1 << 8
DEAD_CARDS = 1 << 9
SIDE_KINGS = 1 << 10
FORCED_PAIRS = 1 << 11


def _geometry():
    """cover[k]: the two cards directly covering k; related[k]: cards covering k or covered by
    it at any distance; near[k]: the direct neighbours (covering k or directly covered by k)."""
    index = {}
    for r in range(1, 8):
        for c in range(1, r + 1):
            index[r, c] = len(index)
    cover = np.zeros(NPYR, dtype=np.int64)
    for (r, c), k in index.items():
        if r < 7:
            cover[k] = (1 << index[r + 1, c]) | (1 << index[r + 1, c + 1])
    above = [0] * NPYR
    for k in range(NPYR - 1, -1, -1):  # rows below come later in the order
        m = int(cover[k])
        for j in range(NPYR):
            if (m >> j) & 1:
                m |= above[j]
        above[k] = m
    related = np.zeros(NPYR, dtype=np.int64)
    near = np.zeros(NPYR, dtype=np.int64)
    for k in range(NPYR):
        related[k] = above[k] | sum(1 << j for j in range(NPYR) if (above[j] >> k) & 1)
        near[k] = int(cover[k]) | sum(1 << j for j in range(NPYR) if (int(cover[j]) >> k) & 1)
    return cover, related, near


COVER, RELATED, NEAR = _geometry()


# ---------------------------------------------------------------- kernel

@njit(cache=True, inline="always")
def _bits(x):
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


@njit(cache=True)
def _free(pyr, cover):
    f = np.int64(0)
    for k in range(NPYR):
        if (pyr >> k) & 1 and (pyr & cover[k]) == 0:
            f |= np.int64(1) << k
    return f


@njit(cache=True)
def _level(side, p, t, options):
    """Draws and turns still possible from (p, t) for this side set: each stock card once more
    in this pass, then per turn left one turn and a pass over every side card."""
    if (options & UNLIMITED_TURNS) != 0:
        return 0
    n = _bits(side)
    return _bits(side >> p) + t * (n + 1)


@njit(cache=True)
def _after_waste_removed(side, w):
    """Waste boundary once waste card w (the top) is gone: just above the next card below it."""
    below = side & ((np.int64(1) << w) - 1)
    b = 0
    while below >> b:
        b += 1
    return b


@njit(cache=True)
def _stock_top(side, p):
    s = side >> p
    return -1 if s == 0 else p + _low(s)


@njit(cache=True)
def _hash(x):
    x = (x ^ (x >> 31)) * np.int64(-7046029254386353131)
    x = (x ^ (x >> 29)) * np.int64(-4658895280553007687)
    return x ^ (x >> 32)


@njit(cache=True)
def _find(keys, key):
    mask = len(keys) - 1
    h = _hash(key) & mask
    while keys[h] != 0 and keys[h] != key:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _grow(keys, vals):
    k2 = np.zeros(len(keys) * 2, dtype=np.int64)
    v2 = np.zeros(len(keys) * 2, dtype=np.int32)
    for i in range(len(keys)):
        if keys[i] != 0:
            h = _find(k2, keys[i])
            k2[h] = keys[i]
            v2[h] = vals[i]
    return k2, v2


@njit(cache=True)
def _value_masks(pv, sv, n_side):
    """pmask[v]: pyramid places holding value v; smask[v]: side indices holding value v."""
    pmask = np.zeros(KING + 1, dtype=np.int64)
    smask = np.zeros(KING + 1, dtype=np.int64)
    for k in range(NPYR):
        pmask[pv[k]] |= np.int64(1) << k
    for i in range(n_side):
        smask[sv[i]] |= np.int64(1) << i
    return pmask, smask


@njit(cache=True)
def _hall(must, partners, n):
    """Hall's condition: every set of `must` cards has at least as many partners between them,
    so each can get its own. must[i]: card i must go; partners[i]: its possible partners."""
    for subset in range(1, 1 << n):
        if subset & ~must:
            continue
        union = np.int64(0)
        for i in range(n):
            if (subset >> i) & 1:
                union |= partners[i]
        if _bits(union) < _bits(subset):
            return False
    return True


@njit(cache=True)
def _partners_ok(pyr, side, v, pmask, smask, related, options, scratch):
    """Can the cards of values v and 13 - v still all be paired off (see the module text)?
    Cards are named by one 52-bit mask: pyramid place k is bit k, side card i bit 28 + i."""
    strict = (options & STRICT_WIN) != 0
    stock_top = (options & STOCK_TOP) != 0
    if v == KING or v == 0:
        return True
    for value, other in ((v, KING - v), (KING - v, v)):
        other_pyr = pyr & pmask[other]
        other_side = (side & smask[other]) << NPYR
        n = 0
        must = 0
        m = pyr & pmask[value]
        while m:
            k = _low(m)
            m &= m - 1
            # a pyramid card: any side card, or a pyramid card not covering it nor covered by it
            scratch[n] = other_side | (other_pyr & ~related[k])
            must |= 1 << n
            n += 1
        m = side & smask[value]
        while m:
            m &= m - 1
            # a side card: a pyramid card; another side card only when the stock top is available
            scratch[n] = other_pyr | (other_side if stock_top else np.int64(0))
            if strict:
                must |= 1 << n
            n += 1
        if not _hall(must, scratch, n):
            return False
    return True


@njit(cache=True)
def _add(d, pyr0, side0, cpyr, cside, cp, ct, move, mp, mt, ch, nch, pv, sv, pmask, smask, related, options,
         scratch):
    """Append a child to frame d unless provably lost. Returns (new count, won)."""
    strict = (options & STRICT_WIN) != 0
    dead_cards = (options & DEAD_CARDS) != 0
    if cpyr == 0:
        if strict and cside & ~smask[KING]:  # with the pyramid gone only kings can still go
            return nch, False
        won = True
    else:
        won = False
        if dead_cards and move // 4096 >= PAIR_PP:
            gone_p = pyr0 & ~cpyr
            gone_s = side0 & ~cside
            v = pv[_low(gone_p)] if gone_p else sv[_low(gone_s)]
            if not _partners_ok(cpyr, cside, min(v, KING - v), pmask, smask, related, options, scratch):
                return nch, False
    ch[d, nch, 0] = cpyr
    ch[d, nch, 1] = cside
    ch[d, nch, 2] = cp
    ch[d, nch, 3] = ct
    ch[d, nch, 4] = move
    ch[d, nch, 5] = mp
    ch[d, nch, 6] = mt
    return nch + 1, won


@njit(cache=True)
def _next(side, p, t, options):
    """The next position of the chain: (p, t, moved)."""
    unlimited = (options & UNLIMITED_TURNS) != 0
    s = _stock_top(side, p)
    if s >= 0:
        return s + 1, t, True  # draw
    if p > 0 and (unlimited or t > 0):
        return 0, (t if unlimited else t - 1), True  # turn: the waste goes back, same order
    return p, t, False


@njit(cache=True)
def _king_or_sole_partner(c, pyr, sv, sole, sole_for, options):
    """Side card c (the waste top or the playable stock top) goes at once when it is a king, or
    the only partner left of a free pyramid card: (move code, pyramid after), or (-1, pyr)."""
    if (options & SIDE_KINGS) != 0 and sv[c] == KING:
        return KING_SIDE * 4096 + c, pyr
    if (sole >> c) & 1:
        k = sole_for[c]
        return PAIR_PS * 4096 + k * 64 + c, pyr & ~(np.int64(1) << k)
    return -1, pyr


@njit(cache=True)
def _forced(d, pyr, side, cp, ct, free, sole, sole_for, n, ch, pv, sv, pmask, smask, related, options, scratch):
    """A forced removal at position (cp, ct) of the card set (see the module text), added as a
    child. Returns (count, won, found)."""
    strict = (options & STRICT_WIN) != 0
    stock_top = (options & STOCK_TOP) != 0
    forced_pairs = (options & FORCED_PAIRS) != 0
    w = cp - 1
    if w >= 0:
        move, npyr = _king_or_sole_partner(w, pyr, sv, sole, sole_for, options)
        if move < 0 and strict and forced_pairs and sv[w] != KING:  # the waste top must go, with a pyramid card
            partners = pyr & pmask[KING - sv[w]]
            if partners & free and (partners & (partners - 1)) == 0:
                move, npyr = PAIR_PS * 4096 + _low(partners) * 64 + w, pyr & ~partners
        if move >= 0:
            n, won = _add(d, pyr, side, npyr, side & ~(np.int64(1) << w), _after_waste_removed(side, w), ct, move,
                          cp, ct, ch, n, pv, sv, pmask, smask, related, options, scratch)
            return n, won, True
    s = _stock_top(side, cp) if stock_top else -1
    if s >= 0:
        move, npyr = _king_or_sole_partner(s, pyr, sv, sole, sole_for, options)
        if move >= 0:
            n, won = _add(d, pyr, side, npyr, side & ~(np.int64(1) << s), cp, ct, move,
                          cp, ct, ch, n, pv, sv, pmask, smask, related, options, scratch)
            return n, won, True
    return n, False, False


@njit(cache=True)
def _expand(d, pyr, side, p, t, below, ch, pv, sv, pmask, smask, cover, related, options, sole_for, scratch):
    """Children of card set (pyr, side) entered at (p, t): removals at every position of its
    chain whose level is above `below`. Returns (count, index of a winning child or -1)."""
    unlimited = (options & UNLIMITED_TURNS) != 0
    stock_top = (options & STOCK_TOP) != 0
    cover_pair = (options & COVER_PAIR) != 0
    king_first = (options & KING_FIRST) != 0
    forced_pairs = (options & FORCED_PAIRS) != 0
    n = 0
    free = _free(pyr, cover)
    for k in range(NPYR):
        if (free >> k) & 1 and pv[k] == KING:
            n, won = _add(d, pyr, side, pyr & ~(np.int64(1) << k), side, p, t, KING_PYR * 4096 + k * 64, p, t,
                          ch, n, pv, sv, pmask, smask, related, options, scratch)
            if won:
                return n, n - 1
            if king_first:
                return n, -1
    # Forced pairs: side cards that are the only partner left of a free pyramid card, or a
    # forced pair of two free pyramid cards (the same all along the chain: looked for here).
    sole = np.int64(0)
    for x in range(NPYR):
        if not forced_pairs or not (free >> x) & 1 or pv[x] == KING:
            continue
        in_pyr = pyr & pmask[KING - pv[x]] & ~related[x]
        in_side = side & smask[KING - pv[x]]
        if in_pyr == 0 and in_side != 0 and (in_side & (in_side - 1)) == 0:
            sole |= in_side
            sole_for[_low(in_side)] = x
        elif in_side == 0 and (in_pyr & free) != 0 and (in_pyr & (in_pyr - 1)) == 0:
            y = _low(in_pyr)
            n, won = _add(d, pyr, side, pyr & ~((np.int64(1) << x) | in_pyr), side, p, t,
                          PAIR_PP * 4096 + min(x, y) * 64 + max(x, y), p, t, ch, n, pv, sv, pmask, smask, related,
                          options, scratch)
            return n, (n - 1 if won else -1)
    n, won, found = _forced(d, pyr, side, p, t, free, sole, sole_for, n, ch, pv, sv, pmask, smask, related, options,
                            scratch)
    if found:
        return n, (n - 1 if won else -1)
    # Removals among pyramid cards give the same card set wherever in the chain: made here.
    for i in range(NPYR):
        if not (free >> i) & 1 or pv[i] == KING:
            continue
        for j in range(i + 1, NPYR):
            if (free >> j) & 1 and pv[i] + pv[j] == KING:
                n, won = _add(d, pyr, side, pyr & ~((np.int64(1) << i) | (np.int64(1) << j)), side, p, t,
                              PAIR_PP * 4096 + i * 64 + j, p, t, ch, n, pv, sv, pmask, smask, related,
                              options, scratch)
                if won:
                    return n, n - 1
    if cover_pair:  # a card whose only remaining cover is one free card, pairing with it
        for x in range(NPYR):
            on = pyr & cover[x]
            if (pyr >> x) & 1 and on != 0 and (on & (on - 1)) == 0:
                y = _low(on)
                if (free >> y) & 1 and pv[x] + pv[y] == KING:
                    n, won = _add(d, pyr, side, pyr & ~((np.int64(1) << x) | (np.int64(1) << y)), side, p, t,
                                  PAIR_PP * 4096 + x * 64 + y, p, t, ch, n, pv, sv, pmask, smask, related,
                                  options, scratch)
                    if won:
                        return n, n - 1
    # Along the chain: moves taking the waste top (or the stock top); a card's first time there
    # is its highest level, later times lead to the same card sets lower down.
    done_w = np.int64(0)
    done_s = np.int64(0)
    cp, ct = p, t
    while True:
        if _level(side, cp, ct, options) <= below:
            break
        if cp != p or ct != t:  # a forced removal here stands for the rest of the chain too
            n, won, found = _forced(d, pyr, side, cp, ct, free, sole, sole_for, n, ch, pv, sv, pmask, smask, related,
                                    options, scratch)
            if found:
                return n, (n - 1 if won else -1)
        w = cp - 1
        if w >= 0 and not (done_w >> w) & 1:
            done_w |= np.int64(1) << w
            nside = side & ~(np.int64(1) << w)
            np_ = _after_waste_removed(side, w)
            if sv[w] == KING:
                n, won = _add(d, pyr, side, pyr, nside, np_, ct, KING_SIDE * 4096 + w, cp, ct,
                              ch, n, pv, sv, pmask, smask, related, options, scratch)
                if won:
                    return n, n - 1
            else:
                for k in range(NPYR):
                    if (free >> k) & 1 and pv[k] + sv[w] == KING:
                        n, won = _add(d, pyr, side, pyr & ~(np.int64(1) << k), nside, np_, ct,
                                      PAIR_PS * 4096 + k * 64 + w, cp, ct, ch, n, pv, sv, pmask, smask, related,
                                      options, scratch)
                        if won:
                            return n, n - 1
                s = _stock_top(side, cp)
                if stock_top and s >= 0 and sv[s] + sv[w] == KING:
                    n, won = _add(d, pyr, side, pyr, nside & ~(np.int64(1) << s), np_, ct,
                                  PAIR_SS * 4096 + w * 64 + s, cp, ct, ch, n, pv, sv, pmask, smask, related,
                                  options, scratch)
                    if won:
                        return n, n - 1
        if stock_top:
            s = _stock_top(side, cp)
            if s >= 0 and not (done_s >> s) & 1:
                done_s |= np.int64(1) << s
                nside = side & ~(np.int64(1) << s)
                if sv[s] == KING:
                    n, won = _add(d, pyr, side, pyr, nside, cp, ct, KING_SIDE * 4096 + s, cp, ct,
                                  ch, n, pv, sv, pmask, smask, related, options, scratch)
                    if won:
                        return n, n - 1
                else:
                    for k in range(NPYR):
                        if (free >> k) & 1 and pv[k] + sv[s] == KING:
                            n, won = _add(d, pyr, side, pyr & ~(np.int64(1) << k), nside, cp, ct,
                                          PAIR_PS * 4096 + k * 64 + s, cp, ct, ch, n, pv, sv, pmask, smask,
                                          related, options, scratch)
                            if won:
                                return n, n - 1
        if done_w == side and (not stock_top or done_s == side):
            break
        cp, ct, moved = _next(side, cp, ct, options)
        if not moved or (unlimited and cp == p):
            break
    return n, -1


@njit(cache=True)
def _search(pv, sv, n_side, pyr0, side0, p0, t0, cover, related, options, max_nodes, line):
    """Depth-first search from the position. Returns (WON | LOST | UNDECIDED, card sets entered,
    length of the winning line written into `line` as move codes)."""
    keys = np.zeros(1 << 14, dtype=np.int64)  # pyramid mask | side mask << 28; never 0 (pyramid not empty)
    vals = np.zeros(1 << 14, dtype=np.int32)  # 1 + the highest level the card set was entered at
    used = 0
    ch = np.empty((MAX_DEPTH, MAX_CHILDREN, 7), dtype=np.int64)
    f_side = np.zeros(MAX_DEPTH, dtype=np.int64)
    f_p = np.zeros(MAX_DEPTH, dtype=np.int64)
    f_t = np.zeros(MAX_DEPTH, dtype=np.int64)
    f_n = np.zeros(MAX_DEPTH, dtype=np.int64)
    f_i = np.zeros(MAX_DEPTH, dtype=np.int64)
    scratch = np.zeros(8, dtype=np.int64)
    sole_for = np.zeros(MAXSIDE, dtype=np.int64)  # see _expand: the pyramid card a side card is the only partner of
    pmask, smask = _value_masks(pv, sv, n_side)

    key = pyr0 | (side0 << NPYR)
    h = _find(keys, key)
    keys[h] = key
    vals[h] = _level(side0, p0, t0, options) + 1
    used = 1
    nodes = 1
    d = 0
    f_side[0], f_p[0], f_t[0] = side0, p0, t0
    f_n[0], win = _expand(0, pyr0, side0, p0, t0, -1, ch, pv, sv, pmask, smask, cover, related, options, sole_for,
                          scratch)
    f_i[0] = 0
    while win < 0:
        if f_i[d] == f_n[d]:  # every child tried: lost from here
            if d == 0:
                return LOST, nodes, 0
            d -= 1
            continue
        c = f_i[d]
        f_i[d] += 1
        cpyr, cside, cp, ct = ch[d, c, 0], ch[d, c, 1], ch[d, c, 2], ch[d, c, 3]
        lev = _level(cside, cp, ct, options)
        key = cpyr | (cside << NPYR)
        h = _find(keys, key)
        if vals[h] > lev:  # entered before at this level or higher
            continue
        if nodes >= max_nodes:
            return UNDECIDED, nodes, 0
        nodes += 1
        below = vals[h] - 1
        if keys[h] == 0:
            used += 1
        keys[h] = key
        vals[h] = lev + 1
        if used * 2 > len(keys):
            keys, vals = _grow(keys, vals)
        d += 1
        f_side[d], f_p[d], f_t[d] = cside, cp, ct
        f_i[d] = 0
        f_n[d], win = _expand(d, cpyr, cside, cp, ct, below, ch, pv, sv, pmask, smask, cover, related, options,
                              sole_for, scratch)
    # The line: per frame, the draws and turns from where it was entered to where its chosen
    # child's move is made, then that move.
    n = 0
    for e in range(d + 1):
        c = f_i[e] - 1 if e < d else win
        side, p, t = f_side[e], f_p[e], f_t[e]
        mp, mt = ch[e, c, 5], ch[e, c, 6]
        while p != mp or t != mt:
            line[n] = DRAW * 4096 if _stock_top(side, p) >= 0 else TURN * 4096
            n += 1
            p, t, moved = _next(side, p, t, options)
        line[n] = ch[e, c, 4]
        n += 1
    return WON, nodes, n


# ---------------------------------------------------------------- Python side

@dataclass
class Decision:
    result: str  # 'won' | 'lost' | 'undecided'
    line: list[str] | None  # a winning game in canonical notation when won
    nodes: int  # card sets entered


def _value(code: str) -> int:
    return RANKS.index(code[0]) + 1


def decide(position: dict, rules=None, max_nodes: int | None = None, king_first: bool = True,
           dead_cards: bool = True, side_kings: bool = True, forced_pairs: bool = True) -> Decision:
    """Can the JSON position (docs/positions.md) be won under the rules options?"""
    rules = rules_of(rules)
    options = (options_of(rules) | (KING_FIRST if king_first else 0) | (DEAD_CARDS if dead_cards else 0)
               | (SIDE_KINGS if side_kings else 0) | (FORCED_PAIRS if forced_pairs else 0))
    pyramid = [None if c is None else deals.parse_card(c) for c in position["pyramid"]]
    side = [deals.parse_card(c) for c in list(position["waste"]) + list(position["stock"])]
    if len(pyramid) != NPYR or len(side) > MAXSIDE:
        raise ValueError("a position has 28 pyramid places and at most 24 cards beside")
    pv = np.array([0 if c is None else _value(c) for c in pyramid], dtype=np.int64)
    sv = np.zeros(MAXSIDE, dtype=np.int64)
    sv[:len(side)] = [_value(c) for c in side]
    pyr = sum(1 << k for k, c in enumerate(pyramid) if c is not None)
    side_mask = (1 << len(side)) - 1
    p = len(position["waste"])  # the waste top is side card p - 1
    unlimited = bool(rules.get("unlimitedTurns"))
    t = 1 if unlimited else int(position["turns_left"])
    strict = bool(rules.get("strictWin"))
    if pyr == 0:
        won = not strict or all(_value(c) == KING for c in side)
        return Decision("won" if won else "lost", _finish([], side, p, strict) if won else None, 0)
    related = RELATED & ~NEAR if rules.get("coverPair") else RELATED
    pmask, smask = _value_masks(pv, sv, len(side))
    if dead_cards and not all(_partners_ok(np.int64(pyr), np.int64(side_mask), v, pmask, smask, related, options,
                                           np.zeros(8, dtype=np.int64))
                                for v in range(1, 7)):
        return Decision("lost", None, 0)
    line = np.zeros(MAX_LINE, dtype=np.int64)
    code, nodes, n = _search(pv, sv, len(side), np.int64(pyr), np.int64(side_mask), np.int64(p), np.int64(t),
                             COVER, related, options, np.int64(max_nodes if max_nodes is not None else 2**62), line)
    if code == UNDECIDED:
        return Decision("undecided", None, int(nodes))
    if code == LOST:
        return Decision("lost", None, int(nodes))
    moves = [_move_text(int(m), pyramid, side) for m in line[:n]]
    if strict:  # the kings left beside the pyramid: where they are once it is gone
        final = replay(position, moves, rules, stop_at_win=False)
        moves = _finish(moves, final["waste"] + final["stock"], len(final["waste"]), strict)
    return Decision("won", moves, int(nodes))


def _move_text(code: int, pyramid, side) -> str:
    kind, a, b = code // 4096, (code // 64) % 64, code % 64
    if kind == DRAW:
        return "draw"
    if kind == TURN:
        return "turn"
    if kind == KING_PYR:
        return f"king {pyramid[a]}"
    if kind == KING_SIDE:
        return f"king {side[b]}"
    x = side[a] if kind == PAIR_SS else pyramid[a]
    y = pyramid[b] if kind == PAIR_PP else side[b]
    return _pair_text(x, y)


def _pair_text(x: str, y: str) -> str:
    return f"pair {x} {y}" if _value(x) >= _value(y) else f"pair {y} {x}"


def _finish(moves, side, p, strict) -> list[str]:
    """strict: once the pyramid is gone, the kings left beside it go one by one."""
    if not strict:
        return moves
    moves = list(moves)
    for code in reversed(side[:p]):  # the waste, top first
        moves.append(f"king {code}")
    for code in side[p:]:
        moves += ["draw", f"king {code}"]
    return moves


def decide_deal(n, rules=None, max_nodes: int | None = None, **prune) -> Decision:
    """decide() for the opening of deal n; rules 'turns' sets the turns of the new game."""
    rules = rules_of(rules)
    return decide(opening(n, rules), rules, max_nodes, **prune)


def opening(n, rules=None) -> dict:
    lay = deals.deal(n)
    turns = rules_of(rules).get("turns")
    return {"pyramid": list(lay.pyramid), "stock": list(lay.stock), "waste": list(lay.waste),
            "turns_left": 2 if turns is None else turns, "points": 0, "moves": 0}


# ---------------------------------------------------------------- replay under the variants

class IllegalVariantMove(IllegalMove):
    """A move the variant replayer refuses; the message names the move."""


def _covering(pyramid, k) -> list[int]:
    return [j for j in range(NPYR) if (int(COVER[k]) >> j) & 1 and pyramid[j] is not None]


def replay(position: dict, moves: list[str], rules=None, stop_at_win: bool = True) -> dict:
    """Plays the moves from a JSON position under the rules options, move by move from the rule
    text; raises IllegalVariantMove naming the move. Returns the final position with "won" set."""
    rules = rules_of(rules)
    pyramid = list(position["pyramid"])
    stock, waste = list(position["stock"]), list(position["waste"])
    turns = position["turns_left"]

    def won():
        if rules.get("strictWin"):
            return all(c is None for c in pyramid) and not stock and not waste
        return all(c is None for c in pyramid)

    def available(code):
        if code in pyramid:
            return not _covering(pyramid, pyramid.index(code))
        return code in (waste[-1:] + (stock[:1] if rules.get("stockTop") else []))

    def remove(code):
        if code in pyramid:
            pyramid[pyramid.index(code)] = None
        elif waste and waste[-1] == code:
            waste.pop()
        else:
            stock.pop(0)

    for number, text in enumerate(moves, 1):
        if won() and stop_at_win:
            raise IllegalVariantMove(f"move {number} '{text}': the game is already won")
        words = text.split()
        bad = IllegalVariantMove(f"move {number} '{text}' is not legal")
        if words == ["draw"]:
            if not stock:
                raise bad
            waste.append(stock.pop(0))
        elif words == ["turn"]:
            if stock or not waste or (turns <= 0 and not rules.get("unlimitedTurns")):
                raise bad
            stock, waste = waste, []
            turns -= 0 if rules.get("unlimitedTurns") else 1
        elif len(words) == 2 and words[0] == "king":
            if _value(words[1]) != KING or not available(words[1]):
                raise bad
            remove(words[1])
        elif len(words) == 3 and words[0] == "pair":
            x, y = words[1], words[2]
            if x == y or _value(x) + _value(y) != KING:
                raise bad
            both = available(x) and available(y)
            if not both and rules.get("coverPair") and x in pyramid and y in pyramid:
                # the covered one (lower row) is covered by the other card only, which is free
                for low, high in ((x, y), (y, x)):
                    k, j = pyramid.index(low), pyramid.index(high)
                    if _covering(pyramid, k) == [j] and available(high):
                        both = True
            if not both or (x in waste and y in waste):
                raise bad
            remove(x)
            remove(y)
        else:
            raise bad
    return {"pyramid": pyramid, "stock": stock, "waste": waste, "turns_left": turns,
            "points": 0, "moves": 0, "won": won()}
