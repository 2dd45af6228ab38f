"""The board on the page: it stays under the site's header, search and drawer; it leaves room
for the message line and the buttons on one screen; a refused pair shows on the cards.

The stacking and the room are measured on the real built site (the nb and da front pages hold
the game), the refusal cue on the harness page. Screenshots go to test-artifacts/board/."""
from __future__ import annotations

import pytest

from helpers.game_harness import LANGS, ROOT, WIN_DEAL

GAME = ".pyramide-game"
SIZES = [(360, 740), (1280, 800)]
SEARCH_WORDS = {"nb": "kastebunke", "da": "afkastbunke"}


def artifacts():
    folder = ROOT / "test-artifacts" / "board"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def front_page(browser, url: str, lang: str, width: int, height: int, reduced_motion: bool = True):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  reduced_motion="reduce" if reduced_motion else "no-preference")
    page = context.new_page()
    page.goto(f"{url}/{lang}/#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    return context, page


def scroll_board_to(page, top: float) -> None:
    """Scrolls so that the board's top edge is `top` px from the window's top."""
    page.evaluate(f"""t => window.scrollBy(0, document.querySelector('{GAME} .pyr-board')
                                               .getBoundingClientRect().top - t)""", top)


def on_top(page, selector: str, x: float, y: float) -> bool:
    """Whether what the reader sees at (x, y) belongs to `selector`."""
    return page.evaluate("([s, x, y]) => !!document.elementFromPoint(x, y)?.closest(s)", [selector, x, y])


# ---------------------------------------------------------------- stacking
@pytest.mark.parametrize("width, height", SIZES)
def test_board_stays_under_the_header(browser, site_url, width, height):
    context, page = front_page(browser, site_url, "nb", width, height)
    header = page.locator(".md-header").bounding_box()
    scroll_board_to(page, header["height"] / 2 - page.locator(f"{GAME} .pyr-board").bounding_box()["height"] / 2)
    board = page.locator(f"{GAME} .pyr-board").bounding_box()
    assert board["y"] < 0 < board["y"] + board["height"] and board["y"] + board["height"] > header["height"]
    # every point of the header that lies over the board shows the header, never a card
    y = header["y"] + header["height"] / 2
    xs = [board["x"] + board["width"] * f for f in (0.05, 0.25, 0.5, 0.75, 0.95)]
    covered = [x for x in xs if not on_top(page, ".md-header", x, y)]
    assert covered == [], f"cards over the header at x={covered}"
    page.screenshot(path=str(artifacts() / f"under-header-{width}.png"))
    context.close()


def test_drawer_opens_over_the_board_and_its_links_work(browser, site_url):
    context, page = front_page(browser, site_url, "nb", 360, 740)
    scroll_board_to(page, 60)
    page.locator("label.md-header__button[for='__drawer']").click()
    drawer = page.locator(".md-sidebar--primary")
    page.wait_for_function("document.querySelector('.md-sidebar--primary').getBoundingClientRect().right > 200")
    page.wait_for_timeout(300)  # the drawer's slide-in transition
    links = drawer.locator("a.md-nav__link[href]:not([href^='#'])")
    board = page.locator(f"{GAME} .pyr-board").bounding_box()
    over_board = []
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        if box and board["y"] < box["y"] + box["height"] / 2 < board["y"] + board["height"]:
            over_board.append(i)
            assert on_top(page, ".md-sidebar--primary", box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert over_board, "no drawer link lies over the board: the test measured nothing"
    page.screenshot(path=str(artifacts() / "drawer-360.png"))
    link = links.nth(over_board[-1])
    href = link.get_attribute("href")
    link.click()  # a real click, at the link's middle, over the board
    page.wait_for_load_state()
    assert page.url.rstrip("/").endswith(href.strip("./").rstrip("/").split("/")[-1])
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_search_results_cover_the_board(browser, site_url, lang):
    context, page = front_page(browser, site_url, lang, 1280, 800)
    scroll_board_to(page, 80)
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").type(SEARCH_WORDS[lang], delay=60)  # the theme reads key events
    item = page.locator(".md-search-result__item").first
    item.wait_for(timeout=15000)
    box, board = item.bounding_box(), page.locator(f"{GAME} .pyr-board").bounding_box()
    # the middle of the part of the first result that lies over the board
    left, right = max(box["x"], board["x"]), min(box["x"] + box["width"], board["x"] + board["width"])
    top, bottom = max(box["y"], board["y"]), min(box["y"] + box["height"], board["y"] + board["height"])
    assert left < right and top < bottom, "the results do not lie over the board: the test measured nothing"
    assert on_top(page, ".md-search", (left + right) / 2, (top + bottom) / 2)
    page.screenshot(path=str(artifacts() / f"search-{lang}-1280.png"))
    context.close()


# ---------------------------------------------------------------- room for the feedback
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width, height", SIZES)
def test_message_and_buttons_are_seen_with_the_board(browser, site_url, lang, width, height):
    context, page = front_page(browser, site_url, lang, width, height)
    scroll_board_to(page, 0)
    assert page.locator(f"{GAME} .pyr-board").bounding_box()["y"] == pytest.approx(0, abs=1)
    for part in ("> .pyr-message", "> .pyr-buttons:not(.pyr-solution-controls)"):
        box = page.locator(f"{GAME} {part}").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= height, (part, box)
    board = page.locator(f"{GAME} .pyr-board").bounding_box()
    assert board["width"] >= min(width - 48, 600)  # still a big board, not a stamp
    page.screenshot(path=str(artifacts() / f"site-{lang}-{width}.png"))
    context.close()


# ---------------------------------------------------------------- the refusal on the cards
@pytest.mark.parametrize("reduce", [True, False])
def test_refused_pair_shows_on_both_cards(watched, reduce):
    w = watched(reduced_motion=reduce)
    page = w.open(f"nb.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    page.locator(f"{GAME} button.pyr-slot[data-code='4S']").click()
    page.locator(f"{GAME} button.pyr-slot[data-code='7D']").click()  # 4 + 7: refused
    refused = page.evaluate(f"[...document.querySelectorAll('{GAME} .pyr-slot.is-refused')].map(b => b.dataset.code)")
    assert sorted(refused) == ["4S", "7D"]
    frames = page.locator(f"{GAME} .pyr-refused")
    assert frames.count() == 2 and all(frames.nth(i).is_visible() for i in range(2))
    animation = page.evaluate(f"getComputedStyle(document.querySelector('{GAME} .pyr-refused')).animationName")
    assert (animation == "none") == reduce  # no movement when the reader asked for none
    page.wait_for_function(f"!document.querySelector('{GAME} .pyr-refused')", timeout=5000)  # it goes again


@pytest.mark.parametrize("width", [360, 1280])
def test_screenshots_of_the_board(watched, width):
    w = watched(width=width)
    page = w.open(f"nb.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    folder = artifacts()
    page.screenshot(path=str(folder / f"opening-{width}.png"), full_page=True)
    page.locator(f"{GAME} button.pyr-slot[data-code='6C']").click()
    page.screenshot(path=str(folder / f"selected-{width}.png"), full_page=True)
    page.keyboard.press("Escape")  # the clicked card keeps the focus; from here on, keys
    page.keyboard.press("ArrowUp")  # a covered card in row 6
    assert page.evaluate("document.activeElement.classList.contains('is-covered')")
    assert page.locator(f"{GAME} .pyr-focus-ring").is_visible()
    page.screenshot(path=str(folder / f"focus-{width}.png"), full_page=True)
    page.locator(f"{GAME} button.pyr-slot[data-code='4S']").click()
    page.locator(f"{GAME} button.pyr-slot[data-code='7D']").click()  # 4 + 7: refused
    page.screenshot(path=str(folder / f"refused-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
