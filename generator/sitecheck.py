"""Checks of a built site, run before it is swapped into place (and by the tests):
every page in every language, the right `lang`, internal links and anchors that resolve,
nothing loaded from another host, every SVG well-formed with a title.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LOADING_TAGS = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src", "video": "src",
                "embed": "src", "object": "data"}


class PageScan(HTMLParser):
    """Collects what the checks need from one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lang = None
        self.ids: set[str] = set()
        self.links: list[str] = []      # <a href>
        self.loads: list[str] = []      # URLs the browser fetches by itself (scripts, styles, images…)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in LOADING_TAGS and a.get(LOADING_TAGS[tag]):
            self.loads.append(a[LOADING_TAGS[tag]])
        if tag == "link" and a.get("href") and a.get("rel") not in ("alternate", "canonical"):
            self.loads.append(a["href"])


def is_external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.scheme in ("http", "https") or parts.netloc or url.startswith("//"))


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts[:2] or p.name == "index.html")


def check_site(site: Path, languages: dict[str, list[str]], allowed_outside: set[str]) -> list[str]:
    """Problems found in the built site (empty when all is well).

    languages: {"nb": ["index.md", "examples.md", …], …}; allowed_outside: the cited sources' URLs.
    """
    problems = []
    scans: dict[Path, PageScan] = {}
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] == "assets" or "404" in page.name:
            continue
        scan = PageScan()
        scan.feed(page.read_text(encoding="utf-8"))
        scans[page] = scan
    for code, pages in languages.items():
        for name in pages:
            path = site / code / ("index.html" if name == "index.md" else f"{name[:-3]}/index.html")
            if path not in scans:
                problems.append(f"{path}: missing page ({code}, from {name})")
            elif scans[path].lang != code:
                problems.append(f"{path}: <html lang={scans[path].lang!r}>, expected {code!r}")
    for page, scan in scans.items():
        for url in scan.loads:
            if is_external(url):
                problems.append(f"{page}: loads {url} from another host")
        for url in scan.links:
            if is_external(url):
                if url not in allowed_outside:
                    problems.append(f"{page}: links to {url}, which is not a cited source")
                continue
            problems += _check_internal_link(site, page, url, scans)
        problems += _check_svgs(page)
    return problems


def _check_internal_link(site: Path, page: Path, url: str, scans: dict[Path, PageScan]) -> list[str]:
    if url.startswith(("mailto:", "javascript:")):
        return []
    parts = urlsplit(url)
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    if target.is_dir() or parts.path.endswith("/"):
        target = target / "index.html"
    if not target.exists():
        return [f"{page}: link {url} leads nowhere"]
    if parts.fragment and target in scans and parts.fragment not in scans[target].ids:
        return [f"{page}: link {url}: no anchor #{parts.fragment} in {target}"]
    return []


SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def _check_svgs(page: Path) -> list[str]:
    problems = []
    for i, match in enumerate(SVG.finditer(page.read_text(encoding="utf-8")), 1):
        text = match.group(0)
        if 'role="img"' not in text.split(">", 1)[0]:
            continue  # icons of the theme, not our pictures
        try:
            root = ET.fromstring(text)
        except ET.ParseError as e:
            problems.append(f"{page}: picture {i} is not well-formed SVG ({e})")
            continue
        title = root.find("{http://www.w3.org/2000/svg}title")
        if title is None or not (title.text or "").strip():
            problems.append(f"{page}: picture {i} has no title")
    return problems
