"""A language's translatable text, cut into segments: the unit a translator translates and the
status file tracks (docs/<lang>/translation-status.yml, see translations.py).

- a page (pages/*.md): each heading, paragraph, list item and admonition title is a segment;
  its id is the heading path and its place under that heading («Slik begynner du ¶2»);
- strings.yml and game.json: each string, by its key path («nav.index», «buttons.undo»);
- an example's texts (examples/<id>.yml): title, summary and each note, by key («notes.3»);
- the glossary (glossary.yml): each concept's word, `use` («concepts.deal.use»), so that a
  translator with only a PO editor chooses them too (a new language starts with none).

Segments of a page are ordered; the status matches them by content (translations.py aligns
them), so an insertion elsewhere never makes its neighbours stale. Keyed files match by key.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import strict_yaml

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
ADMONITION = re.compile(r"^\s*(?:!!!|\?\?\?\+?)\s")
GLOSSARY_WORD = re.compile(r"concepts\.[^.]+\.use")  # a glossary's translatable text: each concept's word


@dataclass(frozen=True)
class Segment:
    id: str    # unique in its file
    text: str  # the text as written, whitespace at the ends stripped

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.text)


def fingerprint(text: str) -> str:
    """The text's identity: re-wrapping a paragraph (whitespace) does not change it."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


def page_segments(text: str) -> list[Segment]:
    """A page's segments in order: blocks between blank lines, a list cut into its items,
    an admonition's title line apart from its body."""
    segments: list[Segment] = []
    path: list[str] = []       # the heading texts above, by level
    counts: dict[str, int] = {}
    for block in _blocks(text):
        m = HEADING.match(block) if "\n" not in block else None
        if m:
            level = len(m.group(1))
            del path[level - 1:]
            path.extend([""] * (level - 1 - len(path)))
            path.append(m.group(2))
            segments.append(Segment(_unique(segments, " / ".join(p for p in path if p)), block))
            continue
        where = " / ".join(p for p in path if p) or "top"
        for piece in _pieces(block):
            counts[where] = counts.get(where, 0) + 1
            segments.append(Segment(f"{where} ¶{counts[where]}", piece))
    return segments


def _unique(segments: list[Segment], wanted: str) -> str:
    """A heading's id: its path, numbered when the same path comes twice."""
    ids = {s.id for s in segments}
    name, n = wanted, 2
    while name in ids:
        name, n = f"{wanted} ({n})", n + 1
    return name


def _blocks(text: str) -> list[str]:
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def _pieces(block: str) -> list[str]:
    """A block as segments: one per list item and per admonition title line, else the block."""
    pieces: list[list[str]] = []
    for line in block.split("\n"):
        starts = LIST_ITEM.match(line) or ADMONITION.match(line) or not pieces or ADMONITION.match(pieces[-1][0])
        if starts:
            pieces.append([line])
        else:
            pieces[-1].append(line)
    return ["\n".join(p).strip() for p in pieces]


def keyed_segments(data, prefix: str = "") -> list[Segment]:
    """Every string of a mapping (strings.yml, game.json), by its dotted key path; lists by index."""
    out: list[Segment] = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        name = f"{prefix}{key}"
        if isinstance(value, (dict, list)):
            out += keyed_segments(value, f"{name}.")
        elif isinstance(value, str):
            out.append(Segment(name, value.strip()))
    return out


@dataclass(frozen=True)
class TextFile:
    """One translatable file of a language, as the status names it ("pages/index.md")."""
    name: str
    ordered: bool            # a page: matched by alignment; else by key
    segments: list[Segment] | None  # None: the file does not exist in this language


def language_files(docs: Path, lang: str) -> dict[str, TextFile]:
    """Every translatable file of one language, by its name in the status file."""
    folder = docs / lang
    files: dict[str, TextFile] = {}
    for page in sorted((folder / "pages").glob("*.md")):
        files[f"pages/{page.name}"] = TextFile(f"pages/{page.name}", True,
                                               page_segments(page.read_text(encoding="utf-8")))
    for keyed in ("strings.yml", "numbers.yml", "facts.yml", "theme.yml"):
        if (folder / keyed).is_file():
            files[keyed] = TextFile(keyed, False, keyed_segments(strict_yaml.load(folder / keyed) or {}))
    game = folder / "game.json"
    if game.is_file():
        data = json.loads(game.read_text(encoding="utf-8"))
        # "lang" is the language's code, set by `generator language`, not a text to translate.
        files["game.json"] = TextFile("game.json", False,
                                      [s for s in keyed_segments(data) if s.id != "lang"])
    glossary = folder / "glossary.yml"
    if glossary.is_file():
        concepts = (strict_yaml.load(glossary) or {}).get("concepts") or {}
        files["glossary.yml"] = TextFile("glossary.yml", False, [
            s for s in keyed_segments({"concepts": concepts}) if GLOSSARY_WORD.fullmatch(s.id)])
    for example in sorted((folder / "examples").glob("*.yml")):
        name = f"examples/{example.name}"
        files[name] = TextFile(name, False, keyed_segments(strict_yaml.load(example) or {}))
    return files
