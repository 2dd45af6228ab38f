"""The variants registry, read from its one source: ``app/core/variant-registry.js``.

Every rule set the site names is one entry there, ``{"id", "name", "rules"}``: its id (in the
game's links and the bundle's survey figures), the strings key of its name in each language's
strings.yml (``variants_names.ID``) and its rules options. The game's engine imports that file as
a module and the checker reads the same array (verify/independent/variants.py), so the pages, the
game's rules choice and the survey name the same variants. The array must be strict JSON and end
the file (as ``card_drawing.py`` reads the cards' drawing); anything else stops the build. Read at
each call, never kept, so that a warm live build sees an edit.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from generator.errors import BuildError
from generator.settings import APP

FILE = APP / "core" / "variant-registry.js"
_ARRAY = re.compile(r"^export const VARIANT_REGISTRY = (\[.*\]);\s*\Z", re.S | re.M)


def read(path: Path | None = None) -> list[dict]:
    """The registry's entries in its order (the app's rules, ``standard``, first)."""
    path = FILE if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise BuildError(f"{path}: the variants registry cannot be read ({e.strerror})") from None
    found = _ARRAY.search(text)
    if not found:
        raise BuildError(f"{path}: the file must end with `export const VARIANT_REGISTRY = [...];` "
                         "(the variants registry, read by the site too)")
    try:
        entries = json.loads(found.group(1))
    except json.JSONDecodeError as e:
        line = text.count("\n", 0, found.start(1) + e.pos) + 1
        raise BuildError(f"{path}:{line}: the VARIANT_REGISTRY array must be strict JSON, which the site "
                         f"reads too (double quotes, no comments, no trailing comma): {e.msg}") from None
    if not (isinstance(entries, list) and entries and all(
            isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("name"), str) for e in entries)):
        raise BuildError(f"{path}: VARIANT_REGISTRY must be a list of {{\"id\": …, \"name\": …, \"rules\": …}}")
    return entries


def names(strings: dict, where: str, path: Path | None = None) -> dict[str, str]:
    """Each variant's name in one language: {id: the text at its strings key}. ``where`` names the
    strings file in the message when a name is missing."""
    found = {}
    for entry in read(path):
        value = strings
        for part in entry["name"].split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if not isinstance(value, str):
            raise BuildError(f"{where}: {entry['name']} is missing, the name of the variant '{entry['id']}' "
                             f"({FILE.relative_to(APP.parent)})")
        found[entry["id"]] = value
    return found
