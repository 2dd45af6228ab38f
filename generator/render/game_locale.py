"""How the game writes numbers, dates and counted words in a language: the locale's CLDR data from
Babel, the same data the pages' own numbers and dates come from (generator/render/context.py Words),
put into the game's strings as ``locale`` for app/core/locale.js, which writes them without Intl.

    {"number": {"group": " ", "primary": 3, "secondary": 3, "minus": "-"},
     "date": {"pattern": "d. MMMM y", "months": ["januar", …]},
     "plural": [["one", {"of": "n", "in": [[1, 1]]}]],
     "words": {"counts": {"0": "null", "2": "to", …}, "one": {"c": "en", "n": "ett"}}}

``plural`` is the locale's CLDR plural rule (Babel's ``Locale.plural_form``), category by category in
Babel's order, each condition as a tree: {"or": [a, b]}, {"and": [a, b]}, {"not": a}, or a relation
{"of": operand, "mod": m (optional), "in": [[low, high], …]}; a number none of them takes is "other".
``words`` is docs/<lang>/numbers.yml, the words the pages write small counts with (Words.spell).
"""
from __future__ import annotations

import re

from babel import Locale
from babel.dates import get_date_format, get_month_names
from babel.numbers import format_decimal, get_group_symbol

from generator.errors import BuildError

# The date fields app/core/locale.js writes; any other letter in a pattern (weekday, era, …) is one it does not.
DATE_TOKEN = re.compile(r"'([^']*)'|d{1,2}|M{1,2}|MMMM|y|yyyy|([A-Za-z])")


def game_locale(locale: Locale, where: str) -> dict:
    """The number and date data of `locale` for the game; BuildError (naming `where`) for a long
    date pattern with a field app/core/locale.js cannot write."""
    grouping = locale.decimal_formats[None].grouping  # (primary, secondary) group sizes
    pattern = get_date_format("long", locale=locale).pattern
    for m in DATE_TOKEN.finditer(pattern):
        if m.group(2):
            raise BuildError(f"{where}: the long date form of locale {locale} ({pattern!r}) has the field "
                             f"{m.group(2)!r}, which the game (app/core/locale.js) cannot write yet")
    months = get_month_names("wide", context="format", locale=locale)
    return {
        "number": {"group": get_group_symbol(locale=locale), "primary": grouping[0], "secondary": grouping[1],
                   # the sign as the pages write it (Babel's pattern, not always the locale's minus sign)
                   "minus": format_decimal(-1, locale=locale)[:-1]},
        "date": {"pattern": pattern, "months": [months[i] for i in range(1, 13)]},
    }


def plural_rule(locale: Locale) -> list:
    """The locale's CLDR plural rule as JSON for app/core/locale.js: [[category, condition], …]."""
    return [[category, _condition(tree)] for category, tree in locale.plural_form.abstract]


def _condition(tree) -> dict:
    # Babel's tree: ('or'|'and', (a, b)), ('not', (a,)), ('relation', ('in'|'within', expr, ('range_list', ranges)))
    # with expr ('n', ()) or ('mod', (('i', ()), ('value', (10,)))), each range ((value, (low,)), (value, (high,))).
    kind, args = tree
    if kind in ("or", "and"):
        return {kind: [_condition(a) for a in args]}
    if kind == "not":
        return {"not": _condition(args[0])}
    _method, expr, (_, ranges) = args  # 'in' and 'within' are the same for the whole numbers the game counts
    relation = {"in": [[low[1][0], high[1][0]] for low, high in ranges]}
    if expr[0] == "mod":
        operand, (_, (modulus,)) = expr[1]
        return {"of": operand[0], "mod": modulus, **relation}
    return {"of": expr[0], **relation}


def game_strings(strings: dict, code: str, where: str, numbers: dict | None = None) -> dict:
    """A language's game.json strings as the page gives them to the game: with its ``locale``,
    and in it `numbers` (the language's numbers.yml) as the words for small counts."""
    from generator.inputs.languages import babel_locale  # the language code's locale, or BuildError naming docs/languages.yml
    locale = babel_locale(code)
    return {**strings, "locale": {**game_locale(locale, where), "plural": plural_rule(locale), "words": numbers or {}}}
