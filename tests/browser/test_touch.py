"""Touch like a card table (issue 43, item 3), on a phone-sized Chromium with touch: a finger drags a
free card onto its partner and the pair goes, the page not panning under it; dropped on the felt or
on a card it does not pair with, the card goes back and nothing is played; a finger on a covered
card still scrolls the page. Under stock-top the stock's face-up card is chosen by a tap like any
free card, in either order, and drawn by a second tap; the rules in play are named at the board.
The fingers are touch events sent through the DevTools protocol (Input.dispatchTouchEvent), which
Chromium turns into pointer events as a phone's screen does, touch-action and all."""
from __future__ import annotations

import json

import pytest

from helpers.game_harness import LANGS, WIN_DEAL, strings
from helpers.game_page import GAME, message, slot, stock
from helpers.page_words import cap, card, counted, fill
from helpers.settle import settle
from helpers.variant_pages import names, variant_pages, variant_pools  # noqa: F401  (fixtures)

# Deal 27 as dealt: the bottom row is K♦ 4♠ 7♦ A♦ 10♣ 6♣ J♥, the waste Q♦ (A♦ + Q♦ = 13, 4♠ + 7♦ = 11).
ACE, WASTE, FOUR, SEVEN = "AD", "QD", "4S", "7D"
# Deal 3 under stock-top: the stock's face-up card 6♦ pairs with 7♥ of the bottom row; K♥ and 4♥ follow it.
STOCK_TOP_DEAL, STOCK_CARD, PARTNER, NEXT_KING, THEN = 3, "6D", "7H", "KH", "4H"


@pytest.fixture
def phone(browser, server):
    """Opens a harness page on a 390 x 844 phone with a touch screen; no page error allowed."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  reduced_motion="reduce")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def open_page(path: str):
        page.goto(f"{server}/{path}")
        page.wait_for_selector(f"{GAME} .pyr-board")
        return page

    yield open_page
    context.close()
    assert not errors


def finger(page, points: list[tuple[float, float]]) -> None:
    """One finger put down at the first point, moved through the others and lifted."""
    cdp = page.context.new_cdp_session(page)
    (x, y), *rest = points
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for x, y in rest:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    settle(page)  # raw input, not Playwright's: the game acts on the drop in a task after it


def on(locator, down: float = .7) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * down


def path(a, b, steps: int = 10) -> list[tuple[float, float]]:
    return [(a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps) for i in range(steps + 1)]


def saved_moves(page, key: str) -> list[str]:
    """The game's saved moves, a pair's two cards in the order of pair(): the engine writes its own."""
    record = page.evaluate(f"localStorage.getItem('pyramide.game.v2.{key}')")
    moves = json.loads(record)["moves"] if record else []
    return [pair(*m.split()[1:]) if m.startswith("pair ") else m for m in moves]


def pair(a: str, b: str) -> str:
    return f"pair {min(a, b)} {max(a, b)}"


def open_mid_page(phone):
    """Deal 27 with the page scrolled a little, so that a pan would move it either way (text follows
    the game on the site's pages; here a margin stands in for it)."""
    page = phone(f"nb.html#deal={WIN_DEAL}")
    page.evaluate("document.body.style.paddingBottom = '800px'; window.scrollTo(0, 40)")
    assert page.evaluate("scrollY") == 40 and page.evaluate("document.documentElement.scrollHeight > innerHeight + 200")
    return page


def test_a_finger_drags_a_free_card_onto_its_partner_without_panning_the_page(phone):
    page = open_mid_page(phone)
    # the ace of the bottom row dragged up onto the waste's queen: the drag runs over the board
    finger(page, path(on(slot(page, ACE)), on(page.locator(f"{GAME} button[data-pile='waste']"))))
    assert saved_moves(page, str(WIN_DEAL)) == [pair(ACE, WASTE)], message(page)
    assert slot(page, ACE).count() == 0
    assert page.evaluate("scrollY") == 40, "the page panned under the finger"


def test_a_card_dropped_outside_a_partner_goes_back(phone):
    s = strings("nb")
    page = open_mid_page(phone)
    four = slot(page, FOUR)
    start = on(four)
    board = page.locator(f"{GAME} .pyr-board").bounding_box()
    finger(page, path(start, (start[0], board["y"] + board["height"] * .35)))  # onto the felt
    assert saved_moves(page, str(WIN_DEAL)) == [] and page.evaluate("scrollY") == 40
    finger(page, path(start, on(slot(page, SEVEN))))  # onto a card it does not pair with (4 + 7 = 11)
    assert saved_moves(page, str(WIN_DEAL)) == []
    assert message(page) == cap(fill(s["refused"]["pair.thirteen"], a=card(s, FOUR), b=card(s, SEVEN), sum=11, target=13))
    # back where it lay, not carried, not chosen
    assert on(four) == start
    assert "is-dragged" not in four.get_attribute("class") and four.get_attribute("aria-pressed") == "false"
    assert page.evaluate(f"document.querySelector('{GAME} .is-drop-target')") is None


def test_a_finger_on_a_covered_card_still_scrolls_the_page(phone):
    page = open_mid_page(phone)
    top = page.locator(f"{GAME} .pyr-slot[data-key='p0']")
    finger(page, path(on(top, down=.2), (on(top)[0], on(top)[1] + 150), steps=20))  # from a covered card, down
    page.wait_for_function("scrollY < 40")
    assert saved_moves(page, str(WIN_DEAL)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_stock_top_card_is_chosen_by_a_tap_and_the_rules_are_named(phone, variant_pages, lang):
    s = strings(lang)
    page = phone(f"{variant_pages[lang]}#deal={STOCK_TOP_DEAL}&rules=stock-top")
    key = f"stock-top.{STOCK_TOP_DEAL}"
    named = page.locator(f"{GAME} .pyr-rules-in-play")
    assert named.is_visible() and named.inner_text() == fill(s["variants"]["current"], name=names(lang)["stock-top"])
    assert stock(page).get_attribute("data-code") == STOCK_CARD
    # Its name says what a tap does there: choose it, a second tap draws it (review 3, E3).
    assert stock(page).get_attribute("aria-label") == f"{card(s, STOCK_CARD)}, " + counted(s, s["aria"]["stock_top"], 23)
    # The stock's card first: chosen, as any free card is; then its partner makes the pair.
    stock(page).tap()
    assert stock(page).get_attribute("aria-pressed") == "true" and saved_moves(page, key) == []
    assert message(page) == cap(fill(s["messages"]["selected_stock"], card=card(s, STOCK_CARD), target=13))
    slot(page, PARTNER).tap()
    assert saved_moves(page, key) == [pair(STOCK_CARD, PARTNER)]
    # The other order gives the same pair.
    page.keyboard.press("u")
    assert saved_moves(page, key) == []
    slot(page, PARTNER).tap()
    stock(page).tap()
    assert saved_moves(page, key) == [pair(STOCK_CARD, PARTNER)]
    # A king on the stock goes at one tap; a card tapped twice goes to the waste (drawn).
    assert stock(page).get_attribute("data-code") == NEXT_KING
    stock(page).tap()
    assert stock(page).get_attribute("data-code") == THEN
    stock(page).tap()
    stock(page).tap()
    assert saved_moves(page, key)[-2:] == [f"king {NEXT_KING}", "draw"]
    assert page.locator(f"{GAME} button[data-pile='waste']").get_attribute("data-code") == THEN
    assert stock(page).get_attribute("aria-pressed") == "false"
    # The app's own rules are not named.
    page.goto(page.url.split("#")[0] + f"#deal={WIN_DEAL}")
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert named.is_hidden()
