"""The Content-Security-Policy every page carries, as a <meta http-equiv> (the site is static
files: no server of ours sends headers).

Scripts come from this site only; the few inline scripts (the theme's settings and the root
page's language choice) are allowed by their SHA-256, computed here from the built page, so a
script that was not in the build (say, one smuggled into a note) never runs even if it got
past every other check. Styles allow inline `style` attributes: the theme and the pictures set
them, and CSS cannot run script in today's browsers.
"""
from __future__ import annotations

import base64
import hashlib
import re

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
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


def _executed(attributes: str) -> bool:
    if re.search(r"\bsrc\s*=", attributes, re.I):
        return False
    kind = re.search(r"""\btype\s*=\s*["']?([^"'\s>]+)""", attributes, re.I)
    return kind is None or kind.group(1).lower() in ("module", "text/javascript", "application/javascript")


def policy_for(html: str) -> str:
    hashes = sorted({f"'{inline_script_hash(m.group(2))}'" for m in SCRIPT.finditer(html) if _executed(m.group(1))})
    policy = {**BASE_POLICY, "script-src": BASE_POLICY["script-src"] + hashes}
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in policy.items())


def policy_of(content: str) -> dict[str, list[str]]:
    """A policy's text as {directive: [sources]}."""
    directives = {}
    for part in content.split(";"):
        words = part.split()
        if words:
            directives.setdefault(words[0].lower(), words[1:])
    return directives


def with_policy(html: str) -> str:
    """The page with its policy as the first thing in <head> after the charset, so it covers
    every script the page loads."""
    match = HEAD.search(html)
    if match is None:
        raise ValueError("a page without <head>")
    meta = f'\n<meta http-equiv="Content-Security-Policy" content="{policy_for(html)}">'
    return html[:match.end()] + meta + html[match.end():]
