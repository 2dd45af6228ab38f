"""The number guard: no digit reaches a page unless the data supplied it.

A digit is any Unicode number character (generator/guard/typed_digits.py `is_digit`: 0-9 and
the decimal digits of every script, superscripts such as ², fractions, Roman numerals). Page sources may
hold digits only inside template tags ({{ … }}, {% … %}, {# … #}), and inside a tag only where
they cannot be printed (a card code, an index, a comparison: see generator/guard/sandbox.py); an
ordered list's marker is markup, not a number, where the site's Markdown reads one (list_markers:
not in code, not continuing a paragraph, not before a no-break space). A character reference
(&half;) counts as the character it shows. What a page prints is a value of the data, tagged with
its path (generator/render/sourced.py), checked as it renders (the sandbox's `finalize`).
Interface strings may hold digits only inside {placeholders}.

Every check of typed text ends in one decision, generator/guard/typed_digits.py
`typed_digit_at`: the page source's lint (page_problems), the rendered page's words (generator/render/pages.py typed_number_check), a
string in a tag (generator/guard/sandbox.py), interface strings (string_problems), the examples'
notes, titles and summaries (note_problems) and the theme's words (generator/site/build.py
theme_digit_problems). Each caller only says where its text comes from and sets its own markup
aside (tags, {placeholders}, the singular «1»), as blanks (a printing tag as a placeholder
character, as its value stands on the page), so that the decision sees every digit where it
was typed.
"""
from __future__ import annotations

import html
import re
import threading
from pathlib import Path

import jinja2
import markdown
import yaml

from generator.errors import excerpt
from generator.guard.sandbox import PROBE_VALUE, tree_problems
from generator.guard.typed_digits import typed_digit_at
from generator.settings import ROOT

CLOSERS = {"{{": "}}", "{%": "%}", "{#": "#}"}
OPENER = re.compile(r"\{[{%#]")


# Inside a tag: its closer, or a string (which may hold a closer: «{{ "}}{#" }}» ends after it).
INSIDE = {"{{": re.compile(r"""\}\}|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|["']""", re.S),
          "{%": re.compile(r"""%\}|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|["']""", re.S)}


def _tag_end(text: str, start: int, opener: str) -> int:
    """Where the tag opened at `start` ends (after its closer), as Jinja's lexer reads it: a
    closer inside a string does not close it. -1 when it is never closed."""
    if opener == "{#":
        end = text.find("#}", start + 2)
        return end + 2 if end >= 0 else -1
    at = start + 2
    while (match := INSIDE[opener].search(text, at)) is not None:
        token = match.group(0)
        if token == CLOSERS[opener]:
            return match.end()
        if len(token) == 1:  # a quote never closed: Jinja refuses the page
            return -1
        at = match.end()
    return -1


def tag_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every template tag, as Jinja's lexer finds them, in linear time: an
    opener whose closer is nowhere after it retires its kind for good (searching again from
    each of 3,000 unclosed «{{» would be quadratic)."""
    spans, at, dead = [], 0, set()
    while True:
        match = OPENER.search(text, at)
        if match is None:
            return spans
        start, opener = match.start(), match.group(0)
        if opener in dead:
            at = start + 1
            continue
        end = _tag_end(text, start, opener)
        if end < 0:
            dead.add(opener)
            if len(dead) == len(CLOSERS):
                return spans
            at = start + 1
            continue
        spans.append((start, end))
        at = end


def tag_sub(text: str, replace) -> str:
    """text with each tag replaced by replace(tag text)."""
    out, at = [], 0
    for start, end in tag_spans(text):
        out.append(text[at:start])
        out.append(replace(text[start:end]))
        at = end
    out.append(text[at:])
    return "".join(out)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
# Where Markdown may see an ordered-list marker: ASCII digits and a full stop at a line's start.
# Only a candidate: whether it is one is Markdown's to say (list_markers).
MARKER_CANDIDATE = re.compile(r"^[ \t]*([0-9]+)\.", re.M)
MARKER_RENDERS = 24  # at most so many renders of one page to tell its list markers (see list_markers)
# A character reference (&half; &#xbd; &#189;): the browser shows the character it names.
REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def has_digit(text: str) -> bool:
    """Whether `text` holds a number the data did not supply (typed_digit_at)."""
    return typed_digit_at(text) >= 0


def _blank(tag: str) -> str:
    # Keep newlines so line and column numbers stay true.
    return re.sub(r"[^\n]", " ", tag)


_MARKDOWN = threading.local()


def site_markdown(text: str) -> str:
    """`text` as the site's Markdown makes it: Python-Markdown with mkdocs.yml's extensions."""
    md = getattr(_MARKDOWN, "md", None)
    if md is None:
        extensions = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["markdown_extensions"]
        md = _MARKDOWN.md = markdown.Markdown(extensions=list(extensions),
                                              extension_configs={k: v for k, v in extensions.items() if v})
    md.reset()
    return md.convert(text)


def list_markers(text: str) -> set[int]:
    """The offsets of the digits in `text` that Markdown reads as an ordered list's marker: the
    list numbers its items itself, so the digits typed there reach no reader. A candidate is a
    marker when writing other digits in its place leaves the page as it was (in a paragraph, in
    code, after a no-break space, the digits are printed, and the page changes)."""
    candidates = list(MARKER_CANDIDATE.finditer(text))
    if not candidates:
        return set()
    page = site_markdown(text)

    def unchanged(chosen) -> bool:
        swapped = list(text)
        for m in chosen:
            for i in range(*m.span(1)):
                swapped[i] = "8" if text[i] == "9" else "9"
        return site_markdown("".join(swapped)) == page
    renders = [MARKER_RENDERS]

    def markers_in(group: list) -> list:
        # Halved until each part is all markers or one candidate: a few renders for a page with
        # one stray «29.» among many list items. Past the budget a part is taken for numbers
        # (the guard cannot decide, so it says no).
        renders[0] -= 1
        if not group or renders[0] < 0:
            return []
        if unchanged(group):
            return group
        half = len(group) // 2
        return markers_in(group[:half]) + markers_in(group[half:]) if half else []
    return {i for m in markers_in(candidates) for i in range(*m.span(1))}


def typed_numbers(text: str) -> list[tuple[int, int]]:
    """(line, column), both from 1, of the first typed number on each line of `text` (its own
    markup already blanked): a number character outside an ordered list's marker
    (typed_digits.typed_digit_at decides what one is), or a character reference that shows one."""
    markers = list_markers(text)
    references = {m.start() for m in REFERENCE.finditer(text)
                  if typed_digit_at(m.group(0)) < 0 and typed_digit_at(html.unescape(m.group(0))) >= 0}
    found, start = [], 0
    for number, raw in enumerate(text.splitlines(keepends=True), 1):
        line = raw.splitlines()[0]
        at, offset = 0, 0
        while (at := typed_digit_at(line[offset:])) >= 0 and start + offset + at in markers:
            offset += at + 1
        columns = [offset + at] if at >= 0 else []
        columns += [i - start for i in references if start <= i < start + len(line)]
        if columns:
            found.append((number, min(columns) + 1))
        start += len(raw)
    return found


def bare_digits_in_page(text: str) -> list[tuple[int, int, str]]:
    """(line, column, the line) for every line with a typed number outside template tags. A tag
    that prints is a word there, as its value is on the page; the others print nothing."""
    cleaned = tag_sub(text, lambda tag: PROBE_VALUE.ljust(len(tag)) if tag[1] == "{" and "\n" not in tag else _blank(tag))
    lines = text.splitlines()
    return [(number, column, lines[number - 1].strip()) for number, column in typed_numbers(cleaned)]


def page_problems(path: Path, text: str | None = None, page_functions=frozenset()) -> list[str]:
    """Digits outside tags, and numbers inside tags that a page could print."""
    from generator.inputs.source_files import read_text
    text = read_text(path) if text is None else text
    problems = [f"{path}, line {line}, column {col}: a number typed by hand ('{context[:60]}'); "
                f"use a value from the verified data or docs/facts.yml instead"
                for line, col, context in bare_digits_in_page(text)]
    try:
        tree = jinja2.Environment().parse(text)
    except jinja2.TemplateSyntaxError as e:
        return problems + [f"{path}, line {e.lineno}: template syntax error: {e.message}"]
    return problems + [f"{path}, line {line}: {problem}" for line, problem in tree_problems(tree, page_functions)]


def string_problems(path: Path, strings, prefix="") -> list[str]:
    """Digits in interface strings, outside {placeholders}."""
    problems = []
    if isinstance(strings, dict):
        for k, v in strings.items():
            problems += string_problems(path, v, f"{prefix}{k}.")
    elif isinstance(strings, list):
        for i, v in enumerate(strings):
            problems += string_problems(path, v, f"{prefix}{i}.")
    elif isinstance(strings, str) and has_digit(PLACEHOLDER.sub(lambda m: _blank(m.group(0)), strings)):
        problems.append(f"{path}: string '{prefix[:-1]}' contains a number typed by hand ('{excerpt(strings)}')")
    return problems


def note_place(example: dict, step: dict, code: str) -> tuple[str, object]:
    """Where a step's note in `code` is written: its line in the language's file
    (docs/<lang>/examples/<id>.yml) when the bundle knows it, else the move's line in the example
    file (a note there, or none yet)."""
    lines = step.get("note_lines") or {}
    if code in lines:
        return (example.get("text_files") or {}).get(code, example["file"]), lines[code]
    return example["file"], step.get("line", "?")


def note_problems(examples: list[dict], codes: list[str]) -> list[str]:
    """Example notes, titles and summaries are text like any page: no hand-typed number; and a
    note is in every language or in none (one only some readers would see is a forgotten
    translation; a missing title or summary is only a warning of `make verify`)."""
    problems = []
    for example in examples:
        for step in example["steps"]:
            notes = step.get("notes") or {}
            for code in codes:
                file, line = note_place(example, step, code)
                where = f"{file}, line {line}, move {step['number']}"
                text = notes.get(code, "")
                if not text.strip() and any(v.strip() for v in notes.values()):
                    problems.append(f"{where}: the note has no {code} text (the other languages have one)")
                elif has_digit(text):
                    problems.append(f"{where}: the {code} note contains a number typed by hand "
                                    f"('{excerpt(text)}'); a note may not state figures, the pages do that from data")
        for key in ("title", "summary"):  # shown on the pages like the notes, so held to the same rule
            for code, text in (example.get(key) or {}).items():
                if has_digit(text):
                    line = (example.get("lines") or {}).get(f"{key}.{code}", "?")
                    file = (example.get("text_files") or {}).get(code, example["file"])
                    problems.append(f"{file}, line {line}: the {code} {key} contains a number typed "
                                    f"by hand ('{excerpt(text)}'); the page gives the deal's number and figures itself")
    return problems
