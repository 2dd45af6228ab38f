"""The two pages at the site's root, outside every language's folder:

- the chooser (`index.html`), which sends the reader to a language by the browser's settings
  and otherwise lets them choose;
- the 404 page (`404.html`) a server sends for a missing address outside every language
  (`/x`, `/old/page`), in every language at once, since we cannot know the reader's.

Both wear the site's face without loading a stylesheet: their look is one inline `<style>`
(the page policy allows inline styles, generator/site/csp.py) and the logo an inline SVG cut from
the icon's drawing. The 404 page is sent for addresses at any depth, so its links and loads
start at the site's own path (`site_url`'s, e.g. `/` or `/pyramide/`), never at a relative one.
"""
from __future__ import annotations

import json
from html import escape
from urllib.parse import urlsplit

from generator.site import seo
from generator.inputs.languages import Language
from generator.site.offline import logo_svg

# The colours of generator/assets/site.css (tests/generator/site/test_face.py compares them): the header's
# felt green with white text (7.9:1), links in the same green on white (7.9:1), card red on hover.
FELT = "#1d5c3f"
CARD_RED = "#a8231b"
STYLE = f"""
body {{ margin: 0; font-family: -apple-system, BlinkMacSystemFont, Helvetica, Arial, sans-serif; line-height: 1.5;
  color: #1f1f1f; background: #ffffff; }}
.bar {{ display: flex; align-items: center; gap: .75rem; padding: .6rem 1rem; background: {FELT}; color: #ffffff; }}
.bar svg {{ height: 2.2rem; width: auto; flex: none; }}
.bar .name, .bar h1 {{ margin: 0; font-size: 1.25rem; font-weight: 700; }}
main {{ max-width: 34rem; margin: 2rem auto; padding: 0 1rem; }}
main h1 {{ font-size: 1.6rem; font-weight: 600; margin: 0 0 .5rem; }}
section + section {{ margin-top: 2.5rem; padding-top: 1.5rem; border-top: 1px solid #d0d7d3; }}
a {{ color: {FELT}; }}
a:hover {{ color: {CARD_RED}; }}
a:focus-visible {{ outline: 2px solid {CARD_RED}; outline-offset: 2px; }}
.chooser {{ text-align: center; }}
.hero svg {{ height: 7rem; width: auto; margin: 1rem auto 1.5rem; }}
.choices {{ list-style: none; padding: 0; }}
.choices a {{ font-size: 1.25rem; }}
li {{ margin: .6rem 0; }}
/* Dark, by the device's setting, in the site's dark colours (generator/assets/site.css): the
   page's grey, light green links (9.6:1), light card red on hover. */
@media (prefers-color-scheme: dark) {{
  body {{ color: #e5e7ef; background: #1e2029; }}
  a {{ color: #8fd6ad; }}
  a:hover, a:focus-visible {{ color: #ff9e97; outline-color: #ff9e97; }}
  section + section {{ border-top-color: #3a3f4b; }}
}}
"""


def _head(icons_from: str) -> str:
    return (f'<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<link rel="icon" type="image/png" href="{icons_from}assets/icons/pyramide-192.png">\n'
            f"<style>{STYLE}</style>")


def language_choice_script(languages: list[Language]) -> str:
    """The root page's one inline script (generator/site/csp.py allows it by this very text)."""
    codes = {lang.code: lang.code for lang in languages}
    if "nb" in codes:
        codes |= {"no": "nb", "nn": "nb"}  # browsers that say Norwegian without saying which
    return f"""
  // Go to the reader's language when the browser names one we have; otherwise stay and let them choose.
  (function () {{
    var have = {json.dumps(codes)};
    var wanted = navigator.languages || [navigator.language || ""];
    for (var i = 0; i < wanted.length; i++) {{
      var code = String(wanted[i]).toLowerCase().split("-")[0];
      if (have[code]) {{ location.replace(have[code] + "/" + location.hash); return; }}
    }}
  }})();
"""


def root_page(languages: list[Language], default: str, site_url: str) -> str:
    """The site root: sends the reader to a language by the browser's settings, with a visible choice."""
    links = "\n".join(f'    <li><a href="{lang.code}/" hreflang="{lang.code}" lang="{lang.code}">{escape(lang.name)}</a>'
                      f' <span lang="{lang.code}">– {escape(lang.strings["root"]["choose"])}</span></li>' for lang in languages)
    first = next(lang for lang in languages if lang.code == default)
    return f"""<!doctype html>
<html lang="{first.code}">
<head>
{_head("")}
{seo.root_head(languages, default, site_url)}
<script>{language_choice_script(languages)}</script>
<script src="sw-register.js"></script>
</head>
<body>
<header class="bar">{logo_svg(decorative=True)}<h1>{escape(first.strings["site_name"])}</h1></header>
<main class="chooser">
<div class="hero">{logo_svg(decorative=True)}</div>
<ul class="choices">
{links}
</ul>
</main>
</body>
</html>
"""


def not_found_page(languages: list[Language], default: str, site_url: str,
                   pages: dict[str, list[tuple[str, str]]]) -> str:
    """The root's 404 page, in every language: what happened, the way to each front page and
    to every page. `pages`: language code → [(title, path inside the language's folder)]."""
    base = urlsplit(site_url).path  # the site's own path: the page is sent at any depth
    first = next(lang for lang in languages if lang.code == default)
    ordered = [first] + [lang for lang in languages if lang is not first]
    sections = []
    for lang in ordered:
        words = lang.strings["not_found"]
        items = "\n".join(f'    <li><a href="{base}{lang.code}/{path}">{escape(title)}</a></li>'
                          for title, path in pages[lang.code])
        sections.append(f"""<section lang="{lang.code}">
  <h1>{escape(words["title"])}</h1>
  <p>{escape(words["text"])}</p>
  <p><a href="{base}{lang.code}/" hreflang="{lang.code}">{escape(words["home"])}</a> ({escape(lang.name)})</p>
  <p>{escape(words["pages"])}</p>
  <ul>
{items}
  </ul>
</section>""")
    title = " · ".join(escape(lang.strings["not_found"]["title"]) for lang in ordered)
    return f"""<!doctype html>
<html lang="{first.code}">
<head>
{_head(base)}
<title>{title} – {escape(first.strings["site_name"])}</title>
<meta name="robots" content="noindex">
<script src="{base}sw-register.js"></script>
</head>
<body>
<header class="bar">{logo_svg(decorative=True)}<span class="name">{escape(first.strings["site_name"])}</span></header>
<main>
{chr(10).join(sections)}
</main>
</body>
</html>
"""
