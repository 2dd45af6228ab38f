"""The 404 pages, served as a real host serves them (GitHub Pages, nginx `error_page`): the
language's own 404 page for a missing address under /nb/ or /da/ at any depth, the root's
(in every language) anywhere else. Each loads whole (no request fails), wears the site's
colour, and every link on it leads to a page that exists; the root's names each language's
front page. Their addresses start at the site's own path, so a site in a folder works too."""
import pytest

from generator.inputs.languages import load_languages
from generator.site.root_pages import FELT, not_found_page
from generator.site.build import nav_links
from helpers.languages import LANGUAGES
from helpers.not_found_host import serve_with_not_found

LANGS = LANGUAGES
MISSING = ("/nb/x", "/nb/a/b/c/x", "/da/x", "/da/a/b/c/x", "/x", "/a/b/c/x")
FELT_RGB = "rgb({}, {}, {})".format(*(int(FELT[i:i + 2], 16) for i in (1, 3, 5)))


def visit(browser, url: str, width: int = 1280):
    """Opens url; returns (page, context, main response, [failed requests])."""
    context = browser.new_context(viewport={"width": width, "height": 800}, service_workers="block", locale="en-US")
    page = context.new_page()
    failed = []
    page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: failed.append(f"{r.url}: {r.status}") if r.status >= 400 and r.url != url else None)
    response = page.goto(url, wait_until="networkidle")
    return page, context, response, failed


@pytest.fixture(scope="module")
def server(built_site):
    with serve_with_not_found(built_site[0]) as base:
        yield base


@pytest.mark.parametrize("path", MISSING)
def test_a_missing_address_gets_a_whole_styled_404_page_whose_links_all_work(browser, server, path):
    page, context, response, failed = visit(browser, server + path)
    try:
        assert response.status == 404
        lang = path.split("/")[1] if path.split("/")[1] in LANGS else "nb"
        assert page.evaluate("document.documentElement.lang") == lang
        assert failed == [], f"{path}: requests that failed: {failed}"
        bar = ".md-header" if lang == path.split("/")[1] else "header.bar"
        assert page.eval_on_selector(bar, "e => getComputedStyle(e).backgroundColor") == FELT_RGB
        assert page.eval_on_selector("h1", "e => getComputedStyle(e).display") != "none"
        hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        inside = sorted({h.split("#")[0] for h in hrefs if h.startswith(server)})
        for lang_code in LANGS:  # both front pages are offered
            assert f"{server}/{lang_code}/" in inside, (path, inside)
        assert len(inside) >= 6, inside
        for href in inside:
            assert page.request.get(href).status == 200, (path, href)
    finally:
        context.close()


def test_the_root_404_page_speaks_every_language():
    languages, default = load_languages()
    html = not_found_page(languages, default, "http://127.0.0.1:8000/", {lang.code: nav_links(lang) for lang in languages})
    for lang in languages:
        words = lang.strings["not_found"]
        assert f'<section lang="{lang.code}">' in html
        for key in ("title", "text", "home", "pages"):
            assert words[key] in html, (lang.code, key)


def test_404_pages_start_their_addresses_at_the_sites_own_path():
    """Published in a folder (site_url https://host/pyramide/), every link and load of the root's
    404 page starts at /pyramide/, so the page works at any depth below it."""
    import re

    languages, default = load_languages()
    html = not_found_page(languages, default, "https://pages.test/pyramide/",
                          {lang.code: nav_links(lang) for lang in languages})
    addresses = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert len(addresses) >= 8
    assert all(a.startswith("/pyramide/") for a in addresses), addresses
    assert '/pyramide/nb/"' in html and '/pyramide/da/"' in html


def test_each_language_404_page_loads_from_the_languages_own_path(built_site):
    """The built nb/da 404 pages (Material's, from the language's site_url) ask for nothing by
    a relative address: at /nb/a/b/c/x a relative one would miss."""
    import re

    site, _ = built_site
    for lang in LANGS:
        html = (site / lang / "404.html").read_text(encoding="utf-8")
        for address in re.findall(r'(?:href|src)="([^"#][^"]*)"', html):
            assert address.startswith(("/", "http://", "https://", "mailto:")), (lang, address)


def test_site_check_refuses_a_404_page_that_loads_a_missing_file_or_leaves_the_sites_path(tmp_path):
    from generator.site.sitecheck import check_site

    (tmp_path / "nb").mkdir()
    (tmp_path / "nb" / "index.html").write_text('<html lang="nb"></html>')
    (tmp_path / "here.css").write_text("")
    (tmp_path / "404.html").write_text(
        '<html lang="nb"><link rel="stylesheet" href="/pyramide/gone.css"><link rel="stylesheet" href="/pyramide/here.css">'
        '<script src="/other/x.js"></script><a href="/elsewhere/">x</a><a href="/pyramide/nb/">y</a></html>')
    problems = [p for p in check_site(tmp_path, {"nb": ["index.md"]}, set(), "https://pages.test/pyramide/")
                if p.startswith(str(tmp_path / "404.html"))]
    text = "\n".join(problems)
    assert "loads /pyramide/gone.css, which does not exist" in text
    assert "loads /other/x.js, which does not start at the site's path /pyramide/" in text
    assert "link /elsewhere/ is outside the site's path /pyramide/" in text
    assert "here.css" not in text and "/pyramide/nb/" not in text  # what exists under the site's path is fine
