"""Typography the lint cannot see in page sources: text the generator writes itself (move
lists, the root page, tables) keeps the nb/da dash, a spaced en dash, never the English em
dash (language review 2, nb #31, da #33)."""
import re

import pytest
from helpers.languages import LANGUAGES

EM_DASH = re.compile("—|&mdash;|&#8212;|&#x2014;", re.I)


def visible(html: str) -> str:
    return re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S | re.I)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_em_dash_on_any_page(built_site, lang):
    site, _ = built_site
    pages = sorted((site / lang).rglob("*.html"))
    assert pages
    found = [f"{page.relative_to(site)}: …{m.string[max(0, m.start() - 30):m.end() + 30]}…"
             for page in pages for m in EM_DASH.finditer(visible(page.read_text(encoding="utf-8")))]
    assert not found, "em dash on a page:\n  " + "\n  ".join(found)


def test_the_root_page_and_the_move_lists_use_the_en_dash(built_site):
    site, _ = built_site
    assert "Norsk bokmål</a> <span lang=\"nb\">– " in (site / "index.html").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        html = (site / lang / "examples" / "index.html").read_text(encoding="utf-8")
        assert re.search(r"<li value=\"1\">[^<]+ – <em>", html)
