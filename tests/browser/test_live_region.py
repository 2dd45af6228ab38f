"""What the game says reaches a screen reader through its one live region (app/ui/game.js render()):
written once per action and whole (the move that wins is said with the win, never in two
pieces), and written again when an action repeats the last words, so that they are said again."""
from __future__ import annotations

from helpers.game_harness import WIN_DEAL, strings
from helpers.page_words import cap, card, counted, fill

GAME = ".pyramide-game"

# Every write to the live region, in order: the text each one put there.
RECORD_WRITES = f"""() => {{
    const line = document.querySelector('{GAME} .pyr-message');
    window.liveWrites = [];
    new MutationObserver((records) => {{
        for (const r of records) window.liveWrites.push(r.addedNodes.length ? r.addedNodes[0].textContent : '');
    }}).observe(line, {{ childList: true, characterData: true, subtree: true }});
}}"""


def writes(page) -> list[str]:
    """The writes since the last call."""
    return page.evaluate("window.liveWrites.splice(0)")


def slot(page, code: str):
    return page.locator(f"{GAME} button.pyr-slot[data-code='{code}']")


def stock(page):
    return page.locator(f"{GAME} button[data-pile='stock']")


def open_game(watched):
    w = watched()
    page = w.open(f"nb.html#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    page.evaluate(RECORD_WRITES)
    return page


def test_the_same_words_are_said_again(watched, app):
    s = strings("nb")
    page = open_game(watched)
    opening = app.opening(WIN_DEAL)
    covered = opening["pyramid"][15]  # row 6: under two cards, 21 and 22 in row 7
    refused = cap(fill(s["refused"]["free.covered_two"], card=card(s, covered),
                       a=card(s, opening["pyramid"][21]), b=card(s, opening["pyramid"][22])))
    for _ in range(2):
        box = slot(page, covered).bounding_box()
        slot(page, covered).click(position={"x": box["width"] / 2, "y": 4})  # its strip above the covering cards
        assert writes(page) == [refused]
    slot(page, "6C").click()
    assert writes(page) == [cap(fill(s["messages"]["selected"], card=card(s, "6C"), target=13))]
    page.keyboard.press("Escape")
    assert writes(page) == [s["messages"]["deselected"]]
    page.keyboard.press("Escape")  # nothing chosen: nothing happens, nothing is said
    assert writes(page) == []


def test_each_action_is_said_once_and_whole(watched, app, winning_game):
    s = strings("nb")
    page = open_game(watched)
    for move in winning_game:
        kind, *cards = move.split()
        if kind in ("draw", "turn"):
            stock(page).click()
            assert len(writes(page)) == 1, move
        for code in cards:  # a pair's first card is chosen (said), its second plays the pair (said)
            slot(page, code).click()
            assert len(writes(page)) == 1, move
    final = app.replay_from(app.opening(WIN_DEAL), winning_game)
    won = fill(s["messages"]["won"], points=counted(s, s["counts"]["points"], final["points"]), moves=counted(s, s["counts"]["moves"], final["moves"]))
    assert page.locator(f"{GAME} .pyr-message").text_content().endswith(f" {won}")  # the last move, then the win
    page.keyboard.press("Escape")  # the end panel over the board closes; closing it says nothing
    assert not page.locator(f"{GAME} .pyr-end").is_visible() and writes(page) == []
    for _ in range(2):
        stock(page).click()
        assert writes(page) == [s["messages"]["already_won"]]
