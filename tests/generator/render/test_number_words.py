"""Numbers as the page's language writes them: small counts as words with the noun's gender
(the `spell` filter), everything else in Babel's CLDR formats, and no number settings per
language."""
from datetime import date, datetime
from pathlib import Path

import pytest
from babel.dates import format_date
from babel.numbers import format_decimal

from generator.render.context import Words
from generator.errors import BuildError
from generator.inputs.languages import DOCS, Language, load_languages, read_yaml
from generator.render.pages import PageFunctions, make_environment, render_page
from generator.render.sourced import tagged_context

NBSP = "\u00a0"
COMMON = {
    "nb": ["null", "en", "to", "tre", "fire", "fem", "seks", "sju", "åtte", "ni", "ti", "elleve", "tolv"],
    "da": ["nul", "én", "to", "tre", "fire", "fem", "seks", "syv", "otte", "ni", "ti", "elleve", "tolv"],
}
NEUTER = {  # only «one» changes with the gender
    "nb": ["null", "ett"] + COMMON["nb"][2:],
    "da": ["nul", "ét"] + COMMON["da"][2:],
}


@pytest.fixture(scope="module")
def languages() -> dict[str, Language]:
    return {lang.code: lang for lang in load_languages()[0]}


@pytest.fixture(scope="module")
def words(languages) -> dict[str, Words]:
    return {code: Words(lang) for code, lang in languages.items()}


def other_language(languages, code: str) -> Language:
    """nb's strings under another language code: what a translator starts from."""
    nb = languages["nb"]
    return Language(code, code, code, nb.folder, nb.strings, nb.game_strings, nb.pages)


def environment(words: Words, folder: Path):
    context = {"_words": words}
    return make_environment(folder, context, PageFunctions(context, lambda page: ""))


# ---------------------------------------------------------------- spell: every form
@pytest.mark.parametrize("code", ["nb", "da"])
@pytest.mark.parametrize("n", range(13))
def test_every_count_up_to_twelve_is_a_word_in_both_genders(words, code, n):
    assert words[code].spell(n) == COMMON[code][n]
    assert words[code].spell(n, "c") == COMMON[code][n]
    assert words[code].spell(n, "n") == NEUTER[code][n]


@pytest.mark.parametrize("code, thirteen, thousand", [("nb", "13", f"1{NBSP}000"), ("da", "13", "1.000")])
def test_larger_counts_keep_their_digits(words, code, thirteen, thousand):
    for gender in ("c", "n"):
        assert words[code].spell(13, gender) == thirteen
        assert words[code].spell(1000, gender) == thousand


@pytest.mark.parametrize("code, source, expected", [
    ("nb", "{{ rows | spell }} rader, {{ one | spell('n') }} kort, {{ two | spell }} ganger",
     "sju rader, ett kort, to ganger"),
    ("da", "{{ rows | spell }} rækker, {{ one | spell('n') }} kort, {{ one | spell }} række, {{ two | spell }} gange",
     "syv rækker, ét kort, én række, to gange"),
    ("nb", "{{ deals | spell }} utdelinger", f"10{NBSP}000 utdelinger"),
    ("da", "{{ deals | spell }} spil", "10.000 spil"),
])
def test_pages_spell_counts_through_the_filter(words, tmp_path, code, source, expected):
    env = environment(words[code], tmp_path)
    # The values as a page gets them: the data's, tagged with their paths (generator/render/sourced.py).
    data = tagged_context({"rows": 7, "one": 1, "two": 2, "deals": 10_000})
    assert env.from_string(source).render(**data) == expected


@pytest.mark.parametrize("value, gender, message", [
    (2.5, "c", "spell: 2.5 is not a whole number"),
    ("7", "c", "spell: '7' is not a whole number"),
    (True, "c", "spell: True is not a whole number"),
    (None, "c", "spell: None is not a whole number"),
    (7, "m", "spell: unknown gender 'm'; use 'c' for common"),
])
def test_spell_refuses_what_is_not_a_count(words, value, gender, message):
    with pytest.raises(BuildError) as caught:
        words["nb"].spell(value, gender)
    assert str(caught.value).startswith(message)


def test_a_bad_spell_in_a_page_names_file_and_line(words, tmp_path):
    page = tmp_path / "index.md"
    page.write_text("# Tittel\n\nPyramiden har {{ rows | spell('x') }} rader.\n", encoding="utf-8")
    context = {"_words": words["nb"], "rows": 7}
    functions = PageFunctions(context, lambda page: "")
    env = make_environment(tmp_path, context, functions)
    with pytest.raises(BuildError) as caught:
        render_page(env, functions, page)
    assert str(caught.value).startswith(f"{page}, line 3: spell: unknown gender 'x'")


def test_a_language_without_number_words_is_told_where_to_add_them(languages):
    words = Words(other_language(languages, "sv"))
    assert words.spell(13) == "13"  # digits need no words
    with pytest.raises(BuildError, match=r"spell: no number word for 7 in language 'sv'; add it to .*numbers\.yml"):
        words.spell(7)
    with pytest.raises(BuildError, match=r"spell: no number word for 1 \(n\) in language 'sv'"):
        words.spell(1, "n")


def test_the_number_words_are_the_languages_own(languages):
    # A translator changes docs/<lang>/numbers.yml, never the generator's code.
    nb = languages["nb"]
    numbers = {"counts": {**nb.numbers["counts"], "7": "syv"}, "one": {"c": "ein", "n": "eitt"}}
    words = Words(Language("nb", "nb", "no", nb.folder, nb.strings, nb.game_strings, nb.pages, numbers))
    assert (words.spell(7), words.spell(1), words.spell(1, "n")) == ("syv", "ein", "eitt")


# ---------------------------------------------------------------- Babel: numbers, shares, dates
@pytest.mark.parametrize("code, number, share, decimal", [
    ("nb", f"4{NBSP}294{NBSP}967{NBSP}295", f"66,5{NBSP}%", f"1{NBSP}234,6"),
    ("da", "4.294.967.295", f"66,5{NBSP}%", "1.234,6"),
])
def test_numbers_in_the_site_look(words, code, number, share, decimal):
    w = words[code]
    assert w.num(4294967295) == number == format_decimal(4294967295, locale=code)
    assert w.pct(0.6654) == share
    assert w.pct(0.658) == f"65,8{NBSP}%"  # one decimal always, as the pages have it
    assert w.pct(1) == f"100,0{NBSP}%"
    assert w.decimal(1234.56) == decimal
    assert w.decimal(0.5, places=2) == "0,50"


@pytest.mark.parametrize("code", ["nb", "da"])
@pytest.mark.parametrize("value", ["2026-10-30", date(2026, 10, 30), datetime(2026, 10, 30, 23, 59)])
def test_dates_in_cldr_long_form(words, code, value):
    assert words[code].date(value) == "30. oktober 2026" == format_date(date(2026, 10, 30), "long", locale=code)


def test_month_names_come_from_cldr_not_from_strings(words):
    assert words["nb"].date("2026-05-17") == "17. mai 2026"
    assert words["da"].date("2026-03-01") == "1. marts 2026"


@pytest.mark.parametrize("value", ["30.10.2026", "", 20261030])
def test_a_bad_date_is_refused(words, value):
    with pytest.raises(BuildError, match="not a date"):
        words["nb"].date(value)


def test_a_new_language_needs_only_its_code(languages):
    """The code alone gives Babel's locale: Swedish groups with no-break spaces, English with commas."""
    assert Words(other_language(languages, "sv")).num(1234567) == f"1{NBSP}234{NBSP}567"
    assert Words(other_language(languages, "en")).num(1234567) == "1,234,567"
    assert Words(other_language(languages, "en")).pct(0.6654) == "66.5%"
    assert Words(other_language(languages, "pt-BR")).num(1234567) == "1.234.567"


def test_an_unknown_language_code_is_refused(languages):
    with pytest.raises(BuildError, match=r"docs/languages.yml: language code 'xx-nowhere' is not a locale Babel knows"):
        Words(other_language(languages, "xx-nowhere"))


def test_languages_carry_no_number_settings():
    for entry in read_yaml(DOCS / "languages.yml")["languages"]:
        assert not {"thousands", "decimal", "months"} & set(entry), entry


@pytest.mark.parametrize("code", ["nb", "da"])
@pytest.mark.parametrize("value", ["2026-07", date(2026, 7, 15), datetime(2026, 7, 1)])
def test_months_in_cldr_words(words, code, value):
    assert words[code].month(value) == "juli 2026"


@pytest.mark.parametrize("value", ["juli 2026", "2026-13", "2026-07-01", 202607])
def test_a_bad_month_is_refused(words, value):
    with pytest.raises(BuildError, match="not a month"):
        words["nb"].month(value)
