"""A mistake in the content is named by its file and line; a bug in the generator is not blamed
on the content (generator/render/pages.py render_page, generator/site/build.py gather).

Content faults: Jinja's refusals (a syntax error, an undefined name), the sandbox's (SecurityError,
its bounds), a page function's or filter's own refusal (BuildError), a call with arguments the
function does not take, and what the page's own expression does to its values (a division by
zero, a filter given what it cannot write); in the strings, one that build_context reads and
cannot use. Anything else, above all an error from inside a page function or from build_context
itself, is a bug of the generator's and keeps its traceback."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from generator.errors import BuildError
from generator.render import pages
from generator.render.pages import PageFunctions
from generator.site import build as site
from helpers.page_sandbox import bundle_path, nb, render_one  # noqa: F401  (the fixtures and the one-page build)

ROOT = Path(__file__).resolve().parents[3]


def page_error(nb, tmp_path, text: str) -> str:
    """The one line the build prints for a page "Tekst." and then `text`, from "line 2: " on."""
    with pytest.raises(BuildError) as e:
        render_one(nb, tmp_path, f"Tekst.\n{text}\n")
    prefix = f"{tmp_path / 'pages' / 'page.md'}, line 2: "
    assert str(e.value).startswith(prefix) and "\n" not in str(e.value), str(e.value)
    return str(e.value).removeprefix(prefix)


def test_a_bug_in_a_page_function_is_not_the_pages_mistake(nb, tmp_path, monkeypatch):
    def planted(self):
        return 1 // 0
    monkeypatch.setattr(PageFunctions, "pairs_table", planted)
    with pytest.raises(ZeroDivisionError):
        render_one(nb, tmp_path, "Tekst.\n{{ pairs_table() }}\n")


def test_a_lookup_gone_wrong_in_a_page_function_is_not_a_missing_string(nb, tmp_path, monkeypatch):
    def planted(self, example_id):
        return self.c["no such key"]
    monkeypatch.setattr(PageFunctions, "summary", planted)
    with pytest.raises(KeyError, match="no such key"):
        render_one(nb, tmp_path, "Tekst.\n{{ summary(example_list[0].id) }}\n")


def test_a_bug_outside_the_pages_own_lines_is_not_the_pages_mistake(nb, tmp_path, monkeypatch):
    def planted(source, typed):
        raise TypeError("planted")
    monkeypatch.setattr(pages, "typed_number_check", planted)
    with pytest.raises(TypeError, match="planted"):
        render_one(nb, tmp_path, "Tekst.\n")


@pytest.mark.parametrize("text, message", [
    # the same error as the planted bug, made by the page's own expression
    ("{{ rules.deck_size // (rules.deck_size - rules.deck_size) }}",
     "cannot compute a value: integer division or modulo by zero"),
    ("{{ 'ZZ' | card }}", "cannot compute a value: not a card code: 'ZZ'"),
    ("{{ no_such_name }}", "unknown name in the template: 'no_such_name' is undefined"),
    ("{{ rule() }}", "rule(): missing a required argument: 'rule_id'"),
    ("{{ pairs_table(rules) }}", "pairs_table(): too many positional arguments"),
    ("{{ rule(rules) }}", "rule('"),
    ("{{ summary(ranks) }}", "no example '"),
    ("{{ picture(example_list[0].id, 9999) }}", "picture('"),
    ("{{ picture(example_list[0].id, 'x') }}", "picture('"),
    ("{{ rules.target_sum ** rules.target_sum }}", "refused by the page sandbox: '**' is not available in a page"),
])
def test_a_content_fault_still_names_file_and_line(nb, tmp_path, text, message):
    assert page_error(nb, tmp_path, text).startswith(message)


def test_a_step_a_picture_cannot_show_is_named(nb, tmp_path):
    assert "no such move; give \"opening\" or the number of one of the example's" in page_error(
        nb, tmp_path, "{{ picture(example_list[0].id, 0 - 1) }}")


@pytest.fixture
def docs(tmp_path):
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy)
    return copy


def test_a_bug_in_build_context_is_not_blamed_on_the_strings(docs, bundle_path, monkeypatch):
    def planted(bundle, lang, facts):
        return bundle["no such key"]
    monkeypatch.setattr(site, "build_context", planted)
    with pytest.raises(KeyError, match="no such key"):
        site.gather(bundle_path, docs)


@pytest.mark.parametrize("code", ["nb", "da"])
def test_a_string_build_context_cannot_use_is_named_with_its_file_and_key(docs, bundle_path, code):
    strings = docs / code / "strings.yml"
    data = yaml.safe_load(strings.read_text(encoding="utf-8"))
    data["example_section"]["default_title"] = "Utdeling {nummer}"
    strings.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(BuildError) as e:
        site.gather(bundle_path, docs)
    assert str(e.value) == (f"{strings}: a string the pages need is missing or not text: "
                            "'example_section.default_title': {nummer} is not one of {deal}")


def test_a_section_missing_from_the_default_language_is_named_once(docs, bundle_path):
    """The default language (nb) sets the keys the others must have: what it lacks, the lint
    cannot miss in another language, and build_context is the first to read it."""
    strings = docs / "nb" / "strings.yml"
    data = yaml.safe_load(strings.read_text(encoding="utf-8"))
    del data["picture"]
    data["chapters"] = "Kapitler"
    strings.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(BuildError) as e:
        site.gather(bundle_path, docs)
    assert str(e.value) == (f"{strings}: a string the pages need is missing or not text: "
                            "'picture' is missing; 'chapters' must be a mapping, not str")


def test_a_facts_file_of_the_wrong_form_is_named(docs, bundle_path):
    facts = docs / "facts.yml"
    facts.write_text(facts.read_text(encoding="utf-8").replace("sources:", "sources:\n  - [a, b]", 1), encoding="utf-8")
    with pytest.raises(BuildError, match=f"^{facts}: must be a mapping whose sources are a list"):
        site.gather(bundle_path, docs)
