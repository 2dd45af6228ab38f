"""Card codes and the deal shuffle, restated from docs/shuffle.md (rule ids cards.values, deal.layout).

Also the one reader of typed-in text (deal numbers, card codes; rules.parse_move builds on it),
with the same definitions as app/core/engine.js so the two engines refuse exactly the same input:
whitespace is JSON's (space, tab, line feed, carriage return), digits are ASCII 0-9, case is
folded in ASCII only, and anything outside printable ASCII is refused, shown escaped.
"""

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
CARD_VALUE = {code: i % 13 + 1 for i, code in enumerate(ALL_CARDS)}  # cards.values, by canonical code

# Typed-in text, identical in app/core/engine.js.
WHITESPACE = " \t\n\r"  # JSON's whitespace: nothing Unicode calls a space (no NBSP, no BOM)
PLAIN_TEXT = re.compile(r"[\x20-\x7e\t\n\r]*")  # printable ASCII and WHITESPACE
DEAL_TEXT = re.compile(r"[ \t\n\r]*[0-9]+[ \t\n\r]*")  # ASCII digits only: no '+5', '1_0', '1e3', '١'
MAX_DEAL_TEXT = 32  # characters; checked before int(), which a 5,000-digit string would make fail
MAX_SHOWN = 40  # characters of a refused text quoted in a message
NOT_PLAIN = "only letters, digits and spaces of plain ASCII are read (no control character, no look-alike)"


class DealNumberError(ValueError):
    """A value that is not a deal number 1 … 4294967295."""


class CardCodeError(ValueError):
    """Text that is not a card code."""


def shown(text) -> str:
    """Text quoted for a one-line message: anything outside printable ASCII escaped as Python's
    repr would ('\\x00', '\\ufeff', '\\u017f'), cut after MAX_SHOWN characters. app/core/engine.js
    `shown` writes the same."""
    if not isinstance(text, str):
        return repr(text)[:MAX_SHOWN]
    named = {"\\": "\\\\", "'": "\\'", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
    out = []
    for ch in text[:MAX_SHOWN]:
        c = ord(ch)
        if ch in named:
            out.append(named[ch])
        elif 0x20 <= c <= 0x7E:
            out.append(ch)
        else:
            out.append(f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}")
    more = f"… ({len(text)} characters)" if len(text) > MAX_SHOWN else ""
    return "'" + "".join(out) + "'" + more


def is_plain_text(text: str) -> bool:
    """True when text holds only printable ASCII and WHITESPACE (no control or non-ASCII character)."""
    return PLAIN_TEXT.fullmatch(text) is not None


def parse_deal_number(value) -> int:
    """Return the deal number N, or raise DealNumberError (shuffle.md §1: only whole numbers 1 … 2**32-1)."""
    n = None
    # bool is an int subclass in Python; True is not deal 1.
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        n = int(value)
    elif isinstance(value, str) and len(value) <= MAX_DEAL_TEXT and DEAL_TEXT.fullmatch(value):
        n = int(value.strip(WHITESPACE))
    if n is None or not 1 <= n <= MAX_DEAL:
        raise DealNumberError(f"deal number must be a whole number from 1 to {MAX_DEAL}, got {shown(value)}")
    return n


def parse_card(text) -> str:
    """Canonical code of a card: case-insensitive, '10' accepted for 'T' ('10d' -> 'TD')."""
    if isinstance(text, str) and text in CARD_INDEX:  # already canonical (the engines' own codes): nothing to read
        return text
    if not isinstance(text, str):
        raise CardCodeError(f"a card code must be text like 'TD' or 'KS', got {shown(text)}")
    if not is_plain_text(text):  # first, so upper() folds only a-z ('ſ'.upper() would be 'S')
        raise CardCodeError(f"unknown card code {shown(text)}: {NOT_PLAIN}")
    s = text.strip(WHITESPACE).upper()
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s not in CARD_INDEX:
        raise CardCodeError(f"unknown card code {shown(text)}: expected rank A23456789TJQK (or 10) then suit SHDC")
    return s


def card_value(code: str) -> int:
    """Ace 1, 2-10 their number, jack 11, queen 12, king 13; suit never matters (cards.values)."""
    value = CARD_VALUE.get(code) if isinstance(code, str) else None  # the engines ask this for every card of every position
    return value if value is not None else RANKS.index(parse_card(code)[0]) + 1


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
