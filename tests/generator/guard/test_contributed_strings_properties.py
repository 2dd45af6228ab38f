"""The strings a contributor writes that reach the site — docs/<lang>/strings.yml, game.json,
theme.yml, numbers.yml (the words `spell` prints) and facts.yml (the sources' words) — for any value
at any of their strings: the build's lint (generator/site/build.py lint, what `make verify`, `make
site` and the PO import run) either refuses it, each problem one line naming the file and the
string's key or line, or the value is inert: no number character (any script, fractions,
superscripts, none behind a character reference either), no tag, no character reference, no
`javascript:` address.

What an inert value then becomes on a page is the sandbox's and the escaping's business, held by
test_text_rule_properties.py, test_sandbox_properties.py and test_site.py; here the promise is
that nothing else gets that far. Two breaks it found, now refused: a digit as the word for a
count in numbers.yml («"7": "8"» printed "8 rader" for seven rows) and a number in facts.yml's
words for a source («Wikipedia 3 på engelsk» on the sources page)."""
from __future__ import annotations

import html
import json
import re
import shutil

import pytest
import yaml
from hypothesis import event, given, strategies as st

from generator.errors import BuildError
from generator.inputs.languages import load_languages
from generator.inputs.theme_words import ONE_KEYS
from generator.site.build import lint
from helpers.languages import LANGUAGES
from helpers.number_characters import NUMBERS, is_number
from helpers.po_docs import ROOT
from helpers.properties import property_settings

FILES = ("strings.yml", "game.json", "theme.yml", "numbers.yml", "facts.yml")
HOSTILE = ["{{ rules.deck_size }}", "{% if x %}", "{{", "{%", "{#", "<script>alert(1)</script>", "<b>", "</p>",
           '" onmouseover="alert(1)', "' autofocus onfocus='alert(1)", "javascript:alert(1)", "![x](y.png)",
           "&half;", "&frac12;", "&#51;", "&#x33;", "&amp;", "&lt;script&gt;", "½", "⅞", "²", "①", "Ⅻ", "٣", "३",
           "{n}", "{value}", "{0}", "%s", '"', "'", "<", ">", "&", "\\", "kort", "Kabale", " ", "–"]
VALUE = st.one_of(
    st.lists(st.sampled_from(HOSTILE) | NUMBERS, min_size=1, max_size=4).map(" ".join),
    st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=3).map("".join),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
    st.sampled_from(["Kortene ligger klar", "sju", "Ett kort"]).map(lambda s: s + " ord" * 3000),  # very long
)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
MARKUP = re.compile(r"<[A-Za-z!/?]|&#?\w+;|javascript:", re.IGNORECASE)


def string_leaves(data, path=()):
    """(path, text) of every string in a mapping or list."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from string_leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from string_leaves(value, (*path, index))
    elif isinstance(data, str):
        yield path, data


def read(file):
    text = file.read_text(encoding="utf-8")
    return json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    copy = tmp_path_factory.mktemp("strings") / "docs"
    shutil.copytree(ROOT / "docs", copy)
    return copy


# Each file as likely as another (numbers.yml has 14 strings, game.json hundreds), then any string of it.
FILE_PLACES = {(lang, name): [path for path, _ in string_leaves(read(ROOT / "docs" / lang / name))]
               for lang in LANGUAGES for name in FILES if (ROOT / "docs" / lang / name).is_file()}
PLACES = st.sampled_from(sorted(FILE_PLACES)).flatmap(
    lambda file: st.sampled_from(FILE_PLACES[file]).map(lambda path: (*file, path)))


def planted(file, path, value) -> int | None:
    """The file with `value` at `path`, written in the file's own way; the value's line (YAML)."""
    text = file.read_text(encoding="utf-8")
    if file.suffix == ".json":
        data = json.loads(text)
        place = data
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value
        file.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return None
    node = yaml.compose(text)
    for key in path:  # down the tree to the string's node
        node = node.value[key] if isinstance(node, yaml.SequenceNode) else \
            next(v for k, v in node.value if k.value == str(key))
    scalar = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=float("inf")).rstrip("\n")
    file.write_text(text[:node.start_mark.index] + scalar + text[node.end_mark.index:], encoding="utf-8")
    return node.start_mark.line + 1


def inert(value: str, singular: bool) -> bool:
    """No number character (a {name} set aside: what the generator puts there is its own; and
    the «1» of a theme's singular word), none behind a character reference, no markup.
    (`{{ … }}` in a string is text: a string is data, filled by {name} only, never rendered.)"""
    blanked = PLACEHOLDER.sub(" ", value.replace("1", " ", 1) if singular else value)
    return not any(is_number(c) for c in blanked + html.unescape(blanked)) and not MARKUP.search(value)


@property_settings(40, shrink=False)
@given(place=PLACES, value=VALUE)
def test_any_value_of_a_contributed_string_is_refused_by_name_or_inert(docs, place, value):
    lang, name, path = place
    file = docs / lang / name
    kept = file.read_bytes()
    try:
        line = planted(file, path, value)
        try:
            languages, default = load_languages(docs)
            problems = lint(languages, default, (), docs)
        except BuildError as e:
            problems = [str(e)]
    finally:
        file.write_bytes(kept)
    key = ".".join(map(str, path))
    mine = [p for p in problems if str(file) in p]
    assert len(mine) == len(problems), problems  # nothing else is blamed
    event("refused" if mine else "accepted")
    if mine:
        named = [p for p in mine if f"'{key}'" in p or f'"{key}"' in p or (line and f"line {line}" in p)]
        assert named and all("\n" not in p for p in mine), mine
    else:
        assert inert(value, name == "theme.yml" and key in ONE_KEYS), (file, key, value)
