"""The built site: every page in nb and da (no stand-ins), right lang, links and anchors that
resolve, nothing from another host, well-formed SVG pictures with titles, numbers from data."""
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from generator.site.build import LOCAL_ADDRESS, outside_addresses
from generator.site.sitecheck import PageScan, check_site, is_external
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
FACTS = yaml.safe_load((ROOT / "docs" / "facts.yml").read_text())


def page_path(site, code, name):
    return site / code / ("index.html" if name == "index.md" else f"{name[:-3]}/index.html")


def scan(path):
    s = PageScan()
    s.feed(path.read_text(encoding="utf-8"))
    return s


def test_every_page_in_both_languages_with_its_own_lang(built_site):
    site, languages = built_site
    assert set(languages) == set(LANGUAGES)
    assert languages["nb"] == languages["da"] and len(languages["nb"]) >= 4
    for code, pages in languages.items():
        strings = yaml.safe_load((ROOT / "docs" / code / "strings.yml").read_text())
        for name in pages:
            path = page_path(site, code, name)
            assert path.exists(), path
            assert scan(path).lang == code
            # The page is this language's own: its navigation titles are in it.
            assert strings["nav"]["examples"] in path.read_text(encoding="utf-8")
    nb = (page_path(site, "nb", "index.md")).read_text(encoding="utf-8")
    da = (page_path(site, "da", "index.md")).read_text(encoding="utf-8")
    assert nb != da


def test_links_anchors_hosts_and_svgs(built_site):
    site, languages = built_site
    assert check_site(site, languages, outside_addresses(FACTS), LOCAL_ADDRESS) == []


def test_nothing_is_loaded_from_another_host(built_site):
    site, _ = built_site
    for page in site.rglob("*.html"):
        for url in scan(page).loads:
            assert not is_external(url), f"{page}: {url}"
    for css in site.rglob("*.css"):
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", css.read_text(errors="ignore")), css


def test_pictures_have_titles_in_the_page_language(built_site):
    site, _ = built_site
    own = {"nb": ("Rad ", ("ruter", "kløver")), "da": ("Række ", ("ruder", "klør"))}
    for code, (row_word, suit_words) in own.items():
        other = own["da" if code == "nb" else "nb"][1]
        html = page_path(site, code, "examples.md").read_text(encoding="utf-8")
        svgs = re.findall(r'<svg\b[^>]*role="img".*?</svg>', html, re.S)
        assert len(svgs) >= 4
        descriptions = []
        for text in svgs:
            root = ET.fromstring(text)
            title = root.find("{http://www.w3.org/2000/svg}title").text
            desc = root.find("{http://www.w3.org/2000/svg}desc").text
            assert title and desc.startswith(row_word)
            descriptions.append(desc)
        words = " ".join(descriptions).split()
        assert any(w.strip(".,():") in suit_words for w in words)
        assert not any(w.strip(".,():") in other for w in words)


# A whole number as the pages print it: plain, or grouped by the locale (1 234, 1.234).
NUMBER = re.compile(r"\d+(?:[\u00a0\u202f .]\d{3})*(?!\d)")


def numbers(html: str) -> list[int]:
    return [int(re.sub(r"\D", "", n)) for n in NUMBER.findall(re.sub(r"<[^>]+>", " ", html))]


def example_section(html: str, deal: int) -> list[str]:
    """The section (h2 to the next) whose play link opens the deal, cut at its h3 headings:
    [intro, moments, the whole game, how it ended, what the search proved]."""
    sections = [part for part in re.split(r"<h2[^>]*>", html) if f'#deal={deal}"' in part.split("<h3", 1)[0]]
    assert len(sections) == 1, f"{len(sections)} sections play deal {deal}"
    return re.split(r"<h3[^>]*>", sections[0])


def test_each_example_figure_is_in_its_own_place_on_each_page(built_site):
    """The final table's rows and the search's result sentence, number by number, in each
    language: a figure shown one off (52 for 51) fails even where 52 appears elsewhere."""
    site, _ = built_site
    bundle = json.loads((ROOT / "build" / "verified.json").read_text())
    cards = bundle["rules"]["pyramid_cards"]
    for code in LANGUAGES:
        html = page_path(site, code, "examples.md").read_text(encoding="utf-8")
        for ex in (ex for ex in bundle["examples"] if not ex["draft"]):  # a draft has no section
            parts = example_section(html, ex["deal"])
            final, search = ex["final"], ex["search"]
            rows = [numbers(cell) for cell in re.findall(r"<tr>\s*<td>.*?</td>\s*<td>(.*?)</td>", parts[-2], re.S)]
            assert rows == [[final["pyramid_removed"], cards], [final["cards_removed"]], [final["stock"]],
                            [final["waste"]], [final["points"]], [final["moves"]], []], (code, ex["id"])
            result = re.findall(r"<p>(.*?)</p>", parts[-1], re.S)[1]
            lost = [] if search["winnable"] else [search["max_removed"]]
            assert numbers(result) == [ex["deal"], *lost, cards, search["shortest"]], (code, ex["id"], result)


def test_pairs_table_is_generated_from_the_rules(built_site):
    site, _ = built_site
    html = page_path(site, "nb", "index.md").read_text(encoding="utf-8")
    for low in range(1, 7):
        assert f"{low} + {13 - low}" in html


def test_language_switch_keeps_the_page(built_site):
    site, _ = built_site
    page = page_path(site, "nb", "examples.md")
    # The switch is a relative link, to the same page in the other language.
    links = [u for u in scan(page).links if "/da/" in u and not is_external(u)]
    assert links, "no link to the Danish version"
    target = (page.parent / links[0]).resolve()
    assert target == page_path(site, "da", "examples.md").parent.resolve() or target == page_path(site, "da", "examples.md")


def test_check_site_catches_problems(tmp_path):
    (tmp_path / "nb").mkdir()
    (tmp_path / "nb" / "index.html").write_text(
        '<html lang="da"><script src="https://cdn.example.com/x.js"></script>'
        '<a href="#nowhere">x</a><a href="missing/">y</a>'
        '<svg xmlns="http://www.w3.org/2000/svg" role="img"><desc>no title</desc></svg></html>')
    problems = "\n".join(check_site(tmp_path, {"nb": ["index.md", "examples.md"]}, set()))
    for expected in ("lang='da'", "cdn.example.com", "#nowhere", "missing/ leads nowhere", "has no title", "missing page"):
        assert expected in problems


def test_every_page_shows_our_own_icon(built_site):
    """The tab icon is our pyramid (rendered at build time), not the theme's stock logo."""
    site, _ = built_site
    pages = [p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts]
    assert len(pages) >= 12
    for page in pages:
        icons = re.findall(r'<link rel="icon"[^>]*href="([^"]+)"', page.read_text(encoding="utf-8"))
        assert len(icons) == 1, page
        target = site / icons[0].lstrip("/") if icons[0].startswith("/") else page.parent / icons[0]
        assert target.resolve() == (site / "assets" / "icons" / "pyramide-192.png").resolve(), (page, icons[0])
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_colour_scheme_switch_and_skip_link_in_each_language(built_site):
    """Material's switch (device setting, light, dark) with our words for it, and the skip link
    to the game, come from each language's strings.yml; a strings.yml without them is refused
    with its file named."""
    import dataclasses

    from generator.errors import BuildError
    from generator.inputs.languages import load_languages
    from generator.site.build import mkdocs_config

    languages, _ = load_languages()
    site, _ = built_site
    for lang in languages:
        config = mkdocs_config(lang, languages, Path("docs"), Path("site"))
        schemes = [entry.get("scheme") for entry in config["theme"]["palette"]]
        assert schemes == [None, "default", "slate"]
        names = [entry["toggle"]["name"] for entry in config["theme"]["palette"]]
        assert names == [lang.strings["theme"]["scheme"][k] for k in ("to_light", "to_dark", "to_system")]
        html = (site / lang.code / "index.html").read_text(encoding="utf-8")
        assert f'<a href="#game" class="md-skip">{lang.strings["theme"]["game_skip"]}</a>' in html
        assert 'data-md-color-media="(prefers-color-scheme: dark)"' in html
        bare = dataclasses.replace(lang, strings={k: v for k, v in lang.strings.items() if k != "theme"})
        with pytest.raises(BuildError, match=r"strings\.yml: theme must give game_skip"):
            mkdocs_config(bare, languages, Path("docs"), Path("site"))
