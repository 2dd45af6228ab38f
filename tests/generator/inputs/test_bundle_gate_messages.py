"""The bundle gate's refusals, each message whole (tests/verify/test_bundle_gate.py damages the bundle
value by value and looks for the value's part): what is wrong, where, and the one fix, «Run
`make verify` …»; and the gate's interval the same as the survey's own, computed on the other
side of the wall (the generator never imports verify/)."""
import copy
import math

import pytest

from generator.inputs.bundle import load_bundle, wilson
from generator.errors import BuildError
from helpers.bundle_fakes import fake_bundle, figures, write
from verify.survey.figures import wilson as survey_wilson

FIX = "Run `make verify` to check everything again and write a fresh bundle."


def refused(path) -> str:
    with pytest.raises(BuildError) as e:
        load_bundle(path)
    return str(e.value)


def test_a_missing_bundle(tmp_path):
    path = tmp_path / "verified.json"
    assert refused(path) == f"{path}: the verified data bundle is missing. {FIX}"


def test_a_bundle_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "verified.json"
    path.write_text('{\n"schema": 1,\n oops}', encoding="utf-8")
    assert refused(path) == (f"{path}, line 3: the bundle is not valid JSON "
                             f"(Expecting property name enclosed in double quotes). {FIX}")


def test_a_bundle_that_is_not_readable_names_why(tmp_path):
    path = tmp_path / "verified.json"
    path.write_bytes(b'{"schema": \xff}')
    assert refused(path) == f"{path}: the bundle is not readable JSON (UnicodeDecodeError). {FIX}"


def test_another_schema_is_named_before_anything_else(tmp_path):
    bundle = fake_bundle()
    bundle["schema"] = 999
    bundle["unexpected"] = True
    path = write(tmp_path, bundle)
    from generator.settings import BUNDLE_SCHEMA
    assert refused(path) == f"{path}: bundle schema 999, this generator reads {BUNDLE_SCHEMA}. {FIX}"


def test_a_shape_error_ends_with_the_fix(tmp_path):
    bundle = fake_bundle()
    del bundle["schema"]
    path = write(tmp_path, bundle)
    message = refused(path)
    assert message.startswith(f"{path}: ") and message.endswith(f". {FIX}")


@pytest.mark.parametrize("k, n", [(0, 10), (1, 10), (5, 10), (10, 10), (7, 10000), (9000, 10000), (0, 0)])
def test_the_gates_interval_is_the_surveys(k, n):
    mine, theirs = wilson(k, n), survey_wilson(k, n)
    assert all(math.isclose(a, b, rel_tol=0, abs_tol=1e-12) for a, b in zip(mine, theirs)), (mine, theirs)


def test_a_changed_input_makes_the_bundle_stale(tmp_path):
    bundle = fake_bundle()
    bundle["inputs"]["app/core/engine.js"] = "0" * 64
    path = write(tmp_path, bundle)
    assert refused(path) == (f"{path}: app/core/engine.js has changed since the bundle was made, "
                             f"so its figures are stale. {FIX}")


def test_an_input_that_is_gone_makes_the_bundle_stale(tmp_path):
    bundle = fake_bundle()
    bundle["inputs"]["examples/gone-long-ago.yaml"] = "0" * 64
    path = write(tmp_path, bundle)
    assert refused(path) == f"{path}: made from examples/gone-long-ago.yaml, which no longer exists. {FIX}"


def test_an_input_that_is_a_folder_is_refused(tmp_path):
    from generator.settings import ROOT
    bundle = fake_bundle()
    bundle["inputs"]["docs"] = "0" * 64
    path = write(tmp_path, bundle)
    assert refused(path) == f"{ROOT / 'docs'}: a symbolic link or not a regular file; the build reads only regular files"


@pytest.mark.parametrize("left_out", ["app/core/engine.js", "examples/", "docs/"])
def test_a_file_the_bundle_was_not_made_from_makes_it_stale(tmp_path, left_out):
    bundle = fake_bundle()
    names = sorted(n for n in bundle["inputs"] if n.startswith(left_out.rstrip("/")))
    assert names, left_out
    gone = names[:2]
    for name in gone:
        del bundle["inputs"][name]
    path = write(tmp_path, bundle)
    assert refused(path) == f"{path}: {', '.join(sorted(gone))} came after the bundle was made. {FIX}"


def test_a_figure_off_by_more_than_the_tolerance_is_named_with_both_values():
    from generator.inputs.bundle import SchemaError, expect
    expect("$.x", 0.5, 0.5 + 1e-12, "the detail")  # float noise passes
    with pytest.raises(SchemaError) as e:
        expect("$.x", 0.5, 0.5 + 1.5e-9, "the detail")
    assert (e.value.where, e.value.what) == ("$.x", f"is 0.5, but the detail gives {0.5 + 1.5e-9}")
    with pytest.raises(SchemaError) as e:
        expect("$.r", "wwlw", "wwww", "the survey")
    assert e.value.what == 'is "wwlw", but the survey gives "wwww" (first difference at index 2)'
    with pytest.raises(SchemaError) as e:
        expect("$.r", "ww", "www", "the survey")
    assert e.value.what == 'is "ww", but the survey gives "www" (first difference at index 2)'
    with pytest.raises(SchemaError) as e:
        expect("$.n", 3, 4, "the count")
    assert e.value.what == "is 3, but the count gives 4"


def test_a_long_value_is_quoted_cut_short():
    from generator.inputs.bundle import brief
    assert brief("w" * 58) == '"' + "w" * 58 + '"'           # 60 characters as JSON: whole
    assert brief("w" * 59) == '"' + "w" * 58 + "…"            # 61: cut to 59 and the ellipsis
    assert brief("æ") == '"æ"'


# ---------------------------------------------------------------- each figure's refusal, whole

def refusal_of(tmp_path, damage) -> str:
    """The refusal of the fake bundle damaged by `damage`, without the path and the fix around it."""
    bundle = copy.deepcopy(fake_bundle())  # its rules are tests/helpers/bundle_fakes.py's RULES, shared
    damage(bundle)
    path = write(tmp_path, bundle)
    message = refused(path)
    assert message.startswith(f"{path}: ") and message.endswith(f". {FIX}"), message
    return message[len(f"{path}: "):-len(f". {FIX}")]


def last_position(b) -> dict:
    return b["examples"][0]["steps"][-1]["position"]


def set_key(*path_and_value):
    *path, key, value = path_and_value

    def damage(b):
        for step in path:
            b = b[step]
        b[key] = value
    return damage


def with_title_and_lines(title: dict, summary: dict, lines: dict):
    def damage(b):
        b["examples"][0].update(title=title, summary=summary, lines=lines)
    return damage


def duplicate(key):
    def damage(b):
        b[key].append(copy.deepcopy(b[key][-1]))
    return damage


def pop_pyramid_card(where):
    def damage(b):
        example = b["examples"][0]
        (example["opening"] if where == "opening" else example["steps"][where]["position"])["pyramid"].pop()
    return damage


@pytest.mark.parametrize("damage, message", [
    # The rules against themselves.
    (set_key("rules", "pyramid_cards", 27), "$.rules.pyramid_cards: is 27, but a pyramid of $.rules.rows rows gives 28"),
    (set_key("rules", "deck_size", 51), "$.rules.deck_size: is 51, but $.rules.ranks times $.rules.suits gives 52"),
    (set_key("rules", "king_value", 12), "$.rules.king_value: is 12, but the place of K in $.rules.ranks gives 13"),
    (set_key("rules", "passes", 4), "$.rules.passes: is 4, but $.rules.turns_allowed + 1 gives 3"),
    # An example against its own steps.
    (pop_pyramid_card("opening"),
     "$.examples[0].opening.pyramid: is 27, but the length of a pyramid ($.rules.pyramid_cards) gives 28"),
    (pop_pyramid_card(1),
     "$.examples[0].steps[1].position.pyramid: is 27, but the length of a pyramid ($.rules.pyramid_cards) gives 28"),
    (set_key("examples", 0, "steps", 1, "number", 5), "$.examples[0].steps[1].number: is 5, but its place in the list gives 2"),
    (set_key("examples", 0, "final", "cards_removed", 3),
     "$.examples[0].final.cards_removed: is 3, but the cards gone by the last step gives 2"),
    (set_key("examples", 0, "final", "stock", 21), "$.examples[0].final.stock: is 21, but the last step's stock gives 22"),
    (set_key("examples", 0, "final", "waste", 1), "$.examples[0].final.waste: is 1, but the last step's waste gives 2"),
    (set_key("examples", 0, "final", "points", 15), "$.examples[0].final.points: is 15, but the last step's points gives 10"),
    (set_key("examples", 0, "final", "status", "won"),
     '$.examples[0].final.status: is "won", but the last step\'s status gives "playing" (first difference at index 0)'),
    (set_key("examples", 0, "search", "shortest", 4),
     "$.examples[0].search.shortest: is 4, but the number of steps (the shown game is a shortest one) gives 3"),
    (set_key("examples", 0, "search", "max_removed", 3),
     "$.examples[0].search.max_removed: is 3, but final.pyramid_removed gives 2"),
    (set_key("examples", 0, "search", "winnable", True),
     "$.examples[0].search.winnable: is true, but max_removed against the opening's pyramid gives false"),
    (set_key("examples", 0, "search", "solvers", "independent", "max_removed", 1),
     "$.examples[0].search.solvers.independent.max_removed: is 1, but search.max_removed gives 2"),
    (set_key("examples", 0, "search", "solvers", "app", "shortest", 5),
     "$.examples[0].search.solvers.app.shortest: is 5, but search.shortest gives 3"),
    (duplicate("examples"), "$.examples[0].id: example id 'small' is used more than once"),
    # Each title and summary with its line, and no line without its text.
    (with_title_and_lines({"nb": "Et spill"}, {}, {}), "$.examples[0].lines: no line for title.nb"),
    (with_title_and_lines({}, {"da": "Et spil"}, {"summary.da": 4, "title.nb": 3}),
     "$.examples[0].lines: a line for a missing title.nb"),
    # The survey against its per-deal results (12 deals from deal 1, 5 won, 6 lost).
    (set_key("survey", "last", 13), "$.survey.last: is 13, but $.survey.first and one result per deal (12) gives 12"),
    (set_key("survey", "deals", 11), "$.survey.deals: is 11, but the per-deal results gives 12"),
    (set_key("survey", "share", None), "$.survey.share: is null, but 11 deals were decided"),
    (set_key("survey", "pool_deals", [1, 3, 5]), "$.survey.pool_deals: is [1, 3, 5], but the deals of $.survey.pool gives [1, 3, 6] "
     "(first difference at index 2)"),
    (set_key("survey", "replayed", 4), "$.survey.replayed: is 4, but every won deal's game replayed gives 5"),
    (set_key("survey", "redecided", 7), "$.survey.redecided: 7 lost deals decided again, but only 6 were lost"),
    (duplicate("variants"), "$.variants[1].variant: variant 'strict' is listed more than once"),
    # A covered variant row starting after the survey's first deal: its own deals, not the first ones.
    (set_key("variants", 0, figures("standard", 3, "wllwll")),
     '$.variants[0].results: is "wllwll", but $.survey.results over the same deals gives "wllwlw" '
     "(first difference at index 5)"),
    (lambda b: b["checks"][0]["counts"].pop("moves"), "$.checks[0].counts: check examples.read: missing count moves"),
])
def test_each_figure_that_does_not_follow_is_refused_whole(tmp_path, damage, message):
    assert refusal_of(tmp_path, damage) == message


def test_the_fake_bundles_figures_are_what_the_messages_above_say():
    """The figures the messages above give, from the fake bundle's own detail."""
    b = fake_bundle()
    last = last_position(b)
    assert (len(last["stock"]), len(last["waste"]), last["points"], last["status"]) == (22, 2, 10, "playing")
    assert b["survey"]["results"][2:8] == "wllwlw"


def accepted(tmp_path, change) -> None:
    bundle = copy.deepcopy(fake_bundle())
    change(bundle)
    assert load_bundle(write(tmp_path, bundle)) == bundle


@pytest.mark.parametrize("change", [
    # A title and a summary, each with its line.
    with_title_and_lines({"nb": "Et spill", "da": "Et spil"}, {"da": "Kort"}, {"title.nb": 3, "title.da": 4, "summary.da": 5}),
    # Variant rows covered by the survey at its ends and over one deal: the same results there.
    set_key("variants", 0, figures("standard", 3, "wll")),
    set_key("variants", 0, figures("standard", 5, "l")),
    set_key("variants", 0, figures("standard", 7, "lwlluw")),
    # The pool: every won deal, the last deal of the survey among them; or none.
    lambda b: b["survey"].update(pool_size=5, pool_deals=[1, 3, 6, 8, 12],
                                 pool=[{"deal": n, "game": ["draw"]} for n in (1, 3, 6, 8, 12)]),
    lambda b: b["survey"].update(pool_size=0, pool_deals=[], pool=[]),
    # A count recorded as a float with noise, the recomputed one an integer.
    lambda b: b["checks"][0]["counts"].update(moves=3 + 1e-12),
])
def test_a_bundle_whose_figures_follow_is_accepted(tmp_path, change):
    accepted(tmp_path, change)


@pytest.mark.parametrize("results, share, message", [
    ("uu", None, None),
    ("uu", 0.5, "$.v.share: no deal was decided, so there is no share"),
    ("wu", 1.0, None),  # one deal decided
    ("lu", 0.0, None),
])
def test_a_share_is_null_exactly_when_no_deal_was_decided(results, share, message):
    from generator.inputs.bundle import SchemaError, check_survey
    won, lost = results.count("w"), results.count("l")
    low, high = survey_wilson(won, won + lost)
    figures_ = {"variant": "standard", "first": 1, "last": len(results), "deals": len(results), "won": won,
                "lost": lost, "undecided": results.count("u"), "share": share, "low": low, "high": high,
                "results": results}
    if message is None:
        check_survey(figures_, "$.v")
    else:
        with pytest.raises(SchemaError) as e:
            check_survey(figures_, "$.v")
        assert f"{e.value.where}: {e.value.what}" == message


def test_an_interval_off_the_wilson_one_is_refused_naming_it(tmp_path):
    low, high = survey_wilson(5, 11)
    assert refusal_of(tmp_path, set_key("survey", "low", 0.5)) == (
        f"$.survey.low: is 0.5, but the 95 % Wilson interval of won / (won + lost) gives {low}")
    assert refusal_of(tmp_path, set_key("survey", "high", 0.9)) == (
        f"$.survey.high: is 0.9, but the 95 % Wilson interval of won / (won + lost) gives {high}")


def test_a_symbolic_link_among_the_files_a_bundle_is_made_from_is_refused(tmp_path, monkeypatch):
    import generator.inputs.bundle as gate
    root = tmp_path / "root"
    (root / "app" / "core").mkdir(parents=True)
    (root / "examples").mkdir()
    (root / "app" / "core" / "engine.js").write_text("// the app\n")
    (root / "examples" / "linked.yaml").symlink_to(root / "app" / "core" / "engine.js")
    monkeypatch.setattr(gate, "ROOT", root)
    import hashlib
    bundle = {"inputs": {"app/core/engine.js": hashlib.sha256(b"// the app\n").hexdigest()},
              "input_patterns": ["examples/*.yaml", "app/**/*.js"]}
    with pytest.raises(BuildError) as e:
        gate.check_fresh(bundle, tmp_path / "verified.json")
    assert str(e.value) == f"{root / 'examples' / 'linked.yaml'}: a symbolic link; the build reads only regular files"
