"""The bundle's shape (generator/inputs/bundle_schema.py), each piece's refusal whole, and every bound at its
edge: a bundle whose every count is 0, every positive number 1 and every list that may not be empty
one item long fits; one past a bound does not."""
import copy

import pytest

from generator.inputs.bundle_schema import (MOVE, SchemaError, boolean, check_shape, integer, list_of, mapping,
                                     number, one_of, passed, record, shown, text, timestamp)
from helpers.bundle_fakes import fake_bundle


def refusal(spec, value) -> str:
    with pytest.raises(SchemaError) as e:
        spec(value, "$.x")
    assert str(e.value) == f"{e.value.where}: {e.value.what}"
    return str(e.value)


def test_a_value_is_shown_as_json_cut_at_40_characters():
    assert shown("x" * 38) == '"' + "x" * 38 + '"'          # 40 characters: whole
    assert shown("x" * 39) == '"' + "x" * 36 + "…"          # 41: the first 37 and an ellipsis
    assert (shown("æ"), shown(None), shown(True), shown(1.5)) == ('"æ"', "null", "true", "1.5")
    assert (shown([1, 2, 3]), shown({"a": 1})) == ("a list of 3", "an object")


@pytest.mark.parametrize("spec, value, message", [
    (integer(0), "5", '$.x: expected an integer, got "5"'),
    (integer(0), True, "$.x: expected an integer, got true"),
    (integer(0), 1.0, "$.x: expected an integer, got 1.0"),
    (integer(0), -1, "$.x: -1 is out of range (0 … )"),
    (integer(1, 9), 10, "$.x: 10 is out of range (1 … 9)"),
    (number(0), "0.5", '$.x: expected a number, got "0.5"'),
    (number(0), True, "$.x: expected a number, got true"),
    (number(0), float("inf"), "$.x: expected a number, got Infinity"),
    (number(0), -0.5, "$.x: -0.5 is out of range (0 … )"),
    (number(0, 1), 1.5, "$.x: 1.5 is out of range (0 … 1)"),
    (text(), 5, "$.x: expected a string, got 5"),
    (text(), {"a": 1}, "$.x: expected a string, got an object"),
    (text("[a-z]+"), "abc1", '$.x: "abc1" is not of the form [a-z]+'),
    (one_of("playing", "won"), "lost", '$.x: expected one of "playing", "won", got "lost"'),
    (one_of(1, 2), True, "$.x: expected one of 1, 2, got true"),
    (boolean, "yes", '$.x: expected true or false, got "yes"'),
    (passed, 1, "$.x: the check did not pass (passed is 1; only true is a pass)"),
    (timestamp, "yesterday", '$.x: "yesterday" is not an ISO date and time'),
    (timestamp, 5, "$.x: expected a string, got 5"),
    (record({"a": integer(0), "b": integer(0)}), [], "$.x: expected an object with keys a, b, got a list of 0"),
    (record({"a": integer(0), "b": integer(0)}), {}, "$.x: missing key(s) a, b"),
    (record({"a": integer(0)}), {"a": 1, "c": 2, "d": 3}, "$.x: unexpected key(s) c, d"),
    (record({"a": integer(0)}, optional={"b": integer(0)}), {"a": 1, "b": -1}, "$.x.b: -1 is out of range (0 … )"),
    (list_of(integer(0)), {}, "$.x: expected a list, got an object"),
    (list_of(integer(0), min_length=2), [1], "$.x: expected at least 2 item(s), got 1"),
    (list_of(integer(0)), [0, -1], "$.x[1]: -1 is out of range (0 … )"),
    (mapping(integer(0)), [], "$.x: expected an object, got a list of 0"),
    (mapping(integer(0), min_length=1), {}, "$.x: expected at least 1 entr(ies), got 0"),
    (mapping(integer(0), r"[a-z]+"), {"ab": 1, "C": 2}, '$.x: key "C" is not of the form [a-z]+'),
    (mapping(integer(0)), {"a": -2}, "$.x.a: -2 is out of range (0 … )"),
])
def test_each_spec_refuses_naming_the_value_and_the_place(spec, value, message):
    assert refusal(spec, value) == message


@pytest.mark.parametrize("spec, value", [
    (integer(0), 0), (integer(1, 9), 9), (number(0), 0), (number(0, 1), 1), (number(0, 1), 0.0),
    (one_of("won"), "won"), (boolean, False), (passed, True), (timestamp, "2025-01-02T03:04:05+00:00"),
    (list_of(integer(0)), []), (mapping(integer(0)), {}), (record({}, optional={"a": integer(0)}), {}),
])
def test_each_spec_takes_the_value_at_its_edge(spec, value):
    spec(value, "$.x")


def edge_bundle() -> dict:
    """The fake bundle with every bound of the shape met exactly (its figures no longer follow:
    check_shape alone reads it)."""
    b = copy.deepcopy(fake_bundle())
    b["inputs"] = dict(list(b["inputs"].items())[:1])
    b["rules"].update(rows=1, pyramid_cards=1, deck_size=1, waste_cards=0, target_sum=1, king_value=1,
                      turns_allowed=0, passes=1, min_deal=1, max_deal=1,
                      points={"perCard": 0, "rowCleared": 0, "win": 0, "perUnusedTurn": 0})
    b["rule_checks"] = {"cards.values": {"app": 0, "independent": 0}}
    position = {"pyramid": [None], "stock": [], "waste": [], "turns_left": 0, "points": 0, "moves": 0,
                "status": "stuck"}
    solver = {"max_removed": 0, "shortest": 0, "positions": 0, "seconds": 0}
    b["examples"] = [{
        "id": "a", "deal": 1, "file": "", "opening": position,
        "steps": [{"number": 1, "move": "turn", "line": 1, "notes": {}, "position": position, "note_lines": {"nb": 1}}],
        "final": {"pyramid_removed": 0, "cards_removed": 0, "stock": 0, "waste": 0, "points": 0, "moves": 0,
                  "status": "won"},
        "search": {"max_removed": 0, "shortest": 0, "winnable": False, "solvers": {"app": solver, "independent": solver}},
        "order": 1, "draft": True, "title": {"nb": "T"}, "summary": {"da-dk": "S"}, "lines": {"title.nb": 1},
        "text_files": {"nb": ""},
    }]
    empty = {"variant": "a", "first": 1, "last": 1, "deals": 0, "won": 0, "lost": 0, "undecided": 0,
             "share": None, "low": 0, "high": 0, "results": ""}
    b["survey"] = {**empty, "pool_size": 0, "pool_deals": [1], "pool": [{"deal": 1, "game": ["draw"]}],
                   "replayed": 0, "redecided": 0}
    b["variants"] = [{**empty, "share": 1, "high": 1}]
    for c in b["checks"]:
        c.update(counts={"a": 0}, seconds=0)
    return b


def test_a_bundle_at_every_edge_of_its_shape_fits():
    check_shape(edge_bundle())
    b = edge_bundle()
    b["examples"][0].update(deal=0xFFFFFFFF, order=None)
    b["examples"][0]["opening"] = copy.deepcopy(fake_bundle()["examples"][0]["opening"])
    b["variants"][0]["results"] = b["survey"]["results"] = "wlu"
    check_shape(b)
    # The solvers' records of verify/solving.py carry their own answer to "can it be won".
    for name in ("app", "independent"):
        b["examples"][0]["search"]["solvers"][name] = {"max_removed": 0, "shortest": 0, "winnable": True,
                                                       "positions": 0, "seconds": 0}
    check_shape(b)


def edit(*path_and_value):
    *path, key, value = path_and_value

    def change(b):
        for step in path:
            b = b[step]
        b[key] = value
    return change


@pytest.mark.parametrize("change, message", [
    (edit("schema", 0), "$.schema: 0 is out of range (1 … )"),
    (edit("inputs", {}), "$.inputs: expected at least 1 entr(ies), got 0"),
    (edit("inputs", {"app/core/engine.js": "0" * 63}), f'$.inputs.app/core/engine.js: "{"0" * 36}… is not of the form [0-9a-f]{{64}}'),
    (edit("rules", "rows", 0), "$.rules.rows: 0 is out of range (1 … )"),
    (edit("rules", "passes", 0), "$.rules.passes: 0 is out of range (1 … )"),
    (edit("rules", "waste_cards", -1), "$.rules.waste_cards: -1 is out of range (0 … )"),
    (edit("rules", "ranks", "A1"), '$.rules.ranks: "A1" is not of the form [A2-9TJQK]+'),
    (edit("rules", "suits", "SX"), '$.rules.suits: "SX" is not of the form [SHDC]+'),
    (edit("rule_checks", {}), "$.rule_checks: expected at least 1 entr(ies), got 0"),
    (edit("rule_checks", {"Cards": {"app": 0, "independent": 0}}), '$.rule_checks: key "Cards" is not of the form [a-z]+\\.[a-z-]+'),
    (edit("checks", []), "$.checks: expected at least 1 item(s), got 0"),
    (edit("examples", []), "$.examples: expected at least 1 item(s), got 0"),
    (edit("variants", []), "$.variants: expected at least 1 item(s), got 0"),
    (edit("examples", 0, "deal", 0x100000000), "$.examples[0].deal: 4294967296 is out of range (1 … 4294967295)"),
    (edit("examples", 0, "deal", 0), "$.examples[0].deal: 0 is out of range (1 … 4294967295)"),
    (edit("examples", 0, "id", "-a"), '$.examples[0].id: "-a" is not of the form [a-z0-9][a-z0-9-]*'),
    (edit("examples", 0, "order", 0), "$.examples[0].order: 0 is out of range (1 … )"),
    (edit("examples", 0, "steps", []), "$.examples[0].steps: expected at least 1 item(s), got 0"),
    (edit("examples", 0, "steps", 0, "line", 0), "$.examples[0].steps[0].line: 0 is out of range (1 … )"),
    (edit("examples", 0, "steps", 0, "move", "jump"), f'$.examples[0].steps[0].move: "jump" is not of the form {MOVE}'),
    (edit("examples", 0, "steps", 0, "notes", {"NB": "x"}),
     '$.examples[0].steps[0].notes: key "NB" is not of the form [a-z]{2,3}(?:-[a-z0-9]{2,8})*'),
    (edit("examples", 0, "opening", "pyramid", []), "$.examples[0].opening.pyramid: expected at least 1 item(s), got 0"),
    (edit("examples", 0, "opening", "pyramid", ["Æ"]), '$.examples[0].opening.pyramid[0]: "Æ" is not of the form [A2-9TJQK][SHDC]'),
    (edit("examples", 0, "opening", "status", "lost"),
     '$.examples[0].opening.status: expected one of "playing", "won", "stuck", got "lost"'),
    (edit("examples", 0, "final", "status", "lost"),
     '$.examples[0].final.status: expected one of "playing", "won", "stuck", got "lost"'),
    (edit("examples", 0, "title", {"nb": " "}), '$.examples[0].title.nb: " " is not of the form [^\\n]*\\S[^\\n]*'),
    (edit("examples", 0, "summary", {"nb": "\n"}), '$.examples[0].summary.nb: "\\n" is not of the form (?s).*\\S.*'),
    (edit("examples", 0, "lines", {"text.nb": 1}),
     '$.examples[0].lines: key "text.nb" is not of the form (title|summary)\\.[a-z]{2,3}(?:-[a-z0-9]{2,8})*'),
    (edit("examples", 0, "search", "solvers", "app", "seconds", -0.5),
     "$.examples[0].search.solvers.app.seconds: -0.5 is out of range (0 … )"),
    (edit("examples", 0, "search", "solvers", "app", "winnable", "yes"),
     '$.examples[0].search.solvers.app.winnable: expected true or false, got "yes"'),
    (edit("survey", "variant", "Standard"), '$.survey.variant: "Standard" is not of the form [a-z][a-z-]*'),
    (edit("survey", "first", 0), "$.survey.first: 0 is out of range (1 … )"),
    (edit("survey", "results", "wlx"), '$.survey.results: "wlx" is not of the form [wlu]*'),
    (edit("survey", "high", 1.5), "$.survey.high: 1.5 is out of range (0 … 1)"),
    (edit("survey", "pool_deals", [0]), "$.survey.pool_deals[0]: 0 is out of range (1 … )"),
    (edit("survey", "pool", 0, "game", []), "$.survey.pool[0].game: expected at least 1 item(s), got 0"),
    (edit("checks", 0, "id", "examples"), '$.checks[0].id: check examples: "examples" is not of the form [a-z]+\\.[a-z]+'),
    (edit("checks", 0, "counts", {"Files": 1}), '$.checks[0].counts: check examples.read: key "Files" is not of the form [a-z_]+'),
    (edit("checks", 0, "seconds", -1), "$.checks[0].seconds: check examples.read: -1 is out of range (0 … )"),
    (edit("checks", 0, "passed", None),
     "$.checks[0].passed: the bundle records failed checks (examples.read): passed is null, and only true is a pass"),
    (edit("checks", 0, {"id": 5}), "$.checks[0]: missing key(s) title, counts, seconds, passed"),
    (edit("verified_at", "2025-13-02"), '$.verified_at: "2025-13-02" is not an ISO date and time'),
])
def test_one_value_past_its_bound_is_refused_whole(change, message):
    b = edge_bundle()
    change(b)
    with pytest.raises(SchemaError) as e:
        check_shape(b)
    assert str(e.value) == message


def test_a_check_missing_or_recorded_twice_is_named():
    b = edge_bundle()
    b["checks"] = b["checks"][1:] + b["checks"][1:2]
    with pytest.raises(SchemaError) as e:
        check_shape(b)
    assert str(e.value) == (
        "$.checks: check(s) examples.read missing (every one of examples.read, rules.constants, deal.regenerated, "
        "game.replayed, notes.true, search.exact, rules.checked, survey.checked, survey.redecided must be "
        "recorded, passed)")
    b["checks"] = edge_bundle()["checks"] + b["checks"][:1] * 2
    with pytest.raises(SchemaError) as e:
        check_shape(b)
    assert str(e.value) == "$.checks: check(s) rules.constants recorded more than once"
    b["checks"] = edge_bundle()["checks"] + edge_bundle()["checks"][2:0:-1]
    with pytest.raises(SchemaError) as e:
        check_shape(b)
    assert str(e.value) == "$.checks: check(s) deal.regenerated, rules.constants recorded more than once"
