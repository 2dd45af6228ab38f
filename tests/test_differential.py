"""The app's engine (JavaScript, via the bridge) and the independent engine (Python) on many
random games: identical layouts, legal-move sets, positions, points, moves and status after
every move, undo steps included."""
import json
import os
import random
from pathlib import Path

import pytest

from verify.independent import deal, rules

GAMES = int(os.environ.get("PYRAMIDE_DIFF_GAMES", "10000"))
GOLDEN = json.loads((Path(__file__).parent / "data" / "golden_deals.json").read_text())


def random_game(rng: random.Random, n: int):
    """Random legal moves (turns included) with some undo steps; returns (moves, expected steps).
    Each position's legal moves are worked out once, for the choice and for the comparison."""
    game = rules.Game(n)
    moves, steps = [], []
    legal = rules.legal_moves(game.position)
    while len(moves) < 150:
        if game.history[1:] and (not legal or rng.random() < 0.05):
            game.undo()
            moves.append("undo")
        elif not legal:
            break
        else:
            # Prefer removals a little, so games get deep into the pyramid.
            removals = [m for m in legal if m.kind in ("pair", "king")]
            pick = rng.choice(removals if removals and rng.random() < 0.6 else legal)
            game.play(pick)
            moves.append(rules.format_move(pick))
        pos = game.position
        legal = rules.legal_moves(pos)
        steps.append({"position": rules.to_json(pos), "legal": sorted(map(rules.format_move, legal))})
    return moves, steps


@pytest.mark.parametrize("n", sorted(GOLDEN, key=int))
def test_golden_deals_in_both_engines(app, n):
    assert app.deal(int(n)) == GOLDEN[n]
    assert deal.layout_json(deal.deal(int(n)), int(n)) == GOLDEN[n]


# The games in parts, each with its own seed, so that pytest-xdist can spread them over cores.
PARTS = 8


@pytest.mark.parametrize("part", range(PARTS))
def test_random_games_agree_move_by_move(app, part):
    rng = random.Random(20261129 + part)
    games = GAMES // PARTS + (part < GAMES % PARTS)
    compared = 0
    for _ in range(games):
        n = rng.randint(1, deal.MAX_DEAL if hasattr(deal, "MAX_DEAL") else 4294967295)
        opening = app.opening(n)
        assert opening == rules.to_json(rules.opening(n)), f"deal {n}: openings differ"
        assert sorted(app.legal_moves(opening)) == sorted(map(rules.format_move, rules.legal_moves(rules.opening(n))))
        moves, expected = random_game(rng, n)
        got = app.replay(n, moves, trace=True)["steps"]
        assert len(got) == len(expected)
        for i, (g, e) in enumerate(zip(got, expected)):
            assert g["position"] == e["position"], f"deal {n}, after move {i + 1} ({moves[i]}): positions differ"
            assert sorted(g["legal"]) == e["legal"], f"deal {n}, after move {i + 1} ({moves[i]}): legal moves differ"
            compared += 1
    assert compared > games * 20  # the games really went somewhere
