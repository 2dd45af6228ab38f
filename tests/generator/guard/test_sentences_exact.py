"""The sentence check's pieces (generator/guard/sentences.py), each on its own: every abbreviation after
which a number goes on in the same sentence, and each kind of block that is not running text
(a Setext heading, a table row) or markup that is not a word (an inline tag)."""
import pytest

from generator.guard.sentences import ABBREVIATIONS, BLOCK_TAGS, VOID_TAGS, digit_sentences


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
    from generator.guard.sentences import sentence_problems
    source = tmp_path / "index.md"
    source.write_text("{{ n }} kort ligger i pyramiden, i sju rader som en trekant.\n", encoding="utf-8")
    assert sentence_problems(source, "28 kort ligger i pyramiden, i sju rader som en trekant.\n") == [
        f"{source}, line 1: a sentence starts with a digit ('28 kort ligger i pyramiden, i sju rader '); "
        "write the count as a word (`{{ n | spell }}`) or turn the sentence round"]


def test_every_paragraph_is_read():
    assert digit_sentences("3 ganger.\n\nTekst.\n\n4 kort.") == [(1, "3 ganger."), (5, "4 kort.")]


def test_a_line_of_dashes_indented_four_spaces_underlines_nothing():
    assert digit_sentences("28 kort ligger her.\n    ----") == [(1, "28 kort ligger her.")]


@pytest.mark.parametrize("markdown, found", [
    ("# Tittel\n28 kort ligger her.", [(2, "28 kort ligger her.")]),          # a heading is one line
    ("```\nkode\n```\n28 kort ligger her.", [(4, "28 kort ligger her.")]),  # the fence ends at its closer
    ("- Et punkt.\n\n28 kort etter lista.", [(3, "28 kort etter lista.")]),  # a list ends at a blank line
    # A lone HTML tag's block runs to the next blank line (as Python-Markdown reads it), no further.
    ("<div></div>\n28 kort i blokken.\n\n3 kort etter.", [(4, "3 kort etter.")]),
    # An item's body is de-indented by at most four: eight spaces in it are still a code block.
    ("100. Punkt.\n\n        28 kort i en kodeblokk.", []),
    ("Kortene telles. turn.limit", []),  # a rule id at the very end is no sentence
    ("Tittel\n======\n28 kort ligger her.", [(3, "28 kort ligger her.")]),  # a Setext heading is two lines
    ("XXXX er et ord. 3 kort til.", [(1, "3 kort til.")]),  # only spaces indent a line
    ("```\n```\n28 kort ligger her.", [(3, "28 kort ligger her.")]),  # an empty fenced block
    # A list item's lazy line goes on its sentence; its body is de-indented by the marker's width.
    ("- Et punkt med\n12 kort i fortsettelsen.", []),
    ("- Punkt.\n\n     28 kort her.", [(3, "28 kort her.")]),
    ("-     28 kort.", [(1, "28 kort.")]),
    ("Tekst her\n    - 3 kort til.", []),  # indented four, inside a paragraph: no list item
    # What comes before an admonition or a list is kept.
    ("3 kort før.\n\n!!! tip\n    Et råd.", [(1, "3 kort før.")]),
    ("3 kort før.\n\n- Et punkt.", [(1, "3 kort før.")]),
    ("```\n28 kort", []),  # a fence never closed runs to the end
    ("Tekst.\n\n    kode\n28 kort her.", [(4, "28 kort her.")]),  # an indented block ends at an unindented line
    ("<!--\n28 kort\n-->", []),  # a comment is raw HTML
    ("<div>\n28 kort i blokken.", []),  # an element never closed runs to the end
    ("<div>\n\n28 kort i blokken.\n</div>", []),  # blank lines inside an element are in it
    ("!!! tip\n    Et råd\n28 kort etter.", [(3, "28 kort etter.")]),  # an admonition takes no lazy line
    ("- Et punkt.\n# 28 kort", []),  # a heading ends a list item
    ("- Et punkt med\nen linje som fortsetter\n12 kort til.", []),  # lazy lines go on
    ("- Et punkt uten punktum\n- 24 kort ved siden av.", [(2, "24 kort ved siden av.")]),  # a new item
    ("Tekst.\n\n3 kort.\n\n- Et punkt.\n\nSlutt.", [(3, "3 kort.")]),  # each line read once
    ("Tekst. 3\nkort igjen.", [(1, "3")]),  # a sentence starting at a line's end
])
def test_where_each_block_ends(markdown, found):
    assert digit_sentences(markdown) == found


@pytest.mark.parametrize("source, rendered, line", [
    # Five words after the number find the one line; three are on two lines.
    ("Her kort ligger i en haug.\n\n{{ n }} kort ligger i sju rader.\n",
     "Her kort ligger i en haug.\n\n\n28 kort ligger i sju rader.\n", "3"),
    # Three words are enough when the sentence has no more.
    ("{{ n }} kort ligger her.\n", "Tekst.\n\n28 kort ligger her.\n", "1"),
    # Two words are not: the rendered page's line.
    ("{{ n }} kort igjen.\n", "Tekst.\n\n28 kort igjen.\n", "3 of the rendered page"),
])
def test_the_source_line_is_found_by_the_words_after_the_number(tmp_path, source, rendered, line):
    from generator.guard.sentences import sentence_problems
    page = tmp_path / "index.md"
    page.write_text(source, encoding="utf-8")
    [problem] = sentence_problems(page, rendered)
    assert problem.startswith(f"{page}, line {line}: a sentence starts with a digit")


def test_a_page_source_that_cannot_be_read_names_the_rendered_line(tmp_path):
    from generator.guard.sentences import sentence_problems
    page = tmp_path / "gone.md"
    assert sentence_problems(page, "Tekst.\n\n28 kort ligger her.") == [
        f"{page}, line 3 of the rendered page: a sentence starts with a digit ('28 kort ligger her.'); "
        "write the count as a word (`{{ n | spell }}`) or turn the sentence round"]


@pytest.mark.parametrize("tag", sorted(BLOCK_TAGS))
def test_each_block_tag_opens_raw_html_that_is_not_running_text(tag):
    assert digit_sentences(f"<{tag}>\n28 kort i blokken.\n</{tag}>\n\n3 kort etter.") == [(5, "3 kort etter.")]


@pytest.mark.parametrize("tag", sorted(VOID_TAGS))
def test_a_void_tag_needs_no_closing_tag(tag):
    assert digit_sentences(f"<div><{tag}></div>\n\n28 kort etter.") == [(3, "28 kort etter.")]


def test_a_list_ends_where_an_unindented_paragraph_starts():
    # The code block after the paragraph is no running text; were the paragraph taken into the
    # list item, the code would be read de-indented, as the item's text.
    assert digit_sentences("- Et punkt.\n\nEn tekst.\n\n    3 linjer kode") == []


def test_a_code_block_in_a_lists_second_item_is_not_running_text():
    # The second item starts a block of its own: it is not a lazy line of the first one, so its
    # code block is read at the second item's indentation.
    assert digit_sentences("- Første punkt\n- Andre punkt\n\n      5 linjer kode") == []
    assert digit_sentences("- Første punkt\n- Andre punkt\n\n  5 linjer tekst.") == [(4, "5 linjer tekst.")]
