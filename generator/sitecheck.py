"""Checks of a built site, run before it is swapped into place (and by the tests):
every page in every language, the right `lang`, internal links and anchors that resolve,
nothing loaded from another host, every SVG well-formed with a title.

It fails closed: it does not look for known-bad patterns, it allows known-good ones. Every
attribute that can hold an address is read (not only `src`), every address must be relative
or http(s)/mailto, anything the browser fetches by itself must come from this site, inline
event handlers, forms that send somewhere and `<base>` are errors, and CSS (inline, in
`<style>` or in the site's stylesheets) may load nothing from another host. Every page must
carry the Content-Security-Policy the build wrote (generator/csp.py) and it must cover every
inline script on the page.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .csp import inline_script_hash, policy_of

# Attributes whose value is an address (or a list of them: srcset), by what a browser does with it.
LINK_ATTRIBUTES = {"href", "cite"}                       # followed only when the reader clicks
LOAD_ATTRIBUTES = {"src", "poster", "data", "background", "xlink:href", "manifest", "icon", "longdesc",
                   "codebase", "archive", "ping", "action", "formaction"}
LIST_ATTRIBUTES = {"srcset", "imagesrcset"}
ALLOWED_SCHEMES = {"", "http", "https", "mailto"}
# Tags whose href the browser fetches by itself.
LOADING_HREF_TAGS = {"link", "image", "use", "feimage"}
# <link rel=…> that only name another address and fetch nothing.
NAMING_RELS = {"alternate", "canonical"}
CSS_URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+(['"])(.*?)\3""", re.I | re.S)


def normalised(url: str) -> str:
    """The address as a browser reads it: surrounding spaces and controls stripped, tabs and
    newlines inside removed ('java\\tscript:' is 'javascript:')."""
    return re.sub(r"[\t\n\r]", "", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                                              "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")


def scheme_of(url: str) -> str:
    match = re.match(r"([a-zA-Z][a-zA-Z0-9+.\-]*):", normalised(url))
    return match.group(1).lower() if match else ""


def is_external(url: str) -> bool:
    url = normalised(url)
    parts = urlsplit(url)
    return bool(scheme_of(url) in ("http", "https") or parts.netloc or url.startswith(("//", "\\\\", "/\\")))


class PageScan(HTMLParser):
    """Collects what the checks need from one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lang = None
        self.ids: set[str] = set()
        self.links: list[str] = []      # <a href> and the like: followed on a click
        self.loads: list[str] = []      # fetched by the browser itself (scripts, styles, images…)
        self.forbidden: list[str] = []  # what no page of ours may hold, said in words
        self.css: list[str] = []        # inline style attributes and <style> contents
        self.inline_scripts: list[str] = []
        self.csp: list[str] = []
        self._in: str | None = None     # "style" or "script" while inside one
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = {name.lower(): (value or "") for name, value in attrs}
        if tag == "html":
            self.lang = a.get("lang")
        if a.get("id"):
            self.ids.add(a["id"])
        for name, value in a.items():
            if name.startswith("on"):
                self.forbidden.append(f"<{tag} {name}=…>: an inline event handler")
            elif name in LIST_ATTRIBUTES:
                self.loads += [part.strip().split(" ")[0] for part in value.split(",") if part.strip()]
            elif name == "href":
                rel = set(a.get("rel", "").lower().split())
                naming = tag == "link" and rel and rel <= NAMING_RELS
                (self.loads if tag in LOADING_HREF_TAGS and not naming else self.links).append(value)
            elif name in LINK_ATTRIBUTES:
                self.links.append(value)
            elif name in LOAD_ATTRIBUTES:
                self.loads.append(value)
            elif name == "style":
                self.css.append(value)
        if tag == "form" and ("action" in a or a.get("method", "get").lower() != "get"):
            self.forbidden.append("<form> that sends somewhere")
        if tag == "input" and a.get("type", "").lower() == "image":
            self.forbidden.append("<input type=image>")
        if tag == "base":
            self.forbidden.append("<base>: it would change where every relative link goes")
        if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.forbidden.append("<meta http-equiv=refresh>")
        if tag == "meta" and a.get("http-equiv", "").lower() == "content-security-policy":
            self.csp.append(a.get("content", ""))
        if tag == "style" or (tag == "script" and "src" not in a and _runs(a.get("type", ""))):
            self._in, self._text = tag, []

    def handle_data(self, data):
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag):
        if self._in == tag:
            (self.css if tag == "style" else self.inline_scripts).append("".join(self._text))
            self._in = None


def _runs(script_type: str) -> bool:
    """A <script> of this type is executed (JSON data blocks are not)."""
    return script_type.strip().lower() in ("", "module", "text/javascript", "application/javascript")


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts[:2] or p.name == "index.html")


def check_site(site: Path, languages: dict[str, list[str]], allowed_outside: set[str],
               own_address: str | None = None) -> list[str]:
    """Problems found in the built site (empty when all is well).

    languages: {"nb": ["index.md", "examples.md", …], …}; allowed_outside: the cited sources' URLs;
    own_address: the site's published address (canonical links name it).
    """
    problems = []
    scans: dict[Path, PageScan] = {}
    for page in sorted(site.rglob("*.html")):
        scan = PageScan()
        scan.feed(page.read_text(encoding="utf-8"))
        scan.close()
        scans[page] = scan
    for code, pages in languages.items():
        for name in pages:
            path = site / code / ("index.html" if name == "index.md" else f"{name[:-3]}/index.html")
            if path not in scans:
                problems.append(f"{path}: missing page ({code}, from {name})")
            elif scans[path].lang != code:
                problems.append(f"{path}: <html lang={scans[path].lang!r}>, expected {code!r}")
    for page, scan in scans.items():
        problems += [f"{page}: {what}" for what in scan.forbidden]
        problems += _check_policy(page, scan)
        for url in scan.loads:
            problems += _check_address(page, url, load=True)
        for css in scan.css:
            problems += [f"{page}: {p}" for p in css_problems(css)]
        for url in scan.links:
            bad = _check_address(page, url, load=False)
            if bad:
                problems += bad
            elif is_external(url):
                if own_address and normalised(url).startswith(own_address):
                    continue
                if normalised(url) not in allowed_outside:
                    problems.append(f"{page}: links to {url}, which is not a cited source")
            elif scheme_of(url) != "mailto":
                problems += _check_internal_link(site, page, normalised(url), scans)
        problems += _check_svgs(page)
    for stylesheet in sorted(site.rglob("*.css")):
        problems += [f"{stylesheet}: {p}" for p in css_problems(stylesheet.read_text(encoding="utf-8"))]
    return problems


def _check_address(page: Path, url: str, load: bool) -> list[str]:
    scheme = scheme_of(url)
    if scheme not in ALLOWED_SCHEMES and not (load and scheme == "data" and _harmless_data(url)):
        return [f"{page}: address {url[:80]!r} uses the scheme '{scheme}:' (only relative, http(s) and mailto)"]
    if load and (is_external(url) or scheme == "mailto"):
        return [f"{page}: loads {url[:80]} from another host"]
    return []


def _harmless_data(url: str) -> bool:
    """An inline image (the theme's icons): data: of an image type that is not SVG, which can run nothing."""
    return bool(re.match(r"data:image/(png|gif|jpeg|webp)[;,]", normalised(url), re.I))


def css_problems(css: str) -> list[str]:
    """Loads from another host (or through another scheme) in CSS, by url() or @import."""
    problems = []
    for match in CSS_URL.finditer(css):
        url = match.group(2) if match.group(2) is not None else match.group(4)
        scheme = scheme_of(url)
        if match.group(4) is not None and scheme:
            problems.append(f"CSS @import of {url[:80]!r}: only files of this site")
        elif scheme == "data" and re.match(r"data:image/svg\+xml", normalised(url), re.I):
            continue  # the theme's icons, drawn by CSS masks: an SVG as a CSS image runs no script
        elif scheme and scheme not in ("http", "https") and not _harmless_data(url):
            problems.append(f"CSS url({url[:80]!r}) uses the scheme '{scheme}:'")
        elif is_external(url):
            problems.append(f"CSS loads {url[:80]} from another host")
    if re.search(r"expression\s*\(|behavior\s*:|-moz-binding", css, re.I):
        problems.append("CSS that runs code (expression(), behavior, -moz-binding)")
    return problems


def _check_policy(page: Path, scan: PageScan) -> list[str]:
    """The page's Content-Security-Policy exists, allows no inline script by 'unsafe-inline', and
    names the hash of every inline script the page holds (else the browser refuses to run it)."""
    if not scan.csp:
        return [f"{page}: no Content-Security-Policy"]
    policy = policy_of(scan.csp[0])
    scripts = policy.get("script-src", policy.get("default-src", []))
    problems = []
    if "'unsafe-inline'" in scripts or "'unsafe-eval'" in scripts:
        problems.append(f"{page}: the Content-Security-Policy allows inline or eval'd scripts")
    for text in scan.inline_scripts:
        if f"'{inline_script_hash(text)}'" not in scripts:
            problems.append(f"{page}: an inline script the Content-Security-Policy does not allow: {text.strip()[:60]!r}")
    return problems


def _check_internal_link(site: Path, page: Path, url: str, scans: dict[Path, PageScan]) -> list[str]:
    parts = urlsplit(url)
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    if parts.path.startswith("/"):
        if page.name != "404.html":
            return [f"{page}: link {url} starts at the server's root; use a relative link (the site may live in a folder)"]
        # A 404 page is sent for any missing address, at any depth: only links from the root work there.
        target = (site / unquote(parts.path).lstrip("/")).resolve()
    if not target.is_relative_to(site.resolve()):
        return [f"{page}: link {url} leads out of the site"]
    if target.is_dir() or parts.path.endswith("/"):
        target = target / "index.html"
    if not target.exists():
        return [f"{page}: link {url} leads nowhere"]
    if parts.fragment and target in scans and unquote(parts.fragment) not in scans[target].ids:
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
