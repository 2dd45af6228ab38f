"""Independent exact solver for Pyramid solitaire (the solver's question of RULES.md).

Written from shared/RULES.md and docs/positions.md only; it shares no code with the app.

Question: from a position, the largest number of pyramid cards that can still be
removed, and among all games removing that many, the fewest moves (pair, king, draw
and turn each count one). Answered by a plain breadth-first search by number of
moves over every legal move sequence, remembering every position seen. No pruning:
every legal move of every stored position is expanded, so both numbers are exact.

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

Search storage: states are appended in discovery order to ``keys`` (int64) with the
index of their parent in ``parents`` (int32); a BFS level is a contiguous range of
that array. An open-addressing hash table of keys (linear probing, load <= 1/2)
answers "seen before?". About 8 + 4 + 16..32 bytes per position.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

NPYR = 28
MAXSIDE = 24  # 52 cards - 28 pyramid places
SIDE_SHIFT = 28
B_SHIFT = 52
T_SHIFT = 57
PYR_MASK = (1 << NPYR) - 1
SIDE_MASK = (1 << MAXSIDE) - 1
EMPTY = -1  # hash slot marker; keys use bits 0..58 only, so never negative

# Move codes: kind * 4096 + a * 64 + b
PAIR_PP, PAIR_PW, KING_P, KING_W, DRAW, TURN = range(6)
MAX_CHILDREN = 512  # > 28*27/2 pyramid pairs + 28 pyramid/waste pairs + kings + draw + turn

RANKS = "A23456789TJQK"
SUITS = "SHDC"


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


# ---------------------------------------------------------------- numba kernels

@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _hash(x):
    # splitmix64-style finaliser (arithmetic shifts on int64 are fine for mixing)
    x = (x ^ (x >> 30)) * -4658895280553007687  # 0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * -7723592293110705685  # 0x94D049BB133111EB
    return x ^ (x >> 31)


@njit(cache=True)
def gen_moves(key, pv, sv, covm, free, out_k, out_c):
    """All legal moves of position `key`: child keys into out_k, move codes into out_c.

    Returns the number of moves. A won position (no pyramid card) has none.
    """
    pyr = key & PYR_MASK
    if pyr == 0:
        return 0
    side = (key >> SIDE_SHIFT) & SIDE_MASK
    b = (key >> B_SHIFT) & 31
    t = (key >> T_SHIFT) & 3
    n = 0

    nf = 0
    for k in range(NPYR):
        if (pyr >> k) & 1 and (pyr & covm[k]) == 0:
            free[nf] = k
            nf += 1

    top = b - 1  # canonical boundary: the waste top is side[b-1]
    topv = sv[top] if top >= 0 else 0
    wkey = np.int64(0)  # position after removing the waste top
    if top >= 0:
        # side key and boundary once the waste top is gone: b falls back to just after
        # the previous present waste card (0 if none)
        nside = side & ~(np.int64(1) << top)
        below = nside & ((np.int64(1) << top) - 1)
        nb = 0
        while below >> nb:
            nb += 1
        wkey = (pyr | (nside << SIDE_SHIFT) | (nb << B_SHIFT) | (t << T_SHIFT))

    for x in range(nf):
        i = free[x]
        vi = pv[i]
        bi = np.int64(1) << i
        if vi == 13:
            out_k[n] = key ^ bi
            out_c[n] = KING_P * 4096 + i * 64
            n += 1
            continue
        for y in range(x + 1, nf):
            j = free[y]
            if vi + pv[j] == 13:
                out_k[n] = key ^ bi ^ (np.int64(1) << j)
                out_c[n] = PAIR_PP * 4096 + i * 64 + j
                n += 1
        if top >= 0 and vi + topv == 13:
            out_k[n] = wkey ^ bi
            out_c[n] = PAIR_PW * 4096 + i * 64 + top
            n += 1

    if top >= 0 and topv == 13:
        out_k[n] = wkey
        out_c[n] = KING_W * 4096 + top
        n += 1

    stock = side >> b
    if stock:
        nxt = b
        while not (stock & 1):
            stock >>= 1
            nxt += 1
        # draw: the next stock card becomes the waste top
        out_k[n] = (key & ~(np.int64(31) << B_SHIFT)) | ((nxt + 1) << B_SHIFT)
        out_c[n] = DRAW * 4096
        n += 1
    elif top >= 0 and t > 0:
        # turn: stock empty, waste not: everything goes back to the stock, same order
        out_k[n] = pyr | (side << SIDE_SHIFT) | ((t - 1) << T_SHIFT)
        out_c[n] = TURN * 4096
        n += 1
    return n


@njit(cache=True)
def _insert_all(keys, n, table):
    """Rehash keys[0:n] into an empty table (after growing it)."""
    mask = len(table) - 1
    for s in range(n):
        k = keys[s]
        h = _hash(k) & mask
        while table[h] != EMPTY:
            h = (h + 1) & mask
        table[h] = k


@njit(cache=True)
def _room(nkeys, ntable):
    """Largest n at which one more state can be expanded without growing anything:
    its children must fit in `keys`, and the table must stay at most half full."""
    return min(nkeys, ntable // 2) - MAX_CHILDREN


@njit(cache=True)
def expand_level(lo, hi, n, keys, parents, table, pv, sv, covm, start_cnt,
                 best_cnt, best_idx):
    """Expand states keys[lo:hi], appending unseen children at keys[n:].

    Stops early (returning the first unexpanded index) when the arrays or the table
    need to grow, or at the first won position. Returns
    (next_index, n, best_cnt, best_idx, won).
    """
    free = np.empty(NPYR, dtype=np.int64)
    out_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    out_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    mask = len(table) - 1
    room = _room(len(keys), len(table))
    i = lo
    while i < hi:
        if n > room:
            break
        m = gen_moves(keys[i], pv, sv, covm, free, out_k, out_c)
        for j in range(m):
            ck = out_k[j]
            h = _hash(ck) & mask
            while True:
                v = table[h]
                if v == ck:
                    break
                if v == EMPTY:
                    table[h] = ck
                    keys[n] = ck
                    parents[n] = i
                    pc = ck & PYR_MASK
                    cnt = start_cnt - _popcount(pc)
                    if cnt > best_cnt:  # first (so shallowest) state with a new record
                        best_cnt = cnt
                        best_idx = n
                    n += 1
                    if pc == 0:  # won: nothing can beat it, and it is at minimal depth
                        return i + 1, n, best_cnt, best_idx, True
                    break
                h = (h + 1) & mask
        i += 1
    return i, n, best_cnt, best_idx, False


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
    if kind == KING_W:
        return f"king {enc.side[b]}"
    x = enc.pyramid[a]
    y = enc.pyramid[b] if kind == PAIR_PP else enc.side[b]
    if card_value(y) > card_value(x):  # canonical: higher value first
        x, y = y, x
    return f"pair {x} {y}"


def _moves_between(path_keys: list[int], enc: Encoded) -> list[str]:
    """Name the move leading from each key of the path to the next."""
    free = np.empty(NPYR, dtype=np.int64)
    out_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    out_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    game = []
    for parent, child in zip(path_keys, path_keys[1:]):
        m = gen_moves(np.int64(parent), enc.pv, enc.sv, COVM, free, out_k, out_c)
        codes = [int(out_c[j]) for j in range(m) if int(out_k[j]) == child]
        assert codes, "broken parent link"
        game.append(move_text(codes[0], enc))
    return game


def legal_moves(position: dict) -> list[str]:
    """Canonical legal moves of a position (for cross-checks against other engines)."""
    enc = encode(position)
    free = np.empty(NPYR, dtype=np.int64)
    out_k = np.empty(MAX_CHILDREN, dtype=np.int64)
    out_c = np.empty(MAX_CHILDREN, dtype=np.int64)
    m = gen_moves(np.int64(enc.key), enc.pv, enc.sv, COVM, free, out_k, out_c)
    return sorted(move_text(int(out_c[j]), enc) for j in range(m))


def solve(position: dict, progress=None) -> SolveResult:
    """Exact answer to the solver's question for a JSON position ("status" ignored)."""
    t0 = time.perf_counter()
    enc = encode(position)
    start_cnt = sum(c is not None for c in enc.pyramid)

    cap = 1 << 16
    keys = np.empty(cap, dtype=np.int64)
    parents = np.empty(cap, dtype=np.int32)
    table = np.full(cap * 2, EMPTY, dtype=np.int64)
    keys[0] = enc.key
    parents[0] = -1
    _insert_all(keys, 1, table)
    n = 1
    best_cnt, best_idx = 0, 0
    won = start_cnt == 0

    lo, hi, depth = 0, 1, 0
    while lo < hi and not won:
        i = lo
        while i < hi and not won:
            i, n, best_cnt, best_idx, won = expand_level(
                i, hi, n, keys, parents, table, enc.pv, enc.sv, COVM,
                start_cnt, best_cnt, best_idx)
            if i < hi and not won:  # out of room: grow arrays and table, then go on
                if n > len(keys) - MAX_CHILDREN:
                    cap = len(keys) * 2
                    keys = _grown(keys, cap)
                    parents = _grown(parents, cap)
                if n > len(table) // 2 - MAX_CHILDREN:
                    size = len(table) * 2
                    table = None  # free the old table first: it is rebuilt from `keys`
                    table = np.full(size, EMPTY, dtype=np.int64)
                    _insert_all(keys, n, table)
        depth += 1
        lo, hi = hi, n
        if progress is not None:
            progress(depth, n)

    path = []
    s = best_idx
    while s >= 0:
        path.append(int(keys[s]))
        s = int(parents[s])
    path.reverse()
    game = _moves_between(path, enc)
    return SolveResult(
        max_removed=best_cnt,
        shortest=len(game),
        game=game,
        positions=n,
        seconds=time.perf_counter() - t0,
        winnable=best_cnt == start_cnt,
    )


def _grown(a: np.ndarray, cap: int) -> np.ndarray:
    b = np.empty(cap, dtype=a.dtype)
    b[: len(a)] = a
    return b
