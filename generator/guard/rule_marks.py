"""At most one rule mark per paragraph, and at its end.

A rule mark ({{ rule("…") }}, generator/render/pages.py) is a link a screen reader reads aloud as
«Kontrollert regel: …». In the middle of a sentence, or twice in one paragraph, it breaks the
sentence it checks; so a page source may put one mark at the very end of a paragraph (or of a
list item), and no more.
"""
from __future__ import annotations

import re
from pathlib import Path

RULE_MARK = re.compile(r"\{\{-?\s*rule\(.*?\)\s*-?\}\}")
# A new block: a blank line, or a line that starts a list item ("- ", "1. ") or a heading.
BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+\.\s|#)")


def blocks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each paragraph or list item of a page source."""
    found, current, first = [], [], 0
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or BLOCK_START.match(line):
            if current:
                found.append((first, "\n".join(current)))
            current, first = ([line], number) if line.strip() else ([], 0)
        else:
            if not current:
                first = number
            current.append(line)
    if current:
        found.append((first, "\n".join(current)))
    return found


def page_problems(path: Path) -> list[str]:
    problems = []
    for line, block in blocks(path.read_text(encoding="utf-8")):
        marks = list(RULE_MARK.finditer(block))
        if len(marks) > 1:
            problems.append(f"{path}, line {line}: {len(marks)} rule marks in one paragraph; keep one, "
                            "at its end (a screen reader reads each aloud)")
        elif marks and block[marks[0].end():].strip():
            problems.append(f"{path}, line {line + block.count(chr(10), 0, marks[0].start())}: a rule mark in "
                            f"the middle of a paragraph ('{block[marks[0].end():].strip()[:40]}' follows it); "
                            "move it to the paragraph's end")
    return problems
