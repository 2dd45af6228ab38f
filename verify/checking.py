"""`make verify`: every check, then the verified data bundle — and nothing when a check fails.

Like mkdocs' build, it gathers everything first (checks run, results collected in memory) and
writes once at the end, atomically, so a failed run leaves no new bundle behind.

Each check runs in units (one per example for the example checks, else one) and a unit's
passed result is taken from build/check-cache/ when the digest of exactly what it reads is
there (verify/check_inputs.py, verify/check_cache.py; the comments below say what each reads),
so an edit computes again only the checks it can change. A passed unit is kept as soon as it
passes (a failed run keeps those: each is true of its inputs); a failed one never is.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

from . import check_inputs
from .app import AppEngine
from .check_cache import CheckCache
from .checks import Checked
from .checks.engines import AppSide, IndependentSide
from .checks.example_checks import check_constants, check_deals, replay_one, search_one
from .checks.note_checks import notes_of, notes_one
from .checks.rule_checks import check_rules
from .checks.survey_checks import check_losses, check_survey, read_cache
from .errors import InputError, VerifyError, all_of
from .examples import load_examples
from .independent.variants import VARIANTS
from .notes import glossary_path
from .settings import BUNDLE_INPUTS, BUNDLE_SCHEMA, CHECK_CACHE, MAIN_VARIANT, ROOT
from .survey.cache import cache_dir, own_files


def input_files(examples_dir: Path) -> list[Path]:
    """What the bundle is made from (settings.BUNDLE_INPUTS: the examples and their words, the
    app's code, the list of languages every note needs), the examples read from examples_dir."""
    found = []
    for pattern in BUNDLE_INPUTS:
        top, _, rest = pattern.partition("/")
        folder = examples_dir if top == "examples" else ROOT / top
        found += sorted(p for p in folder.glob(rest) if p.is_file())
    return found


def fingerprint(paths: list[Path]) -> dict[str, str]:
    return {_shown(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def _shown(path: Path) -> str:
    """Inside the project: relative to its root (the bundle stays valid in another clone)."""
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(resolved)


class Report:
    """One line per check with what it counted, printed as the checks run; a check run in units
    (one per example) takes each unit's result from the check cache when its digest is there."""

    def __init__(self, cache: CheckCache):
        self.checks = []
        self.cache = cache
        # Every problem of the run, said together at its end: a unit that fails is recorded and the
        # rest go on (an example that failed one check is left out of the later ones, whose
        # answers about it would only repeat the first).
        self.problems: list[VerifyError] = []
        self.failed: set[str] = set()  # the examples (ids) that failed a check
        self.ran = self.units = 0  # units computed now / units in all, for the closing line

    def run(self, check_id: str, title: str, check, *args):
        """check(*args), a Checked, computed now: its counts are recorded and printed, its data returned."""
        return self.run_units(check_id, title, [(None, lambda: check(*args))])[0]

    def run_units(self, check_id: str, title: str, units: list[tuple]) -> list:
        """Each unit is (a function giving its inputs' digest — None when they cannot be read —
        or None to compute it every time; a function returning a Checked). Returns each unit's
        data, in order; one line and one bundle entry for the check, its counts summed over the
        units and its seconds those of the computing (then or earlier)."""
        counts, datas, seconds, ran = {}, [], 0.0, 0
        started = time.monotonic()
        problems_before = len(self.problems)
        for inputs, compute, *example in units:
            key = inputs() if inputs else None
            stored = self.cache.load(check_id, key) if key is not None else None
            if stored is None:
                unit_started = time.monotonic()
                try:
                    checked = compute()
                except VerifyError as e:  # said at the end with the others; never kept
                    self.problems.extend(getattr(e, "problems", [e]))
                    self.failed.update(example)
                    datas.append(None)
                    continue
                unit_seconds = round(time.monotonic() - unit_started, 3)
                # Kept only when the inputs are still those it started from: a file saved while
                # the check ran would otherwise file a result under a digest it was not made from.
                if key is not None and inputs() == key:
                    self.cache.save(check_id, key, checked.counts, checked.data, unit_seconds)
                stored = {"counts": checked.counts, "data": checked.data, "seconds": unit_seconds}
                ran += 1
            for name, value in stored["counts"].items():
                counts[name] = round(counts.get(name, 0) + value, 3) if isinstance(value, float) else \
                    counts.get(name, 0) + value
            datas.append(stored["data"])
            seconds += stored["seconds"]
        self.ran, self.units = self.ran + ran, self.units + len(units)
        if len(self.problems) > problems_before:
            print(f"  FAILED {check_id}", flush=True)
            return datas
        self.checks.append({"id": check_id, "title": title, "counts": counts, "seconds": round(seconds, 3),
                            "passed": True})
        shown = ", ".join(f"{k.replace('_', ' ')} {v:,}" if isinstance(v, int) else f"{k.replace('_', ' ')} {v}"
                          for k, v in counts.items())
        now = time.monotonic() - started
        how = ("cached" if ran == 0 else f"{now:.1f} s" if len(units) == 1
               else f"{now:.1f} s; {ran} of {len(units)} computed")
        print(f"  ok  {check_id:<20} {shown}  ({how})", flush=True)
        return datas


def read_examples(examples_dir: Path) -> Checked:
    """The example files, read and complete (examples.ExampleError otherwise); what is wrong in
    their language files is in each example's .problems, said with the run's other problems."""
    examples = load_examples(examples_dir, keep_problems=True)
    return Checked({"files": len(examples), "moves": sum(len(ex.game) for ex in examples)}, examples)


# ---- what each check reads (verify/check_inputs.py makes the digests) -------------------------
# A check's code is its module with every project module it imports (followed by
# check_inputs.code) and the Node program it talks to, whose app/*.js imports are followed too:
# the app bridge for the engine and solver, the survey worker for the decider.
BRIDGE = ("verify/app_bridge.mjs",)
SURVEY_WORKER = ("verify/survey_worker.mjs",)
EXAMPLE_CODE = ("verify.checks.example_checks",)  # deals, replays, search (it imports solving, compare)
NOTE_CODE = ("verify.checks.note_checks", "verify.checks.example_checks")  # the notes, on the replayed positions
RULE_CODE = ("verify.checks.rule_checks", "verify.checks.engines")
SURVEY_CODE = ("verify.checks.survey_checks",)


class Keys:
    """The digest of each check's inputs; None (compute, keep nothing) when an input cannot be
    read — the check then meets the same fault and says it."""

    def __init__(self, use: bool):
        self.use = use
        self.world = None  # check_inputs.environment(), once per run

    def __call__(self, check_id: str, code_modules: tuple, node_programs: tuple, data=None, read=()):
        """A function giving the digest of these inputs (None when one cannot be read), or None
        when the cache is off."""
        def inputs() -> str | None:
            try:
                self.world = self.world or check_inputs.environment()
                return check_inputs.digest(check_id, self.world,
                                           check_inputs.code(code_modules, node_programs), data,
                                           check_inputs.files(read() if callable(read) else read))
            except OSError:
                return None
        return inputs if self.use else None


def survey_files() -> list[Path]:
    """Every file the survey checks read: read_cache reads all of each variant's cache folder."""
    return [p for variant in (MAIN_VARIANT, *VARIANTS) for p in own_files(cache_dir(variant))]


def run(args, app: AppEngine) -> int:
    examples_dir = Path(args.examples)
    out = Path(args.out)
    problem = out_problem(out)
    if problem:  # said before the checks run, not after ten minutes of them
        raise InputError(f"--out {out}: {problem}")
    print(f"Checking the examples in {examples_dir}/ and the app's rules…", flush=True)
    use_cache = not getattr(args, "no_cache", False)
    cache = CheckCache(CHECK_CACHE if use_cache else None)
    report = Report(cache)
    key = Keys(use_cache)
    try:
        # Always read (milliseconds): what every other check is given, and the warnings.
        examples = report.run("examples.read", "Example files read and complete", read_examples, examples_dir)
        if examples is None:  # a file that cannot be read as an example: nothing to check it with
            raise all_of(report.problems)
        report.problems += [problem for ex in examples for problem in ex.problems]

        def checkable():  # the examples that passed every check so far
            return [ex for ex in examples if ex.id not in report.failed]
        for warning in (w for ex in examples for w in ex.warnings):  # optional words not written yet
            print(f"  warning: {warning}", flush=True)  # stdout, beside the checks: stderr is for what stops it
        # The constants come from the app's engine and the independent one: code only.
        [constants] = report.run_units(
            "rules.constants", "Rule constants read from the app's code equal the independent engine's",
            [(key("rules.constants", EXAMPLE_CODE, BRIDGE), lambda: check_constants(app))])
        # Per example, the fields each check looks at (the rest of the file only in its messages,
        # and a failed check is never kept): the deal and its opening counts…
        report.run_units(
            "deal.regenerated", "Deals regenerated from their numbers in both engines; 52 cards, 28 + 23 + 1",
            [(key("deal.regenerated", EXAMPLE_CODE, BRIDGE, {"deal": ex.deal, "opening": ex.opening}),
              lambda ex=ex: check_deals(app, [ex]), ex.id) for ex in examples])
        # …the deal, the moves and the final figures…
        live = checkable()
        replays = dict(zip((ex.id for ex in live), report.run_units(
            "game.replayed", "Every shown move replayed in both engines; final figures compared",
            [(key("game.replayed", EXAMPLE_CODE, BRIDGE, {"deal": ex.deal, "moves": [m.text for m in ex.game],
                                                          "final": ex.final}),
              lambda ex=ex: replay_one(app, ex), ex.id) for ex in live])))
        # …each note's text, language and move, on the positions of the deal and moves (the
        # same engine code as the replay), with the glossaries that define the notes' words…
        report.run_units(
            "notes.true", "Every note on a move is true of its position: cards, places, the move, counts",
            [(key("notes.true", NOTE_CODE, BRIDGE,
                  {"deal": ex.deal, "moves": [m.text for m in ex.game],
                   "notes": [(n.language, n.move, n.text) for n in notes_of([ex])]},
                  read=[glossary_path(code) for code in sorted({n.language for n in notes_of([ex])})]),
              lambda ex=ex: notes_one(ex, replays[ex.id]), ex.id) for ex in checkable()])
        # …and for the search, the deal, the stated answer, the game's length and what it removes.
        live = checkable()
        searches = dict(zip((ex.id for ex in live), report.run_units(
            "search.exact", "Both exact solvers agree, the files state their answer, the games are shortest",
            [(key("search.exact", EXAMPLE_CODE, BRIDGE,
                  {"deal": ex.deal, "search": ex.search, "moves": len(ex.game),
                   "pyramid_removed": ex.final["pyramid_removed"]}),
              lambda ex=ex: search_one(app, ex), ex.id) for ex in live])))
        # The rule checks build their own positions: code only.
        [rule_cases] = report.run_units(
            "rules.checked", "Every rule sentence checked against the app's engine and the independent one",
            [(key("rules.checked", RULE_CODE, BRIDGE), lambda: check_rules([AppSide(app), IndependentSide()]))])
        # The survey checks read the survey cache's files (and the ranges and pool size, in
        # verify/settings.py, part of their code); read once, only when one of them runs.
        survey_key = dict(read=survey_files)
        cache_read = []

        def records():
            if not cache_read:
                cache_read.append(read_cache())
            return cache_read[0]

        [survey] = report.run_units(
            "survey.checked", "The survey's figures and New game's pool, every game replayed again",
            [(key("survey.checked", SURVEY_CODE, SURVEY_WORKER, **survey_key), lambda: check_survey(cache=records()))])
        report.run_units(
            "survey.redecided", "Every lost deal of the survey decided again by the app's decider and the "
            "independent one", [(key("survey.redecided", SURVEY_CODE, SURVEY_WORKER, **survey_key),
                                 lambda: check_losses(records()))])
        if report.problems:
            raise all_of(report.problems)
    except VerifyError as e:
        e.add_note("No bundle written.")
        raise

    bundle = {
        "schema": BUNDLE_SCHEMA,
        "verified_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "inputs": fingerprint(input_files(examples_dir)),
        "input_patterns": list(BUNDLE_INPUTS),
        "rules": constants,
        "rule_checks": rule_cases,
        "checks": report.checks,
        "examples": [_example_entry(ex, replays[ex.id], searches[ex.id]) for ex in examples],
        "survey": survey["survey"],
        "variants": survey["variants"],
    }
    try:
        write_atomically(out, bundle)
    except OSError as e:
        error = InputError(f"--out {out}: cannot be written ({e.strerror})")
        error.add_note("No bundle written.")
        raise error from None
    cache.prune()
    if use_cache:
        print(f"  {report.ran} of {report.units} results computed now, the rest from {_shown(CHECK_CACHE)}/ "
              "(verify check --no-cache computes all)")
    print(f"All checks passed. Bundle written to {out}.")
    return 0


def _example_entry(ex, replay: dict, search: dict) -> dict:
    return {
        "id": ex.id,
        "deal": ex.deal,
        "file": str(ex.path),
        "order": ex.order,
        "draft": ex.draft,
        "title": ex.texts.get("title", {}),
        "summary": ex.texts.get("summary", {}),
        # Where each title and summary stands, for the generator's lint ("title.nb" → line).
        "lines": {f"{key}.{code}": ex.lines[f"{key}.{code}"] for key, texts in ex.texts.items() for code in texts},
        "opening": replay["opening"],
        # The file each language's texts are written in (docs/<lang>/examples/<id>.yml), and each
        # note's line there: the lint names the file and line a translator edits.
        "text_files": {code: _shown(file) for code, file in ex.text_files.items()},
        "steps": [{"number": i + 1, "move": app_move, "notes": m.notes, "line": m.line, "position": pos,
                   "note_lines": {code: line for code, (_, line) in m.note_places.items()}}
                  for i, (m, app_move, pos) in enumerate(zip(ex.game, _canonical(ex), replay["steps"]))],
        "final": ex.final,
        "search": {k: search[k] for k in ("max_removed", "shortest", "winnable", "solvers")},
    }


def _canonical(ex) -> list[str]:
    from .independent import rules

    return [rules.format_move(rules.parse_move(m.text)) for m in ex.game]


def out_problem(out: Path) -> str | None:
    """Why the bundle cannot be written to `out`, or None: it must be a file name whose folder
    is (or can be made) a folder."""
    if out.is_dir():
        return "is a folder; give the bundle's file name, e.g. build/verified.json"
    folder = next((p for p in out.parents if p.exists()), None)
    if folder is not None and not folder.is_dir():
        return f"{folder} is a file, not a folder"
    return None


def write_atomically(path: Path, data: dict) -> None:
    """Writes data as JSON to path: a temporary file beside it, then a rename, so a reader sees the
    old file or the whole new one; the temporary file is removed when writing fails. OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # per process: two runs never share it
    try:
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
