"""The game's messages, cross-checked with the independent engine and decider: a sample of the
random games of tests/app/core/message_games.mjs (the app's engine plays them and app/core/messages.js and
app/core/judge.js choose what to say; tests/app/core/messages.test.mjs checks all 10,000 with the app's
own engine and decider) replayed in verify/independent/, and every claim checked there."""
import json
import subprocess
from pathlib import Path

import pytest

from verify.app import find_node
from verify.independent import decider, rules

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (1, 400)  # deals 1 … 400
MAX_NODES = 20_000_000  # a bound far above the app's in the games; beyond it a claim is left out


@pytest.fixture(scope="module")
def games():
    r = subprocess.run([find_node(), str(ROOT / "tests" / "app" / "core" / "message_games.mjs"), *map(str, SAMPLE)],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def result(position: rules.Position) -> str:
    return decider.decide(rules.to_json(position), max_nodes=MAX_NODES).result


def test_the_sample_is_every_deal_of_it(games):
    assert [g["deal"] for g in games] == list(range(SAMPLE[0], SAMPLE[0] + SAMPLE[1]))


def test_every_claim_is_true_in_the_independent_engine_and_decider(games):
    seen = {}
    for game in games:
        positions = [rules.opening(game["deal"])]
        for move in game["moves"]:
            positions.append(rules.apply(positions[-1], move))
        opening = result(positions[0])
        if game["opening"] != "undecided":  # the app's search, bounded, may give up where this one does not
            assert opening == game["opening"], game["deal"]  # the two deciders agree on the deal
        for claim in game["claims"]:
            where = f"deal {game['deal']} after {claim['n']} moves: {claim['key']}"
            pos = positions[claim["n"]]
            key, values = claim.get("key"), claim.get("values", {})
            if claim["kind"] == "covered":
                k = pos.pyramid.index(values["card"])
                assert k not in rules.free_indices(pos), where
                over = [pos.pyramid[j] for j in rules.COVERED_BY[k] if pos.pyramid[j] is not None]
                named = [values["over"]] if key == "refused.free.covered_one" else [values["a"], values["b"]]
                assert sorted(named) == sorted(over), where
            elif claim["kind"] == "hint" and claim["result"] == "won":
                legal = {rules.format_move(m) for m in rules.legal_moves(pos)}
                assert rules.format_move(rules.parse_move(claim["move"])) in legal, where
                assert result(rules.apply(pos, claim["move"])) != "lost", where
            elif claim["kind"] == "hint" and claim["result"] == "lost":
                assert result(pos) != "won", where
                if key == "hint.lost_from_start":
                    assert opening == "lost", where
                if key in ("hint.lost", "hint.lost_back"):
                    assert opening == "won" and claim["n"] > 0, where
                if key == "hint.lost_back":
                    back = values["count"]
                    assert result(positions[claim["n"] - back]) == "won", where
                    assert result(positions[claim["n"] - back + 1]) != "won", where
            elif claim["kind"] == "stuck":
                assert rules.legal_moves(pos) == [] and rules.status(pos) == "stuck", where
                if key == "messages.stuck_lost_deal":
                    assert opening == "lost", where
                if key == "messages.stuck":
                    assert opening == "won", where
            elif claim["kind"] == "won":
                assert rules.status(pos) == "won" and pos.points == values["points"], where
            seen[key] = seen.get(key, 0) + 1
    for key in ("refused.free.covered_one", "refused.free.covered_two", "hint.checked", "hint.lost_back",
                "hint.lost_from_start", "messages.stuck", "messages.stuck_lost_deal"):
        assert seen.get(key, 0) >= 5, (key, seen)
