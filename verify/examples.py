"""Worked-example files (examples/*.yaml): reading them, with errors that name file and line.

A file holds one example:

    id: vinnbar                # stable id, used in links and the bundle
    deal: 27                   # the deal number
    game:                      # the shown game, one move per line (RULES.md notation)
      - draw
      - move: pair 9S 4H       # a move may carry a short note in each language
        note: {nb: "...", da: "..."}
    opening: {pyramid: 28, stock: 23, waste: 1}
    final: {pyramid_removed: .., cards_removed: .., stock: .., waste: .., points: .., moves: .., status: ..}
    search: {max_removed: .., shortest: .., winnable: ..}

Every figure is checked by `make verify` against both engines and both solvers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

OPENING_FIELDS = ("pyramid", "stock", "waste")
FINAL_FIELDS = ("pyramid_removed", "cards_removed", "stock", "waste", "points", "moves", "status")
SEARCH_FIELDS = ("max_removed", "shortest", "winnable")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class ExampleError(Exception):
    """A problem in an example file; the message names the file (and line, move) first."""


@dataclass
class Move:
    text: str
    line: int  # 1-based line in the file
    notes: dict[str, str] = field(default_factory=dict)


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

    def where(self, key: str | None = None, move: int | None = None) -> str:
        """'examples/x.yaml, line 12, move 5' — the start of every error message."""
        parts = [str(self.path)]
        if move is not None:
            parts.append(f"line {self.game[move - 1].line}")
            parts.append(f"move {move} '{self.game[move - 1].text}'")
        elif key is not None and key in self.lines:
            parts.append(f"line {self.lines[key]}")
        return ", ".join(parts)


def _line_map(node, prefix="") -> dict[str, int]:
    """Line numbers of every mapping key and sequence item, by dotted path ('game.3', 'final.points')."""
    lines = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            path = f"{prefix}{key_node.value}"
            lines[path] = key_node.start_mark.line + 1
            lines.update(_line_map(value_node, path + "."))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            path = f"{prefix}{i}"
            lines[path] = item.start_mark.line + 1
            lines.update(_line_map(item, path + "."))
    return lines


def load_example(path: Path) -> Example:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ExampleError(f"{path}: cannot be read ({e.strerror})") from None
    try:
        node = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark else ""
        raise ExampleError(f"{path}{where}: not valid YAML ({getattr(e, 'problem', e)})") from None
    if data is None:
        raise ExampleError(f"{path}: the file is empty; an example needs id, deal, game, opening, final and search")
    if not isinstance(data, dict):
        raise ExampleError(f"{path}, line 1: an example file must be a mapping of fields (id, deal, game, …)")
    lines = _line_map(node)

    def need(key, kind, inside=data, prefix=""):
        if key not in inside:
            where = f", line {lines[prefix[:-1]]}" if prefix and prefix[:-1] in lines else ""
            raise ExampleError(f"{path}{where}: missing field '{prefix}{key}'")
        value = inside[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ExampleError(f"{path}, line {lines.get(prefix + key, '?')}: field '{prefix}{key}' "
                               f"must be {_kind_name(kind)}, got {value!r}")
        return value

    example_id = need("id", str)
    if not ID_PATTERN.match(example_id):
        raise ExampleError(f"{path}, line {lines['id']}: id '{example_id}' must be lower-case letters, digits and '-'")
    deal = data.get("deal")
    if "deal" not in data:
        raise ExampleError(f"{path}: missing field 'deal'")
    game_data = need("game", list)
    if not game_data:
        raise ExampleError(f"{path}, line {lines['game']}: the game has no moves")
    game = []
    for i, item in enumerate(game_data):
        line = lines.get(f"game.{i}", lines["game"])
        if isinstance(item, str):
            game.append(Move(item, line))
        elif isinstance(item, dict) and isinstance(item.get("move"), str):
            notes = item.get("note") or {}
            if not isinstance(notes, dict) or not all(isinstance(v, str) for v in notes.values()):
                raise ExampleError(f"{path}, line {line}: a note must map language codes to text, e.g. note: {{nb: …, da: …}}")
            game.append(Move(item["move"], line, dict(notes)))
        else:
            raise ExampleError(f"{path}, line {line}: move {i + 1} must be a move in notation ('pair 7H 6S', "
                               "'king KD', 'draw', 'turn') or {move: …, note: {nb: …, da: …}}")
    opening = need("opening", dict)
    final = need("final", dict)
    search = need("search", dict)
    for key in OPENING_FIELDS:
        need(key, int, opening, "opening.")
    for key in FINAL_FIELDS:
        need(key, str if key == "status" else int, final, "final.")
    for key in SEARCH_FIELDS:
        need(key, bool if key == "winnable" else int, search, "search.")
    return Example(path, example_id, deal, game, opening, final, search, lines)


def _kind_name(kind) -> str:
    return {int: "a whole number", str: "text", list: "a list", dict: "a mapping", bool: "true or false"}[kind]


def load_examples(folder: Path) -> list[Example]:
    """Every examples/*.yaml, sorted by file name; ids must be unique."""
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise ExampleError(f"{folder}: no example files (*.yaml)")
    examples = [load_example(p) for p in paths]
    seen: dict[str, Path] = {}
    for ex in examples:
        if ex.id in seen:
            raise ExampleError(f"{ex.path}, line {ex.lines['id']}: id '{ex.id}' is already used by {seen[ex.id]}")
        seen[ex.id] = ex.path
    return examples
