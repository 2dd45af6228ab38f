"""The site's own face: our palette (generator/assets/site.css) meets WCAG AA, the root pages,
the manifest and the icon use the same green, the header shows our logo cut from the icon's
drawing, and the worked examples' pictures fill the text column at desktop and phone widths."""
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers.local_browser import serve
from generator.site import offline
from generator.site import root_pages

ROOT = Path(__file__).resolve().parents[3]
SITE_CSS = (ROOT / "generator" / "assets" / "site.css").read_text(encoding="utf-8")
SVG = "{http://www.w3.org/2000/svg}"


def palette() -> dict[str, str]:
    block = re.search(r":root > \* \{(.*?)\}", SITE_CSS, re.S).group(1)
    return dict(re.findall(r"(--md-[\w-]+):\s*(#[0-9a-fA-F]{6,8});", block))


def rgba(colour: str) -> tuple[float, float, float, float]:
    h = colour.lstrip("#")
    alpha = int(h[6:8], 16) / 255 if len(h) == 8 else 1.0
    return (*(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)), alpha)


def over(colour: str, background: str) -> tuple[float, float, float]:
    *fg, a = rgba(colour)
    bg = rgba(background)[:3]
    return tuple(a * f + (1 - a) * b for f, b in zip(fg, bg))


def contrast(fg: str, bg: str) -> float:
    def luminance(rgb):
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    light, dark = sorted((luminance(over(fg, bg)), luminance(rgba(bg)[:3])), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_palette_meets_wcag_aa_in_light_mode():
    p = palette()
    white = "#ffffff"
    assert contrast(p["--md-primary-bg-color"], p["--md-primary-fg-color"]) >= 4.5      # header text
    assert contrast(p["--md-primary-bg-color--light"], p["--md-primary-fg-color"]) >= 4.5  # header hints
    assert contrast(p["--md-typeset-a-color"], white) >= 4.5                             # links
    assert contrast(p["--md-accent-fg-color"], white) >= 4.5                             # hovered links, focus
    assert contrast(p["--md-accent-fg-color"], white) >= 3  # focus rings on the page (controls: 3:1)
    # On the dark header and footer the ring is white.
    assert re.search(r"\.md-header :focus-visible.*?outline: [.\d]+rem solid #ffffff", SITE_CSS, re.S)
    assert contrast(white, p["--md-primary-fg-color"]) >= 3


def test_one_green_everywhere():
    p = palette()
    icon = ET.parse(ROOT / "generator" / "assets" / "icon.svg").getroot()
    background = icon.find(f".//{SVG}rect[@id='background']")
    assert p["--md-primary-fg-color"].lower() == root_pages.FELT.lower() == offline.THEME_COLOUR.lower()
    assert background.get("fill").lower() == offline.THEME_COLOUR.lower()
    assert p["--md-accent-fg-color"].lower() == root_pages.CARD_RED.lower()


def test_the_logo_is_the_icons_pyramid_without_its_background():
    logo = ET.fromstring(offline.logo_svg())
    icon = ET.parse(ROOT / "generator" / "assets" / "icon.svg").getroot()
    assert logo.find(f".//{SVG}rect[@id='background']") is None
    cards = lambda root: [(r.get("x"), r.get("y")) for r in root.findall(f".//{SVG}g[@id='pyramid']/{SVG}rect")]
    assert cards(logo) == cards(icon) and len(cards(icon)) >= 6
    x, y, w, h = (float(v) for v in logo.get("viewBox").split())
    for rect in logo.findall(f".//{SVG}g[@id='pyramid']/{SVG}rect"):  # every card inside the cut box
        assert x <= float(rect.get("x")) and float(rect.get("x")) + float(rect.get("width")) <= x + w
        assert y <= float(rect.get("y")) and float(rect.get("y")) + float(rect.get("height")) <= y + h
    decorative = ET.fromstring(offline.logo_svg(decorative=True))
    assert decorative.get("aria-hidden") == "true" and decorative.find(f"{SVG}title") is None


def test_every_language_page_shows_our_logo_in_the_header(built_site):
    site, languages = built_site
    for code in languages:
        html = (site / code / "index.html").read_text(encoding="utf-8")
        logos = re.findall(r'<a [^>]*class="md-header__button md-logo"[^>]*>\s*<img src="([^"]+)" alt="">', html)
        assert logos, code
        assert (site / code / logos[0]).read_text(encoding="utf-8") == offline.logo_svg()
        assert "material/library" not in html


@pytest.mark.parametrize("width", (1280, 360))
def test_example_pictures_fill_the_column_and_keep_their_words(built_site, browser, width):
    site, _ = built_site
    with serve(site) as base:
        context = browser.new_context(viewport={"width": width, "height": 800}, service_workers="block")
        page = context.new_page()
        page.goto(f"{base}/nb/examples/", wait_until="networkidle")
        figures = page.eval_on_selector_all(".pyramid-figure", """figures => figures.map(f => {
            const svg = f.querySelector('svg');
            return {column: f.parentElement.getBoundingClientRect().width,
                    width: svg.getBoundingClientRect().width, height: svg.getBoundingClientRect().height,
                    title: (svg.querySelector('title') || {}).textContent, desc: (svg.querySelector('desc') || {}).textContent,
                    labelled: svg.getAttribute('aria-labelledby')};
        })""")
        context.close()
    assert len(figures) >= 4
    for f in figures:
        assert f["title"] and f["desc"] and f["labelled"], f
        assert f["width"] >= 0.95 * min(f["column"], 48 * 20) - 1, f  # the column, up to 48rem
        assert f["width"] <= width, f
        if width == 1280:
            assert f["width"] >= 600, f  # a card (100 of 752 units) at least 80 px wide


@pytest.mark.parametrize("lang", ("nb", "da"))
@pytest.mark.parametrize("width,scheme", ((360, "light"), (1280, "dark")))
def test_a_rule_mark_shows_its_sentence_on_focus_within_the_screen(built_site, browser, lang, width, scheme):
    """The rule marks' tips are CSS (site.css), not Material's tooltips: none until a mark has the
    keyboard's focus (or the pointer), then the mark's own sentence, and the page no wider."""
    site, _ = built_site
    with serve(site) as base:
        context = browser.new_context(viewport={"width": width, "height": 740}, color_scheme=scheme, service_workers="block")
        page = context.new_page()
        page.goto(f"{base}/{lang}/", wait_until="load")
        marks = page.locator(".rule-ref a:visible")
        assert marks.count() > 5
        tip = "(a) => getComputedStyle(a.parentElement, '::after').content"
        assert marks.first.evaluate(tip) == "none"
        for mark in (marks.first, marks.last):
            mark.scroll_into_view_if_needed()
            mark.focus()
            label = mark.get_attribute("aria-label")
            assert mark.evaluate(tip).startswith(f'"{label}"'), (mark.evaluate(tip), label)
            assert page.evaluate("document.scrollingElement.scrollWidth") == width
        context.close()
