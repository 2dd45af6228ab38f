"""The built site's checks read each page's HTML once (generator/site/sitecheck.py _BothScans): the
page checks (PageScan) and the search engines' checks (HeadScan) get from that one parse
exactly what each gets reading the page alone, and a page whose text changed is read again."""
from html.parser import HTMLParser

from generator.site import sitecheck
from generator.site.build import LOCAL_ADDRESS
from generator.site.sitecheck import HeadScan, PageScan, scanned

SCAN_FIELDS = {PageScan: ("lang", "ids", "links", "loads", "forbidden", "css", "inline_scripts", "csp", "manifests"),
               HeadScan: ("title", "meta", "canonical", "alternates", "json_ld", "questions")}


def _alone(kind, text):
    scan = kind()
    scan.feed(text)
    scan.close()
    return scan


def test_one_parse_gives_each_scanner_what_it_finds_alone(built_site):
    site, _ = built_site
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for kind, fields in SCAN_FIELDS.items():
            alone, shared = _alone(kind, text), scanned(kind, text)
            assert type(shared) is kind
            for field in fields:
                assert getattr(shared, field) == getattr(alone, field), (page, kind.__name__, field)


def test_the_sites_checks_parse_each_page_once_and_a_changed_page_again(built_site, monkeypatch):
    site, languages = built_site
    parsed = []
    feed = HTMLParser.feed
    monkeypatch.setattr(HTMLParser, "feed", lambda self, data: parsed.append((type(self), data)) or feed(self, data))
    getattr(sitecheck, "_both_scans", sitecheck.scanned).cache_clear()  # (scanned itself was the cache)
    sitecheck.check_site(site, languages, set(), LOCAL_ADDRESS)  # the page checks and the head checks
    texts = [data for _, data in parsed]
    assert len(texts) == len(set(texts)) == len({p.read_text(encoding="utf-8") for p in site.rglob("*.html")})
    parsed.clear()
    sitecheck.check_site(site, languages, set(), LOCAL_ADDRESS)
    assert parsed == []  # nothing changed: nothing read again
    page = site / "nb" / "contact" / "index.html"
    text = page.read_text(encoding="utf-8")
    assert scanned(HeadScan, text.replace("<title>", "<title>Ny ", 1)).title.startswith("Ny ")
    assert len(parsed) == 1  # the changed text, read by both scanners in one parse
    assert scanned(PageScan, text.replace("<title>", "<title>Ny ", 1)) is not scanned(PageScan, text)
    assert len(parsed) == 1
