"""A broken link of the built site named where it was written: the page source and its line.

The site check (sitecheck.py) reads the built HTML in the build's staging folder, so it names
`.site.staging-…/site/sv/sources/index.html: link ../#sporsmal-og-svar: no anchor …`. A writer
fixes the source: this turns such a line into `docs/sv/pages/sources.md, line 13: link
../#sporsmal-og-svar: no anchor #sporsmal-og-svar in sv/index.html` (a heading translated in
the page linked to changes its anchor; the link in a page still in the source's words breaks).
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.inputs.languages import Language

PROBLEM = re.compile(r"^(?P<page>\S+?\.html): link (?P<url>\S+?)(?P<rest>:? .*)$", re.S)


def at_source(problem: str, built: Path, languages: list[Language]) -> str:
    """The problem named by its page source and line when it is a link of a page; else as it is,
    the staging folder's path cut off."""
    shown = problem.replace(f"{built}/", "")
    m = PROBLEM.match(problem)
    source = m and _page_source(Path(m["page"]), built, languages)
    if not source:
        return shown
    url = m["url"]
    parts = urlsplit(url)
    needle = f"#{unquote(parts.fragment)}" if parts.fragment else (parts.path or url)
    lines = [n for n, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    place = f"{source}, line {lines[0]}" if lines else str(source)
    return f"{place}: link {url}{m['rest'].replace(f'{built}/', '')}"


def _page_source(page: Path, built: Path, languages: list[Language]) -> Path | None:
    """sv/index.html → docs/sv/pages/index.md, sv/sources/index.html → …/sources.md."""
    try:
        parts = page.relative_to(built).parts
    except ValueError:
        return None
    lang = next((lang for lang in languages if parts and lang.code == parts[0]), None)
    if lang is None or parts[-1] != "index.html" or len(parts) not in (2, 3):
        return None
    return lang.pages.get("index.md" if len(parts) == 2 else f"{parts[1]}.md")
