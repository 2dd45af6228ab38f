"""Checks of a built site, run before it is swapped into place (and by the tests):
every page in every language, the right `lang`, internal links and anchors that resolve,
nothing loaded from another host, every SVG well-formed with a title.

It fails closed: it does not look for known-bad patterns, it allows known-good ones. Every
attribute that can hold an address is read (not only `src`), every address must be relative
or http(s)/mailto, anything the browser fetches by itself must come from this site, inline
event handlers, forms that send somewhere and `<base>` are errors, and CSS (inline, in
`<style>` or in the site's stylesheets) may load nothing from another host. Every page must
carry the Content-Security-Policy the build wrote (generator/site/csp.py) and it must cover every
inline script on the page. Given the site's address, it also checks what search engines and
link previews read (seo_problems): alternates, canonical, sitemap, robots.txt, preview tags and
picture, and the FAQ's JSON-LD. Every page links one web app manifest in its language whose
icons exist at the sizes they claim (generator/site/offline.py).
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import tinycss2

from generator.site.csp import inline_script_hash, policy_of, policy_text, runs_inline

# Attributes whose value is an address (or a list of them: srcset), by what a browser does with it.
LINK_ATTRIBUTES = {"href", "cite"}                       # followed only when the reader clicks
LOAD_ATTRIBUTES = {"src", "poster", "data", "background", "xlink:href", "manifest", "icon", "longdesc",
                   "codebase", "archive", "ping", "action", "formaction",
                   "data-theme-bundle"}  # the theme's script, which assets/theme-on-demand.js loads
LIST_ATTRIBUTES = {"srcset", "imagesrcset"}
ALLOWED_SCHEMES = {"", "http", "https", "mailto"}
# Tags whose href the browser fetches by itself (an SVG <script href> too).
LOADING_HREF_TAGS = {"link", "image", "use", "feimage", "script"}
# <link rel=…> that only name another address and fetch nothing.
NAMING_RELS = {"alternate", "canonical"}
CSS_URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+(['"])(.*?)\3""", re.I | re.S)
# CSS functions whose string arguments are addresses the browser fetches (url() unquoted is a token of its own).
CSS_ADDRESS_FUNCTIONS = {"url", "src", "image", "image-set", "-webkit-image-set", "cross-fade", "-webkit-cross-fade"}
# Markup that Python's HTMLParser and a browser read differently (a comment ended by "--!>" or
# opened as "<!-->", an end tag with attributes): what it hides from this check a browser may
# load, so a page holding any is refused rather than read one way.
AMBIGUOUS_MARKUP = re.compile(r"<!--->|<!-->|--!>|</[A-Za-z][^\s/>]*[\s/]+[^\s/>][^>]*>")


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
    # A browser reads each "\\" of such an address as "/": "\\/host", "/\\host" are "//host".
    return bool(scheme_of(url) in ("http", "https") or parts.netloc or url.replace("\\", "/").startswith("//"))


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
        self.manifests: list[str] = []  # <link rel=manifest> addresses
        self._in: str | None = None     # "style" or "script" while inside one
        self._text: list[str] = []
        self._svg = 0                   # <svg> depth

    def handle_starttag(self, tag, attrs):
        a: dict[str, str] = {}
        for name, value in attrs:  # a browser uses the first of a repeated name; the check reads no other
            if name.lower() in a:
                self.forbidden.append(f"<{tag} {name.lower()}=…> given twice (a browser uses the first)")
            a.setdefault(name.lower(), value or "")
        if tag == "svg":
            self._svg += 1
        elif tag == "style" and self._svg:
            self.forbidden.append("<style> inside <svg> (a browser reads markup in it, this check CSS)")
        if "srcdoc" in a:
            self.forbidden.append(f"<{tag} srcdoc=…>: a whole page inside an attribute")
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
                if tag == "link" and "manifest" in rel:
                    self.manifests.append(value)
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
        if tag == "style" or (tag == "script" and runs_inline(a)):
            self._in, self._text = tag, []

    def handle_data(self, data):
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "svg" and self._svg:
            self._svg -= 1
        if self._in == tag:
            (self.css if tag == "style" else self.inline_scripts).append("".join(self._text))
            self._in = None


def scanned(kind: type[HTMLParser], text: str) -> HTMLParser:
    """A page's text read by a scanner (PageScan, HeadScan), which the checks only read: a
    function of the text alone, so `make serve`'s warm builder reads only pages that changed;
    both scanners of a page from one reading of it (_BothScans)."""
    return _both_scans(text)[kind]


@lru_cache(maxsize=512)
def _both_scans(text: str) -> dict[type[HTMLParser], HTMLParser]:
    scan = _BothScans()
    scan.feed(text)
    scan.close()
    scans = {type(each): each for each in scan.scans}
    scans[PageScan].forbidden += [f"{m.group(0)[:40]!r}: markup a browser reads otherwise than this check"
                                  for m in AMBIGUOUS_MARKUP.finditer(text)]
    return scans


class _BothScans(HTMLParser):
    """PageScan and HeadScan fed by one parse of the text (a changed page is a third of a
    megabyte): HTMLParser's tokens do not depend on what its handlers do, and these two
    scanners use only the three handlers below, so each gets exactly the calls it would get
    reading the text alone."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scans = (PageScan(), HeadScan())

    def handle_starttag(self, tag, attrs):
        for scan in self.scans:
            scan.handle_starttag(tag, attrs)

    def handle_data(self, data):
        for scan in self.scans:
            scan.handle_data(data)

    def handle_endtag(self, tag):
        for scan in self.scans:
            scan.handle_endtag(tag)


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts[:2] or p.name == "index.html")


def check_site(site: Path, languages: dict[str, list[str]], allowed_outside: set[str],
               own_address: str | None = None) -> list[str]:
    """Problems found in the built site (empty when all is well).

    languages: {"nb": ["index.md", "examples.md", …], …}; allowed_outside: the cited sources' URLs
    and the contact address's mailto: (no other mail address may be linked);
    own_address: the site's published address (canonical links name it).
    """
    problems = []
    # Each page links the same few places (the navigation, the other language): each path is
    # resolved once per check, not once per link (a page edit under `make serve` waited for it).
    resolved = lru_cache(maxsize=None)(Path.resolve)
    scans: dict[Path, PageScan] = {}
    manifests: dict[Path, list[str]] = {}  # each manifest's own problems, checked once
    for page in sorted(site.rglob("*.html")):
        scans[page] = scanned(PageScan, page.read_text(encoding="utf-8"))
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
            if page.name == "404.html":
                problems += _check_not_found_load(site, page, normalised(url), urlsplit(own_address or "/").path or "/")
        for css in scan.css:
            problems += [f"{page}: {p}" for p in css_problems(css)]
        for url in scan.links:
            bad = _check_address(page, url, load=False)
            if bad:
                problems += bad
            elif own_address and normalised(url).startswith(own_address):
                # The site's own address, written out (canonical, alternates): it must lead somewhere too.
                rest = normalised(url)[len(own_address):]
                problems += [f"{page}: {url}: {p.split(': ', 1)[1]}"
                             for p in _check_internal_link(site, site / "index.html", rest or "./", scans, "/", resolved)]
            elif scheme_of(url) == "mailto":
                if normalised(url) not in allowed_outside:
                    problems.append(f"{page}: mails {url[:80]}, which is not the contact address")
            elif is_external(url):
                if normalised(url) not in allowed_outside:
                    problems.append(f"{page}: links to {url}, which is not a cited source")
            else:
                problems += _check_internal_link(site, page, normalised(url), scans,
                                                 urlsplit(own_address).path if own_address else "/", resolved)
        problems += _check_svgs(page)
        problems += _check_manifest(site, page, scan, own_address, manifests)
    for stylesheet in sorted(site.rglob("*.css")):
        problems += [f"{stylesheet}: {p}" for p in css_problems(stylesheet.read_text(encoding="utf-8"))]
    if own_address:
        problems += seo_problems(site, languages, own_address)
    return problems


def _check_address(page: Path, url: str, load: bool) -> list[str]:
    scheme = scheme_of(url)
    if scheme not in ALLOWED_SCHEMES and not (load and scheme == "data" and _harmless_data(url)):
        return [f"{page}: address {url[:80]!r} uses the scheme '{scheme}:' (only relative, http(s) and mailto)"]
    if load and (is_external(url) or scheme == "mailto"):
        return [f"{page}: loads {url[:80]} from another host"]
    return []


def _check_not_found_load(site: Path, page: Path, url: str, base: str) -> list[str]:
    """A 404 page is sent for missing addresses at any depth: what it loads must be named from
    the site's own path (`base`) and exist there, or the page arrives broken."""
    parts = urlsplit(url)
    if scheme_of(url) or parts.netloc or not parts.path:
        return []  # data: pictures, and other hosts (refused by _check_address)
    if not parts.path.startswith(base):
        return [f"{page}: loads {url}, which does not start at the site's path {base} (the page is sent at any depth)"]
    target = (site / unquote(parts.path[len(base):])).resolve()
    if not target.is_relative_to(site.resolve()) or not target.is_file():
        return [f"{page}: loads {url}, which does not exist"]
    return []


def _harmless_data(url: str) -> bool:
    """An inline image (the theme's icons): data: of an image type that is not SVG, which can run nothing."""
    return bool(re.match(r"data:image/(png|gif|jpeg|webp)[;,]", normalised(url), re.I))


def css_addresses(css: str) -> list[tuple[str, bool]]:
    """Every address the CSS names, as a browser reads it (tinycss2's tokens: escapes undone, in
    any nesting): (address, named by @import)."""
    found = []

    def walk(tokens, after_import=False):
        for token in tokens:
            if token.type in ("whitespace", "comment"):
                continue
            if token.type == "url":
                found.append((token.value, after_import))
            elif token.type == "error" and token.kind == "bad-url":  # e.g. "(" unquoted: refused, not guessed at
                found.append(("bad-url:", after_import))
            elif token.type == "string" and after_import:
                found.append((token.value, True))
            elif token.type == "function":
                if token.lower_name in CSS_ADDRESS_FUNCTIONS:
                    found.extend((t.value, after_import) for t in token.arguments if t.type == "string")
                walk(token.arguments)
            elif token.type in ("() block", "[] block", "{} block"):
                walk(token.content)
            after_import = token.type == "at-keyword" and token.lower_value == "import"

    walk(tinycss2.parse_component_value_list(css))
    return found


def _runs_code(css: str) -> bool:
    """expression(), behavior or -moz-binding anywhere, escapes undone."""
    def names(tokens):
        for token in tokens:
            if token.type in ("function", "ident", "at-keyword"):
                yield getattr(token, "lower_name", None) or token.lower_value
            for inner in (getattr(token, "arguments", None), getattr(token, "content", None)):
                if inner:
                    yield from names(inner)
    return bool({"expression", "behavior", "-moz-binding"} & set(names(tinycss2.parse_component_value_list(css))))


def css_problems(css: str) -> list[str]:
    """Loads from another host (or through another scheme) in CSS, by url(), image-set(), @import…"""
    return list(_css_problems(css))


@lru_cache(maxsize=4096)  # the theme's stylesheets and the pictures' style attributes, the same at every build
def _css_problems(css: str) -> tuple[str, ...]:
    problems = []
    # As a browser reads the CSS (tinycss2), and as written (a regular expression): a string a
    # browser would drop (a newline in it) is still refused, not guessed harmless.
    written = [(m.group(2) if m.group(2) is not None else m.group(4), m.group(4) is not None)
               for m in CSS_URL.finditer(css)]
    for url, imported in dict.fromkeys(css_addresses(css) + written):
        scheme = scheme_of(url)
        if imported and scheme:
            problems.append(f"CSS @import of {url[:80]!r}: only files of this site")
        elif scheme == "data" and re.match(r"data:image/svg\+xml", normalised(url), re.I):
            continue  # the theme's icons, drawn by CSS masks: an SVG as a CSS image runs no script
        elif scheme and scheme not in ("http", "https") and not _harmless_data(url):
            problems.append(f"CSS url({url[:80]!r}) uses the scheme '{scheme}:'")
        elif is_external(url):
            problems.append(f"CSS loads {url[:80]} from another host")
    if _runs_code(css) or re.search(r"expression\s*\(|behavior\s*:|-moz-binding", css, re.I):
        problems.append("CSS that runs code (expression(), behavior, -moz-binding)")
    return tuple(problems)


def _check_policy(page: Path, scan: PageScan) -> list[str]:
    """The page's Content-Security-Policy is the one the build writes (generator/site/csp.py) for
    the inline scripts it holds: no other, however safe it looks (a policy of `*` or a keyword in
    capitals would let through what the build never allows)."""
    if not scan.csp:
        return [f"{page}: no Content-Security-Policy"]
    problems = _policy_details(page, scan)
    expected = policy_text({f"'{inline_script_hash(text)}'" for text in scan.inline_scripts})
    if not problems and scan.csp != [expected]:
        problems.append(f"{page}: its Content-Security-Policy is not the one the build writes for it "
                        f"({len(scan.csp)} given: {scan.csp[0][:80]!r})")
    return problems


def _policy_details(page: Path, scan: PageScan) -> list[str]:
    """What is wrong with a policy that is not the build's, in words."""
    policy = policy_of(scan.csp[0])
    scripts = policy.get("script-src", policy.get("default-src", []))
    keywords = {source.lower() for source in scripts}  # keywords ignore case, hashes do not
    problems = []
    if "'unsafe-inline'" in keywords or "'unsafe-eval'" in keywords:
        problems.append(f"{page}: the Content-Security-Policy allows inline or eval'd scripts")
    for text in scan.inline_scripts:
        if f"'{inline_script_hash(text)}'" not in scripts:
            problems.append(f"{page}: an inline script the Content-Security-Policy does not allow: {text.strip()[:60]!r}")
    return problems


def _check_internal_link(site: Path, page: Path, url: str, scans: dict[Path, PageScan], base: str = "/",
                         resolved=Path.resolve) -> list[str]:
    parts = urlsplit(url)
    target = page if not parts.path else resolved(page.parent / unquote(parts.path))
    if parts.path.startswith("/"):
        if page.name != "404.html":
            return [f"{page}: link {url} starts at the server's root; use a relative link (the site may live in a folder)"]
        # A 404 page is sent for any missing address, at any depth: its links start at the
        # site's own path (`base`, from site_url), which must lead them into the site.
        if not parts.path.startswith(base):
            return [f"{page}: link {url} is outside the site's path {base}"]
        target = resolved(site / unquote(parts.path[len(base):]))
    if not target.is_relative_to(resolved(site)):
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


MANIFEST_FIELDS = ("name", "short_name", "lang", "start_url", "scope", "icons")
ICON_SIZES = {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


def _check_manifest(site: Path, page: Path, scan: PageScan, own_address: str | None,
                    manifests: dict[Path, list[str]]) -> list[str]:
    """The page links one web app manifest (generator/site/offline.py) that exists, names the page's
    language and icons of 192 and 512 pixels and a maskable one, each a PNG of the site of the
    size it claims."""
    if len(scan.manifests) != 1:
        return [f"{page}: {len(scan.manifests)} <link rel=manifest>, expected one"]
    path = unquote(urlsplit(normalised(scan.manifests[0])).path)
    if path.startswith("/"):  # a 404 page's: from the site's path on
        base = urlsplit(own_address).path if own_address else "/"
        path = path[len(base):] if path.startswith(base) else path.lstrip("/")
        target = (site / path).resolve()
    else:
        target = (page.parent / path).resolve()
    if not target.is_relative_to(site.resolve()) or not target.is_file():
        return [f"{page}: its manifest {scan.manifests[0]} does not exist"]
    if target not in manifests:
        manifests[target] = _manifest_problems(target)
    problems = [f"{page}: {p}" for p in manifests[target]]
    if not problems and scan.lang and json.loads(target.read_text(encoding="utf-8"))["lang"] != scan.lang:
        problems.append(f"{page}: its manifest {scan.manifests[0]} is not in the page's language {scan.lang!r}")
    return problems


def _manifest_problems(manifest: Path) -> list[str]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        return [f"manifest {manifest}: not JSON ({e})"]
    if not isinstance(data, dict) or any(not data.get(k) for k in MANIFEST_FIELDS) or not isinstance(data["icons"], list):
        return [f"manifest {manifest}: needs {', '.join(MANIFEST_FIELDS)}"]
    problems, found = [], set()
    for icon in data["icons"]:
        src, sizes = str(icon.get("src", "")), str(icon.get("sizes", ""))
        if scheme_of(src) or is_external(src) or src.startswith("/"):
            problems.append(f"manifest {manifest}: icon {src!r} is not a relative address of this site")
            continue
        file = manifest.parent / unquote(src)
        if not file.is_file():
            problems.append(f"manifest {manifest}: icon {src} is missing")
            continue
        header = file.read_bytes()[:24]
        if header[:8] != b"\x89PNG\r\n\x1a\n" or sizes != f"{int.from_bytes(header[16:20], 'big')}x{int.from_bytes(header[20:24], 'big')}":
            problems.append(f"manifest {manifest}: icon {src} is not a PNG of {sizes} pixels")
            continue
        found |= {(sizes, purpose) for purpose in str(icon.get("purpose", "any")).split()}
    problems += [f"manifest {manifest}: no {purpose} icon of {sizes}" for sizes, purpose in sorted(ICON_SIZES - found)]
    return problems


# --------------------------------------------------------------------------- search engines, previews

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PREVIEW_SIZE = (1200, 630)  # what generator/site/seo.py renders; the large card's uncropped size
PREVIEW_TAGS = ("og:type", "og:site_name", "og:title", "og:description", "og:url", "og:locale",
                "og:locale:alternate", "og:image", "og:image:alt", "twitter:card", "twitter:title",
                "twitter:description", "twitter:image")


class HeadScan(HTMLParser):
    """What search engines and link previews read from a page: title, meta tags, canonical,
    alternates, JSON-LD, and the questions shown (`details.question` summaries)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title = ""
        self._titled = False            # the page's <title> was read, or its body began: no later <title> is it
        self.meta: dict[str, list[str]] = {}
        self.canonical: list[str] = []
        self.alternates: list[tuple[str, str]] = []
        self.json_ld: list[str] = []
        self.questions: list[str] = []
        self._in: str | None = None     # "title", "json" or "summary" while collecting text
        self._text: list[str] = []
        self._question = 0              # <details class=question> depth

    def handle_starttag(self, tag, attrs):
        a = {name.lower(): (value or "") for name, value in attrs}
        rel = a.get("rel", "").lower().split()
        if tag in ("body", "svg"):
            self._titled = True  # the page's title is in its head: a picture's <title> is never it
        if tag == "meta" and (a.get("name") or a.get("property")):
            self.meta.setdefault(a.get("property") or a["name"], []).append(a.get("content", ""))
        elif tag == "link" and "canonical" in rel:
            self.canonical.append(a.get("href", ""))
        elif tag == "link" and "alternate" in rel and "hreflang" in a:
            self.alternates.append((a["hreflang"], a.get("href", "")))
        elif tag == "details" and (self._question or "question" in a.get("class", "").split()):
            self._question += 1
        elif tag == "summary" and self._question == 1 or tag == "title" and not self._titled:
            self._in, self._text = tag, []
            self._titled = self._titled or tag == "title"
        elif tag == "script" and a.get("type", "").lower() == "application/ld+json":
            self._in, self._text = "json", []

    def handle_data(self, data):
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag):
        text = re.sub(r"\s+", " ", "".join(self._text)).strip()
        if tag == "details" and self._question:
            self._question -= 1
        elif self._in == "title" == tag:
            self.title, self._in = text, None
        elif self._in == "summary" == tag:
            self.questions.append(text)
            self._in = None
        elif self._in == "json" and tag == "script":
            self.json_ld.append("".join(self._text))
            self._in = None


def seo_problems(site: Path, languages: dict[str, list[str]], site_url: str) -> list[str]:
    """Every page (the root chooser too) has its own title and description, a canonical
    address, the preview tags with a 1200×630 PNG, parseable JSON-LD holding the page's
    questions; the one sitemap lists exactly these pages, each with alternates in every language
    and x-default that exist and point back; robots.txt names it.

    The language pages carry their alternates in the sitemap only: Material's script fetches a
    sitemap.xml beside every `<link rel=alternate>` in a page's head, which is a failed request
    (a console error) for every subpage. The root chooser, which runs no theme script, has them
    in its head too, equal to the sitemap's."""
    pages = {site_url: site / "index.html"}
    for code, names in languages.items():
        for name in names:
            path = "" if name == "index.md" else f"{name[:-3]}/"
            pages[f"{site_url}{code}/{path}"] = site / code / path / "index.html"
    scans: dict[str, HeadScan] = {}
    for url, file in pages.items():
        if file.is_file():
            scans[url] = scanned(HeadScan, file.read_text(encoding="utf-8"))
    listed, problems = _sitemap(site, scans, site_url)
    wanted = set(languages) | {"x-default"}
    for url, scan in scans.items():
        page = pages[url]
        if not scan.title or not scan.meta.get("description", [""])[0].strip():
            problems.append(f"{page}: no title or meta description of its own")
        if scan.canonical != [url]:
            problems.append(f"{page}: canonical {scan.canonical}, expected [{url!r}]")
        pairs = listed.get(url, [])
        if url == site_url and sorted(scan.alternates) != pairs:
            problems.append(f"{page}: the alternates in its head differ from the sitemap's")
        elif url != site_url and scan.alternates:
            problems.append(f"{page}: alternates in its head (the theme's script would fetch a sitemap.xml "
                            "beside each); they belong in sitemap.xml")
        alternates = dict(pairs)
        if sorted(alternates) != sorted(wanted) or len(pairs) != len(wanted):
            problems.append(f"{page}: alternates for {sorted(alternates)}, expected one each for {sorted(wanted)}")
        if alternates.get("x-default") != site_url or url not in alternates.values():
            problems.append(f"{page}: alternates must name the page itself and {site_url} as x-default")
        for lang, href in alternates.items():
            if href not in scans:
                problems.append(f"{page}: alternate {lang} {href} is not a page of this site")
            elif lang != "x-default" and dict(listed.get(href, [])) != alternates:
                problems.append(f"{page}: alternate {lang} {href} does not point back with the same alternates")
        problems += [f"{page}: {p}" for p in _preview_problems(site, scan, url, site_url)]
        problems += [f"{page}: {p}" for p in _json_ld_problems(scan)]
    # Unique within a language: a language not yet translated shows the source's titles.
    by_language: dict = {}
    for url, scan in scans.items():
        by_language.setdefault(url[len(site_url):].split("/")[0], []).append(scan.title)
    problems += [f"{site}: the title {t!r} is on more than one page" for titles in by_language.values()
                 for t in sorted(set(titles)) if titles.count(t) > 1]
    return problems


def _preview_problems(site: Path, scan: HeadScan, url: str, site_url: str) -> list[str]:
    missing = [tag for tag in PREVIEW_TAGS if not scan.meta.get(tag, [""])[0].strip()]
    if missing:
        return [f"no {', '.join(missing)}"]
    problems = []
    if scan.meta["og:url"] != [url]:
        problems.append(f"og:url {scan.meta['og:url']}, expected [{url!r}]")
    image = scan.meta["og:image"][0]
    if not image.startswith(site_url):
        return problems + [f"og:image {image} is not an absolute address of this site"]
    file = site / unquote(urlsplit(image[len(site_url):]).path)
    header = file.read_bytes()[:24] if file.is_file() else b""
    size = (int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big"))
    if header[:8] != PNG_SIGNATURE or size != PREVIEW_SIZE:
        problems.append(f"og:image {image} is not a PNG of {PREVIEW_SIZE[0]}×{PREVIEW_SIZE[1]} pixels")
    return problems


def _json_ld_problems(scan: HeadScan) -> list[str]:
    """Every JSON-LD block parses; a page that shows questions has an FAQPage with exactly them."""
    problems, faq = [], None
    for text in scan.json_ld:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            problems.append(f"JSON-LD that does not parse ({e})")
            continue
        if isinstance(data, dict) and data.get("@type") == "FAQPage":
            faq = data
    if scan.questions or faq is not None:
        entities = (faq or {}).get("mainEntity") or []
        names = [e.get("name") for e in entities if isinstance(e, dict)]
        if names != scan.questions:
            problems.append(f"the FAQPage data names {names}, the page shows {scan.questions}")
        if any(not str(((e or {}).get("acceptedAnswer") or {}).get("text", "")).strip() for e in entities):
            problems.append("a question in the FAQPage data has no answer text")
    return problems


def _sitemap(site: Path, scans: dict[str, HeadScan], site_url: str) -> tuple[dict[str, list], list[str]]:
    """The sitemap's pages with their sorted (hreflang, href) alternates, and its problems."""
    sitemap, robots = site / "sitemap.xml", site / "robots.txt"
    others = sorted(p for p in site.rglob("sitemap*.xml*") if p != sitemap)
    problems = [f"{p}: a second sitemap (the one at the root lists every page)" for p in others]
    if not robots.is_file() or f"Sitemap: {site_url}sitemap.xml" not in robots.read_text(encoding="utf-8").splitlines():
        problems.append(f"{robots}: missing, or does not name {site_url}sitemap.xml")
    try:
        root = ET.parse(sitemap).getroot()
    except (OSError, ET.ParseError) as e:
        return {}, problems + [f"{sitemap}: missing or not well-formed ({e})"]
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    listed = {}
    for entry in root.findall("s:url", ns):
        loc = (entry.findtext("s:loc", "", ns) or "").strip()
        listed[loc] = sorted((link.get("hreflang", ""), link.get("href", "")) for link in entry.findall("x:link", ns))
    if root.tag != f"{{{ns['s']}}}urlset" or sorted(listed) != sorted(scans):
        problems.append(f"{sitemap}: lists {sorted(listed)}, expected the pages {sorted(scans)}")
    return listed, problems
