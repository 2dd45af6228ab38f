"""verify/independent/decider.py's prunings, fast enough for `make mutation
MODULE=independent-decider`: the 600 small positions of tests/data/decider_positions.json
(made by tests/data/make_decider_positions.py), each with whether it can be won under its
variant as the independent decider's plain search and the independent exhaustive solver
(verify/independent/solver.py, a search of its own) both answer. With every pruning on, and with
each one left out, every answer must be that one, a won line must win when replayed move by move
(verify/independent/rules.py for the standard rules, the variant replayer for the others), and
each setting must enter the card sets the data records for it: those the app's decider, written
apart, enters too within 1 % (tests/app/core/decider_prunings.test.mjs), so a pruning weakened, or
cutting where its proof does not reach, shows. tests/verify/survey/test_survey.py holds each pruning on its own
and the plain search to the same answers over played positions (the unpruned settings take a
minute without numba's compiler, which a mutation run goes without: see modules.toml)."""
import json
from pathlib import Path

import pytest
from helpers.cpu_limit import cpu_seconds_without_the_compiler

from verify.independent import decider, rules
from verify.independent.variants import VARIANTS

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "decider_positions.json").read_text(encoding="utf-8"))
PRUNINGS = {"kingFirst": "king_first", "deadCards": "dead_cards", "sideKings": "side_kings", "forcedPairs": "forced_pairs"}
# Every pruning on, then each one left out: the data's names for them (the app's option names).
SETTINGS = [{}] + [{name: False} for name in PRUNINGS]


@pytest.fixture(autouse=True)
def no_endless_loop():
    """A mutant's loop fails its test after 120 CPU-seconds without the compiler (a test takes a
    few)."""
    with cpu_seconds_without_the_compiler(120):
        yield


def replays_to_a_win(start: dict, line: list[str], variant: str) -> bool:
    if variant == "standard":
        position = rules.from_json(start)
        for move in line:
            position = rules.apply(position, move)
        return rules.status(position) == "won"
    return decider.replay(start, line, VARIANTS[variant])["won"]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: json.dumps(s, separators=(",", ":")))
def test_each_setting_gives_every_answer_and_enters_the_card_sets_recorded(setting):
    prune = {PRUNINGS[name]: on for name, on in setting.items()}
    nodes = 0
    for i, case in enumerate(DATA["cases"]):
        d = decider.decide(case["position"], VARIANTS[case["variant"]], **prune)
        assert d.result == case["result"], f"case {i} ({case['variant']})"
        if d.result == "won":
            assert replays_to_a_win(case["position"], d.line, case["variant"]), f"case {i} ({case['variant']}): {d.line}"
        else:
            assert d.line is None
        nodes += d.nodes
    assert nodes == DATA["nodes"][json.dumps(setting, separators=(",", ":"))]


def test_every_pruning_saves_card_sets():
    """Each one left out, the others on, enters more card sets than all of them together."""
    recorded = {json.loads(key).get(name) for key in DATA["nodes"] for name in PRUNINGS}
    assert recorded == {None, False, True}
    all_on = DATA["nodes"]["{}"]
    for name in PRUNINGS:
        assert DATA["nodes"][json.dumps({name: False}, separators=(",", ":"))] > all_on, name


def standard(pyramid: dict, stock=(), waste=(), turns_left=2) -> dict:
    places = [None] * 28
    for k, code in pyramid.items():
        places[k] = code
    return {"pyramid": places, "stock": list(stock), "waste": list(waste), "turns_left": turns_left, "points": 0, "moves": 0}


def test_a_node_limit_stops_the_search_undecided():
    start = next(c["position"] for c in DATA["cases"] if c["variant"] == "standard" and c["result"] == "lost"
                 and decider.decide(c["position"], dead_cards=False).nodes > 5)
    limited = decider.decide(start, dead_cards=False, max_nodes=3)
    assert (limited.result, limited.line) == ("undecided", None)
    assert decider.decide(start, dead_cards=False, max_nodes=10**6).result == "lost"


def test_dead_cards_two_cards_whose_only_partner_is_one_card_are_seen_at_once():
    """6H and 6D at the top need a 7: 7S and 7H cover both, so only the stock's 7D can pair with
    either; the 6C could take any 7, so there are as many 7s as 6s, and only the two together
    show the loss (Hall's condition). The plain search finds it lost after some card sets."""
    start = standard({0: "KS", 1: "6H", 2: "6D", 3: "KH", 4: "7S", 5: "6C", 7: "7H"}, stock=["7D", "6S"])
    assert decider.decide(start) == decider.Decision("lost", None, 0)
    plain = decider.decide(start, king_first=False, dead_cards=False, side_kings=False, forced_pairs=False)
    assert plain.result == "lost" and plain.nodes > 0


def test_an_empty_pyramid_is_won_and_a_strict_game_takes_the_kings_beside_it():
    assert decider.decide(standard({}, stock=["QD"])) == decider.Decision("won", [], 0)
    strict = {"strictWin": True}
    assert decider.decide(standard({}, stock=["QD"]), strict) == decider.Decision("lost", None, 0)
    assert decider.decide(standard({}, stock=["KD", "KC"], waste=["KS", "KH"]), strict) == \
        decider.Decision("won", ["king KH", "king KS", "draw", "king KD", "draw", "king KC"], 0)


def test_a_strict_win_ends_with_the_kings_left_beside_the_pyramid():
    start = standard({21: "6H"}, stock=["7S", "KD"], waste=["KC"])
    d = decider.decide(start, {"strictWin": True})
    assert d.result == "won"
    end = decider.replay(start, d.line, {"strictWin": True})
    assert end["won"] and not end["stock"] and not end["waste"]


def test_a_position_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="^a position has 28 pyramid places and at most 24 cards beside$"):
        decider.decide({**standard({0: "AS"}), "pyramid": [None] * 27 + ["AS", None]})
    with pytest.raises(ValueError, match="^a position has 28 pyramid places and at most 24 cards beside$"):
        deck = [r + s for s in "SHDC" for r in "A23456789TJQK"]
        decider.decide(standard({0: "AS"}, stock=deck[1:26]))


def test_a_decided_deal_is_its_opening_decided():
    for n in (1, 2, 3):
        assert decider.decide_deal(n) == decider.decide(decider.opening(n))
    assert decider.opening(5, {"turns": 0})["turns_left"] == 0
    assert decider.opening(5)["turns_left"] == 2
