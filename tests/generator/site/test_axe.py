"""axe-core (all rules it runs by default, every impact) finds nothing on any built page: every
page of both languages, the root chooser, and each 404 page as a reader meets it (sent for a
missing address, deep in the site), at a desktop and at a phone width, in the light and the dark
colour scheme (the device's setting, which the site follows)."""
import pytest

from helpers.not_found_host import serve_with_not_found

WIDTHS = (1280, 360)
SCHEMES = ("light", "dark")
# The 404 pages as a server sends them: for a missing address, not at their own file name.
NOT_FOUND = ("/nb/a/b/missing", "/da/a/b/missing", "/a/b/missing")


def addresses(site, languages) -> list[str]:
    pages = ["/"]
    for code, names in sorted(languages.items()):
        pages += [f"/{code}/" if name == "index.md" else f"/{code}/{name[:-3]}/" for name in sorted(names)]
    built = {"/" + p.relative_to(site).as_posix().removesuffix("index.html") for p in site.rglob("*.html")
             if p.name != "404.html" and "assets" not in p.relative_to(site).parts}
    assert built == set(pages), "a built page that the test would not visit, or the reverse"
    return pages + list(NOT_FOUND)


def violations(browser, url: str, width: int, scheme: str = "light") -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    # en-US: the root chooser would otherwise send the browser to a language and be skipped.
    context = browser.new_context(viewport={"width": width, "height": 800}, service_workers="block", locale="en-US",
                                  color_scheme=scheme)
    try:
        page = context.new_page()
        # At "load" every script of the page has run and drawn what it draws (the game's board
        # too); waiting for the network to go quiet as well only adds half a second a page.
        page.goto(url, wait_until="load")
        found = Axe().run(page).response["violations"]
        return [f"{rule['id']} ({rule['impact']}): {', '.join(str(n['target']) for n in rule['nodes'][:6])}"
                + (f" and {len(rule['nodes']) - 6} more" if len(rule["nodes"]) > 6 else "")
                for rule in found]
    finally:
        context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_on_any_page(built_site, browser, width, scheme):
    site, languages = built_site
    report = []
    with serve_with_not_found(site) as base:
        for address in addresses(site, languages):
            report += [f"{address} at {width}px, {scheme}: {v}" for v in violations(browser, base + address, width, scheme)]
    assert report == [], f"{len(report)} axe rule(s) failed:\n  " + "\n  ".join(report)
