"""The sentence check's pieces (generator/sentences.py), each on its own: every abbreviation after
which a number goes on in the same sentence, and each kind of block that is not running text
(a Setext heading, a table row) or markup that is not a word (an inline tag)."""
import pytest

from generator.sentences import ABBREVIATIONS, digit_sentences


@pytest.mark.parametrize("abbreviation", sorted(ABBREVIATIONS))
def test_a_number_after_each_abbreviation_goes_on_in_the_same_sentence(abbreviation):
    assert digit_sentences(f"Se {abbreviation}. 12 andre steder.") == []
    assert digit_sentences(f"Se {abbreviation.upper()}. 12 andre steder.") == []


def test_the_abbreviations_are_these():
    assert ABBREVIATIONS == {"ca", "nr", "kl", "jf", "jfr", "f.eks", "bl.a", "dvs", "mht", "pga", "s", "kap", "mv", "o.l"}


def test_a_word_that_only_ends_like_an_abbreviation_ends_its_sentence():
    assert digit_sentences("Det er bras. 12 kort igjen.") == [(1, "12 kort igjen.")]


@pytest.mark.parametrize("markdown", ["28 kort\n=======", "28 kort\n-------", "Tekst.\n\n3 ganger\n---  "])
def test_a_setext_heading_is_not_running_text(markdown):
    assert digit_sentences(markdown) == []


def test_a_table_is_not_running_text():
    assert digit_sentences("| 7 | sju |\n|---|---|\n| 8 | åtte |") == []


@pytest.mark.parametrize("markdown", ["<span>28</span> kort ligger i pyramiden.", "<b class='x'>28 kort</b> ligger her."])
def test_an_inline_tag_is_no_word(markdown):
    assert [line for line, _ in digit_sentences(markdown)] == [1]


def test_the_problem_quotes_the_first_forty_characters_of_the_sentence(tmp_path):
    from generator.sentences import sentence_problems
    source = tmp_path / "index.md"
    source.write_text("{{ n }} kort ligger i pyramiden, i sju rader som en trekant.\n", encoding="utf-8")
    assert sentence_problems(source, "28 kort ligger i pyramiden, i sju rader som en trekant.\n") == [
        f"{source}, line 1: a sentence starts with a digit ('28 kort ligger i pyramiden, i sju rader '); "
        "write the count as a word (`{{ n | spell }}`) or turn the sentence round"]


def test_every_paragraph_is_read():
    assert digit_sentences("3 ganger.\n\nTekst.\n\n4 kort.") == [(1, "3 ganger."), (5, "4 kort.")]


def test_a_line_of_dashes_indented_four_spaces_underlines_nothing():
    assert digit_sentences("28 kort ligger her.\n    ----") == [(1, "28 kort ligger her.")]
