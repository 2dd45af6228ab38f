"""The app's JavaScript unit tests (tests/app/core/ and tests/app/ui/ *.test.mjs, node:test), one file per pytest test so
that they run beside the Python tests on every core instead of before them. A file passes only
when its tests ran and all passed: a file that registers no test, or skips one, is refused."""
import re
import subprocess
from pathlib import Path

import pytest

from verify.app import find_node

JS_TESTS = sorted(p for folder in ("core", "ui") for p in (Path(__file__).resolve().parent / folder).glob("*.test.mjs"))
COUNT = re.compile(r"^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$", re.M)


def js_problem(path: Path) -> str | None:
    """Why the file's tests do not count as passed, or None. The file runs in Node's own process
    (no --test, which would report a file without tests as one passing test named after it),
    with the TAP reporter, whose closing counts say how many tests ran."""
    r = subprocess.run([find_node(), "--test-reporter=tap", str(path)], capture_output=True, text=True, timeout=1200)
    counts = {name: int(n) for name, n in COUNT.findall(r.stdout)}
    failed = [line for line in r.stdout.splitlines() if line.lstrip().startswith("not ok")]
    if r.returncode != 0 or counts.get("fail", 0):
        return f"{path.name}: {len(failed)} failed\n" + "\n".join(failed) + "\n" + r.stdout[-4000:] + r.stderr[-2000:]
    if not counts.get("tests"):
        return f"{path.name}: no test ran\n{r.stdout[-1000:]}{r.stderr[-1000:]}"
    if counts["pass"] != counts["tests"]:
        return f"{path.name}: {counts['pass']} of {counts['tests']} passed ({counts})"
    return None


def test_every_js_test_file_is_found():
    assert {p.name for p in JS_TESTS} >= {"engine.test.mjs", "decider.test.mjs", "solver.test.mjs", "storage.test.mjs"}


@pytest.mark.parametrize("path", JS_TESTS, ids=lambda p: p.name)
def test_js_unit_tests_pass(path):
    problem = js_problem(path)
    assert problem is None, problem


@pytest.mark.parametrize("body, problem", [
    ('import { test } from "node:test";\n', "no test ran"),
    ('import { test } from "node:test";\ntest("a", () => {});\ntest("b", { skip: true }, () => {});\n', "1 of 2 passed"),
    ('import { test } from "node:test";\ntest("a", () => { throw new Error("no"); });\n', "1 failed"),
])
def test_a_file_without_tests_or_with_a_skipped_or_failed_one_is_refused(tmp_path, body, problem):
    path = tmp_path / "x.test.mjs"
    path.write_text(body, encoding="utf-8")
    assert problem in js_problem(path)


def test_node_alone_counts_a_file_without_tests_as_passed_so_make_test_js_runs_this_file(tmp_path):
    """Why `make test-js` goes through js_problem: `node --test` passes a file with no test."""
    path = tmp_path / "empty.test.mjs"
    path.write_text('import { test } from "node:test";\n', encoding="utf-8")
    assert subprocess.run([find_node(), "--test", str(path)], capture_output=True, text=True).returncode == 0
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test-js: .*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert recipe.strip() == "$(PY) -m pytest -q -n auto tests/app/test_js_units.py", recipe
    assert "--test" not in recipe
