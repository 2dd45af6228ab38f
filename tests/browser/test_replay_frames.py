"""The replay uses the static pictures it is sent (app/ui/replay.js): each chapter's figure becomes
the frame shown at that chapter's step, the board draws the steps between, and without
JavaScript every picture is there to read."""
from __future__ import annotations

import pytest

from helpers.game_harness import LANGS, PAGE, WIN_DEAL, strings
from generator.render.game_embed import head_html, replay_html

STAGE = ".pyr-replay-stage"


def figure(i: int, title: str) -> str:
    # The board's own shape (752 × 552), as generator/render/svg.py draws every picture.
    return (f'<p class="chapter-title"><strong>{title}</strong></p>\n\n'
            f'<figure class="pyramid-figure" data-chapter="{i}"><svg xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 752 552" width="100%"><title>picture {i}</title><rect width="752" height="552" fill="#e9f1ea"/>'
            f'</svg><figcaption>picture {i}</figcaption></figure>')


@pytest.fixture(scope="module")
def chapters(winning_game):
    # Start, the first turn of the stock, the end: steps 0, k and the last.
    return [{"title": "Start", "move_index": 0},
            {"title": "turn", "move_index": winning_game.index("turn") + 1},
            {"title": "Slutt", "move_index": len(winning_game)}]


@pytest.fixture(scope="module")
def pages(site, winning_game, chapters):
    for lang in LANGS:
        fallback = "\n\n".join(figure(i, c["title"]) for i, c in enumerate(chapters))
        data = {"deal": WIN_DEAL, "moves": winning_game, "chapters": chapters}
        body = replay_html(lang, strings(lang), data, "assets", fallback) + "<p id='after'>after</p>"
        (site / f"replay-frames-{lang}.html").write_text(
            PAGE.format(lang=lang, head=head_html("assets"), body=body), encoding="utf-8")
    return site


def shown(page) -> list[str]:
    """The chapter numbers of the figures visible on the page."""
    return page.eval_on_selector_all("figure", "fs => fs.filter(f => f.checkVisibility()).map(f => f.dataset.chapter)")


@pytest.mark.parametrize("lang", LANGS)
def test_each_chapter_picture_is_the_frame_of_its_step(watched, pages, chapters, lang):
    w = watched(width=360)
    page = w.open(f"replay-frames-{lang}.html")
    page.wait_for_selector(".pyr-replay")
    board = page.locator(f"{STAGE} .pyr-board")
    # Every picture sent is kept; the opening's is now the stage's frame, and the others wait in
    # the hidden fallback until their step is first shown (the page's load moves one, not all).
    assert page.locator("figure").count() == len(chapters)
    assert page.locator(f"{STAGE} figure.pyr-frame").count() == 1
    assert shown(page) == ["0"] and board.is_hidden()
    frame_box = page.locator("figure[data-chapter='0'] svg").bounding_box()
    after = page.locator("#after").bounding_box()["y"]

    page.locator(".pyr-next").click()  # a step between chapters: the board draws it, same size
    assert shown(page) == [] and board.is_visible()
    board_box = board.bounding_box()
    assert abs(board_box["height"] - frame_box["height"]) <= 1 and abs(board_box["width"] - frame_box["width"]) <= 1
    assert page.locator("#after").bounding_box()["y"] == after  # nothing below jumps

    page.locator(".pyr-chapter", has_text="turn").click()
    assert shown(page) == ["1"] and board.is_hidden()
    page.keyboard.press("End")
    assert shown(page) == ["2"] and board.is_hidden()
    page.keyboard.press("ArrowLeft")
    assert shown(page) == [] and board.is_visible()
    # The picture keeps its own name; its caption steps aside for the replay's.
    assert page.locator("figure[data-chapter='2'] svg title").text_content() == "picture 2"
    page.keyboard.press("End")
    assert page.locator("figure[data-chapter='2'] figcaption").is_hidden()
    # Each chapter shown once: every picture is a frame in the stage, none lost or copied.
    assert page.locator(f"{STAGE} figure.pyr-frame").count() == len(chapters) == page.locator("figure").count()


@pytest.mark.parametrize("lang", LANGS)
def test_without_javascript_every_picture_is_shown(browser, server, pages, chapters, lang):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{server}/replay-frames-{lang}.html")
        assert shown(page) == [str(i) for i in range(len(chapters))]
        assert page.locator(".chapter-title").count() == len(chapters)
        assert page.locator(".chapter-title").first.is_visible()
    finally:
        context.close()


def test_pictures_that_do_not_match_the_chapters_stay_where_they_are(watched, site, winning_game, chapters):
    """One picture too few: no frames (which step would each be?), the pictures stay visible."""
    fallback = "\n\n".join(figure(i, c["title"]) for i, c in enumerate(chapters[:-1]))
    data = {"deal": WIN_DEAL, "moves": winning_game, "chapters": chapters}
    (site / "replay-frames-odd.html").write_text(
        PAGE.format(lang="nb", head=head_html("assets"), body=replay_html("nb", strings("nb"), data, "assets", fallback)),
        encoding="utf-8")
    w = watched()
    page = w.open("replay-frames-odd.html")
    page.wait_for_selector(".pyr-replay .pyr-board")
    assert page.locator(f"{STAGE} figure").count() == 0 and shown(page) == ["0", "1"]


@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_every_picture_is_back_in_order_under_its_title(watched, pages, chapters, lang):
    w = watched(width=1280)
    page = w.open(f"replay-frames-{lang}.html")
    page.wait_for_selector(".pyr-replay")
    page.locator(".pyr-chapter", has_text="turn").click()
    page.locator(".pyr-chapter").last.click()  # two pictures moved into the stage besides the opening's
    assert page.locator(f"{STAGE} figure.pyr-frame").count() == len(chapters)
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    # The fallback's own order again (the site's print stylesheet shows it: test_site_browser),
    # each chapter's title, then its picture, none of them hidden.
    order = page.eval_on_selector_all(".pyramide-replay-fallback > *",
                                      "es => es.filter(e => !e.hidden).map(e => e.dataset.chapter ?? e.textContent)")
    assert order == [x for i, c in enumerate(chapters) for x in (c["title"], str(i))]
    assert page.locator(f"{STAGE} figure").count() == 0
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    assert shown(page) == [str(len(chapters) - 1)]  # the step it was on, in the stage again


def test_a_game_the_engine_refuses_gives_the_pictures_back_at_its_first_step(watched, site, winning_game, chapters):
    """The engine replays the moves only when a step first needs a position (the opening is a
    picture): a move it refuses, which only a broken build could send, then puts every picture
    back under its title and takes the player away, for good."""
    broken = ["king 2C"] + winning_game[1:]  # no king: refused at the first move
    fallback = "\n\n".join(figure(i, c["title"]) for i, c in enumerate(chapters))
    data = {"deal": WIN_DEAL, "moves": broken, "chapters": chapters}
    (site / "replay-frames-refused.html").write_text(
        PAGE.format(lang="nb", head=head_html("assets"), body=replay_html("nb", strings("nb"), data, "assets", fallback)),
        encoding="utf-8")
    w = watched(width=360)
    page = w.open("replay-frames-refused.html")
    page.wait_for_selector(".pyr-replay")
    assert shown(page) == ["0"]  # mounted: the opening needs no replay
    page.locator(".pyr-next").click()
    assert page.locator(".pyr-replay").count() == 0
    assert shown(page) == [str(i) for i in range(len(chapters))]
    order = page.eval_on_selector_all(".pyramide-replay-fallback > *", "es => es.map(e => e.dataset.chapter ?? e.textContent)")
    assert order == [x for i, c in enumerate(chapters) for x in (c["title"], str(i))]
    assert page.locator(".pyramide-replay-fallback").is_visible()
