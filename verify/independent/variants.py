"""The rules variants the survey compares, as rules options, read from the variants registry
(app/core/variant-registry.js, the one list every part reads: its array as JSON, data only, never the
app's code), so one JSON object serves both deciders. No numba here, so that the command line can
offer the names without loading the decider.

strictWin (all 52 cards must go), turns (turns of a new deal; 0 = one pass), unlimitedTurns,
stockTop (the stock's top card is available too), coverPair (a card may pair with the card
directly covering it when that one is free and is the only card still covering it).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

REGISTRY = Path(__file__).resolve().parents[2] / "app" / "core" / "variant-registry.js"
_ARRAY = re.compile(r"^export const VARIANT_REGISTRY = (\[.*\]);\s*\Z", re.S | re.M)
_ID = re.compile(r"[a-z][a-z-]*")


def read_registry(path: Path = REGISTRY) -> list[dict]:
    """The registry's entries, {id, name, rules} each, the app's rules ("standard") first;
    ValueError when the file does not end with the array, it is not strict JSON, or an entry is
    not of that shape (its rules are checked by rules_of, below)."""
    found = _ARRAY.search(path.read_text(encoding="utf-8"))
    if not found:
        raise ValueError(f"{path}: the file must end with `export const VARIANT_REGISTRY = [...];`")
    try:
        entries = json.loads(found.group(1))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: the VARIANT_REGISTRY array must be strict JSON: {e}") from None
    for i, entry in enumerate(entries):
        if not (isinstance(entry, dict) and set(entry) == {"id", "name", "rules"} and isinstance(entry["id"], str)
                and _ID.fullmatch(entry["id"]) and isinstance(entry["name"], str) and isinstance(entry["rules"], dict)):
            raise ValueError(f"{path}: entry {i} is not {{\"id\": …, \"name\": …, \"rules\": {{…}}}}: {entry!r}")
    ids = [entry["id"] for entry in entries]
    if not ids or ids[0] != "standard" or len(set(ids)) != len(ids):
        raise ValueError(f"{path}: the ids must be unique, \"standard\" first: {ids}")
    return entries


VARIANTS: dict[str, dict] = {entry["id"]: entry["rules"] for entry in read_registry()}
RULE_KEYS = ("strictWin", "turns", "unlimitedTurns", "stockTop", "coverPair")

# The rules' flags as one int, the `options` every numba kernel of the solver and the decider
# takes (a kernel reads a flag as `(options & STRICT_WIN) != 0`); `turns` is a number, not a
# flag: it is the opening's turns_left, never passed to a kernel. Bits 8 and up are left to the
# decider's own search settings (decider.py: KING_FIRST …).
STRICT_WIN = 1 << 0
UNLIMITED_TURNS = 1 << 1
STOCK_TOP = 1 << 2
COVER_PAIR = 1 << 3
FLAG_BITS = {"strictWin": STRICT_WIN, "unlimitedTurns": UNLIMITED_TURNS, "stockTop": STOCK_TOP,
             "coverPair": COVER_PAIR}


def rules_of(variant_or_rules) -> dict:
    """The rules options of a variant name, or a rules dict checked for unknown keys."""
    if isinstance(variant_or_rules, str):
        if variant_or_rules not in VARIANTS:
            raise ValueError(f"unknown variant {variant_or_rules!r}: one of {', '.join(VARIANTS)}")
        return dict(VARIANTS[variant_or_rules])
    rules = dict(variant_or_rules or {})
    unknown = set(rules) - set(RULE_KEYS)
    if unknown:
        raise ValueError(f"unknown rules options: {sorted(unknown)}")
    if rules.get("strictWin") and rules.get("stockTop"):
        raise ValueError("strictWin cannot be combined with stockTop")
    return rules


def options_of(variant_or_rules) -> int:
    """The kernels' `options` of a variant name or a rules dict: the bit of each flag set."""
    rules = rules_of(variant_or_rules)
    options = 0
    for key, bit in FLAG_BITS.items():
        if rules.get(key):
            options |= bit
    return options


def flags_of(options: int) -> dict:
    """The rules flags an `options` value holds (the reverse of options_of, flags only)."""
    return {key: True for key, bit in FLAG_BITS.items() if options & bit}


# Every variant of the registry is a set of options this engine knows (else ValueError at import).
for _rules in VARIANTS.values():
    rules_of(_rules)
