"""Reading what contributors wrote: regular files only, JSON strictly, text without hidden characters.

- A symlink, or anything that is not a regular file (a FIFO, a device, a folder where a file
  should be), in docs/, examples/ or app/ is refused: a link could publish any file the build
  can read, a FIFO would hang it. The path itself and each folder on the way down from the
  checkout (or from a folder given on the command line) are checked, with lstat.
- JSON (docs/<lang>/game.json): no NaN or Infinity, no key twice, with file and line.
- Contributed text holds no invisible or direction-changing character (zero-width spaces and
  joiners, the bidi embeddings, overrides and isolates, the byte-order mark, every other
  format character, Unicode's Cf): with them, what a reviewer reads and what the page shows differ.
"""
from __future__ import annotations

import json
import os
import stat
import unicodedata
from pathlib import Path

from generator.errors import BuildError

# Format characters with a job in our own languages' text: none. The soft hyphen (U+00AD) is Cf
# too and is refused with the rest; a translator who wants a hyphenation point writes none.
INVISIBLE_NAMES = {0x200B: "zero width space", 0x200C: "zero width non-joiner", 0x200D: "zero width joiner",
                   0x200E: "left-to-right mark", 0x200F: "right-to-left mark", 0x2060: "word joiner",
                   0xFEFF: "zero width no-break space (byte-order mark)"}


def refuse_special(path: Path, top: Path | None = None) -> None:
    """BuildError unless `path` is a regular file, not a symlink, and no folder between `top`
    (default: the path's parent) and it is a symlink."""
    path = Path(path)
    chain = [path]
    if top is not None:
        try:
            inner = path.relative_to(top)
        except ValueError:
            inner = None
        if inner is not None:
            chain = [top / Path(*inner.parts[:i]) for i in range(1, len(inner.parts) + 1)]
    for step in chain:
        try:
            mode = os.lstat(step).st_mode
        except FileNotFoundError:
            raise BuildError(f"{path}: missing") from None
        except OSError as e:
            raise BuildError(f"{path}: cannot be read ({e.strerror})") from None
        if stat.S_ISLNK(mode):
            raise BuildError(f"{step}: a symbolic link; the build reads only regular files (copy the file here instead)")
        if step == path and not stat.S_ISREG(mode):
            raise BuildError(f"{path}: not a regular file; the build reads only regular files")
        if step != path and not stat.S_ISDIR(mode):
            raise BuildError(f"{step}: not a folder")


MAX_TEXT_BYTES = 1_000_000  # a hand-written page or game.json is a few KB; strict_yaml caps YAML itself


def read_text(path: Path, top: Path | None = None) -> str:
    """The UTF-8 text of a regular file (see refuse_special) of at most MAX_TEXT_BYTES;
    BuildError naming it otherwise."""
    refuse_special(path, top)
    if os.lstat(path).st_size > MAX_TEXT_BYTES:
        raise BuildError(f"{path}: larger than {MAX_TEXT_BYTES // 1000} KB; a hand-written file is never this big")
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise BuildError(f"{path}: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise BuildError(f"{path}: cannot be read ({e.strerror})") from None


def regular_files(folder: Path, pattern: str = "*") -> list[Path]:
    """The entries of `folder` matching `pattern`, sorted; BuildError for any that is a link or
    not a regular file (a link to a folder, a FIFO named *.md)."""
    refuse_special_folder(folder)
    found = sorted(folder.glob(pattern))
    for path in found:
        refuse_special(path)
    return found


def refuse_special_folder(folder: Path) -> None:
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise BuildError(f"{folder}: a symbolic link; the build reads only regular files and folders")


def hidden_characters(path, text: str) -> list[str]:
    """One problem per line of `text` that holds an invisible or bidi-control character."""
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        for column, char in enumerate(line, 1):
            if unicodedata.category(char) == "Cf":
                name = INVISIBLE_NAMES.get(ord(char)) or unicodedata.name(char, "format character").lower()
                problems.append(f"{path}, line {number}, column {column}: an invisible character "
                                f"U+{ord(char):04X} ({name}); what is reviewed and what is shown would differ")
                break
    return problems


def refuse_hidden(path, text: str) -> None:
    problems = hidden_characters(path, text)
    if problems:
        raise BuildError(problems[0])


def loads_strict(text: str, path) -> object:
    """json.loads, refusing NaN/Infinity and a key given twice; BuildError with file and line."""
    def no_constant(name):
        raise ValueError(f"{name} is not a JSON number")

    def pairs(items):
        seen = {}
        for key, value in items:
            if key in seen:
                raise ValueError(f"the key {key!r} is given twice")
            seen[key] = value
        return seen
    try:
        return json.loads(text, parse_constant=no_constant, object_pairs_hook=pairs)
    except json.JSONDecodeError as e:
        raise BuildError(f"{path}, line {e.lineno}: not valid JSON ({e.msg})") from None
    except ValueError as e:
        raise BuildError(f"{path}, line {_line_of(text, e)}: not valid JSON ({e})") from None
    except RecursionError:
        raise BuildError(f"{path}: not valid JSON (nested too deep)") from None


def _line_of(text: str, error: ValueError) -> int:
    """The line of the offending constant or key (json gives no position for these)."""
    message = str(error)
    needle = message.split(" is not")[0] if " is not a JSON number" in message else None
    if needle is None and "the key " in message:
        key = message.split("the key ", 1)[1].rsplit(" is given", 1)[0]
        try:
            needle = json.dumps(eval_literal(key), ensure_ascii=False)
        except ValueError:
            needle = None
    if needle is None:
        return 1
    at = text.rfind(needle) if "key" in message else text.find(needle)
    return text.count("\n", 0, max(at, 0)) + 1


def eval_literal(text: str) -> str:
    import ast
    value = ast.literal_eval(text)
    if not isinstance(value, str):
        raise ValueError(text)
    return value


def read_json(path: Path, top: Path | None = None) -> object:
    text = read_text(path, top)
    refuse_hidden(path, text)
    return loads_strict(text, path)
