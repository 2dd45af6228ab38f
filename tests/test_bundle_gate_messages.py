"""The bundle gate's refusals, each message whole (tests/test_bundle_gate.py damages the bundle
value by value and looks for the value's part): what is wrong, where, and the one fix, «Run
`make verify` …»; and the gate's interval the same as the survey's own, computed on the other
side of the wall (the generator never imports verify/)."""
import math

import pytest

from generator.bundle import load_bundle, wilson
from generator.errors import BuildError
from test_bundle_gate import fake_bundle, write
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
    bundle["inputs"]["app/engine.js"] = "0" * 64
    path = write(tmp_path, bundle)
    assert refused(path) == (f"{path}: app/engine.js has changed since the bundle was made, "
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


@pytest.mark.parametrize("left_out", ["app/engine.js", "examples/", "docs/"])
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
    from generator.bundle import SchemaError, expect
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
    from generator.bundle import brief
    assert brief("w" * 58) == '"' + "w" * 58 + '"'           # 60 characters as JSON: whole
    assert brief("w" * 59) == '"' + "w" * 58 + "…"            # 61: cut to 59 and the ellipsis
    assert brief("æ") == '"æ"'
