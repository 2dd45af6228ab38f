"""The note checker (verify/notes.py): each kind of claim a note makes, true and false, in both
languages, against the positions of deal 27's shown game; and the glossary words it reads."""
from pathlib import Path

import pytest

from verify.errors import InputError
from verify.examples import example_notes, load_example
from verify.independent import rules
from verify.notes import glossary_path, load_note_words, note_problem, read_note
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
WORDS = {code: load_note_words(glossary_path(code)) for code in LANGUAGES}


def game(name):
    ex = load_example(ROOT / "examples" / f"{name}.yaml")
    positions = [rules.opening(ex.deal)]
    for move in ex.game:
        positions.append(rules.apply(positions[-1], move.text))
    return ex, positions


def problem(code, text, number, name="winnable"):
    ex, positions = game(name)
    return note_problem(text, WORDS[code], positions[number - 1], positions[number], ex.game[number - 1].text)


@pytest.mark.parametrize("name", ["winnable", "not-winnable"])
def test_every_note_of_the_examples_is_true(name):
    ex, positions = game(name)
    notes = example_notes(ex)
    assert {n.language for n in notes} == set(LANGUAGES) and len(notes) >= 8
    for n in notes:
        assert note_problem(n.text, WORDS[n.language], positions[n.move - 1], positions[n.move],
                            ex.game[n.move - 1].text) is None, (n.line, n.language, n.text)


def test_a_note_is_read_in_its_language_file_at_its_own_line():
    ex, _ = game("winnable")
    places = {(n.move, n.language): (Path(n.file), n.line) for n in example_notes(ex)}
    for code in LANGUAGES:
        file = ROOT / "docs" / code / "examples" / "winnable.yml"
        line = next(i for i, text in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
                    if text.startswith("  3:"))
        assert places[(3, code)] == (file, line)
    assert all(n.game_file == str(ex.path) for n in example_notes(ex))


# Move 1 of deal 27 is 'king KD' (free, row 7); move 3 'pair QD AD' (QD the waste top, AD row 7);
# move 43 'turn' (stock empty, two turns left, 15 cards on the waste); move 51 the winning pair.
@pytest.mark.parametrize("code, text, number, expected", [
    ("nb", "Ruterkongen er dekket.", 1, "says ruter konge is not free; it is free"),
    ("da", "Ruder konge er dækket.", 1, "says ruder konge is not free; it is free"),
    ("nb", "Ruter dame i nederste rad tar ruter ess.", 3, "says ruter dame is in row 7; it is on the waste"),
    ("da", "Ruder dame i nederste række tager ruder es.", 3, "says ruder dame is in row 7; it is on the waste"),
    ("nb", "Ruterkongen går alene. Hjerter konge i femte rad er fri.", 1, "says hjerter konge is free; it is covered by spar tre and hjerter fem"),
    ("nb", "Ruterkongen tar en dame.", 1, "says the move removes a pair («tar»); it is 'king KD'"),
    ("da", "Ruderkongen går alene. Begge de frie konger går.", 1, "says there are 2 free konge («Begge de frie konger»); "
                                                             "before the move there are 1: ruder konge"),
    ("da", "Ruderkongen går alene, og der er fire konger.", 1, None),
    ("nb", "Begge de frie kongene går, hver for seg.", 1, "says there are 2 free konge («Begge de frie kongene»); "
                                                          "before the move there are 1: ruter konge"),
    ("nb", "Knekten på toppen venter.", 1, "says a knekt («Knekten») is in row 1; kløver knekt is in row 4; "
                                           "ruter knekt is in row 4; spar knekt is in row 6; hjerter knekt is in row 7, free"),
    ("da", "Knægten i nederste række er fri.", 1, None),
    ("nb", "Ruter dame og ruter ess er fjernet.", 3, None),  # the move's result: read after it
    ("nb", "Ruter dame tar ruter ess, og spar konge er fjernet.", 3,
     "says spar konge is removed; it is in the stock after the move"),
    ("da", "En konge er fjernet.", 3, None),  # ruder konge, by move 1
    ("da", "En toer er fjernet.", 3, "says a to («toer») is removed; ruder to is in row 5; hjerter to is in row 6; "
                                     "klør to is in the stock; spar to is in the stock"),
    ("da", "En toer i talonen venter.", 1, None),
    ("nb", "Første vending.", 43, None),
    ("da", "Afkastbunken lægges tilbage for sidste gang.", 43,
     "says 1 turns left («lægges tilbage for sidste gang»); before the move there are 2"),
    ("nb", "Spillet er vunnet.", 43, "says the game is won («Spillet er vunnet»); after the move it is playing"),
    ("da", "Spillet er vundet, og der ligger kort tilbage ved siden af.", 51, None),
    ("nb", "Det siste pyramidekortet går.", 3, "says 1 pyramid cards left («siste pyramidekortet»); before the move there are 25"),
    ("da", "Ruder es fra pyramiden går med ruder dame fra afkastbunken.", 3, None),
    ("nb", "Hjerter ti i trekkbunken venter.", 3, None),
])
def test_each_kind_of_claim_is_checked(code, text, number, expected):
    assert problem(code, text, number) == expected


def test_a_place_with_no_card_before_it_in_its_sentence_is_about_no_card():
    text = "Ruter dame tar ruter ess. Kortet fra kastebunken kan alltid være med i et par."
    assert [s.kind for s in read_note(text, WORDS["nb"])] == ["card", "action", "card", "place"]
    assert problem("nb", text, 3) is None


def test_a_glossary_without_note_words_is_refused_with_its_file(tmp_path):
    path = tmp_path / "glossary.yml"
    path.write_text("concepts:\n  deal: {use: utdeling, forbidden: []}\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"^{path}: no `note_words:`"):
        load_note_words(path)


def test_a_glossary_missing_a_rank_is_refused_with_file_and_line(tmp_path):
    text = glossary_path("nb").read_text(encoding="utf-8").replace('    "7": {name: sju, forms: [sjuer, sjueren], plural: [sjuere, sjuerne]}\n', "")
    path = tmp_path / "glossary.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=r", line \d+: `note_words.ranks` must name each of A, 2, 3"):
        load_note_words(path)
