"""Worked-example files (examples/*.yaml): reading them, with errors that name file and line.

A file holds one example:

    id: vinnbar                # stable id, used in links and the bundle; the section's anchor
    deal: 27                   # the deal number
    order: 1                   # optional: place on the examples page (lower first; then by file name)
    draft: true                # optional: verified, but not shown on the pages yet
    game:                      # the shown game, one move per line (docs/rules.md notation)
      - draw
      - pair 9S 4H
    opening: {pyramid: 28, stock: 23, waste: 1}
    final: {pyramid_removed: .., cards_removed: .., stock: .., waste: .., points: .., moves: .., status: ..}
    search: {max_removed: .., shortest: .., winnable: ..}

What an example says in a language lives beside the other words of that language, in
docs/<lang>/examples/<id>.yml (a translator's work stays in docs/<lang>/):

    title: "..."               # optional: the section's heading
    summary: "..."             # optional: a paragraph under it
    notes:                     # optional: a short note on a move, by the move's number (1 = the first)
      3: "..."

A note must be in every language of docs/languages.yml.

Files are read with the strict YAML loader (no aliases, no duplicate keys, no YAML 1.1
numbers). Any other key is refused, so nothing hides in a file unread. Every figure is
checked by `make verify` against both engines and both solvers, and what each note says
against its move's position (verify/notes.py, which reads them through example_notes()). A title, summary or notes
missing in a language is a warning (the page shows its defaults), not an error.
"""
from __future__ import annotations

import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import strict_yaml

from .errors import InputError, VerifyError, all_of
from .settings import ROOT
from .independent.deal import DealNumberError, parse_deal_number

LANGUAGES_FILE = ROOT / "docs" / "languages.yml"
FIELDS = ("id", "deal", "order", "draft", "game", "opening", "final", "search")
TEXT_FIELDS = ("title", "summary")  # optional, in each language's file
OPENING_FIELDS = ("pyramid", "stock", "waste")
FINAL_FIELDS = ("pyramid_removed", "cards_removed", "stock", "waste", "points", "moves", "status")
SEARCH_FIELDS = ("max_removed", "shortest", "winnable")
# Used with fullmatch (a '$' would let "winnable\n" through); it names a file, so no '/', '.' or '..'.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
ID_RULE = "lower-case letters, digits and '-', at most 64, starting with a letter or digit"


class ExampleError(InputError):
    """A problem in an example file; the message names the file (and line, move) first."""


@dataclass
class Move:
    text: str
    line: int  # 1-based line in the file
    notes: dict[str, str] = field(default_factory=dict)
    # Where each language's note is written: (its docs/<lang>/examples/<id>.yml, line).
    note_places: dict[str, tuple[Path, int]] = field(default_factory=dict)


@dataclass
class Example:
    path: Path
    id: str
    deal: int
    game: list[Move]
    opening: dict
    final: dict
    search: dict
    lines: dict[str, int]  # "final.points" → line, for error messages
    order: int | None = None
    draft: bool = False
    texts: dict[str, dict[str, str]] = field(default_factory=dict)  # "title" → {"nb": …}
    warnings: list[str] = field(default_factory=list)
    # What is wrong in its language files (a note on no move, an empty one, one missing in a
    # language): said with every other problem of the run; the rest of the example is checked.
    problems: list[ExampleError] = field(default_factory=list)
    text_files: dict[str, Path] = field(default_factory=dict)  # "nb" → docs/nb/examples/<id>.yml

    def where(self, key: str | None = None, move: int | None = None) -> str:
        """'examples/winnable.yaml, line 12, move 5' — the start of every error message."""
        parts = [str(self.path)]
        if move is not None:
            parts.append(f"line {self.game[move - 1].line}")
            parts.append(f"move {move} '{self.game[move - 1].text}'")
        elif key is not None and key in self.lines:
            parts.append(f"line {self.lines[key]}")
        return ", ".join(parts)


def language_codes(path: Path = LANGUAGES_FILE) -> tuple[str, ...]:
    """The site's language codes ('nb', 'da'), in order; every note needs text in each."""
    try:
        listing = strict_yaml.load(path)
    except OSError as e:
        raise ExampleError(f"{path}: cannot be read ({e.strerror})") from None
    except strict_yaml.YAMLFileError as e:
        raise ExampleError(str(e)) from None
    entries = listing.get("languages") if isinstance(listing, dict) else None
    if not isinstance(entries, list) or not entries or not all(
            isinstance(entry, dict) and isinstance(entry.get("code"), str) for entry in entries):
        raise ExampleError(f"{path}: 'languages' must be a list of entries with a code, e.g. {{code: nb, name: …}}")
    return tuple(entry["code"] for entry in entries)


def _read_yaml(path: Path):
    """(data, node tree) of an example's file or of a language's texts for it, held to the same
    rules: a regular file only, strict YAML, no invisible characters; ExampleError otherwise."""
    _refuse_special(path)
    try:
        data, node = strict_yaml.load_tree(path)
    except OSError as e:
        raise ExampleError(f"{path}: cannot be read ({e.strerror})") from None
    except strict_yaml.YAMLFileError as e:
        raise ExampleError(str(e)) from None
    _refuse_hidden(path)
    return data, node


def load_example(path: Path, languages: tuple[str, ...] | None = None, keep_problems: bool = False) -> Example:
    """The example in `path`, every field present and of its type; raises ExampleError naming file and line.
    keep_problems: the problems of its language files are in .problems instead (verify check says
    them with every other problem of the run)."""
    languages = languages or language_codes()
    data, node = _read_yaml(path)
    if data is None:
        raise ExampleError(f"{path}: the file is empty; an example needs id, deal, game, opening, final and search")
    if not isinstance(data, dict):
        raise ExampleError(f"{path}, line 1: an example file must be a mapping of fields (id, deal, game, …)")
    lines = strict_yaml.line_map(node)

    def need(key, kind, inside=data, prefix=""):
        if key not in inside:
            where = f", line {lines[prefix[:-1]]}" if prefix and prefix[:-1] in lines else ""
            raise ExampleError(f"{path}{where}: missing field '{prefix}{key}'")
        value = inside[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ExampleError(f"{path}, line {lines.get(prefix + key, '?')}: field '{prefix}{key}' "
                               f"must be {_kind_name(kind)}, got {strict_yaml.shown(value)}")
        return value

    def only(known, inside=data, prefix=""):
        for key in inside:
            if key not in known:
                raise ExampleError(f"{path}, line {lines.get(f'{prefix}{key}', '?')}: unknown field "
                                   f"{strict_yaml.shown(f'{prefix}{key}')}; the fields are {', '.join(known)}")

    only(FIELDS)
    example_id = need("id", str)
    if not ID_PATTERN.fullmatch(example_id):
        raise ExampleError(f"{path}, line {lines['id']}: id {strict_yaml.shown(example_id)} must be {ID_RULE}")
    if "deal" not in data:
        raise ExampleError(f"{path}: missing field 'deal'")
    try:
        deal = parse_deal_number(data["deal"])
    except DealNumberError as e:
        raise ExampleError(f"{path}, line {lines['deal']}: {e} (rule deal.layout)") from None
    game_data = need("game", list)
    if not game_data:
        raise ExampleError(f"{path}, line {lines['game']}: the game has no moves")
    game = []
    for i, item in enumerate(game_data):
        line = lines.get(f"game.{i}", lines["game"])
        if isinstance(item, str):
            game.append(Move(item, line))
        else:
            raise ExampleError(f"{path}, line {line}: move {i + 1} must be a move in notation ('pair 7H 6S', "
                               f"'king KD', 'draw', 'turn'); a note on it goes in docs/<lang>/examples/{example_id}.yml")
    opening = need("opening", dict)
    final = need("final", dict)
    search = need("search", dict)
    for fields, inside, prefix in ((OPENING_FIELDS, opening, "opening."), (FINAL_FIELDS, final, "final."),
                                   (SEARCH_FIELDS, search, "search.")):
        only(fields, inside, prefix)
    for key in OPENING_FIELDS:
        need(key, int, opening, "opening.")
    for key in FINAL_FIELDS:
        need(key, str if key == "status" else int, final, "final.")
    for key in SEARCH_FIELDS:
        need(key, bool if key == "winnable" else int, search, "search.")
    order = need("order", int) if "order" in data else None
    if order is not None and order < 1:
        raise ExampleError(f"{path}, line {lines['order']}: order must be 1 or more (lower comes first), got {order}")
    draft = need("draft", bool) if "draft" in data else False
    example = Example(path, example_id, deal, game, opening, final, search, lines, order, draft)
    for code in languages:
        _add_language_file(example, code, path.parent.parent / "docs" / code / "examples" / f"{example_id}.yml")
    _every_language_has_each_note(example, languages)
    example.warnings = _missing_words(example, languages)
    if example.problems and not keep_problems:
        raise all_of(example.problems)
    return example


LANGUAGE_FILE_FIELDS = ("title", "summary", "notes")


def _add_language_file(ex: Example, code: str, file: Path) -> None:
    """The texts of docs/<code>/examples/<id>.yml, when there is one, into `ex`. Held to the
    example file's rules: a regular file only, no invisible characters."""
    if not os.path.lexists(file):
        return
    data, node = _read_yaml(file)
    data = data or {}
    if not isinstance(data, dict):
        ex.problems.append(ExampleError(f"{file}, line 1: must be a mapping of title, summary and notes"))
        return
    lines = strict_yaml.line_map(node)
    ex.text_files[code] = file
    for key, value in data.items():
        line = lines.get(str(key), 1)
        if key not in LANGUAGE_FILE_FIELDS:
            ex.problems.append(ExampleError(f"{file}, line {line}: unknown field {strict_yaml.shown(key)}; "
                                            f"the fields are {', '.join(LANGUAGE_FILE_FIELDS)}"))
            continue
        if key in TEXT_FIELDS:
            if not isinstance(value, str) or not value.strip():
                ex.problems.append(ExampleError(f"{file}, line {line}: the {key} is empty; write its text or leave it out"))
                continue
            if key == "title" and "\n" in value.strip():
                ex.problems.append(ExampleError(f"{file}, line {line}: the title is more than one line"))
                continue
            ex.texts.setdefault(key, {})[code] = value.strip()
            ex.lines[f"{key}.{code}"] = line
    notes = data.get("notes") or {}
    if not isinstance(notes, dict):
        ex.problems.append(ExampleError(f"{file}, line {lines.get('notes', 1)}: notes must map move numbers to text, "
                                        "e.g. notes: {3: \"…\"}"))
        return
    for number, text in notes.items():
        line = lines.get(f"notes.{number}", 1)
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(ex.game):
            ex.problems.append(ExampleError(f"{file}, line {line}: {strict_yaml.shown(number)} is not a move of "
                                            f"{ex.path} (its moves are 1 … {len(ex.game)})"))
            continue
        if not isinstance(text, str) or not text.strip():
            ex.problems.append(ExampleError(f"{file}, line {line}: the note on move {number} is empty; write its text"))
            continue
        move = ex.game[number - 1]
        move.notes[code] = text.strip()
        move.note_places[code] = (file, line)


def _every_language_has_each_note(ex: Example, languages: tuple[str, ...]) -> None:
    """Every move's note in every language; all the missing ones in one error, a line each."""
    missing = []
    for number, move in enumerate(ex.game, 1):
        for code in languages if move.notes else ():
            if code in move.notes:
                continue
            file, line = next(iter(move.note_places.values()))
            missing.append(f"{file}, line {line}: the note on move {number} has no text in {code} "
                           f"(docs/{code}/examples/{ex.id}.yml); a note needs every language "
                           f"({', '.join(languages)})")
    ex.problems += [ExampleError(line) for line in missing]


def _missing_words(ex: Example, languages: tuple[str, ...]) -> list[str]:
    """One warning per language that lacks the example's title, summary or any note."""
    warnings = []
    for code in languages:
        missing = [key for key in TEXT_FIELDS if code not in ex.texts.get(key, {})]
        if not any(code in move.notes for move in ex.game):
            missing.append("notes")
        if missing:
            warnings.append(f"{ex.path}: no {', '.join(missing)} in {code} yet (optional; the {code} page "
                            f"shows the example without {'them' if len(missing) > 1 else 'it'})")
    return warnings


def _refuse_special(path: Path) -> None:
    """A symlink could make the examples read any file; a FIFO would hang the reader."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as e:
        raise ExampleError(f"{path}: cannot be read ({e.strerror})") from None
    if stat.S_ISLNK(mode):
        raise ExampleError(f"{path}: a symbolic link; examples are read only from regular files")
    if not stat.S_ISREG(mode):
        raise ExampleError(f"{path}: not a regular file; examples are read only from regular files")


def _refuse_hidden(path: Path) -> None:
    """Invisible and bidi-control characters (Unicode's format characters, Cf: zero-width spaces,
    embeddings, overrides, isolates, the byte-order mark) make the reviewed and the shown text differ."""
    text = path.read_bytes().decode("utf-8")  # strict_yaml has read it as UTF-8 already
    for number, line in enumerate(text.split("\n"), 1):
        for char in line:
            if unicodedata.category(char) == "Cf":
                raise ExampleError(f"{path}, line {number}: an invisible character U+{ord(char):04X} "
                                   f"({unicodedata.name(char, 'format character').lower()}); "
                                   "what is reviewed and what is shown would differ")


def _kind_name(kind) -> str:
    return {int: "a whole number", str: "text", list: "a list", dict: "a mapping", bool: "true or false"}[kind]


@dataclass(frozen=True)
class NoteText:
    """One note in one language, where it is written (the language's docs/<lang>/examples/<id>.yml):
    what the note checker reads (verify/notes.py).
    `move` is the 1-based number of the move it is on."""
    file: str
    line: int
    language: str
    move: int
    text: str
    example: str = ""  # the example file whose game the move is in; "" when it is `file` itself

    @property
    def game_file(self) -> str:
        return self.example or self.file


def example_notes(ex: Example) -> list[NoteText]:
    """Every note of the example, move by move, in each language."""
    notes = []
    for number, move in enumerate(ex.game, 1):
        for code, text in move.notes.items():
            file, line = move.note_places[code]
            notes.append(NoteText(str(file), line, code, number, text, str(ex.path)))
    return notes


def load_examples(folder: Path, languages: tuple[str, ...] | None = None, keep_problems: bool = False) -> list[Example]:
    """Every examples/*.yaml, sorted by file name; ids must be unique. Raises ExampleError (Problems
    for several: every file's at once). keep_problems: as load_example's."""
    if os.path.islink(folder):
        raise ExampleError(f"{folder}: a symbolic link; examples are read only from regular files and folders")
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise ExampleError(f"{folder}: no example files (*.yaml)")
    languages = languages or language_codes()
    examples, problems = [], []
    for p in paths:  # every file's problem at once, not one per run
        try:
            examples.append(load_example(p, languages, keep_problems))
        except VerifyError as e:
            problems.extend(getattr(e, "problems", [e]))
    if problems:
        raise all_of(problems)
    seen: dict[str, Path] = {}
    for ex in examples:
        if ex.id in seen:
            raise ExampleError(f"{ex.path}, line {ex.lines['id']}: id '{ex.id}' is already used by {seen[ex.id]}")
        seen[ex.id] = ex.path
    return examples
