"""The number guard: no digit reaches a page unless the data supplied it.

A digit is any Unicode number character (generator/guard/typed_digits.py `is_digit`: 0-9 and
the decimal digits of every script, superscripts such as ², fractions, Roman numerals). Page sources may
hold digits only inside template tags ({{ … }}, {% … %}, {# … #}), and inside a tag only where
they cannot be printed (a card code, an index, a comparison: see generator/guard/sandbox.py); Markdown
ordered-list markers ("1. " at the start of a line, ASCII digits) are markup, not numbers. What
a page prints is checked again as it renders (the sandbox's `finalize`). Interface strings may
hold digits only inside {placeholders}.

Every check of typed text ends in one decision, generator/guard/typed_digits.py
`typed_digit_at`: the page source's lint (page_problems), the rendered page's words (generator/render/pages.py typed_number_check), a
string in a tag (generator/guard/sandbox.py), interface strings (string_problems), the examples'
notes, titles and summaries (note_problems) and the theme's words (generator/site/build.py
theme_digit_problems). Each caller only says where its text comes from and sets its own markup
aside (tags, list markers, {placeholders}, the singular «1»), as blanks, so that the decision
sees every digit where it was typed.
"""
from __future__ import annotations

import re
from pathlib import Path

import jinja2

from generator.guard.sandbox import tree_problems
from generator.guard.typed_digits import typed_digit_at

TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)  # what tag_spans finds, in linear time
CLOSERS = {"{{": "}}", "{%": "%}", "{#": "#}"}
OPENER = re.compile(r"\{[{%#]")


def tag_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every template tag, as TAG.finditer would find them, in linear time: TAG
    itself rescans to the end of the text for each opener that is never closed ("{{" × 3,000:
    quadratic). Here an opener whose closer is nowhere after it retires its kind for good."""
    spans, at, dead = [], 0, set()
    while True:
        match = OPENER.search(text, at)
        if match is None:
            return spans
        start, opener = match.start(), match.group(0)
        if opener in dead:
            at = start + 1
            continue
        end = text.find(CLOSERS[opener], start + 2)
        if end < 0:
            dead.add(opener)
            if len(dead) == len(CLOSERS):
                return spans
            at = start + 1
            continue
        spans.append((start, end + 2))
        at = end + 2


def tag_sub(text: str, replace) -> str:
    """text with each tag replaced by replace(tag text)."""
    out, at = [], 0
    for start, end in tag_spans(text):
        out.append(text[at:start])
        out.append(replace(text[start:end]))
        at = end
    out.append(text[at:])
    return "".join(out)
LIST_MARKER = re.compile(r"^(\s*)[0-9]+\.(?=\s)", re.M)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def has_digit(text: str) -> bool:
    """Whether `text` holds a number the data did not supply (typed_digit_at)."""
    return typed_digit_at(text) >= 0


def _blank(tag: str) -> str:
    # Keep newlines so line and column numbers stay true.
    return re.sub(r"[^\n]", " ", tag)


def blank_list_markers(text: str) -> str:
    """text with each ordered-list marker ("1. " at the start of a line) blanked: markup, not a number."""
    return LIST_MARKER.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)


def bare_digits_in_page(text: str) -> list[tuple[int, int, str]]:
    """(line, column, the line) for every digit outside template tags."""
    cleaned = blank_list_markers(tag_sub(text, _blank))
    found = []
    for number, line in enumerate(cleaned.splitlines(), 1):
        at = typed_digit_at(line)
        if at >= 0:
            found.append((number, at + 1, text.splitlines()[number - 1].strip()))
    return found


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
        problems.append(f"{path}: string '{prefix[:-1]}' contains a number typed by hand ('{strings[:60]}')")
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
                                    f"('{text[:60]}'); a note may not state figures, the pages do that from data")
        for key in ("title", "summary"):  # shown on the pages like the notes, so held to the same rule
            for code, text in (example.get(key) or {}).items():
                if has_digit(text):
                    line = (example.get("lines") or {}).get(f"{key}.{code}", "?")
                    file = (example.get("text_files") or {}).get(code, example["file"])
                    problems.append(f"{file}, line {line}: the {code} {key} contains a number typed "
                                    f"by hand ('{text[:60]}'); the page gives the deal's number and figures itself")
    return problems
