"""What search engines and link previews read: each page's own title and description (from
docs/<lang>/strings.yml `meta`), the language alternates and the canonical address, the Open
Graph and Twitter card tags with a preview picture per language, the FAQ as structured data,
`sitemap.xml` and `robots.txt`.

Every address is absolute, made from the site's address (docs/facts.yml `site_url`). The
alternates of a page are the same page in every language plus the root chooser as
`x-default`, so they are reciprocal by construction; generator/site/sitecheck.py checks the built
result anyway. They are written in sitemap.xml, and in the head of the root chooser only: Material's
script fetches a sitemap.xml beside each `<link rel=alternate>` of a page, a failed request on
every subpage (Google reads hreflang from a sitemap just as from a head). The FAQ's structured data is read from the built page itself, so a question
added to a page source reaches the data with no other change.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from babel.core import get_global

from generator.render import svg
from generator.render.game_embed import CARD_STYLESHEET
from generator.site.offline import THEME_COLOUR
from generator.settings import APP
from generator.errors import BuildError
from generator.inputs.languages import Language

PREVIEW = "preview.png"          # one per language, at <lang>/preview.png
PREVIEW_SIZE = (1200, 630)       # the size Open Graph and large Twitter cards show uncropped
META_PAGE_KEYS = ("title", "description")
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"


# --------------------------------------------------------------------------- addresses


def page_path(name: str) -> str:
    """Where a page source lands under its language folder: index.md → '', x.md → 'x/'."""
    return "" if name == "index.md" else f"{name[:-3]}/"


def page_url(site_url: str, code: str, name: str) -> str:
    return f"{site_url}{code}/{page_path(name)}"


def alternates(site_url: str, languages: list[Language], name: str) -> list[dict[str, str]]:
    """The same page in every language, then the root chooser for readers of any other one.
    name None: the root page, whose alternates are the front pages."""
    pages = [{"lang": lang.code, "href": page_url(site_url, lang.code, name or "index.md")} for lang in languages]
    return pages + [{"lang": "x-default", "href": site_url}]


def og_locale(code: str) -> str:
    """The Open Graph locale of a language code ('nb' → 'nb_NO', 'pt-br' → 'pt_BR'): its own
    region, or CLDR's likely one."""
    if "-" in code:
        from generator.inputs.languages import babel_locale
        locale = babel_locale(code)
        if locale.territory:
            return f"{locale.language}_{locale.territory}"
        code = locale.language
    likely = get_global("likely_subtags").get(code)
    if not likely:
        raise BuildError(f"docs/languages.yml: no region is known for the language {code!r} (Open Graph needs one)")
    parts = likely.split("_")
    return f"{parts[0]}_{parts[-1]}"


# --------------------------------------------------------------------------- words


def meta_words(lang: Language, *path: str) -> dict[str, str]:
    """strings.yml meta.<path…>: {title, description} (or the preview's words) as text.
    Raises BuildError naming the file and the missing key."""
    block = lang.strings.get("meta")
    for key in path:
        block = block.get(key) if isinstance(block, dict) else None
    where = ".".join(("meta",) + path)
    if not isinstance(block, dict):
        raise BuildError(f"{lang.folder / 'strings.yml'}: no {where} (each page needs its own title and description)")
    for key, value in block.items():
        if not isinstance(value, str) or not value.strip():
            raise BuildError(f"{lang.folder / 'strings.yml'}: {where}.{key} must be text")
    return block


def root_words(lang: Language, languages: list[Language]) -> dict[str, str]:
    """The root chooser's title and description (strings.yml meta.root), `{languages}` in them
    filled with every language of docs/languages.yml, named in `lang` («norsk bokmål, dansk og
    svensk»): a language added is named there with no text to change outside its own folder."""
    from babel.lists import format_list
    from generator.inputs.languages import babel_locale

    names = format_list(language_names(lang, languages), locale=babel_locale(lang.code))
    return {key: value.replace("{languages}", names) for key, value in meta_words(lang, "root").items()}


def language_names(lang: Language, languages: list[Language]) -> list[str]:
    """Every language's name in `lang`, as CLDR writes it («norsk bokmål», «dansk»)."""
    from generator.inputs.languages import babel_locale

    here = babel_locale(lang.code)
    return [babel_locale(other.code).get_display_name(here) for other in languages]


def page_words(lang: Language, name: str) -> dict[str, str]:
    words = meta_words(lang, "pages", name[:-3])
    missing = [key for key in META_PAGE_KEYS if key not in words]
    if missing:
        raise BuildError(f"{lang.folder / 'strings.yml'}: meta.pages.{name[:-3]} has no {missing[0]}")
    return words


def head_config(lang: Language, languages: list[Language], site_url: str) -> dict:
    """What overrides/main.html writes in each page's head (MkDocs `extra.seo`)."""
    preview = meta_words(lang, "preview")
    return {
        "pages": {name: {**page_words(lang, name), "url": page_url(site_url, lang.code, name)} for name in lang.pages},
        "locale": og_locale(lang.code),
        "locale_alternates": [og_locale(other.code) for other in languages if other is not lang],
        "image": f"{site_url}{lang.code}/{PREVIEW}",
        "image_alt": preview["alt"],
        "image_size": list(PREVIEW_SIZE),
        "site_name": lang.strings["site_name"],
    }


def root_head(languages: list[Language], default: str, site_url: str) -> str:
    """The root chooser's head tags: its title in the default language naming every language, its
    description in every language, the default's first (a Danish reader who finds the chooser in a
    search sees Danish too, as on the 404 page)."""
    first = next(lang for lang in languages if lang.code == default)
    ordered = [first] + [lang for lang in languages if lang is not first]
    # Each language's words, {languages} filled in that language (root_words): the title the
    # default's alone (it names every language, and a title of three would be cut off in a search),
    # the description every language's.
    filled = [root_words(lang, languages) for lang in ordered]
    words = {"title": filled[0]["title"], "description": " ".join(w["description"] for w in filled)}
    config = head_config(first, languages, site_url)
    tags = [f'<title>{escape(words["title"])}</title>',
            f'<meta name="description" content="{escape(words["description"])}">',
            f'<link rel="canonical" href="{escape(site_url)}">']
    tags += [f'<link rel="alternate" hreflang="{a["lang"]}" href="{escape(a["href"])}">'
             for a in alternates(site_url, languages, None)]
    tags += preview_tags(config, words["title"], words["description"], site_url)
    return "\n".join(tags)


def preview_tags(config: dict, title: str, description: str, url: str) -> list[str]:
    """Open Graph and Twitter card tags (the root page's; main.html writes the same for pages)."""
    pairs = [("property", "og:type", "website"), ("property", "og:site_name", config["site_name"]),
             ("property", "og:title", title), ("property", "og:description", description),
             ("property", "og:url", url), ("property", "og:locale", config["locale"])]
    pairs += [("property", "og:locale:alternate", other) for other in config["locale_alternates"]]
    pairs += [("property", "og:image", config["image"]), ("property", "og:image:type", "image/png"),
              ("property", "og:image:width", str(PREVIEW_SIZE[0])),
              ("property", "og:image:height", str(PREVIEW_SIZE[1])),
              ("property", "og:image:alt", config["image_alt"]),
              ("name", "twitter:card", "summary_large_image"), ("name", "twitter:title", title),
              ("name", "twitter:description", description), ("name", "twitter:image", config["image"]),
              ("name", "twitter:image:alt", config["image_alt"])]
    return [f'<meta {kind}="{key}" content="{escape(value)}">' for kind, key, value in pairs]


# --------------------------------------------------------------------------- preview picture

# A fixed, pleasant-looking opening (every card once): the deck walked in steps of seven,
# which is coprime to the deck's size.
_DECK = [rank + suit for suit in svg.SUITS for rank in svg.RANKS]
_ORDER = [_DECK[(i * 7) % len(_DECK)] for i in range(len(_DECK))]
PREVIEW_POSITION = {"pyramid": _ORDER[:28], "waste": _ORDER[28:29], "stock": _ORDER[29:]}


def _wrapped(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def preview_svg(lang: Language) -> str:
    """The preview picture: our pyramid on the left, the site's name and tagline on the right.
    Generic font families only, so rendering fetches nothing."""
    s = lang.strings
    words = meta_words(lang, "preview")
    names = svg.CardNames(ranks={str(k): v for k, v in s["cards"]["ranks"].items()}, suits=s["cards"]["suits"])
    pyramid = ET.fromstring(svg.pyramid_svg(PREVIEW_POSITION, names=names, text=svg.PictureText(**s["picture"]),
                                            title=words["alt"], id_prefix="preview",
                                            # standing alone, the picture carries the cards' one stylesheet
                                            style=(APP / CARD_STYLESHEET).read_text(encoding="utf-8")))
    height = 480
    width = round(height * svg.VIEW_W / svg.VIEW_H)
    pyramid.attrib.pop("style", None)
    pyramid.attrib.update({"x": "40", "y": str((PREVIEW_SIZE[1] - height) // 2), "width": str(width), "height": str(height)})
    ET.register_namespace("", SVG_NS)
    inner = ET.tostring(pyramid, encoding="unicode")
    left = 40 + width + 40
    tagline = "".join(f'<tspan x="{left}" dy="{0 if i == 0 else 46}">{escape(line)}</tspan>'
                      for i, line in enumerate(_wrapped(words["tagline"], 21)))
    return (f'<svg xmlns="{SVG_NS}" width="{PREVIEW_SIZE[0]}" height="{PREVIEW_SIZE[1]}" '
            f'viewBox="0 0 {PREVIEW_SIZE[0]} {PREVIEW_SIZE[1]}">'
            f'<rect width="100%" height="100%" fill="{THEME_COLOUR}"/>{inner}'
            f'<text x="{left}" y="250" font-family="sans-serif" font-size="76" font-weight="700" '
            f'fill="#ffffff">{escape(s["site_name"])}</text>'
            f'<text x="{left}" y="320" font-family="sans-serif" font-size="34" fill="#e8f5e9">{tagline}</text>'
            "</svg>")


def preview_png(lang: Language) -> bytes:
    # CairoSVG needs the system's libcairo (the Makefile installs it); imported here so that
    # building pages without the pictures (the tests of page text) does not need it.
    return _png(preview_svg(lang))


@lru_cache(maxsize=16)
def _png(svg_text: str) -> bytes:
    """The picture of a drawing: a function of its text, so `make serve`'s warm builder draws
    only a preview whose words changed."""
    import cairosvg

    return cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), output_width=PREVIEW_SIZE[0],
                            output_height=PREVIEW_SIZE[1])


# --------------------------------------------------------------------------- FAQ


BLOCKS = {"p", "li", "ul", "ol", "div", "br", "table", "tr", "blockquote", "pre", "h1", "h2", "h3", "h4"}


class FaqScan(HTMLParser):
    """The questions of a built page: each `<details class="question">`, its summary as the
    question and the rest as plain text. The rule marks (`span.rule-ref`, a ✓ linking to the
    rule's check) are links beside the answer, not words of it, and are left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries: list[tuple[str, str]] = []
        self._depth = 0          # <details> nesting inside a question
        self._skip = 0           # <span> nesting inside a rule mark
        self._summary = False
        self._question: list[str] = []
        self._answer: list[str] = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "details":
            if self._depth == 0 and "question" not in classes:
                return
            if self._depth == 0:
                self._question, self._answer = [], []
            self._depth += 1
        elif not self._depth:
            return
        elif self._skip or (tag == "span" and "rule-ref" in classes):
            self._skip += tag == "span"
        elif tag == "summary" and self._depth == 1:
            self._summary = True
        elif tag in BLOCKS:
            self._answer.append("\n")

    def handle_endtag(self, tag):
        if not self._depth:
            return
        if self._skip:
            self._skip -= tag == "span"
        elif tag == "summary":
            self._summary = False
        elif tag in BLOCKS:
            self._answer.append("\n")
        elif tag == "details":
            self._depth -= 1
            if self._depth == 0:
                self.entries.append((_plain("".join(self._question)), _plain("".join(self._answer))))

    def handle_data(self, data):
        if self._depth and not self._skip:
            (self._question if self._summary else self._answer).append(data)


def _plain(text: str) -> str:
    """Runs of spaces as one, blocks as paragraphs separated by a blank line."""
    blocks = [re.sub(r"\s+", " ", block).strip() for block in text.split("\n")]
    return "\n\n".join(b for b in blocks if b)


def faq_entries(html: str) -> list[tuple[str, str]]:
    return list(_faq_entries(html))


@lru_cache(maxsize=64)
def _faq_entries(html: str) -> tuple[tuple[str, str], ...]:
    """A function of the page's text (read again by the warm builder only when it changed)."""
    scan = FaqScan()
    scan.feed(html)
    scan.close()
    return tuple(scan.entries)


def faq_jsonld(entries: list[tuple[str, str]], code: str, url: str) -> str:
    data = {"@context": "https://schema.org", "@type": "FAQPage", "inLanguage": code, "url": url,
            "mainEntity": [{"@type": "Question", "name": q,
                            "acceptedAnswer": {"@type": "Answer", "text": a}} for q, a in entries]}
    # '<' escaped so no text can close the script element early.
    return json.dumps(data, ensure_ascii=False, indent=1).replace("<", "\\u003c")


def with_faq(html: str, code: str, url: str) -> str:
    """The page with its FAQ as JSON-LD at the end of <head>, or unchanged when it has none."""
    entries = faq_entries(html)
    if not entries:
        return html
    script = f'<script type="application/ld+json">\n{faq_jsonld(entries, code, url)}\n</script>\n'
    head_end = html.index("</head>")
    return html[:head_end] + script + html[head_end:]


# --------------------------------------------------------------------------- sitemap, robots


def sitemap_xml(site_url: str, languages: list[Language]) -> str:
    """Every page (the root chooser too) with its alternates as xhtml:link."""
    ET.register_namespace("", SITEMAP_NS)
    ET.register_namespace("xhtml", XHTML_NS)
    urlset = ET.Element(f"{{{SITEMAP_NS}}}urlset")
    entries = [(site_url, alternates(site_url, languages, None))]
    entries += [(page_url(site_url, lang.code, name), alternates(site_url, languages, name))
                for lang in languages for name in lang.pages]
    for loc, alts in entries:
        url = ET.SubElement(urlset, f"{{{SITEMAP_NS}}}url")
        ET.SubElement(url, f"{{{SITEMAP_NS}}}loc").text = loc
        for alt in alts:
            ET.SubElement(url, f"{{{XHTML_NS}}}link", {"rel": "alternate", "hreflang": alt["lang"], "href": alt["href"]})
    ET.indent(urlset)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(urlset, encoding="unicode") + "\n"


def robots_txt(site_url: str) -> str:
    return f"User-agent: *\nAllow: /\n\nSitemap: {site_url}sitemap.xml\n"


def write_files(stage: Path, languages: list[Language], site_url: str) -> None:
    """Into the built site: each language's preview picture, the FAQ's data in the pages that
    have questions, sitemap.xml and robots.txt at the root."""
    for lang in languages:
        (stage / lang.code / PREVIEW).write_bytes(preview_png(lang))
        for name in lang.pages:
            page = stage / lang.code / page_path(name) / "index.html"
            html = page.read_text(encoding="utf-8")
            page.write_text(with_faq(html, lang.code, page_url(site_url, lang.code, name)), encoding="utf-8")
    (stage / "sitemap.xml").write_text(sitemap_xml(site_url, languages), encoding="utf-8")
    (stage / "robots.txt").write_text(robots_txt(site_url), encoding="utf-8")
