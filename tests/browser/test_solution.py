""""Show the solution" (issue 28), in Chromium: the exact solver in the Web Worker from the
player's own position, under any variant; each answer replayed in the independent engine and
its length compared with the independent solver's, from the opening and from mid-game
positions of 20 deals and of each variant; stepping through it, taking over, stopping; and the
time it takes from mid-game positions of the survey's hardest deals."""
from __future__ import annotations

import json
import re
import time

import pytest

from helpers.game_harness import LANGS, strings
from helpers.page_words import cap, counted, fill
from helpers.game_page import GAME, dataset, deal_number, message, said_move, slot
from helpers.variant_pages import VARIANTS, names, open_variants, variant_pages, variant_pools  # noqa: F401  (fixtures)

DEALS = range(1, 21)
HARDEST = [3766, 7174, 7744, 6001]  # the most card sets the survey's decider entered (lost, lost, lost, won)


def independent_position(deal: int, moves: list[str], rules: dict) -> dict:
    """The position after `moves` from the deal's opening under the rules, in the independent engine."""
    from verify.independent import decider, rules as standard
    opening = standard.to_json(standard.opening(deal))
    opening["turns_left"] = rules.get("turns", opening["turns_left"])
    if not moves:
        return opening
    after = decider.replay(opening, moves, rules)
    return {k: after[k] for k in ("pyramid", "stock", "waste", "turns_left")} | {"points": 0, "moves": 0}


def checked_against_independent(position: dict, answer: dict, rules: dict) -> None:
    """The browser's answer replays in the independent engine to what it claims, and its length is
    the independent solver's."""
    from verify.independent import decider, solver
    truth = solver.solve(position, rules=rules)
    assert answer["winnable"] == truth.winnable, (answer, truth)
    assert len(answer["moves"]) == truth.shortest, (answer, truth)
    end = decider.replay(position, answer["moves"], rules)
    left = sum(c is not None for c in position["pyramid"])
    removed = left - sum(c is not None for c in end["pyramid"])
    if truth.winnable:
        assert end["won"]
    else:
        assert removed == truth.max_removed


def put_game(page, deal: int, moves: list[str], variant: str) -> None:
    """The player's game of a deal as if played here: saved, then opened by its link."""
    key = str(deal) if variant == "standard" else f"{variant}.{deal}"
    record = {"version": 2, "deal": deal, "moves": moves, "undo": [], "at": 1}
    if variant != "standard":
        record["variant"] = variant
    rules = "" if variant == "standard" else f"&rules={variant}"
    page.evaluate(f"localStorage.setItem('pyramide.game.v2.{key}', {json.dumps(json.dumps(record))});"
                  f"history.replaceState(null, '', location.pathname + '#deal={deal}{rules}')")
    page.reload()  # the page opens the link as a player's visit would: the saved game resumed
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert dataset(page, "variant") == variant and deal_number(page) == deal


def solution_in_browser(page, timeout_ms: int = 90_000) -> dict:
    """Presses "show the solution" and waits for the answer: {winnable, moves, ms}."""
    started = time.perf_counter()
    page.locator(f"{GAME} .pyr-solution").click()
    page.wait_for_function(f"document.querySelector('{GAME}').dataset.solution || "
                           f"document.querySelector('{GAME} .pyr-solution-panel').hidden", timeout=timeout_ms)
    ms = (time.perf_counter() - started) * 1000
    assert dataset(page, "solution"), message(page)  # an answer, not a search that gave up
    moves = page.evaluate(f"[...document.querySelectorAll('{GAME} .pyr-solution-moves li')].map(li => li.dataset.move)")
    return {"winnable": dataset(page, "solution") == "winnable", "moves": moves, "ms": ms}


def next_move(s: dict, move: str) -> str:
    return fill(s["solution"]["next"], move=said_move(s, move))


def cards_of(move: str) -> set[str]:
    """The codes a move's marks show: its cards, or the stock's (none, face down) for a draw or turn."""
    kind, *cards = move.split()
    return set(cards) if cards else {"stock"}


def marked(page) -> set[str]:
    """The board's marked places: a card's code, or 'stock' for the face-down stock."""
    return set(page.evaluate(f"""[...document.querySelectorAll('{GAME} .pyr-slot.is-hinted')]
        .map(b => b.dataset.code ?? b.dataset.pile)"""))


def shown_text(page) -> str:
    return page.locator(GAME).inner_text()


def mid_game(deal: int, rules: dict) -> list[str]:
    """The first half of the independent solver's game from the opening: a position the player
    can reach, with play left in it."""
    from verify.independent import solver
    game = solver.solve(independent_position(deal, [], rules), rules=rules).game
    return game[: len(game) // 2] or ["draw"]


# ---------------------------------------------------------------- exact answers
def test_the_solution_from_the_opening_and_mid_game_of_20_deals(watched, variant_pages):
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    timings = []
    for deal in DEALS:
        for moves in ([], mid_game(deal, {})):
            put_game(page, deal, moves, "standard")
            answer = solution_in_browser(page)
            timings.append(answer["ms"])
            checked_against_independent(independent_position(deal, moves, {}), answer, {})
            page.locator(f"{GAME} .pyr-solution-close").click()
    print(f"\nsolution from the openings and mid-games of deals 1-20 in Chromium: mean {sum(timings) / len(timings):.0f} ms, "
          f"max {max(timings):.0f} ms (a busy machine)")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_solution_under_each_variant(watched, variant_pages, variant_pools, variant):
    rules = VARIANTS[variant]
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    for deal in (variant_pools[variant][0], 2):  # a deal its survey won, and deal 2 (lost in the app's rules)
        for moves in ([], mid_game(deal, rules)):
            put_game(page, deal, moves, variant)
            answer = solution_in_browser(page)
            checked_against_independent(independent_position(deal, moves, rules), answer, rules)
            page.locator(f"{GAME} .pyr-solution-close").click()


def test_the_solution_from_mid_game_of_the_hardest_deals_is_timed(watched, variant_pages):
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    timings = {}
    for deal in HARDEST:
        moves = mid_game(deal, {})[:8]
        put_game(page, deal, moves, "standard")
        answer = solution_in_browser(page)
        timings[deal] = round(answer["ms"])
        checked_against_independent(independent_position(deal, moves, {}), answer, {})
        page.locator(f"{GAME} .pyr-solution-close").click()
    print(f"\nsolution from 8 moves into the hardest deals, Chromium, ms (a busy machine): {timings}")


# ---------------------------------------------------------------- what it says and how it steps
@pytest.mark.parametrize("lang", LANGS)
def test_the_answer_says_what_was_proved_and_steps_on_the_board(watched, variant_pages, lang):
    s = strings(lang)
    w, page = open_variants(watched, variant_pages, lang, "#deal=999")
    put_game(page, 3, [], "standard")  # deal 3: won in 57 moves at the shortest
    answer = solution_in_browser(page)
    total = len(answer["moves"])
    text = message(page)
    first, second = answer["moves"][:2]
    said = re.escape(fill(s["solution"]["winnable"], moves=counted(s, s["counts"]["moves"], total),
                          positions="@@")).replace("@@", "[0-9\u00a0\u202f.]+ \\w+")
    proof = re.fullmatch(f"({said}) " + re.escape(fill(s["solution"]["start"], total=counted(s, s["counts"]["moves"], total))
                                                   + " " + next_move(s, first)), text)
    assert proof, text
    # The proof is said once: in the message at the start, in the panel's line from the first step on.
    assert shown_text(page).count(proof.group(1)) == 1
    assert marked(page) == cards_of(first)  # the next move's cards marked on the board, named so
    # Next: the board shows the first move made; the game itself has not moved.
    page.locator(f"{GAME} .pyr-solution-next").click()
    assert dataset(page, "solutionStep") == "1"
    assert message(page) == fill(s["solution"]["step"], step=1, total=total, move=said_move(s, first)) + " " + next_move(s, second)
    assert shown_text(page).count(proof.group(1)) == 1
    assert page.locator(f"{GAME} .pyr-solution-proof").inner_text() == proof.group(1)
    assert marked(page) == cards_of(second)
    assert all(s["aria"]["hinted"] in label for label in page.evaluate(
        f"[...document.querySelectorAll('{GAME} .pyr-slot.is-hinted')].map(b => b.getAttribute('aria-label'))"))
    assert page.evaluate("JSON.parse(localStorage.getItem('pyramide.game.v2.3'))")["moves"] == []  # nothing played yet
    page.locator(f"{GAME} .pyr-solution-next").click()
    page.locator(f"{GAME} .pyr-solution-previous").click()
    assert dataset(page, "solutionStep") == "1"
    # A move of the list goes straight to it; play runs on and pause stops it.
    page.locator(f"{GAME} .pyr-solution-moves li").nth(4).locator("button").click()
    assert dataset(page, "solutionStep") == "5"
    page.locator(f"{GAME} .pyr-solution-play").click()
    page.wait_for_function(f"Number(document.querySelector('{GAME}').dataset.solutionStep) >= 7")
    page.locator(f"{GAME} .pyr-solution-play").click()  # pause
    step = int(dataset(page, "solutionStep"))
    page.wait_for_timeout(1500)
    assert int(dataset(page, "solutionStep")) == step
    # Take over: the game is the solution's first `step` moves, saved, and play goes on from it;
    # each of them counts as a hint.
    page.locator(f"{GAME} .pyr-solution-take-over").click()
    assert page.locator(f"{GAME} .pyr-solution-panel").is_hidden()
    assert message(page) == fill(s["solution"]["taken_over"], step=step) + " " + s["solution"]["counted"]
    saved = page.evaluate("JSON.parse(localStorage.getItem('pyramide.game.v2.3'))")
    assert saved["moves"] == answer["moves"][:step] and saved["meta"]["hints"] == step
    assert deal_number(page) == 3


def test_a_lost_position_says_how_many_cards_can_still_go(watched, variant_pages):
    from verify.independent import solver
    s = strings("nb")
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    put_game(page, 2, [], "standard")
    answer = solution_in_browser(page)
    truth = solver.solve(independent_position(2, [], {}))
    assert not answer["winnable"]
    text = message(page)
    assert dataset(page, "solution") == "lost"
    assert f"{truth.max_removed} av de 28 kortene" in text and f"{truth.shortest} trekk" in text, text


def test_the_search_can_be_stopped_and_a_board_click_takes_over(watched, variant_pages):
    s = strings("nb")
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    put_game(page, 6001, [], "standard")
    page.locator(f"{GAME} .pyr-solution").click()  # the search starts (the click waits for it, helpers/settle.py)
    page.evaluate(f"document.querySelector('{GAME} .pyr-solution-stop').click()")
    assert message(page) == s["solution"]["stopped"]
    assert page.locator(f"{GAME} .pyr-solution-panel").is_hidden() and dataset(page, "solution") is None
    # A new search after a stop works (a new worker), and a card chosen on a step plays on from it.
    put_game(page, 3, [], "standard")
    answer = solution_in_browser(page)
    page.locator(f"{GAME} .pyr-solution-next").click()
    page.keyboard.press("d")  # the player's own move from step 1 (focus is on the Next button, in the game)
    saved = page.evaluate("JSON.parse(localStorage.getItem('pyramide.game.v2.3'))")
    assert saved["moves"][0] == answer["moves"][0] and len(saved["moves"]) == 2


def test_no_take_over_at_the_end_of_a_won_solution_and_a_win_after_taking_over_is_counted(watched, variant_pages):
    """Review 3, A9: at the last step of a won solution there is nothing to play on, so it is not
    offered (a take-over there won the game with no move of the player's, never counted); taken
    over one step before, the player's own winning move ends the game and it counts."""
    s = strings("nb")
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    put_game(page, 3, [], "standard")
    answer = solution_in_browser(page)
    total = len(answer["moves"])
    take_over = page.locator(f"{GAME} .pyr-solution-take-over")
    assert take_over.get_attribute("aria-disabled") != "true"  # at the start: play on from here
    page.locator(f"{GAME} .pyr-solution-moves li").nth(total - 1).locator("button").click()
    assert dataset(page, "solutionStep") == str(total)
    assert take_over.get_attribute("aria-disabled") == "true"
    take_over.dispatch_event("click")  # pressed anyway: refused, and said why; the solution stays, the game is untouched
    assert message(page) == s["solution"]["take_over_end"]
    assert page.evaluate(f"!!document.activeElement.closest('{GAME}')")  # the game's keys reach it
    page.keyboard.press("d")  # nor does the stock (D) play on from the last step
    assert page.locator(f"{GAME} .pyr-solution-panel").is_visible() and dataset(page, "solutionStep") == str(total)
    assert page.evaluate("JSON.parse(localStorage.getItem('pyramide.game.v2.3'))")["moves"] == []
    assert page.locator(f"{GAME} .pyr-end").is_hidden()
    # One step before the end: taken over, and the last move is the player's own.
    page.locator(f"{GAME} .pyr-solution-previous").click()
    assert take_over.get_attribute("aria-disabled") != "true"
    take_over.click()
    last = answer["moves"][-1]
    for code in last.split()[1:]:
        slot(page, code).click()
    assert dataset(page, "status") == "won" and page.locator(f"{GAME} .pyr-end").is_visible()
    page.locator(f"{GAME} .pyr-end-stats").click()
    played = page.locator(f"{GAME} .pyr-stats dd[data-stat='played']").inner_text()
    won = page.locator(f"{GAME} .pyr-stats dd[data-stat='won']").inner_text()
    assert (played, won) == ("1", "1")
