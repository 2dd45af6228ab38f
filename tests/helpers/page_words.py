"""The game's words as the page says them, for tests that compare what it says (docs/<lang>/game.json)."""
import re

from babel import Locale
from babel.numbers import format_decimal


def fill(template: str, **values) -> str:
    """{name} placeholders filled in; an unknown one stays as written."""
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def counted(s: dict, forms: dict, count: int, **values) -> str:
    """A counted text (one form per plural category) as the page writes it for `count`, in the
    language of the game's strings `s` (game_harness.strings): the form Babel's plural rule picks,
    {count} in the locale's digits, {count_word} as the pages spell small counts."""
    locale = Locale.parse(s["lang"])
    words = s["locale"]["words"]
    word = words["one"]["c"] if count == 1 else words["counts"].get(str(count), format_decimal(count, locale=locale))
    return fill(forms[locale.plural_form(count)], **values, count=format_decimal(count, locale=locale), count_word=word)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def card(s: dict, code: str) -> str:
    """A card in words: suit, then rank ('ruter åtte')."""
    return f"{s['suits'][code[1]]} {s['ranks'][code[0]]}"
