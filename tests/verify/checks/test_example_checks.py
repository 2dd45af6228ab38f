"""verify/checks/example_checks.py, each check of the worked examples on its own, against a
stand-in app that answers as the independent engine does (the files' own figures hold there;
`make verify` and tests/verify/test_examples_corpus.py run the real app, a whole `verify check` a test)
and stand-in solvers: every count each check makes, and each refusal's whole message with the
example's file and line. Seconds, no Node, so `make mutation MODULE=checks-examples` can run it
for each mutant."""
import dataclasses
from pathlib import Path

import pytest

from verify.app import AppError
from verify.checks import Checked, example_checks
from verify.errors import CheckFailed, SolverDisagreement
from verify.examples import ExampleError, Move, load_example
from verify.independent import deal as independent_deal
from verify.independent import rules

ROOT = Path(__file__).resolve().parents[3]
WON = load_example(ROOT / "examples" / "winnable.yaml")  # deal 27, 51 moves, won
LOST = load_example(ROOT / "examples" / "not-winnable.yaml")  # deal 7, 67 moves, 27 pyramid cards


class StandInApp:
    """The app's answers as the independent engine gives them; `layout` replaces the app's deal,
    `change` the answer to the move texts it names."""

    def __init__(self, layout=None, change=None, constants=None):
        self.layout, self.change = layout, change or {}
        self.constants_given = constants

    def deal(self, n):
        return self.layout if self.layout is not None else independent_deal.layout_json(independent_deal.deal(n), n)

    def opening(self, n):
        return rules.to_json(rules.opening(n))

    def apply(self, position, text):
        if text in self.change:
            return self.change[text](position, text)
        try:
            return rules.to_json(rules.apply(rules.from_json(position), text))
        except rules.IllegalMove as e:
            raise AppError(e.rule, f"{text}: the app's reason") from None

    def constants(self):
        return self.constants_given


def independent_replay(ex) -> list[dict]:
    position, steps = rules.opening(ex.deal), []
    for move in ex.game:
        position = rules.apply(position, move.text)
        steps.append(rules.to_json(position))
    return steps


def with_move(ex, number: int, text: str):
    """The example with its move `number` (1 = the first) replaced by `text`, on the same line."""
    game = list(ex.game)
    game[number - 1] = Move(text, game[number - 1].line)
    return dataclasses.replace(ex, game=game)


# ---------------------------------------------------------------- check_deals

def test_the_deals_of_both_examples_are_checked_and_their_cards_counted():
    assert example_checks.check_deals(StandInApp(), [WON, LOST]) == Checked({"examples": 2, "cards": 104})


def test_a_deal_number_out_of_range_is_refused_at_its_line():
    bad = dataclasses.replace(WON, deal=0)
    with pytest.raises(CheckFailed) as e:
        example_checks.check_deals(StandInApp(), [bad])
    assert str(e.value) == (f"{WON.path}, line {WON.lines['deal']}: deal number must be a whole number from 1 to "
                            "4294967295, got 0 (rule deal.layout)")


def test_a_deal_the_app_lays_out_differently_is_refused():
    layout = independent_deal.layout_json(independent_deal.deal(27), 27)
    swapped = {**layout, "stock": layout["stock"][::-1]}
    with pytest.raises(CheckFailed) as e:
        example_checks.check_deals(StandInApp(layout=swapped), [WON])
    assert str(e.value) == f"{WON.path}, line {WON.lines['deal']}: the app and the independent engine lay out deal 27 differently"


def test_a_deal_without_52_different_cards_is_refused(monkeypatch):
    """Both engines laying out one card twice (the independent deal broken the same way)."""
    layout = independent_deal.layout_json(independent_deal.deal(27), 27)
    twice = {**layout, "stock": layout["pyramid"][:1] + layout["stock"][1:]}
    monkeypatch.setattr(independent_deal, "layout_json", lambda cards, n: twice)
    with pytest.raises(CheckFailed) as e:
        example_checks.check_deals(StandInApp(layout=twice), [WON])
    assert str(e.value) == f"{WON.path}, line {WON.lines['deal']}: deal 27 does not hold 52 different cards (rule deal.layout)"


@pytest.mark.parametrize("key, right", [("pyramid", 28), ("stock", 23), ("waste", 1)])
def test_an_opening_count_the_deal_does_not_lay_out_is_refused_at_its_line(key, right):
    bad = dataclasses.replace(WON, opening={**WON.opening, key: right + 1}, lines={**WON.lines, f"opening.{key}": 99})
    with pytest.raises(CheckFailed) as e:
        example_checks.check_deals(StandInApp(), [bad])
    assert str(e.value) == f"{WON.path}, line 99: opening.{key} is {right + 1}, but deal 27 lays out {right} (rule deal.layout)"


# ---------------------------------------------------------------- replay_example, final_figures

def test_the_replay_is_every_position_after_each_move():
    assert example_checks.replay_example(StandInApp(), WON) == independent_replay(WON)


def test_a_move_both_engines_refuse_is_a_failed_check_at_its_line_with_the_apps_reason():
    bad = with_move(WON, 2, "pair 7D 4S")
    with pytest.raises(CheckFailed) as e:
        example_checks.replay_example(StandInApp(), bad)
    assert str(e.value) == f"{WON.path}, line {WON.game[1].line}, move 2 'pair 7D 4S': the app's reason"


def test_a_move_that_is_no_move_at_all_is_bad_input():
    bad = with_move(WON, 3, "pair 7X 6C")
    app = StandInApp(change={"pair 7X 6C": lambda position, text: (_ for _ in ()).throw(AppError("notation", "not a card: 7X"))})
    with pytest.raises(ExampleError) as e:
        example_checks.replay_example(app, bad)
    assert str(e.value) == f"{WON.path}, line {WON.game[2].line}, move 3 'pair 7X 6C': not a card: 7X"


def test_engines_that_disagree_on_a_move_fail_the_check_naming_it():
    first = WON.game[0].text
    app = StandInApp(change={first: lambda position, text: position})
    with pytest.raises(CheckFailed) as e:
        example_checks.replay_example(app, WON)
    after = independent_replay(WON)[0]
    assert str(e.value) == (f"{WON.path}, line {WON.game[0].line}, move 1 '{first}': the engines disagree: move 1 '{first}': "
                            f"positions differ:\n  app:         {rules.to_json(rules.opening(27))}\n  independent: {after}")


def test_the_final_figures_of_a_game_are_counted_from_its_first_and_last_positions():
    start = {"pyramid": ["AS"] * 28, "stock": ["2S"] * 23, "waste": ["3S"], "points": 0, "moves": 0, "status": "playing"}
    end = {"pyramid": ["AS", None, "KD"] + [None] * 25, "stock": ["2S"] * 5, "waste": ["3S", "4S"],
           "points": 300, "moves": 40, "status": "stuck"}
    assert example_checks.final_figures(start, end) == {
        "pyramid_removed": 26, "cards_removed": 52 - 9, "stock": 5, "waste": 2, "points": 300, "moves": 40, "status": "stuck"}


# ---------------------------------------------------------------- check_games, replay_one

def test_both_games_are_replayed_and_every_final_figure_compared():
    checked = example_checks.check_games(StandInApp(), [WON, LOST])
    assert checked.counts == {"moves_replayed": 51 + 67, "figures_compared": 7 * 2}
    assert checked.data == {"winnable": independent_replay(WON), "not-winnable": independent_replay(LOST)}


@pytest.mark.parametrize("key", ["pyramid_removed", "cards_removed", "stock", "waste", "points", "moves", "status"])
def test_each_false_final_figure_is_refused_at_its_line(key):
    wrong = "stuck" if key == "status" else WON.final[key] + 1
    bad = dataclasses.replace(WON, final={**WON.final, key: wrong})
    with pytest.raises(CheckFailed) as e:
        example_checks.check_games(StandInApp(), [LOST, bad])
    assert str(e.value) == (f"{WON.path}, line {WON.lines['final.' + key]}: final.{key} is {wrong!r}, "
                            f"but replaying the game gives {WON.final[key]!r} (both engines)")


def test_one_example_replayed_gives_its_opening_and_its_steps():
    checked = example_checks.replay_one(StandInApp(), WON)
    assert checked.counts == {"moves_replayed": 51, "figures_compared": 7}
    assert checked.data == {"opening": rules.to_json(rules.opening(27)), "steps": independent_replay(WON)}


# ---------------------------------------------------------------- check_search, search_one

def answer_of(ex, positions=(1000, 2000), seconds=(0.1234, 0.0006)):
    return {**ex.search, "solvers": {"app": {"positions": positions[0], "seconds": seconds[0]},
                                     "independent": {"positions": positions[1], "seconds": seconds[1]}}}


@pytest.fixture
def solvers(monkeypatch):
    """Stand-in solve_both: answers (or the error to raise) in the order of the calls, each call recorded."""
    answers, calls = [], []

    def solve_both(app, start, progress=True):
        calls.append((start, progress))
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(example_checks, "solve_both", solve_both)
    return answers, calls


def test_the_solvers_answers_are_taken_and_their_positions_and_seconds_added_up(solvers):
    answers, calls = solvers
    won, lost = answer_of(WON), answer_of(LOST, (5, 7), (1.0005, 2.0))
    answers += [won, lost]
    checked = example_checks.check_search(StandInApp(), [WON, LOST])
    # seconds are added up rounded to the millisecond at each step
    assert checked.counts == {"deals_solved": 2, "app_positions": 1005, "independent_positions": 2007,
                              "app_seconds": round(0.123 + 1.0005, 3), "independent_seconds": 2.001}
    assert checked.data == {"winnable": won, "not-winnable": lost}
    assert calls == [(rules.to_json(rules.opening(27)), False), (rules.to_json(rules.opening(7)), False)]


def test_solvers_that_disagree_fail_the_check_at_the_deal(solvers):
    answers, _ = solvers
    answers.append(SolverDisagreement("shortest: the app 51, the independent solver 52", {}))
    with pytest.raises(CheckFailed) as e:
        example_checks.check_search(StandInApp(), [WON])
    assert str(e.value) == (f"{WON.path}, line {WON.lines['deal']}: the two solvers disagree on deal 27: "
                            "shortest: the app 51, the independent solver 52")


@pytest.mark.parametrize("key, found", [("max_removed", 27), ("shortest", 50), ("winnable", False)])
def test_each_search_figure_the_solvers_do_not_find_is_refused_at_its_line(solvers, key, found):
    answers, _ = solvers
    answers.append({**answer_of(WON), key: found})
    bad = dataclasses.replace(WON, lines={**WON.lines, f"search.{key}": 71})
    with pytest.raises(CheckFailed) as e:
        example_checks.check_search(StandInApp(), [bad])
    assert str(e.value) == f"{WON.path}, line 71: search.{key} is {WON.search[key]!r}, but both solvers find {found!r}"


def test_a_shown_game_longer_than_the_shortest_is_refused(solvers):
    answers, _ = solvers
    answers.append({**answer_of(WON), "shortest": 50})
    bad = dataclasses.replace(WON, search={**WON.search, "shortest": 50})
    with pytest.raises(CheckFailed) as e:
        example_checks.check_search(StandInApp(), [bad])
    assert str(e.value) == (f"{WON.path}, line {WON.lines['game']}: the shown game has 51 moves, but the shortest game "
                            "removing 28 pyramid cards has 50 (search.shortest)")


def test_a_shown_game_that_removes_fewer_pyramid_cards_than_can_be_is_refused(solvers):
    answers, _ = solvers
    answers.append(answer_of(WON))
    bad = dataclasses.replace(WON, final={**WON.final, "pyramid_removed": 27})
    with pytest.raises(CheckFailed) as e:
        example_checks.check_search(StandInApp(), [bad])
    assert str(e.value) == (f"{WON.path}, line {WON.lines['final.pyramid_removed']}: the shown game removes 27 "
                            "pyramid cards, but 28 can be removed (search.max_removed)")


def test_one_example_searched_gives_the_solvers_answer(solvers):
    answers, _ = solvers
    answers.append(answer_of(WON))
    checked = example_checks.search_one(StandInApp(), WON)
    assert checked.counts == {"deals_solved": 1, "app_positions": 1000, "independent_positions": 2000,
                              "app_seconds": 0.123, "independent_seconds": 0.001}
    assert checked.data == answer_of(WON)


# ---------------------------------------------------------------- check_constants

# docs/rules.md ("The deal", "Moves"): 28 cards in the pyramid, one turned up on the waste, a deck of 52, two turns.
CONSTANTS = {"pyramid_cards": 28, "waste_cards": 1, "deck_size": 52, "turns_allowed": 2, "target_sum": 13}


def test_the_apps_rule_constants_are_compared_and_passed_on():
    checked = example_checks.check_constants(StandInApp(constants=CONSTANTS))
    assert checked == Checked({"constants_compared": 4}, CONSTANTS)


@pytest.mark.parametrize("key", ["pyramid_cards", "waste_cards", "deck_size", "turns_allowed"])
def test_a_rule_constant_the_app_says_otherwise_is_refused(key):
    with pytest.raises(CheckFailed) as e:
        example_checks.check_constants(StandInApp(constants={**CONSTANTS, key: CONSTANTS[key] + 1}))
    assert str(e.value) == f"rule constant {key}: the app says {CONSTANTS[key] + 1}, the independent engine {CONSTANTS[key]}"
