"""The Content-Security-Policy every page carries, as a <meta http-equiv> (the site is static
files: no server of ours sends headers).

Scripts come from this site only. The few inline scripts are known by who wrote them, not
found by scanning the page: the theme's own (mkdocs-material's templates, read from the
installed theme: its settings script, whose one hole is the page's scope, its tab-link
script and its colour-scheme switch's script) and the generator's (the root page's language choice, and every MkDocs page's
"js" class made in the head: site.py JS_CLASS_SCRIPT; passed in by the caller). Each is
allowed by its SHA-256. Any other executed inline script in a built page stops the build
(UnknownScript): whatever smuggled it in, it never gets a hash. Styles allow inline `style` attributes: the theme and the pictures set
them, and CSS cannot run script in today's browsers.
"""
from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from generator.errors import BuildFailed

# A browser ends a script at "</script" followed by a space, "/" or ">", whatever comes before the
# next ">" (attributes included): so does this.
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script(?:[\s/][^>]*)?>", re.S | re.I)
# The HTML standard's JavaScript MIME type essences (and "module"): a script of any of these
# types runs; of any other type (JSON, text/plain) it does not.
JAVASCRIPT_TYPES = frozenset({
    "", "module", "application/ecmascript", "application/javascript", "application/x-ecmascript",
    "application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0", "text/javascript1.1",
    "text/javascript1.2", "text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript",
    "text/livescript", "text/x-ecmascript", "text/x-javascript"})
HEAD = re.compile(r"<head\b[^>]*>(\s*<meta charset=[^>]*>)?", re.I)

BASE_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
}


def inline_script_hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def runs_inline(attributes: dict[str, str]) -> bool:
    """A <script> with these attributes (names in lower case) runs its own text: it has no src
    and a JavaScript type."""
    return "src" not in attributes and attributes.get("type", "").strip().lower() in JAVASCRIPT_TYPES


class _Attributes(HTMLParser):
    """The attributes of one start tag as a browser reads them (the first of a repeated name)."""

    def __init__(self, tag: str):
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self.feed(tag)
        self.close()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            self.found.setdefault(name.lower(), value or "")


def _executed(attributes: str) -> bool:
    return runs_inline(_Attributes(f"<script{attributes}>").found)


class UnknownScript(BuildFailed):
    """A built page holds an inline script that neither the theme nor the generator wrote."""


# The hole in the theme's settings script: `config.extra.scope | d(base_url)`, a page's
# relative way to its language's root (".", "..", "../..") or, on a 404 page, the absolute one.
SCOPE = r'(?:\.|\.\.(?:/\.\.)*|/(?:[A-Za-z0-9_-]+/)*)'


@lru_cache(maxsize=1)
def theme_scripts() -> tuple[re.Pattern, ...]:
    """The inline scripts of mkdocs-material's templates, each as an exact pattern (the
    settings script's scope its only variable part)."""
    import material
    templates = Path(material.__file__).parent / "templates" / "partials" / "javascripts"
    patterns = []
    # palette.html: the colour scheme switch's script, which sets the kept scheme on <body>.
    for name in ("base.html", "content.html", "palette.html"):
        text = (templates / name).read_text(encoding="utf-8")
        for body in re.findall(r"<script>(.*?)</script>", text, re.S):
            pieces = re.split(r"\{\{.*?\}\}", body)
            if any("{%" in piece for piece in pieces):
                continue  # not one fixed text: such a script would not be allowed
            patterns.append(re.compile(SCOPE.join(re.escape(piece) for piece in pieces)))
    return tuple(patterns)


def known_script(text: str, own_scripts=()) -> bool:
    return text in own_scripts or any(p.fullmatch(text) for p in theme_scripts())


def policy_for(html: str, own_scripts=(), where: str = "a page") -> str:
    """The policy of one page: its known inline scripts' hashes; UnknownScript for any other."""
    hashes = set()
    for m in SCRIPT.finditer(html):
        if not _executed(m.group(1)):
            continue
        if not known_script(m.group(2), own_scripts):
            line = html.count("\n", 0, m.start()) + 1
            raise UnknownScript(f"{where}, line {line}: an inline script that neither the theme nor the generator "
                                f"wrote ('{m.group(2).strip()[:40]}'); it gets no place in the policy")
        hashes.add(f"'{inline_script_hash(m.group(2))}'")
    return policy_text(hashes)


def policy_text(hashes) -> str:
    """The one policy the build writes for a page whose inline scripts have these hashes."""
    policy = {**BASE_POLICY, "script-src": BASE_POLICY["script-src"] + sorted(hashes)}
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in policy.items())


def policy_of(content: str) -> dict[str, list[str]]:
    """A policy's text as {directive: [sources]}."""
    directives = {}
    for part in content.split(";"):
        words = part.split()
        if words:
            directives.setdefault(words[0].lower(), words[1:])
    return directives


def with_policy(html: str, own_scripts=(), where: str = "a page") -> str:
    """The page with its policy as the first thing in <head> after the charset, so it covers
    every script the page loads. `own_scripts`: the texts of the generator's inline scripts on
    this page. Raises UnknownScript for an inline script nobody known wrote."""
    match = HEAD.search(html)
    if match is None:
        raise ValueError("a page without <head>")
    meta = f'\n<meta http-equiv="Content-Security-Policy" content="{policy_for(html, own_scripts, where)}">'
    return html[:match.end()] + meta + html[match.end():]
