"""A third language end to end, in a temporary copy of the repository (the .venv and the survey
cache shared, as in test_worked_examples.py): `make language CODE=sv`, a pseudo-translation,
`make translations MARK=sv`, `make site`; then its pages, search, language switch, game strings,
number words, hreflang and sitemap; and one nb paragraph changed is stale in every other language,
and nothing else is."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import strict_yaml
from generator.i18n.segments import page_segments
from helpers.cached_builds import inputs_digest, shared_output
from helpers.repository_copy import copy_repository, repository_files, run_make

ROOT = Path(__file__).resolve().parents[3]
LANGUAGES = [entry["code"] for entry in strict_yaml.load(ROOT / "docs" / "languages.yml")["languages"]]
SOURCE = LANGUAGES[0]
NEW = "sv"
# Swedish counts, so that a spelled number on the page shows whose words it is («två» is no nb word).
SV_NUMBERS = ('counts: {"0": "noll", "2": "två", "3": "tre", "4": "fyra", "5": "fem", "6": "sex", "7": "sju", '
              '"8": "åtta", "9": "nio", "10": "tio", "11": "elva", "12": "tolv"}\none: {c: en, n: ett}\n')
UNDO = "Ångra"


def pseudo(text: str) -> str:
    """The pseudo-translation: ø → ö and æ → ä outside Jinja's {{ }} and {% %}."""
    parts = re.split(r"({{.*?}}|{%.*?%})", text, flags=re.S)
    return "".join(p if p.startswith(("{{", "{%")) else p.replace("ø", "ö").replace("æ", "ä") for p in parts)


def _scaffold_and_build(copy: Path, names: list[str]) -> dict:
    copy.mkdir()
    copy_repository(copy, names)
    said = {}
    r = run_make(copy, "language", f"CODE={NEW}", f"FROM={SOURCE}")
    said["language"] = [r.returncode, r.stdout, r.stderr]
    folder = copy / "docs" / NEW
    if not (copy / "docs" / SOURCE / "theme.yml").exists():
        # Until the theme's words are data in docs/<lang>/theme.yml, they are a partial of the theme.
        partials = copy / "generator" / "overrides" / "partials" / "languages"
        partial = (partials / f"{SOURCE}.html").read_text(encoding="utf-8")
        (partials / f"{NEW}.html").write_text(partial.replace(f'"language": "{SOURCE}"', f'"language": "{NEW}"'),
                                              encoding="utf-8")
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".md", ".yml", ".json") and path.name != "translation-status.yml":
            path.write_text(pseudo(path.read_text(encoding="utf-8")), encoding="utf-8")
    (folder / "numbers.yml").write_text(SV_NUMBERS, encoding="utf-8")
    game = folder / "game.json"
    game.write_text(game.read_text(encoding="utf-8").replace('"undo": "Angre"', f'"undo": "{UNDO}"'), encoding="utf-8")
    r = run_make(copy, "translations", f"MARK={NEW}")
    said["mark"] = [r.returncode, r.stdout, r.stderr]
    r = run_make(copy, "site")
    said["site"] = [r.returncode, r.stdout, r.stderr]
    return said


@pytest.fixture(scope="module")
def built():
    if not (ROOT / "build" / "survey-cache").is_dir():
        pytest.skip("no survey cache: run `make survey` first (the test must not recompute it)")
    names = repository_files()
    digest = inputs_digest(names + ["build/survey-cache"])
    copy, said = shared_output("third-language", digest, lambda folder: _scaffold_and_build(folder, names))
    for step in ("language", "mark", "site"):
        assert said[step][0] == 0, f"make {step}: {said[step][2][-2000:]}"
    return copy, said


def test_the_new_language_is_listed_and_current_after_marking(built):
    copy, said = built
    listing = strict_yaml.load(copy / "docs" / "languages.yml")["languages"]
    assert listing[-1] == {"code": NEW, "name": "Svenska", "search": NEW}
    assert f"{NEW}: " in said["mark"][1] and "segment(s) current" in said["mark"][1]


def test_every_page_is_built_in_the_new_language(built):
    copy, _ = built
    site = copy / "site"
    for page in sorted((copy / "docs" / SOURCE / "pages").glob("*.md")):
        html = site / NEW / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        text = html.read_text(encoding="utf-8")
        assert f'<html lang="{NEW}"' in text, html
    index = (site / NEW / "index.html").read_text(encoding="utf-8")
    assert pseudo("Når du står fast") in index  # the translation, not the source
    assert "två" in index  # its own number words: turns_allowed spelled in sv


def test_search_language_switch_hreflang_and_sitemap(built):
    copy, _ = built
    site = copy / "site"
    index = json.loads((site / NEW / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == [NEW]
    assert any(pseudo("står fast") in doc.get("text", "") + doc.get("title", "") for doc in index["docs"])
    for code in LANGUAGES:
        page = (site / code / "index.html").read_text(encoding="utf-8")
        assert re.search(rf'hreflang="{NEW}"', page), code
        assert re.search(rf'href="[^"]*{NEW}/"[^>]*hreflang="{NEW}"|hreflang="{NEW}"[^>]*href="[^"]*{NEW}/"', page)
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"/{NEW}/" in sitemap and f'hreflang="{NEW}"' in sitemap


def test_the_game_speaks_the_new_language(built):
    copy, _ = built
    page = (copy / "site" / NEW / "index.html").read_text(encoding="utf-8")
    assert UNDO in page
    assert UNDO not in (copy / "site" / SOURCE / "index.html").read_text(encoding="utf-8")


def test_one_changed_source_paragraph_is_stale_in_every_other_language_and_nothing_else(built, tmp_path):
    copy, _ = built
    docs = tmp_path / "docs"
    shutil.copytree(copy / "docs", docs)
    shutil.copytree(copy / "examples", tmp_path / "examples")
    page = docs / SOURCE / "pages" / "index.md"
    text = page.read_text(encoding="utf-8")
    target = [s for s in page_segments(text) if "¶" in s.id][3]
    page.write_text(text.replace(target.text, target.text + " Ny setning."), encoding="utf-8")
    r = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "generator", "translations",
                        "--docs", str(docs)], cwd=copy, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    stale = re.findall(r"^  stale\s+(.*)$", r.stdout, flags=re.M)
    assert stale == [target.id] * (len(LANGUAGES)), r.stdout
    for code in LANGUAGES[1:]:
        assert re.search(rf"^{code}: \d+ current, 1 stale, 0 missing$", r.stdout, flags=re.M), r.stdout
