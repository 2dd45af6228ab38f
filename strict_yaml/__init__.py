"""Strict YAML for the files people edit by hand (examples, languages, strings, facts).

Shared by verify/ and generator/ (which must not import each other). Built on PyYAML's
SafeLoader (see loader.py); what it promises:

- No anchors, aliases or tags. They are refused where they are written, before anything is
  expanded: an alias bomb fails at once, with its line.
- No duplicate keys: the second one is refused with its line (PyYAML would keep the last).
- YAML 1.2 core scalars. true/false, null/~, decimal integers and floats are what they look
  like; yes/no/on/off, 0x1F, 0o17, 1_000, 1:20 and 2026-10-30 are text (so `search: no` is
  the string "no"). A number with a leading zero (033) is refused: YAML 1.1 reads it as 27,
  YAML 1.2 as 33, and the writer surely meant neither silently. Quote it if it is text.
- At most MAX_BYTES bytes, MAX_DEPTH levels of nesting and MAX_DIGITS digits in a number.
- UTF-8 only.

Every refusal is a YAMLFileError whose message starts with the file and, where there is
one, the line: "docs/nb/strings.yml, line 12: duplicate key 'nav' (first at line 3); …".
Reading the file (missing, a directory) raises OSError as usual: the caller words that.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

import yaml

from .loader import MAX_BYTES, MAX_DEPTH, MAX_DIGITS, Refused, compose_and_construct, shown

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_DIGITS", "YAMLFileError", "line_map", "load", "load_tree", "parse",
           "shown"]


class YAMLFileError(Exception):
    """A file that is not strict YAML: `path`, `line` (1-based, or None) and `problem`."""

    def __init__(self, path, line: int | None, problem: str):
        self.path, self.line, self.problem = str(path), line, problem
        super().__init__(f"{self.path}, line {line}: {problem}" if line else f"{self.path}: {problem}")


def load(path: Path):
    """The data of a strict YAML file (None when empty); raises YAMLFileError or OSError."""
    return load_tree(path)[0]


def load_tree(path: Path):
    """(data, root yaml.Node) of a strict YAML file, the node for line numbers; raises YAMLFileError or OSError."""
    with open(path, "rb") as f:
        data = f.read(MAX_BYTES + 1)  # never more, whatever the file's size
    return parse(data, path)


def parse(data: bytes, path) -> tuple:
    """(data, root node) of YAML bytes read from `path` (named in errors); raises YAMLFileError."""
    if len(data) > MAX_BYTES:
        raise YAMLFileError(path, None, f"larger than {MAX_BYTES // 1024} KB; a hand-written file is never this big")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise YAMLFileError(path, line, f"not UTF-8 (byte 0x{data[e.start]:02x}); save the file as UTF-8") from None
    try:
        data, node = _parsed(text)
        return copy.deepcopy(data), node  # a caller may change its data; the cached copy stays
    except Refused as e:
        raise YAMLFileError(path, e.mark.line + 1, e.problem) from None
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, e.position) + 1
        raise YAMLFileError(path, line, f"not valid YAML (character U+{e.character:04X} is not allowed)") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise YAMLFileError(path, mark.line + 1 if mark else None, f"not valid YAML ({e.problem})") from None


@lru_cache(maxsize=64)
def _parsed(text: str) -> tuple:
    # A build reads the same files several times (lint, then gather; each language), and the
    # tests build many times over: parsing is most of that time. Only successes are kept.
    return compose_and_construct(text)


def line_map(node, prefix: str = "") -> dict[str, int]:
    """Line numbers (1-based) of every mapping key and sequence item of a tree from load_tree,
    by dotted path ('game.3', 'final.points'): for messages that name the line."""
    lines = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            path = f"{prefix}{key_node.value}"
            lines[path] = key_node.start_mark.line + 1
            lines.update(line_map(value_node, path + "."))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            path = f"{prefix}{i}"
            lines[path] = item.start_mark.line + 1
            lines.update(line_map(item, path + "."))
    return lines
