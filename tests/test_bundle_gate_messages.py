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
