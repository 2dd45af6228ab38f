"""Counted texts: a string that holds a count is written once per CLDR plural category of its
language, as a mapping such as ``{"one": "… én dag …", "other": "… {count} dager …"}``, and the
count's category picks the form (Babel's plural rule here, the same rule in the game:
app/core/locale.js pluralCategory). nb and da have two categories, one and other; another
language brings its own (Polish one, few, many, other).
"""
from __future__ import annotations

from babel import Locale

CATEGORIES = ("zero", "one", "two", "few", "many", "other")  # CLDR's, in its order


def is_counted(value) -> bool:
    """A mapping of plural categories to forms (at least `other`, CLDR's fallback), not a group of strings."""
    return isinstance(value, dict) and "other" in value and set(value) <= set(CATEGORIES)


def counted_texts(data, prefix: str = ""):
    """(dotted key, forms) of every counted text in a strings mapping, at any depth."""
    if is_counted(data):
        yield prefix[:-1], data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from counted_texts(value, f"{prefix}{key}.")


def categories(locale: Locale) -> set[str]:
    """The plural categories a whole number can have in `locale`, `other` always among them."""
    return set(locale.plural_form.tags) | {"other"}


def counted_problems(path, data, locale: Locale) -> list[str]:
    """Each counted text of `data` (a strings file at `path`) whose forms are not exactly the
    locale's categories, or not all strings: one line each, naming the file and the key."""
    wanted = categories(locale)
    problems = []
    for key, forms in counted_texts(data):
        order = [c for c in CATEGORIES if c in wanted]
        if set(forms) != wanted:
            missing, extra = sorted(wanted - set(forms)), sorted(set(forms) - wanted)
            said = "; ".join(part for part in (f"missing {', '.join(missing)}" if missing else "",
                                              f"{', '.join(extra)} not a category of {locale}" if extra else "") if part)
            problems.append(f"{path}: '{key}' is a counted text, so it needs one form per plural category of "
                            f"{locale} ({', '.join(order)}): {said}")
        for category, form in forms.items():
            if not isinstance(form, str) or not form.strip():
                problems.append(f"{path}: '{key}.{category}' must be the text of that form, got {form!r}")
    return problems
