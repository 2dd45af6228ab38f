"""The site as an installable app that works without a network, written into a built site:

- the icons (site/assets/icons/), rendered from generator/assets/icon.svg, our own pyramid
  (the header's logo is cut from the same drawing: `logo_svg`, written by generator/site/build.py);
- a web app manifest per language (site/<lang>/manifest.webmanifest: its name from
  docs/<lang>/strings.yml `manifest`, start and scope the language's folder) and one for the
  root page (the default language's words, the whole site), each page linking its own;
- the service worker (site/sw.js, from generator/assets/sw.js) with the build's file list and
  a SHA-256 of each file, and its cache named by the hash of them all: a new build gets a new
  cache, and a file of another build is refused (see sw.js);
- its registration script (site/sw-register.js), which every page loads from mkdocs.yml
  `extra_javascript` and the root page from its own <script src>.

Runs last in generator/site/build.py `write_site`, after the pages got their policy: the hashes are
of the files exactly as published.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from generator.errors import BuildError
from generator.inputs.languages import Language
from generator.settings import ASSETS

ICON_SOURCE = ASSETS / "icon.svg"
SVG_NS = "http://www.w3.org/2000/svg"
THEME_COLOUR = "#1d5c3f"   # the header's felt green: site.css --md-primary-fg-color, icon.svg's background
BACKGROUND = "#ffffff"
MANIFEST = "manifest.webmanifest"
MANIFEST_KEYS = ("name", "short_name")
ICON_DIR = "assets/icons"
# name → (pixels, purpose). Maskable icons may be cut to any shape inside the middle 80 %.
ICONS = {"pyramide-192.png": (192, "any"), "pyramide-512.png": (512, "any"),
         "pyramide-maskable-512.png": (512, "maskable")}
MASKABLE_SCALE = 0.8       # the pyramid's corners then stay inside the maskable safe circle
CACHE_PREFIX = "pyramide-"  # sw.js deletes every other cache with this prefix
SERVICE_WORKER = "sw.js"
REGISTER = "sw-register.js"
# Files no page needs offline: source maps, and the search's word splitters and stemmers for
# languages the site does not have (each language keeps its own, see `precached`).
LUNR_LANGUAGE = re.compile(r"assets/javascripts/lunr/(?:min/lunr\.([\w.]+)\.min\.js|(tinyseg|wordcut)\.js)$")
LUNR_ALWAYS = {"stemmer.support", "multi"}
HEAD = re.compile(r"<head\b[^>]*>", re.I)


def manifest_words(lang: Language) -> dict[str, str]:
    """The manifest's names from docs/<lang>/strings.yml `manifest`. Raises BuildError."""
    words = lang.strings.get("manifest")
    if not isinstance(words, dict) or not all(isinstance(words.get(k), str) and words[k].strip() for k in MANIFEST_KEYS):
        raise BuildError(f"{lang.folder / 'strings.yml'}: manifest must give the app's {' and '.join(MANIFEST_KEYS)} "
                         "as text (shown under the icon on a home screen)")
    return {k: words[k].strip() for k in MANIFEST_KEYS}


def manifest(lang: Language, icons_from_here: str, start: str = "./") -> dict:
    """The web app manifest of language `lang`; addresses are relative to the manifest's own."""
    return {
        **manifest_words(lang),
        "description": lang.strings["site_description"],
        "lang": lang.code,
        "dir": "ltr",
        "id": start,
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND,
        "icons": [{"src": f"{icons_from_here}{ICON_DIR}/{name}", "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": purpose} for name, (size, purpose) in ICONS.items()],
    }


def icon_svg(maskable: bool) -> str:
    """generator/assets/icon.svg, or its maskable form: the green to the edges, the pyramid smaller."""
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(ICON_SOURCE.read_text(encoding="utf-8"))
    if maskable:
        ns = {"svg": SVG_NS}
        background, pyramid = root.find(".//svg:rect[@id='background']", ns), root.find(".//svg:g[@id='pyramid']", ns)
        if background is None or pyramid is None:
            raise BuildError(f"{ICON_SOURCE}: needs a rect id=background and a g id=pyramid (the maskable icon moves them)")
        background.set("rx", "0")
        middle = 256 * (1 - MASKABLE_SCALE)
        pyramid.set("transform", f"translate({middle:g} {middle:g}) scale({MASKABLE_SCALE})")
    return ET.tostring(root, encoding="unicode")


LOGO_FILE = "assets/images/pyramide-logo.svg"  # mkdocs.yml theme.logo, under each language's pages
LOGO_MARGIN = 8  # user units around the cards: half the cards' stroke and a little air


def logo_svg(decorative: bool = False) -> str:
    """The header's logo: icon.svg's pyramid alone (no background), its box cut to the cards,
    so the header, the tab and the home screen show one drawing. `decorative`: for inlining
    next to the site's name (no title, hidden from screen readers). Raises BuildError."""
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(ICON_SOURCE.read_text(encoding="utf-8"))
    ns = {"svg": SVG_NS}
    background = root.find(".//svg:rect[@id='background']", ns)
    cards = root.findall(".//svg:g[@id='pyramid']/svg:rect", ns)
    if background is None or not cards:
        raise BuildError(f"{ICON_SOURCE}: needs a rect id=background and a g id=pyramid of card rects (the logo is cut from them)")
    root.remove(background)
    boxes = [tuple(float(card.get(k)) for k in ("x", "y", "width", "height")) for card in cards]
    left, top = min(b[0] for b in boxes) - LOGO_MARGIN, min(b[1] for b in boxes) - LOGO_MARGIN
    width = max(b[0] + b[2] for b in boxes) + LOGO_MARGIN - left
    height = max(b[1] + b[3] for b in boxes) + LOGO_MARGIN - top
    root.set("viewBox", f"{left:g} {top:g} {width:g} {height:g}")
    root.set("width", f"{width:g}")
    root.set("height", f"{height:g}")
    if decorative:
        for title in root.findall("svg:title", ns):
            root.remove(title)
        root.set("aria-hidden", "true")
        root.set("focusable", "false")
    return ET.tostring(root, encoding="unicode")


def render_icons(dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for name, (size, purpose) in ICONS.items():
        (dest / name).write_bytes(_png(icon_svg(purpose == "maskable"), size))


@lru_cache(maxsize=None)
def _png(svg: str, size: int) -> bytes:
    """The drawing as a size × size PNG; kept by its text, so that `make serve`'s warm builder
    draws each icon once, not at every save (Cairo took some 0.1 s of each page edit)."""
    import cairosvg  # here, not at the top: only a full build renders pictures

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=size, output_height=size)


def manifest_link(site: Path, page: Path, manifest_file: Path, base_path: str) -> str:
    """<link rel=manifest> for one page: relative, except on a 404 page, which the server sends
    for any missing address at any depth (its links start at the site's path, like the theme's)."""
    if page.name == "404.html":
        href = base_path + manifest_file.relative_to(site).as_posix()
    else:
        href = os.path.relpath(manifest_file, page.parent).replace(os.sep, "/")
    return f'\n<link rel="manifest" href="{href}">\n<meta name="theme-color" content="{THEME_COLOUR}">'


def link_manifests(site: Path, languages: list[Language], base_path: str) -> None:
    """Each page of a language links that language's manifest; the root page the root's."""
    for page in site.rglob("*.html"):
        parts = page.relative_to(site).parts
        if parts[0] == "assets":
            continue
        code = parts[0] if len(parts) > 1 and any(lang.code == parts[0] for lang in languages) else None
        manifest_file = site / code / MANIFEST if code else site / MANIFEST
        html = page.read_text(encoding="utf-8")
        head = HEAD.search(html)
        if head is None:
            raise BuildError(f"{page}: a page without <head>")
        html = html[:head.end()] + manifest_link(site, page, manifest_file, base_path) + html[head.end():]
        page.write_text(html, encoding="utf-8")


def precached(site: Path, languages: list[Language]) -> list[Path]:
    """The files the service worker keeps: everything a page can ask for offline."""
    searched = {lang.search for lang in languages}
    files = []
    for path in sorted(p for p in site.rglob("*") if p.is_file() or p.is_symlink()):
        if path.is_symlink():  # the build copies files; a link here would precache what it points at
            raise BuildError(f"{path}: a symbolic link in the built site; the site holds only regular files")
        name = path.relative_to(site).as_posix()
        lunr = LUNR_LANGUAGE.search(name)
        if (name.startswith(".") or "/." in name or name.endswith(".map") or name == SERVICE_WORKER
                or (lunr and (lunr.group(1) or lunr.group(2)) not in searched | LUNR_ALWAYS)):
            continue
        files.append(path)
    return files


def address(site: Path, path: Path) -> str:
    """The address a page asks for a file by, relative to the site's root: `nb/rules/`, not `…/index.html`."""
    name = path.relative_to(site).as_posix()
    return name[:-len("index.html")] if name == "index.html" or name.endswith("/index.html") else name


def file_hash(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode("ascii")


def build_hash(hashes: dict[str, str]) -> str:
    """One hash of every cached file's address and content: any change gives a new cache name."""
    return hashlib.sha256(json.dumps(hashes, sort_keys=True).encode("ascii")).hexdigest()[:16]


def service_worker(site: Path, languages: list[Language]) -> str:
    hashes = {address(site, p): file_hash(p) for p in precached(site, languages)}
    build = {"cache": CACHE_PREFIX + build_hash(hashes), "files": hashes,
             "not_found": {lang.code: f"{lang.code}/404.html" for lang in languages
                           if f"{lang.code}/404.html" in hashes}}
    return (f"const BUILD = {json.dumps(build, indent=1, sort_keys=True)};\n\n"
            + (ASSETS / "sw.js").read_text(encoding="utf-8"))


def write_offline(site: Path, languages: list[Language], default: str, site_url: str) -> None:
    """Adds the icons, manifests, manifest links, the registration script and (last, since it
    hashes everything else) the service worker to the built site at `site`."""
    render_icons(site / ICON_DIR)
    for lang in languages:
        (site / lang.code / MANIFEST).write_text(json.dumps(manifest(lang, "../"), ensure_ascii=False, indent=1),
                                                 encoding="utf-8")
    first = next(lang for lang in languages if lang.code == default)
    (site / MANIFEST).write_text(json.dumps(manifest(first, ""), ensure_ascii=False, indent=1), encoding="utf-8")
    link_manifests(site, languages, urlsplit(site_url).path)
    (site / REGISTER).write_text((ASSETS / REGISTER).read_text(encoding="utf-8"), encoding="utf-8")
    (site / SERVICE_WORKER).write_text(service_worker(site, languages), encoding="utf-8")
