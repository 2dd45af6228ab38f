"""generator/guard/numbers.py piece by piece, each promise exactly (tests/generator/guard/test_number_guard.py runs the
guard over every page and string file of a copy of docs/): digits outside template tags are
refused with their line and column, a list marker is markup, a tag of each kind hides its
digits, an unclosed tag stops nothing after it, a string's digits count outside {placeholders}
only, and an example's notes, titles and summaries are held to the same rule, each named by its
file and line. Fast, so `make mutation MODULE=number-guard` can run it for each mutant."""
from pathlib import Path

import pytest

from generator.guard import numbers

GUARD = "a number typed by hand"


@pytest.mark.parametrize("text, spans", [
    ("", []),
    ("a {{ x }} b", [(2, 9)]),
    ("{% if a %}x{% endif %}", [(0, 10), (11, 22)]),
    ("{# 7 #}{{ y }}", [(0, 7), (7, 14)]),
    ("{{ a }} {{ b", [(0, 7)]),              # an opener never closed is no tag
    ("{{ {{ }}", [(0, 8)]),                  # the first opener takes the first closer
    ("{{ x {% y %}", [(5, 12)]),             # a dead {{ does not hide a later {% %}
    ("{{ a {{ b {% c %}", [(10, 17)]),       # nor does a second dead opener of the same kind
    ("{{ {% {# 1", []),                      # all three kinds dead: the rest is text
    ("{# {# #} #}", [(0, 8)]),
    ("{{}}", [(0, 4)]),                      # an empty tag: the closer right after the opener
    ("{{ {{}}", [(0, 7)]),                   # the search goes on after the closer, not inside the tag
    ("{{% 7 %}", [(1, 8)]),                  # a dead opener's second brace may open a tag
    ("{{ a {{% 7 %}", [(6, 13)]),            # so may a dead opener's second brace met again
    # a closer inside a tag's string does not close it, as Jinja's lexer reads it
    ('{{ "}}{#" }}7 kort #}', [(0, 12)]),
    ("{% set a = '%}' %}7", [(0, 18)]),
    ('{{ "a\\"}}" }}', [(0, 13)]),           # an escaped quote does not end the string
    ("{{ 'x }} 7", []),                      # a string never closed: no tag (Jinja refuses the page)
])
def test_tag_spans_are_the_tags_jinja_finds(text, spans):
    assert numbers.tag_spans(text) == spans


def test_a_dead_opener_stops_looking_only_when_every_kind_is_dead():
    # "{{" and "{%" dead, "{#" still finds its tag after them.
    assert numbers.tag_spans("{{ {% {# 1 #}") == [(6, 13)]
    assert numbers.tag_spans("{{ {% x {{ {# 2 #}") == [(11, 18)]


def test_tag_sub_replaces_each_tag_and_keeps_the_text_between():
    assert numbers.tag_sub("a{{ 1 }}b{% 2 %}c", lambda tag: f"<{len(tag)}>") == "a<7>b<7>c"
    assert numbers.tag_sub("no tags", lambda tag: "X") == "no tags"


@pytest.mark.parametrize("text, found", [
    ("Det finnes 52 kort.", [(1, 12, "Det finnes 52 kort.")]),
    ("ingen tall\n  og 7 her ", [(2, 6, "og 7 her")]),
    ("{{ 52 }} kort\n{% if n > 3 %}\n{# 9 #}", []),
    ("1. først\n2. så\n   10. inni", []),            # ordered-list markers are markup
    ("1.5 kort", [(1, 1, "1.5 kort")]),               # a decimal is no list marker
    ("12.mai", [(1, 1, "12.mai")]),
    ("- 3. punkt", [(1, 3, "- 3. punkt")]),
    ("{{ a\n}} 4", [(2, 4, "}} 4")]),                  # a tag over two lines keeps the line numbers
    ("x ² y", [(1, 3, "x ² y")]),                      # any number character, not only 0-9
    ("1. og 7", [(1, 7, "1. og 7")]),                  # a list marker blanked, the columns kept
    ("  10. og 7", [(1, 10, "10. og 7")]),
    # issue 40: where Markdown makes no list of «29.», it is a number the reader sees
    ("Tekst.\n\n    29. kort i koden", [(3, 5, "29. kort i koden")]),           # indented code
    ("```\n29. kort\n```", [(2, 1, "29. kort")]),                            # a fence (code or paragraph)
    ("29.\u00a0kort", [(1, 1, "29.\u00a0kort")]),                             # a no-break space: a paragraph
    ("Kortene ligger\n29. kort", [(2, 1, "29. kort")]),                       # a paragraph goes on
    ("29.", [(1, 1, "29.")]),                                                  # alone: a paragraph
    ("{{ s.site_name }} 12. kort", [(1, 19, "{{ s.site_name }} 12. kort")]),   # after a printed value
    ("Det er &half; igjen, &#xbd;", [(1, 8, "Det er &half; igjen, &#xbd;")]),  # a reference shows ½
    ("Kort \U0001e4f1", [(1, 6, "Kort \U0001e4f1")]),                        # a digit newer than Python's Unicode
    ('{{ "}}{#" }}7 kort #}', [(1, 13, '{{ "}}{#" }}7 kort #}')]),             # a closer inside a tag's string
    ("Tekst.\n\n1. først\n2. så", []),                                       # a list after a paragraph: markers
])
def test_bare_digits_are_found_with_their_line_and_column(text, found):
    assert numbers.bare_digits_in_page(text) == found


def test_a_page_problem_names_file_line_column_and_the_line():
    path = Path("docs/nb/pages/x.md")
    long_line = "Det finnes 52 kort " + "og mer " * 20
    assert numbers.page_problems(path, "tekst\n" + long_line) == [
        f"docs/nb/pages/x.md, line 2, column 12: {GUARD} ('{long_line.strip()[:60]}'); "
        "use a value from the verified data or docs/facts.yml instead"]


def test_a_page_problem_inside_a_tag_names_its_line():
    problems = numbers.page_problems(Path("p.md"), "tekst\n\n{{ 52 }}")
    assert problems and all(p.startswith("p.md, line 3: ") for p in problems)


def test_a_page_is_read_from_its_file_when_no_text_is_given(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("linje\n7 kort\n", encoding="utf-8")
    assert numbers.page_problems(page) == [
        f"{page}, line 2, column 1: {GUARD} ('7 kort'); use a value from the verified data or docs/facts.yml instead"]


def test_a_template_syntax_error_is_a_problem_with_its_line():
    assert numbers.page_problems(Path("p.md"), "a\n{% if %}") == [
        "p.md, line 2: template syntax error: Expected an expression, got 'end of statement block'"]
    assert numbers.page_problems(Path("p.md"), "3 a\n{% if %}")[0].startswith("p.md, line 1, column 1: ")


def test_string_digits_count_outside_placeholders_only_and_are_named_by_their_key():
    strings = {"a": {"b": "Runde {round} av {total}", "c": "7 kort"}, "list": ["ok", "trekk 2", "3 ganger"],
               "n": 3, "z": "{Bad} 9", "p": "{round}s"}
    assert numbers.string_problems(Path("s.yml"), strings) == [
        "s.yml: string 'a.c' contains a number typed by hand ('7 kort')",
        "s.yml: string 'list.1' contains a number typed by hand ('trekk 2')",
        "s.yml: string 'list.2' contains a number typed by hand ('3 ganger')",
        "s.yml: string 'z' contains a number typed by hand ('{Bad} 9')"]
    long = "9" + "x" * 80
    assert numbers.string_problems(Path("s.yml"), [long]) == [f"s.yml: string '0' contains a number typed by hand ('{long[:60]}')"]
    assert numbers.string_problems(Path("s.yml"), "1 kort", "top.") == ["s.yml: string 'top' contains a number typed by hand ('1 kort')"]


def test_has_digit():
    assert numbers.has_digit("a7") and numbers.has_digit("7") and not numbers.has_digit("abc") and not numbers.has_digit("")


EXAMPLE = {"file": "examples/x.yaml", "text_files": {"da": "docs/da/examples/x.yml"},
           "steps": [{"number": 1, "line": 9, "note_lines": {"da": 4}, "notes": {"nb": "Ta paret.", "da": "Tag 2 kort."}},
                     {"number": 2, "line": 11, "notes": {"nb": "Bra.", "da": ""}},
                     {"number": 3, "notes": {"nb": "", "da": ""}},
                     {"number": 4, "line": 13},
                     {"number": 5, "line": 15, "notes": {"nb": "Snu."}}],
           "title": {"nb": "Utdeling", "da": "Spil 5"}, "summary": {"nb": "Vi 3", "da": "Fint"},
           "lines": {"title.da": 2, "summary.nb": 6}}


def test_a_note_is_found_in_its_language_file_else_in_the_example_file():
    step = EXAMPLE["steps"][0]
    assert numbers.note_place(EXAMPLE, step, "da") == ("docs/da/examples/x.yml", 4)
    assert numbers.note_place(EXAMPLE, step, "nb") == ("examples/x.yaml", 9)
    assert numbers.note_place(EXAMPLE, {"number": 5}, "nb") == ("examples/x.yaml", "?")
    assert numbers.note_place({"file": "e.yaml"}, {"note_lines": {"nb": 3}}, "nb") == ("e.yaml", 3)


def test_notes_titles_and_summaries_are_held_to_the_guard_each_named_exactly():
    assert numbers.note_problems([EXAMPLE], ["nb", "da"]) == [
        "docs/da/examples/x.yml, line 4, move 1: the da note contains a number typed by hand ('Tag 2 kort.'); "
        "a note may not state figures, the pages do that from data",
        "examples/x.yaml, line 11, move 2: the note has no da text (the other languages have one)",
        "examples/x.yaml, line 15, move 5: the note has no da text (the other languages have one)",
        "docs/da/examples/x.yml, line 2: the da title contains a number typed by hand ('Spil 5'); "
        "the page gives the deal's number and figures itself",
        "examples/x.yaml, line 6: the nb summary contains a number typed by hand ('Vi 3'); "
        "the page gives the deal's number and figures itself"]


def test_a_note_in_no_language_and_a_long_note_are_handled():
    example = {"file": "e.yaml", "steps": [{"number": 1, "line": 2, "notes": {"nb": "   ", "da": " "}},
                                           {"number": 2, "notes": {"nb": "7" + "x" * 70}}],
               "title": {"nb": "Tittel 1 " + "x" * 70}}
    assert numbers.note_problems([example], ["nb"]) == [
        f"e.yaml, line ?, move 2: the nb note contains a number typed by hand ('{('7' + 'x' * 70)[:60]}'); "
        "a note may not state figures, the pages do that from data",
        f"e.yaml, line ?: the nb title contains a number typed by hand ('{('Tittel 1 ' + 'x' * 70)[:60]}'); "
        "the page gives the deal's number and figures itself"]


def test_a_stray_number_among_many_list_items_is_found_at_its_line():
    """list_markers halves the candidates until each part is markers or one line: the stray
    «29.» continuing a paragraph is found among a hundred list items, and they stay exempt."""
    items = "".join(f"{n}. punkt\n" for n in range(1, 101))
    text = "Tekst.\n\n" + items + "\nKortene\n29. kort\n\n" + items
    assert numbers.bare_digits_in_page(text) == [(105, 1, "29. kort")]


def test_past_its_render_budget_the_guard_takes_a_candidate_for_a_number(monkeypatch):
    """A page of many look-alikes is not rendered once per line: past MARKER_RENDERS the rest
    are reported (the guard cannot decide, so it says no), the real list markers too."""
    monkeypatch.setattr(numbers, "MARKER_RENDERS", 3)
    text = "".join("29.\u00a0kort\n\n" for _ in range(40)) + "1. punkt\n"
    assert [line for line, _, _ in numbers.bare_digits_in_page(text)] == list(range(1, 80, 2)) + [81]
