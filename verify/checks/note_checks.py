"""The notes on the examples' moves: what each says about cards, places, the move and counts is
true of the position it is on, in every language (verify/notes.py)."""
from __future__ import annotations

from ..errors import CheckFailed, all_of
from ..examples import Example, NoteText, example_notes
from ..independent import rules
from ..notes import glossary_path, load_note_words, note_problem
from . import Checked


def check_notes(notes: list[NoteText], games: dict[str, tuple[list[str], list[dict]]]) -> Checked:
    """Each note against its move: `games` maps a file to its moves (notation) and its positions
    (the opening, then after each move; the app's JSON). Raises CheckFailed for every false note
    of every language at once, each naming the file the note is written in
    (docs/<lang>/examples/<id>.yml), its line there, the language, the claim and the truth."""
    words, problems = {}, []
    for note in notes:
        if note.language not in words:
            words[note.language] = load_note_words(glossary_path(note.language))
        moves, positions = games[note.game_file]
        before, after = (rules.from_json(p) for p in positions[note.move - 1:note.move + 1])
        problem = note_problem(note.text, words[note.language], before, after, moves[note.move - 1])
        if problem:
            problems.append(CheckFailed(f"{note.file}, line {note.line}, {note.language}: {problem} "
                                        f"(move {note.move} '{moves[note.move - 1]}')"))
    if problems:
        raise all_of(problems)
    return Checked({"notes": len(notes)})


def notes_one(ex: Example, replay: dict) -> Checked:
    """check_notes of one example (make verify's unit), on its replay: {opening, steps}."""
    return check_notes(notes_of([ex]), {str(ex.path): ([m.text for m in ex.game], [replay["opening"]] + replay["steps"])})


def notes_of(examples: list[Example]) -> list[NoteText]:
    return [note for ex in examples for note in example_notes(ex)]
