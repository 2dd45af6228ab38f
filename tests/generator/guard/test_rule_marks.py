"""Rule marks: at most one per paragraph, at its end, so a screen reader never reads
«Kontrollert regel: …» in the middle of a sentence (language review 2, nb #43, da #45)."""
from pathlib import Path

import pytest

from generator.inputs.languages import load_languages
from generator.guard.rule_marks import page_problems
from helpers.languages import LANGUAGES

MARK = '{{ rule("free.covered") }}'


@pytest.fixture
def page(tmp_path):
    def write(text: str) -> Path:
        path = tmp_path / "index.md"
        path.write_text(text, encoding="utf-8")
        return path
    return write


def test_one_mark_at_the_end_of_each_paragraph_and_item_passes(page):
    path = page(f"# Tittel\n\nEt kort er fritt. {MARK}\n\n- **Par:** To kort. {MARK}\n- **Konge:** Alene. {MARK}\n\n"
                f"!!! tip \"Råd\"\n    Se etter frie konger.\n    En linje til. {MARK}\n")
    assert page_problems(path) == []


def test_two_marks_in_one_paragraph_are_refused_at_its_line(page):
    path = page(f"# Tittel\n\nFørste setning. {MARK} Andre setning.\nTredje. {MARK}\n")
    assert page_problems(path) == [f"{path}, line 3: 2 rule marks in one paragraph; keep one, at its end "
                                   "(a screen reader reads each aloud)"]


def test_a_mark_in_the_middle_of_a_sentence_is_refused_at_its_line(page):
    path = page(f"# Tittel\n\nKort du har fjernet, kommer ikke tilbake,\nog de andre {MARK} kommer i samme rekkefølge.\n")
    problems = page_problems(path)
    assert len(problems) == 1 and problems[0].startswith(f"{path}, line 4: a rule mark in the middle of a paragraph "
                                                         "('kommer i samme rekkefølge.' follows it)")


def test_the_list_items_of_one_list_are_paragraphs_of_their_own(page):
    path = page(f"- En. {MARK}\n- To. {MARK}\n1. Tre. {MARK}\n")
    assert page_problems(path) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_real_page_keeps_its_marks_at_paragraph_ends(lang):
    language = next(x for x in load_languages()[0] if x.code == lang)
    assert [p for source in language.pages.values() for p in page_problems(source)] == []
