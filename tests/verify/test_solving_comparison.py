"""verify/solving.py's comparison, field by field, with two stand-in solvers whose answers the test
sets (tests/verify/test_solvers_agree.py runs the real ones): each field on which they differ is a
SolverDisagreement naming both; a game that does not do what its solver claims is one, naming
the solver; `which` asks one solver only; a strict-win variant's win needs the stock and waste
empty too. Fast (no search runs), so `make mutation MODULE=solving` can run it for each mutant."""
from types import SimpleNamespace

import pytest

from verify import solving
from verify.errors import SolverDisagreement
from verify.independent import rules

START = rules.to_json(rules.opening(25))
LEFT = sum(c is not None for c in START["pyramid"])


def final_with(removed: int, stock=None, waste=None) -> dict:
    """A final position with `removed` pyramid cards gone."""
    return {**START, "pyramid": [None] * removed + START["pyramid"][removed:],
            "stock": START["stock"] if stock is None else stock,
            "waste": START["waste"] if waste is None else waste}


class StandIn:
    """Both solvers' answers and the final position each engine gives for each game."""

    def __init__(self, monkeypatch, app=(20, 5, False), independent=(20, 5, False), finals=None):
        self.calls = []
        self.app_answer, self.independent_answer = app, independent
        self.finals = finals or {}
        monkeypatch.setattr(solving.independent_solver, "solve", self.independent_solve)
        monkeypatch.setattr(solving, "replay_independent", self.replay_independent)

    def game(self, side, shortest):
        return [f"{side}-{i}" for i in range(shortest)]

    def final(self, side, answer):
        removed, _, winnable = answer
        return self.finals.get(side, final_with(LEFT if winnable else removed))

    # the app's side (the Node bridge's methods)
    def solve(self, start, progress=None, rules=None):
        self.calls.append(("app solve", rules))
        progress(3, 1000)
        removed, shortest, winnable = self.app_answer
        return {"max_removed": removed, "shortest": shortest, "winnable": winnable, "positions": 7,
                "seconds": 0.5, "game": self.game("app", shortest)}

    def replay_from(self, start, game, rules=None):
        self.calls.append(("app replays", tuple(game), rules))
        return self.final("independent", self.independent_answer)

    # the independent side
    def independent_solve(self, start, progress=None, rules=None):
        self.calls.append(("independent solve", rules))
        progress(4, 2000)
        removed, shortest, winnable = self.independent_answer
        return SimpleNamespace(max_removed=removed, shortest=shortest, winnable=winnable, positions=9,
                               seconds=1.23456, game=self.game("independent", shortest))

    def replay_independent(self, start, game, rules_options=None):
        self.calls.append(("independent replays", tuple(game), rules_options))
        return self.final("app", self.app_answer)


def test_agreeing_solvers_give_their_answer_and_both_games_are_replayed_in_the_other_engine(monkeypatch):
    both = StandIn(monkeypatch)
    answer = solving.solve_both(both, START, progress=False)
    assert answer == {
        "max_removed": 20, "shortest": 5, "winnable": False, "game": both.game("app", 5), "agree": True,
        "solvers": {"app": {"max_removed": 20, "shortest": 5, "winnable": False, "positions": 7, "seconds": 0.5},
                    "independent": {"max_removed": 20, "shortest": 5, "winnable": False, "positions": 9,
                                    "seconds": 1.235}}}
    assert both.calls == [("app solve", None), ("independent solve", None),
                          ("independent replays", tuple(both.game("app", 5)), None),
                          ("app replays", tuple(both.game("independent", 5)), None)]


def test_the_rules_options_reach_both_solvers_and_both_replays(monkeypatch):
    both = StandIn(monkeypatch)
    options = {"turns": 0}
    solving.solve_both(both, START, progress=False, rules_options=options)
    assert [call[-1] for call in both.calls] == [options] * 4


@pytest.mark.parametrize("app, independent", [
    ((20, 5, False), (21, 5, False)),  # the largest count
    ((20, 5, False), (20, 6, False)),  # the fewest moves
])
def test_two_solvers_differing_on_the_count_or_the_moves_disagree(monkeypatch, app, independent):
    both = StandIn(monkeypatch, app=app, independent=independent)
    with pytest.raises(SolverDisagreement) as e:
        solving.solve_both(both, START, progress=False)
    assert str(e.value) == (f"app: {app[0]} cards in {app[1]} moves; "
                            f"independent: {independent[0]} cards in {independent[1]} moves")
    assert e.value.answer["agree"] is False
    assert e.value.answer["max_removed"] == app[0] and e.value.answer["shortest"] == app[1]


def test_solvers_differing_only_on_the_win_disagree(monkeypatch):
    # The same count and moves, one says won: its game must then remove every card, and the
    # other's the same count; under a strict win the other side's game leaves the stock.
    options = {"strictWin": True}
    won = final_with(LEFT, stock=[], waste=[])
    not_won = final_with(LEFT)
    both = StandIn(monkeypatch, app=(LEFT, 5, True), independent=(LEFT, 5, False),
                   finals={"app": won, "independent": not_won})
    with pytest.raises(SolverDisagreement) as e:
        solving.solve_both(both, START, progress=False, rules_options=options)
    assert str(e.value) == f"app: {LEFT} cards in 5 moves; independent: {LEFT} cards in 5 moves"


@pytest.mark.parametrize("side, claim, final, says", [
    ("app", (20, 5, False), final_with(19), "removes 19 cards in 5 moves, not the 20 in 5"),
    ("app", (20, 5, True), final_with(20), "removes 20 cards in 5 moves, not the 20 in 5"),
    ("independent", (20, 5, False), final_with(21), "removes 21 cards in 5 moves, not the 20 in 5"),
    ("independent", (LEFT, 5, False), final_with(LEFT), f"removes {LEFT} cards in 5 moves, not the {LEFT} in 5"),
])
def test_a_game_that_does_not_do_what_its_solver_claims_is_a_disagreement(monkeypatch, side, claim, final, says):
    honest = (20, 5, False)
    both = StandIn(monkeypatch, app=claim if side == "app" else honest,
                   independent=claim if side == "independent" else honest, finals={side: final})
    with pytest.raises(SolverDisagreement) as e:
        solving.solve_both(both, START, progress=False)
    assert str(e.value) == f"the {side} solver's game {says} it claims"
    assert e.value.answer["agree"] is False


def test_a_game_longer_than_its_solver_claims_is_a_disagreement(monkeypatch):
    both = StandIn(monkeypatch)
    both.game = lambda side, shortest: [f"{side}-{i}" for i in range(shortest + (side == "independent"))]
    with pytest.raises(SolverDisagreement) as e:
        solving.solve_both(both, START, progress=False)
    assert str(e.value) == "the independent solver's game removes 20 cards in 6 moves, not the 20 in 5 it claims"


def test_a_strict_win_needs_the_stock_and_the_waste_empty():
    gone = [None] * 28
    assert solving._won({"pyramid": gone, "stock": ["AS"], "waste": []}, None) is True
    assert solving._won({"pyramid": gone, "stock": ["AS"], "waste": []}, {"strictWin": False}) is True
    assert solving._won({"pyramid": gone, "stock": ["AS"], "waste": []}, {"strictWin": True}) is False
    assert solving._won({"pyramid": gone, "stock": [], "waste": ["AS"]}, {"strictWin": True}) is False
    assert solving._won({"pyramid": gone, "stock": [], "waste": []}, {"strictWin": True}) is True
    assert solving._won({"pyramid": [None] * 27 + ["AS"], "stock": [], "waste": []}, {"strictWin": True}) is False
    assert solving._won({"pyramid": [None] * 27 + ["AS"], "stock": [], "waste": []}, None) is False


@pytest.mark.parametrize("which, asked", [("app", ["app solve"]), ("independent", ["independent solve"])])
def test_which_asks_one_solver_only(monkeypatch, which, asked):
    both = StandIn(monkeypatch, app=(20, 5, False), independent=(21, 6, False),
                   finals={"app": final_with(20), "independent": final_with(21)})
    answer = solving.solve_both(both, START, which=which, progress=False)
    assert [c[0] for c in both.calls if c[0].endswith("solve")] == asked
    assert list(answer["solvers"]) == [which]
    assert (answer["max_removed"], answer["shortest"]) == ((20, 5) if which == "app" else (21, 6))
    assert answer["game"] == both.game(which, answer["shortest"]) and answer["agree"] is True


def test_replaying_in_the_independent_engine_applies_every_move():
    position = rules.opening(25)
    game = [rules.format_move(m) for m in rules.legal_moves(position)[:1]]
    after = rules.apply(position, game[0])
    game.append(rules.format_move(rules.legal_moves(after)[0]))
    expected = rules.to_json(rules.apply(after, game[1]))
    assert solving.replay_independent(START, game) == expected
    assert solving.replay_independent(START, []) == START


def test_replaying_under_a_variant_goes_to_the_variant_replayer(monkeypatch):
    seen = []
    monkeypatch.setattr(solving.independent_decider, "replay", lambda s, g, o: seen.append((g, o)) or "replayed")
    assert solving.replay_independent(START, ["draw"], {"turns": 0}) == "replayed"
    assert seen == [(["draw"], {"turns": 0})]


def test_progress_is_shown_at_most_once_a_second_and_only_when_asked(monkeypatch, capsys):
    clock = iter([0.5, 1.5, 2.0, 2.5, 2.6, 9.0])
    monkeypatch.setattr(solving.time, "monotonic", lambda: next(clock))
    show = solving._progress_printer("app", True)
    for depth in range(1, 6):
        show(depth, 1234 * depth)
    assert capsys.readouterr().err == ("  app solver: depth 2, 2,468 positions\n"
                                       "  app solver: depth 5, 6,170 positions\n")
    quiet = solving._progress_printer("app", False)
    quiet(1, 1)
    assert capsys.readouterr().err == ""


def test_each_solvers_progress_is_shown_under_its_name_unless_asked_not_to(monkeypatch, capsys):
    monkeypatch.setattr(solving.time, "monotonic", iter([10.0, 20.0, 30.0, 40.0]).__next__)
    solving.solve_both(StandIn(monkeypatch), START)
    assert capsys.readouterr().err == ("  app solver: depth 3, 1,000 positions\n"
                                       "  independent solver: depth 4, 2,000 positions\n")
    solving.solve_both(StandIn(monkeypatch), START, progress=False)
    assert capsys.readouterr().err == ""
