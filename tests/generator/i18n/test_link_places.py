"""A link broken by a translated heading is reported at its page source's line, not at the
staging folder's HTML (generator/site/link_places.py, used by the build after its site check)."""
import shutil
from pathlib import Path

from generator import cli
from generator.inputs.languages import load_languages
from generator.site.link_places import at_source
from generator.site.sitecheck import PageScan, _check_internal_link

ROOT = Path(__file__).resolve().parents[3]


def test_a_link_to_a_translated_heading_names_the_source_line(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    assert cli.main(["language", "sv", "--docs", str(docs)]) == 0
    languages, _ = load_languages(docs)
    source = docs / "sv" / "pages" / "sources.md"
    line = next(n for n, text in enumerate(source.read_text(encoding="utf-8").splitlines(), 1)
                if "index.md#sporsmal-og-svar" in text)
    # The built pages as the staging folder holds them: the front page's heading translated.
    built = tmp_path / ".site.staging-1" / "site"
    front, page = built / "sv" / "index.html", built / "sv" / "sources" / "index.html"
    for html in (front, page):
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text("<html></html>", encoding="utf-8")
    scans = {front: PageScan(), page: PageScan()}
    scans[front].ids.add("fragor-och-svar")
    problems = _check_internal_link(built, page, "../#sporsmal-og-svar", scans)
    assert len(problems) == 1 and ".site.staging-1" in problems[0]
    said = at_source(problems[0], built, languages)
    assert said == f"{source}, line {line}: link ../#sporsmal-og-svar: no anchor #sporsmal-og-svar in sv/index.html"


def test_a_problem_that_is_no_page_link_only_loses_the_staging_path(tmp_path):
    languages, _ = load_languages(ROOT / "docs")
    built = tmp_path / "site"
    assert at_source(f"{built}/nb/index.html: no Content-Security-Policy", built, languages) == \
        "nb/index.html: no Content-Security-Policy"
    assert at_source(f"{built}/404.html: link /x leads nowhere", built, languages) == "404.html: link /x leads nowhere"
