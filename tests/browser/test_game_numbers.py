"""The game's messages write numbers as the pages do: app/core/locale.js writes them from the CLDR data
the generator takes from Babel for the pages, so the game and the page around it agree."""
from __future__ import annotations

import re

import pytest
from babel.numbers import format_decimal

from helpers.game_harness import LANGS, POOL, WIN_DEAL, strings

GAME = ".pyramide-game"
MAX_DEAL = 4294967295
WRITTEN = {"nb": "4\u00a0294\u00a0967\u00a0295", "da": "4.294.967.295"}


def fill(template: str, **values) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def deal_shown(page) -> str:
    return re.search(r"\d+", page.locator(f"{GAME} .pyr-deal").text_content()).group()


def message(page) -> str:
    return page.locator(f"{GAME} .pyr-message").text_content().strip()


def open_game(watched, lang: str, fragment: str):
    page = watched().open(f"{lang}.html{fragment}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    return page


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_deal_link_gives_the_range_in_the_page_language(watched, lang):
    page = open_game(watched, lang, "#deal=4294967296")
    s = strings(lang)
    said = message(page)
    assert WRITTEN[lang] in said and str(MAX_DEAL) not in said
    expected = fill(s["messages"]["bad_deal"], value="4294967296", min=format_decimal(1, locale=lang),
                    max=format_decimal(MAX_DEAL, locale=lang))
    assert said == cap(expected) + " " + s["messages"]["bad_deal_new"]
    assert int(deal_shown(page)) in POOL  # a fresh game instead (there was none to go on with)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_writes_numbers_as_babel_does(watched, lang):
    """The formatter the game makes from the page's own data (strings.locale), run in the page."""
    page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    numbers = [0, 7, 13, 100, 515, 1000, 1520, 10000, 123456789, MAX_DEAL]
    written = page.evaluate("""async (ns) => {
        const { numberFormatter } = await import(new URL('assets/core/locale.js', document.baseURI).href);
        const strings = JSON.parse(document.querySelector('script.pyramide-strings').textContent);
        return ns.map(numberFormatter(strings.locale)); }""", numbers)
    assert written == [format_decimal(n, locale=lang) for n in numbers]


@pytest.mark.parametrize("lang", LANGS)
def test_the_deal_number_stays_as_typed_in_a_link(watched, lang):
    """A deal's number names it (it is what the link holds), so it is not grouped."""
    page = open_game(watched, lang, "#deal=123456789")
    assert deal_shown(page) == "123456789"
    assert message(page) == cap(fill(strings(lang)["messages"]["from_link"], deal=123456789))
