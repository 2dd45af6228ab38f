"""Driving the game on a page, the harness's or the site's: its places and stock, its message and
data, a move by clicks, the hint waited for, the board as it shows."""
from __future__ import annotations

import re

from helpers.page_words import card, fill

GAME = ".pyramide-game"


def open_game(watched, lang: str, fragment: str = "", **kw):
    w = watched(**kw)
    page = w.open(f"{lang}.html{fragment}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    return w, page


def slot(page, code: str):
    return page.locator(f"{GAME} button.pyr-slot[data-code='{code}']")


def stock(page):
    return page.locator(f"{GAME} button[data-pile='stock']")


def click_move(page, move: str) -> None:
    kind, *cards = move.split()
    if kind in ("draw", "turn"):
        stock(page).click()
    else:
        for code in cards:
            slot(page, code).click()


def click_top(locator) -> None:
    """Clicks the strip of a card that shows above the cards covering it."""
    box = locator.bounding_box()
    locator.click(position={"x": box["width"] / 2, "y": 4})


def said_move(s: dict, move: str) -> str:
    kind, *cards = move.split()
    names = [card(s, c) for c in cards]
    return fill(s["moves"][kind], **dict(zip("ab", names)), **({"card": names[0]} if names else {}))


def focus_board(page) -> None:
    page.locator(f"{GAME} .pyr-slot[tabindex='0']").focus()


def message(page) -> str:
    return page.locator(f"{GAME} .pyr-message").inner_text().strip()


def dataset(page, name: str):
    return page.evaluate(f"document.querySelector('{GAME}').dataset.{name} ?? null")


def snapshot(page) -> dict:
    """Everything the board and status line show: each place's classes, name and card."""
    return page.evaluate(f"""() => {{
        const g = document.querySelector('{GAME}');
        return {{
            slots: [...g.querySelectorAll('.pyr-slot')].map(b => [b.dataset.key, b.className,
                     b.getAttribute('aria-label'), b.dataset.code ?? null, b.innerHTML]),
            labels: [...g.querySelectorAll('.pyr-label')].map(l => l.textContent),
            score: g.querySelector('.pyr-score').textContent,
            deal: g.querySelector('.pyr-deal').textContent,
        }};
    }}""")


def deal_number(page) -> int:
    return int(re.search(r"\d+", page.locator(f"{GAME} .pyr-deal").inner_text()).group())


def wait_for_hint(page) -> str:
    page.wait_for_function(f"['checked','lost','unchecked'].includes(document.querySelector('{GAME}').dataset.hint)",
                           timeout=15000)
    return dataset(page, "hint")


def hinted_move(page) -> set[str]:
    return set(page.evaluate(f"[...document.querySelectorAll('{GAME} .pyr-slot.is-hinted')]"
                             ".map(b => b.dataset.code ?? b.dataset.pile)"))
