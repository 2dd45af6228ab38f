"""Adding a worked example, the whole job (issue 14): `make example DEAL=N`, then the site.

In a temporary copy of the repository (its files as they are now, the .venv and the survey
cache shared, so nothing is installed or surveyed again): one deal that is won and one that is
not are added with `make example`, the bundle is made and the site built, and both must be on
the nb and da examples pages — heading, pictures, moves, what the search proved, the play link
— and in each language's search index. Then the small rules of the example files.
"""
import json
import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest

from helpers.cached_builds import inputs_digest, shared_output
from verify.examples import ExampleError, load_example
from helpers.languages import LANGUAGES
from helpers.repository_copy import copy_repository, repository_files, run_make

ROOT = Path(__file__).resolve().parents[2]
WON, LOST = 13, 5  # both solved in a few seconds: 13 is won, 5 leaves pyramid cards
TITLES = {"nb": "Utdeling nr. {}", "da": "Kortfordeling nr. {}"}
# Each section's anchor is its title in the page's language (generator/render/slugs.py), never an English id.
ANCHORS = {"nb": "utdeling-nr-{}", "da": "kortfordeling-nr-{}"}
WRITTEN = {"nb": ("utdelingen-som-kan-vinnes", "utdelingen-som-ikke-kan-vinnes"),
           "da": ("kortfordelingen-der-kan-vindes", "kortfordelingen-der-ikke-kan-vindes")}
PLAY = {"nb": "Spill denne utdelingen", "da": "Spil denne kortfordeling"}
PROVED = {"nb": ("Utdeling nr. {} kan vinnes", "Utdeling nr. {} kan ikke vinnes"),
          "da": ("Kortfordeling nr. {} kan vindes", "Kortfordeling nr. {} kan ikke vindes")}


def _add_both_examples(copy: Path, names: list[str]) -> dict:
    """The whole job in a copy: make example twice, then make site; returns what they said."""
    copy.mkdir()
    copy_repository(copy, names)
    outputs = {}
    for deal in (WON, LOST):
        r = run_make(copy, "example", f"DEAL={deal}")
        assert r.returncode == 0, r.stdout + r.stderr
        outputs[str(deal)] = r.stdout
    r = run_make(copy, "site")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return {"outputs": outputs, "site_stdout": r.stdout}


@pytest.fixture(scope="module")
def added():
    """The copy with both examples added and the site built: made once per state of the
    repository's files and shared by every test process (tests/helpers/cached_builds.py)."""
    if not (ROOT / "build" / "survey-cache").is_dir():
        pytest.skip("no survey cache: run `make survey` first (the test must not recompute it)")
    names = repository_files()
    digest = inputs_digest(names + ["build/survey-cache"])
    copy, said = shared_output("worked-examples", digest, lambda folder: _add_both_examples(folder, names))
    outputs = {int(deal): text for deal, text in said["outputs"].items()}
    return copy, outputs, SimpleNamespace(stdout=said["site_stdout"])


def _page(copy: Path, code: str) -> str:
    return (copy / "site" / code / "examples" / "index.html").read_text(encoding="utf-8")


def _section(html: str, anchor: str) -> str:
    """The section of one example: from its heading to the next heading of the same level."""
    start = html.index(f'<h2 id="{anchor}"')
    end = html.find("<h2", start + 1)
    return html[start:end if end > 0 else None]


def test_make_example_writes_a_file_and_says_what_next(added):
    copy, outputs, _ = added
    for deal in (WON, LOST):
        assert (copy / "examples" / f"deal-{deal}.yaml").is_file()
        assert "Next steps" in outputs[deal] and "make site" in outputs[deal]
    assert "(won)" in outputs[WON] and "(cannot be won)" in outputs[LOST]


def test_missing_words_are_warnings_naming_the_file(added):
    _, _, site = added
    for deal in (WON, LOST):
        for code in ("nb", "da"):
            assert re.search(rf"warning: .*deal-{deal}\.yaml: no title, summary, notes in {code}", site.stdout)
    assert "winnable.yaml: no" not in site.stdout  # the two written examples have all their words


@pytest.mark.parametrize("code", ["nb", "da"])
def test_both_new_examples_are_on_the_examples_page(added, code):
    copy, _, _ = added
    html = _page(copy, code)
    for deal, won in ((WON, True), (LOST, False)):
        section = _section(html, ANCHORS[code].format(deal))
        text = unescape(re.sub(r"<[^>]+>", " ", section))
        text = " ".join(text.split())
        assert TITLES[code].format(deal) in text
        assert section.count("<svg") >= 3, "the opening and the chapter pictures"
        assert '<ol class="moves-list">' in section and section.count("<li value=") > 10
        assert PROVED[code][0 if won else 1].format(deal) in text
        assert f'href="../#deal={deal}"' in section and PLAY[code] in text
        # The link lands on an anchor of the front page, where the game reads #deal=N.
        assert f'id="deal={deal}"' in (copy / "site" / code / "index.html").read_text(encoding="utf-8")
    # The existing examples keep their place and their words, before the new ones; each new one
    # took the next free place (order 3, then 4), so they follow in the order they were added.
    won, lost = WRITTEN[code]
    assert html.index(f'id="{won}"') < html.index(f'id="{lost}"') \
        < html.index(f'id="{ANCHORS[code].format(WON)}"') < html.index(f'id="{ANCHORS[code].format(LOST)}"')
    assert "order: 3" in (copy / "examples" / f"deal-{WON}.yaml").read_text()
    assert "order: 4" in (copy / "examples" / f"deal-{LOST}.yaml").read_text()


@pytest.mark.parametrize("code", ["nb", "da"])
def test_the_site_search_finds_them(added, code):
    copy, _, _ = added
    index = json.loads((copy / "site" / code / "search" / "search_index.json").read_text(encoding="utf-8"))
    for deal in (WON, LOST):
        hits = [d for d in index["docs"] if d["location"] == f"examples/#{ANCHORS[code].format(deal)}"]
        assert hits and TITLES[code].format(deal) in hits[0]["title"]


def _example_file(tmp_path: Path, extra: str) -> Path:
    """A copy of examples/winnable.yaml as x.yaml in tmp_path/examples/, beside a copy of docs/ (its words
    are in docs/<lang>/examples/winnable.yml)."""
    text = (ROOT / "examples" / "winnable.yaml").read_text(encoding="utf-8")
    (tmp_path / "examples").mkdir(exist_ok=True)
    if not (tmp_path / "docs").exists():
        shutil.copytree(ROOT / "docs", tmp_path / "docs")
    path = tmp_path / "examples" / "x.yaml"
    path.write_text(text.replace("order: 1\n", extra, 1), encoding="utf-8")
    return path


ORDER_LINE = (ROOT / "examples" / "winnable.yaml").read_text(encoding="utf-8").splitlines().index("order: 1") + 1


def test_draft_order_and_words_are_read(tmp_path):
    ex = load_example(_example_file(tmp_path, "order: 4\ndraft: true\n"), LANGUAGES)
    assert (ex.order, ex.draft, ex.texts["title"]["da"]) == (4, True, "Kortfordelingen, der kan vindes")
    assert ex.warnings == []


@pytest.mark.parametrize("extra, message", [
    ("draft: yes\n", "field 'draft' must be true or false"),
    ("order: 0\n", "order must be 1 or more"),
    ("order: first\n", "field 'order' must be a whole number"),
    ("colour: red\n", "unknown field 'colour'"),
    ("tittel: {nb: x}\n", "unknown field 'tittel'"),
])
def test_bad_fields_are_errors_with_the_line(tmp_path, extra, message):
    with pytest.raises(ExampleError, match=re.escape(message)) as e:
        load_example(_example_file(tmp_path, extra), LANGUAGES)
    assert str(e.value).startswith(f"{tmp_path / 'examples' / 'x.yaml'}, line {ORDER_LINE}")


def test_bad_words_are_errors_and_a_missing_language_a_warning(tmp_path):
    path = _example_file(tmp_path, "")
    words = tmp_path / "docs" / "da" / "examples" / "winnable.yml"
    text = words.read_text(encoding="utf-8")
    words.write_text(text.replace('title: "Kortfordelingen, der kan vindes"\n', "", 1), encoding="utf-8")
    ex = load_example(path, LANGUAGES)
    assert ex.warnings == [f"{path}: no title in da yet (optional; the da page shows the example without it)"]
    for bad, message in (('tittel: "Hi"\n', "unknown field 'tittel'"), ('title: "  "\n', "the title is empty")):
        words.write_text(text.replace('title: "Kortfordelingen, der kan vindes"\n', bad, 1), encoding="utf-8")
        with pytest.raises(ExampleError, match=re.escape(message)) as e:
            load_example(path, LANGUAGES)
        assert str(e.value).startswith(f"{words}, line ")


def test_titles_and_summaries_are_linted_like_notes():
    from generator.guard import glossary
    from generator.guard import numbers

    example = {"file": "examples/x.yaml", "steps": [{"number": 1, "line": 9, "notes": {}}],
               "title": {"nb": "Utdeling 27"}, "summary": {"nb": "Vi snur kastebunken."},
               "lines": {"title.nb": 4, "summary.nb": 6}}
    assert numbers.note_problems([example], ["nb"]) == [
        "examples/x.yaml, line 4: the nb title contains a number typed by hand ('Utdeling 27'); "
        "the page gives the deal's number and figures itself"]
    rules = glossary.load(ROOT / "docs" / "nb" / "glossary.yml").rules
    problems = glossary.note_problems([example], "nb", rules)
    assert len(problems) == 1 and problems[0].startswith("examples/x.yaml, line 6: 'snur kastebunken'")


def test_a_title_cannot_become_markdown():
    from generator.render.pages import markdown_text

    assert markdown_text("*a* [b](c) {#d} <i>") == r"\*a\* \[b\]\(c\) \{\#d\} &lt;i&gt;"


def _verify_example(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "verify", "example", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_deal_that_has_an_example_is_refused_naming_its_file(tmp_path):
    folder = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", folder)
    r = _verify_example("27", "--id", "another", "--dir", str(folder), cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.strip() == f"error: deal 27 already has an example: {folder / 'winnable.yaml'}; edit that file instead"
    assert sorted(p.name for p in folder.iterdir()) == ["not-winnable.yaml", "winnable.yaml"]  # nothing written


def test_make_example_without_a_deal_prints_its_usage():
    r = subprocess.run(["make", "-o", ".venv/.installed-stamp", "example"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2
    assert "error: usage: make example DEAL=N [ID=name] [FORCE=1]" in r.stderr
    assert "arguments are required" not in r.stderr


def test_make_help_lists_every_target_with_one_line():
    makefile = (ROOT / "Makefile").read_text()
    phony = re.search(r"^\.PHONY: (.*)$", makefile, re.M).group(1).split()
    r = subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True)
    listed = dict(re.findall(r"^  make (\S+) +(.+)$", r.stdout, re.M))
    assert r.returncode == 0 and sorted(listed) == sorted(phony)
    assert all(len(text) > 10 for text in listed.values())
