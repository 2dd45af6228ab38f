"""The game and the replay in Debian's Chromium, in nb and da: played through the real interface
(clicks and keys), with every request and console error recorded (see conftest.py)."""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from babel.numbers import format_decimal

from helpers.game_harness import LANGS, LOST_DEAL, POOL, ROOT, STUCK_DEAL, WIN_DEAL, strings
from helpers.page_words import cap, card, counted, fill
from helpers.game_page import (GAME, click_move, click_top, dataset, deal_number, focus_board, hinted_move,
                               message, open_game, said_move, slot, snapshot, stock, wait_for_hint)
from generator.render.game_embed import game_code, game_html, head_html, replay_html

ARTIFACTS = ROOT / "test-artifacts"
# 60 KB before issue 27; the end panels, statistics, daily deal, redo, address and options
# (the last seven files) add about 12 KB gzipped, the solver's variants in engine.js, the true
# messages (messages.js, judge.js) and the screens' layouts some 8 KB more (72.2 KB); the
# variants' choice and the solution view (variants.js, solution.js, their part of game.js) and
# the exact solver the worker loads for them (solver.js, 10.5 KB, fetched only when Hint or the
# solution asks) bring it to 91.3 KB. The page's own speed is measured by Lighthouse (make bench).
# Issue 39 split the Game class into a controller and six feature modules, the buttons and keys
# into a table of commands, and the variants into a registry: 96,850 bytes became 103,122 (each
# module compressed alone, with its own header), and the list is now every file the pages load
# (generator/render/game_embed.py game_code: locale.js had been left out). Issue 43's honest
# records (the statistics per rule set, the chart over time in stats-chart.js, the deal field in
# deal-field.js, the hints in the record line and the share text) took 105,265 bytes to 110,811.
# Issue 43's feel (h-feel) found the merged game at 113,239 bytes, already over 109 KB; the motion
# (motion.js), the sounds made in the page (sound.js), the discard pile and the options for
# animations, sound, the cards' back and the table's colour took it to 117,487; merged with issue
# 40's checks of stored and linked data (dates, times, the short form of a link's text): 118,671.
BUDGET_GZIP = 117 * 1024


# ---------------------------------------------------------------- without a browser
def test_the_cards_look_has_one_source():
    """app/ui/cards.css is the cards' only stylesheet: the game's own adds the board's states
    (selected, hinted) under .pyr-board and never restates a picture's rule."""
    cards = (ROOT / "app" / "ui" / "cards.css").read_text()
    game = (ROOT / "app" / "ui" / "game.css").read_text()
    assert ".pyr .face{" in cards and ".pyr .free .face{" in cards
    for line in cards.splitlines():
        if line.startswith(".pyr"):
            assert line not in game, f"game.css restates a card rule: {line}"
    assert ".pyr-board .pyr-slot.is-selected .face" in game


def test_strings_are_complete_in_both_languages():
    def keys(d, prefix=""):
        out = set()
        for k, v in d.items():
            out |= keys(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
        return out
    nb, da = strings("nb"), strings("da")
    assert keys(nb) == keys(da)
    assert nb["buttons"] == {"undo": "Angre", "hint": "Hint", "restart": "Start på nytt", "new_game": "Nytt spill",
                             "large_print": "Stor skrift på kortene", "solution": "Vis løsningen"}
    assert da["buttons"] == {"undo": "Fortryd", "hint": "Hint", "restart": "Start forfra", "new_game": "Nyt spil",
                             "large_print": "Stor skrift på kortene", "solution": "Vis løsningen"}
    for s in (nb, da):  # every rule id the engine refuses with has its own message
        for rule in ["free.covered", "pair.thirteen", "pair.one-waste", "king.alone", "draw.nonempty",
                     "turn.when", "turn.limit", "removed.gone", "end.win", "moves.undo"]:
            assert s["refused"][rule]


def test_every_string_is_used():
    """No stale strings: each key is read by the game's code (groups looked up by rule id, move
    kind, rank or suit are read as a whole)."""
    code = "".join(f.read_text() for f in sorted((ROOT / "app").rglob("*.js")))
    by_name = {"refused", "ranks", "suits", "moves", "done"}
    # (variants.summaries is read by variant id: tests/test_variant_registry.py holds its keys to the registry.)
    for group, entries in strings("nb").items():
        if not isinstance(entries, dict) or group in by_name:
            continue
        for key in entries:
            assert re.search(rf"\.{key}\b", code), f"{group}.{key} is never used"


def test_embed_snippets():
    s = strings("nb")
    evil = {**s, "noscript": "a </script><b>"}
    html = game_html("nb", evil, [27, 8], "../assets")
    assert html.startswith('<div class="pyramide-game" id="game" lang="nb">') and html.endswith("</div>")
    # The stylesheet goes in the head (head_html), not halfway down the body where it blocks rendering.
    assert "stylesheet" not in html and head_html("../assets/") == (
        '<link rel="stylesheet" href="../assets/ui/cards.css"><link rel="stylesheet" href="../assets/ui/game.css">')
    assert ('<div class="pyr-reserve"><div class="pyr-reserve-board"><img class="pyr-reserve-picture" '
            'src="../assets/reserve.svg" alt="" width="752" height="552"><noscript>') in html
    assert '<script type="module" src="../assets/ui/game.js"></script>' in html
    assert html.count("</script>") == 3  # the JSON can never close its element
    data = re.search(r'class="pyramide-strings">(.*?)</script>', html).group(1)
    assert json.loads(data)["noscript"] == "a </script><b>"
    assert "<noscript><p class=\"pyr-noscript\">a &lt;/script&gt;&lt;b&gt;</p></noscript>" in html
    assert json.loads(re.search(r'class="pyramide-pool">(.*?)</script>', html).group(1)) == [27, 8]
    replay = replay_html("da", strings("da"), {"deal": 27, "moves": ["draw"], "chapters": []}, "assets/",
                         "<p>a</p>\n\n\n<p>b</p>")
    assert "\n\n" not in replay and 'src="assets/ui/replay.js"' in replay
    assert '<div class="pyramide-replay-fallback"><p>a</p>\n<p>b</p></div>' in replay
    for bad in ("https://cdn.example/x", "//cdn.example"):
        with pytest.raises(ValueError):
            game_html("nb", s, [1], bad)


def test_game_code_fits_the_size_budget():
    total = sum(len(gzip.compress((ROOT / "app" / f).read_bytes(), 9)) for f in game_code(ROOT / "app"))
    assert total <= BUDGET_GZIP, f"{total} bytes gzipped"


def test_pool_and_example_deals(app):
    for deal in POOL:
        assert app.solve(app.opening(deal))["winnable"], deal
    assert not app.solve(app.opening(LOST_DEAL))["winnable"]


# ---------------------------------------------------------------- playing
@pytest.mark.parametrize("lang", LANGS)
def test_win_by_clicking_the_verified_game(watched, app, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=WIN_DEAL))
    for number, move in enumerate(winning_game, 1):
        click_move(page, move)
        expected_score = fill(s["board"]["status"], moves=number, points=r"[\d\u00a0.]+")
        assert re.fullmatch(expected_score, page.locator(f"{GAME} .pyr-score").inner_text()), move
    final = app.replay_from(app.opening(WIN_DEAL), winning_game)
    assert final["status"] == "won" and dataset(page, "status") == "won"
    assert message(page).endswith(fill(s["messages"]["won"], points=counted(s, s["counts"]["points"], final["points"]), moves=counted(s, s["counts"]["moves"], final["moves"])))
    # The win says the pyramid is empty; the top row's own «Rad 1 er tom!» is not said before it.
    assert fill(s["done"]["row"], row=1) not in message(page)
    assert page.locator(f"{GAME} button.pyr-slot.has-card[data-row]").count() == 0
    slot_count_before = page.locator(f"{GAME} .pyr-slot").count()
    # The end panel lies over the board; Close shows the board again and hands the keys to New game.
    panel = page.locator(f"{GAME} .pyr-end")
    assert panel.is_visible()
    panel.locator(".pyr-end-close").click()
    assert not panel.is_visible()
    assert page.evaluate("document.activeElement.classList.contains('pyr-new-game')")
    stock(page).click()  # nothing more to play: the page says so
    assert message(page) == s["messages"]["already_won"]
    assert page.locator(f"{GAME} .pyr-slot").count() == slot_count_before


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_name_the_rule_in_the_page_language(watched, app, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    opening = app.opening(WIN_DEAL)
    row7 = opening["pyramid"][21:]
    a, b = "4S", "7D"  # both free, 4 + 7 = 11
    assert a in row7 and b in row7
    before = snapshot(page)
    slot(page, a).click()
    assert slot(page, a).get_attribute("aria-pressed") == "true"
    assert message(page) == cap(fill(s["messages"]["selected"], card=card(s, a), target=13))
    slot(page, b).click()
    assert message(page) == cap(fill(s["refused"]["pair.thirteen"], a=card(s, a), b=card(s, b), sum=11, target=13))
    assert page.locator(f"{GAME} .pyr-message").get_attribute("data-kind") == "refused"
    after = snapshot(page)  # nothing moved, nothing stays chosen; the two cards show the refusal
    refused = {code for _, classes, _, code, _ in after["slots"] if "is-refused" in classes.split()}
    assert refused == {a, b}
    for slot_ in after["slots"]:
        slot_[1] = slot_[1].replace(" is-refused", "")
    assert after == before
    covered = opening["pyramid"][15]  # row 6, place 1: still under two cards, 21 and 22 in row 7
    under_two = cap(fill(s["refused"]["free.covered_two"], card=card(s, covered),
                         a=card(s, opening["pyramid"][21]), b=card(s, opening["pyramid"][22])))
    click_top(slot(page, covered))
    assert message(page) == under_two
    # a free card, then a covered one: the engine refuses the pair as not free
    slot(page, "6C").click()
    click_top(slot(page, covered))
    assert message(page) == under_two
    page.locator(f"{GAME} .pyr-undo").click(force=True)  # shown as unavailable (aria-disabled)
    assert message(page) == s["refused"]["moves.undo"]


@pytest.mark.parametrize("lang", LANGS)
def test_undo_and_restart_restore_exactly(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    shots = [snapshot(page)]
    for move in winning_game[:8]:
        click_move(page, move)
        shots.append(snapshot(page))
    assert len({json.dumps(x) for x in shots}) == len(shots)
    for expected in reversed(shots[3:-1]):
        page.locator(f"{GAME} .pyr-undo").click()
        assert message(page) == s["messages"]["undone"]
        assert snapshot(page) == expected
    page.locator(f"{GAME} .pyr-restart").click()
    assert snapshot(page) == shots[0]
    assert message(page) == cap(fill(s["messages"]["restarted"], deal=WIN_DEAL))


def test_turning_back_and_its_limit(watched):
    s = strings("nb")
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    stock(page).focus()  # the keys work wherever the focus is inside the game
    turns_label = page.locator(f"{GAME} .pile-info").first  # under the stock (the other counts the waste)
    assert turns_label.inner_text().strip() == counted(s, s["board"]["turns_left"], 2)  # «2 igjen» by the arrow
    for turn_left, side_cards in ((1, 23), (0, 24)):  # after a turn the first waste card is back too
        for _ in range(side_cards):
            page.keyboard.press("d")
        assert stock(page).get_attribute("aria-label") == fill(s["aria"]["stock_turn"], turns=turn_left + 1)
        stock(page).click()
        # the last one is said in words («Det var siste vending»), not as «Vendinger igjen: 0»
        assert message(page) == cap(s["done"]["turn_last"] if turn_left == 0 else fill(s["done"]["turn"], turns=turn_left))
        assert turns_label.inner_text().strip() == (counted(s, s["board"]["turns_left"], turn_left) if turn_left
                                                    else s["board"]["turns_left_none"])
    for _ in range(24):
        page.keyboard.press("d")
    assert stock(page).get_attribute("aria-label") == s["aria"]["stock_empty"]
    stock(page).click()
    assert message(page) == cap(fill(s["refused"]["turn.limit"], turns=2))


def moves_back_to_a_win(deal: int, moves: list[str]) -> int:
    """How many moves to undo to the newest position that can be won, by the independent
    decider (winnability only goes from won to lost along a game: halve between the two)."""
    from verify.independent import decider, rules
    positions = [rules.opening(deal)]
    for move in moves:
        positions.append(rules.apply(positions[-1], move))
    can = lambda i: decider.decide(rules.to_json(positions[i])).result == "won"  # noqa: E731
    assert can(0) and not can(len(moves))
    won, lost = 0, len(moves)
    while lost - won > 1:
        mid = (won + lost) // 2
        won, lost = (mid, lost) if can(mid) else (won, mid)
    return len(moves) - won


def test_stuck_is_announced_with_what_to_do(watched, app):
    s = strings("da")
    moves = (["draw"] * 23 + ["turn"] + ["draw"] * 24 + ["turn"] + ["draw"] * 24)
    assert app.replay_from(app.opening(STUCK_DEAL), moves)["status"] == "stuck"
    w, page = open_game(watched, "da", f"#deal={STUCK_DEAL}")
    stock(page).focus()
    for move in moves:
        page.keyboard.press("d")  # D draws, or turns the waste back when the stock is empty
    assert dataset(page, "status") == "stuck"
    # The harness knows deals 1 … 40 only: whether this one could be won is not said, nor Undo offered.
    assert message(page).endswith(s["messages"]["stuck_unknown"])
    assert page.locator(f"{GAME} .pyr-message").get_attribute("data-kind") == "stuck"
    page.keyboard.press("h")  # the search finds how far back the game could still be won
    assert wait_for_hint(page) == "lost"
    assert message(page) == counted(s, s["hint"]["lost_back"], moves_back_to_a_win(STUCK_DEAL, moves))
    page.keyboard.press("u")
    assert dataset(page, "status") == "playing"


# ---------------------------------------------------------------- hint
@pytest.mark.parametrize("lang", LANGS)
def test_hint_offers_a_winning_move(watched, app, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    page.locator(f"{GAME} .pyr-hint").click()
    assert wait_for_hint(page) == "checked"
    shown = hinted_move(page)
    opening = app.opening(WIN_DEAL)
    legal = {m: set(m.split()[1:]) or {"stock"} for m in app.legal_moves(opening)}
    move = next(m for m, cards in legal.items() if cards == shown)
    assert app.solve(app.apply(opening, move))["winnable"]
    assert message(page) == cap(fill(s["hint"]["checked"], move=said_move(s, move)))
    assert any(u.endswith("/assets/core/worker.js") for u in w.requests)  # the search ran in the worker
    click_move(page, move)  # the highlight goes with the position it was for
    assert hinted_move(page) == set() and dataset(page, "hint") is None


@pytest.mark.parametrize("lang", LANGS)
def test_hint_says_a_hopeless_deal_is_lost(watched, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={LOST_DEAL}")
    focus_board(page)
    page.keyboard.press("h")
    assert wait_for_hint(page) == "lost"
    assert message(page) == s["hint"]["lost_from_start"]  # nothing to undo yet: no "undo some moves"
    assert hinted_move(page) == set()
    page.keyboard.press("d")
    page.keyboard.press("h")  # after a move too: a deal lost from the start, Undo cannot help
    assert wait_for_hint(page) == "lost"
    assert message(page) == s["hint"]["lost_from_start"]


@pytest.mark.parametrize("lang", LANGS)
def test_hint_says_when_its_search_could_not_start(watched, app, lang):
    """Offline before the site was cached, the worker's file cannot load: the quick suggestion
    is offered as unchecked for that reason, not as a search that grew too large."""
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    page.route("**/worker.js", lambda route: route.abort())
    page.locator(f"{GAME} .pyr-hint").click()
    assert wait_for_hint(page) == "unchecked"
    legal = app.legal_moves(app.opening(WIN_DEAL))
    quick = next(m for kind in ("king", "pair", "draw", "turn") for m in legal if m.startswith(kind))
    assert message(page) == cap(fill(s["hint"]["unavailable"], move=said_move(s, quick)))
    w.errors.clear()  # the refused worker file is logged by the browser, as intended here


def test_hint_search_is_stopped_when_the_position_changes(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    result = page.evaluate("""async () => {
        const { HintSearch } = await import(new URL('./assets/core/hint.js', location.href).href);
        const search = new HintSearch(new URL('./assets/core/worker.js', location.href));
        let answered = false;
        search.start({ deal: 3766, moves: [] }, () => { answered = true; });  // among the longest: 1.5 s in Node
        // the page keeps answering while the worker searches
        let worst = 0;
        for (let i = 0; i < 10; i++) {
            const t = performance.now();
            await new Promise(r => setTimeout(r, 10));
            worst = Math.max(worst, performance.now() - t);
        }
        const busy = search.busy;
        search.cancel();
        await new Promise(r => setTimeout(r, 2500));
        return { busy, answered, stopped: search.worker === null, worst };
    }""")
    assert result["busy"] and result["stopped"] and not result["answered"]
    assert result["worst"] < 250  # ms for a 10 ms timer: the page stayed responsive


# Counts the page's workers, their answers and the terminate() calls, before the game's code runs.
WORKER_WATCH = """window.pyrWorkers = { made: 0, answers: 0, terminated: 0 };
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
    constructor(...args) {
        super(...args);
        window.pyrWorkers.made++;
        this.addEventListener('message', () => { window.pyrWorkers.answers++; });
    }
    terminate() { window.pyrWorkers.terminated++; super.terminate(); }
};"""
LONG_SEARCH_DEAL = 3766  # not among the pages' known deals; its search is among the longest (1.5 s in Node)


def test_a_move_stops_the_hint_search_of_the_position_it_left(watched):
    """Hint on a deal whose search is long, then a real move (a draw) while it searches: the
    game's update() stops that search at once, so no answer about the old position ever comes."""
    w = watched()
    w.context.add_init_script(WORKER_WATCH)
    page = w.open(f"nb.html#deal={LONG_SEARCH_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    page.locator(f"{GAME} .pyr-hint").click()
    page.wait_for_function("window.pyrWorkers.made === 1")
    searching = page.evaluate("({ ...window.pyrWorkers, hint: document.querySelector('.pyramide-game').dataset.hint })")
    assert searching == {"made": 1, "answers": 0, "terminated": 0, "hint": "searching"}
    stock(page).click()
    after = page.evaluate("({ ...window.pyrWorkers, hint: document.querySelector('.pyramide-game').dataset.hint ?? null })")
    assert after == {"made": 1, "answers": 0, "terminated": 1, "hint": None}
    assert hinted_move(page) == set()


# ---------------------------------------------------------------- saved progress and links
@pytest.mark.parametrize("lang", LANGS)
def test_reload_keeps_the_game(watched, winning_game, lang):
    s = strings(lang)
    w, page = open_game(watched, lang)
    page.goto(page.url.split("#")[0] + f"#deal={WIN_DEAL}")
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{WIN_DEAL}')")
    for move in winning_game[:6]:
        click_move(page, move)
    before = snapshot(page)
    saved = json.loads(page.evaluate(f"localStorage.getItem('pyramide.game.v2.{WIN_DEAL}')"))
    assert (saved["version"], saved["deal"], saved["moves"]) == (2, WIN_DEAL, winning_game[:6])
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert snapshot(page) == before
    assert message(page) == s["messages"]["restored"]
    page.goto(page.url.split("#")[0])  # no deal link: the saved game all the same
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert snapshot(page) == before


@pytest.mark.parametrize("data", [
    "not json at all {",
    json.dumps({"version": 1, "deal": 27, "moves": ["pair 2C 2D"]}),
    json.dumps({"version": 1, "deal": 27, "moves": ["pair 7D 6C", "pair 7D 6C"]}),
    json.dumps({"version": 0, "deal": 27, "moves": []}),
    json.dumps({"version": 1, "deal": -5, "moves": []}),
    json.dumps({"version": 1, "deal": 27, "moves": "draw"}),
    json.dumps([1, 2, 3]),
    "null",
])
def test_corrupted_saved_data_starts_a_fresh_game(watched, data):
    """Old (v1) data that cannot be used: migrated to nothing, and a fresh game starts."""
    w, page = open_game(watched, "nb")
    page.evaluate("d => { localStorage.clear(); sessionStorage.clear(); localStorage.setItem('pyramide.game.v1', d); }", data)
    page.goto(page.url.split("#")[0])  # the address shows the deal: without it, as a first visit
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert deal_number(page) in POOL
    s = strings("nb")
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(s["board"]["status"], moves=0, points=0)
    assert message(page) == fill(s["messages"]["ready"], target=13)
    assert page.evaluate("localStorage.getItem('pyramide.game.v1')") is None


def test_plays_without_storage(watched, app, winning_game):
    w = watched()
    w.context.add_init_script("""Object.defineProperty(window, 'localStorage', {
        get() { throw new DOMException('storage is blocked', 'SecurityError'); } });""")
    page = w.open(f"nb.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    for move in winning_game[:4]:
        click_move(page, move)
    played = app.replay(WIN_DEAL, winning_game[:4], trace=True)["steps"][-1]["position"]
    status = strings("nb")["board"]["status"]
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(status, moves=4, points=played["points"])
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert deal_number(page) == WIN_DEAL  # the link still opens the deal, from the start
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(status, moves=0, points=0)


@pytest.mark.parametrize("lang", LANGS)
def test_deal_links(watched, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, "#deal=123456789")
    assert deal_number(page) == 123456789
    assert message(page) == cap(fill(s["messages"]["from_link"], deal=123456789))
    for bad in ("abc", "0", "4294967296"):
        page.goto(page.url.split("#")[0] + f"#deal={bad}")
        # Numbers in messages are the locale's (CLDR, as Babel writes them on the pages).
        expected = cap(fill(s["messages"]["bad_deal"], value=bad, min=format_decimal(1, locale=lang),
                            max=format_decimal(4294967295, locale=lang)))
        expected += " " + fill(s["messages"]["bad_deal_kept"], deal=123456789)
        page.wait_for_function(f"t => document.querySelector('{GAME} .pyr-message').textContent === t", arg=expected)
        assert deal_number(page) == 123456789 and page.url.endswith("#deal=123456789")  # the game goes on, in the address too
    page.locator(f"{GAME} .pyr-new-game").click()
    first = deal_number(page)
    page.locator(f"{GAME} .pyr-new-game").click()
    assert deal_number(page) in POOL and deal_number(page) != first
    assert message(page) == cap(fill(s["messages"]["new_game"], deal=deal_number(page)))


# ---------------------------------------------------------------- keyboard and access
@pytest.mark.parametrize("lang", LANGS)
def test_keyboard_only_play(watched, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    for _ in range(6):  # Tab from the top of the page to the board's one tab stop
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('.pyr-board')"):
            break
    focused = lambda: page.evaluate("document.activeElement.dataset.key")  # noqa: E731
    label = lambda: page.evaluate("document.activeElement.getAttribute('aria-label')")  # noqa: E731
    assert focused() == "p21"  # the first free card
    assert label() == f"{fill(s['aria']['card'], shown='K♦', card=card(s, 'KD'), row=7)}, {s['aria']['free']}"
    # a visible focus: the ring is drawn over the board, round the focused place (board.js)
    assert page.locator(f"{GAME} .pyr-focus-ring").is_visible()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert focused() == "p27"
    page.keyboard.press("ArrowLeft")
    assert focused() == "p26"
    page.keyboard.press("Enter")  # choose 6C
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert focused() == "p23"
    page.keyboard.press("Space")  # pair it with 7D
    assert message(page) == cap(fill(s["done"]["pair"], a=card(s, "6C"), b=card(s, "7D")))
    # focus leaves the emptied place for the nearest card in its row (of two as near, the left one)
    assert focused() == "p22"
    page.keyboard.press("ArrowLeft")
    assert focused() == "p21"
    page.keyboard.press("Enter")  # the king goes alone
    assert message(page) == cap(fill(s["done"]["king"], card=card(s, "KD")))
    assert focused() == "p22"
    page.keyboard.press("d")
    top = page.locator(f"{GAME} button[data-pile='waste']").get_attribute("data-code")
    assert message(page) == cap(fill(s["done"]["draw"], card=card(s, top)))
    page.keyboard.press("u")
    page.keyboard.press("Control+z")
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(s["board"]["status"], moves=1, points=10)
    assert focused() == "p22"  # undo brings cards back and leaves focus where it is
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.row") == "6"
    page.keyboard.press("Escape")
    # two polite live regions: the message line (role status) and the board's word on the
    # cards a move freed (said, not shown)
    live = page.locator(f"{GAME} [aria-live='polite']")
    assert live.count() == 2 and live.nth(0).get_attribute("class") == "pyr-spoken"
    assert page.locator(f"{GAME} .pyr-message").get_attribute("role") == "status"


def test_every_place_has_a_name(watched):
    for lang in LANGS:
        w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
        names = page.evaluate(f"[...document.querySelectorAll('{GAME} button.pyr-slot')].map(b => b.getAttribute('aria-label'))")
        assert len(names) == 30 and all(names)
        s = strings(lang)
        assert counted(s, s["aria"]["stock"], 23) in names
        assert counted(s, s["aria"]["waste"], 1, shown="Q♦", card=card(s, "QD")) in names


@pytest.mark.parametrize("reduce", [True, False])
def test_reduced_motion_is_respected(watched, reduce):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}", reduced_motion=reduce)
    page.locator(f"{GAME} .pyr-hint").click()
    wait_for_hint(page)
    animation = page.evaluate(f"getComputedStyle(document.querySelector('{GAME} .pyr-hint-frame')).animationName")
    assert (animation == "none") == reduce


def test_a_hint_frames_its_places_above_every_card(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    page.locator(f"{GAME} .pyr-hint").click()
    wait_for_hint(page)
    frames = page.evaluate(f"""(() => {{
        const board = document.querySelector('{GAME} .pyr-board');
        const top = Math.max(...[...board.querySelectorAll('.pyr-slot')].map((s) => Number(getComputedStyle(s).zIndex) || 0));
        const hinted = [...board.querySelectorAll('.pyr-slot.is-hinted')].map((s) => [s.style.left, s.style.top]);
        const frames = [...board.querySelectorAll('.pyr-hint-frame')].filter((f) => !f.hidden)
            .map((f) => [f.style.left, f.style.top, Number(getComputedStyle(f).zIndex)]);
        return {{top, hinted, frames}};
    }})()""")
    assert frames["hinted"], "the hint marks no place"
    assert sorted(f[:2] for f in frames["frames"]) == sorted(frames["hinted"])
    assert all(z > frames["top"] for *_, z in frames["frames"])
    page.locator(f"{GAME} .pyr-slot[data-key=stock]").click()  # a move: the frames go with the hint
    assert page.locator(f"{GAME} .pyr-slot.is-hinted").count() == 0
    assert page.locator(f"{GAME} .pyr-hint-frame").count() == 0


# ---------------------------------------------------------------- the replay
@pytest.mark.parametrize("lang", LANGS)
def test_replay_steps_through_the_example(watched, app, winning_game, lang):
    s = strings(lang)
    w = watched()
    page = w.open(f"replay-{lang}.html")
    page.wait_for_selector(".pyr-replay .pyr-board")
    assert page.locator(".pyramide-replay-fallback").is_hidden()
    caption = page.locator(".pyr-replay-caption")
    assert caption.inner_text() == s["replay"]["start"]
    board = page.locator(".pyr-replay .pyr-board")
    opening = app.opening(WIN_DEAL)
    assert board.get_attribute("role") == "img" and card(s, opening["pyramid"][0]) in board.get_attribute("aria-label")
    page.locator(".pyr-next").click()
    total = len(winning_game)
    king = winning_game[0].split()[1]
    assert caption.inner_text() == fill(s["replay"]["step"], step=1, total=total,
                                        move=cap(fill(s["done"]["king"], card=card(s, king))))
    assert page.locator(f".pyr-replay .pyr-slot.is-ghost[data-code='{king}']").count() == 1
    page.locator(".pyr-replay-stage").focus()
    page.keyboard.press("ArrowRight")
    assert caption.inner_text().startswith(fill(s["replay"]["step"], step=2, total=total, move=""))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert caption.inner_text() == s["replay"]["start"]
    turn_at = winning_game.index("turn") + 1
    page.locator(".pyr-chapter", has_text="turn").click()
    assert caption.inner_text().startswith(fill(s["replay"]["step"], step=turn_at, total=total, move=""))
    assert page.locator(".pyr-chapter", has_text="turn").get_attribute("aria-current") == "step"
    page.locator(".pyr-replay-stage").focus()
    page.keyboard.press("Space")  # play …
    page.wait_for_function(f"!document.querySelector('.pyr-replay-caption').textContent.includes(' {turn_at} ')",
                           timeout=5000)
    page.keyboard.press("Space")  # … and pause
    assert page.locator(".pyr-play").inner_text() == s["replay"]["play"]
    page.keyboard.press("End")
    assert caption.inner_text().startswith(fill(s["replay"]["step"], step=total, total=total, move=""))
    assert page.locator(".pyr-replay .pyr-slot.has-card[data-row]").count() == 0


# ---------------------------------------------------------------- how it looks
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", [360, 1280])
def test_screenshots_fit_without_sideways_scrolling(watched, winning_game, lang, width):
    ARTIFACTS.mkdir(exist_ok=True)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}", width=width)
    for move in winning_game[:5]:
        click_move(page, move)
    # A chosen card, shown lifted: the first free pyramid card after those moves, whichever it is.
    page.locator(f"{GAME} button.pyr-slot.is-free[data-key^='p']").first.click()
    page.locator(f"{GAME} .pyr-hint").click()
    wait_for_hint(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(ARTIFACTS / f"game-{lang}-{width}.png"), full_page=True)
    page = w.open(f"replay-{lang}.html")
    page.wait_for_selector(".pyr-replay .pyr-board")
    page.locator(".pyr-next").click()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(ARTIFACTS / f"replay-{lang}-{width}.png"), full_page=True)


def test_the_benchs_page_plays_hint():
    """make bench SECTION=game builds its own page around the game (bench/game_bench.py): it must
    give the game its strings as the generator does (with the locale), or the bench measures a
    page that never draws. Run apart: Playwright's sync API allows one per process."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", "from bench import game_bench; print(game_bench.hint_times([27]))"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "'answer': 'checked'" in r.stdout, r.stdout
