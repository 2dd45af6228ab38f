"""The number guard's promise, held for every input of a class rather than for the lines its
examples thought of: no number character reaches a page unless the data supplied it.

The guard is generator/guard/numbers.py (the page source's lint, interface strings, notes), its
one decision generator/guard/typed_digits.py `typed_digit_at`, the rendered page's check
generator/render/pages.py `typed_number_check` and the theme words' check
generator/site/build.py `theme_digit_problems`.

The promise, as these properties hold it: a number character (Unicode category N: the decimal
digits of every script, superscripts, fractions, circled numbers, Roman numerals) typed wherever
a page source holds text (a paragraph, a list item, a table cell, a heading, a blockquote, an
admonition, a code span, fenced or indented code, an HTML attribute, an attribute list, a
character reference, text between template tags, a text constant printed from a tag), with any
text around it ('%', '‰', braces, quotes, markup, letters of any script), is reported: by the
source's lint with its line and column, by the rendered page's check with its line, and by the
page build as a whole. A number in an interface string, an example's note or a theme word is
reported wherever it stands.

The exemptions are the ones the guard documents, modelled here from what the site's Markdown
(Python-Markdown, mkdocs.yml's extensions) does rather than from the guard's own pattern:
- an ordered-list marker: up to three spaces, ASCII digits, '.', then spaces or a tab, opening a
  block (after a blank line): Python-Markdown's list item, shown as the list's own numbering;
- digits inside template tags where the sandbox lets them stand and never prints them (a comment,
  a comparison, a card code, an index, a selector's argument);
- in a string a {placeholder} ({[a-z_]+}, which holds no digit), in a singular theme word
  (readtime.one …) its first «1».
Text holding no number character is never reported, and a number only where it is exempt is
never reported either, so each promise can fail both ways.

The classes the guard once spared (a list marker's look-alike continuing a paragraph, in code,
with an odd space, alone on its line or after a printed value; a character reference typed
without a digit; a number newer than this Python's Unicode; text after a closer inside a tag's
string) are cases like the others (MARKDOWN_CASES): Markdown, not a pattern, says what a list
marker is (generator/guard/numbers.py list_markers).
"""
from __future__ import annotations

import html.entities
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import assume, given, strategies as st

from generator.errors import BuildError
from generator.guard import numbers
from generator.guard.sandbox import PROBE_VALUE
from generator.inputs.theme_words import ONE_KEYS
from generator.render.pages import PAGE_FUNCTION_NAMES, typed_number_check
from generator.site.build import theme_digit_problems
from helpers.number_characters import NUMBERS, is_number
from helpers.page_sandbox import bundle_path, nb, render_one  # noqa: F401  (the fixtures and the one-page build)
from helpers.properties import property_settings

GUARD = "a number typed by hand"
FUNCTIONS = frozenset(PAGE_FUNCTION_NAMES)
# Every generated page opens with a paragraph and a blank line: the context under test opens a
# block of its own on line 3 (what makes "12. " a list item in Python-Markdown).
PRELUDE = "Tekst.\n\n"
FIRST_LINE = 3


# ---------------------------------------------------------------- what the lines are made of

OPENER = re.compile(r"\{[{%#]")  # a template tag's opener
# str.splitlines ends a line at each of these: filler stays on its line, so line numbers are the editor's.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
ASCII_NUMBERS = st.integers(0, 9999).map(str)
# Text around a number: '%' and its kin first (a guard skipping lines with '%' must be met
# often), markup characters, look-alikes of numbers that are letters or symbols (三 is Lo, № So),
# odd spaces, then any character of any script that is not itself a number.
PIECES = ["%", " %", "%)", "‰", " prosent", " kort", "Kortene ", " i ", "ø", "å", ".", ",", ";", ":", "!", "?",
          "(", ")", "[", "]", "{", "}", "<", ">", '"', "'", "`", "*", "_", "~", "-", "+", "=", "/", "\\", "|",
          "#", "&", "$", "@", "^", " ", "  ", "\t", "№", "°", "三", "ᵃ", "∞", "\u00a0"]
ANY_CHARACTER = st.characters(exclude_categories=("N", "Cs", "Cn"), exclude_characters=LINE_BREAKS)
# No filler opens a template tag: a number there would stand in a tag, judged by other rules.
FILLER = st.lists(st.sampled_from(PIECES) | ANY_CHARACTER, max_size=6).map("".join).filter(lambda s: not OPENER.search(s))
# For the whole page build, whose lint refuses markup, hidden characters and more before it
# looks for numbers: letters, spaces and punctuation that open no markup the lint refuses.
PLAIN_PIECES = ["%", " %", "‰", " prosent", " kort", "Kortene ", " i ", "ø", "å", "Æ", ".", ",", ";", ":", "?",
                "(", ")", "'", "*", "_", "-", "+", "/", "#", "|", " ", "  ", "№", "°", "三", "«", "»", "–"]
PLAIN = st.lists(st.sampled_from(PLAIN_PIECES) | st.sampled_from("abcdefghijklmnopqrstuvwxyzÆØÅ"),
                 max_size=6).map("".join)
WORDS = "Kortene ligger i pyramiden"

# What the guard's documented exemption can match at a line's start, read as broadly as its
# words allow: white space, ASCII digits, a full stop, then white space or the line's end.
# Only the part of it that is a Markdown list marker is exempt; the rest are MARKDOWN_CASES.
MARKER_LOOKALIKE = re.compile(r"\s*[0-9]+\.(\s|$)")
# Unicode white space a line may hold that Markdown does not take for the space after a list
# marker, or for indentation: the no-break spaces, the em and ideographic spaces, U+001F…
ODD_SPACES = [c for c in map(chr, range(0x3000 + 1)) if c.isspace() and c not in " \t" + LINE_BREAKS]
# Raw HTML, which the rendered check refuses before it looks for a number on the line
# (generator/guard/text_rules.py RAW_HTML).
RAW_HTML = re.compile(r"<[A-Za-z!/?]")


@dataclass(frozen=True)
class Case:
    text: str            # the page source
    line: int            # the line where the first typed number stands
    column: int | None   # its column (1-based); None for a constant in a tag, which the tree rules name by line
    typed: str | None    # the page's own text as rendering sees it (sandbox.typed_text); None for a printed value
    html: bool = False   # the context is raw HTML, which the page lint refuses first

    def raw_html_on_its_line(self) -> bool:
        """Whether the number's line holds raw HTML (the context's, or the filler's «<a»)."""
        return bool(RAW_HTML.search(self.text.splitlines()[self.line - 1]))


def case(lines: list[str], at: int, column: int | None, typed: list[str] | None = None, html: bool = False) -> Case:
    text = PRELUDE + "\n".join(lines) + "\n"
    typed_text = text if typed is None else PRELUDE + "\n".join(typed) + "\n"
    return Case(text, FIRST_LINE + at, column, None if column is None else typed_text, html)


def without_braces(filler):
    return filler.map(lambda s: s.replace("{", "(").replace("}", ")"))


# ---------------------------------------------------------------- the contexts a number can stand in
# Each takes the filler and the number to place, and returns a Case; a context whose own markup
# is a template tag keeps braces out of its filler.

@st.composite
def paragraph(draw, filler, number):
    a, d, b = draw(filler), draw(number), draw(filler)
    assume(not MARKER_LOOKALIKE.match(a + d + b))  # the look-alike has its own cases (MARKDOWN_CASES)
    return case([a + d + b], 0, len(a) + 1)


@st.composite
def bullet_item(draw, filler, number):
    head = draw(st.sampled_from(["- ", "* ", "+ ", "  - "]))
    a, d, b = draw(filler), draw(number), draw(filler)
    return case([head + a + d + b], 0, len(head) + len(a) + 1)


@st.composite
def ordered_item_text(draw, filler, number):
    """A number in an ordered list item's words, after its (exempt) marker."""
    head = draw(st.sampled_from(["", " ", "   "])) + draw(ASCII_NUMBERS) + "." + draw(st.sampled_from([" ", "  ", "\t"]))
    a, d, b = draw(filler), draw(number), draw(filler)
    return case([head + a + d + b], 0, len(head) + len(a) + 1)


OTHER_DECIMALS = st.characters(categories=("Nd",)).filter(lambda c: c not in "0123456789")


@st.composite
def marker_of_other_digits(draw, filler, number):
    """«٣. kort», «1２. kort»: the exemption is for ASCII digits; a marker holding any other is reported."""
    digits = draw(st.lists(ASCII_NUMBERS.map(lambda n: n[0]) | OTHER_DECIMALS, min_size=1, max_size=3)
                  .filter(lambda ds: any(d not in "0123456789" for d in ds)).map("".join))
    indent, space = draw(st.sampled_from(["", " ", "   "])), draw(st.sampled_from([" ", "  ", "\t"]))
    return case([f"{indent}{digits}.{space}{draw(filler)}"], 0, len(indent) + 1)


@st.composite
def table_cell(draw, filler, number):
    piped = draw(st.booleans())
    a, d, b, other = draw(filler), draw(number), draw(filler), draw(filler)
    cells = [a + d + b, "x" + other] if draw(st.booleans()) else ["x" + other, a + d + b]
    row = (" | ".join(cells))
    head, rule = "Kort | Verdi", "--- | ---"
    if piped:
        row, head, rule = f"| {row} |", f"| {head} |", "|---|---|"
    return case([head, rule, row], 2, row.index(a + d + b) + len(a) + 1)


@st.composite
def heading(draw, filler, number):
    a, d, b = draw(filler), draw(number), draw(filler)
    if draw(st.booleans()):
        head = "#" * draw(st.integers(1, 6)) + " "
        return case([head + a + d + b], 0, len(head) + len(a) + 1)
    assume(not MARKER_LOOKALIKE.match(a + d + b))
    return case([a + d + b, draw(st.sampled_from(["===", "---"]))], 0, len(a) + 1)  # a setext heading


@st.composite
def blockquote(draw, filler, number):
    a, d, b = draw(filler), draw(number), draw(filler)
    return case(["> " + a + d + b], 0, len("> ") + len(a) + 1)


@st.composite
def admonition(draw, filler, number):
    a, d, b = draw(filler), draw(number), draw(filler)
    if draw(st.booleans()):
        head = draw(st.sampled_from(['!!! note "', '??? tip "', '???+ warning "']))
        return case([head + a + d + b + '"'], 0, len(head) + len(a) + 1)
    assume(not MARKER_LOOKALIKE.match(a + d + b))  # "    12. " in an admonition is a list item there
    return case(["!!! note", "", "    " + a + d + b], 2, 4 + len(a) + 1)


@st.composite
def code_span(draw, filler, number):
    a, b, d, c, e = draw(filler), draw(filler), draw(number), draw(filler), draw(filler)
    line = f"{a}`{b}{d}{c}`{e}"
    return case([line], 0, len(a) + 1 + len(b) + 1)


@st.composite
def fenced_code(draw, filler, number):
    fence = draw(st.sampled_from(["```", "~~~", "```text", "~~~python"]))
    a, d, b = draw(filler), draw(number), draw(filler)
    assume(not MARKER_LOOKALIKE.match(a + d + b))  # MARKDOWN_CASES: a list marker's look-alike in code
    return case([fence, a + d + b, fence[:3]], 1, len(a) + 1)


@st.composite
def indented_code(draw, filler, number):
    indent = draw(st.sampled_from(["    ", "      ", "        ", "\t"]))
    a, d, b = draw(filler), draw(number), draw(filler)
    assume(not MARKER_LOOKALIKE.match(indent + a + d + b))  # MARKDOWN_CASES: a list marker's look-alike in code
    return case([indent + a + d + b], 0, len(indent) + len(a) + 1)


@st.composite
def html_attribute(draw, filler, number):
    head = draw(st.sampled_from(['<span title="', '<a href="#', "<abbr title='", '<div class="', '<img alt="']))
    a, d, b = draw(filler), draw(number), draw(filler)
    return case([f"{head}{a}{d}{b}{head[-1]}>x"], 0, len(head) + len(a) + 1, html=True)


@st.composite
def attribute_list(draw, filler, number):
    a = draw(filler)
    name = draw(st.text("abcdefghij-", min_size=1, max_size=5))
    d, rest = draw(number), draw(st.text("abcdefghij-", max_size=4))
    head = f"## Tittel{a} {{: {draw(st.sampled_from(['#', '.']))}{name}"
    return case([f"{head}{d}{rest} }}"], 0, len(head) + 1)


# Named references whose names are typed with a digit (&frac12; &sup2;), and any character by its code.
NAMED_WITH_DIGITS = sorted(name for name in html.entities.html5 if any(c in "0123456789" for c in name))


@st.composite
def character_reference(draw, filler, number):
    """A reference typed with digits: decimal (&#50;), hexadecimal holding one (&#x32;), or named (&frac12;)."""
    code = ord(draw(st.characters(exclude_categories=("Cs",))))
    reference = draw(st.sampled_from([f"&#{code};", f"&#x{code:x};", f"&#X{code:X};"]) | st.sampled_from(NAMED_WITH_DIGITS).map("&".__add__))
    assume(any(c in "0123456789" for c in reference))
    a, b = draw(filler), draw(filler)
    first = next(i for i, c in enumerate(reference) if c in "0123456789")
    return case([a + reference + b], 0, len(a) + first + 1)


IF_TAG, END_TAG = "{% if rules.target_sum %}", "{% endif %}"


@st.composite
def between_tags(draw, filler, number):
    a, d, b = draw(without_braces(filler)), draw(number), draw(without_braces(filler))
    # Rendered, the tags leave the words between them (the condition holds: rules.target_sum is 13),
    # at the line's start: there a list marker's look-alike is a list item, exempt.
    assume(not MARKER_LOOKALIKE.match(a + d + b))
    return case([IF_TAG + a + d + b + END_TAG], 0, len(IF_TAG) + len(a) + 1, typed=[a + d + b])


def quoteless(filler):
    return without_braces(filler).map(lambda s: re.sub(r"[\"\\]", "'", s))


@st.composite
def constant_in_a_tag(draw, filler, number):
    """Text typed inside a tag and printed: the sandbox's tree rules name its line."""
    a, d, b = draw(quoteless(filler)), draw(number), draw(quoteless(filler))
    form = draw(st.sampled_from(['{{{{ "{}" }}}}', '{{% set typed = "{}" %}}{{{{ typed }}}}',
                                 '{{{{ s.site_name if rules.target_sum else "{}" }}}}']))
    return case([form.format(a + d + b)], 0, None)


CONTEXTS = {f.__name__: f for f in (paragraph, bullet_item, ordered_item_text, marker_of_other_digits, table_cell,
                                     heading, blockquote, admonition, code_span, fenced_code, indented_code,
                                     html_attribute, attribute_list, character_reference, between_tags,
                                     constant_in_a_tag)}


# ---------------------------------------------------------------- MARKDOWN_CASES: what Markdown decides
# Each is a number that reaches the page as a number (checked in Python-Markdown with the site's
# extensions) that a list-marker pattern, or a narrower idea of a digit, would let through.

@st.composite
def marker_lookalike_continuing_a_paragraph(draw, filler, number):
    """«Kortene ligger i pyramiden\\n29. kort»: Python-Markdown starts no list inside a paragraph,
    so «29.» is printed in the paragraph's text."""
    indent, digits, space, words = (draw(st.sampled_from(["", " ", "   "])), draw(ASCII_NUMBERS),
                                    draw(st.sampled_from([" ", "\t"])), draw(filler))
    return case([WORDS, f"{indent}{digits}.{space}{words}"], 1, len(indent) + 1)


@st.composite
def marker_lookalike_in_code(draw, filler, number):
    """«    29. kort» after a paragraph, or «29. kort» between fences: code, printed as typed."""
    digits, words = draw(ASCII_NUMBERS), draw(filler)
    if draw(st.booleans()):
        indent = draw(st.sampled_from(["    ", "\t", "        "]))
        return case([indent + f"{digits}. {words}"], 0, len(indent) + 1)
    return case(["```", f"{digits}. {words}", "```"], 1, 1)


@st.composite
def marker_lookalike_with_an_odd_space(draw, filler, number):
    """«29.\\u00a0kort», «\\u3000 29. kort»: Markdown takes only spaces and tabs around a list
    marker, the guard any Unicode white space; the paragraph prints «29.»."""
    digits, odd, words = draw(ASCII_NUMBERS), draw(st.sampled_from(ODD_SPACES)), draw(filler)
    if draw(st.booleans()):
        return case([f"{digits}.{odd}{words}"], 0, 1)
    return case([f"{odd}{digits}. {words}"], 0, len(odd) + 1)


@st.composite
def marker_lookalike_alone_on_its_line(draw, filler, number):
    """«29.» alone on a line: no list item in Markdown (it needs words after the marker), printed
    as a paragraph. The source's lint spares it; the rendered check does not."""
    indent, digits = draw(st.sampled_from(["", " ", "   "])), draw(ASCII_NUMBERS)
    return case([f"{indent}{digits}."], 0, len(indent) + 1)


# Character references to a number, typed without a digit: the one named reference (&half;) and
# hexadecimal ones whose code is all letters (&#xbd; ½, &#xaef; Gujarati nine …).
UNDIGITED_REFERENCES = ["&half;"] + [f"&#{x}{cp:{'x' if x == 'x' else 'X'}};" for cp in range(0x1000)
                                     if is_number(chr(cp)) and not re.search("[0-9]", f"{cp:x}") for x in "xX"]


@st.composite
def reference_without_digits(draw, filler, number):
    """«&half;» or «&#xbd;» in a page: the browser shows ½ (Python-Markdown passes references through)."""
    a, reference, b = draw(filler), draw(st.sampled_from(UNDIGITED_REFERENCES)), draw(filler)
    return case([a + reference + b], 0, len(a) + 1)


# Number characters of Unicode versions after the one this Python's unicodedata knows (3.11: 14.0),
# to which they are unassigned (Cn): Kawi, Nag Mundari digits and Kaktovik numerals (15.0), Garay,
# Myanmar Pao, Sunuwar, Gurung Khema, Kirat Rai, Outlined, Ol Onal digits (16.0), Tolong Siki (17.0).
NEWER_NUMBER_RANGES = [(0x11F50, 0x11F59), (0x1E4F0, 0x1E4F9), (0x1D2C0, 0x1D2D3), (0x10D40, 0x10D49),
                       (0x116D0, 0x116E3), (0x11BF0, 0x11BF9), (0x16130, 0x16139), (0x16D70, 0x16D79),
                       (0x1CCF0, 0x1CCF9), (0x1E5F1, 0x1E5FA), (0x11DE0, 0x11DE9)]
NEWER_NUMBERS = [chr(cp) for low, high in NEWER_NUMBER_RANGES for cp in range(low, high + 1)]
UNKNOWN_NUMBERS = [c for c in NEWER_NUMBERS if unicodedata.category(c) == "Cn"]


@st.composite
def number_newer_than_the_unicode_database(draw, filler, number):
    """«𞓱 kort» (NAG MUNDARI DIGIT ONE): a decimal digit to Unicode 15, a browser and a reader;
    unassigned to the unicodedata the guard asks."""
    # Once this Python knows them all, the guard reports them: the case passes and its mark must go.
    a, d, b = draw(filler), draw(st.sampled_from(UNKNOWN_NUMBERS or NEWER_NUMBERS)), draw(filler)
    return case([a + d + b], 0, len(a) + 1)


PRINTED_VALUES = ["{{ s.site_name }}", "{{ rules.target_sum }}", "{{ ranks[0].name }}", "{{ s.site_name | upper }}",
                  "{% for r in ranks %}{{ r.name }}{% endfor %}"]


@st.composite
def marker_lookalike_after_a_printed_value(draw, filler, number):
    """«{{ s.site_name }} 12. kort» prints «Pyramide 12. kort»: the lint blanks the tag into spaces
    and the rendered check leaves the value out, and both take «12.» for a list marker at the line's start."""
    value, digits, words = draw(st.sampled_from(PRINTED_VALUES)), draw(ASCII_NUMBERS), draw(without_braces(filler))
    return case([f"{value} {digits}. {words}"], 0, len(value) + 2, typed=[f"{PROBE_VALUE} {digits}. {words}"])


TAG_STRING_CLOSERS = [("{% set hidden = \"%}{#\" %}", "#}"), ("{{ \"}}{#\" }}", "#}"),
                      ("{% set hidden = \"%}{{\" %}", "}}"), ("{{ \"}}{%\" }}", "%}")]


@st.composite
def text_after_a_closer_in_a_tag_string(draw, filler, number):
    """«{% set hidden = "%}{#" %}7 kort #}»: Jinja's tag ends after its string, and «7 kort #}» is
    page text; numbers.tag_sub ends the tag at the first «%}» and takes «{#" %}7 kort #}» for a comment."""
    head, closer = draw(st.sampled_from(TAG_STRING_CLOSERS))
    a, d, b = draw(quoteless(filler)), draw(number), draw(quoteless(filler))
    # Rendered, «5. }}» opens its line: a list item, exempt there.
    assume(not MARKER_LOOKALIKE.match(f"{a}{d}{b} {closer}"))
    return case([f"{head}{a}{d}{b} {closer}"], 0, len(head) + len(a) + 1, typed=[f"{a}{d}{b} {closer}"])


MARKDOWN_CASES = (marker_lookalike_continuing_a_paragraph, marker_lookalike_in_code,
                  marker_lookalike_with_an_odd_space, marker_lookalike_alone_on_its_line, reference_without_digits,
                  number_newer_than_the_unicode_database, text_after_a_closer_in_a_tag_string,
                  marker_lookalike_after_a_printed_value)
CONTEXTS.update({f.__name__: f for f in MARKDOWN_CASES})


def context(name: str, filler=FILLER, number=NUMBERS):
    return CONTEXTS[name](filler, number)


def number_problems(text: str) -> list[str]:
    return [p for p in numbers.page_problems(Path("page.md"), text, FUNCTIONS) if GUARD in p]


# ---------------------------------------------------------------- the page source's lint

@pytest.mark.parametrize("name", CONTEXTS)
def test_every_typed_number_in_any_context_is_reported_by_the_source_lint(name):
    @property_settings(80)
    @given(c=context(name))
    def holds(c):
        problems = number_problems(c.text)
        # One number on the page: one problem, on its line, at its column (the first number of the line).
        assert len(problems) == 1, (c, problems)
        if c.column is None:
            assert problems[0].startswith(f"page.md, line {c.line}: {GUARD} ("), (c, problems)
            assert "in a tag" in problems[0]
        else:
            assert problems[0].startswith(f"page.md, line {c.line}, column {c.column}: {GUARD} ("), (c, problems)
    holds()


# ---------------------------------------------------------------- the rendered page's check

@pytest.mark.parametrize("name", [name for name in CONTEXTS if name != "constant_in_a_tag"])
def test_every_typed_number_in_any_context_is_reported_by_the_rendered_check(name, tmp_path):
    """typed_number_check reads what the page wrote itself (values left out) and names the source line.
    A constant printed from a tag is a value there; the tree rules judge it (the source lint above)."""
    source = tmp_path / "page.md"

    @property_settings(60)
    @given(c=context(name))
    def holds(c):
        source.write_text(c.text, encoding="utf-8")
        with pytest.raises(BuildError) as e:
            typed_number_check(source, c.typed)
        message = str(e.value)
        assert message.startswith(f"{source}, line {c.line}: "), (c, message)
        # On a line with raw HTML the same check refuses the HTML first; either way the page stops there.
        assert GUARD in message or (c.raw_html_on_its_line() and "raw HTML" in message), (c, message)
    holds()


# ---------------------------------------------------------------- the page build as a whole

@pytest.mark.parametrize("name", CONTEXTS)
def test_every_typed_number_in_any_context_stops_the_page_build(name, nb, tmp_path):  # noqa: F811
    """The lint and the sandbox, as `gather` takes a page (render_one): refused in one line that
    starts with the file and the number's line."""
    page = tmp_path / "pages" / "page.md"

    @property_settings(25)
    @given(c=context(name, PLAIN))
    def holds(c):
        with pytest.raises(BuildError) as e:
            render_one(nb, tmp_path, c.text)
        message = str(e.value)
        assert "\n" not in message and message.startswith(f"{page}, line {c.line}"), (c, message)
        assert GUARD in message or (c.html and "raw HTML" in message), (c, message)
    holds()


# ---------------------------------------------------------------- never a number where there is none

NOT_NUMBERS = (st.sampled_from(["O", "o", "l", "I", "三", "十", "百", "壹", "№", "°", "ª", "º", "٫", "%", "‰", "∞", "#"])
               | ANY_CHARACTER)


# A character reference, a marker of other digits and the Markdown cases are made of numbers.
@pytest.mark.parametrize("name", [name for name in CONTEXTS if name not in ("character_reference", "marker_of_other_digits")
                                  and name not in {f.__name__ for f in MARKDOWN_CASES}])
def test_text_without_a_number_character_is_never_reported(name, nb, tmp_path):  # noqa: F811
    """The same contexts with a character that is no number where the number stood (letters that
    look like digits, numerals of words, '%', '№'): the source's lint, the rendered check and the
    page build report nothing."""
    source = tmp_path / "page.md"

    # A quote in a constant printed from a tag has its own case below (a false report).
    plain_filler = PLAIN.map(lambda s: s.replace("'", "«")) if name == "constant_in_a_tag" else PLAIN

    @property_settings(25)
    @given(c=context(name, number=NOT_NUMBERS), plain=context(name, plain_filler, st.sampled_from("Ol三№°%")))
    def holds(c, plain):
        # (An ordered item's marker is the exempt number its context is made of.)
        assert name == "ordered_item_text" or not any(is_number(ch) for ch in c.text)
        assert number_problems(c.text) == []
        if c.typed is not None:
            source.write_text(c.text, encoding="utf-8")
            try:
                typed_number_check(source, c.typed)
            except BuildError as e:  # raw HTML («<a» in the filler) is refused; never as a number
                assert GUARD not in str(e) and "raw HTML" in str(e), (c, str(e))
        if not plain.html:
            render_one(nb, tmp_path, plain.text)
    holds()


def test_a_quote_in_a_constant_printed_from_a_tag_is_no_number(nb, tmp_path):  # noqa: F811
    """Jinja would fold a constant into the page's own text, escaped (a quote as &#39;); the
    sandbox's finalize runs as the page renders, so the constant is a value there."""
    @property_settings(25)
    @given(a=PLAIN.map(lambda s: s.replace("'", "«")), quote=st.sampled_from(["'", '"']),
           b=PLAIN.map(lambda s: s.replace("'", "«")))
    def holds(a, quote, b):
        literal = f'"{a}{quote}{b}"' if quote == "'" else f"'{a}{quote}{b}'"
        render_one(nb, tmp_path, PRELUDE + "{{ " + literal + " }}\n")
    holds()


# ---------------------------------------------------------------- the exemptions, and only they

@st.composite
def exempt_numbers(draw):
    """A page whose numbers all stand where the guard documents them as no typed number, and a
    number typed in the words around them or not: (page, the typed number's line and column or None)."""
    words = draw(PLAIN)
    forms = [
        f"{draw(st.sampled_from(['', ' ', '   ']))}{draw(ASCII_NUMBERS)}.{draw(st.sampled_from([' ', '  ', chr(9)]))}{words}",
        f"{{# {words}{draw(ASCII_NUMBERS)} #}}{words}",
        f"{{% if rules.target_sum == {draw(ASCII_NUMBERS)} %}}{words}{{% endif %}}",
        f"{{% if ranks | length > {draw(ASCII_NUMBERS)} %}}{words}{{% endif %}}",
        f"{{{{ '{draw(st.sampled_from('A23456789TJQK'))}{draw(st.sampled_from('SHDC'))}' | card }}}}{words}",
        f"{{{{ ranks[{draw(st.integers(0, 12))}].name }}}}{words}",
        f"{{{{ ranks[-{draw(st.integers(1, 13))}].name }}}}{words}",
        "{{ ranks | selectattr('rank', 'equalto', '" + draw(st.sampled_from("23456789")) + "') | map(attribute='name') | first }}" + words,
    ]
    line = draw(st.sampled_from(forms))
    if draw(st.booleans()):
        return PRELUDE + line + "\n", None
    # (Not «0.» then space or the line's end: a list marker's look-alike after a tag is a MARKDOWN_CASES case.)
    d, tail = draw(st.sampled_from("0123456789²½٣Ⅻ")), draw(PLAIN.filter(lambda t: not t.startswith(".")))
    return PRELUDE + line + " " + d + tail + "\n", (FIRST_LINE, len(line) + 2)


def test_a_number_only_where_the_guard_exempts_it_is_not_reported(nb, tmp_path):  # noqa: F811
    """A list marker, a comment, a comparison, a card code, an index and a selector's argument
    hold numbers no reader sees as typed: no report, and the page builds. A number typed in the
    words beside them is reported at its column all the same (the exemption is not the line's)."""
    @property_settings(200)
    @given(page=exempt_numbers())
    def holds(page):
        text, typed = page
        problems = number_problems(text)
        if typed is None:
            assert problems == [], (text, problems)
            render_one(nb, tmp_path, text)
        else:
            line, column = typed
            assert len(problems) == 1 and problems[0].startswith(f"page.md, line {line}, column {column}: "), (text, problems)
    holds()


# ---------------------------------------------------------------- strings, notes and theme words

PLACEHOLDERS = st.sampled_from(["{deal}", "{round}", "{total}", "{per_card}", "{x}", "{", "}", "{}", "{Deal}", "{d_}"])
STRING_FILLER = st.lists(PLACEHOLDERS | st.sampled_from(PIECES) | st.characters(exclude_categories=("N", "Cs", "Cn")),
                         max_size=6).map("".join)
NON_ONE_KEY = "search"  # a theme word without the singular's «1» (generator/inputs/theme_words.py)
assert NON_ONE_KEY not in ONE_KEYS


def string_reports(value: str, one_key: bool = False) -> dict[str, bool]:
    """Whether each text check reports `value`: an interface string, an example's note and title,
    a theme word (a singular one when one_key)."""
    example = {"file": "e.yaml", "steps": [{"number": 1, "line": 2, "notes": {"nb": value}}], "title": {"nb": value}}
    notes = numbers.note_problems([example], ["nb"])
    key = ONE_KEYS[0] if one_key else NON_ONE_KEY
    return {"string": bool(numbers.string_problems(Path("s.yml"), {"a": {"b": value}})),
            "note": any("the nb note contains" in p for p in notes),
            "title": any("the nb title contains" in p for p in notes),
            "theme": bool(theme_digit_problems(Path("no-such-folder/theme.yml"), {key: value}))}


@property_settings(300)
@given(a=STRING_FILLER, d=NUMBERS, b=STRING_FILLER, one_key=st.booleans())
def test_every_typed_number_in_a_string_note_or_theme_word_is_reported(a, d, b, one_key):
    """Beside placeholders, inside braces, after '%': reported by every check, except the first
    «1» of a singular theme word, the one exemption strings have that can hold a digit."""
    reports = string_reports(a + d + b, one_key)
    exempt = one_key and d == "1"
    assert reports == {"string": True, "note": True, "title": True, "theme": not exempt}, (a + d + b, reports)


@property_settings(300)
@given(value=STRING_FILLER, one_key=st.booleans())
def test_a_string_without_a_number_character_is_never_reported(value, one_key):
    assert string_reports(value, one_key) == {"string": False, "note": False, "title": False, "theme": False}, value
