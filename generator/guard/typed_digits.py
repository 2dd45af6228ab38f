"""The number guard's one decision: where a number stands in text that someone typed.

Every check of typed text (page sources, rendered words, strings in tags, interface strings,
notes, theme words: generator/guard/numbers.py lists them) blanks its own markup and asks
`typed_digit_at`. Kept apart from numbers.py so that the sandbox (which numbers.py uses) can
ask it too without an import circle.
"""
from __future__ import annotations

import unicodedata


def is_digit(char: str) -> bool:
    """Any Unicode number character: decimal digits of every script (Nd: 0-9, ٣, ３…), letter
    numbers (Nl: Ⅻ) and other numbers (No: ², ½, ①, the vulgar fractions). A character this
    Python's Unicode database does not know (Cn: the digits of scripts added since, such as
    Nag Mundari's 𞓱) may be one: the guard cannot decide, so it says yes."""
    return unicodedata.category(char) in NUMBER_CATEGORIES


NUMBER_CATEGORIES = frozenset({"Nd", "Nl", "No", "Cn"})


def typed_digit_at(text: str) -> int:
    """The number guard's decision, the one place it is made: the index of the first number in
    `text` that the data did not supply, or -1 when there is none. `text` is what someone typed
    (a page's words, a text constant in a tag, a string, a note, a theme word), its caller's
    markup already blanked. An exception to the guard (years, say) is made here and nowhere else."""
    for i, char in enumerate(text):
        if is_digit(char):
            return i
    return -1
