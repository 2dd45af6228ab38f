"""The board with the keyboard only, and what assistive technology hears, in nb and da.

The keyboard model (app/ui/board.js, told to the player in game.json board.help): the board reads
in rows from the top; the first row is the stock, the pyramid's top card and the waste; arrow
keys move between places that hold something (Left/Right in reading order, Up/Down to the
nearest row with a card), Home/End go to the stock/the waste, Enter and Space press the place.
Both worked examples (examples/*.yaml) are played to their end with key presses only: no click,
no focus() from the test, which only reads where the focus is."""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from helpers.game_harness import LANGS, PAGE, POOL, ROOT, WIN_DEAL, strings
from helpers.page_words import card, counted, fill
from generator.render.game_embed import game_html, head_html
from verify.examples import load_examples

GAME = ".pyramide-game"
EXAMPLES = {e.id: e for e in load_examples(ROOT / "examples")}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
MAX_PRESSES = 80  # more than enough arrow presses to cross the board to any place


def shown(code: str) -> str:
    """What the card face shows: its rank ("10" for T) and its suit sign."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


# ---------------------------------------------------------------- where things are
def row_and_order(key: str) -> tuple[int, int]:
    """The documented reading order: (row, position in the row); the stock and the waste
    are the first row's ends."""
    if key == "stock":
        return 1, 0
    if key == "waste":
        return 1, 99
    k, row = int(key[1:]), 1
    while k >= row:
        k -= row
        row += 1
    return row, k + 1


def focused(page) -> dict:
    """Where the focus is: the place's key, whether it is on the board and holds something."""
    return page.evaluate(f"""() => {{
        const a = document.activeElement;
        const slot = a && a.closest('{GAME} .pyr-board .pyr-slot');
        return {{ key: slot ? slot.dataset.key : null, tag: a ? a.tagName : null,
                  empty: slot ? slot.classList.contains('is-removed') : null }};
    }}""")


def key_of(page, code: str) -> str:
    return page.locator(f"{GAME} button.pyr-slot[data-code='{code}']").get_attribute("data-key")


def tab_into_board(page) -> None:
    for _ in range(8):
        page.keyboard.press("Tab")
        if focused(page)["key"]:
            return
    pytest.fail("Tab never reached the board")


def go_to(page, target: str) -> None:
    """Arrow presses only: Up/Down to the target's row, then Left/Right along it."""
    for _ in range(MAX_PRESSES):
        here = focused(page)
        assert here["key"] and not here["empty"], f"focus lost: {here}"
        if here["key"] == target:
            return
        (row, place), (to_row, to_place) = row_and_order(here["key"]), row_and_order(target)
        if row != to_row:
            page.keyboard.press("ArrowUp" if to_row < row else "ArrowDown")
        else:
            page.keyboard.press("ArrowLeft" if to_place < place else "ArrowRight")
    pytest.fail(f"arrow keys did not reach {target}; focus is on {focused(page)}")


def play_by_keys(page, move: str, press: str) -> None:
    kind, *cards = move.split()
    if kind in ("draw", "turn"):
        go_to(page, "stock")
        page.keyboard.press(press)
        return
    for code in cards:  # a king alone, a pair one card after the other
        go_to(page, key_of(page, code))
        page.keyboard.press(press)


def open_game(watched, lang: str, deal: int, **kw):
    w = watched(**kw)
    page = w.open(f"{lang}.html#deal={deal}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    return w, page


# ---------------------------------------------------------------- the worked examples
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("example_id", sorted(EXAMPLES))
def test_worked_example_played_with_keys_only(watched, lang, example_id):
    example = EXAMPLES[example_id]
    s = strings(lang)
    w, page = open_game(watched, lang, example.deal)
    tab_into_board(page)
    for number, move in enumerate(example.game, 1):
        play_by_keys(page, move.text, "Enter" if number % 2 else " ")
        score = page.locator(f"{GAME} .pyr-score").inner_text()
        assert re.fullmatch(fill(s["board"]["status"], moves=number, points=r"[\d\u00a0.]+"), score), (number, move.text)
        if number == len(example.game) and example.final["status"] == "won":
            # the win: focus goes to New game, what a winner does next
            assert page.evaluate("document.activeElement.classList.contains('pyr-end-new')"), number
            continue
        here = focused(page)  # after every move, focus is on a place that holds something
        if page.evaluate(f"document.querySelector('{GAME}').dataset.status") == "won":  # but the win's panel: New game
            assert "pyr-end-new" in page.evaluate("document.activeElement.className"), (number, move.text)
            continue
        assert here["key"] and not here["empty"], (number, move.text, here)

    final = example.final
    assert page.evaluate(f"document.querySelector('{GAME}').dataset.status") == final["status"]
    assert page.locator(f"{GAME} .pyr-score").inner_text() == fill(
        s["board"]["status"], moves=final["moves"], points=final["points"])
    left = page.locator(f"{GAME} button.pyr-slot.has-card[data-row]").count()
    assert left == 28 - final["pyramid_removed"]
    stock = page.locator(f"{GAME} button[data-pile='stock']").get_attribute("aria-label")
    if final["stock"]:
        assert stock == counted(s, s["aria"]["stock"], final["stock"])
    waste = page.locator(f"{GAME} button[data-pile='waste']")
    if final["waste"]:
        top = waste.get_attribute("data-code")
        assert waste.get_attribute("aria-label").startswith(
            counted(s, s["aria"]["waste"], final["waste"], shown=shown(top), card=card(s, top)))
    if final["status"] == "won":
        won = fill(s["messages"]["won"], points=counted(s, s["counts"]["points"], final["points"]), moves=counted(s, s["counts"]["moves"], final["moves"]))
        assert page.locator(f"{GAME} .pyr-message").inner_text().strip().endswith(won)


def test_worked_examples_need_the_waste_top(app):
    """The keyboard test above plays a pair with the waste top (it was out of reach before)."""
    def uses_waste(example):
        position = app.opening(example.deal)
        for move in example.game:
            kind, *cards = move.text.split()
            if kind == "pair" and position["waste"] and position["waste"][-1] in cards:
                return True
            position = app.apply(position, move.text)
        return False
    assert any(uses_waste(e) for e in EXAMPLES.values())


# ---------------------------------------------------------------- the model, key by key
def test_every_place_is_reachable_from_the_opening(watched):
    """Tab enters on the first free card (the bottom row's first); Home, End, and the arrows
    reach the piles and back."""
    w, page = open_game(watched, "nb", WIN_DEAL)
    tab_into_board(page)
    assert focused(page)["key"] == "p21"
    page.keyboard.press("Home")
    assert focused(page)["key"] == "stock"
    page.keyboard.press("ArrowRight")
    assert focused(page)["key"] == "p0"
    page.keyboard.press("ArrowRight")
    assert focused(page)["key"] == "waste"
    page.keyboard.press("ArrowRight")  # past the first row's end, into the second
    assert focused(page)["key"] == "p1"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert focused(page)["key"] == "p0"
    page.keyboard.press("End")
    assert focused(page)["key"] == "waste"
    page.keyboard.press("ArrowDown")  # the nearest card across, in the row below
    assert focused(page)["key"] == "p2"
    page.keyboard.press("Home")
    seen = set()
    for _ in range(40):  # Right from the stock walks every place that holds something
        seen.add(focused(page)["key"])
        page.keyboard.press("ArrowRight")
    assert seen | {focused(page)["key"]} == {f"p{k}" for k in range(28)} | {"stock", "waste"}


@pytest.mark.parametrize("lang", LANGS)
def test_waste_top_is_chosen_with_a_key(watched, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, WIN_DEAL)
    tab_into_board(page)
    page.keyboard.press("End")
    page.keyboard.press(" ")
    waste = page.locator(f"{GAME} button[data-pile='waste']")
    top = waste.get_attribute("data-code")
    assert waste.get_attribute("aria-pressed") == "true"
    said = page.locator(f"{GAME} .pyr-message").inner_text().strip()
    expected = fill(s["messages"]["selected"], card=card(s, top), target=13)
    assert said == expected[:1].upper() + expected[1:]


def test_focus_ring_is_whole_over_a_covered_card(watched):
    w, page = open_game(watched, "da", WIN_DEAL)
    tab_into_board(page)
    page.keyboard.press("ArrowUp")  # row 6: covered by two cards of row 7
    key = focused(page)["key"]
    assert row_and_order(key)[0] == 6
    geometry = page.evaluate(f"""() => {{
        const ring = document.querySelector('{GAME} .pyr-focus-ring');
        const slot = document.activeElement;
        const r = ring.getBoundingClientRect(), s = slot.getBoundingClientRect();
        const slots = [...document.querySelectorAll('{GAME} .pyr-slot')].map(x => Number(getComputedStyle(x).zIndex) || 0);
        const style = getComputedStyle(ring);
        return {{ ring: [r.x, r.y, r.width, r.height], slot: [s.x, s.y, s.width, s.height],
                  ringZ: Number(style.zIndex), topSlotZ: Math.max(...slots), shadow: style.boxShadow,
                  covered: slot.classList.contains('is-covered') }};
    }}""")
    assert geometry["covered"]
    assert geometry["ring"] == pytest.approx(geometry["slot"], abs=0.5)  # round the whole card
    assert geometry["ringZ"] > geometry["topSlotZ"]  # above the cards that cover it
    # two bands: a dark one for the white cards, a light one for the felt
    colours = re.findall(r"rgb\((\d+), (\d+), (\d+)\)", geometry["shadow"])
    assert ("17", "17", "17") in colours and ("255", "213", "79") in colours
    page.screenshot(path=str(_artifacts() / "focus-covered-1280.png"))


# ---------------------------------------------------------------- names
@pytest.mark.parametrize("lang", LANGS)
def test_names_start_with_what_the_card_shows(watched, app, lang):
    # «Q♥ hjerter dame, rad 4, fri»: the name starts with the face the card shows, so a voice
    # control user can say what they see (WCAG 2.5.3, label in name; axe's
    # label-content-name-mismatch below). Language review 2 asked for the name read once; the
    # visible label must be in the name, so the face stays.
    s = strings(lang)
    w, page = open_game(watched, lang, WIN_DEAL)
    opening = app.opening(WIN_DEAL)
    names = dict(page.evaluate(f"[...document.querySelectorAll('{GAME} button.pyr-slot')]"
                               ".map(b => [b.dataset.key, b.getAttribute('aria-label')])"))
    for k, code in enumerate(opening["pyramid"]):
        assert names[f"p{k}"].startswith(f"{shown(code)} {card(s, code)}, "), names[f"p{k}"]
    top = opening["waste"][-1]
    assert names["waste"].startswith(f"{shown(top)} {card(s, top)}")
    assert names["stock"].startswith(str(len(opening["stock"])))  # the number on its back


def _artifacts():
    folder = ROOT / "test-artifacts" / "board"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ---------------------------------------------------------------- axe-core
AXE_OPTIONS = {"resultTypes": ["violations"],
               # off by default (experimental), and exactly what the card names must satisfy
               "rules": {"label-content-name-mismatch": {"enabled": True}}}


@pytest.fixture(scope="module")
def main_pages(site):
    """The harness pages with their content in a <main> landmark, as on the site (axe asks for
    one per page; the bare harness page has none)."""
    for lang in LANGS:
        body = game_html(lang, strings(lang), POOL, "assets")
        page = PAGE.replace("<body>", "<body><main>").replace("</body>", "</main></body>")
        (site / f"main-{lang}.html").write_text(page.format(lang=lang, head=head_html("assets"), body=body),
                                                encoding="utf-8")
    return site


@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_nothing_on_the_game(watched, main_pages, lang):
    w = watched()
    page = w.open(f"main-{lang}.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    tab_into_board(page)
    for move in ["king KD", "pair 7D 6C", "draw"]:
        play_by_keys(page, move, "Enter")
    go_to(page, key_of(page, "4S"))
    page.keyboard.press("Enter")  # a card chosen, the focus ring shown
    assert page.locator(f"{GAME} .pyr-slot[aria-pressed='true']").count() == 1
    results = Axe().run(page, options=AXE_OPTIONS)
    violations = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]]
    assert violations == [], "\n".join(map(str, violations))
