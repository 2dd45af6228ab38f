"""The shape of the verified data bundle, declared once, and the checker that holds a bundle to it.

The bundle is read, not trusted: every key, type and range the pages rely on is declared here
(what verify/checking.py `run` writes), and anything else — an unknown or missing key, a string
where a number belongs, `true` spelled "yes" or 1, a share outside 0 … 1 — is refused with the
JSON path of the bad value ($.survey.won, $.checks[3].passed). A spec is a function
(value, where) that returns nothing or raises SchemaError; `record`, `list_of`, `mapping` and
`nullable` build specs out of smaller ones.
"""
from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Callable

Spec = Callable[[object, str], None]

# The checks `make verify` runs; a bundle without any one of them, passed, is refused.
REQUIRED_CHECKS = ("examples.read", "rules.constants", "deal.regenerated", "game.replayed",
                   "notes.true", "search.exact", "rules.checked", "survey.checked", "survey.redecided")
CARD = r"[A2-9TJQK][SHDC]"
MOVE = rf"pair {CARD} {CARD}|king K[SHDC]|draw|turn"  # as verify/independent/rules.py format_move writes it
STATUSES = ("playing", "won", "stuck")  # app/core/engine.js status
RESULT_LETTERS = "wlu"  # per-deal survey results: won, lost, undecided


class SchemaError(Exception):
    """A value of the bundle that does not fit the schema: where (a JSON path) and what is wrong."""

    def __init__(self, where: str, what: str):
        super().__init__(f"{where}: {what}")
        self.where, self.what = where, what


def shown(value) -> str:
    """A value as it stands in the JSON file, short: "no", true, 1, a list of 3, an object."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


# ---------------------------------------------------------------- leaf specs

def integer(low: int | None = 0, high: int | None = None) -> Spec:
    """A JSON integer (not a bool, not a float, not a string) within low … high."""
    def check(value, where):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SchemaError(where, f"expected an integer, got {shown(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise SchemaError(where, f"{value} is out of range ({low} … {'' if high is None else high})")
    return check


def number(low: float | None = None, high: float | None = None) -> Spec:
    """A finite JSON number (int or float, not a bool or a string) within low … high."""
    def check(value, where):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise SchemaError(where, f"expected a number, got {shown(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise SchemaError(where, f"{value} is out of range ({low} … {'' if high is None else high})")
    return check


SHARE = number(0, 1)


def text(pattern: str | None = None) -> Spec:
    """A JSON string, whole-matching `pattern` when given."""
    compiled = re.compile(pattern) if pattern else None

    def check(value, where):
        if not isinstance(value, str):
            raise SchemaError(where, f"expected a string, got {shown(value)}")
        if compiled and not compiled.fullmatch(value):
            raise SchemaError(where, f"{shown(value)} is not of the form {pattern}")
    return check


def one_of(*choices) -> Spec:
    def check(value, where):
        if isinstance(value, bool) or value not in choices:
            raise SchemaError(where, f"expected one of {', '.join(map(shown, choices))}, got {shown(value)}")
    return check


def boolean(value, where) -> None:
    if not isinstance(value, bool):
        raise SchemaError(where, f"expected true or false, got {shown(value)}")


def passed(value, where) -> None:
    """Only the JSON literal true is a pass: not "yes", not 1, not a missing key."""
    if value is not True:
        raise SchemaError(where, f"the check did not pass (passed is {shown(value)}; only true is a pass)")


def timestamp(value, where) -> None:
    text()(value, where)
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise SchemaError(where, f"{shown(value)} is not an ISO date and time") from None


# ---------------------------------------------------------------- containers

def nullable(spec: Spec) -> Spec:
    def check(value, where):
        if value is not None:
            spec(value, where)
    return check


def record(fields: dict[str, Spec], optional: dict[str, Spec] | None = None) -> Spec:
    """A JSON object with exactly these keys (and any of the optional ones), each value fitting its spec."""
    optional = optional or {}

    def check(value, where):
        if not isinstance(value, dict):
            raise SchemaError(where, f"expected an object with keys {', '.join(fields)}, got {shown(value)}")
        missing = [k for k in fields if k not in value]
        if missing:
            raise SchemaError(where, f"missing key(s) {', '.join(missing)}")
        unknown = [k for k in value if k not in fields and k not in optional]
        if unknown:
            raise SchemaError(where, f"unexpected key(s) {', '.join(unknown)}")
        for key, spec in {**fields, **optional}.items():
            if key in value:
                spec(value[key], f"{where}.{key}")
    return check


def list_of(item: Spec, min_length: int = 0) -> Spec:
    def check(value, where):
        if not isinstance(value, list):
            raise SchemaError(where, f"expected a list, got {shown(value)}")
        if len(value) < min_length:
            raise SchemaError(where, f"expected at least {min_length} item(s), got {len(value)}")
        for i, v in enumerate(value):
            item(v, f"{where}[{i}]")
    return check


def mapping(value_spec: Spec, key_pattern: str = r".+", min_length: int = 0) -> Spec:
    """A JSON object with free keys (matching key_pattern), each value fitting value_spec."""
    keys = re.compile(key_pattern)

    def check(value, where):
        if not isinstance(value, dict):
            raise SchemaError(where, f"expected an object, got {shown(value)}")
        if len(value) < min_length:
            raise SchemaError(where, f"expected at least {min_length} entr(ies), got {len(value)}")
        for k, v in value.items():
            if not keys.fullmatch(k):
                raise SchemaError(where, f"key {shown(k)} is not of the form {key_pattern}")
            value_spec(v, f"{where}.{k}")
    return check


# ---------------------------------------------------------------- the bundle

COUNT = integer(0)
POSITION = record({
    "pyramid": list_of(nullable(text(CARD)), min_length=1), "stock": list_of(text(CARD)),
    "waste": list_of(text(CARD)), "turns_left": COUNT, "points": COUNT, "moves": COUNT,
    "status": one_of(*STATUSES),
})
LANGUAGE = r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*"  # a language code of docs/languages.yml, as keys of notes, titles, summaries
# "winnable" since the solvers take every variant (verify/solving.py solve_both: in the strict
# variant it is not "max_removed is all of the pyramid").
SOLVER = record({"max_removed": COUNT, "shortest": COUNT, "positions": COUNT, "seconds": number(0)},
                optional={"winnable": boolean})
EXAMPLE = record({
    "id": text(r"[a-z0-9][a-z0-9-]*"),
    "deal": integer(1, 0xFFFFFFFF),
    "file": text(),
    "opening": POSITION,
    "steps": list_of(record({"number": integer(1), "move": text(MOVE), "line": integer(1),
                             "notes": mapping(text(), key_pattern=LANGUAGE), "position": POSITION},
                            optional={"note_lines": mapping(integer(1), key_pattern=LANGUAGE)}),
                     min_length=1),
    "final": record({"pyramid_removed": COUNT, "cards_removed": COUNT, "stock": COUNT, "waste": COUNT,
                     "points": COUNT, "moves": COUNT, "status": one_of(*STATUSES)}),
    "search": record({"max_removed": COUNT, "shortest": COUNT, "winnable": boolean,
                      "solvers": record({"app": SOLVER, "independent": SOLVER})}),
}, optional={
    # What the file says about showing it (verify/examples.py); absent in a bundle made before.
    "order": nullable(integer(1)),
    "draft": boolean,
    "title": mapping(text(r"[^\n]*\S[^\n]*"), key_pattern=LANGUAGE),
    "summary": mapping(text(r"(?s).*\S.*"), key_pattern=LANGUAGE),
    "lines": mapping(integer(1), key_pattern=rf"(title|summary)\.{LANGUAGE}"),
    "text_files": mapping(text(), key_pattern=LANGUAGE),  # docs/<lang>/examples/<id>.yml per language
})
SURVEY_FIGURES = {
    "variant": text(r"[a-z][a-z-]*"), "first": integer(1), "last": integer(1),
    "deals": COUNT, "won": COUNT, "lost": COUNT, "undecided": COUNT,
    "share": nullable(SHARE), "low": SHARE, "high": SHARE,
    "results": text(f"[{RESULT_LETTERS}]*"),  # one letter per deal, first … last
}
SURVEY = record({
    **SURVEY_FIGURES,
    "pool_size": COUNT, "pool_deals": list_of(integer(1)),
    "pool": list_of(record({"deal": integer(1), "game": list_of(text(MOVE), min_length=1)})),
    "replayed": COUNT, "redecided": COUNT,
})
CHECK_FIELDS = record({"id": text(r"[a-z]+\.[a-z]+"), "title": text(),
                       "counts": mapping(number(0), r"[a-z_]+"), "seconds": number(0), "passed": passed})


def check_entry(value, where) -> None:
    """One entry of $.checks; a fault is reported with the check's id when it has one."""
    try:
        CHECK_FIELDS(value, where)
    except SchemaError as e:
        name = value.get("id") if isinstance(value, dict) else None
        if not isinstance(name, str):
            raise
        if e.where == f"{where}.passed":
            raise SchemaError(e.where, f"the bundle records failed checks ({name}): passed is "
                                       f"{shown(value['passed'])}, and only true is a pass") from None
        raise SchemaError(e.where, f"check {name}: {e.what}") from None


BUNDLE = record({
    "schema": integer(1),
    "verified_at": timestamp,
    "inputs": mapping(text(r"[0-9a-f]{64}"), min_length=1),
    # Glob patterns inside the repository: no absolute path, no way up.
    "input_patterns": list_of(text(r"(?!/)(?!.*\.\.)[A-Za-z0-9_.*/-]+"), min_length=1),
    "rules": record({
        "rows": integer(1), "pyramid_cards": integer(1), "deck_size": integer(1), "waste_cards": COUNT,
        "target_sum": integer(1), "king_value": integer(1), "turns_allowed": COUNT, "passes": integer(1),
        "points": record({"perCard": COUNT, "rowCleared": COUNT, "win": COUNT, "perUnusedTurn": COUNT}),
        "min_deal": integer(1), "max_deal": integer(1), "ranks": text("[A2-9TJQK]+"), "suits": text("[SHDC]+"),
    }),
    "rule_checks": mapping(record({"app": COUNT, "independent": COUNT}), r"[a-z]+\.[a-z-]+", min_length=1),
    "checks": list_of(check_entry, min_length=1),
    "examples": list_of(EXAMPLE, min_length=1),
    "survey": SURVEY,
    "variants": list_of(record(SURVEY_FIGURES), min_length=1),
})


def check_shape(bundle) -> None:
    """Raises SchemaError naming the first value that does not fit, then the first missing or
    repeated check id."""
    if not isinstance(bundle, dict):
        raise SchemaError("$", f"the bundle must be a JSON object, got {shown(bundle)}")
    BUNDLE(bundle, "$")
    ids = [c["id"] for c in bundle["checks"]]
    missing = [c for c in REQUIRED_CHECKS if c not in ids]
    if missing:
        raise SchemaError("$.checks", f"check(s) {', '.join(missing)} missing (every one of "
                                      f"{', '.join(REQUIRED_CHECKS)} must be recorded, passed)")
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise SchemaError("$.checks", f"check(s) {', '.join(repeated)} recorded more than once")
