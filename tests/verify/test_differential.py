"""The app's engine (JavaScript, via the bridge) and the independent engine (Python) on many
random games: identical layouts, legal-move sets, positions, points, moves and status after
every move, undo steps included; and, along the way, every move either engine could be offered
that is not listed as legal is refused by both, for the same rule."""
import json
import os
import random
from pathlib import Path

import pytest

from verify.compare import play_both
from verify.errors import MoveRefused
from verify.independent import deal, rules

GAMES = int(os.environ.get("PYRAMIDE_DIFF_GAMES", "10000"))
GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_deals.json").read_text())


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


# Rules an illegal move can break that the offered moves below reach in these games.
REFUSAL_RULES = {"removed.gone", "pair.one-waste", "free.covered", "king.alone", "pair.thirteen",
                 "draw.nonempty", "turn.when"}
ILLEGAL_GAMES = 15


def unlisted_moves(rng: random.Random, position: dict, legal: list[str]) -> list[str]:
    """Moves not in `legal`: every pair and king over the free cards, the waste's two top cards
    and the stock's top (so pairs worth 12 or 14, pairs under a card, two waste cards), a few
    with a covered card or a removed one, and a draw or a turn out of place."""
    pyramid = [c for c in position["pyramid"] if c]
    free = rules.available_cards(rules.from_json(position))
    near = list(dict.fromkeys(free + position["waste"][-2:] + position["stock"][:1]))
    gone = sorted(set(rules.to_json(rules.opening(1))["stock"] + rules.to_json(rules.opening(1))["pyramid"])
                  - set(pyramid + position["stock"] + position["waste"]))
    far = rng.sample(pyramid, min(3, len(pyramid))) + rng.sample(gone, min(2, len(gone)))
    offered = [f"pair {a} {b}" for i, a in enumerate(near) for b in near[i + 1:]]
    offered += [f"pair {a} {b}" for a in far for b in near] + [f"king {c}" for c in near + far]
    offered += ["draw", "turn"]
    listed = set(legal)
    return [m for m in offered if m not in listed and f"pair {' '.join(m.split()[:0:-1])}" not in listed]


def test_moves_not_listed_as_legal_are_refused_by_both_engines_for_the_same_rule(app):
    rng = random.Random(20260402)
    refused: dict[str, int] = {}
    for _ in range(ILLEGAL_GAMES):
        n = rng.randint(1, 4294967295)
        _, steps = random_game(rng, n)
        for step in steps[::10]:
            for move in unlisted_moves(rng, step["position"], step["legal"]):
                # play_both raises Disagreement when only one engine refuses or the rules differ
                with pytest.raises(MoveRefused) as e:
                    play_both(app, step["position"], [move])
                refused[e.value.rule] = refused.get(e.value.rule, 0) + 1
    assert REFUSAL_RULES <= set(refused), refused
