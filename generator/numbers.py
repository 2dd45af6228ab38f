"""The number guard: no digit reaches a page unless the data supplied it.

Page sources may hold digits only inside template tags ({{ … }}, {% … %}, {# … #}); Markdown
ordered-list markers ("1. " at the start of a line) are markup, not numbers. Interface strings
may hold digits only inside {placeholders}.
"""
from __future__ import annotations

import re
from pathlib import Path

TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
LIST_MARKER = re.compile(r"^(\s*)\d+\.(?=\s)", re.M)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _blank(match: re.Match) -> str:
    # Keep newlines so line and column numbers stay true.
    return re.sub(r"[^\n]", " ", match.group(0))


def bare_digits_in_page(text: str) -> list[tuple[int, int, str]]:
    """(line, column, the line) for every digit outside template tags."""
    cleaned = LIST_MARKER.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), TAG.sub(_blank, text))
    found = []
    for number, line in enumerate(cleaned.splitlines(), 1):
        m = re.search(r"\d", line)
        if m:
            found.append((number, m.start() + 1, text.splitlines()[number - 1].strip()))
    return found


def page_problems(path: Path) -> list[str]:
    return [f"{path}, line {line}, column {col}: a number typed by hand ('{context[:60]}'); "
            f"use a value from the verified data or docs/facts.yml instead"
            for line, col, context in bare_digits_in_page(path.read_text(encoding="utf-8"))]


def string_problems(path: Path, strings, prefix="") -> list[str]:
    """Digits in interface strings, outside {placeholders}."""
    problems = []
    if isinstance(strings, dict):
        for k, v in strings.items():
            problems += string_problems(path, v, f"{prefix}{k}.")
    elif isinstance(strings, list):
        for i, v in enumerate(strings):
            problems += string_problems(path, v, f"{prefix}{i}.")
    elif isinstance(strings, str) and re.search(r"\d", PLACEHOLDER.sub("", strings)):
        problems.append(f"{path}: string '{prefix[:-1]}' contains a number typed by hand ('{strings[:60]}')")
    return problems


def note_problems(examples: list[dict], codes: list[str]) -> list[str]:
    """Example notes, titles and summaries are text like any page: no hand-typed number; and a
    note is in every language or in none (one only some readers would see is a forgotten
    translation; a missing title or summary is only a warning of `make verify`)."""
    problems = []
    for example in examples:
        for step in example["steps"]:
            notes = step.get("notes") or {}
            for code in codes:
                file = (example.get("text_files") or {}).get(code, example["file"])
                line = (step.get("note_lines") or {}).get(code, step.get("line", "?"))
                where = f"{file}, line {line}, move {step['number']}"
                text = notes.get(code, "")
                if not text.strip() and any(v.strip() for v in notes.values()):
                    problems.append(f"{where}: the note has no {code} text (the other languages have one)")
                elif re.search(r"\d", text):
                    problems.append(f"{where}: the {code} note contains a number typed by hand "
                                    f"('{text[:60]}'); a note may not state figures, the pages do that from data")
        for key in ("title", "summary"):  # shown on the pages like the notes, so held to the same rule
            for code, text in (example.get(key) or {}).items():
                if re.search(r"\d", text):
                    line = (example.get("lines") or {}).get(f"{key}.{code}", "?")
                    file = (example.get("text_files") or {}).get(code, example["file"])
                    problems.append(f"{file}, line {line}: the {code} {key} contains a number typed "
                                    f"by hand ('{text[:60]}'); the page gives the deal's number and figures itself")
    return problems
