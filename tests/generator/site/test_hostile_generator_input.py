"""Hostile input to the generator and the example reader (issue 12, item 8): whatever text or
bytes a contributor puts in a page source, a strings file, the bundle or an example file, the
build either accepts it or refuses it with a BuildError (ExampleError) naming the file — never
another exception, never a hang."""
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from generator.site import build as site
from generator.inputs.bundle import load_bundle
from generator.errors import BuildError
from verify.examples import ExampleError, load_example
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
# Text with YAML, Jinja, Markdown and HTML punctuation well represented.
PIECES = list("{}%#[]()<>!&*|:-'\"\\\n\t ab1ø\x00\ufeff") + ["{{ ", " }}", "{% ", " %}", "&a ", "*a", "<script>", "- ", ": "]
HOSTILE = st.lists(st.sampled_from(PIECES), max_size=60).map("".join) | st.text(max_size=200)


@pytest.fixture(scope="module")
def bundle_path():
    path = ROOT / "build" / "verified.json"
    if not path.exists():
        from helpers.cached_builds import ensure_bundle
        ensure_bundle()
    return path


@pytest.fixture
def docs(tmp_path):
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy)
    return copy


def refused_cleanly(action, file: Path) -> None:
    try:
        action()
    except BuildError as e:
        assert str(e).strip(), "an empty message"
        assert str(file) in str(e) or file.name in str(e), str(e)


@FAST
@given(text=HOSTILE)
def test_any_page_source_is_rendered_or_refused(docs, bundle_path, text):
    page = docs / "nb" / "pages" / "variants.md"
    page.write_text(text, encoding="utf-8")
    refused_cleanly(lambda: site.gather(bundle_path, docs), page)


@FAST
@given(text=HOSTILE)
def test_any_strings_file_is_read_or_refused(docs, bundle_path, text):
    strings = docs / "da" / "strings.yml"
    strings.write_text(text, encoding="utf-8")
    refused_cleanly(lambda: site.gather(bundle_path, docs), strings)


@FAST
@given(data=st.binary(max_size=300))
def test_any_bytes_as_a_strings_file_are_refused(docs, bundle_path, data):
    strings = docs / "nb" / "strings.yml"
    strings.write_bytes(data)
    refused_cleanly(lambda: site.gather(bundle_path, docs), strings)


@FAST
@given(data=st.binary(max_size=300) | HOSTILE.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bundle_bytes_are_refused(tmp_path, data):
    bundle = tmp_path / "verified.json"
    bundle.write_bytes(data)
    with pytest.raises(BuildError, match="verified.json"):
        load_bundle(bundle)


@FAST
@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=20),
       key=st.sampled_from(["survey", "examples", "checks", "rules", "inputs", "rule_checks", "variants"]))
def test_a_bundle_with_any_value_in_any_place_is_refused(tmp_path, bundle_path, value, key):
    bundle = json.loads(bundle_path.read_text(encoding="utf-8"))
    bundle[key] = value
    path = tmp_path / "verified.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    with pytest.raises(BuildError, match="verified.json"):
        load_bundle(path)


@FAST
@given(data=st.binary(max_size=400) | HOSTILE.map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_example_file_is_read_or_refused(tmp_path, data):
    example = tmp_path / "x.yaml"
    example.write_bytes(data)
    try:
        load_example(example, LANGUAGES)
    except ExampleError as e:
        assert str(e).startswith(str(example)), str(e)
