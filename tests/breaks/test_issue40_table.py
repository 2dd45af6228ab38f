"""Issue 40's closing table (tests/breaks/issue40.yml): each break the issue names, how it is held
and the tests that hold it. The table is checked, not trusted: every test it names must be one
pytest collects (one `--collect-only` run over the files it names), and every break needs one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import strict_yaml

ROOT = Path(__file__).resolve().parents[2]
BREAKS = strict_yaml.load(Path(__file__).with_name("issue40.yml"))["breaks"]
KINDS = ("severe", "medium", "low")
HELD = {"refused": "says", "harmless": "now"}  # each way of holding a break and the field that shows it
OLD_MAIN = ("fails", "cannot run")


@pytest.fixture(scope="module")
def collected() -> list[str]:
    files = sorted({entry["test"].split("::")[0] for b in BREAKS for entry in b["tests"]})
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return [line for line in r.stdout.splitlines() if "::" in line]


def test_each_break_is_named_once_ranked_and_says_how_it_is_held():
    ids = [b["id"] for b in BREAKS]
    assert len(ids) == len(set(ids)), f"an id given twice: {sorted({i for i in ids if ids.count(i) > 1})}"
    for b in BREAKS:
        assert b["kind"] in KINDS, b["id"]
        assert b["break"].strip().endswith((".", ")")), f"{b['id']}: the break in one sentence"
        assert b["how"] in HELD and b[HELD[b["how"]]].strip(), f"{b['id']}: refused with its line, or harmless and how"
        assert b["old_main"].startswith(OLD_MAIN), f"{b['id']}: old_main starts with one of {OLD_MAIN}"


def test_the_severe_breaks_come_first_then_medium_then_low():
    ranks = [KINDS.index(b["kind"]) for b in BREAKS]
    assert ranks == sorted(ranks)


@pytest.mark.parametrize("held", BREAKS, ids=[b["id"] for b in BREAKS])
def test_each_break_is_held_by_tests_that_exist(held, collected):
    assert held["tests"], f"{held['id']}: no test holds it"
    for entry in held["tests"]:
        test, case = entry["test"], entry.get("case")
        found = [node for node in collected if node == test or node.startswith(test + "[")]
        assert found, f"{held['id']}: {test} is not a test pytest collects"
        if case is not None:
            assert any(case in node[len(test):] for node in found), \
                f"{held['id']}: no case of {test} has {case!r} in its id"
