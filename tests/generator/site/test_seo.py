"""What search engines and link previews see, in nb and da: each page's own title and
description, canonical and reciprocal hreflang alternates (x-default: the root chooser), one
sitemap with the alternates and robots.txt naming it, Open Graph and Twitter card tags with a
1200×630 preview picture per language, the FAQ as FAQPage JSON-LD with the visible questions
and answers; the site check catches each of these going wrong; publish needs a real site_url."""
import json
import re
import shutil
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

import pytest

from generator.site import seo
from generator.errors import BuildError
from generator.inputs.languages import Language, load_languages
from generator.site.build import LOCAL_ADDRESS, placeholder_problems
from generator.site.sitecheck import HeadScan, seo_problems
from helpers.cached_builds import ROOT, build_site
from helpers.languages import LANGUAGES

LANGS = LANGUAGES
OTHER = {"nb": "da", "da": "nb"}
LOCALES = {"nb": "nb_NO", "da": "da_DK"}
STRINGS = {lang.code: lang.strings for lang in load_languages()[0]}


def page_file(site: Path, code: str, name: str) -> Path:
    return site / code / seo.page_path(name) / "index.html"


def head(path: Path) -> HeadScan:
    scan = HeadScan()
    scan.feed(path.read_text(encoding="utf-8"))
    return scan


def url_of(code: str, name: str) -> str:
    return f"{LOCAL_ADDRESS}{code}/{seo.page_path(name)}"


# ---- alternates and canonical ---------------------------------------------------------------

def sitemap_alternates(site: Path) -> dict[str, dict[str, str]]:
    ns = {"s": seo.SITEMAP_NS, "x": seo.XHTML_NS}
    root = ET.parse(site / "sitemap.xml").getroot()
    return {u.findtext("s:loc", namespaces=ns): {l.get("hreflang"): l.get("href") for l in u.findall("x:link", ns)}
            for u in root.findall("s:url", ns)}


@pytest.mark.parametrize("code", LANGS)
def test_every_page_names_itself_canonical_and_its_alternates_point_back(built_site, code):
    site, languages = built_site
    listed = sitemap_alternates(site)
    for name in languages[code]:
        scan = head(page_file(site, code, name))
        assert scan.canonical == [url_of(code, name)]
        # In the sitemap, not the head: the theme's script fetches a sitemap.xml beside each
        # alternate in a head, a failed request on every subpage (Lighthouse: console errors).
        assert scan.alternates == []
        assert listed[url_of(code, name)] == {code: url_of(code, name), OTHER[code]: url_of(OTHER[code], name),
                                              "x-default": LOCAL_ADDRESS}
        assert listed[url_of(OTHER[code], name)] == listed[url_of(code, name)]
        assert page_file(site, OTHER[code], name).is_file()


def test_the_root_chooser_has_title_description_alternates_and_preview(built_site):
    site, _ = built_site
    scan = head(site / "index.html")
    languages = load_languages()[0]
    nb, da = (seo.root_words(lang, languages) for lang in languages[:2])  # meta.root with {languages} filled, nb first
    assert all(name in nb["title"] for name in seo.language_names(languages[0], languages))
    assert scan.title == nb["title"] and scan.meta["description"] == [f'{nb["description"]} {da["description"]}']
    assert scan.canonical == [LOCAL_ADDRESS]
    assert dict(scan.alternates) == {"nb": f"{LOCAL_ADDRESS}nb/", "da": f"{LOCAL_ADDRESS}da/", "x-default": LOCAL_ADDRESS}
    assert scan.meta["og:image"] == [f"{LOCAL_ADDRESS}nb/preview.png"]


# ---- sitemap and robots ---------------------------------------------------------------------

def test_one_sitemap_lists_every_page_with_its_alternates_and_robots_names_it(built_site):
    site, languages = built_site
    listed = sitemap_alternates(site)
    expected = {LOCAL_ADDRESS} | {url_of(code, name) for code in LANGS for name in languages[code]}
    assert set(listed) == expected
    for code in LANGS:
        for name in languages[code]:
            assert listed[url_of(code, name)] == {lang: url_of(lang, name) for lang in LANGS} | {"x-default": LOCAL_ADDRESS}
    assert listed[LOCAL_ADDRESS] == dict(head(site / "index.html").alternates)
    assert f"Sitemap: {LOCAL_ADDRESS}sitemap.xml" in (site / "robots.txt").read_text().splitlines()
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("sitemap*")) == ["sitemap.xml"]


# ---- titles and descriptions ----------------------------------------------------------------

@pytest.mark.parametrize("code", LANGS)
def test_each_page_has_its_own_title_and_description_from_its_strings(built_site, code):
    site, languages = built_site
    titles, descriptions = set(), set()
    for name in languages[code]:
        scan = head(page_file(site, code, name))
        words = STRINGS[code]["meta"]["pages"][name[:-3]]
        assert scan.title == words["title"]
        assert scan.meta["description"] == [words["description"]]
        titles.add(scan.title)
        descriptions.add(words["description"])
    assert len(titles) == len(descriptions) == len(languages[code])
    front = head(page_file(site, code, "index.md")).title
    assert front != "Pyramide" and front != STRINGS[OTHER[code]]["meta"]["pages"]["index"]["title"]


# ---- previews -------------------------------------------------------------------------------

@pytest.mark.parametrize("code", LANGS)
def test_open_graph_and_twitter_tags_in_the_page_language(built_site, code):
    site, languages = built_site
    for name in languages[code]:
        scan = head(page_file(site, code, name))
        words = STRINGS[code]["meta"]["pages"][name[:-3]]
        assert scan.meta["og:title"] == scan.meta["twitter:title"] == [words["title"]]
        assert scan.meta["og:description"] == scan.meta["twitter:description"] == [words["description"]]
        assert scan.meta["og:url"] == [url_of(code, name)]
        assert scan.meta["og:locale"] == [LOCALES[code]]
        assert scan.meta["og:locale:alternate"] == [LOCALES[OTHER[code]]]
        assert scan.meta["og:image"] == scan.meta["twitter:image"] == [f"{LOCAL_ADDRESS}{code}/preview.png"]
        assert scan.meta["og:image:alt"] == [STRINGS[code]["meta"]["preview"]["alt"]]
        assert scan.meta["twitter:card"] == ["summary_large_image"]


@pytest.mark.parametrize("code", LANGS)
def test_the_preview_picture_is_a_1200_by_630_png_of_the_language(built_site, code):
    site, _ = built_site
    data = (site / code / "preview.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (1200, 630)
    assert data != (site / OTHER[code] / "preview.png").read_bytes()  # its own words
    lang = next(lang for lang in load_languages()[0] if lang.code == code)
    picture = seo.preview_svg(lang)
    assert STRINGS[code]["picture"]["stock"] in picture and "font-family=\"sans-serif\"" in picture
    assert "href" not in picture and "@import" not in picture and "url(" not in picture  # nothing fetched


# ---- FAQ ------------------------------------------------------------------------------------

def visible_answers(html: str) -> list[tuple[str, str]]:
    """The questions as a reader sees them, read by regular expressions (not seo.FaqScan)."""
    found = []
    for block in re.findall(r'<details class="question">(.*?)</details>', html, re.S):
        question = re.search(r"<summary>(.*?)</summary>", block, re.S).group(1)
        body = re.sub(r'<span class="rule-ref".*?</span>', "", block.split("</summary>", 1)[1], flags=re.S)
        paragraphs = [unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", p))).strip()
                      for p in re.split(r"</p>|</li>", body)]
        # As plain text, like the answers: a question may hold a figure («66,5 %», a no-break space)
        found.append((re.sub(r"\s+", " ", unescape(question)).strip(), "\n\n".join(p for p in paragraphs if p)))
    return found


@pytest.mark.parametrize("code", LANGS)
def test_the_faq_data_holds_the_visible_questions_and_answers_as_plain_text(built_site, code):
    site, _ = built_site
    html = page_file(site, code, "index.md").read_text(encoding="utf-8")
    shown = visible_answers(html)
    assert len(shown) >= 5
    blocks = [json.loads(b) for b in head(page_file(site, code, "index.md")).json_ld]
    faq = next(b for b in blocks if b["@type"] == "FAQPage")
    assert faq["inLanguage"] == code
    data = [(e["name"], e["acceptedAnswer"]["text"]) for e in faq["mainEntity"]]
    assert data == shown
    assert not any("<" in answer or "✓" in answer for _, answer in data)


def test_a_question_added_to_a_page_reaches_the_data_without_anything_else():
    page = ('<html><head><title>t</title></head><body><details class="question">\n<summary>Fins det &amp; mer?</summary>\n'
            '<p>Ja. <span class="rule-ref" data-tip="x"><a href="#r">✓</a></span> Se <strong>her</strong>.</p>\n'
            '<p>Og <a href="x/">der</a>.</p></details><details class="note"><summary>Ikke</summary></details></body></html>')
    out = seo.with_faq(page, "nb", "https://pyramide.test/nb/")
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', out, re.S).group(1))
    assert [(e["name"], e["acceptedAnswer"]["text"]) for e in data["mainEntity"]] == [
        ("Fins det & mer?", "Ja. Se her.\n\nOg der.")]
    assert seo.with_faq("<html><head></head><body><p>x</p></body></html>", "nb", "u").count("ld+json") == 0


def test_the_faq_data_cannot_close_its_script_element():
    text = seo.faq_jsonld([("Hva med </script><script>alert(1)</script>?", "svar")], "nb", "u")
    assert "</script" not in text and json.loads(text)["mainEntity"][0]["name"].startswith("Hva med </script>")


# ---- the site check -------------------------------------------------------------------------

@pytest.fixture
def site_copy(built_site, tmp_path):
    site, languages = built_site
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    return copy, languages


def test_the_site_check_passes_the_built_site(built_site):
    site, languages = built_site
    assert seo_problems(site, languages, LOCAL_ADDRESS) == []


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def edit_sitemap_entry(site: Path, loc: str, old: str, new: str) -> None:
    """Changes `old` to `new` inside the sitemap's <url> entry of `loc` only."""
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    start = text.index(f"<loc>{loc}</loc>")
    end = text.index("</url>", start)
    entry = text[start:end]
    assert old in entry
    (site / "sitemap.xml").write_text(text[:start] + entry.replace(old, new, 1) + text[end:], encoding="utf-8")


@pytest.mark.parametrize("code", LANGS)
def test_the_site_check_catches_an_alternate_that_does_not_point_back(site_copy, code):
    site, languages = site_copy
    page = page_file(site, code, "variants.md")
    edit_sitemap_entry(site, url_of(code, "variants.md"), f'href="{url_of(OTHER[code], "variants.md")}"',
                       f'href="{url_of(OTHER[code], "sources.md")}"')
    problems = "\n".join(seo_problems(site, languages, LOCAL_ADDRESS))
    assert f"{page}: alternate {OTHER[code]} {url_of(OTHER[code], 'sources.md')} does not point back" in problems


@pytest.mark.parametrize("code", LANGS)
def test_the_site_check_refuses_alternates_in_a_language_pages_head(site_copy, code):
    site, languages = site_copy
    page = page_file(site, code, "variants.md")
    edit(page, '<link rel="canonical"', f'<link rel="alternate" hreflang="{code}" href="{url_of(code, "variants.md")}">'
         '<link rel="canonical"')
    problems = "\n".join(seo_problems(site, languages, LOCAL_ADDRESS))
    assert f"{page}: alternates in its head" in problems


def test_the_site_check_catches_a_missing_target_canonical_and_sitemap_entry(site_copy):
    site, languages = site_copy
    edit(page_file(site, "da", "contact.md"), f'<link rel="canonical" href="{url_of("da", "contact.md")}">', "")
    edit_sitemap_entry(site, url_of("nb", "sources.md"), f'href="{url_of("da", "sources.md")}"', f'href="{LOCAL_ADDRESS}da/gone/"')
    edit(site / "sitemap.xml", f"<loc>{url_of('nb', 'examples.md')}</loc>", f"<loc>{LOCAL_ADDRESS}nb/elsewhere/</loc>")
    problems = "\n".join(seo_problems(site, languages, LOCAL_ADDRESS))
    assert f"{page_file(site, 'da', 'contact.md')}: canonical []" in problems
    assert f"alternate da {LOCAL_ADDRESS}da/gone/ is not a page of this site" in problems
    assert "sitemap.xml: lists" in problems


def test_the_site_check_catches_a_broken_sitemap_a_second_one_and_robots(site_copy):
    site, languages = site_copy
    (site / "sitemap.xml").write_text("<urlset><url></urlset>")
    (site / "nb" / "sitemap.xml").write_text("<urlset/>")
    (site / "robots.txt").write_text("User-agent: *\n")
    problems = "\n".join(seo_problems(site, languages, LOCAL_ADDRESS))
    assert "sitemap.xml: missing or not well-formed" in problems
    assert "nb/sitemap.xml: a second sitemap" in problems
    assert "robots.txt: missing, or does not name" in problems


@pytest.mark.parametrize("code", LANGS)
def test_the_site_check_catches_a_wrong_preview_and_faq_data(site_copy, code):
    site, languages = site_copy
    (site / code / "preview.png").write_bytes(seo.PREVIEW_SIZE[0].to_bytes(4, "big"))
    page = page_file(site, code, "index.md")
    html = page.read_text(encoding="utf-8")
    first = visible_answers(html)[0][0]
    edit(page, json.dumps(first, ensure_ascii=False), json.dumps("Noe annet?"))
    edit(page, '<meta name="twitter:card" content="summary_large_image">', "")
    problems = "\n".join(seo_problems(site, languages, LOCAL_ADDRESS))
    assert f"og:image {LOCAL_ADDRESS}{code}/preview.png is not a PNG of 1200×630 pixels" in problems
    assert f"{page}: the FAQPage data names ['Noe annet?'" in problems
    assert f"{page}: no twitter:card" in problems


def test_the_site_check_catches_json_ld_that_does_not_parse(site_copy):
    site, languages = site_copy
    edit(page_file(site, "nb", "index.md"), '"@type": "FAQPage"', '"@type": FAQPage')
    assert any("JSON-LD that does not parse" in p for p in seo_problems(site, languages, LOCAL_ADDRESS))


# ---- words and addresses --------------------------------------------------------------------

def test_missing_page_words_are_an_error_naming_strings_yml(tmp_path):
    lang = Language("nb", "Norsk", "no", tmp_path, {"meta": {"pages": {"index": {"title": "Tittel"}}}}, {}, {})
    with pytest.raises(BuildError, match=r"strings.yml: meta.pages.index has no description"):
        seo.page_words(lang, "index.md")
    with pytest.raises(BuildError, match=r"strings.yml: no meta.pages.examples \(each page needs"):
        seo.page_words(lang, "examples.md")


def test_open_graph_locales_come_from_cldr():
    assert seo.og_locale("nb") == "nb_NO" and seo.og_locale("da") == "da_DK"


@pytest.mark.parametrize("facts, problem", [
    ({}, "site_url is not set, so the site is built for http://127.0.0.1:8000/"),
    ({"site_url": "https://example.org/"}, "site_url is 'https://example.org/', a placeholder"),
    ({"site_url": "https://pyramide.example.com/"}, "a placeholder"),
    ({"site_url": "http://localhost:8000/"}, "a placeholder"),
    ({"site_url": "http://127.0.0.1:8000/"}, "a placeholder"),
])
def test_publish_needs_a_real_site_url(facts, problem):
    facts = {"contact": {"email": "post@pyramide.no"}, **facts}
    problems = placeholder_problems(facts, Path("docs/facts.yml"))
    assert len(problems) == 1 and problems[0].startswith("docs/facts.yml: site_url") and problem in problems[0]
    assert placeholder_problems({**facts, "site_url": "https://pyramide.no/"}, Path("docs/facts.yml")) == []


def test_publish_refuses_a_missing_site_url_in_one_line(built_site, tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    facts = docs / "facts.yml"
    text = facts.read_text(encoding="utf-8")
    contact = next(line for line in text.splitlines() if line.startswith("contact:"))
    facts.write_text(text.replace(contact, 'contact: {email: "post@pyramide.no"}'), encoding="utf-8")
    r = build_site(tmp_path / "published", docs=docs, command="publish")
    assert r.returncode == 2 and not (tmp_path / "published").exists()
    assert r.stderr.strip().count("\n") == 0 and f"{facts}: site_url is not set" in r.stderr

