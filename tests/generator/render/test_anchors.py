"""Heading anchors in the page's own letters and language (language review 2, nb #42, da #44):
«Spørsmål og svar» is #sporsmal-og-svar, not #sprsmal-og-svar; an example's section is named
by its title («#utdelingen-som-kan-vinnes»), never by its file's English id («#winnable»)."""
import re
from html import unescape

import pytest

from generator.render.slugs import slug, slugify

CASES = [
    ("nb", "Spørsmål og svar", "sporsmal-og-svar"),
    ("nb", "Øverste kort i trekkbunken", "overste-kort-i-trekkbunken"),
    ("nb", "Kan vinnes – men du kan kjøre deg fast", "kan-vinnes-men-du-kan-kjore-deg-fast"),
    ("nb", "Råd, ikke regler", "rad-ikke-regler"),
    ("da", "Værdier og par", "vaerdier-og-par"),
    ("da", "Det øverste kort i talonen", "det-oeverste-kort-i-talonen"),
    ("da", "Uden tilbageføring", "uden-tilbagefoering"),
    ("da", "Spørgsmål og svar", "spoergsmaal-og-svar"),
    ("da", "Kortfordelingen, der kan vindes", "kortfordelingen-der-kan-vindes"),
    ("xx", "Café à la carte", "cafe-a-la-carte"),  # a language without a table: accents dropped
]


@pytest.mark.parametrize("lang, text, anchor", CASES)
def test_each_language_writes_its_letters_in_anchors(lang, text, anchor):
    assert slug(text, lang) == anchor
    assert slugify(lang)(text, "-") == anchor  # as Python-Markdown's toc calls it


def _headings(html: str):
    for m in re.finditer(r'<h([23]) id="([^"]+)"[^>]*>(.*?)</h\1>', html, re.S):
        text = unescape(re.sub(r"<[^>]+>", "", m.group(3))).replace("¶", "").strip()
        yield m.group(2), text


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_every_heading_anchor_of_the_built_site_is_its_own_words(built_site, lang):
    site, _ = built_site
    for page in sorted((site / lang).rglob("index.html")):
        for anchor, text in _headings(page.read_text(encoding="utf-8")):
            assert re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)*", anchor), (page, anchor)
            # Python-Markdown numbers a repeated heading's anchor: «slik-endte-det_1»
            assert re.sub(r"_\d+$", "", anchor) == slug(text, lang), (page, anchor, text)


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_no_example_section_is_named_by_its_english_id(built_site, lang):
    site, _ = built_site
    html = (site / lang / "examples" / "index.html").read_text(encoding="utf-8")
    assert 'id="winnable"' not in html and 'id="not-winnable"' not in html
    assert 'href="#winnable"' not in html
