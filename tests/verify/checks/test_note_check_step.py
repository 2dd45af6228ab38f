"""`make verify`'s note check (verify/checks/note_checks.py): every note read against the move it
is on, in its own language's words; every false one of every language is said in the one run,
each with its whole message (the file it is written in, its line, the language, the claim and the
truth, the move); the count of notes checked."""
from pathlib import Path

import pytest

from verify.checks import Checked
from verify.checks.note_checks import check_notes, notes_of, notes_one
from verify.errors import CheckFailed, Problems
from verify.examples import NoteText, example_notes, load_example
from verify.independent import rules

ROOT = Path(__file__).resolve().parents[3]


def example(name):
    ex = load_example(ROOT / "examples" / f"{name}.yaml")
    positions = [rules.opening(ex.deal)]
    for move in ex.game:
        positions.append(rules.apply(positions[-1], move.text))
    return ex, [m.text for m in ex.game], [rules.to_json(p) for p in positions]


@pytest.fixture(scope="module")
def winnable():
    return example("winnable")


def note(ex, language, move, text, line=12):
    return NoteText(file=f"docs/{language}/examples/winnable.yml", line=line, language=language, move=move,
                    text=text, example=str(ex.path))


def test_the_true_notes_of_both_examples_are_counted():
    examples = [example("winnable"), example("not-winnable")]
    notes = notes_of([ex for ex, _, _ in examples])
    assert notes == example_notes(examples[0][0]) + example_notes(examples[1][0]) and len(notes) >= 16
    games = {str(ex.path): (moves, positions) for ex, moves, positions in examples}
    assert check_notes(notes, games) == Checked({"notes": len(notes)})


def test_one_example_is_checked_on_its_replay(winnable):
    ex, moves, positions = winnable
    assert notes_one(ex, {"opening": positions[0], "steps": positions[1:]}) == Checked({"notes": len(example_notes(ex))})


@pytest.mark.parametrize("language, move, text, says", [
    ("da", 3, "Ruder dame i nederste række tager ruder es.", "says ruder dame is in row 7; it is on the waste"),
    ("nb", 1, "Ruterkongen er dekket.", "says ruter konge is not free; it is free"),
    ("nb", 3, "Ruter dame tar ruter ess, og spar konge er fjernet.", "says spar konge is removed; it is in the stock after the move"),
])
def test_a_false_note_stops_the_check_naming_its_file_line_language_and_move(winnable, language, move, text, says):
    ex, moves, positions = winnable
    notes = [note(ex, "nb", 3, "Ruter dame og ruter ess er fjernet."), note(ex, language, move, text, line=40)]
    with pytest.raises(CheckFailed) as e:
        check_notes(notes, {str(ex.path): (moves, positions)})
    assert str(e.value) == f"docs/{language}/examples/winnable.yml, line 40, {language}: {says} (move {move} '{moves[move - 1]}')"


def test_a_note_is_read_between_the_position_before_its_move_and_the_one_after(winnable):
    ex, moves, positions = winnable
    # True of move 3, which removes that pair; false of move 2, which removes another.
    for move, true in ((2, False), (3, True)):
        check = lambda: check_notes([note(ex, "nb", move, "Ruter dame og ruter ess er fjernet.")],
                                    {str(ex.path): (moves, positions)})
        if true:
            assert check() == Checked({"notes": 1})
        else:
            with pytest.raises(CheckFailed):
                check()


def test_every_false_note_of_every_language_is_said_in_one_run(winnable):
    """Two false notes in each of two languages: four lines from one check, in the notes' order."""
    ex, moves, positions = winnable
    notes = [note(ex, "nb", 1, "Ruterkongen er dekket.", line=5),
             note(ex, "nb", 3, "Ruter dame og ruter ess er fjernet.", line=6),
             note(ex, "nb", 3, "Ruter dame i nederste rad tar ruter ess.", line=7),
             note(ex, "da", 1, "Ruder konge er dækket.", line=5),
             note(ex, "da", 3, "Ruder dame i nederste række tager ruder es.", line=7)]
    with pytest.raises(Problems) as e:
        check_notes(notes, {str(ex.path): (moves, positions)})
    said = [str(p) for p in e.value.problems]
    assert [s.split(": ", 1)[0] for s in said] == [
        "docs/nb/examples/winnable.yml, line 5, nb", "docs/nb/examples/winnable.yml, line 7, nb",
        "docs/da/examples/winnable.yml, line 5, da", "docs/da/examples/winnable.yml, line 7, da"]
    assert all(isinstance(p, CheckFailed) for p in e.value.problems) and e.value.exit_code == 1
    assert e.value.report().count("\nFAILED: ") == 3
