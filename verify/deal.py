"""Card codes and the deal shuffle, restated from docs/shuffle.md (rule ids cards.values, deal.layout)."""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from typing import Iterator

RANKS = "A23456789TJQK"
SUITS = "SHDC"
MASK = 0xFFFFFFFF
MAX_DEAL = MASK  # 4 294 967 295 = 2**32 - 1

# Base order (shuffle.md §2): position i is rank RANKS[i % 13] of suit SUITS[i // 13].
ALL_CARDS: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
CARD_INDEX = {code: i for i, code in enumerate(ALL_CARDS)}


class DealNumberError(ValueError):
    """A value that is not a deal number 1 … 4294967295."""


class CardCodeError(ValueError):
    """Text that is not a card code."""


def parse_deal_number(value) -> int:
    """Return the deal number N, or raise DealNumberError (shuffle.md §1: only whole numbers 1 … 2**32-1)."""
    n = None
    # bool is an int subclass in Python; True is not deal 1.
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        n = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value):  # ASCII digits only: no '+5', '1e3', '1.5'
        n = int(value)
    if n is None or not 1 <= n <= MAX_DEAL:
        raise DealNumberError(f"deal number must be a whole number from 1 to {MAX_DEAL}, got {value!r}")
    return n


def parse_card(text) -> str:
    """Canonical code of a card: case-insensitive, '10' accepted for 'T' ('10d' -> 'TD')."""
    if not isinstance(text, str):
        raise CardCodeError(f"a card code must be text like 'TD' or 'KS', got {text!r}")
    s = text.strip().upper()
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s not in CARD_INDEX:
        raise CardCodeError(f"unknown card code {text!r}: expected rank A23456789TJQK (or 10) then suit SHDC")
    return s


def card_value(code: str) -> int:
    """Ace 1, 2-10 their number, jack 11, queen 12, king 13; suit never matters (cards.values)."""
    return RANKS.index(parse_card(code)[0]) + 1


def mulberry32(seed: int) -> Iterator[int]:
    """The documented 32-bit generator (shuffle.md §3); every + and * is taken mod 2**32."""
    s = seed & MASK
    while True:
        s = (s + 0x6D2B79F5) & MASK
        t = s
        t = ((t ^ (t >> 15)) * (t | 1)) & MASK
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & MASK)) & MASK) ^ t  # add first, then xor with the old t
        yield t ^ (t >> 14)


def shuffled_deck(n: int) -> list[str]:
    """Fisher-Yates from the end driven by mulberry32(N) (shuffle.md §4)."""
    rng = mulberry32(parse_deal_number(n))
    deck = list(ALL_CARDS)
    for i in range(51, 0, -1):
        j = (next(rng) * (i + 1)) >> 32  # floor(next * (i+1) / 2**32), exact with Python ints
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Layout:
    pyramid: tuple[str, ...]  # 28, row 1 first, each row left to right
    waste: tuple[str]  # 1, face up
    stock: tuple[str, ...]  # 23, first drawn first


def deal(n) -> Layout:
    """Opening layout of deal N (shuffle.md §5): 28 pyramid, 1 waste, 23 stock."""
    d = shuffled_deck(n)
    return Layout(pyramid=tuple(d[:28]), waste=(d[28],), stock=tuple(d[29:]))


def layout_json(layout: Layout, n) -> dict:
    return {"deal": parse_deal_number(n), "pyramid": list(layout.pyramid),
            "waste": list(layout.waste), "stock": list(layout.stock)}
