"""Counts and genders by the book (issue 42, item 2): every counted text of the game has a form per
CLDR plural category of its language (generator/inputs/plural_forms.py), the game picks the form by
the same rule Babel gives the pages (app/core/locale.js pluralCategory, fed generator/render/game_locale.py),
and writes the count with the locale's digits or, as {count_word}, as the pages' Words.spell does.
No sentence about a chosen card leans on the card's grammatical gender."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale
from babel.numbers import format_decimal

from generator.inputs.languages import load_languages
from generator.inputs.plural_forms import counted_problems, counted_texts
from generator.render.context import Words
from generator.render.game_locale import plural_rule

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))
from helpers.game_harness import strings as page_strings  # noqa: E402

LANGUAGES = load_languages(ROOT / "docs")[0]
COUNTS = (0, 1, 2, 5)
# Locales with other categories than nb's and da's (few, many, two, zero; none but other in ja).
OTHER_LOCALES = ["en", "fr", "pt", "ru", "pl", "cs", "lt", "lv", "ar", "cy", "ga", "sl", "he", "ja", "is", "mk"]
NUMBERS = list(range(0, 260)) + [1000, 1001, 1011, 1021, 10_000, 100_000, 1_000_000, 2_000_000, 4_294_967_295]


def node(script: str) -> object:
    from verify.app import find_node
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def game_fills(strings: dict, texts: list, counts) -> list[list[str]]:
    """What the game writes (app/ui/board.js makeWords fill) for each counted text and count."""
    return node("import('./app/ui/board.js').then(({ makeWords }) => { const w = makeWords(%s);"
                " console.log(JSON.stringify(%s.map((t) => %s.map((count) => w.fill(t, { count }))))); })"
                % (json.dumps(strings), json.dumps(texts), json.dumps(list(counts))))


@pytest.mark.parametrize("code", [lang.code for lang in LANGUAGES] + OTHER_LOCALES)
def test_the_game_gives_each_number_the_plural_category_babel_gives_it(code):
    locale = Locale.parse(code)
    picked = node("import('./app/core/locale.js').then(({ pluralCategory }) => { const p = pluralCategory({ plural: %s });"
                  " console.log(JSON.stringify(%s.map(p))); })" % (json.dumps(plural_rule(locale)), json.dumps(NUMBERS)))
    assert picked == [locale.plural_form(n) for n in NUMBERS]


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.code)
def test_every_counted_text_reads_right_for_0_1_2_and_5(lang):
    strings = page_strings(lang.code)
    texts = dict(counted_texts(lang.game_strings))
    # The texts the reviews found wrong are counted ones now (and a new counted text is met below by itself).
    assert {"daily.streak", "solution.lost", "solution.lost_none", "counts.positions", "counts.moves", "counts.points", "board.turns_left",
            "variants.summaries.standard", "redo.redone_all", "hint.lost_back", "board.cards"} <= set(texts)
    locale, words = Locale.parse(lang.code), Words(lang)
    written = game_fills(strings, list(texts.values()), COUNTS)
    for (key, forms), row in zip(texts.items(), written):
        for count, text in zip(COUNTS, row):
            form = forms[locale.plural_form(count)]
            expected = form.replace("{count}", format_decimal(count, locale=locale)).replace("{count_word}", words.spell(count))
            assert text == expected, f"{lang.code} {key} for {count}"
            assert "{count" not in text


@pytest.mark.parametrize("code, count, expected", [
    ("nb", 1, "Du har vunnet dagens utdeling én dag på rad."),
    ("nb", 2, "Du har vunnet dagens utdeling 2 dager på rad."),
    ("da", 1, "Du har vundet dagens kortfordeling én dag i træk."),
    ("da", 5, "Du har vundet dagens kortfordeling 5 dage i træk."),
])
def test_the_daily_streak_counts_its_days(code, count, expected):
    strings = page_strings(code)
    assert game_fills(strings, [strings["daily"]["streak"]], [count]) == [[expected]]


def test_one_card_left_is_no_longer_one_of_the_cards_and_the_turns_are_words():
    nb, da = page_strings("nb"), page_strings("da")
    [[nb_one, nb_two]] = game_fills(nb, [nb["solution"]["lost_none"]], [1, 2])
    assert "de 1 " not in nb_one and "Kortet som er igjen" in nb_one and "de 2 kortene" in nb_two
    [[da_one]] = game_fills(da, [da["solution"]["lost_none"]], [1])
    assert "de 1 " not in da_one and "Det sidste kort" in da_one
    # The rules choice's summary of the standard rules writes its small count as the pages do (B8).
    assert game_fills(nb, [nb["variants"]["summaries"]["standard"]], [2]) == [["Tøm pyramiden. Kastebunken kan vendes tilbake to ganger."]]
    assert game_fills(da, [da["variants"]["summaries"]["standard"]], [2]) == [["Tøm pyramiden. Afkastbunken kan lægges tilbage to gange."]]


def test_a_count_given_as_text_is_refused_not_guessed():
    strings = page_strings("nb")
    with pytest.raises(subprocess.CalledProcessError) as caught:
        node("import('./app/ui/board.js').then(({ makeWords }) => makeWords(%s).fill(%s, { count: '1' }))"
             % (json.dumps(strings), json.dumps(strings["daily"]["streak"])))
    assert "needs its count as a number" in caught.value.stderr


@pytest.mark.parametrize("code, forms, said", [
    ("nb", {"other": "{count} dager"}, "missing one"),
    ("nb", {"one": "én dag", "few": "{count} dager", "other": "{count} dager"}, "few not a category of nb"),
    ("pl", {"one": "1 dzień", "other": "{count} dni"}, "missing few, many"),
    ("nb", {"one": "", "other": "{count} dager"}, "'daily.streak.one' must be the text of that form"),
])
def test_a_counted_text_without_its_language_s_forms_is_named(code, forms, said):
    problems = counted_problems(Path(f"docs/{code}/game.json"), {"daily": {"streak": forms}}, Locale.parse(code))
    assert len(problems) == 1 and problems[0].startswith(f"docs/{code}/game.json: '")
    assert said in problems[0] and "daily.streak" in problems[0]


def test_the_site_s_counted_texts_have_their_language_s_forms():
    for lang in LANGUAGES:
        assert counted_problems(lang.folder / "game.json", lang.game_strings, Locale.parse(lang.code)) == []


# Words that agree with a noun's gender, said of the card a template names: a pronoun for it or
# a predicative adjective (nb «fri»/«fritt», da «fri»/«frit»). Participles such as «fjernet»,
# «valgt», «dekket» are the same in both genders.
GENDERED = {"nb": {"den", "det", "fri", "fritt", "denne", "dette"}, "da": {"den", "det", "fri", "frit", "denne", "dette"}}
CARD_PLACES = ("{card}", "{a}", "{b}", "{over}")


def card_templates(data, prefix=""):
    if isinstance(data, dict):
        for key, value in data.items():
            yield from card_templates(value, f"{prefix}{key}.")
    elif isinstance(data, str) and any(place in data for place in CARD_PLACES):
        yield prefix[:-1], data


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.code)
def test_no_sentence_about_a_card_leans_on_its_gender(lang):
    gendered = GENDERED.get(lang.code)
    if gendered is None:
        pytest.skip(f"no list of gendered words for {lang.code}")
    templates = dict(card_templates(lang.game_strings))
    assert "messages.selected" in templates and "refused.free.covered" in templates
    for key, text in templates.items():
        said = {word.strip(".,:;!?«»–").lower() for word in text.split()} & gendered
        assert not said, f"{lang.code} {key}: {text!r} says {said} of a card whose gender it does not know"
