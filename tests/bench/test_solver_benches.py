"""The solver benches' own pieces (bench/browser_solver_bench.py, bench/mid_game_positions.mjs):
the percentile they report and the mid-game positions they measure from."""
import pytest

from bench.browser_solver_bench import mid_game_positions, percentile, worker_limit


@pytest.mark.parametrize("values, q, expected", [
    (list(range(1, 61)), 95, 57),  # nearest rank: the 57th of 60
    (list(range(60, 0, -1)), 95, 57),  # order does not matter
    (list(range(1, 21)), 95, 19),
    ([7.5], 95, 7.5),
    ([3, 1, 2], 100, 3),
])
def test_the_percentile_is_a_time_some_position_took(values, q, expected):
    assert percentile(values, q) == expected


def test_the_page_stops_where_the_worker_does():
    # read from app/core/worker.js's MAX_SOLVE_POSITIONS: a change of its form must not pass unseen
    assert worker_limit() >= 1_000_000


def test_mid_game_positions_are_a_quarter_a_third_and_half_way_along_a_shortest_game(app):
    rows = mid_game_positions([1])
    assert [r["part"] for r in rows] == [4, 3, 2]
    for r in rows:
        shortest = r["opening"]["shortest"]
        assert len(r["played"]) == shortest // r["part"] > 0
        assert r["position"] != app.opening(1)
        # the rest of a shortest game is a shortest game from where it stands: the bench checks each answer by it
        assert app.solve(r["position"])["shortest"] == shortest - len(r["played"])
