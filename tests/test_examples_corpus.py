"""Broken example files: each gives its exact error, a non-zero exit, and no bundle."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "data" / "broken_examples"

# file → (exit code, the error after "<path>" in the first line of stderr)
EXPECTED = {
    "illegal_move": (1, ", line 12, move 2 'pair 7D 4S': the values add up to 11, not 13 (rule pair.thirteen)"),
    "card_not_available": (1, ", line 12, move 2 'pair 7D 6S': 6S is covered by 3C and KH (rule free.covered)"),
    "card_removed": (1, ", line 13, move 3 'pair 7D 6C': 7D is not in play (removed, or not in this deal) (rule removed.gone)"),
    "unknown_code": (1, ", line 12, move 2 'pair 7X 6C': '7X' is not a card code (rank A 2-9 T/10 J Q K, then suit S H D C)"),
    "wrong_points": (1, ", line 67: final.points is 520, but replaying the game gives 515 (both engines)"),
    "wrong_moves": (1, ", line 68: final.moves is 50, but replaying the game gives 51 (both engines)"),
    "wrong_stock": (1, ", line 65: final.stock is 9, but replaying the game gives 8 (both engines)"),
    "wrong_waste": (1, ", line 66: final.waste is 5, but replaying the game gives 6 (both engines)"),
    "wrong_cards_removed": (1, ", line 64: final.cards_removed is 40, but replaying the game gives 38 (both engines)"),
    "wrong_pyramid_removed": (1, ", line 63: final.pyramid_removed is 27, but replaying the game gives 28 (both engines)"),
    "wrong_status": (1, ", line 69: final.status is 'stuck', but replaying the game gives 'won' (both engines)"),
    "wrong_opening": (1, ", line 8: opening.stock is 24, but deal 27 lays out 23 (rule deal.layout)"),
    "wrong_max_removed": (1, ", line 71: search.max_removed is 27, but both solvers find 28"),
    "wrong_shortest": (1, ", line 72: search.shortest is 50, but both solvers find 51"),
    "wrong_winnable": (1, ", line 73: search.winnable is False, but both solvers find True"),
    "game_longer_than_shortest": (1, ", line 10: the shown game has 68 moves, but the shortest game removing 27 pyramid cards has 67 (search.shortest)"),
    "deal_out_of_range": (1, ", line 5: deal number must be a whole number from 1 to 4294967295, got 0 (rule deal.layout)"),
    "yaml_syntax": (2, ", line 12: not valid YAML (mapping values are not allowed here)"),
    "missing_field": (2, ": missing field 'final'"),
    "empty": (2, ": the file is empty; an example needs id, deal, game, opening, final and search"),
}


def check(folder: Path):
    out = folder / "bundle" / "verified.json"
    r = subprocess.run([sys.executable, "-m", "verify", "check", "--examples", str(folder), "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    return r, out


def test_the_corpus_is_complete():
    assert {p.stem for p in BROKEN.glob("*.yaml")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_example_gives_its_error(tmp_path, name):
    shutil.copy(BROKEN / f"{name}.yaml", tmp_path)
    r, out = check(tmp_path)
    code, message = EXPECTED[name]
    first = r.stderr.splitlines()[0]
    assert r.returncode == code, r.stderr
    assert first.endswith(f"{tmp_path / name}.yaml{message}"), first
    assert "No bundle written." in r.stderr
    assert not out.exists()


def test_duplicate_id(tmp_path):
    for name in ("a", "b"):
        shutil.copy(ROOT / "examples" / "winnable.yaml", tmp_path / f"{name}.yaml")
    r, out = check(tmp_path)
    assert r.returncode == 2
    assert f"{tmp_path / 'b.yaml'}, line 4: id 'winnable' is already used by {tmp_path / 'a.yaml'}" in r.stderr
    assert not out.exists()


def test_good_examples_write_a_bundle(tmp_path):
    for p in (ROOT / "examples").glob("*.yaml"):
        shutil.copy(p, tmp_path)
    r, out = check(tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.exists()
    assert "search.exact" in r.stdout and "game.replayed" in r.stdout
