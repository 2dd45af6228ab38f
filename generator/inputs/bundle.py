"""The verified data bundle: the only door through which game facts reach the pages.

The bundle is checked, not trusted. The generator refuses a bundle that is missing, not JSON,
of another schema version, of another shape (generator/inputs/bundle_schema.py: every key, type and
range, every check recorded with passed exactly true), whose figures do not follow from its own
detail (the survey's counts, share and interval from its per-deal results, the pool from its
won deals, each example's figures from its steps, the checks' counts from what they counted),
or stale — made from examples or app code that have changed since (their hashes are re-computed
here). Every refusal is a BuildError naming the bundle and the JSON path of the bad value.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from generator.inputs.bundle_schema import SchemaError, check_shape
from generator.errors import BuildError
from generator.settings import BUNDLE_SCHEMA, ROOT

FIX = "Run `make verify` to check everything again and write a fresh bundle."
WILSON_Z = 1.959964  # 95 % two-sided, as verify/survey/figures.py `wilson`
TOLERANCE = 1e-9  # recomputed shares and bounds against the stored floats
BRIEF = 60  # characters of a value quoted in a message


# The digests of the bundles whose shape and figures this process has found right. Those two
# checks are a function of the bundle's bytes alone (and of this code, which the process holds:
# make serve starts a new builder when generator/ changes), so `make serve`'s warm builder does
# them once per bundle, not once per save: a bundle of other bytes is checked again. Freshness
# (check_fresh) reads the files the bundle was made from, and runs every time.
SHAPES_FOUND_RIGHT: set[str] = set()
KEPT_SHAPES = 16  # bundles remembered (an edit and its undo); then forgotten, and checked again


def load_bundle(path: Path) -> dict:
    """The bundle at `path`, once it has passed every check above; BuildError otherwise."""
    if not path.exists():
        raise BuildError(f"{path}: the verified data bundle is missing. {FIX}")
    try:
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        bundle = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as e:
        raise BuildError(f"{path}, line {e.lineno}: the bundle is not valid JSON ({e.msg}). {FIX}") from None
    except (ValueError, RecursionError, OSError) as e:  # not UTF-8, nested too deep, a 5,000-digit number, a folder
        raise BuildError(f"{path}: the bundle is not readable JSON ({type(e).__name__}). {FIX}") from None
    # Another schema version may legitimately have other keys: say that first, not "unexpected key".
    if isinstance(bundle, dict) and bundle.get("schema") != BUNDLE_SCHEMA:
        raise BuildError(f"{path}: bundle schema {bundle.get('schema')!r}, this generator reads {BUNDLE_SCHEMA}. {FIX}")
    if digest not in SHAPES_FOUND_RIGHT:
        try:
            check_shape(bundle)
            check_figures(bundle)
        except SchemaError as e:
            raise BuildError(f"{path}: {e.where}: {e.what}. {FIX}") from None
        if len(SHAPES_FOUND_RIGHT) >= KEPT_SHAPES:
            SHAPES_FOUND_RIGHT.clear()
        SHAPES_FOUND_RIGHT.add(digest)
    check_fresh(bundle, path)
    return bundle


def check_fresh(bundle: dict, path: Path) -> None:
    """BuildError when a file the bundle was made from has changed, gone, or been added."""
    for name, digest in bundle["inputs"].items():
        file = ROOT / name
        if file.is_symlink() or (file.exists() and not file.is_file()):
            raise BuildError(f"{file}: a symbolic link or not a regular file; the build reads only regular files")
        if not file.is_file():
            raise BuildError(f"{path}: made from {name}, which no longer exists. {FIX}")
        if hashlib.sha256(file.read_bytes()).hexdigest() != digest:
            raise BuildError(f"{path}: {name} has changed since the bundle was made, so its figures are stale. {FIX}")
    # What the checks read, as the bundle itself records it (verify/settings.py BUNDLE_INPUTS).
    current = {str(p.relative_to(ROOT)) for pattern in bundle["input_patterns"] for p in ROOT.glob(pattern)
               if p.is_file() or p.is_symlink()}
    for name in sorted(current):
        if (ROOT / name).is_symlink():
            raise BuildError(f"{ROOT / name}: a symbolic link; the build reads only regular files")
    new = sorted(current - set(bundle["inputs"]))
    if new:
        raise BuildError(f"{path}: {', '.join(new)} came after the bundle was made. {FIX}")


# ---------------------------------------------------------------- figures from the bundle's own detail

def check_figures(bundle: dict) -> None:
    """Raises SchemaError naming the first figure that does not follow from the detail beside it."""
    check_rules(bundle["rules"])
    ids = [example["id"] for example in bundle["examples"]]
    for i, example in enumerate(bundle["examples"]):
        check_example(example, bundle["rules"], f"$.examples[{i}]")
        if ids.count(example["id"]) > 1:  # the id is the section's anchor on every examples page
            raise SchemaError(f"$.examples[{i}].id", f"example id {example['id']!r} is used more than once")
        check_text_lines(example, f"$.examples[{i}]")
    check_survey(bundle["survey"], "$.survey")
    check_pool(bundle["survey"], "$.survey")
    names = [v["variant"] for v in bundle["variants"]]
    for i, figures in enumerate(bundle["variants"]):
        check_survey(figures, f"$.variants[{i}]")
        if names.count(figures["variant"]) > 1:
            raise SchemaError(f"$.variants[{i}].variant", f"variant {figures['variant']!r} is listed more than once")
        survey = bundle["survey"]
        if covered(figures, survey):  # the same deals under the same rules: the same answers
            start = figures["first"] - survey["first"]
            expect(f"$.variants[{i}].results", figures["results"],
                   survey["results"][start:start + figures["deals"]], "$.survey.results over the same deals")
    check_counts(bundle)


def expect(where: str, stored, recomputed, what: str) -> None:
    same = (math.isclose(stored, recomputed, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
            if isinstance(stored, float) or isinstance(recomputed, float) else stored == recomputed)
    if not same:
        at = ""
        if isinstance(stored, (str, list)) and isinstance(recomputed, type(stored)):
            first = next((i for i, (a, b) in enumerate(zip(stored, recomputed)) if a != b),
                         min(len(stored), len(recomputed)))
            at = f" (first difference at index {first})"
        raise SchemaError(where, f"is {brief(stored)}, but {what} gives {brief(recomputed)}{at}")


def brief(value) -> str:
    """A value as JSON, cut short: a survey's results run to thousands of letters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= BRIEF else text[:BRIEF - 1] + "…"


def check_rules(rules: dict) -> None:
    expect("$.rules.pyramid_cards", rules["pyramid_cards"], rules["rows"] * (rules["rows"] + 1) // 2,
           "a pyramid of $.rules.rows rows")
    expect("$.rules.deck_size", rules["deck_size"], len(rules["ranks"]) * len(rules["suits"]),
           "$.rules.ranks times $.rules.suits")
    expect("$.rules.king_value", rules["king_value"], rules["ranks"].find("K") + 1, "the place of K in $.rules.ranks")
    expect("$.rules.passes", rules["passes"], rules["turns_allowed"] + 1, "$.rules.turns_allowed + 1")


def pyramid_left(position: dict) -> int:
    return sum(c is not None for c in position["pyramid"])


def check_text_lines(example: dict, where: str) -> None:
    """Every title and summary has its line in the file (the lint names it), and no line is
    recorded for a text that is not there."""
    texts = {f"{key}.{code}" for key in ("title", "summary") for code in example.get(key, {})}
    lines = set(example.get("lines", {}))
    for name in sorted(texts ^ lines):
        raise SchemaError(f"{where}.lines", f"{'no line for' if name in texts else 'a line for a missing'} {name}")


def check_example(example: dict, rules: dict, where: str) -> None:
    """The final figures and the search's answer against the steps' own positions."""
    steps, opening, final, search = example["steps"], example["opening"], example["final"], example["search"]
    for position_where, position in [(f"{where}.opening", opening)] + \
            [(f"{where}.steps[{i}].position", s["position"]) for i, s in enumerate(steps)]:
        expect(f"{position_where}.pyramid", len(position["pyramid"]), rules["pyramid_cards"],
               "the length of a pyramid ($.rules.pyramid_cards)")
    for i, step in enumerate(steps):
        expect(f"{where}.steps[{i}].number", step["number"], i + 1, "its place in the list")
    last = steps[-1]["position"]
    cards_left = lambda p: pyramid_left(p) + len(p["stock"]) + len(p["waste"])  # noqa: E731
    recomputed = {
        "moves": (len(steps), "the number of steps"),
        "pyramid_removed": (pyramid_left(opening) - pyramid_left(last), "the cards gone from the last step's pyramid"),
        "cards_removed": (cards_left(opening) - cards_left(last), "the cards gone by the last step"),
        "stock": (len(last["stock"]), "the last step's stock"),
        "waste": (len(last["waste"]), "the last step's waste"),
        "points": (last["points"], "the last step's points"),
        "status": (last["status"], "the last step's status"),
    }
    for key, (value, what) in recomputed.items():
        expect(f"{where}.final.{key}", final[key], value, what)
    expect(f"{where}.search.shortest", search["shortest"], len(steps),
           "the number of steps (the shown game is a shortest one)")
    expect(f"{where}.search.max_removed", search["max_removed"], final["pyramid_removed"], "final.pyramid_removed")
    expect(f"{where}.search.winnable", search["winnable"], search["max_removed"] == pyramid_left(opening),
           "max_removed against the opening's pyramid")
    for name, solver in search["solvers"].items():
        for key in ("max_removed", "shortest"):
            expect(f"{where}.search.solvers.{name}.{key}", solver[key], search[key], f"search.{key}")


def wilson(k: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of k/n, recomputed here because the generator never imports verify/."""
    if n == 0:
        return (0.0, 1.0)
    z, p = WILSON_Z, k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if k == 0 else centre - half, 1.0 if k == n else centre + half)


def check_survey(figures: dict, where: str) -> None:
    """Counts, share and interval recomputed from the per-deal results (one letter per deal)."""
    results = figures["results"]
    expect(f"{where}.last", figures["last"], figures["first"] + len(results) - 1,
           f"{where}.first and one result per deal ({len(results)})")
    expect(f"{where}.deals", figures["deals"], len(results), "the per-deal results")
    for key, letter in (("won", "w"), ("lost", "l"), ("undecided", "u")):
        expect(f"{where}.{key}", figures[key], results.count(letter), f"the per-deal results ('{letter}')")
    won, decided = figures["won"], figures["won"] + figures["lost"]
    if decided == 0:
        if figures["share"] is not None:
            raise SchemaError(f"{where}.share", "no deal was decided, so there is no share")
    else:
        if figures["share"] is None:
            raise SchemaError(f"{where}.share", f"is null, but {decided} deals were decided")
        expect(f"{where}.share", figures["share"], won / decided, "won / (won + lost)")
    low, high = wilson(won, decided)
    expect(f"{where}.low", figures["low"], low, "the 95 % Wilson interval of won / (won + lost)")
    expect(f"{where}.high", figures["high"], high, "the 95 % Wilson interval of won / (won + lost)")


def check_pool(survey: dict, where: str) -> None:
    """New game's pool: the first pool_size won deals of the survey, in order, each with its game."""
    deals = [g["deal"] for g in survey["pool"]]
    expect(f"{where}.pool_size", survey["pool_size"], len(deals), f"the length of {where}.pool")
    expect(f"{where}.pool_deals", survey["pool_deals"], deals, f"the deals of {where}.pool")
    first, results = survey["first"], survey["results"]
    for i, n in enumerate(deals):
        if not (first <= n <= survey["last"] and results[n - first] == "w"):
            raise SchemaError(f"{where}.pool[{i}].deal", f"deal {n} is not a won deal of the survey")
    won = [first + k for k, r in enumerate(results) if r == "w"][:len(deals)]
    expect(f"{where}.pool_deals", deals, won, "the first won deals of the survey")
    expect(f"{where}.replayed", survey["replayed"], survey["won"], "every won deal's game replayed")
    if survey["redecided"] > survey["lost"]:
        raise SchemaError(f"{where}.redecided", f"{survey['redecided']} lost deals decided again, "
                                                f"but only {survey['lost']} were lost")


def covered(variant: dict, survey: dict) -> bool:
    """A variant table row with the main survey's rules over deals it surveyed: the same games,
    replayed once (verify/checks/survey_checks.py)."""
    return (variant["variant"] == survey["variant"]
            and survey["first"] <= variant["first"] <= variant["last"] <= survey["last"])


def check_counts(bundle: dict) -> None:
    """What each check says it counted, against the detail it counted."""
    counts = {c["id"]: c["counts"] for c in bundle["checks"]}
    where = {c["id"]: f"$.checks[{i}].counts" for i, c in enumerate(bundle["checks"])}
    examples, survey, variants = bundle["examples"], bundle["survey"], bundle["variants"]
    moves = sum(len(e["steps"]) for e in examples)
    rule_checks = bundle["rule_checks"].values()
    wanted = {
        "examples.read": {"files": len(examples), "moves": moves},
        "deal.regenerated": {"examples": len(examples), "cards": len(examples) * bundle["rules"]["deck_size"]},
        "game.replayed": {"moves_replayed": moves},
        "notes.true": {"notes": sum(len(s["notes"]) for e in examples for s in e["steps"])},
        "search.exact": {"deals_solved": len(examples)},
        "rules.checked": {"rules": len(bundle["rule_checks"]), "cases_app": sum(r["app"] for r in rule_checks),
                          "cases_independent": sum(r["independent"] for r in rule_checks)},
        "survey.checked": {"deals": survey["deals"], "won": survey["won"], "undecided": survey["undecided"],
                           "games_replayed": survey["won"] + sum(v["won"] for v in variants
                                                                 if not covered(v, survey)),
                           "lost_rechecked": survey["redecided"]},
        # Every lost deal published, decided again by both deciders when the bundle was made.
        "survey.redecided": {"lost_decided_again": survey["lost"] + sum(v["lost"] for v in variants
                                                                        if not covered(v, survey))},
    }
    for check_id, figures in wanted.items():
        for key, value in figures.items():
            if key not in counts[check_id]:
                raise SchemaError(where[check_id], f"check {check_id}: missing count {key}")
            expect(f"{where[check_id]}.{key}", counts[check_id][key], value, "the bundle's own detail")
