"""Both exact solvers on a few fast deals (the full 1–40 set runs in `make bench`), on mid-game
positions reached by random legal play, under every variant: the same largest count, fewest
moves and win, and each solver's game is legal in the other engine and reaches that result
(solve_both replays each in the other engine)."""
import random

import pytest

from verify.independent.variants import VARIANTS
from verify.solving import solve_both

# Deals whose searches are small (under about a million positions); 7 and 20 include turns.
FAST_DEALS = [25, 31, 22, 20, 7]


@pytest.mark.parametrize("deal", FAST_DEALS)
def test_both_solvers_agree(app, deal):
    answer = solve_both(app, app.opening(deal), progress=False)
    assert answer["agree"]
    app_side, independent = answer["solvers"]["app"], answer["solvers"]["independent"]
    assert (app_side["max_removed"], app_side["shortest"]) == (independent["max_removed"], independent["shortest"])
    assert len(answer["game"]) == answer["shortest"]


def played_position(app, deal: int, rules: dict, seed: int, left: int = 14) -> dict:
    """Deal `deal` (with the variant's turns) after random legal moves in the app's engine under
    the rules, mostly removals, until `left` pyramid cards or fewer remain."""
    rng = random.Random(seed)
    position = app.opening(deal)
    if rules.get("turns") is not None:
        position = {**position, "turns_left": rules["turns"]}
    for _ in range(200):
        if sum(c is not None for c in position["pyramid"]) <= left:
            break
        moves = app.legal_moves(position, rules)
        if not moves:
            break
        removals = [m for m in moves if m.split()[0] in ("pair", "king")]
        pick = removals if removals and rng.random() < 0.75 else moves
        position = app.apply(position, rng.choice(pick), rules)
    return {**position, "points": 0, "moves": 0}


MID_GAME_DEALS = [3, 8, 11, 14, 19, 33]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_both_solvers_agree_from_mid_game_positions_under_every_variant(app, variant):
    rules = dict(VARIANTS[variant])
    for i, deal in enumerate(MID_GAME_DEALS):
        start = played_position(app, deal, rules, seed=1000 * i + len(variant), left=12 + i % 4)
        assert 0 < sum(c is not None for c in start["pyramid"]) < 28, "a mid-game position"
        answer = solve_both(app, start, progress=False, rules_options=rules or None)
        app_side, independent = answer["solvers"]["app"], answer["solvers"]["independent"]
        assert answer["agree"]
        assert ((app_side["max_removed"], app_side["shortest"], app_side["winnable"])
                == (independent["max_removed"], independent["shortest"], independent["winnable"])), (variant, deal)


@pytest.mark.parametrize("variant", ["one-pass", "unlimited", "stock-top", "cover-pair"])
def test_both_solvers_agree_on_a_variant_opening(app, variant):
    rules = dict(VARIANTS[variant])
    start = app.opening(25)
    if rules.get("turns") is not None:
        start = {**start, "turns_left": rules["turns"]}
    assert solve_both(app, start, progress=False, rules_options=rules)["agree"]


class LyingApp:
    """Wraps the real bridge but reports one pyramid card too many."""

    def __init__(self, app):
        self.app = app

    def solve(self, position, **kw):
        r = self.app.solve(position, **kw)
        return {**r, "max_removed": r["max_removed"] + 1}

    def replay_from(self, position, moves, rules=None):
        return self.app.replay_from(position, moves, rules)


def test_a_disagreement_is_an_error(app):
    from verify.solving import SolverDisagreement

    with pytest.raises(SolverDisagreement):
        solve_both(LyingApp(app), app.opening(25), progress=False)


class HonestButWorseApp:
    """Wraps the real bridge; its solver answers with another legal game (the real one, edited),
    and states truly what that game does: each side's game is consistent with its own claim, so
    only the comparison of the two solvers' numbers can tell them apart."""

    def __init__(self, app, edit):
        self.app, self.edit = app, edit

    def solve(self, position, rules=None, **kw):
        real = self.app.solve(position, rules=rules, **kw)
        game = self.edit(real["game"])
        final = self.app.replay_from(position, game, rules)
        left = sum(c is not None for c in final["pyramid"])
        removed = sum(c is not None for c in position["pyramid"]) - left
        return {**real, "game": game, "max_removed": removed, "shortest": len(game), "winnable": left == 0}

    def replay_from(self, position, moves, rules=None):
        return self.app.replay_from(position, moves, rules)


@pytest.mark.parametrize("deal, edit, differs", [
    (20, lambda game: game[:-10], "every field"),  # stops short of the win: fewer cards, fewer moves, not won
    (25, lambda game: game + ["draw"], "moves only"),  # one draw more after the last removal: the same cards
])
def test_two_solvers_with_consistent_but_different_answers_disagree(app, deal, edit, differs):
    from verify.solving import SolverDisagreement

    start = app.opening(deal)
    worse = HonestButWorseApp(app, edit).solve(start)
    honest = app.solve(start)
    assert worse["shortest"] != honest["shortest"]
    assert (worse["max_removed"] != honest["max_removed"]) == (differs == "every field")
    assert (worse["winnable"] != honest["winnable"]) == (differs == "every field")
    with pytest.raises(SolverDisagreement) as e:
        solve_both(HonestButWorseApp(app, edit), start, progress=False)
    assert str(e.value) == (f"app: {worse['max_removed']} cards in {worse['shortest']} moves; "
                            f"independent: {honest['max_removed']} cards in {honest['shortest']} moves")
    assert e.value.answer["agree"] is False
