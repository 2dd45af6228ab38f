"""The number guard holds everywhere the site's words come from: a digit typed by hand on any page,
in any interface string (strings.yml) or game string (game.json) of any language is refused by
the lint the build and `make verify` run (generator/site/build.py `lint`), each one named exactly.

A copy of the real docs/ is damaged everywhere at once, so a guard that skips one page, one file
or one language leaves exactly that one out of the answer."""
import json
import shutil
from pathlib import Path

import pytest
import yaml

from generator.site import build as site
from generator.inputs.languages import load_languages

ROOT = Path(__file__).resolve().parents[3]
TYPED = "Det finnes 52 kort."  # a bare number, as a writer might type it
GUARD = "a number typed by hand"


@pytest.fixture
def docs(tmp_path):
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy)
    return copy


def number_problems(docs: Path) -> set[str]:
    languages, default = load_languages(docs)
    return {p for p in site.lint(languages, default, [], docs) if GUARD in p}


def with_digit(data, prefix=""):
    """The data with " 7" after every string, and (key, new string) for each of them, keyed as
    the guard names them ("moves.pair", "list.0")."""
    if isinstance(data, dict):
        pairs = [(k, with_digit(v, f"{prefix}{k}.")) for k, v in data.items()]
        return {k: new for k, (new, _) in pairs}, [leaf for _, (_, leaves) in pairs for leaf in leaves]
    if isinstance(data, list):
        pairs = [with_digit(v, f"{prefix}{i}.") for i, v in enumerate(data)]
        return [new for new, _ in pairs], [leaf for _, leaves in pairs for leaf in leaves]
    if isinstance(data, str):
        return data + " 7", [(prefix[:-1], data + " 7")]
    return data, []


def test_the_real_docs_pass_the_guard(docs):
    assert number_problems(docs) == set()


def test_a_number_on_every_page_of_every_language_is_refused(docs):
    languages, _ = load_languages(docs)
    expected = set()
    for lang in languages:
        assert len(lang.pages) >= 5, lang.code
        for source in lang.pages.values():
            lines = source.read_text(encoding="utf-8").splitlines() + [TYPED]
            source.write_text("\n".join(lines) + "\n", encoding="utf-8")
            expected.add(f"{source}, line {len(lines)}, column {TYPED.index('5') + 1}: {GUARD} ('{TYPED}'); "
                         f"use a value from the verified data or docs/facts.yml instead")
    assert number_problems(docs) == expected


@pytest.mark.parametrize("name", ["strings.yml", "game.json"])
def test_a_number_in_every_string_of_every_language_is_refused(docs, name):
    expected = set()
    for code in ("nb", "da"):
        path = docs / code / name
        if name == "game.json":
            data, leaves = with_digit(json.loads(path.read_text(encoding="utf-8")))
            path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        else:
            data, leaves = with_digit(yaml.safe_load(path.read_text(encoding="utf-8")))
            path.write_text(yaml.safe_dump(data, allow_unicode=True, width=1000), encoding="utf-8")
        assert len(leaves) > 20, path  # the file's strings, all of them
        expected |= {f"{path}: string '{key}' contains {GUARD} ('{text[:60]}')" for key, text in leaves}
    assert number_problems(docs) == expected
