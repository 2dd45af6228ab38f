"""The pyramid pictures go into the built pages after MkDocs, not through Markdown.

A page function (generator/render/pages.py picture) writes a slot, an HTML comment naming the
picture, where the drawing goes, and keeps the drawing; once MkDocs has made the page's HTML,
`fill` puts each drawing in its slot. Why: the drawings are most of a page's markup (the
examples page: some 300 kB, 5,800 tags), and Markdown's HTML parser (md_in_html) read every tag
of them at each build; `make serve` waited half a second for it at each edit of a note. The
search index no longer holds the cards' letters either: a picture is found by its caption.

No one else can write a slot: a page source may hold no raw HTML (text_rules.RAW_HTML refuses
`<!`), and every value a page prints is escaped. A slot left over, or named twice, stops the
build (fail closed).
"""
from __future__ import annotations

import re
from pathlib import Path

from generator.errors import BuildError

SLOT = "<!--pyramide-picture {name}-->"
SLOT_PATTERN = re.compile(r"<!--pyramide-picture ([A-Za-z][A-Za-z0-9_-]*)-->")


def slot(name: str) -> str:
    """Where the picture called `name` (its SVG id prefix) goes."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        raise ValueError(f"a picture's name must be a letter, then letters, digits, - and _: {name!r}")
    return SLOT.format(name=name)


def fill(html: str, pictures: dict[str, str], page: Path) -> str:
    """The page with each slot replaced by its picture. BuildError for a slot with no picture
    or one seen twice (a picture's ids would then be on the page twice)."""
    seen: set[str] = set()

    def drawing(match: re.Match) -> str:
        name = match.group(1)
        if name not in pictures:
            raise BuildError(f"{page}: a picture slot {name!r} that no page function filled")
        if name in seen:
            raise BuildError(f"{page}: the picture {name!r} is on the page twice")
        seen.add(name)
        return pictures[name]

    return SLOT_PATTERN.sub(drawing, html)
