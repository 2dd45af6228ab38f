"""`make survey` (and so `make verify`) says the whole survey in one progress line
(verify/survey/progress.py): a tqdm bar on a terminal, a few plain lines elsewhere, one bar over
the standard rules and every variant (`verify survey --all`), never a block per variant."""
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verify.independent.variants import VARIANTS
from verify.survey import progress
from verify.survey.cache import cache_dir
from verify.survey.progress import Progress

ROOT = Path(__file__).resolve().parents[3]


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Log(io.StringIO):
    def isatty(self):
        return False


def two_surveys(bar: Progress) -> None:
    bar.part("survey standard 1-100")
    bar.show(50, 20)
    bar.show(100, 40)
    bar.part("survey strict 1-200")
    bar.show(200, 10)
    bar.close(7)


def test_on_a_terminal_one_bar_spans_every_survey(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Terminal())
    two_surveys(Progress("survey", 300))
    said = sys.stderr.getvalue()
    assert said.count("\n") == 1 and said.endswith("\n")  # one line, redrawn with \r
    last = said.rsplit("\r", 1)[-1]
    assert "300/300" in last and "100%" in last and "50 won, 7 decided now" in last


def test_elsewhere_the_last_line_only_when_it_is_quick(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Log())
    two_surveys(Progress("survey", 300))
    lines = sys.stderr.getvalue().splitlines()
    assert len(lines) == 1 and "\r" not in sys.stderr.getvalue()
    assert lines[0].startswith("survey: 300/300 deals, 50 won, 7 decided now (the rest from the cache), ")


def test_elsewhere_a_line_every_log_interval(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Log())
    monkeypatch.setattr(progress, "LOG_SECONDS", 0.0)
    two_surveys(Progress("survey", 300))
    lines = sys.stderr.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == ["survey: 50/300 deals", "survey: 100/300 deals",
                                                      "survey: 300/300 deals", "survey: 300/300 deals"]


def test_quiet_says_nothing(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Log())
    two_surveys(Progress("survey", 300, enabled=False))
    assert sys.stderr.getvalue() == ""


def test_make_survey_runs_one_survey_command():
    dry = subprocess.run(["make", "-n", "-o", ".venv/.installed-stamp", "survey"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    commands = [line for line in dry.stdout.splitlines() if "-m verify" in line]
    assert dry.returncode == 0 and commands == [".venv/bin/python -m verify survey --all"], dry.stdout


def verify_survey(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "verify", "survey", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("other", [["--deals", "1-5"], ["--variant", "strict"], ["--json"]])
def test_all_takes_no_range_variant_or_listing(other):
    r = verify_survey("--all", *other)
    assert r.returncode == 2 and r.stderr.startswith("error: --all runs the whole survey") and r.stdout == ""


def test_the_whole_survey_is_one_line_and_no_summary():
    if not all(cache_dir(v).is_dir() for v in VARIANTS):
        pytest.skip("no survey cache for every variant: run `make survey` first (the test must not compute it)")
    r = verify_survey("--all")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "" and len(r.stderr.splitlines()) == 1
    total = 10_000 + 2_000 * (len(VARIANTS) - 1)
    assert r.stderr.startswith(f"survey: {total:,}/{total:,} deals, ")
