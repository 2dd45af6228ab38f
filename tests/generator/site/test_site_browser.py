"""The built site in Debian's Chromium: nb and da front pages, the language switch, search in
each language, screenshots of every page (kept in test-artifacts/), no request to another host."""
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml


ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "test-artifacts"
SEARCH_WORDS = {"nb": "kastebunke", "da": "afkastbunke"}


def watched_page(browser, locale="nb-NO", width=390):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.requests_seen = []
    page.errors = []
    page.on("request", lambda r: page.requests_seen.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.failed = []
    page.on("response", lambda r: page.failed.append(r.url) if r.status >= 400 else None)
    return page


def only_local(page):
    hosts = {urlsplit(u).hostname for u in page.requests_seen if u.startswith("http")}
    assert hosts <= {"127.0.0.1"}, hosts


@pytest.mark.parametrize("locale, code", [("nb-NO", "nb"), ("da-DK", "da")])
def test_root_sends_the_reader_to_their_language(browser, site_url, locale, code):
    page = watched_page(browser, locale)
    page.goto(site_url + "/")
    page.wait_for_url(re.compile(re.escape(f"{site_url}/{code}/") + r"(#deal=\d+)?$"))  # the address shows the deal played
    assert page.get_attribute("html", "lang") == code
    only_local(page)


def test_root_shows_a_choice_for_other_languages(browser, site_url):
    page = watched_page(browser, "en-US")
    page.goto(site_url + "/")
    assert page.locator("a[hreflang=nb]").is_visible() and page.locator("a[hreflang=da]").is_visible()


@pytest.mark.parametrize("code, other", [("nb", "da"), ("da", "nb")])
def test_language_switch_keeps_the_page(browser, site_url, code, other):
    page = watched_page(browser)
    page.goto(f"{site_url}/{code}/examples/")
    page.locator(".md-header__option .md-select").hover()
    page.locator(f".md-select__link[hreflang={other}]").click()
    page.wait_for_url(f"{site_url}/{other}/examples/")
    assert page.get_attribute("html", "lang") == other
    only_local(page)


@pytest.mark.parametrize("code", ["nb", "da"])
def test_search_finds_a_word_of_the_language(browser, site_url, built_site, code):
    page = watched_page(browser)
    page.goto(f"{site_url}/{code}/")
    page.locator("label.md-header__button[for=__search]").click()
    page.wait_for_function("document.querySelector('.md-search__output') !== null")
    page.locator("input.md-search__input").type(SEARCH_WORDS[code], delay=60)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15000)
    found = {urlsplit(href).path.split("#")[0] for href in
             page.eval_on_selector_all(".md-search-result__item a", "links => links.map(a => a.href)")}
    base = urlsplit(site_url).path.rstrip("/") + "/"
    prefix = f"{base}{code}/"
    # The language's own pages only; among them the rules page, which names the pile; and only
    # pages that hold the word (the stem: the search stems «kastebunken» to it).
    assert found and all(path.startswith(prefix) for path in found), found
    assert prefix in found, found
    site, _ = built_site
    stem = SEARCH_WORDS[code][:-1]
    for path in found:
        html = (site / path.removeprefix(base) / "index.html").read_text(encoding="utf-8")
        assert stem in re.sub(r"<[^>]+>", " ", html).lower(), path
    only_local(page)


@pytest.mark.parametrize("code", ["nb", "da"])
def test_screenshots_of_every_page(browser, site_url, built_site, code):
    _, languages = built_site
    ARTIFACTS.mkdir(exist_ok=True)
    for name in languages[code]:
        page = watched_page(browser, width=360)
        path = "" if name == "index.md" else f"{name[:-3]}/"
        page.goto(f"{site_url}/{code}/{path}")
        page.screenshot(path=str(ARTIFACTS / f"site-{code}-{name[:-3]}.png"), full_page=True)
        # Fits a phone: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360 + 1, f"{code}/{name} scrolls sideways"
        assert page.errors == [], page.errors
        assert page.failed == [], page.failed
        only_local(page)


CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));
"""


@pytest.mark.parametrize("code", ["nb", "da"])
def test_no_page_breaks_its_content_security_policy_while_playing(browser, site_url, built_site, code):
    """Every page, with the game played (draw, Hint in its worker, Undo) and the search opened:
    the policy blocks nothing the site itself needs, and every page has one."""
    _, languages = built_site
    for name in languages[code]:
        page = watched_page(browser)
        page.add_init_script(CSP_LISTENER)
        path = "" if name == "index.md" else f"{name[:-3]}/"
        page.goto(f"{site_url}/{code}/{path}")
        policy = page.get_attribute("meta[http-equiv='Content-Security-Policy']", "content")
        assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
        if name == "index.md":
            game = page.locator(".pyramide-game").first
            game.locator(".pyr-board").wait_for()
            game.locator("button[data-pile='stock']").click()
            game.locator(".pyr-hint").click()
            page.wait_for_function("document.querySelector('.pyramide-game .pyr-message').textContent.trim() !== ''")
            game.locator(".pyr-undo").click()
        page.locator("label.md-header__button[for=__search]").click()
        page.wait_for_function("document.querySelector('.md-search__output') !== null")
        page.wait_for_timeout(300)
        assert page.evaluate("window.__cspViolations") == [], f"{code}/{name}"
        assert page.errors == [], page.errors
    root = watched_page(browser, "en-US")
    root.add_init_script(CSP_LISTENER)
    root.goto(site_url + "/")
    assert root.evaluate("window.__cspViolations") == []


@pytest.mark.parametrize("code", ["nb", "da"])
def test_the_rules_page_prints_cleanly(browser, site_url, code):
    """Printed, the front page keeps its text and pictures and drops the game's controls,
    the navigation, the header, the footer and the search."""
    page = watched_page(browser, width=1280)
    page.goto(f"{site_url}/{code}/")
    page.locator(".pyramide-game .pyr-board").wait_for()
    # The replay, built as the page loaded, has moved a chapter's picture into its player: on
    # paper every picture is back under its title (app/ui/replay.js, on the browser's beforeprint).
    page.locator(".pyr-chapter").nth(1).click()
    sent = page.locator(".pyramide-replay figure").count()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    printed = page.eval_on_selector_all(".pyramide-replay figure", "fs => fs.filter(f => f.checkVisibility()).length")
    assert printed == sent == page.locator(".pyramide-replay-fallback .chapter-title").count() >= 2
    hidden = [".pyramide-game", ".md-header", ".md-sidebar--primary", ".md-footer", ".md-search",
              ".pyramide-replay button"]
    for selector in hidden:
        shown = page.evaluate(f"""[...document.querySelectorAll('{selector}')]
            .filter(e => e.getClientRects().length > 0).length""")
        assert shown == 0, f"{selector} is printed"
    visible_pictures = page.evaluate("""[...document.querySelectorAll('article svg[role=img]')]
        .filter(e => e.getClientRects().length > 0).length""")
    assert visible_pictures >= 1
    assert page.locator("article h2:not(.pyr-end-title)").first.is_visible()  # the page's, not the game's (hidden) panel
    pdf = page.pdf(format="A4")
    assert pdf[:5] == b"%PDF-" and len(pdf) > 20_000
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"print-{code}.pdf").write_bytes(pdf)
