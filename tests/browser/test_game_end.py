"""The end of a game and what comes back with the player (issue 27), in Chromium, in nb and da:
the win panel and the statistics, the lost panel and "back to the last winnable position"
(checked with the independent engine and decider), two tabs counting, redo, the address as the
game, the daily deal and the options."""
from __future__ import annotations

import datetime as dt
import json
import random
import re

import pytest
from babel.numbers import format_decimal

from helpers.game_harness import KNOWN_DEALS, LANGS, POOL, ROOT, STUCK_DEAL, WIN_DEAL, strings
from helpers.page_words import cap, counted, fill
from helpers.game_page import GAME, click_move, deal_number, message, open_game, stock
from verify.independent import decider as independent_decider
from verify.independent import rules as independent
from verify.independent.daily import daily_deal

OTHER_DEAL = 8  # in the pool, winnable
PANELS = ROOT / "test-artifacts" / "panels"


def num(lang: str, n: int) -> str:
    return format_decimal(n, locale=lang)


def stat(page, key: str) -> str:
    return page.locator(f"{GAME} .pyr-stats dd[data-stat='{key}']").inner_text()


def open_stats(page) -> None:
    if not page.evaluate(f"document.querySelector('{GAME} .pyr-stats').open"):
        page.locator(f"{GAME} .pyr-stats > summary").click()


def focused_class(page) -> str:
    return page.evaluate("document.activeElement.className")


def expected_breakdown(deal: int, moves: list[str]) -> dict:
    """The points by what earned them, counted with the independent engine move by move."""
    game = independent.Game(deal)
    parts = {"cards": 0, "rows": 0, "win": 0, "turns": 0}
    for move in moves:
        before = game.position
        after = game.play(move)
        removed = sum(c is not None for c in before.pyramid) - sum(c is not None for c in after.pyramid)
        removed += len(before.stock) + len(before.waste) - len(after.stock) - len(after.waste)
        parts["cards"] += 5 * removed
        start = 0
        for r in range(1, 8):
            row = lambda pos: [c for c in pos.pyramid[start:start + r] if c is not None]  # noqa: E731
            if row(before) and not row(after):
                parts["rows"] += 25
            start += r
        if all(c is None for c in after.pyramid):
            parts["win"] = 100
            parts["turns"] = 50 * after.turns_left
    assert sum(parts.values()) == game.position.points
    return parts


def score_rows(page) -> dict:
    return page.evaluate(f"""Object.fromEntries([...document.querySelectorAll('{GAME} .pyr-end-score tr[class]')]
        .map(tr => [tr.className.replace('pyr-score-', ''), tr.querySelector('td').textContent]))""")


def shoot(page, name: str) -> None:
    PANELS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PANELS / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------- the win
@pytest.mark.parametrize("lang", LANGS)
def test_a_win_shows_the_score_the_record_and_the_statistics(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    for move in winning_game:
        click_move(page, move)
    panel = page.locator(f"{GAME} .pyr-end")
    assert panel.is_visible()
    assert panel.locator(".pyr-end-title").inner_text() == s["end"]["won_title"]
    parts = expected_breakdown(WIN_DEAL, winning_game)
    total = sum(parts.values())
    assert score_rows(page) == {**{k: num(lang, v) for k, v in parts.items()}, "total": num(lang, total)}
    assert panel.locator(".pyr-end-moves").inner_text() == fill(s["end"]["moves"], moves=num(lang, len(winning_game)))
    assert panel.locator(".pyr-end-hints").inner_text() == fill(s["end"]["hints"], hints=0)
    assert panel.locator(".pyr-end-time").count() == 0  # the timer is off by default
    assert panel.locator(".pyr-end-record").inner_text() == fill(s["end"]["record_first"],
        points=counted(s, s["counts"]["points"], total), moves=counted(s, s["counts"]["moves"], len(winning_game)))
    assert "pyr-end-new" in focused_class(page)  # New game has the focus
    assert page.locator(f"{GAME} .pyr-fountain").count() == 0  # reduced motion: no cards thrown up (test_feel.py)
    shoot(page, f"won-{lang}-1280")
    page.set_viewport_size({"width": 360, "height": 800})
    shoot(page, f"won-{lang}-360")
    page.set_viewport_size({"width": 1280, "height": 900})

    panel.locator(".pyr-end-stats").click()
    assert stat(page, "played") == "1" and stat(page, "won") == "1"
    assert stat(page, "win_share") == fill(s["stats"]["percent"], value=100)
    assert stat(page, "streak") == "1" and stat(page, "best_streak") == "1"
    assert stat(page, "best_score") == num(lang, total)
    assert stat(page, "fewest_moves") == num(lang, len(winning_game))
    assert stat(page, "hints") == "0"
    # the chart's table says what the bar shows
    assert page.locator(f"{GAME} .pyr-stats-table .pyr-row-won td").first.inner_text() == "1"
    assert page.locator(f"{GAME} svg.pyr-stats-chart-svg").get_attribute("role") == "img"  # the chart over time (test_records.py)
    shoot(page, f"stats-{lang}-1280")

    # The same game again: no record beaten, so no record line; two wins in a row.
    page.locator(f"{GAME} .pyr-restart").click()
    assert not panel.is_visible()
    page.keyboard.press("h")  # a hint counts
    page.wait_for_function(f"['checked','lost','unchecked'].includes(document.querySelector('{GAME}').dataset.hint)", timeout=15000)
    for move in winning_game:
        click_move(page, move)
    assert panel.is_visible() and panel.locator(".pyr-end-record").count() == 0
    assert panel.locator(".pyr-end-hints").inner_text() == fill(s["end"]["hints"], hints=1)
    open_stats(page)
    assert stat(page, "played") == "2" and stat(page, "streak") == "2" and stat(page, "hints") == "1"


# ---------------------------------------------------------------- the loss and the way back
@pytest.fixture(scope="module")
def lost_game() -> tuple[list[str], int]:
    """A game of WIN_DEAL played into a dead end (seeded random play, the independent engine), and
    the number of moves after which it could last still be won (the independent decider)."""
    rnd = random.Random(0)
    game = independent.Game(WIN_DEAL)
    moves = []
    while independent.status(game.position) == "playing":
        legal = independent.legal_moves(game.position)
        removals = [m for m in legal if m.kind in ("pair", "king")]
        move = rnd.choice(removals) if removals and rnd.random() < 0.8 else rnd.choice(legal)
        game.play(move)
        moves.append(independent.format_move(move))
    assert independent.status(game.position) == "stuck"
    results = [independent_decider.decide(independent.to_json(p)).result for p in game.history]
    last = max(i for i, r in enumerate(results) if r == "won")
    assert 0 < last < len(moves) and all(r == "lost" for r in results[last + 1:])
    return moves, last


def saved_moves(page, deal: int) -> list[str]:
    return json.loads(page.evaluate(f"localStorage.getItem('pyramide.game.v2.{deal}')"))["moves"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_lost_game_goes_back_to_the_last_winnable_position(watched, lost_game, lang):
    s = strings(lang)
    moves, last = lost_game
    w, page = open_game(watched, lang, "#deal=3")  # another deal first: WIN_DEAL's game comes from the store
    # The game up to a few moves before the end, as a saved game; the rest played by hand.
    head, tail = moves[:-4], moves[-4:]
    page.evaluate(f"""localStorage.setItem('pyramide.game.v2.{WIN_DEAL}', JSON.stringify({{version: 2, deal: {WIN_DEAL},
        moves: {json.dumps(head)}, undo: [], at: Date.now(), meta: {{id: 'testgame0000lost', hints: 0, ms: 0, daily: null}}}}))""")
    page.goto(page.url.split("#")[0] + f"#deal={WIN_DEAL}")
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{WIN_DEAL}')")
    for move in tail:
        click_move(page, move)
    panel = page.locator(f"{GAME} .pyr-end")
    assert panel.is_visible() and panel.locator(".pyr-end-title").inner_text() == s["end"]["stuck_title"]
    assert panel.locator(".pyr-end-why").inner_text() == s["end"]["lost_by_play"]  # deal 27 can be won
    assert focused_class(page).startswith("pyr-end")  # the panel takes the focus
    for name in ("undo", "back", "restart", "new"):
        assert panel.locator(f".pyr-end-{name}").is_visible()
    shoot(page, f"lost-{lang}-1280")
    page.set_viewport_size({"width": 360, "height": 800})
    shoot(page, f"lost-{lang}-360")
    page.set_viewport_size({"width": 1280, "height": 900})
    open_stats(page)
    assert stat(page, "played") == "1" and stat(page, "won") == "0"

    panel.locator(".pyr-end-back").click()
    page.wait_for_function(f"document.querySelector('{GAME}').dataset.status === 'playing'", timeout=30000)
    assert message(page) == cap(fill(s["end"]["back_done"], moves=num(lang, last)))
    back = saved_moves(page, WIN_DEAL)
    assert back == moves[:last]
    # The independent decider: where it went can be won, and no later position of the game could.
    history = independent.Game(WIN_DEAL)
    for m in moves:
        history.play(m)
    results = [independent_decider.decide(independent.to_json(p)).result for p in history.history]
    assert results[len(back)] == "won" and set(results[len(back) + 1:]) == {"lost"}
    assert not panel.is_visible()
    # Redo brings the moves back one at a time (Y); a new move empties it.
    page.locator(f"{GAME} .pyr-redo").click()
    assert saved_moves(page, WIN_DEAL) == moves[:last + 1]
    page.keyboard.press("y")
    assert saved_moves(page, WIN_DEAL) == moves[:last + 2]


def test_lost_from_the_start_says_so(watched, known_results):
    s = strings("nb")
    lost = known_results.index("l") + 1
    w, page = open_game(watched, "nb", f"#deal={lost}")
    page.locator(f"{GAME} .pyr-hint").click()
    page.locator(f"{GAME} .pyr-end").wait_for(state="visible", timeout=15000)
    assert page.locator(f"{GAME} .pyr-end-why").inner_text() == s["end"]["lost_from_start"]
    assert page.locator(f"{GAME} .pyr-end-title").inner_text() == s["end"]["lost_title"]
    # No position of a deal lost from the start can be won: no way back to one is offered (review 3, A4).
    assert page.locator(f"{GAME} .pyr-end-back").count() == 0
    assert page.locator(f"{GAME} .pyr-end-restart").is_visible() and page.locator(f"{GAME} .pyr-end-new").is_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_a_deal_not_known_from_the_start_is_not_said_winnable(watched, app, lang):
    """Review 3, A1: the harness knows deals 1 … 40 only; a game of another deal stuck with no move
    left does not say the deal could be won from the start, nor that it could not, until Hint's
    search has found out."""
    s = strings(lang)
    deal = STUCK_DEAL  # outside the known deals; it can be won from the start (the app's solver)
    assert deal > KNOWN_DEALS and app.solve(app.opening(deal))["winnable"]
    moves = ["draw"] * 23 + ["turn"] + ["draw"] * 24 + ["turn"] + ["draw"] * 24
    w, page = open_game(watched, lang, f"#deal={deal}")
    stock(page).focus()
    for _ in moves:
        page.keyboard.press("d")
    panel = page.locator(f"{GAME} .pyr-end")
    assert panel.is_visible() and panel.locator(".pyr-end-title").inner_text() == s["end"]["stuck_title"]
    assert panel.locator(".pyr-end-why").inner_text() == s["end"]["lost_unknown"]
    assert s["end"]["back"] in s["end"]["lost_unknown"] and panel.locator(".pyr-end-back").is_visible()  # the button it names
    # Hint's search finds the deal could be won from the start: the panel now says lost by play.
    page.locator(f"{GAME} .pyr-hint").click()
    page.wait_for_function(f"document.querySelector('{GAME}').dataset.hint === 'lost'", timeout=30000)
    assert panel.locator(".pyr-end-why").inner_text() == s["end"]["lost_by_play"]
    assert panel.locator(".pyr-end-back").is_visible()


# ---------------------------------------------------------------- counting
def test_two_tabs_finishing_at_once_count_two_games(watched, app, winning_game):
    other = app.solve(app.opening(OTHER_DEAL))["game"]
    w, a = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    b = w.context.new_page()
    b.goto(f"{w.base}/da.html#deal={OTHER_DEAL}")
    b.wait_for_selector(f"{GAME} .pyr-board")
    for move in winning_game[:-1]:
        click_move(a, move)
    for move in other[:-1]:
        click_move(b, move)
    # Both last moves in one go, each tab reading and writing the store as it finishes.
    last = lambda move: " ".join(f"document.querySelector(\"{GAME} button.pyr-slot[data-code='{c}']\").click();"  # noqa: E731
                                  for c in move.split()[1:]) or f"document.querySelector(\"{GAME} button[data-pile='stock']\").click();"
    a.evaluate(f"setTimeout(() => {{ {last(winning_game[-1])} }}, 300)")
    b.evaluate(f"setTimeout(() => {{ {last(other[-1])} }}, 300)")
    for page in (a, b):
        page.wait_for_function(f"document.querySelector('{GAME}').dataset.status === 'won'")
    c = w.context.new_page()
    c.goto(f"{w.base}/nb.html#deal={WIN_DEAL}")
    c.wait_for_selector(f"{GAME} .pyr-board")
    open_stats(c)
    assert stat(c, "played") == "2" and stat(c, "won") == "2"


def test_one_game_seen_in_two_tabs_counts_once(watched, winning_game):
    w, a = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    for move in winning_game[:-1]:
        click_move(a, move)
    b = w.context.new_page()
    b.goto(f"{w.base}/nb.html#deal={WIN_DEAL}")
    b.wait_for_selector(f"{GAME} .pyr-board")
    click_move(a, winning_game[-1])
    b.wait_for_function(f"document.querySelector('{GAME}').dataset.status === 'won'")  # b follows a
    assert b.locator(f"{GAME} .pyr-end").is_visible()
    a.locator(f"{GAME} .pyr-undo").click()
    click_move(a, winning_game[-1])  # won again: the same game, counted once
    open_stats(b)
    assert stat(b, "played") == "1" and stat(b, "won") == "1"


def test_restart_mid_game_counts_as_given_up_and_a_bad_record_is_dropped_alone(watched, winning_game):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    page.evaluate("localStorage.setItem('pyramide.result.v1.zzzzzzzzzzzz', '{not json')")
    page.locator(f"{GAME} .pyr-restart").click()  # no move yet: nothing to count
    click_move(page, winning_game[0])
    page.locator(f"{GAME} .pyr-restart").click()
    open_stats(page)
    assert stat(page, "played") == "1" and stat(page, "won") == "0" and stat(page, "streak") == "0"
    assert page.locator(f"{GAME} .pyr-stats-table .pyr-row-given-up td").first.inner_text() == "1"
    assert page.evaluate("localStorage.getItem('pyramide.result.v1.zzzzzzzzzzzz')") is None


def test_reset_export_and_import(watched, winning_game, tmp_path):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    click_move(page, winning_game[0])
    page.locator(f"{GAME} .pyr-new-game").click()  # given up
    open_stats(page)
    with page.expect_download() as download:
        page.locator(f"{GAME} .pyr-stats-export").click()
    exported = tmp_path / "stats.json"
    download.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert data["format"] == "pyramide-statistics" and [r["result"] for r in data["results"]] == ["given-up"]
    page.once("dialog", lambda d: d.dismiss())
    page.locator(f"{GAME} .pyr-stats-reset").click()
    assert stat(page, "played") == "1"  # not confirmed: kept
    page.once("dialog", lambda d: d.accept())
    page.locator(f"{GAME} .pyr-stats-reset").click()
    assert stat(page, "played") == "0"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    page.locator(f"{GAME} .pyr-stats-file").set_input_files(str(bad))
    # The reset's message is still there: wait for the import's (it reads the file in a task of its own).
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-message').textContent !== {json.dumps(strings('nb')['stats']['was_reset'])}")
    assert message(page) == strings("nb")["stats"]["import_failed"]
    page.once("dialog", lambda d: d.accept())
    page.locator(f"{GAME} .pyr-stats-file").set_input_files(str(exported))
    page.wait_for_function(f"document.querySelector('{GAME} dd[data-stat=played]').textContent === '1'")


# ---------------------------------------------------------------- redo
def test_redo_and_a_new_move_that_ends_it(watched, winning_game):
    s = strings("nb")
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    # n moves, the last not a draw: a draw is then "another move than the one Redo holds".
    n = next(i for i in range(3, len(winning_game) + 1) if winning_game[i - 1] != "draw")
    for move in winning_game[:n]:
        click_move(page, move)
    for _ in range(3):
        page.keyboard.press("u")
    assert page.locator(f"{GAME} .pyr-redo").get_attribute("aria-disabled") == "false"
    page.keyboard.press("Control+Shift+Z")
    assert saved_moves(page, WIN_DEAL) == winning_game[:n - 2]
    page.keyboard.press("Shift+Y")  # redo all
    assert saved_moves(page, WIN_DEAL) == winning_game[:n]
    assert message(page) == counted(s, s["redo"]["redone_all"], 2)
    page.keyboard.press("u")
    assert winning_game[n - 1] != "draw"
    stock(page).click()  # another move than the one Redo holds
    assert page.locator(f"{GAME} .pyr-redo").get_attribute("aria-disabled") == "true"
    page.keyboard.press("y")
    assert message(page) == s["redo"]["nothing"]


# ---------------------------------------------------------------- the address
@pytest.mark.parametrize("lang", LANGS)
def test_back_and_forward_move_between_deals(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang)
    first = deal_number(page)
    assert page.url.endswith(f"#deal={first}")  # the address shows the deal, link or not
    assert s["address"]["copy"] in page.locator(f"{GAME} .pyr-deal").inner_text()
    page.locator(f"{GAME} .pyr-new-game").click()
    second = deal_number(page)
    assert second != first and page.url.endswith(f"#deal={second}")
    stock(page).click()  # a move on the second deal
    page.go_back()
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{first}')")
    assert message(page) == cap(fill(s["address"]["back"], deal=first))
    assert page.url.endswith(f"#deal={first}")
    page.go_forward()
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{second}')")
    assert json.loads(page.evaluate(f"localStorage.getItem('pyramide.game.v2.{second}')"))["moves"] == ["draw"]
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(s["board"]["status"], moves=1, points=0)
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert deal_number(page) == second and page.url.endswith(f"#deal={second}")


# ---------------------------------------------------------------- the daily deal
PINNED = dt.date(2026, 12, 1)
WRITTEN_DATE = {"nb": "1. desember 2026", "da": "1. december 2026"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_daily_deal_of_a_pinned_date(watched, lang):
    s = strings(lang)
    w = watched()
    w.page.clock.set_fixed_time(dt.datetime(2026, 12, 1, 10, 0))
    page = w.open(f"{lang}.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    button = page.locator(f"{GAME} .pyr-daily")
    assert button.inner_text() == fill(s["daily"]["open"], date=WRITTEN_DATE[lang])
    expected = daily_deal(PINNED, POOL)  # the independent side's choice
    button.click()
    assert deal_number(page) == expected
    assert message(page) == fill(s["daily"]["opened"], date=WRITTEN_DATE[lang], deal=expected)
    assert page.locator(f"{GAME} .pyr-daily-line").inner_text() == fill(s["daily"]["this_is"], date=WRITTEN_DATE[lang])
    assert page.url.endswith(f"#deal={expected}")


def test_a_daily_win_gives_a_text_to_share_without_cards(watched, app):
    s = strings("da")
    deal = daily_deal(PINNED, POOL)
    game = app.solve(app.opening(deal))["game"]
    w = watched()
    w.context.grant_permissions(["clipboard-read", "clipboard-write"])
    w.page.clock.set_fixed_time(dt.datetime(2026, 12, 1, 10, 0))
    page = w.open(f"da.html#deal={deal}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    page.locator(f"{GAME} .pyr-hint").click()  # a hint, which the text then says (issue 43)
    page.wait_for_function(f"['checked','lost','unchecked'].includes(document.querySelector('{GAME}').dataset.hint)", timeout=15000)
    for move in game:
        click_move(page, move)
    page.locator(f"{GAME} .pyr-end-share").click()
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-message').textContent.includes({json.dumps(s['end']['share_copied'])})")
    text = page.evaluate("navigator.clipboard.readText()")
    assert text == (fill(s["end"]["share_won"], date=WRITTEN_DATE["da"], moves=counted(s, s["counts"]["moves"], len(game)))
                    + " " + fill(s["end"]["share_hints"], hints=1))
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b", text)
    open_stats(page)
    assert stat(page, "daily_streak") == "1"


# ---------------------------------------------------------------- options
def test_options_are_kept_across_visits(watched, winning_game):
    s = strings("nb")
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    assert page.locator(f"{GAME} .pyr-clock").is_hidden()  # no timer by default
    page.locator(f"{GAME} .pyr-options > summary").click()
    page.locator(f"{GAME} .pyr-option-hide-score input").check()
    page.locator(f"{GAME} .pyr-option-timer input").check()
    page.locator(f"{GAME} .pyr-option-hint-count input").uncheck()
    click_move(page, winning_game[0])
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(s["options"]["status_moves"], moves=1)
    assert page.locator(f"{GAME} .pyr-hint-count").is_hidden()
    assert re.fullmatch(r"· " + fill(s["options"]["status_time"], time=r"\d+:\d\d"), page.locator(f"{GAME} .pyr-clock").inner_text().strip())
