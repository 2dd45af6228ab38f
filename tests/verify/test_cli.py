"""The command line: output formats, and clear errors with non-zero exits for bad input."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "data" / "golden_deals.json").read_text())


def run(*args):
    return subprocess.run([sys.executable, "-m", "verify", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_deal_json_matches_golden():
    r = run("deal", "1000", "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout) == GOLDEN["1000"]


def test_deal_for_people_shows_rows_waste_and_stock():
    r = run("deal", "1")
    assert r.returncode == 0
    assert "row 7:" in r.stdout and "waste (1)" in r.stdout and "stock (23" in r.stdout
    assert GOLDEN["1"]["pyramid"][0] in r.stdout.splitlines()[1]


def test_play_json():
    r = run("play", "1", "king kd", "KING KS", "draw", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"pyramid", "stock", "waste", "turns_left", "points", "moves", "status"}
    assert out["points"] == 10 and out["moves"] == 3 and out["status"] == "playing"
    assert out["pyramid"][23] is None and len(out["stock"]) == 22


@pytest.mark.parametrize("args, message", [
    (("deal", "0"), "deal number must be a whole number from 1 to 4294967295, got '0'"),
    (("deal", "-5"), "got '-5'"),
    (("deal", "4294967296"), "got '4294967296'"),
    (("deal", "1.5"), "got '1.5'"),
    (("deal", "seven"), "got 'seven'"),
    (("play", "1", "draw", "pair 7H 6S"), "move 2 'pair 7H 6S' is illegal: 7H is in the stock, not available (rule free.covered)"),
    (("play", "1", "pair ZZ 6S"), "move 1 'pair ZZ 6S' is illegal"),
    (("play", "1", "jump"), "move 1 'jump' is illegal"),
    (("play", "1", "turn"), "(rule turn.when)"),
    (("play", "1", "pair 9H 4H", "pair 9H 4H"), "move 2 'pair 9H 4H' is illegal: 9H is not in play"),
])
def test_bad_input_is_refused_clearly(args, message):
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert r.stdout == ""


def test_solve_both_solvers_agree_json():
    r = run("solve", "25", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["agree"] is True and out["deal"] == 25
    assert out["solvers"]["app"]["max_removed"] == out["solvers"]["independent"]["max_removed"] == out["max_removed"]
    assert out["solvers"]["app"]["shortest"] == out["solvers"]["independent"]["shortest"] == len(out["game"])


def test_solve_a_saved_position(tmp_path):
    pos = {"pyramid": [None] * 21 + ["6H", "7S", "KC", None, None, None, None], "stock": ["QD"], "waste": ["AC"],
           "turns_left": 0, "points": 0, "moves": 0}
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    r = run("solve", "--position", str(f), "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert (out["max_removed"], out["shortest"]) == (3, 2)
    bad = tmp_path / "bad.json"
    bad.write_text('{"pyramid": [1,\n')
    r = run("solve", "--position", str(bad))
    assert r.returncode == 2 and "bad.json, line 2" in r.stderr


@pytest.mark.parametrize("args, message", [
    (("deal", "١٢"), "got '\\u0661\\u0662'"),
    (("deal", "7\x07"), "got '7\\x07'"),
    (("deal", "9" * 5000), "(5000 characters)"),
    (("play", "7", "king\ufeffKS"), "move 1 'king\\ufeffKS' is illegal"),
    (("play", "7", "king Kſ"), "move 1 'king K\\u017f' is illegal"),
    (("survey", "--deals", "1_0-2_0"), "--deals wants a range like 1-10000"),
    (("survey", "--jobs", "-1"), "argument --jobs: wants a whole number from 1"),
    (("solve", "--position", "tests"), "tests: is a folder, not a position file"),
    (("check", "--out", "tests"), "--out tests: is a folder"),
    (("deal",), "the following arguments are required: number"),
])
def test_odd_input_is_one_line_and_exit_2(args, message):
    r = run(*args)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith("error: ") and len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
    assert message in r.stderr, r.stderr
