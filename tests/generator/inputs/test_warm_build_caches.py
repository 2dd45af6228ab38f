"""What `make serve`'s warm builder keeps between saves (issue 25, part 1), besides MkDocs'
output (tests/generator/serve/test_live_build.py): the glossary lint's result per file and the bundle's shape
and figures check per bundle. An edit computes again exactly what read it, and a stale result
is never used: the problem an edit brings is reported at once, and gone once it is undone."""
import json
import shutil
from pathlib import Path

import pytest

from generator.inputs import bundle as bundle_module
from generator.guard import glossary
from generator.errors import BuildError
from generator.inputs.languages import load_languages
from helpers.cached_builds import ROOT, ensure_bundle

KINDS = {"glossary": glossary._load, "page": glossary._page_problems, "yaml": glossary._yaml_problems,
         "json": glossary._json_problems}


def _clear() -> None:
    for cached in KINDS.values():
        cached.cache_clear()


def _misses() -> dict[str, int]:
    return {kind: cached.cache_info().misses for kind, cached in KINDS.items()}


def _lint(docs: Path) -> tuple[list[str], dict[str, int]]:
    """The lint of every language in docs, and what it computed (not taken from what it kept)."""
    before = _misses()
    languages, default = load_languages(docs)
    problems = glossary.lint(languages, default)
    return problems, {kind: n - before[kind] for kind, n in _misses().items() if n - before[kind]}


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_glossary_lint_computes_again_only_the_files_an_edit_touched(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    languages, _ = load_languages(docs)
    pages = {lang.code: len(lang.pages) for lang in languages}
    _clear()
    problems, computed = _lint(docs)
    assert problems == []
    # Each language: its glossary, its pages, strings.yml and facts.yml with docs/facts.yml, game.json.
    assert computed == {"glossary": 2, "page": sum(pages.values()), "yaml": 3 * len(pages), "json": len(pages)}
    assert _lint(docs) == ([], {})  # nothing changed: nothing computed

    contact = docs / "nb" / "pages" / "contact.md"
    _replace(contact, "Vi vil gjerne høre fra deg.", "Vi vil gjerne høre fra deg, spillnummer én.")
    problems, computed = _lint(docs)
    assert computed == {"page": 1}  # that page alone
    assert any(p.startswith(f"{contact}, line 3: 'spillnummer'") for p in problems), problems
    _replace(contact, "Vi vil gjerne høre fra deg, spillnummer én.", "Vi vil gjerne høre fra deg.")
    assert _lint(docs) == ([], {})  # the undo: the page's earlier result, kept under its text

    # A glossary that forbids one more word: that language's files again (its rules changed),
    # not the other language's.
    nb_glossary = docs / "nb" / "glossary.yml"
    _replace(nb_glossary, "concepts:\n  deal:", "concepts:\n  wish:\n    use: ønske\n    forbidden: [gjerne]\n  deal:")
    problems, computed = _lint(docs)
    assert computed == {"glossary": 1, "page": pages["nb"], "yaml": 3, "json": 1}, computed
    assert any(p.startswith(f"{contact}, line 3: 'gjerne' — use 'ønske'") for p in problems), problems
    assert f"{docs / 'da' / 'glossary.yml'}: missing concept 'wish' (present in nb)" in problems


def test_a_broken_glossary_is_refused_every_time_and_never_kept(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    _clear()
    assert _lint(docs)[0] == []
    path = docs / "da" / "glossary.yml"
    _replace(path, "concepts:\n", "concepts:\n  broken: [a, list]\n")
    for _ in range(2):
        problems, computed = _lint(docs)
        assert computed.get("glossary") == 1  # computed again: a failure is not kept
        assert any(p.startswith(f"{path}, line ") and "'broken' must be a mapping" in p for p in problems), problems


@pytest.fixture
def bundle_copy(tmp_path):
    ensure_bundle()
    path = tmp_path / "verified.json"
    shutil.copy(ROOT / "build" / "verified.json", path)
    return path


def test_the_bundles_shape_is_checked_once_per_bundle_and_its_freshness_every_time(bundle_copy, monkeypatch):
    calls = {"shape": 0, "fresh": 0}

    def counted(name, function):
        def wrapper(*args):
            calls[name] += 1
            return function(*args)
        return wrapper
    monkeypatch.setattr(bundle_module, "check_shape", counted("shape", bundle_module.check_shape))
    monkeypatch.setattr(bundle_module, "check_fresh", counted("fresh", bundle_module.check_fresh))
    monkeypatch.setattr(bundle_module, "SHAPES_FOUND_RIGHT", set())
    original = bundle_copy.read_bytes()
    bundle_module.load_bundle(bundle_copy)
    bundle_module.load_bundle(bundle_copy)
    assert calls == {"shape": 1, "fresh": 2}

    # A figure that does not follow from the steps: other bytes, checked again and refused, twice.
    data = json.loads(original)
    data["examples"][0]["final"]["points"] += 1
    bundle_copy.write_text(json.dumps(data), encoding="utf-8")
    for tries in (1, 2):
        with pytest.raises(BuildError, match=r"\$\.examples\[0\]\.final\.points"):
            bundle_module.load_bundle(bundle_copy)
        assert calls["shape"] == 1 + tries

    bundle_copy.write_bytes(original)  # back: the bundle found right before, not checked again
    bundle_module.load_bundle(bundle_copy)
    assert calls == {"shape": 3, "fresh": 3}

    # Found right once, but made from an app file that is not there now: freshness still refuses it.
    data = json.loads(original)
    data["inputs"] = {**data["inputs"], "app/gone.js": "0" * 64}
    bundle_copy.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BuildError, match="app/gone.js, which no longer exists"):
        bundle_module.load_bundle(bundle_copy)
    with pytest.raises(BuildError, match="app/gone.js, which no longer exists"):
        bundle_module.load_bundle(bundle_copy)  # its shape kept this time; its freshness never
    assert calls == {"shape": 4, "fresh": 5}


def test_no_page_changes_when_a_check_is_computed_again_in_another_time(bundle_copy, tmp_path):
    """A check computed again takes another time; the pages do not show it (`verify check` does),
    so a note edit rebuilds the note's language alone, not every language's sources page."""
    from generator.site import build as site

    slower = tmp_path / "slower.json"
    data = json.loads(bundle_copy.read_text(encoding="utf-8"))
    for check in data["checks"]:
        check["seconds"] = round(check["seconds"] * 3 + 1.25, 3)
    slower.write_text(json.dumps(data), encoding="utf-8")
    assert site.gather(slower).rendered == site.gather(bundle_copy).rendered
