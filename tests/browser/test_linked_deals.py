"""Linked deals, in Chromium, nb and da: a deal the survey proved lost says so at once, Hint at
its start never says "undo", an undecided deal is not called lost; the deal number copies the
deal's link. And the winnable data on the built site is exactly the bundle's survey letters."""
from __future__ import annotations

import base64
import json
import re

import pytest
from babel.numbers import format_decimal

from helpers.game_harness import KNOWN_DEALS, LANGS, PAGE, WIN_DEAL, strings
from generator.render.game_embed import game_html, head_html
from generator.render.winnable import results_of, winnable_data
from helpers.game_page import GAME, message, open_game, wait_for_hint
from helpers.page_words import cap, fill


def first_deal(results: str, letter: str) -> int:
    return results.index(letter) + 1


# ---------------------------------------------------------------- the data, without a browser
def test_winnable_data_packs_one_bit_per_deal():
    letters = "wlwwllllwu" + "l" * 6 + "w"
    data = winnable_data(5, letters)
    assert (data["first"], data["last"], data["undecided"]) == (5, 21, [14])
    bits = base64.b64decode(data["winnable"])
    assert list(bits) == [0b00001101, 0b00000001, 0b00000001]  # deal 5 is bit 0 of byte 0
    assert results_of(data) == letters
    assert len(base64.b64decode(winnable_data(1, "l" * 10000)["winnable"])) == 1250
    for bad in ((0, "w"), (1, "wx"), (1.5, "w")):
        with pytest.raises(ValueError):
            winnable_data(*bad)


def test_the_built_page_carries_the_bundle_letters(built_site):
    """Decoded from the nb and da front pages: the same letters as the bundle's survey."""
    from helpers.cached_builds import ROOT
    site, _ = built_site
    survey = json.loads((ROOT / "build" / "verified.json").read_text(encoding="utf-8"))["survey"]
    for lang in LANGS:
        html = (site / lang / "index.html").read_text(encoding="utf-8")
        found = re.findall(r'<script type="application/json" class="pyramide-winnable">(.*?)</script>', html)
        assert len(found) == 1, lang
        data = json.loads(found[0])
        assert (data["first"], data["last"]) == (survey["first"], survey["last"])
        assert results_of(data) == survey["results"]
        assert len(data["winnable"]) == 4 * -(-(survey["last"] - survey["first"] + 1) // 24)  # base64 of the bytes


# ---------------------------------------------------------------- in the browser
@pytest.mark.parametrize("lang", LANGS)
def test_a_linked_lost_deal_says_so_at_once(watched, known_results, lang):
    s = strings(lang)
    lost = first_deal(known_results, "l")  # deal 2 as the survey decides it
    w, page = open_game(watched, lang, f"#deal={lost}")
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=lost)) + " " + s["messages"]["lost_deal"]
    page.locator(f"{GAME} .pyr-hint").click()
    assert wait_for_hint(page) == "lost"
    assert message(page) == s["hint"]["lost_from_start"]  # no "undo some moves" with nothing to undo
    assert not any(u.endswith("/worker.js") for u in w.requests)  # known: no search needed


@pytest.mark.parametrize("lang", LANGS)
def test_a_linked_winnable_deal_says_nothing_special(watched, known_results, lang):
    s = strings(lang)
    assert known_results[WIN_DEAL - 1] == "w"
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=WIN_DEAL))


@pytest.mark.parametrize("lang", LANGS)
def test_an_undecided_deal_is_not_called_lost(watched, site, known_results, lang):
    """The same deal, on a page whose data says the survey could not decide it."""
    s = strings(lang)
    lost = first_deal(known_results, "l")
    letters = known_results[:lost - 1] + "u" + known_results[lost:]
    (site / f"undecided-{lang}.html").write_text(PAGE.format(
        lang=lang, head=head_html("assets"), body=game_html(lang, s, [WIN_DEAL], "assets", winnable_data(1, letters))),
        encoding="utf-8")
    w = watched()
    page = w.open(f"undecided-{lang}.html#deal={lost}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=lost))
    beyond = KNOWN_DEALS + 1  # outside the data: nothing is known either
    page.goto(page.url.split("#")[0] + f"#deal={beyond}")
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{beyond}')")
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=beyond))


@pytest.mark.parametrize("lang", LANGS)
def test_the_deal_number_copies_the_deals_link(watched, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    w.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=w.base)
    number = page.locator(f"{GAME} .pyr-deal")
    assert number.evaluate("el => el.tagName") == "BUTTON"
    # it says in visible text that it copies the link (a tooltip does not reach touch screens)
    assert number.inner_text() == fill(s["board"]["deal"], deal=WIN_DEAL) + " · " + s["address"]["copy"]
    page.locator(f"{GAME} .pyr-new-game").click()  # the link is the deal shown, not the page's own hash
    deal = int(re.search(r"\d+", number.inner_text()).group())
    number.click()
    # Not just the number: New game's own message names the deal too.
    copied = fill(s["messages"]["link_copied"], deal=deal)
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-message').textContent === {json.dumps(copied)}")
    assert message(page) == copied
    assert page.evaluate("navigator.clipboard.readText()") == f"{w.base}/{lang}.html#deal={deal}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_clipboard_shows_the_link(watched, lang):
    s = strings(lang)
    w = watched()
    w.context.add_init_script("""navigator.clipboard.writeText = () =>
        Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));""")
    page = w.open(f"{lang}.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    page.locator(f"{GAME} .pyr-deal").click()
    link = f"{w.base}/{lang}.html#deal={WIN_DEAL}"
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-message').textContent.includes({json.dumps(link)})")
    assert message(page) == fill(s["messages"]["link_shown"], deal=WIN_DEAL, link=link)


# Issue 40: anyone can write a link, so its text is echoed at most as its first 40 characters.
SHOWN = 40
MAX_DEAL = 4294967295


def num(lang: str, n: int) -> str:
    return format_decimal(n, locale=lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key, size", [("deal", 4_000), ("rules", 4_000), ("deal", 1_500_000)])
def test_a_long_link_is_echoed_short_and_the_message_stays_a_line_or_two(watched, lang, key, size):
    s = strings(lang)
    # Markup and a letter beyond ASCII (shown as text); 1.5 MB of plain letters (encoded, the rest would pass 2 MB).
    attack = ("Ø<b>x" * size)[:size] if size < 10_000 else ("Pyramide" * size)[:size]
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    one_line = page.locator(f"{GAME} .pyr-message").bounding_box()["height"]
    page.evaluate("hash => { location.hash = hash; }", f"#{key}={attack}")
    kept = fill(s["messages"]["bad_deal_kept"], deal=WIN_DEAL)
    page.wait_for_function(f"t => document.querySelector('{GAME} .pyr-message').textContent.endsWith(t)", arg=kept)
    shown = attack[:SHOWN] + "…"
    said = (fill(s["messages"]["bad_deal"], value=shown, min=num(lang, 1), max=num(lang, MAX_DEAL)) if key == "deal"
            else fill(s["variants"]["bad_rules"], value=shown))
    assert message(page) == cap(said) + " " + kept
    height = page.locator(f"{GAME} .pyr-message").bounding_box()["height"]
    assert height <= 2 * one_line + 1, (height, one_line)
