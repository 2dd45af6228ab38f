"""`make verify`: every check, then the verified data bundle — and nothing when a check fails.

Like mkdocs' build, it gathers everything first (checks run, results collected in memory) and
writes once at the end, atomically, so a failed run leaves no new file behind.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

from .app import AppEngine
from .checks import Checked
from .checks.engines import AppSide, IndependentSide
from .checks.example_checks import check_constants, check_deals, check_games, check_search
from .checks.note_checks import check_notes, example_games, notes_of
from .checks.rule_checks import check_rules
from .checks.survey_checks import check_losses, check_survey, read_cache
from .errors import InputError, VerifyError
from .examples import load_examples
from .settings import BUNDLE_SCHEMA, ROOT


def input_files(examples_dir: Path) -> list[Path]:
    """What the bundle is made from: the examples, the app's code, and the list of languages
    (every note must exist in each). The generator re-hashes these."""
    return sorted(examples_dir.glob("*.yaml")) + sorted((ROOT / "docs").glob("*/examples/*.yml")) + \
        sorted((ROOT / "app").glob("*.js")) + [ROOT / "docs" / "languages.yml"]


def fingerprint(paths: list[Path]) -> dict[str, str]:
    return {_shown(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def _shown(path: Path) -> str:
    """Inside the project: relative to its root (the bundle stays valid in another clone)."""
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(resolved)


class Report:
    """One line per check with what it counted, printed as the checks run."""

    def __init__(self):
        self.checks = []

    def run(self, check_id: str, title: str, check, *args):
        """check(*args), a Checked: its counts are recorded and printed, its data returned."""
        started = time.monotonic()
        checked = check(*args)
        seconds = round(time.monotonic() - started, 3)
        counts = checked.counts
        self.checks.append({"id": check_id, "title": title, "counts": counts, "seconds": seconds, "passed": True})
        shown = ", ".join(f"{k.replace('_', ' ')} {v:,}" if isinstance(v, int) else f"{k.replace('_', ' ')} {v}"
                          for k, v in counts.items())
        print(f"  ok  {check_id:<20} {shown}  ({seconds:.1f} s)", flush=True)
        return checked.data


def read_examples(examples_dir: Path) -> Checked:
    """The example files, read and complete (examples.ExampleError otherwise)."""
    examples = load_examples(examples_dir)
    return Checked({"files": len(examples), "moves": sum(len(ex.game) for ex in examples)}, examples)


def run(args, app: AppEngine) -> int:
    examples_dir = Path(args.examples)
    out = Path(args.out)
    problem = out_problem(out)
    if problem:  # said before the checks run, not after ten minutes of them
        raise InputError(f"--out {out}: {problem}")
    print(f"Checking the examples in {examples_dir}/ and the app's rules…", flush=True)
    report = Report()
    try:
        examples = report.run("examples.read", "Example files read and complete", read_examples, examples_dir)
        for warning in (w for ex in examples for w in ex.warnings):  # optional words not written yet
            print(f"  warning: {warning}", flush=True)  # stdout, beside the checks: stderr is for what stops it
        constants = report.run("rules.constants", "Rule constants read from the app's code equal the independent engine's",
                               check_constants, app)
        report.run("deal.regenerated", "Deals regenerated from their numbers in both engines; 52 cards, 28 + 23 + 1",
                   check_deals, app, examples)
        replays = report.run("game.replayed", "Every shown move replayed in both engines; final figures compared",
                             check_games, app, examples)
        report.run("notes.true", "Every note on a move is true of its position: cards, places, the move, counts",
                   check_notes, notes_of(examples), example_games(app, examples, replays))
        searches = report.run("search.exact", "Both exact solvers agree, the files state their answer, the games are shortest",
                              check_search, app, examples)
        rule_cases = report.run("rules.checked", "Every rule sentence checked against the app's engine and the independent one",
                                check_rules, [AppSide(app), IndependentSide()])
        cache = read_cache()  # once: both survey checks judge the records the bundle is made from
        survey = report.run("survey.checked", "The survey's figures and New game's pool, every game replayed again",
                            lambda: check_survey(cache=cache))
        report.run("survey.redecided", "Every lost deal of the survey decided again by the app's decider and the "
                   "independent one", check_losses, cache)
    except VerifyError as e:
        e.add_note("No bundle written.")
        raise

    bundle = {
        "schema": BUNDLE_SCHEMA,
        "verified_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "inputs": fingerprint(input_files(examples_dir)),
        "rules": constants,
        "rule_checks": rule_cases,
        "checks": report.checks,
        "examples": [_example_entry(app, ex, replays[ex.id], searches[ex.id]) for ex in examples],
        "survey": survey["survey"],
        "variants": survey["variants"],
    }
    try:
        write_atomically(out, bundle)
    except OSError as e:
        error = InputError(f"--out {out}: cannot be written ({e.strerror})")
        error.add_note("No bundle written.")
        raise error from None
    print(f"All checks passed. Bundle written to {out}.")
    return 0


def _example_entry(app: AppEngine, ex, steps: list[dict], search: dict) -> dict:
    return {
        "id": ex.id,
        "deal": ex.deal,
        "file": str(ex.path),
        "order": ex.order,
        "draft": ex.draft,
        "title": ex.texts.get("title", {}),
        "summary": ex.texts.get("summary", {}),
        # Where each title and summary stands, for the generator's lint ("title.nb" → line).
        "lines": {f"{key}.{code}": ex.lines.get(f"{key}.{code}", ex.lines.get(key, 1))
                  for key, texts in ex.texts.items() for code in texts},
        "opening": app.opening(ex.deal),
        # The file each language's texts are written in (docs/<lang>/examples/<id>.yml), and each
        # note's line there: the lint names the file and line a translator edits.
        "text_files": {code: _shown(file) for code, file in ex.text_files.items()},
        "steps": [{"number": i + 1, "move": app_move, "notes": m.notes, "line": m.line, "position": pos,
                   "note_lines": {code: line for code, (_, line) in m.note_places.items()}}
                  for i, (m, app_move, pos) in enumerate(zip(ex.game, _canonical(ex), steps))],
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
