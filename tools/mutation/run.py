"""`make mutation [MODULE=name]`: mutation testing of the modules in tools/mutation/modules.toml,
each against its own test files. Python modules go to mutmut 2 (state in .mutmut-cache: a killed
mutant stays killed, a survivor is tried again once the tests change), JavaScript modules to
Stryker (pinned in tools/stryker/, incremental file in build/mutation/). A second run only tries
what is new. Prints each module's score and its surviving mutants; exits 1 when a module is
under 90 % (equivalent mutants left out), 2 on a bad module name.

mutmut 2 mutates the file in place and puts it back after each mutant; a copy of every file is
kept in build/mutation/pristine/ first, and put back here if a run was killed half way."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tools" / "mutation" / "modules.toml"
STATE = ROOT / "build" / "mutation"
PRISTINE = STATE / "pristine"
MUTMUT_CACHE = ROOT / ".mutmut-cache"
STRYKER = ROOT / "tools" / "stryker" / "node_modules" / "@stryker-mutator" / "core" / "bin" / "stryker.js"
GOAL = 0.90
KILLED = {"ok_killed", "bad_timeout", "ok_suspicious"}  # a timeout is a mutant the tests stopped


def load_modules(path: Path = CONFIG) -> dict[str, dict]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def restore_pristine() -> None:
    """Put back any file a killed mutmut run left mutated."""
    if not PRISTINE.exists():
        return
    for copy in PRISTINE.rglob("*.py"):
        source = ROOT / copy.relative_to(PRISTINE)
        if source.read_bytes() != copy.read_bytes():
            print(f"mutation: {source.relative_to(ROOT)} was left mutated by a stopped run; put back")
            shutil.copy2(copy, source)
    shutil.rmtree(PRISTINE)


LOCK = STATE / "run.pid"


def take_lock() -> str | None:
    """None once this process holds the run (one at a time: mutmut mutates files in place), else why not."""
    STATE.mkdir(parents=True, exist_ok=True)
    if LOCK.exists():
        try:
            os.kill(int(LOCK.read_text()), 0)
            return f"{LOCK.relative_to(ROOT)}: make mutation is already running (process {LOCK.read_text()})"
        except (ProcessLookupError, ValueError):
            pass
    LOCK.write_text(str(os.getpid()))
    return None


def run_mutmut(name: str, module: dict) -> None:
    for path in module["mutate"]:
        (PRISTINE / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, PRISTINE / path)
    # Through pytest_verdict.py: mutmut 2 calls a mutant killed only on exit code 1, and a mutant
    # that breaks the import makes pytest exit 2.
    runner = " ".join([sys.executable, str(ROOT / "tools" / "mutation" / "pytest_verdict.py"), "-x", "-q",
                       "-p", "no:xdist", "-p", "no:cacheprovider", *module["tests"]])
    # Without the plugins' autoload (Playwright's, xdist's…) pytest starts in a tenth of the time,
    # which is most of what one mutant costs; no test file of a module here needs one.
    # A module's own `env` (modules.toml) comes on top: NUMBA_DISABLE_JIT for a numba module,
    # whose every mutant would otherwise be compiled again (about a minute each here).
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **module.get("env", {})}
    # mutmut applies each mutant in a process of its own: the whole group is stopped before the
    # files are put back, so that no straggler mutates one again afterwards.
    command = [sys.executable, "-m", "mutmut", "run", "--paths-to-mutate", ",".join(module["mutate"]),
               "--runner", runner, "--tests-dir", "tests", "--simple-output"]
    mutmut = None
    try:
        left = None
        for attempt in range(1, RESTARTS + 2):
            mutmut = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
            finished = _wait_while_busy(mutmut, module)
            _stop_group(mutmut)
            before, untested = left, [m["id"] for m in mutmut_results(module) if m["status"] == "untested"]
            left = len(untested)
            # Stalled twice with the same mutants untested: the batch run hangs on them (it did on
            # bundle_schema.py's), so they too are run one by one below.
            if (finished and (not left or left == before)) or (not finished and left == before):
                # mutmut 2 reads a line's cached results by its text, so of two lines alike
                # ("walk(item)" twice) the second is never tried again, or never tried at all:
                # each mutant left untested or not tried against these tests is run on its own
                # (mutmut run ID ignores the cache).
                from mutmut.cache import hash_of_tests
                tests_now = hash_of_tests([str(ROOT / "tests")])
                for mutant_id in [m["id"] for m in mutmut_results(module) if m["status"] not in KILLED
                                  and m["tested"] != tests_now]:
                    mutmut = subprocess.Popen(command[:4] + [str(mutant_id)] + command[4:], cwd=ROOT, env=env,
                                              start_new_session=True)
                    mutmut.wait()
                return
            if attempt > RESTARTS:
                return
            # mutmut 2's worker dies when a test file is written during the run ("Attribute
            # Mutant.line is required") and its main process then waits for ever: what is done is in the cache,
            # so the run starts again and goes on where it stopped.
            print(f"mutation: mutmut {'stopped' if finished else 'stalled'} with {left} mutants untested; "
                  f"starting again ({attempt} of {RESTARTS})", flush=True)
            _put_back(module)
    finally:
        if mutmut is not None:
            _stop_group(mutmut)
        restore_pristine()


RESTARTS = 10
STALL_SECONDS = 600  # no mutant's result for this long: beyond mutmut's own timeout of a looping mutant (ten times the baseline, past 200 s on a busy machine)


def _wait_while_busy(mutmut: subprocess.Popen, module: dict) -> bool:
    """True once mutmut ends; False when no mutant got a result for STALL_SECONDS."""
    done, since = -1, time.monotonic()
    while True:
        try:
            mutmut.wait(timeout=15)
            return True
        except subprocess.TimeoutExpired:
            now = sum(m["status"] != "untested" for m in mutmut_results(module))
            if now != done:
                done, since = now, time.monotonic()
            elif time.monotonic() - since > STALL_SECONDS:
                return False


def _stop_group(mutmut: subprocess.Popen) -> None:
    if mutmut.poll() is None:
        os.killpg(mutmut.pid, signal.SIGKILL)
        mutmut.wait()


def _put_back(module: dict) -> None:
    for path in module["mutate"]:
        shutil.copy2(PRISTINE / path, ROOT / path)


def mutmut_results(module: dict) -> list[dict]:
    """Every mutant of the module's files: file, line number, line text, index, status."""
    if not MUTMUT_CACHE.exists():
        return []
    db = sqlite3.connect(MUTMUT_CACHE)
    rows = db.execute(
        "SELECT m.id, s.filename, l.line_number, l.line, m.\"index\", m.status, m.tested_against_hash FROM Mutant m "
        "JOIN Line l ON m.line = l.id JOIN SourceFile s ON l.sourcefile = s.id").fetchall()
    wanted = set(module["mutate"])
    return [dict(id=i, file=f, line=n + 1, text=t, index=x, status=st, tested=h)
            for i, f, n, t, x, st, h in rows if f in wanted]


def mutmut_diff(mutant_id: int) -> str:
    shown = subprocess.run([sys.executable, "-m", "mutmut", "show", str(mutant_id)], cwd=ROOT,
                           capture_output=True, text=True).stdout
    return "\n".join(l for l in shown.splitlines() if l.startswith(("-", "+")) and not l.startswith(("---", "+++")))


def tests_digest(module: dict) -> str:
    digest = hashlib.sha256()
    for test in module["tests"]:
        digest.update((ROOT / test).read_bytes())
    return digest.hexdigest()[:12]


def run_stryker(name: str, module: dict) -> Path:
    STATE.mkdir(parents=True, exist_ok=True)
    report = STATE / f"stryker-{name}.json"
    node = subprocess.run([sys.executable, "-c", "from verify.app import find_node; print(find_node())"],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    config = {
        "mutate": module["mutate"],
        "testRunner": "command",
        # The command runner has no per-test coverage: every mutant runs the module's test files.
        "commandRunner": {"command": " ".join([node, "--test", *module["tests"]])},
        "coverageAnalysis": "off",
        "incremental": True,
        # Keyed by the test files' digest: the command runner cannot tell which tests changed, so
        # new tests start afresh, and the same tests resume where the last run stopped.
        "incrementalFile": str((STATE / f"stryker-{name}-{tests_digest(module)}.incremental.json").relative_to(ROOT)),
        "reporters": ["clear-text", "json", "progress-append-only"],
        "jsonReporter": {"fileName": str(report.relative_to(ROOT))},
        "clearTextReporter": {"allowColor": False, "logTests": False, "reportScoreTable": True},
        "concurrency": 1,
        "tempDirName": str((STATE / ".stryker-tmp").relative_to(ROOT)),
        # The sandbox copies only what the JS tests read: the app, docs/, the JS tests and their data.
        "ignorePatterns": ["/*", "!/app", "!/tests", "/tests/*", "!/tests/app", "/tests/app/*", "!/tests/app/core", "!/tests/app/ui", "!/tests/data", "!/docs"],
        # A mutant that loops for ever is stopped this long after the tests' own time.
        "timeoutMS": 5000,
    }
    path = STATE / f"stryker-{name}.conf.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    env = {**os.environ, "PATH": f"{Path(node).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run([node, str(STRYKER), "run", str(path.relative_to(ROOT))], cwd=ROOT, env=env)
    return report


def line_ranges(mutate: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Stryker's "file" or "file:from-to" entries as {file: [(from, to)]} (a whole file: 1 … ∞)."""
    ranges: dict[str, list[tuple[int, int]]] = {}
    for entry in mutate:
        file, _, lines = entry.partition(":")
        first, _, last = lines.partition("-")
        ranges.setdefault(file, []).append((int(first), int(last)) if lines else (1, sys.maxsize))
    return ranges


def stryker_results(name: str, module: dict) -> list[dict]:
    """The module's mutants in Stryker's JSON report: an incremental run keeps the results of
    earlier runs' lines too, so only the lines the module asks for count."""
    report = STATE / f"stryker-{name}.json"
    if not report.exists():
        return []
    data = json.loads(report.read_text(encoding="utf-8"))
    ranges = line_ranges(module["mutate"])
    out = []
    for file, entry in data["files"].items():
        lines = entry["source"].splitlines()
        for m in entry["mutants"]:
            if m["status"] in ("Ignored", "CompileError", "RuntimeError"):
                continue  # outside the lines asked for, or no valid program: not in Stryker's score either
            status = {"Killed": "ok_killed", "Timeout": "bad_timeout", "Survived": "bad_survived",
                      "NoCoverage": "bad_survived"}.get(m["status"], m["status"].lower())
            line = m["location"]["start"]["line"]
            if not any(first <= line <= last for first, last in ranges.get(file, [])):
                continue
            out.append(dict(id=m["id"], file=file, line=line, text=lines[line - 1], index=0, status=status,
                            replacement=m.get("replacement", m["mutatorName"])))
    return out


def is_equivalent(mutant: dict, module: dict, diff: str) -> str | None:
    """Why the mutant is equivalent, or None. An entry names the file, the line's text and what it
    becomes; `at` (the line's number) as well when the same text is on more lines than one."""
    for eq in module.get("equivalent", []):
        if (eq["file"] == mutant["file"] and eq["line"] == mutant["text"].strip() and eq["becomes"] in diff
                and ("at" not in eq or eq["at"] == mutant.get("line"))):
            return eq["why"]
    return None


def report(name: str, module: dict, minutes: float | None) -> bool:
    results = mutmut_results(module) if module["tool"] == "mutmut" else stryker_results(name, module)
    tested = [m for m in results if m["status"] not in ("untested", "skipped")]
    survivors, equivalent = [], []
    for m in tested:
        if m["status"] in KILLED:
            continue
        diff = mutmut_diff(m["id"]) if module["tool"] == "mutmut" else f"+ {m['replacement']}"
        why = is_equivalent(m, module, diff)
        (equivalent if why else survivors).append((m, diff, why))
    killed = len(tested) - len(survivors) - len(equivalent)
    counted = killed + len(survivors)
    score = killed / counted if counted else 0.0
    took = f", {minutes:.1f} min" if minutes is not None else ""
    print(f"\n== {name}: {len(results)} mutants, {len(tested)} tested, {killed} killed, {len(survivors)} survived, "
          f"{len(equivalent)} equivalent: score {score:.1%}{took}")
    for m, diff, _ in survivors:
        print(f"  survived #{m['id']} {m['file']}:{m['line']}\n    {diff.replace(chr(10), chr(10) + '    ')}")
    for m, _, why in equivalent:
        print(f"  equivalent {m['file']}:{m['line']}: {why}")
    return bool(counted) and score >= GOAL and len(tested) == len(results)


def main(argv: list[str]) -> int:
    modules = load_modules()
    names = argv or list(modules)
    unknown = [n for n in names if n not in modules]
    if unknown:
        print(f"error: {CONFIG.relative_to(ROOT)}: no module {', '.join(unknown)} "
              f"(there are: {', '.join(modules)})", file=sys.stderr)
        return 2
    report_only = os.environ.get("MUTATION_REPORT_ONLY") == "1"
    # Only mutmut mutates files in place; Stryker works in a sandbox copy and may run beside it.
    in_place = not report_only and any(modules[n]["tool"] == "mutmut" for n in names)
    if in_place:
        taken = take_lock()
        if taken:
            print(f"error: {taken}", file=sys.stderr)
            return 2
        restore_pristine()
    ok = True
    try:
        for name in names:
            module = modules[name]
            minutes = None
            if not report_only:
                start = time.monotonic()
                (run_mutmut if module["tool"] == "mutmut" else run_stryker)(name, module)
                minutes = (time.monotonic() - start) / 60
            ok = report(name, module, minutes) and ok
    finally:
        if in_place:
            LOCK.unlink(missing_ok=True)
    return 0 if ok else 1


def _stop(signum, frame):
    raise KeyboardInterrupt  # so that the finally blocks put the mutated files back


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)
    raise SystemExit(main(sys.argv[1:]))
