"""MkDocs hook (every language's config, generator/site/build.py mkdocs_config): table cells
apart in the search index.

Material's search plugin keeps the text between tags as written and keeps only some tags
(paragraphs, lists, code) as boundaries, so cells written without whitespace between them — the
generator's own tables are one line — ran together in search_index.json («RegelSlik står den
herPrøvd i appen»), and a search for a word of one cell found a word glued to the next. A line
break after each closing cell, row and caption separates them; between table cells it changes
nothing on the page (a row's whitespace is not laid out).
"""
from __future__ import annotations

import re

CELL_END = re.compile(r"(</(?:td|th|tr|caption)>)(?!\s)", re.IGNORECASE)


def on_page_content(html: str, **_) -> str:
    return CELL_END.sub("\\1\n", html)
