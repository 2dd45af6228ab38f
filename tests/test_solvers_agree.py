"""Both exact solvers on a few fast deals (the full 1–40 set runs in `make bench`): the same
largest count and fewest moves, and each solver's game is legal in the other engine."""
import pytest

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


class LyingApp:
    """Wraps the real bridge but reports one pyramid card too many."""

    def __init__(self, app):
        self.app = app

    def solve(self, position, **kw):
        r = self.app.solve(position, **kw)
        return {**r, "max_removed": r["max_removed"] + 1}

    def replay_from(self, position, moves):
        return self.app.replay_from(position, moves)


def test_a_disagreement_is_an_error(app):
    from verify.solving import SolverDisagreement

    with pytest.raises(SolverDisagreement):
        solve_both(LyingApp(app), app.opening(25), progress=False)
