"""A third language end to end, the translator's way, in a temporary copy of the repository
(the .venv and the survey cache shared, as in test_worked_examples.py): `make language CODE=sv`,
its own glossary word (the stock is «talong», and nb's «trekkbunken» is forbidden in it: the
opposite of nb's glossary), `make po-export`, the PO file filled by a program (a
pseudo-translation), `make po-import`, `make site`; then its pages, search, language switch,
game strings, number words, hreflang, sitemap and root page; and one nb paragraph changed is
stale in every other language, and nothing else is."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

import strict_yaml
from generator.i18n.segments import page_segments
from helpers.cached_builds import inputs_digest, shared_output
from helpers.languages import LANGUAGES, SOURCE
from helpers.repository_copy import copy_repository, repository_files, run_make

ROOT = Path(__file__).resolve().parents[3]
NEW = "sv"
# Swedish counts, so that a spelled number on the page shows whose words it is («två» is no nb word).
SV_NUMBERS = {"0": "noll", "2": "två", "3": "tre", "4": "fyra", "5": "fem", "6": "sex", "7": "sju", "8": "åtta",
              "9": "nio", "10": "tio", "11": "elva", "12": "tolv"}
UNDO = "Ångra"
STOCK = "talong"  # the pseudo-language's word for the stock, which nb's glossary forbids


def pseudo(text: str) -> str:
    """The pseudo-translation: ø → ö, æ → ä and the stock «talong» outside Jinja's {{ }} and {% %}."""
    parts = re.split(r"({{.*?}}|{%.*?%})", text, flags=re.S)
    return "".join(p if p.startswith(("{{", "{%")) else re.sub(
        "trekkbunk", lambda m: "Talong" if m.group(0)[0] == "T" else "talong",
        p.replace("ø", "ö").replace("æ", "ä"), flags=re.I) for p in parts)


def translated(entry: polib.POEntry) -> str:
    """What the program fills in: its own words where it has them, else the pseudo-translation."""
    file, _, key = entry.msgctxt.partition(":")
    if file == "glossary.yml":
        return STOCK if key == "concepts.stock.use" else pseudo(entry.msgid)
    if file == "numbers.yml" and key.startswith("counts."):
        return SV_NUMBERS.get(key.split(".")[1], entry.msgid)
    if file == "game.json" and entry.msgid == "Angre":
        return UNDO
    return pseudo(entry.msgid)


def _scaffold_and_build(copy: Path, names: list[str]) -> dict:
    copy.mkdir()
    copy_repository(copy, names)
    said = {}
    r = run_make(copy, "language", f"CODE={NEW}", f"FROM={SOURCE}")
    said["language"] = [r.returncode, r.stdout, r.stderr]
    glossary = copy / "docs" / NEW / "glossary.yml"  # the translator forbids the source's word
    text = glossary.read_text(encoding="utf-8")
    glossary.write_text(re.sub(r"(  stock:\n(?:    .*\n)*?    forbidden: )\[\]", r"\1[trekkbunken, trekkbunke]", text),
                        encoding="utf-8")
    r = run_make(copy, "po-export", f"CODE={NEW}")
    said["export"] = [r.returncode, r.stdout, r.stderr]
    po_file = copy / "build" / "translations" / f"{NEW}.po"
    po = polib.pofile(str(po_file), wrapwidth=0)
    said["header"] = po.header
    for entry in po:
        entry.msgstr = translated(entry)
    po.save(str(po_file))
    r = run_make(copy, "po-import", f"CODE={NEW}", f"PO={po_file}")
    said["import"] = [r.returncode, r.stdout, r.stderr]
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
    for step in ("language", "export", "import", "site"):
        assert said[step][0] == 0, f"make {step}: {said[step][2][-2000:]}"
    return copy, said


def test_the_new_language_is_listed_and_current_after_the_import(built):
    copy, said = built
    listing = strict_yaml.load(copy / "docs" / "languages.yml")["languages"]
    assert listing[-1] == {"code": NEW, "name": "Svenska", "search": NEW}
    assert f"{NEW}: " in said["import"][1] and "segment(s) recorded as translated" in said["import"][1]
    r = run_make(copy, "translations", f"LANG={NEW}")
    assert r.returncode == 0 and r.stdout.strip().splitlines()[-1].startswith(f"{NEW}: ") and \
        r.stdout.strip().splitlines()[-1].endswith(" current, 0 stale, 0 missing"), r.stdout


def test_its_own_glossary_word_is_used_and_the_source_word_forbidden(built, tmp_path):
    """«talong», which nb's glossary forbids, is the new language's word; nb's «trekkbunken» is
    what its glossary forbids: the PO file carried the glossary, and the build applied it."""
    copy, said = built
    assert "GLOSSARY" in said["header"] and f"stock: {SOURCE} «trekkbunke» → {NEW}" in said["header"]
    assert "glossary.yml" not in said["site"][2]  # no request for words left
    page = (copy / "site" / NEW / "index.html").read_text(encoding="utf-8")
    assert "talongen" in page.lower() and "trekkbunken" not in page.lower()
    docs = tmp_path / "docs"
    shutil.copytree(copy / "docs", docs)
    source = docs / NEW / "pages" / "index.md"
    source.write_text(source.read_text(encoding="utf-8") + "\nLegg kortet i trekkbunken.\n", encoding="utf-8")
    r = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "generator", "lint", "--docs", str(docs)],
                       cwd=copy, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and f"'trekkbunken' — use '{STOCK}' (glossary: stock)" in r.stderr, r.stderr


def test_the_root_page_names_the_new_language(built):
    copy, _ = built
    root = (copy / "site" / "index.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", root).group(1)
    assert "svensk" in title, title
    assert f'hreflang="{NEW}"' in root


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
