"""Properties of the app's storage readers: whatever this browser's storage holds, what the app
reads back from it keeps the documented shape, and one bad value costs only itself.

The readers: saved games (app/core/storage.js: loadGame, gameOfKey, lastPlayed, migrate, the tab's
deal and variant, the settings), the options (app/ui/options.js loadOptions), a saved game as the
page restores it (app/ui/opening.js restore), the statistics (app/core/stats.js: readRecord,
resultOf, statistics, parseExport, importStatistics). The promise, for EVERY stored text (any
JSON: wrong types, missing or extra keys, huge or negative numbers, numbers as strings, impossible
dates, unknown variants, long strings, deep nesting; and text that is no JSON at all):

* a reader never throws (parseExport alone refuses a file, with an Error, and then nothing changes);
* it gives nothing, or a value of exactly the documented shape within its bounds: counts are
  non-negative integers, deals are deal numbers, moves are the saved moves and (as restored)
  legal, dates are calendar dates, times are times (0 … 8.64e15 ms, what a Date holds);
* a bad value is dropped alone: the good saves and records around it read exactly as they
  would alone, and are counted;
* a valid store round-trips exactly: written, then read, it is what was written (so every
  property can fail both ways: too lax and too strict).

Hypothesis makes the stored texts here (valid documents, the same with fields dropped, replaced or
added, arbitrary JSON and arbitrary text); one Node process (tests/app/core/storage_probe.mjs) runs
the app's own modules against fake Web Storages holding them, one JSON line per example. What a
reader should give is worked out here from the documented formats (the comments heading storage.js
and stats.js), never by asking the code under test.

Impossible dates and times no Date holds (the attacks of issue 40) have properties of their own:
the general ones leave open how they read, and those say.
"""
from __future__ import annotations

import datetime
import json
import math
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given, strategies as st

from helpers.properties import property_settings
from verify.app import find_node
from verify.independent.variants import read_registry

PROBE = Path(__file__).resolve().parent / "core" / "storage_probe.mjs"
# A failing example can hold 2,000 moves: Hypothesis warns that its repr is long.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")

# The stored formats, as the comments heading app/core/storage.js and app/core/stats.js write them
# (the keys are a promise to every earlier version of the page, so they are spelled out here).
PREFIX = "pyramide.game.v2."
V1_KEY = "pyramide.game.v1"
TAB_KEY = "pyramide.tab.v2"
TAB_VARIANT_KEY = "pyramide.tab.variant.v1"
SETTINGS_KEY = "pyramide.settings.v1"
OPTIONS_KEY = "pyramide.options.v1"
RESULT_PREFIX = "pyramide.result.v1."
SUMMARY_KEY = "pyramide.stats.v1"
EXPORT_FORMAT = "pyramide-statistics"
MAX_DEAL = 4294967295
MAX_MOVES, MOVE_CHARS = 2000, 20  # a move list's length; a move is shorter than 20 UTF-16 units
MAX_UNDO = 50
MAX_GAMES = 20
META_LIMIT = 10**10  # a saved game's hints and ms are below it
MAX_COUNT = 10**9  # a statistics count is at most this
MAX_TIME = 8_640_000_000_000_000  # ms: the largest time a JavaScript Date holds
OPTION_DEFAULTS = {"hideScore": False, "timer": False, "hintCount": True, "animations": True, "sound": False}
# The options that are one of a few names (app/ui/options.js CHOICES), each with its default.
OPTION_CHOICES = {"back": (["blue", "red", "green"], "blue"), "table": (["green", "blue", "red"], "green")}
RESULTS = ("won", "lost", "given-up")
RECORD_KEYS = {"version", "id", "rules", "deal", "result", "moves", "points", "hints", "ms", "daily", "at"}
TOTAL_COUNTS = ("played", "won", "lost", "givenUp", "streak", "bestStreak", "hints", "dailyStreak", "dailyBest")
KNOWN = [entry["id"] for entry in read_registry()]
NOW = 1_780_000_000_000  # a time in 2026, later than every time the tests store as "earlier"

ID_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
ID = re.compile(r"[0-9a-z]{8,24}")
VARIANT_NAME = re.compile(r"[a-z][a-z-]{0,19}")
RULES_ID = re.compile(r"[a-z][a-z-]{0,23}")
DATE_FORM = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# Names an object answers without having them (loadSetting reads a property): the game asks only
# names of its own, so these are not asked.
OBJECT_NAMES = {"constructor", "__proto__", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
                "__lookupSetter__", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
                "toLocaleString", "toString", "valueOf"}
MISSING = object()  # a field left out of a document


# ---------------------------------------------------------------- the Node probe
class Probe:
    """One Node process running tests/app/core/storage_probe.mjs: each run() is one JSON line."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([find_node(), str(PROBE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, encoding="utf-8", bufsize=1)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)

    def run(self, *calls, local=(), session=(), now=None) -> dict:
        """Runs the calls, each (function, *args), on storages holding exactly `local` and `session`
        ((key, text) pairs); {"results": [...], "local": {key: text}, "session": {...}} after them."""
        request = {"local": [list(kv) for kv in local], "session": [list(kv) for kv in session], "now": now,
                   "calls": [{"fn": fn, "args": list(args)} for fn, *args in calls]}
        self.process.stdin.write(json.dumps(request, allow_nan=False) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"storage_probe.mjs stopped (exit {self.process.poll()})")
        reply = json.loads(line)
        return {"results": reply["results"], "local": dict(reply["local"]), "session": dict(reply["session"])}


UNDEFINED = object()  # what a reader gave when it gave JavaScript's undefined


def value(result: dict):
    """A call's value; a reader that threw fails the property here."""
    assert "threw" not in result, f"the reader threw: {result['threw']}"
    return UNDEFINED if result.get("undefined") else result["value"]


@pytest.fixture(scope="module")
def probe():
    p = Probe()
    yield p
    p.close()


# ---------------------------------------------------------------- what JavaScript makes of a value
def is_num(v) -> bool:
    """A JSON number as JavaScript reads it (a bool is not one), finite."""
    return type(v) in (int, float) and math.isfinite(v)


def is_int(v, low, high) -> bool:
    """Number.isInteger(v) && low <= v <= high, as JavaScript sees the number (5.0 is 5)."""
    return is_num(v) and float(v) == math.floor(float(v)) and low <= float(v) <= high


def js_len(s: str) -> int:
    """A string's length in JavaScript (UTF-16 code units)."""
    return len(s.encode("utf-16-le")) // 2


def is_moves(m) -> bool:
    return isinstance(m, list) and len(m) <= MAX_MOVES and all(isinstance(x, str) and js_len(x) < MOVE_CHARS for x in m)


def is_date_form(s) -> bool:
    return isinstance(s, str) and DATE_FORM.fullmatch(s) is not None


def is_real_date(s) -> bool:
    """A calendar date 'YYYY-MM-DD' (no 2026-13-45, no 2026-02-30, no year 0)."""
    if not is_date_form(s):
        return False
    try:
        datetime.date.fromisoformat(s)
    except ValueError:
        return False
    return True


def is_time(t) -> bool:
    return is_num(t) and 0 <= t <= MAX_TIME


def impossible_date(s) -> bool:
    """A date of the right form that no calendar has (its own properties say how it reads)."""
    return is_date_form(s) and not is_real_date(s)


def out_of_time(t) -> bool:
    """A finite number no Date holds as a time (its own properties say how it reads)."""
    return is_num(t) and not is_time(t)


def is_meta(m) -> bool:
    """A saved game's statistics data as storage.js isMeta documents it (the date by its form)."""
    return (isinstance(m, dict) and isinstance(m.get("id"), str) and ID.fullmatch(m["id"]) is not None
            and is_int(m.get("hints", MISSING), 0, META_LIMIT - 1) and is_int(m.get("ms", MISSING), 0, META_LIMIT - 1)
            and ("daily" in m and (m["daily"] is None or is_date_form(m["daily"]))))


def meta_of(m):
    return {k: m[k] for k in ("id", "hints", "ms", "daily")} if is_meta(m) else None


def game_readable(doc, deal: int, variant: str) -> bool:
    """Would a saved game's value read at all (the fields whose failure refuses it whole)?"""
    return (isinstance(doc, dict) and "version" in doc and is_num(doc["version"]) and doc["version"] == 2
            and "deal" in doc and is_num(doc["deal"]) and doc["deal"] == deal and is_moves(doc.get("moves"))
            and (doc.get("variant") if doc.get("variant") is not None else "standard") == variant)


def record_readable(r) -> bool:
    """A result record as stats.js documents it (its date by the form, its time any finite number)."""
    return (isinstance(r, dict) and is_num(r.get("version")) and r["version"] == 1
            and isinstance(r.get("id"), str) and ID.fullmatch(r["id"]) is not None
            and isinstance(r.get("rules"), str) and RULES_ID.fullmatch(r["rules"]) is not None
            and is_int(r.get("deal"), 1, MAX_COUNT) and r.get("result") in RESULTS
            and all(is_int(r.get(k), 0, MAX_COUNT) for k in ("moves", "points", "hints", "ms"))
            and "daily" in r and (r["daily"] is None or is_date_form(r["daily"])) and is_num(r.get("at")))


def totals_readable(t) -> bool:
    return (isinstance(t, dict) and all(is_int(t.get(k), 0, MAX_COUNT) for k in TOTAL_COUNTS)
            and t["won"] + t["lost"] + t["givenUp"] == t["played"]
            and all(k in t and (t[k] is None or is_int(t[k], 0, MAX_COUNT)) for k in ("bestScore", "fewestMoves"))
            and "dailyLast" in t and (t["dailyLast"] is None or is_date_form(t["dailyLast"])))


def empty_totals() -> dict:
    return {"played": 0, "won": 0, "lost": 0, "givenUp": 0, "streak": 0, "bestStreak": 0, "bestScore": None,
            "fewestMoves": None, "hints": 0, "dailyStreak": 0, "dailyBest": 0, "dailyLast": None}


def day_before(iso: str) -> str:
    return (datetime.date.fromisoformat(iso) - datetime.timedelta(days=1)).isoformat()


def totals_after(start: dict, records: list[dict]) -> dict:
    """The totals after these games, in the order they finished, as stats.js's comment and the
    statistics page say what each figure is (worked out here, not by addResult)."""
    t = {k: start[k] for k in empty_totals()}
    for r in records:
        t["played"] += 1
        t["hints"] += r["hints"]
        if r["result"] == "won":
            t["won"] += 1
            t["streak"] += 1
            t["bestStreak"] = max(t["bestStreak"], t["streak"])
            t["bestScore"] = r["points"] if t["bestScore"] is None else max(t["bestScore"], r["points"])
            t["fewestMoves"] = r["moves"] if t["fewestMoves"] is None else min(t["fewestMoves"], r["moves"])
            if r["daily"] and r["daily"] != t["dailyLast"]:
                t["dailyStreak"] = t["dailyStreak"] + 1 if t["dailyLast"] == day_before(r["daily"]) else 1
                t["dailyBest"] = max(t["dailyBest"], t["dailyStreak"])
                t["dailyLast"] = r["daily"]
        else:
            t["lost" if r["result"] == "lost" else "givenUp"] += 1
            t["streak"] = 0
    return t


def check_totals(t) -> None:
    """The documented shape of a rules id's totals."""
    assert set(t) == set(empty_totals()), t
    assert all(is_int(t[k], 0, math.inf) for k in TOTAL_COUNTS), t
    assert t["won"] + t["lost"] + t["givenUp"] == t["played"], t
    assert t["bestScore"] is None or is_int(t["bestScore"], 0, MAX_COUNT), t
    assert t["fewestMoves"] is None or is_int(t["fewestMoves"], 0, MAX_COUNT), t
    assert t["dailyLast"] is None or is_date_form(t["dailyLast"]), t


def check_record(r) -> None:
    """The documented shape of a result record (its date by the form, its time a finite number)."""
    assert isinstance(r, dict) and set(r) == RECORD_KEYS, r
    assert record_readable(r), r


def same_numbers(a, b) -> bool:
    """Equal as JSON values, numbers compared as JavaScript holds them (a double)."""
    if is_num(a) and is_num(b):
        return float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_numbers(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_numbers(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------- what gets stored
# Any JSON: the kinds of value a stored text can hold, with the ones readers trip on weighted in.
ODD = st.sampled_from([
    None, True, False, 0, -1, -0.0, 0.5, 1.5, 2.0, 1e308, -1e308, 1.7976931348623157e308, 2**53, 2**53 + 1, 2**64,
    MAX_COUNT + 1, META_LIMIT, MAX_DEAL + 1, MAX_TIME + 1, "", "0", "1", "2", "-1", "NaN", "Infinity", "1e308", "null",
    "2026-13-45", "2026-02-30", "0000-00-00", "2026-1-5", "2026-12-01x", "2026-12-01T00:00Z", "standard", "Strict", "zzz", "won", "x" * 5000,
    [], {}, [1], ["draw"], {"a": 1}, {"__proto__": {"version": 2}},
])
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12))
ANY_JSON = st.recursive(SCALARS | ODD, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
NOT_JSON = st.sampled_from(["", "{", "[1,", "undefined", "NaN", "Infinity", "{'a': 1}", '{"version": 2,}', "\ufeff{}",
                            "[" * 20000 + "]" * 20000, '"' + "x" * 200_000 + '"', "01", "1e999"]) | st.text(max_size=30)


def stored(documents):
    """The text of a stored value: one of `documents` as JSON, any JSON, or no JSON at all."""
    text = documents.map(json.dumps)
    return st.one_of(text, text, text, ANY_JSON.map(json.dumps), NOT_JSON)


@st.composite
def tweaked(draw, documents, near=None):
    """A valid document with some fields left out or replaced: by odd values, by any JSON, or by
    `near` misses of that field (name → strategy: a value just outside what the field allows),
    and maybe with extra fields."""
    near = near or {}
    doc = dict(draw(documents))
    # A few fields at a time, so that one bad field is often the only one (a check loosened on it
    # then shows), and sometimes several together.
    for key in draw(st.lists(st.sampled_from(sorted(doc)), max_size=3, unique=True)) if doc else []:
        how = draw(st.sampled_from(("drop", "odd", "any", "near", "near", "near")))
        if how == "drop":
            del doc[key]
        else:
            doc[key] = draw(near[key] if how == "near" and key in near else ANY_JSON if how == "any" else ODD)
    doc.update(draw(st.dictionaries(st.text(max_size=8), ANY_JSON, max_size=2)))
    return doc


@st.composite
def one_off(draw, documents, near):
    """A valid document with exactly one field left out or replaced, most often by a near miss of
    that field: where a reader's check of that one field is loosened, this is what gets through."""
    doc = dict(draw(documents))
    key = draw(st.sampled_from(sorted(doc)))
    bad = draw(st.one_of(st.just(MISSING), ODD, *([near[key]] * 4 if key in near else [])))
    if bad is MISSING:
        del doc[key]
    else:
        doc[key] = bad
    return doc


def variations(documents, near, fields=None):
    """Valid documents, the same one field off, a few fields off, and (given the fields whose
    failure refuses a document) ones that must not read."""
    choices = [documents, *[one_off(documents, near)] * 3, tweaked(documents, near)]
    return st.one_of(*choices, *([broken(documents, fields, near)] if fields else []))


@st.composite
def broken(draw, documents, fields: dict, near=None):
    """A document that must not read: tweaked, then at least one field the reader checks strictly
    (`fields`: name → is this value fine?) given a value its format rules out, or left out."""
    near = near or {}
    doc = draw(tweaked(documents, near))
    name = draw(st.sampled_from(sorted(fields)))
    pool = st.one_of(st.just(MISSING), ODD, ANY_JSON, *([near[name]] * 3 if name in near else []))
    bad = draw(pool.filter(lambda v: not fields[name](v)))
    if bad is MISSING:
        doc.pop(name, None)
    else:
        doc[name] = bad
    return doc


deals = st.integers(1, MAX_DEAL) | st.sampled_from([1, 27, MAX_DEAL])
known_variants = st.sampled_from(KNOWN)
other_names = st.from_regex(VARIANT_NAME, fullmatch=True).filter(lambda v: v not in KNOWN)
times = st.integers(0, MAX_TIME) | st.sampled_from([0, 1, NOW, MAX_TIME])
huge_times = st.sampled_from([1e308, 1.7976931348623157e308, float(2**53), 2**53 + 2, 2**60, MAX_TIME + 1, 1e300])
impossible_dates = st.sampled_from(["2026-13-45", "2026-02-30", "2026-00-10", "0000-00-00", "9999-99-99", "2025-02-29"])
dates = st.dates(datetime.date(1970, 1, 2), datetime.date(9999, 12, 31)).map(datetime.date.isoformat)
move_texts = st.sampled_from(["draw", "turn", "pair 7H 6S", "king KS", "pair 10H 3S xxxxxxx"]) | st.text(max_size=19)
move_lists = st.lists(move_texts, max_size=6) | st.sampled_from([["draw"] * MAX_MOVES, ["draw"] * (MAX_MOVES + 1)])
metas = st.fixed_dictionaries({"id": st.text(ID_CHARS, min_size=8, max_size=24), "hints": st.integers(0, META_LIMIT - 1),
                               "ms": st.integers(0, META_LIMIT - 1), "daily": st.none() | dates})
counts = st.integers(0, MAX_COUNT) | st.sampled_from([0, MAX_COUNT])
ids = st.text(ID_CHARS, min_size=8, max_size=24)
# Near misses, field by field: values just outside what a field allows (or, for the dates and
# times, inside the form but outside any calendar or clock), where a loosened check lets them in.
date_and_more = st.tuples(dates, st.sampled_from(["x", "T00:00Z", "\n", " ", "0", "-01"])).map("".join)
near_dates = st.one_of(
    date_and_more, date_and_more,  # more after a date (twice: an anchor left out is the likeliest slip)
    st.tuples(st.sampled_from(["x", " ", "0", "\n"]), dates).map("".join),  # more before one
    dates.map(lambda d: d.replace("-0", "-")), st.from_regex(r"\A[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}\Z"),  # one-digit parts
    dates.map(lambda d: d.replace("-", "/")), dates.map(lambda d: d[1:]),
    st.from_regex(r"\A[0-9]{3,5}-[0-9]{1,3}-[0-9]{1,3}\Z"), impossible_dates,
    dates.map(lambda d: d.replace("1", "\u0661")))  # an Arabic-Indic digit: a digit, but not 0-9
near_counts = st.one_of(st.sampled_from([MAX_COUNT + 1, META_LIMIT - 1, META_LIMIT, 2**31, 2**53, 1e21, 1e308]),  # too big
                        st.sampled_from([-1, -0.5, 0.5, 1.5, -1e308, "1", "0", True]), st.integers(-5, 5), st.floats(-1e12, 1e12))
near_ids = st.one_of(st.text(ID_CHARS, min_size=1, max_size=7), st.text(ID_CHARS, min_size=25, max_size=30),
                     ids.map(str.upper), ids.map(lambda i: i + "!"), ids.map(lambda i: "!" + i), ids.map(lambda i: i + "\n"),
                     ids.map(lambda i: i[:4] + "-" + i[4:]), st.integers(10**7, 10**9))
near_deals = st.sampled_from([0, -1, 1.5, MAX_DEAL, MAX_DEAL + 1, MAX_COUNT, MAX_COUNT + 1, "5", 1e308, 2**53, True])
near_names = st.sampled_from(["Strict", "-strict", "strict!", "a" * 20, "a" * 21, "a" * 24, "a" * 25, "one pass", "",
                              "1a", "standard ", "stañdard", "a.b"]) | other_names
near_times = huge_times | st.sampled_from([-1, -0.5, 0.5, "1", MAX_TIME, MAX_TIME + 1, -1e308])
near_moves = st.sampled_from([["x" * 20], ["draw"] * (MAX_MOVES + 1), [None], "draw", [["draw"]], ["\U0001F0A1" * 10],
                              ["\U0001F0A1" * 9 + "x"], [7], {"0": "draw", "length": 1}])
META_NEAR = {"id": near_ids, "hints": near_counts, "ms": near_counts, "daily": near_dates}
near_metas = variations(metas, META_NEAR)
STEP_NEAR = {"deal": near_deals, "moves": near_moves, "meta": near_metas}
steps = st.one_of(st.fixed_dictionaries({"deal": deals}), st.fixed_dictionaries({"moves": move_lists.filter(is_moves)}),
                  st.fixed_dictionaries({"moves": move_lists.filter(is_moves), "meta": metas}))
rules_ids = st.sampled_from(KNOWN + ["some-rules"])


def game_documents(deal: int, variant: str, at=times, near=False):
    """A saved game's valid value, {version: 2, deal, [variant], moves, undo, at, meta}; `near`:
    its undo steps and statistics data with near misses in them too (each refused alone)."""
    named = {} if variant == "standard" else {"variant": st.just(variant)}
    meta = st.none() | metas | (variations(metas, META_NEAR) if near else metas)
    undo = st.lists(steps, max_size=MAX_UNDO)
    if near:  # a step that does not read, or one step too many: the undo list is refused whole
        undo = undo | st.lists(steps | variations(steps, STEP_NEAR), max_size=8) | st.lists(steps, min_size=MAX_UNDO + 1,
                                                                                          max_size=MAX_UNDO + 1)
    return st.fixed_dictionaries({"version": st.just(2), "deal": st.just(deal), **named,
                                  "moves": move_lists.filter(is_moves), "undo": undo, "at": at, "meta": meta})


def game_near(variant: str) -> dict:
    return {"version": st.sampled_from([1, 3, "2", 2.5, None]), "deal": near_deals, "moves": near_moves,
            "undo": st.sampled_from([{"deal": 1}, "x", [None], [{"deal": 0}], [{}]]), "at": near_times,
            "meta": near_metas, "variant": near_names | st.sampled_from(KNOWN)}


def game_fields(deal: int, variant: str) -> dict:
    """The fields whose failure refuses a saved game whole (name → is this value fine?)."""
    def fine_variant(v):
        return (v is MISSING or v is None) if variant == "standard" else v == variant

    return {"version": lambda v: is_num(v) and v == 2, "deal": lambda v: is_num(v) and v == deal,
            "moves": is_moves, "variant": fine_variant}


def key_of(deal: int, variant: str) -> str:
    return f"{PREFIX}{deal}" if variant == "standard" else f"{PREFIX}{variant}.{deal}"


def expected_game(doc: dict, deal: int, variant: str) -> dict:
    """A valid saved value as the reader gives it back: its fields, the undo list whole or none."""
    undo = doc.get("undo")
    good_undo = isinstance(undo, list) and len(undo) <= MAX_UNDO and all(
        isinstance(s, dict) and (is_moves(s.get("moves")) or is_int(s.get("deal"), 1, MAX_DEAL)) for s in undo)
    steps_read = []
    for s in undo if good_undo else []:
        if not is_moves(s.get("moves")):
            steps_read.append({"deal": s["deal"]})
        else:
            meta = meta_of(s.get("meta"))
            steps_read.append({"moves": s["moves"], "meta": meta} if meta else {"moves": s["moves"]})
    return {"deal": deal, "variant": variant, "moves": doc["moves"], "undo": steps_read,
            "at": doc["at"] if is_num(doc.get("at")) else 0, "meta": meta_of(doc.get("meta"))}


def check_game_shape(g, deal: int, variant: str) -> None:
    """A saved game as the readers give it: exactly these fields, each of its documented shape."""
    assert isinstance(g, dict) and set(g) == {"deal", "variant", "moves", "undo", "at", "meta"}, g
    assert g["deal"] == deal and g["variant"] == variant, g
    assert is_moves(g["moves"]), g
    assert isinstance(g["undo"], list) and len(g["undo"]) <= MAX_UNDO, g
    for s in g["undo"]:
        assert (set(s) == {"deal"} and is_int(s["deal"], 1, MAX_DEAL)) or (set(s) == {"moves"} and is_moves(s["moves"])) \
            or (set(s) == {"moves", "meta"} and is_moves(s["moves"]) and set(s["meta"]) == {"id", "hints", "ms", "daily"}
                and is_meta(s["meta"])), s
    assert is_num(g["at"]), g
    assert g["meta"] is None or (set(g["meta"]) == {"id", "hints", "ms", "daily"} and is_meta(g["meta"])), g


@st.composite
def slots(draw, variants=known_variants):
    return draw(deals), draw(variants)


# ---------------------------------------------------------------- saved games
@property_settings(200)
@given(slot=slots(known_variants | other_names), data=st.data())
def test_any_stored_game_reads_as_nothing_or_as_its_own_fields_in_their_documented_shape(probe, slot, data):
    deal, variant = slot
    documents = game_documents(deal, variant, near=True)
    near = game_near(variant)
    text = data.draw(stored(variations(documents, near, game_fields(deal, variant))))
    key = key_of(deal, variant)
    reply = probe.run(("storage.loadGame", deal, variant), ("storage.gameOfKey", key, text), local=[(key, text)])
    loaded, of_key = (value(r) for r in reply["results"])
    assert of_key[0] == deal and of_key[2] == variant
    assert same_numbers(loaded, of_key[1]), "the storage event reads a game as loading it does"
    assert reply["local"] == {key: text}, "reading writes nothing"
    doc = strict_json(text)
    if not game_readable(doc, deal, variant):
        assert loaded is None, f"refused whole: {text[:200]}"
        return
    check_game_shape(loaded, deal, variant)
    expected = expected_game(doc, deal, variant)
    # A time no Date holds and an impossible daily date have properties of their own: here they
    # may read as they are or be mended, and the rest is exact.
    undo = doc["undo"] if isinstance(doc.get("undo"), list) else []
    metas_ = [doc.get("meta")] + [s.get("meta") for s in undo if isinstance(s, dict)]
    if any(isinstance(m, dict) and impossible_date(m.get("daily")) for m in metas_):
        expected = {k: v for k, v in expected.items() if k not in ("meta", "undo")}
    if out_of_time(doc.get("at")):
        del expected["at"]
    assert same_numbers({k: loaded[k] for k in expected}, expected), "the game read is the stored one's fields"


@property_settings(300)
@given(slot=slots(), meta=one_off(metas, META_NEAR) | variations(metas, META_NEAR) | ANY_JSON,
       step_meta=one_off(metas, META_NEAR) | variations(metas, META_NEAR) | ANY_JSON, data=st.data())
def test_a_games_statistics_data_reads_as_its_four_fields_or_as_none(probe, slot, meta, step_meta, data):
    """The statistics data of a game and of an undo step: kept as exactly its four fields when
    each is in its bounds, else none, and the game (its moves, its step) kept all the same."""
    deal, variant = slot
    doc = data.draw(game_documents(deal, variant))
    doc["meta"] = meta
    doc["undo"] = [{"moves": ["draw"], "meta": step_meta}]
    [loaded] = probe.run(("storage.loadGame", deal, variant), local=[(key_of(deal, variant), json.dumps(doc))])["results"]
    game = value(loaded)
    check_game_shape(game, deal, variant)
    for given_, read in ((meta, game["meta"]), (step_meta, game["undo"][0].get("meta"))):
        if isinstance(given_, dict) and impossible_date(given_.get("daily")):
            continue  # its own property's business
        assert read == meta_of(given_), given_
    assert game["moves"] == doc["moves"] and game["undo"][0]["moves"] == ["draw"]


@property_settings(200)
@given(key=st.one_of(st.text(max_size=30), st.text(max_size=30).map(PREFIX.__add__),
                     st.tuples(deals, known_variants | other_names).map(lambda s: key_of(*s)),
                     st.tuples(st.integers(-5, MAX_DEAL + 5), st.text("az-.Z0", max_size=22))
                     .map(lambda s: f"{PREFIX}{s[1]}.{s[0]}")))
def test_only_a_games_own_key_names_a_deal(probe, key):
    """The storage event names a deal only for a key the page itself writes for it."""
    [result] = probe.run(("storage.gameOfKey", key, None))["results"]
    slot = value(result)
    if slot is not None:
        deal, game, variant = slot
        assert is_int(deal, 1, MAX_DEAL) and VARIANT_NAME.fullmatch(variant) and game is None, slot
        assert key == key_of(deal, variant), f"{key!r} is not the key of {slot}"


@property_settings(150)
@given(slot=slots(), moves=move_lists.filter(is_moves),
       undo=st.lists(steps, max_size=8) | st.lists(steps, min_size=MAX_UNDO - 2, max_size=MAX_UNDO + 10),
       meta=st.none() | metas, hand=st.data(), now=times)
def test_a_valid_game_round_trips_exactly(probe, slot, moves, undo, meta, hand, now):
    """Saved, then read (and read by the other tabs from its text), a game is what was saved; a
    valid value written by hand (an earlier page's, extra fields and all) reads as its fields."""
    deal, variant = slot
    assume(moves or undo)  # a game with neither is removed, not saved
    key = key_of(deal, variant)
    reply = probe.run(("storage.saveGame", deal, moves, undo, meta, variant), ("storage.loadGame", deal, variant), now=now)
    expected = {"deal": deal, "variant": variant, "moves": moves, "undo": undo[-MAX_UNDO:], "at": now, "meta": meta}
    assert same_numbers(value(reply["results"][1]), expected)
    named = {} if variant == "standard" else {"variant": variant}
    assert json.loads(reply["local"][key]) == {"version": 2, "deal": deal, **named, "moves": moves,
                                               "undo": undo[-MAX_UNDO:], "at": now, "meta": meta}
    [of_key] = probe.run(("storage.gameOfKey", key, reply["local"][key]))["results"]
    assert same_numbers(value(of_key), [deal, expected, variant])
    # by hand: any valid document, extra fields included
    doc = hand.draw(game_documents(deal, variant))
    doc.update(hand.draw(st.dictionaries(st.text(max_size=8).filter(lambda k: k not in doc and k != "variant"),
                                         ANY_JSON, max_size=3)))
    [read] = probe.run(("storage.loadGame", deal, variant), local=[(key, json.dumps(doc))])["results"]
    assert same_numbers(value(read), {k: doc[k] for k in ("deal", "moves", "undo", "at", "meta")} | {"variant": variant})


@st.composite
def game_stores(draw, at=times, variants=known_variants, max_good=24):
    """A store of good saved games (distinct slots, distinct times), broken ones under games' keys,
    and keys that are no game's, in any order: (entries, {slot: document})."""
    good = {}
    used_times = set()
    for slot in draw(st.lists(st.tuples(deals, variants), max_size=max_good, unique=True)):
        doc = draw(game_documents(*slot, at=at.filter(lambda t: t not in used_times)))
        used_times.add(doc["at"])
        good[slot] = doc
    entries = [(key_of(*slot), json.dumps(doc)) for slot, doc in good.items()]
    broken_slots = []
    for slot in draw(st.lists(st.tuples(deals, known_variants | other_names), max_size=6, unique=True)):
        if slot not in good:
            documents = game_documents(*slot)
            broken_slots.append(slot)
            entries.append((key_of(*slot), draw(st.one_of(NOT_JSON, broken(documents, game_fields(*slot)).map(json.dumps)))))
    foreign = st.sampled_from(["other.site", PREFIX + "abc", PREFIX + "Bad.5", PREFIX + "05", "pyramide.game.v3.5",
                               V1_KEY + "x", SETTINGS_KEY]) | st.text(max_size=12)
    for key in draw(st.lists(foreign, max_size=4, unique=True)):
        if not any(key == k for k, _ in entries):
            entries.append((key, draw(stored(ANY_JSON))))
    return draw(st.permutations(entries)), good, broken_slots


@property_settings(60)
@given(store=game_stores(), new=slots(), now=times)
def test_good_games_read_the_same_among_broken_ones_and_a_save_becomes_the_last_played(probe, store, new, now):
    """A broken save costs only itself: every good game reads as alone, the newest is the last
    played; a new save is then the last played (overall and of its variant), the MAX_GAMES most
    recently played are kept exactly (the broken ones go first), and no other key is touched."""
    entries, good, broken_slots = store
    order = sorted(good, key=lambda s: good[s]["at"])
    calls = [("storage.loadGame", deal, variant) for deal, variant in order]
    reply = probe.run(*calls, ("storage.lastPlayed",), local=entries)
    *games, last = (value(r) for r in reply["results"])
    for slot, game in zip(order, games):
        assert same_numbers(game, expected_game(good[slot], *slot)), slot
    assert last == ({"deal": order[-1][0], "variant": order[-1][1]} if order else None)
    # a save, then every reader again
    reply = probe.run(("storage.saveGame", new[0], ["draw"], [], None, new[1]), ("storage.lastPlayed",),
                      ("storage.lastPlayed", new[1]), *calls, local=entries, now=now)
    _, last, last_of_variant, *games = (value(r) for r in reply["results"])
    assert last == last_of_variant == {"deal": new[0], "variant": new[1]}
    others = [s for s in order if s != new]
    kept = others[-(MAX_GAMES - 1):]
    for slot, game in zip(order, games):
        if slot in kept:
            assert same_numbers(game, expected_game(good[slot], *slot)), f"{slot} was kept as it was"
        elif slot != new:
            assert game is None, f"{slot} is beyond the {MAX_GAMES} most recently played: dropped"
    slot_keys = {key_of(*s) for s in [*good, *broken_slots, new]}
    assert len(slot_keys & reply["local"].keys()) <= MAX_GAMES
    for key, text in entries:
        if key not in slot_keys:
            assert reply["local"].get(key) == text, f"{key!r} is no game's: left as it was"


@property_settings(60)
@given(store=game_stores(at=times | huge_times | st.sampled_from([-1, -1e308]), max_good=4), new=slots(), now=times)
def test_a_save_becomes_the_last_played_whatever_times_are_stored(probe, store, new, now):
    entries, _, _ = store
    reply = probe.run(("storage.saveGame", new[0], ["draw"], [], None, new[1]), ("storage.lastPlayed",),
                      ("storage.lastPlayed", new[1]), local=entries, now=now)
    _, last, last_of_variant = (value(r) for r in reply["results"])
    assert last == last_of_variant == {"deal": new[0], "variant": new[1]}


@property_settings(60)
@given(store=game_stores(at=times | st.sampled_from([-1, -5, -1e308]), variants=known_variants | other_names, max_good=5))
def test_the_last_played_is_the_newest_game_of_a_known_variant(probe, store):
    entries, good, _ = store
    known = {s: d for s, d in good.items() if s[1] in KNOWN}
    [last] = probe.run(("storage.lastPlayed",), local=entries)["results"]
    newest = max(known, key=lambda s: known[s]["at"], default=None)
    assert value(last) == (None if newest is None else {"deal": newest[0], "variant": newest[1]})


@property_settings(100)
@given(slot=slots(), data=st.data())
def test_a_saved_games_time_is_a_time_and_its_daily_date_a_date(probe, slot, data):
    deal, variant = slot
    meta = data.draw(metas | metas.map(lambda m: m | {"daily": "2026-13-45"}))
    meta["daily"] = data.draw(st.just(meta["daily"]) | impossible_dates)
    doc = data.draw(game_documents(deal, variant, at=times | huge_times | st.sampled_from([-1, -5])))
    doc["meta"] = meta
    [loaded] = probe.run(("storage.loadGame", deal, variant), local=[(key_of(deal, variant), json.dumps(doc))])["results"]
    game = value(loaded)
    assert game is not None and is_time(game["at"]), game
    assert game["meta"] is None or game["meta"]["daily"] is None or is_real_date(game["meta"]["daily"]), game["meta"]


@property_settings(60)
@given(deal=st.integers(1, 5000), variant=known_variants, choices=st.lists(st.integers(0, 99), max_size=40), data=st.data())
def test_a_restored_game_is_its_saved_moves_all_legal_or_that_save_alone_is_dropped(probe, deal, variant, choices, data):
    """The page restores a saved game by replaying it (app/ui/opening.js restore): the game it
    gives is the saved moves, each legal where it was made; a save that does not replay is
    forgotten, and nothing else with it."""
    [played] = probe.run(("probe.play", deal, variant, choices))["results"]
    moves = value(played)
    how = data.draw(st.sampled_from(["as played", "cut", "garbled", "swapped", "undo"]))
    if how == "cut":
        moves = moves[:data.draw(st.integers(0, len(moves)))]
    elif how == "garbled" and moves:
        moves[data.draw(st.integers(0, len(moves) - 1))] = data.draw(move_texts)
    elif how == "swapped" and len(moves) > 1:
        i = data.draw(st.integers(0, len(moves) - 2))
        moves[i], moves[i + 1] = moves[i + 1], moves[i]
    elif how == "undo":
        moves.insert(data.draw(st.integers(0, len(moves))), "undo")
    doc = data.draw(game_documents(deal, variant))
    doc["moves"] = moves
    key = key_of(deal, variant)
    others = [(key_of(deal + 1, variant), json.dumps({**doc, "deal": deal + 1})), ("other.site", "x")]
    entries = [others[0], (key, json.dumps(doc)), others[1]]
    reply = probe.run(("probe.restore", deal, variant), local=entries)
    restored = value(reply["results"][0])
    if restored is None:
        gone = dict(others) if is_moves(moves) else dict(entries)  # (a list that is no moves is no save to drop)
        assert reply["local"] == gone, "a save that does not replay is dropped alone"
        return
    assert reply["local"] == dict(entries), "a save that replays is left as it was"
    assert restored["deal"] == deal and restored["variant"] == variant and restored["legal"], restored
    if "undo" not in moves:
        assert restored["moves"] == moves
    assert same_numbers([restored["undo"], restored["meta"]], [expected_game(doc, deal, variant)[k] for k in ("undo", "meta")])


@property_settings(150)
@given(deal_text=stored(deals) | st.from_regex(r"\A[0-9x. e+-]{0,12}\Z"), variant_text=stored(known_variants) | other_names
       | st.text(max_size=25), deal=deals, variant=known_variants)
def test_the_tabs_deal_and_variant_read_as_a_deal_and_a_name_and_round_trip(probe, deal_text, variant_text, deal, variant):
    reply = probe.run(("storage.tabDeal",), ("storage.tabVariant",),
                      session=[(TAB_KEY, deal_text), (TAB_VARIANT_KEY, variant_text)])
    tab_deal, tab_variant = (value(r) for r in reply["results"])
    assert tab_deal is None or is_int(tab_deal, 1, MAX_DEAL), tab_deal
    if re.fullmatch(r"[1-9][0-9]*", deal_text) and int(deal_text) <= MAX_DEAL:
        assert tab_deal == int(deal_text), "the deal as setTabDeal writes it reads back"
    assert tab_variant is None or (tab_variant == variant_text and VARIANT_NAME.fullmatch(tab_variant)), tab_variant
    if VARIANT_NAME.fullmatch(variant_text):
        assert tab_variant == variant_text
    reply = probe.run(("storage.setTabDeal", deal, variant), ("storage.tabDeal",), ("storage.tabVariant",),
                      session=[(TAB_KEY, deal_text), (TAB_VARIANT_KEY, variant_text)])
    assert [value(r) for r in reply["results"][1:]] == [deal, variant]


settings_documents = st.dictionaries(st.text(max_size=10).filter(lambda k: k not in OBJECT_NAMES), ANY_JSON, max_size=4)
names = st.sampled_from(["largePrint", "other"]) | st.text(max_size=10).filter(lambda k: k not in OBJECT_NAMES)


def json_safe(v) -> bool:
    try:
        json.dumps(v, allow_nan=False)
    except ValueError:
        return False
    return True


def strict_json(text: str):
    """JSON.parse's answer for a text, or MISSING where it throws (Python alone reads NaN, Infinity)."""
    def refuse(constant):
        raise ValueError(constant)

    try:
        return json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return MISSING


@property_settings(150)
@given(settings_text=stored(settings_documents), options_text=stored(variations(st.fixed_dictionaries(
    {"version": st.just(1), **{k: st.booleans() for k in OPTION_DEFAULTS},
     **{k: st.sampled_from(allowed) for k, (allowed, _) in OPTION_CHOICES.items()}}),
    {k: st.sampled_from(["true", 1, 0, None, [True], "purple"]) for k in ("version", *OPTION_DEFAULTS, *OPTION_CHOICES)})),
    name=names, new=ANY_JSON,
    options=st.fixed_dictionaries({**{k: st.booleans() for k in OPTION_DEFAULTS},
                                   **{k: st.sampled_from(allowed) for k, (allowed, _) in OPTION_CHOICES.items()}}))
def test_settings_and_options_read_as_stored_or_as_none_and_round_trip(probe, settings_text, options_text, name, new, options):
    """A setting is the stored object's own value or none; each option the stored boolean or its
    default; saved, each reads back, and saving one setting keeps the others."""
    local = [(SETTINGS_KEY, settings_text), (OPTIONS_KEY, options_text)]
    reply = probe.run(("storage.loadSetting", name), ("options.loadOptions",), local=local)
    setting, loaded = (value(r) for r in reply["results"])
    data = strict_json(settings_text)
    kept = data if isinstance(data, dict) else {}
    assert same_numbers(setting, kept[name]) if name in kept else setting is UNDEFINED, setting
    data = strict_json(options_text)
    ok = isinstance(data, dict) and is_num(data.get("version")) and data["version"] == 1
    assert loaded == {**{k: data[k] if ok and isinstance(data.get(k), bool) else d for k, d in OPTION_DEFAULTS.items()},
                      **{k: data[k] if ok and data.get(k) in allowed else d for k, (allowed, d) in OPTION_CHOICES.items()}}
    reply = probe.run(("storage.saveSetting", name, new), ("storage.loadSetting", name), ("options.saveOptions", options),
                      ("options.loadOptions",), local=local)
    assert same_numbers(value(reply["results"][1]), new)
    assert value(reply["results"][3]) == options
    after = json.loads(reply["local"][SETTINGS_KEY])
    assert same_numbers({k: v for k, v in after.items() if k != name}, {k: v for k, v in kept.items() if k != name})


v1_documents = st.fixed_dictionaries({"version": st.just(1), "deal": deals, "moves": move_lists.filter(lambda m: is_moves(m) and m)})


@property_settings(150)
@given(v1=stored(variations(v1_documents, {"version": st.sampled_from([2, "1", 1.5, None]), "deal": near_deals, "moves": near_moves})), v2=st.booleans(), data=st.data(), now=times)
def test_a_v1_game_moves_once_to_its_deal_never_over_a_v2_one(probe, v1, v2, data, now):
    doc = strict_json(v1)
    good = (isinstance(doc, dict) and is_num(doc.get("version")) and doc["version"] == 1
            and is_int(doc.get("deal"), 1, MAX_DEAL) and is_moves(doc.get("moves")) and len(doc["moves"]) > 0)
    deal = int(doc["deal"]) if good else data.draw(deals)
    local = [(V1_KEY, v1), ("other.site", "x")]
    if v2:  # that deal already has a game of its own
        local.append((key_of(deal, "standard"), json.dumps(data.draw(game_documents(deal, "standard")))))
    reply = probe.run(("storage.migrate",), local=local, now=now)
    value(reply["results"][0])
    after = dict(local[1:])
    if good and not v2:
        after[key_of(deal, "standard")] = json.dumps({"version": 2, "deal": deal, "moves": doc["moves"], "undo": [], "at": now},
                                                     separators=(",", ":"))
    assert {k: json.loads(v) if k.startswith(PREFIX) else v for k, v in reply["local"].items()} \
        == {k: json.loads(v) if k.startswith(PREFIX) else v for k, v in after.items()}


# ---------------------------------------------------------------- statistics records
record_documents = st.fixed_dictionaries({
    "version": st.just(1), "id": ids, "rules": rules_ids, "deal": st.integers(1, MAX_COUNT), "result": st.sampled_from(RESULTS),
    "moves": counts, "points": counts, "hints": counts, "ms": counts, "daily": st.none() | dates, "at": times})
thirds = st.integers(0, MAX_COUNT // 3) | st.just(0)  # won, lost and given up add up to the games played
totals_documents = st.tuples(thirds, thirds, thirds).flatmap(lambda wlg: st.fixed_dictionaries({
    "played": st.just(sum(wlg)), "won": st.just(wlg[0]), "lost": st.just(wlg[1]), "givenUp": st.just(wlg[2]),
    "streak": counts, "bestStreak": counts, "hints": counts, "dailyStreak": counts, "dailyBest": counts,
    "bestScore": st.none() | counts, "fewestMoves": st.none() | counts, "dailyLast": st.none() | dates}))
RECORD_NEAR = {"version": st.sampled_from([0, 2, "1", 1.5, None]), "id": near_ids, "rules": near_names, "deal": near_deals,
               "result": st.sampled_from(["Won", "win", "given up", "givenUp", "", None, 1]), "moves": near_counts,
               "points": near_counts, "hints": near_counts, "ms": near_counts, "daily": near_dates, "at": near_times}
TOTALS_NEAR = {k: near_counts for k in TOTAL_COUNTS} | {"bestScore": near_counts, "fewestMoves": near_counts,
                                                         "dailyLast": near_dates}
RECORD_FIELDS = {"version": lambda v: is_num(v) and v == 1, "id": lambda v: isinstance(v, str) and ID.fullmatch(v) is not None,
                 "rules": lambda v: isinstance(v, str) and RULES_ID.fullmatch(v) is not None,
                 "deal": lambda v: is_int(v, 1, MAX_COUNT), "result": lambda v: v in RESULTS,
                 **{k: (lambda v: is_int(v, 0, MAX_COUNT)) for k in ("moves", "points", "hints", "ms")},
                 "daily": lambda v: v is None or is_date_form(v), "at": is_num}


@property_settings(1000)
@given(text=stored(variations(record_documents, RECORD_NEAR, RECORD_FIELDS)) | one_off(record_documents, RECORD_NEAR).map(json.dumps))
def test_any_record_reads_as_nothing_or_as_a_copy_of_its_fields_in_their_documented_shape(probe, text):
    data = strict_json(text)
    doc = None if data is MISSING else data
    key = RESULT_PREFIX + (doc["id"] if isinstance(doc, dict) and isinstance(doc.get("id"), str) else "abcdefgh")
    calls = [("stats.resultOf", key[len(RESULT_PREFIX):])]
    if json_safe(doc):  # (1e999 is JSON, read as Infinity, but no request can carry it)
        calls.append(("stats.readRecord", doc))
    reply = probe.run(*calls, local=[(key, text)])
    of_id, *read = (value(r) for r in reply["results"])
    if read:
        assert same_numbers(read[0], of_id), "resultOf reads a stored record as readRecord does"
    assert reply["local"] == {key: text}, "reading writes nothing"
    if not record_readable(doc):
        assert of_id is None, text[:200]
        return
    if impossible_date(doc["daily"]) or out_of_time(doc["at"]):
        assert of_id is None or of_id == {k: doc[k] for k in RECORD_KEYS}  # its own property's business
        return
    check_record(of_id)
    assert same_numbers(of_id, {k: doc[k] for k in RECORD_KEYS}), "a copy of the record's own fields"


@property_settings(100)
@given(doc=record_documents, daily=impossible_dates | dates, at=huge_times | times | st.sampled_from([-1, -1e308]),
       totals=totals_documents, last=impossible_dates)
def test_a_statistics_date_is_a_calendar_date_and_a_records_time_a_time(probe, doc, daily, at, totals, last):
    doc = doc | {"daily": daily, "at": at}
    summary = {"version": 1, "until": 0, "rules": {"standard": totals | {"dailyLast": last}}}
    reply = probe.run(("stats.readRecord", doc), ("stats.statistics",), local=[(SUMMARY_KEY, json.dumps(summary))])
    read, shown = (value(r) for r in reply["results"])
    assert read is None or (is_real_date(read["daily"]) and is_time(read["at"])), read
    assert shown["totals"]["dailyLast"] is None or is_real_date(shown["totals"]["dailyLast"]), shown["totals"]


@property_settings(60)
@given(doc=record_documents, asked=ids)
def test_the_result_of_a_game_is_that_games_record(probe, doc, asked):
    assume(asked != doc["id"])
    [result] = probe.run(("stats.resultOf", asked), local=[(RESULT_PREFIX + asked, json.dumps(doc))])["results"]
    got = value(result)
    assert got is None or got["id"] == asked, got


@st.composite
def record_stores(draw, bad_records=None, good_records=record_documents):
    """Good records (unique ids, each under its own key), bad ones under records' keys, and keys
    that are no record's, in any order: (entries, good records)."""
    good = draw(st.lists(good_records, max_size=12, unique_by=lambda r: r["id"]))
    entries = [(RESULT_PREFIX + r["id"], json.dumps(r)) for r in good]
    taken = {k for k, _ in entries}
    for i, bad in enumerate(draw(st.lists(bad_records, max_size=6)) if bad_records is not None else []):
        key = RESULT_PREFIX + (bad["id"] if isinstance(bad, dict) and isinstance(bad.get("id"), str) else f"bad{i}")
        if key not in taken:
            taken.add(key)
            entries.append((key, json.dumps(bad)))
    for text in draw(st.lists(NOT_JSON, max_size=2)):  # no JSON at all
        key = RESULT_PREFIX + draw(ids)
        if key not in taken:
            taken.add(key)
            entries.append((key, text))
    if good and draw(st.booleans()):  # a good record under another game's key
        key = RESULT_PREFIX + draw(ids)
        if key not in taken:
            entries.append((key, json.dumps(good[0])))
    for key in draw(st.lists(st.sampled_from(["other.site", "pyramide.result.v2.abcdefgh", "pyramide.stats.v2",
                                               RESULT_PREFIX[:-1], PREFIX + "5"]), max_size=3, unique=True)):
        entries.append((key, draw(stored(ANY_JSON))))
    return draw(st.permutations(entries)), good


def in_order(records):
    return sorted(records, key=lambda r: (r["at"], r["id"]))


def check_statistics(reply, entries, good, rules, summary=None):
    """The statistics of `rules` are the good records' (after the summary's), and the store keeps
    exactly the good records and the keys that are no record's."""
    got = value(reply["results"][0])
    check_totals(got["totals"])
    until = summary["until"] if summary else -math.inf
    mine = [r for r in in_order(good) if r["rules"] == rules and r["at"] > until]
    start = summary["rules"].get(rules, empty_totals()) if summary else empty_totals()
    assert got["totals"] == totals_after(start, mine)
    assert got["recent"] == mine[-20:]
    records_left = {k: v for k, v in reply["local"].items() if k.startswith(RESULT_PREFIX)}
    assert {k: strict_json(v) for k, v in records_left.items()} == {RESULT_PREFIX + r["id"]: r for r in good}, \
        "the bad records go, each good one stays as it was"
    for key, text in entries:
        if not key.startswith(RESULT_PREFIX) and key != SUMMARY_KEY:
            assert reply["local"].get(key) == text, f"{key!r} is no record: left as it was"


@property_settings(80)
@given(store=record_stores(broken(record_documents, RECORD_FIELDS, RECORD_NEAR)), rules=rules_ids)
def test_statistics_count_every_good_record_and_drop_each_bad_one_alone(probe, store, rules):
    entries, good = store
    reply = probe.run(("stats.statistics", rules), local=entries)
    check_statistics(reply, entries, good, rules)


@property_settings(60)
@given(store=record_stores(st.tuples(record_documents, impossible_dates, huge_times | times).map(
    lambda t: t[0] | {"rules": "standard", "daily": t[1], "at": t[2], "result": "won"}),
    record_documents.map(lambda r: r | {"rules": "standard"})), rules=st.just("standard"))
def test_a_record_with_an_impossible_date_or_time_is_dropped_alone(probe, store, rules):
    entries, good = store
    reply = probe.run(("stats.statistics", rules), local=entries)
    check_statistics(reply, entries, good, rules)


summary_documents = st.fixed_dictionaries({"version": st.just(1), "until": times,
                                           "rules": st.dictionaries(rules_ids, variations(totals_documents, TOTALS_NEAR),
                                                                    max_size=3)})


SUMMARY_NEAR = {"version": st.sampled_from([0, 2, "1", None]), "until": near_times,
                "rules": st.sampled_from([[], "standard", None, 5, {"Standard": {}}, {"standard": None}])}


def summary_undecided(doc) -> bool:
    """A summary with its own property (a time no Date holds, an impossible last daily date):
    whether it reads is left open here."""
    if not isinstance(doc, dict):
        return False
    rules = doc.get("rules") if isinstance(doc.get("rules"), dict) else {}
    return out_of_time(doc.get("until")) or any(isinstance(t, dict) and impossible_date(t.get("dailyLast"))
                                                for t in rules.values())


def summary_read(doc):
    """The summary as the statistics read it, or None when it does not read (then it is dropped)."""
    if not (isinstance(doc, dict) and is_num(doc.get("version")) and doc["version"] == 1 and is_num(doc.get("until"))
            and isinstance(doc.get("rules"), (dict, list))):
        return None
    rules = doc["rules"] if isinstance(doc["rules"], dict) else {}
    return {"until": doc["until"], "rules": {k: t for k, t in rules.items()
                                             if RULES_ID.fullmatch(k) and totals_readable(t)}}


@property_settings(80)
@given(store=record_stores(broken(record_documents, RECORD_FIELDS, RECORD_NEAR)),
       summary=stored(variations(summary_documents, SUMMARY_NEAR)), rules=rules_ids)
def test_a_summary_counts_before_the_records_after_it_or_is_dropped_alone(probe, store, summary, rules):
    """Folded totals count with the records after their time; a summary that does not read is
    dropped, and only it: every record then counts."""
    assume(not summary_undecided(strict_json(summary)))
    entries, good = store
    entries = [(SUMMARY_KEY, summary), *entries]
    read = summary_read(strict_json(summary))
    reply = probe.run(("stats.statistics", rules), local=entries)
    check_statistics(reply, entries, good, rules, read)
    assert (SUMMARY_KEY in reply["local"]) == (read is not None), "an unreadable summary is dropped, a readable one kept"


@property_settings(40)
@given(until=huge_times, imported=st.booleans(), game=record_documents)
def test_a_game_finished_now_is_counted_whatever_summary_was_stored_or_imported(probe, until, imported, game):
    summary = {"version": 1, "until": until, "rules": {}}
    file = json.dumps({"format": EXPORT_FORMAT, "version": 1, "summary": summary, "results": []})
    fields = {k: game[k] for k in ("id", "deal", "result", "moves", "points", "hints", "ms", "daily")}
    # (refusing that file would keep the promise too: the import's own answer is not asked)
    first = [("stats.importStatistics", file)] if imported else []
    reply = probe.run(*first, ("stats.recordResult", fields), ("stats.statistics",),
                      local=[] if imported else [(SUMMARY_KEY, json.dumps(summary))], now=NOW)
    assert value(reply["results"][-1])["totals"]["played"] == 1


@property_settings(60)
@given(games=st.lists(st.tuples(record_documents, st.sampled_from(RESULTS)), max_size=12))
def test_finished_games_are_recorded_exactly_and_export_then_import_changes_nothing(probe, games):
    """A finished game is written as its record (counted once: a won game stays won, any other
    result is replaced), read back as written; the statistics exported, reset and imported are the
    same, to the byte of a second export."""
    calls, expected = [], {}
    for i, (doc, result) in enumerate(games):
        fields = {k: doc[k] for k in ("id", "deal", "moves", "points", "hints", "ms", "daily")} | {"result": result}
        calls.append(("stats.recordResult", fields))
        if doc["id"] in expected and expected[doc["id"]]["result"] == "won":
            continue
        expected[doc["id"]] = {"version": 1, "rules": "standard", **fields, "at": NOW}
    ids_ = list(expected)
    reply = probe.run(*calls, *[("stats.resultOf", i) for i in ids_], ("stats.statistics",), ("stats.exportStatistics",),
                      now=NOW)
    read = [value(r) for r in reply["results"][len(calls):len(calls) + len(ids_)]]
    assert read == [expected[i] for i in ids_]
    stats_before = value(reply["results"][-2])
    assert stats_before["totals"]["played"] == len(expected)
    exported = value(reply["results"][-1])
    again = probe.run(("stats.parseExport", exported), ("stats.resetStatistics",), ("stats.importStatistics", exported),
                      ("stats.statistics",), ("stats.exportStatistics",), local=list(reply["local"].items()))
    parsed, _, _, stats_after, exported_again = (value(r) for r in again["results"])
    assert parsed == {"summary": {"until": None, "rules": {}}, "records": in_order(expected.values())}
    assert stats_after == stats_before and exported_again == exported
    assert again["local"] == reply["local"]


export_documents = st.fixed_dictionaries({
    "format": st.just(EXPORT_FORMAT), "version": st.just(1),
    "summary": st.fixed_dictionaries({"until": st.none() | times.filter(lambda t: t <= NOW),
                                      "rules": st.dictionaries(rules_ids, totals_documents, max_size=2)}),
    "results": st.lists(record_documents | variations(record_documents, RECORD_NEAR), max_size=6)})


def export_undecided(doc) -> bool:
    """A file holding what properties of their own are about (an impossible date, a time no Date holds):
    whether it is taken is left open here."""
    if not isinstance(doc, dict):
        return False
    results = doc.get("results") if isinstance(doc.get("results"), list) else []
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    return (any(isinstance(r, dict) and (impossible_date(r.get("daily")) or out_of_time(r.get("at"))) for r in results)
            or summary_undecided(summary) or out_of_time(summary.get("until")))


def export_read(doc):
    """What parseExport gives for a file, or None where it must refuse it."""
    if not (isinstance(doc, dict) and doc.get("format") == EXPORT_FORMAT and is_num(doc.get("version"))
            and doc["version"] == 1 and isinstance(doc.get("results"), list) and len(doc["results"]) <= 1000
            and all(record_readable(r) for r in doc["results"])):
        return None
    summary = doc.get("summary")
    if isinstance(summary, list):  # an object to JavaScript, with neither field
        summary = {}
    given_ = summary if isinstance(summary, dict) else {"until": None, "rules": {}}
    rules = given_.get("rules")
    # Object.entries: an object's fields, an array's or a string's by index (no rules id), else none
    items = list(rules.items()) if isinstance(rules, dict) else \
        [(str(i), x) for i, x in enumerate(rules)] if isinstance(rules, (list, str)) else []
    if not all(RULES_ID.fullmatch(k) and totals_readable(t) for k, t in items):
        return None
    until = given_.get("until")
    return {"summary": {"until": until if is_num(until) else None, "rules": dict(items)},
            "records": [{k: r[k] for k in RECORD_KEYS} for r in doc["results"]]}


@property_settings(120)
@given(text=stored(export_documents | tweaked(export_documents)), store=record_stores())
def test_a_statistics_file_is_read_whole_or_refused_whole_leaving_the_store_as_it_was(probe, text, store):
    entries, good = store
    reply = probe.run(("stats.parseExport", text), ("stats.importStatistics", text), local=entries, now=NOW)
    parsed, imported = reply["results"]
    doc = strict_json(text)
    if "threw" in parsed:  # refused: with an Error, by both, and nothing changed
        assert parsed["threw"]["error"] and imported["threw"]["error"], [parsed, imported]
        assert reply["local"] == dict(entries), "a refused file changes nothing"
    if export_undecided(doc):
        return
    expected = export_read(doc)
    if expected is None:
        assert "threw" in parsed and parsed["threw"]["error"], f"refused with an Error: {parsed}"
        assert "threw" in imported and imported["threw"]["error"], imported
        assert reply["local"] == dict(entries), "a refused file changes nothing"
        return
    got = value(parsed)
    assert same_numbers(got, expected), "the file's own records and summary"
    for r in got["records"]:
        check_record(r)
    for t in got["summary"]["rules"].values():
        check_totals(t)
    value(imported)
    [after] = probe.run(("stats.statistics", "some-rules"), local=list(reply["local"].items()))["results"]
    check_totals(value(after)["totals"])
    records = {RESULT_PREFIX + r["id"]: r for r in expected["records"]}
    assert same_numbers({k: strict_json(v) for k, v in reply["local"].items() if k.startswith(RESULT_PREFIX)}, records), \
        "the file's records replace the stored ones"
    assert (SUMMARY_KEY in reply["local"]) == (expected["summary"]["until"] is not None)
