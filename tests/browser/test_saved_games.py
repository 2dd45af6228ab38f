"""Nothing a player did is lost (app/core/storage.js, app/ui/game.js), in Chromium, nb and da: Restart and
New game are steps Undo takes back, each deal keeps its own saved game, links and malformed links
never touch another deal's game, tabs on the same deal follow each other, and v1 is migrated."""
from __future__ import annotations

import json

import pytest
from babel.numbers import format_decimal

from helpers.game_harness import LANGS, POOL, WIN_DEAL, strings
from helpers.game_page import GAME, click_move, deal_number, message, open_game, snapshot
from helpers.page_words import cap, fill

OTHER_DEAL = 8  # in the pool, winnable: a second deal to play beside WIN_DEAL


def saved(page, deal: int):
    return json.loads(page.evaluate(f"localStorage.getItem('pyramide.game.v2.{deal}')") or "null")


def moves_shown(page) -> str:
    return page.locator(f"{GAME} .pyr-score").inner_text()


def undo(page) -> None:
    page.locator(f"{GAME} .pyr-undo").click()


def open_tab(w, fragment: str, lang: str = "nb"):
    """Another tab of the same browser (same localStorage, its own sessionStorage)."""
    page = w.context.new_page()
    page.on("pageerror", lambda e: w.errors.append(str(e)))
    page.goto(f"{w.base}/{lang}.html{fragment}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    return page


@pytest.mark.parametrize("lang", LANGS)
def test_undo_takes_back_a_restart(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    opening = snapshot(page)
    for move in winning_game[:5]:
        click_move(page, move)
    played = snapshot(page)
    page.locator(f"{GAME} .pyr-restart").click()
    assert snapshot(page) == opening
    assert page.locator(f"{GAME} .pyr-undo").get_attribute("aria-disabled") == "false"
    page.reload()  # the restart and what it set aside are saved too
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert snapshot(page) == opening
    undo(page)
    assert snapshot(page) == played
    assert message(page) == s["messages"]["restart_undone"]
    assert saved(page, WIN_DEAL)["moves"] == winning_game[:5]
    for _ in range(5):
        undo(page)
    assert snapshot(page) == opening
    page.locator(f"{GAME} .pyr-undo").click(force=True)  # shown as unavailable: nothing before those moves
    assert message(page) == s["refused"]["moves.undo"]


@pytest.mark.parametrize("lang", LANGS)
def test_undo_takes_back_a_new_game(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    for move in winning_game[:3]:
        click_move(page, move)
    first = snapshot(page)
    page.locator(f"{GAME} .pyr-new-game").click()
    new = deal_number(page)
    assert new in POOL and new != WIN_DEAL
    assert moves_shown(page) == fill(s["board"]["status"], moves=0, points=0)
    page.locator(f"{GAME} button[data-pile='stock']").click()
    undo(page)  # the draw …
    assert deal_number(page) == new and message(page) == s["messages"]["undone"]
    undo(page)  # … then the new game itself: back to the deal and its moves
    assert snapshot(page) == first
    assert message(page) == cap(fill(s["messages"]["new_game_undone"], deal=WIN_DEAL))
    assert saved(page, new) is None  # nothing was played there any more: nothing kept
    undo(page)  # and on into that deal's own moves
    assert saved(page, WIN_DEAL)["moves"] == winning_game[:2] and message(page) == s["messages"]["undone"]


@pytest.mark.parametrize("lang", LANGS)
def test_reload_restores_and_welcomes_back_only_a_played_game(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    # the address shows the tab's own deal: a reload resumes it, and with no move, no welcome
    assert message(page) == fill(s["messages"]["ready"], target=13)
    page.goto(page.url.split("#")[0])
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert deal_number(page) == WIN_DEAL  # the tab stays on its deal
    assert message(page) == fill(s["messages"]["ready"], target=13)
    click_move(page, winning_game[0])
    before = snapshot(page)
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert snapshot(page) == before and message(page) == s["messages"]["restored"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_link_to_another_deal_keeps_each_deals_game(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    for move in winning_game[:4]:
        click_move(page, move)
    played = snapshot(page)
    kept = saved(page, WIN_DEAL)
    page.goto(page.url.split("#")[0] + f"#deal={OTHER_DEAL}")
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{OTHER_DEAL}')")
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=OTHER_DEAL))
    page.locator(f"{GAME} button[data-pile='stock']").click()
    assert saved(page, WIN_DEAL) == kept  # untouched
    page.goto(page.url.split("#")[0] + f"#deal={WIN_DEAL}")
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{WIN_DEAL}')")
    assert snapshot(page) == played and message(page) == s["messages"]["restored"]
    assert saved(page, OTHER_DEAL)["moves"] == ["draw"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("bad", ["abc", "0", "99999999999"])
def test_a_malformed_link_changes_nothing_saved(watched, winning_game, lang, bad):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    for move in winning_game[:3]:
        click_move(page, move)
    played = snapshot(page)
    store = page.evaluate("JSON.stringify(Object.entries(localStorage).sort())")
    tab = open_tab(w, f"#deal={bad}", lang)  # a new tab: it goes on with the last played game
    assert snapshot(tab) == played and tab.url.endswith(f"#deal={WIN_DEAL}")  # the address shows the game that goes on
    assert message(tab) == cap(fill(s["messages"]["bad_deal"], value=bad, min=format_decimal(1, locale=lang),
                                    max=format_decimal(4294967295, locale=lang))) + " " + \
        fill(s["messages"]["bad_deal_kept"], deal=WIN_DEAL)
    assert tab.evaluate("JSON.stringify(Object.entries(localStorage).sort())") == store


def test_tabs_on_other_deals_never_overwrite_each_other(watched, winning_game):
    w, a = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    b = open_tab(w, f"#deal={OTHER_DEAL}", "da")  # both languages share the store
    for move in winning_game[:3]:
        click_move(a, move)
        b.locator(f"{GAME} button[data-pile='stock']").click()
    assert saved(a, WIN_DEAL)["moves"] == winning_game[:3]
    assert saved(a, OTHER_DEAL)["moves"] == ["draw"] * 3
    a.reload()
    a.wait_for_selector(f"{GAME} .pyr-board")
    b.reload()
    b.wait_for_selector(f"{GAME} .pyr-board")
    assert (deal_number(a), deal_number(b)) == (WIN_DEAL, OTHER_DEAL)  # each tab keeps its own deal


@pytest.mark.parametrize("lang", LANGS)
def test_tabs_on_the_same_deal_follow_the_last_write(watched, winning_game, lang):
    s = strings(lang)
    w, a = open_game(watched, lang, f"#deal={WIN_DEAL}")
    click_move(a, winning_game[0])
    b = open_tab(w, f"#deal={WIN_DEAL}", lang)
    assert snapshot(b) == snapshot(a) and message(b) == s["messages"]["restored"]
    click_move(b, winning_game[1])
    a.wait_for_function(f"document.querySelector('{GAME} .pyr-message').textContent.includes('{WIN_DEAL}')")
    assert snapshot(a) == snapshot(b)
    assert message(a) == cap(fill(s["messages"]["other_tab"], deal=WIN_DEAL))
    click_move(a, winning_game[2])  # a plays on from b's moves: nothing of b's is lost
    assert saved(a, WIN_DEAL)["moves"] == winning_game[:3]
    b.wait_for_function(f"document.querySelector('{GAME} .pyr-score').textContent.includes('3')")
    assert snapshot(b) == snapshot(a)


def test_v1_is_migrated_once(watched, winning_game):
    s = strings("da")
    w, page = open_game(watched, "da")
    page.evaluate("""g => { localStorage.clear(); sessionStorage.clear();
                            localStorage.setItem('pyramide.game.v1', JSON.stringify(g)); }""",
                  {"version": 1, "deal": WIN_DEAL, "moves": winning_game[:2]})
    page.goto(page.url.split("#")[0])  # as the first visit since v1 (the address now shows the deal)
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert deal_number(page) == WIN_DEAL and message(page) == s["messages"]["restored"]
    assert page.evaluate("localStorage.getItem('pyramide.game.v1')") is None
    assert saved(page, WIN_DEAL)["moves"] == winning_game[:2]


# A finished game as app/core/stats.js stores it (format v1): the one good record beside each bad entry.
GOOD_RECORD = {"version": 1, "id": "goodgame", "rules": "standard", "deal": 27, "result": "won", "moves": 51,
               "points": 100, "hints": 0, "ms": 0, "daily": None, "at": 1_767_225_600_000}
BAD_DATE_RECORD = {**GOOD_RECORD, "id": "baddated", "daily": "2026-13-45", "at": 1e308}


@pytest.mark.parametrize("key, text", [
    ("pyramide.game.v2.27", "{not json"),
    ("pyramide.game.v2.27", '{"version":2,"deal":27,"moves":["draw"],"at":1e308}'),
    ("pyramide.game.v2.27", '{"version":2,"deal":27,"moves":["draw"],"at":1,'
                            '"meta":{"id":"abcdefgh","hints":0,"ms":0,"daily":"2026-13-45"}}'),
    ("pyramide.game.v2.zzz.27", '{"version":2,"deal":27,"variant":"zzz","moves":["draw"],"at":2}'),
    ("pyramide.result.v1.abcdefgh", "{not json"),
    ("pyramide.result.v1.baddated", json.dumps(BAD_DATE_RECORD)),
    ("pyramide.stats.v1", '{"version":1,"until":1e308,"rules":{}}'),
    ("pyramide.stats.v1", "[not json"),
    ("pyramide.options.v1", "{not json"),
    ("pyramide.settings.v1", "{not json"),
])
def test_corrupt_or_impossible_stored_data_never_throws_in_the_page(watched, key, text):
    """Issue 40: corrupt saved JSON threw an uncaught error in the page. Each bad entry, beside one good
    finished game: the page opens a game, its statistics count the good game, and nothing is thrown
    (the watched fixture fails the test on any page error or console error)."""
    w, page = open_game(watched, "nb")
    page.evaluate("""([good, key, text]) => { localStorage.clear(); sessionStorage.clear();
        localStorage.setItem('pyramide.result.v1.' + good.id, JSON.stringify(good));
        localStorage.setItem(key, text); }""", [GOOD_RECORD, key, text])
    page.goto(page.url.split("#")[0])
    page.wait_for_selector(f"{GAME} .pyr-board")
    page.locator(f"{GAME} .pyr-stats > summary").click()
    page.wait_for_selector(f"{GAME} .pyr-stats dd[data-stat='played']")
    assert page.locator(f"{GAME} .pyr-stats dd[data-stat='played']").inner_text() == "1"
