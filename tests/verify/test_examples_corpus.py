"""Broken example files: each gives its exact error, a non-zero exit, and no bundle."""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verify.examples import ID_RULE, ExampleError, load_example
from verify.new_example import example_yaml
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "data" / "broken_examples"

# file → (exit code, the error after "<path>" in the first line of stderr)
EXPECTED = {
    "illegal_move": (1, ", line 12, move 2 'pair 7D 4S': the values add up to 11, not 13 (rule pair.thirteen)"),
    "card_not_available": (1, ", line 12, move 2 'pair 7D 6S': 6S is covered by 3C and KH (rule free.covered)"),
    "card_removed": (1, ", line 13, move 3 'pair 7D 6C': 7D is not in play (removed, or not in this deal) (rule removed.gone)"),
    "unknown_code": (2, ", line 12, move 2 'pair 7X 6C': '7X' is not a card code (rank A 2-9 T/10 J Q K, then suit S H D C)"),
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
    "deal_out_of_range": (2, ", line 5: deal number must be a whole number from 1 to 4294967295, got 0 (rule deal.layout)"),
    "yaml_syntax": (2, ", line 12: not valid YAML (mapping values are not allowed here)"),
    "missing_field": (2, ": missing field 'final'"),
    "empty": (2, ": the file is empty; an example needs id, deal, game, opening, final and search"),
    # Hostile files (issue 12): each is refused while reading, before any engine runs.
    "alias_bomb": (2, ", line 87: anchors (&a) are not allowed; write the value out"),
    "deep_nesting": (2, ", line 86: nested more than 32 levels deep"),
    "duplicate_deal": (2, ", line 6: duplicate key 'deal' (first at line 5); write each key once"),
    "duplicate_key": (2, ", line 80: duplicate key 'points' (first at line 79); write each key once"),
    "octal_deal": (2, ", line 5: the number 033 has a leading zero; remove it, or quote the value (\"033\") if it is text"),
    "deal_5000_digits": (2, ", line 5: a number of 5,000 digits; at most 20 are allowed"),
    "yes_winnable": (2, ", line 72: field 'search.winnable' must be true or false, got 'yes'"),
    "not_utf8": (2, ", line 13: not UTF-8 (byte 0xe5); save the file as UTF-8"),
    "id_trailing_newline": (2, ", line 4: id 'winnable\\n' must be " + ID_RULE),
    "id_path": (2, ", line 4: id '../x/pwn' must be " + ID_RULE),
    "unknown_field": (2, ", line 6: unknown field 'comment'; the fields are id, deal, order, draft, game, opening, final, search"),
}
# Deal values refused by verify.independent.deal.parse_deal_number, whose wording of the value is its own:
# file → what the first line of stderr holds after "<path>".
DEAL_REFUSED = {
    "deal_5000_digits_text": "9" * 20,
    "deal_control_character": "'2\\x077'",
}
DEAL_MESSAGE = ", line 5: deal number must be a whole number from 1 to 4294967295, got "

# False notes (issue 24), each kind in each language, written into the language's file of
# examples/winnable.yaml (docs/<lang>/examples/winnable.yml): name → (language, move number, the
# false note, true notes on that move in the other languages where the file has none, what the
# checker says, the move).
FALSE_NOTES = {
    "place_nb": ("nb", 3, "Ruter dame tar ruter ess fra kastebunken: det øverste kortet der kan være med i et par.", {},
                 "says ruter ess is on the waste; it is in row 7", "pair QD AD"),
    "place_da": ("da", 3, "Ruder dame tager ruder es fra afkastbunken: det øverste kort dér kan indgå i et par.", {},
                 "says ruder es is on the waste; it is in row 7", "pair QD AD"),
    "card_nb": ("nb", 2, "Ruter sju tar spar seks.", {"da": "Ruder syv tager klør seks."},
                "names spar seks, which the move does not play, and not where it lies; it is in row 4", "pair 7D 6C"),
    "card_da": ("da", 2, "Ruder syv tager spar seks.", {"nb": "Ruter sju tar kløver seks."},
                "names spar seks, which the move does not play, and not where it lies; it is in row 4", "pair 7D 6C"),
    "count_nb": ("nb", 43, "Trekkbunken er tom. Det ligger fem kort på kastebunken, og de vendes tilbake.", {},
                 "says 5 cards on the waste («fem kort på kastebunken»); before the move there are 15", "turn"),
    "count_da": ("da", 43, "Talonen er tom, og de fem kort på afkastbunken lægges tilbage.", {},
                 "says 5 cards on the waste («fem kort på afkastbunken»); before the move there are 15", "turn"),
    "action_nb": ("nb", 5, "Kastebunken vendes tilbake.", {"da": "Et kort vendes fra talonen."},
                  "says the move turns the waste back («vendes tilbake»); it is 'draw'", "draw"),
    "action_da": ("da", 5, "Afkastbunken lægges tilbage.", {"nb": "Ett kort trekkes fra trekkbunken."},
                  "says the move turns the waste back («lægges tilbage»); it is 'draw'", "draw"),
}


def check(folder: Path):
    out = folder / "bundle" / "verified.json"
    # A guard against a hang, not a speed test: a whole `verify check` (its re-decision of the
    # survey's lost deals included) took over 300 s on a busy 2-core machine.
    r = subprocess.run([sys.executable, "-m", "verify", "check", "--examples", str(folder), "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=1200)
    return r, out


def test_the_corpus_is_complete():
    assert {p.stem for p in BROKEN.glob("*.yaml")} == set(EXPECTED) | set(DEAL_REFUSED)


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


@pytest.mark.parametrize("name", sorted(DEAL_REFUSED))
def test_a_hostile_deal_value_is_refused_with_file_and_line(tmp_path, name):
    shutil.copy(BROKEN / f"{name}.yaml", tmp_path)
    r, out = check(tmp_path)
    first = r.stderr.splitlines()[0]
    assert r.returncode == 2, r.stderr
    assert first.startswith(f"error: {tmp_path / name}.yaml{DEAL_MESSAGE}"), first
    assert DEAL_REFUSED[name] in first and first.endswith("(rule deal.layout)"), first
    assert len(first) < 300 and "Traceback" not in r.stderr
    assert not out.exists()


def test_the_alias_bomb_is_refused_at_once(tmp_path):
    started = time.monotonic()
    with pytest.raises(ExampleError, match=r"alias_bomb.yaml, line 87: anchors \(&a\) are not allowed"):
        load_example(BROKEN / "alias_bomb.yaml")
    assert time.monotonic() - started < 1


@pytest.mark.parametrize("bad_id", ["../x/pwn", "winnable\n", "/tmp/pwn", "a/b", ".hidden", "Big", "x" * 65, ""])
def test_make_example_refuses_an_id_that_is_not_a_plain_name(tmp_path, bad_id):
    folder = tmp_path / "a" / "examples"
    r = subprocess.run([sys.executable, "-m", "verify", "example", "27", "--id", bad_id, "--dir", str(folder)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: --id '"), r.stderr
    assert r.stderr.rstrip("\n").endswith(f": an example id is {ID_RULE}"), r.stderr
    assert len(r.stderr.splitlines()) == 1
    assert not any(tmp_path.rglob("*")), "nothing may be written"


def test_a_file_written_by_make_example_reads_back_strictly(tmp_path):
    """example_yaml's output (yaml.safe_dump) must load with the strict loader, figures unchanged."""
    ex = load_example(ROOT / "examples" / "winnable.yaml")
    answer = dict(ex.search, game=[move.text for move in ex.game])
    layout = {"pyramid": [None] * 28, "stock": [None] * 23, "waste": [None]}
    path = tmp_path / "deal-27.yaml"
    path.write_text(example_yaml("deal-27", ex.deal, answer, ex.final, layout), encoding="utf-8")
    again = load_example(path)
    assert (again.id, again.deal, again.opening, again.final, again.search) == \
        ("deal-27", 27, ex.opening, ex.final, ex.search)
    assert [m.text for m in again.game] == [m.text for m in ex.game]


def test_duplicate_id(tmp_path):
    for name in ("a", "b"):
        shutil.copy(ROOT / "examples" / "winnable.yaml", tmp_path / f"{name}.yaml")
    r, out = check(tmp_path)
    assert r.returncode == 2
    line = (ROOT / "examples" / "winnable.yaml").read_text(encoding="utf-8").splitlines().index("id: winnable") + 1
    assert f"{tmp_path / 'b.yaml'}, line {line}: id 'winnable' is already used by {tmp_path / 'a.yaml'}" in r.stderr
    assert not out.exists()


def test_good_examples_write_a_bundle(tmp_path):
    for p in (ROOT / "examples").glob("*.yaml"):
        shutil.copy(p, tmp_path)
    r, out = check(tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.exists()
    assert "search.exact" in r.stdout and "game.replayed" in r.stdout


def set_note(file: Path, number: int, text: str) -> int:
    """Move `number`'s note in a language's file of an example set to `text` (the one there
    replaced, else added at the end of `notes:`, the file's last field); returns its line."""
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    entry = f"  {number}: {json.dumps(text, ensure_ascii=False)}\n"
    at = next((i for i, line in enumerate(lines) if line.startswith(f"  {number}:")), None)
    if at is None:
        assert lines[-1].startswith("  "), f"{file}: notes is not the last field"
        lines.append(entry)
        at = len(lines) - 1
    else:
        lines[at] = entry
    file.write_text("".join(lines), encoding="utf-8")
    return at + 1


@pytest.mark.parametrize("name", sorted(FALSE_NOTES))
def test_a_false_note_in_a_language_file_is_named_by_that_file_and_line(tmp_path, name):
    """The notes live in docs/<lang>/examples/<id>.yml: a false claim there names that file and
    the note's own line in it, not the example file (the checker takes the notes from wherever
    they are written)."""
    language, number, false, others, says, move = FALSE_NOTES[name]
    examples = tmp_path / "examples"
    examples.mkdir()
    shutil.copy(ROOT / "examples" / "winnable.yaml", examples)
    files = {}
    for code in LANGUAGES:
        (tmp_path / "docs" / code / "examples").mkdir(parents=True)
        files[code] = tmp_path / "docs" / code / "examples" / "winnable.yml"
        shutil.copy(ROOT / "docs" / code / "examples" / "winnable.yml", files[code])
    line = set_note(files[language], number, false)
    for code, text in others.items():
        set_note(files[code], number, text)
    r, out = check(examples)
    assert r.returncode == 1, r.stderr
    first = r.stderr.splitlines()[0]
    assert first.endswith(f"{files[language]}, line {line}, {language}: {says} (move {number} '{move}')"), first
    assert not out.exists()


def test_every_problem_of_the_examples_is_said_in_one_run(tmp_path):
    """Issue 25: a note on a move that is not there, a note missing in one language, a bad card
    code in another example and a false final figure in a third: one run says all four, each on
    its own line (`error:` for bad input, `FAILED:` for a check) with its own file and line, and
    exits with the highest of their codes (bad input, 2). The examples that failed are not checked further (nothing is said twice)."""
    examples = tmp_path / "examples"
    examples.mkdir()
    for name in ("winnable.yaml", "not-winnable.yaml"):
        shutil.copy(ROOT / "examples" / name, examples)
    for code in LANGUAGES:
        (tmp_path / "docs" / code / "examples").mkdir(parents=True)
        for name in ("winnable.yml", "not-winnable.yml"):
            shutil.copy(ROOT / "docs" / code / "examples" / name, tmp_path / "docs" / code / "examples")
    nb_file = tmp_path / "docs" / "nb" / "examples" / "winnable.yml"
    nb_file.write_text(nb_file.read_text(encoding="utf-8") + '  99: "Et trekk som ikke finnes."\n', encoding="utf-8")
    nb_lines = nb_file.read_text(encoding="utf-8").splitlines()
    da_file = tmp_path / "docs" / "da" / "examples" / "winnable.yml"
    da_file.write_text("".join(line for line in da_file.read_text(encoding="utf-8").splitlines(keepends=True)
                               if not line.startswith("  43:")), encoding="utf-8")
    lost = examples / "not-winnable.yaml"
    text = lost.read_text(encoding="utf-8")
    first_pair = next(line for line in text.splitlines() if line.startswith("- pair "))
    lost.write_text(text.replace(first_pair, first_pair[:-1] + "X", 1), encoding="utf-8")
    lost_line = text.splitlines().index(first_pair) + 1
    (examples / "third.yaml").write_text(
        (ROOT / "examples" / "winnable.yaml").read_text(encoding="utf-8").replace("id: winnable", "id: third")
        .replace("order: 1", "order: 3"), encoding="utf-8")
    third = examples / "third.yaml"
    third_text = third.read_text(encoding="utf-8")
    points_line = next(i for i, line in enumerate(third_text.splitlines(), 1) if line.strip().startswith("points:"))
    points = third_text.splitlines()[points_line - 1]
    third.write_text(third_text.replace(points, points.split(":")[0] + ": 1"), encoding="utf-8")
    r, out = check(examples)
    errors = [line for line in r.stderr.splitlines() if line.startswith(("error: ", "FAILED: "))]
    nb_99 = next(i for i, line in enumerate(nb_lines, 1) if line.startswith("  99:"))
    nb_43 = next(i for i, line in enumerate(nb_lines, 1) if line.startswith("  43:"))
    assert errors[0] == f"error: {nb_file}, line {nb_99}: 99 is not a move of {examples / 'winnable.yaml'} (its moves are 1 … 51)", errors
    assert errors[1] == (f"error: {nb_file}, line {nb_43}: the note on move 43 has no text in da "
                         f"({'docs/da/examples/winnable.yml'}); a note needs every language (nb, da)"), errors
    assert errors[2].startswith(f"error: {lost}, line {lost_line}, move ") and "is not a card code" in errors[2], errors
    assert errors[3].startswith(f"FAILED: {third}, line {points_line}: final.points is 1, but replaying the game gives "), errors
    assert len(errors) == 4, r.stderr
    assert r.returncode == 2
    assert "No bundle written." in r.stderr and not out.exists()
