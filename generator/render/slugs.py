"""Heading anchors in the page's own letters: «Spørsmål og svar» is #sporsmal-og-svar in nb and
«Værdier og par» #vaerdier-og-par in da, where Python-Markdown's default slug drops the letter
(«#sprsmal-og-svar», «#vrdier-og-par»: «Øverste kort» became «verste», "worst").

Each language transliterates æ, ø and å the way its readers write them without those keys
(Danish ø → oe, å → aa; Norwegian ø → o, å → a). The anchors stay ASCII, so a shared link
reads the same in every address bar and mail program. mkdocs.yml's toc extension gets the
language's function through generator/site/build.py `mkdocs_config`; example sections use the same
function for their ids (generator/render/context.py).
"""
from __future__ import annotations

import re
import unicodedata

TRANSLITERATION = {
    "nb": {"æ": "ae", "ø": "o", "å": "a"},
    "da": {"æ": "ae", "ø": "oe", "å": "aa"},
}
DEFAULT = {"æ": "ae", "ø": "o", "å": "a", "ß": "ss"}  # a language without its own table


def slug(text: str, lang: str, separator: str = "-") -> str:
    """The anchor of a heading `text` in language `lang`: lower case, the language's
    transliteration, other accents dropped (é → e), anything but letters, digits and '-' removed."""
    table = TRANSLITERATION.get(lang, DEFAULT)
    value = "".join(table.get(ch, ch) for ch in text.lower())
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip()
    return re.sub(rf"[{re.escape(separator)}\s]+", separator, value)


def slugify(lang: str):
    """The toc extension's `slugify` for one language (called as slugify(value, separator))."""
    def language_slug(value: str, separator: str) -> str:
        return slug(value, lang, separator)
    return language_slug
