"""What contributed text may not hold: markup that runs, or markup at all.

Contributed text is text. A page source is Markdown whose HTML the page functions write: raw
HTML in it (`<div>`, `<script>`, `<img src=…>`, a comment) is refused, and so are an inline
event handler (`onclick=` in an attribute list `{: … }`) and a `javascript:` address in a link,
anywhere in the file. A string (strings.yml, game.json, theme.yml, facts.yml's per-language
text) holds no tag, no character entity, no event handler, no `javascript:` and no Markdown
image (`![…](…)`, which would load from another host) either: it is printed escaped, as text
content, or as a JSON value, and must read the same in each.
Every problem names the file and line (a string's key too).
"""
from __future__ import annotations

import re
from html import unescape

from generator.errors import excerpt
from generator.inputs.source_files import hidden_characters

RAW_HTML = re.compile(r"<[A-Za-z!/?]")
IMAGE = re.compile(r"!\[")
RAW_BLOCK = re.compile(r"\{%-?\s*raw\s*-?%\}")  # its content would be text the tag rules cannot see
# An attribute list ({: … } or { … } after a heading) may give an id or a class, nothing else:
# `style=` could load from another host, `src=` or `href=` point anywhere.
ATTRIBUTE_VALUE = re.compile(r"\{[^{}\n]*=[^{}\n]*\}")
SCRIPT_TAG = re.compile(r"<\s*/?\s*script\b", re.I)
HANDLER = re.compile(r"\bon[a-z]+\s*=", re.I)
# Browsers ignore tabs, newlines and control characters inside a scheme: java\tscript: runs.
SCRIPT_URL = re.compile(r"(?:java|vb)script:", re.I)
CONTROL = re.compile(r"[\x00-\x20]+")
# A character reference, with or without its semicolon (browsers read «&copy» as ©): an «&» in
# a string must be followed by something else (a space: «Regler & råd»).
ENTITY = re.compile(r"&[#A-Za-z]")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def script_problems(where: str, text: str) -> list[str]:
    """A <script>, an event handler or a javascript: address in `text` (entities decoded first)."""
    problems = []
    for lineno, line in enumerate(text.split("\n"), 1):
        plain = unescape(line)
        if SCRIPT_TAG.search(plain):
            problems.append(f"{where}, line {lineno}: a <script> element; contributed text cannot run code")
        elif HANDLER.search(plain):
            problems.append(f"{where}, line {lineno}: an event handler ({HANDLER.search(plain).group(0).strip()}…); "
                            "contributed text cannot run code")
        elif SCRIPT_URL.search(CONTROL.sub("", plain)):
            problems.append(f"{where}, line {lineno}: a javascript: address; contributed text cannot run code")
    return problems


def page_markup_problems(path, source: str, outside_tags: str) -> list[str]:
    """Scripts anywhere in a page source; raw HTML in its text outside template tags
    (`outside_tags`: the source with its tags blanked, lines kept)."""
    problems = script_problems(str(path), source)
    scripted = {p.split(":", 2)[1] for p in problems}
    for match in RAW_HTML.finditer(outside_tags):
        line = _line(outside_tags, match.start())
        if f" line {line}" not in scripted:
            excerpt = outside_tags[match.start():match.start() + 20].splitlines()[0].strip()  # one line's
            problems.append(f"{path}, line {line}: raw HTML ('{excerpt}…') "
                            "in a page source; a page is Markdown, the page functions write its HTML")
            scripted.add(f" line {line}")
    for match in RAW_BLOCK.finditer(source):
        problems.append(f"{path}, line {_line(source, match.start())}: {{% raw %}} is not available in a page; "
                        "write the text itself")
    for pattern, what in ((IMAGE, "a Markdown image; a page's pictures come from picture() and chapter_pictures()"),
                          (ATTRIBUTE_VALUE, "an attribute list with a value; it may give only an id (#…) or a class (.…)")):
        for match in pattern.finditer(outside_tags):
            line = _line(outside_tags, match.start())
            if f" line {line}" not in scripted:
                problems.append(f"{path}, line {line}: {what}")
                scripted.add(f" line {line}")
    return problems


def string_problems(path, strings, lines: dict | None = None, prefix: str = "") -> list[str]:
    """Markup and hidden characters in every string of a parsed file; `lines` maps a key path
    (a.b.0) to its line, where known."""
    lines = lines or {}
    problems = []
    if isinstance(strings, dict):
        for key, value in strings.items():
            problems += string_problems(path, value, lines, f"{prefix}{key}.")
    elif isinstance(strings, list):
        for i, value in enumerate(strings):
            problems += string_problems(path, value, lines, f"{prefix}{i}.")
    elif isinstance(strings, str):
        key = prefix[:-1]
        line = lines.get(key)
        where = f"{path}, line {line}" if line else str(path)
        if SCRIPT_TAG.search(unescape(strings)) or HANDLER.search(unescape(strings)) \
                or SCRIPT_URL.search(CONTROL.sub("", unescape(strings))):
            problems.append(f"{where}: string '{key}' holds a script, an event handler or a javascript: "
                            "address; contributed text cannot run code")
        elif IMAGE.search(strings):
            problems.append(f"{where}: string '{key}' holds a Markdown image ('{excerpt(strings, 40)}'); a page prints "
                            "strings into Markdown, where it would load from wherever it points")
        elif RAW_HTML.search(strings) or ENTITY.search(strings):
            problems.append(f"{where}: string '{key}' holds markup ('{excerpt(strings, 40)}'); a string is plain text "
                            "(the generator escapes it), write the characters themselves")
        hidden = hidden_characters(path, strings)
        if hidden:
            problems.append(f"{where}: string '{key}' holds an invisible character"
                            f"{hidden[0].split('an invisible character', 1)[1]}")
    return problems
