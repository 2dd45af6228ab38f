"""Page sources, strings, theme words and game.json are content, not code (issue 22, part 1).

Each attack a hostile translator could send is refused with one problem naming file and line
(or shown harmless); every test here fails on the generator before the sandbox. Most run the
generator in-process on one page (`render_one`: the same lint and sandbox `gather` uses, without
the other pages), the rest a whole `gather` on a copy of docs/.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
import unicodedata
from pathlib import Path

import jinja2
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from generator.site import build as site
from generator.site.csp import UnknownScript, with_policy
from generator.errors import BuildError
from generator.render.placeholders import fill, format_problem
from generator.guard.glossary import find, load as load_glossary
from generator.inputs.source_files import loads_strict
from generator.site.offline import precached
from generator.render.pages import PAGE_FUNCTION_NAMES
from generator.site.root_pages import language_choice_script
from generator.guard.sandbox import MAX_ITERATIONS, MAX_NUMBER_BITS
from generator.settings import OVERRIDES
from generator.guard.text_rules import page_markup_problems
from helpers.page_sandbox import bundle_path, nb, render_one  # noqa: F401  (the fixtures and the one-page build)

ROOT = Path(__file__).resolve().parents[3]
MARK = "pyramide-sandbox-ran"  # a file the attacks try to create
SECRET = "secret-token-5d1f"    # in a file outside the page set
SENTINEL = "987654"             # a number no data holds


@pytest.fixture
def docs(tmp_path):
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy)
    return copy


def refused(nb, tmp_path, text: str, *expected: str) -> str:
    with pytest.raises(BuildError) as e:
        render_one(nb, tmp_path, text)
    message = str(e.value)
    assert "\n" not in message, message
    assert f"{tmp_path / 'pages' / 'page.md'}, line" in message, message
    for part in expected:
        assert part in message, message
    return message


# ---------------------------------------------------------------- no code runs

CODE = [
    "{{ cycler.__init__.__globals__.os.popen('touch " + MARK + "').read() }}",
    "{{ joiner.__init__.__globals__.os.popen('touch " + MARK + "').read() }}",
    "{{ lipsum.__globals__['os'].popen('touch " + MARK + "').read() }}",
    "{{ namespace.__init__.__globals__.os.popen('touch " + MARK + "').read() }}",
    "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.popen('touch " + MARK + "') }}",
    "{{ rules.__class__.__mro__ }}",
    "{{ rules.items() }}",
    "{{ s.site_name.format }}",
    "{{ game.__globals__ }}",
    "{{ rules['__class__'] }}",
    "{{ (rules|attr('__class__')) }}",
    "{% autoescape false %}{{ s.site_name }}{% endautoescape %}",
    "{{ s.site_name | safe }}",
    "{{ '%s' | format(s.site_name) }}",
]


@pytest.mark.parametrize("attack", CODE)
def test_no_page_source_reaches_a_python_object(nb, tmp_path, attack):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        refused(nb, tmp_path, f"# Side\n\n{attack}\n", "line 3")
    finally:
        os.chdir(cwd)
    assert not (tmp_path / MARK).exists()


def test_a_page_reads_data_by_key_and_calls_its_functions(nb, tmp_path):
    out = render_one(nb, tmp_path, "{{ rules.target_sum }} {{ s.site_name }} {{ ranks | length }} {{ pairs_table() }}\n")
    assert out.startswith(f"13 {nb[0].strings['site_name']} 13 | ")


@pytest.mark.parametrize("loop, message", [
    ("{% for i in range(10**9) %}x{% endfor %}", "'range' is not available"),
    ("{% for a in ranks %}{% for b in ranks %}{% for c in ranks %}{% for d in ranks %}"
     "{% endfor %}{% endfor %}{% endfor %}{% endfor %}", f"more than {MAX_ITERATIONS:,} loop passes"),
    ("{% for a in s.site_name %}{{ a }}{% endfor %}", "a loop over text"),
    ("{% for r in ranks recursive %}{{ loop(ranks) }}{% endfor %}", "recursive loops"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "calls itself"),
])
def test_loops_and_calls_are_bounded(nb, tmp_path, loop, message):
    started = time.monotonic()
    refused(nb, tmp_path, f"Tekst.\n{loop}\n", message)
    assert time.monotonic() - started < 60


def test_output_is_bounded(nb, tmp_path):
    doubling = "{% set a = s.site_description %}" + "{% set a = a + a %}" * 40 + "{{ a }}"
    refused(nb, tmp_path, doubling + "\n", "longer than")


@pytest.mark.parametrize("growth", ["{% set a = a * a %}", "{% set a = a + a %}", "{% set a = a * rules.pyramid_cards %}"])
def test_big_whole_numbers_are_refused_before_they_are_computed(nb, tmp_path, growth):
    """Issue 40: one multiplication of huge integers is one step no clock stops (a page ran 80 s
    past its bound); the sandbox refuses the result by its size before computing it. Nothing is
    printed here, so only the bound on numbers can refuse the page."""
    page = "{% set a = rules.pyramid_cards %}" + growth * 300 + "\n"
    refused(nb, tmp_path, page, f"past {MAX_NUMBER_BITS} bits")


@pytest.mark.parametrize("include", ['{% include "page.md" %}', '{% import "page.md" as p %}',
                                     '{% extends "page.md" %}', '{% from "page.md" import x %}'])
def test_a_page_including_itself_is_one_error_line(nb, tmp_path, include):
    refused(nb, tmp_path, f"Tekst.\n{include}\n", "line 2", "may not include, import or extend")


# ---------------------------------------------------------------- regular files only

def test_a_symlink_among_the_pages_is_refused(docs, bundle_path, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text(SECRET, encoding="utf-8")
    link = docs / "nb" / "pages" / "leak.md"
    link.symlink_to(outside)
    with pytest.raises(BuildError, match=f"{link}: a symbolic link"):
        site.gather(bundle_path, docs)


@pytest.mark.parametrize("name", ["strings.yml", "game.json", "theme.yml", "glossary.yml"])
def test_a_symlinked_language_file_is_refused(docs, bundle_path, name):
    target = docs / "nb" / name
    moved = docs / f"moved-{name}"
    target.rename(moved)
    target.symlink_to(moved)
    with pytest.raises(BuildError, match=f"{target}: a symbolic link"):
        site.gather(bundle_path, docs)


def test_a_huge_page_source_is_refused_unread(nb, tmp_path):
    with pytest.raises(BuildError, match="page.md: larger than 1000 KB"):
        render_one(nb, tmp_path, "Tekst. " * 200_000)


def test_a_fifo_among_the_pages_is_refused_at_once(docs, bundle_path):
    fifo = docs / "da" / "pages" / "hang.md"
    os.mkfifo(fifo)
    with pytest.raises(BuildError, match=f"{fifo}: not a regular file"):
        site.gather(bundle_path, docs)


def test_a_symlink_in_app_is_never_copied(tmp_path):
    app = tmp_path / "app"
    shutil.copytree(ROOT / "app", app)
    (tmp_path / "secret.js").write_text(SECRET, encoding="utf-8")
    (app / "leak.js").symlink_to(tmp_path / "secret.js")
    with pytest.raises(BuildError, match="leak.js: a symbolic link"):
        site.copy_game(app, tmp_path / "out")
    assert not (tmp_path / "out" / "leak.js").exists()


def test_a_symlink_in_the_built_site_is_never_precached(tmp_path):
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "leak.js").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(BuildError, match="leak.js: a symbolic link"):
        precached(tmp_path / "site", [])


def test_a_symlinked_example_is_refused_by_the_reader(tmp_path):
    from verify.examples import ExampleError, load_example
    real = sorted((ROOT / "examples").glob("*.yaml"))[0]
    link = tmp_path / "linked.yaml"
    link.symlink_to(real)
    with pytest.raises(ExampleError, match=f"{link}: a symbolic link"):
        load_example(link)
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ExampleError, match=f"{fifo}: not a regular file"):
        load_example(fifo)


# ---------------------------------------------------------------- scripts, handlers, raw HTML

@pytest.mark.parametrize("text, rule", [
    ("<script>alert(1)</script>", "a <script> element"),
    ("&lt;script&gt;alert(1)&lt;/script&gt;", "a <script> element"),
    ("## Tittel {: onclick=\"alert(1)\" }", "an event handler"),
    ("[klikk](javascript:alert(1))", "a javascript: address"),
    ("[klikk](java\tscript:alert(1))", "a javascript: address"),
    ("<img src=\"https://evil.test/x.png\">", "raw HTML"),
    ("<iframe src=\"https://evil.test/\"></iframe>", "raw HTML"),
    ("<!-- skjult -->", "raw HTML"),
    ("{% raw %}{{ <img src='https://evil.test/x.png'> }}{% endraw %}", "{% raw %} is not available"),
    ("![bilde](https://evil.test/x.png)", "a Markdown image"),
    ("## Tittel {: style=\"background:url(https://evil.test/x)\" }", "an attribute list"),
])
def test_scripts_handlers_and_raw_html_in_a_page_are_refused(nb, tmp_path, text, rule):
    refused(nb, tmp_path, f"# Side\n\nTekst.\n{text}\n", "line 4", rule)


def test_the_policy_allows_only_scripts_someone_known_wrote():
    page = "<html><head><meta charset=utf-8></head><body>{}</body></html>"
    theme = ('<script>var target=document.getElementById(location.hash.slice(1));target&&target.name&&'
             '(target.checked=target.name.startsWith("__tabbed_"))</script>')
    assert "sha256-" in with_policy(page.format(theme))
    ours = language_choice_script([])
    assert "sha256-" in with_policy(page.format(f"<script>{ours}</script>"), own_scripts=(ours,))
    with pytest.raises(UnknownScript, match="a.html, line 1: an inline script that neither"):
        with_policy(page.format("<script>alert(1)</script>"), where="a.html")
    with pytest.raises(UnknownScript):  # the generator's script, but not on a page that has it
        with_policy(page.format(f"<script>{ours}</script>"))


# ---------------------------------------------------------------- the number guard

@pytest.mark.parametrize("text", [
    "{{ 29 }}", "{{ '29' }}", "{{ 28 + 1 }}", "²⁹ kort", "{{ '²⁹' }}", "٢٩ kort", "２９ kort", "Ⅻ kort",
    "{% set n = 29 %}{{ n }}", "{{ [1, 2] | length }}", "{{ true + true }}", "{{ -true }}",
    "{{ 'abcdefghijklmnopqrstuvwxyzabc' | length }}", "{{ s.site_name | list | length }}",
    "{{ s.site_name ~ 'x' }}", "{{ rules.target_sum > 0 }}", "{{ '29' | card }}",
    "{{ rule('deal.layout') if 29 else '' }}", "{{ s.site_name | join('29') }}",
    "{% raw %}{{ 29 }}{% endraw %}", "{% raw %}{# ²⁹ #}{% endraw %}",
])
def test_no_digit_reaches_a_page_unless_the_data_holds_it(nb, tmp_path, text):
    refused(nb, tmp_path, f"Tekst.\n{text}\n")


def test_a_number_the_data_holds_is_printed(nb, tmp_path):
    out = render_one(nb, tmp_path, '{% set three = ranks | selectattr("rank", "equalto", "3") | first %}'
                                   '{{ rules.deck_size }} {{ "3S" | card }} {{ ranks[-1].value }} {{ three.name }} '
                                   '{% if survey.undecided == 0 %}alle{% endif %}\n')
    assert out.split()[0] == "52"


# ---------------------------------------------------------------- strings, theme, JSON

@pytest.mark.parametrize("template", ["{number:>{deal}{deal}}", "{deal.__class__}", "{deal[0]}", "{deal!r}",
                                      "{deal:>99999999}", "{0}", "{"])
def test_string_templates_are_plain_names(template):
    assert format_problem(template)
    with pytest.raises(BuildError):
        fill(template, deal=27, number=1)
    assert fill("Utdeling {deal} {{x}}", deal=27) == "Utdeling 27 {x}"


def test_a_nested_format_spec_in_strings_is_refused_with_file_and_key(docs, bundle_path):
    strings = docs / "nb" / "strings.yml"
    text = strings.read_text(encoding="utf-8")
    key_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith("default_title:"))
    lines = text.splitlines()
    indent = lines[key_line - 1][:len(lines[key_line - 1]) - len(lines[key_line - 1].lstrip())]
    lines[key_line - 1] = f'{indent}default_title: "Utdeling {{deal:>{{deal}}{{deal}}}}"'
    strings.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(BuildError, match=f"{strings}, line {key_line}: string 'example_section.default_title'"):
        site.gather(bundle_path, docs)


@pytest.mark.parametrize("value", ["<script>alert(1)</script>", "Pyramide<img src=x onerror=alert(1)>",
                                   "Pyramide &lt;b&gt;", "Pyramide &copy", "javascript:alert(1)", "Pyra\u200bmide", "Pyra\u202emide"])
def test_site_name_is_plain_text(docs, bundle_path, value):
    strings = docs / "da" / "strings.yml"
    strings.write_text(with_string(strings.read_text(encoding="utf-8"), "site_name", value), encoding="utf-8")
    with pytest.raises(BuildError, match=f"{strings}, line \\d+: string 'site_name'"):
        site.gather(bundle_path, docs)


def with_string(text: str, key: str, value: str) -> str:
    """strings.yml's text with the one line `key: …` (at any indentation) holding value instead."""
    return re.sub(rf"^(\s*){re.escape(key)}:.*$", lambda m: f"{m.group(1)}{key}: {json.dumps(value)}", text,
                  count=1, flags=re.M)


def test_a_language_name_is_plain_text(docs, bundle_path):
    listing = docs / "languages.yml"
    listing.write_text(listing.read_text(encoding="utf-8").replace("name: Dansk", 'name: "<b>Dansk</b>"'),
                       encoding="utf-8")
    with pytest.raises(BuildError, match=f"{listing}, line \\d+: string 'languages.1.name' holds markup"):
        site.gather(bundle_path, docs)


def theme_partial(words: dict) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(OVERRIDES)))  # as MkDocs: no autoescape
    module = env.get_template("partials/language.html", globals={"config": {"extra": {"theme_words": words}}}).module
    return str(module.t("search"))


def test_theme_words_are_data_printed_escaped():
    assert theme_partial({"search": "Søk"}) == "Søk"
    assert theme_partial({"search": '<b onclick="x">'}) == "&lt;b onclick=&#34;x&#34;&gt;"
    assert theme_partial({"search": "{{ cycler.__init__.__globals__ }}"}) == "{{ cycler.__init__.__globals__ }}"
    assert not (OVERRIDES / "partials" / "languages").exists()  # translators write no template


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('search: "Søk"\n', ""), "missing the theme's word 'search'"),
    (lambda t: t + 'no.such.key: "x"\n', "unknown key 'no.such.key'"),
    (lambda t: t.replace('search: "Søk"', 'search: "<script>alert(1)</script>"'), "string 'search' holds a script"),
    (lambda t: t.replace('toc: "Innhold"', 'toc: "Innhold 29"'), "'toc' contains a number typed by hand"),
    (lambda t: t.replace('toc: "Innhold"', 'toc: "Inn\u2066hold"'), "invisible character U+2066"),
])
def test_a_bad_theme_file_is_refused(docs, bundle_path, edit, message):
    theme = docs / "nb" / "theme.yml"
    theme.write_text(edit(theme.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(BuildError, match=str(theme)) as e:
        site.gather(bundle_path, docs)
    assert message in str(e.value)


@pytest.mark.parametrize("text, line, rule", [
    ('{\n "a": 1,\n "b": NaN\n}', 3, "NaN is not a JSON number"),
    ('{\n "a": Infinity\n}', 2, "Infinity is not a JSON number"),
    ('{\n "a": 1,\n "a": 2\n}', 3, "the key 'a' is given twice"),
])
def test_json_is_read_strictly(tmp_path, text, line, rule):
    with pytest.raises(BuildError) as e:
        loads_strict(text, "game.json")
    assert str(e.value).startswith(f"game.json, line {line}: not valid JSON") and rule in str(e.value)


def test_nan_in_game_json_stops_the_build(docs, bundle_path):
    game = docs / "da" / "game.json"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("{", '{\n  "weight": NaN,', 1), encoding="utf-8")
    with pytest.raises(BuildError, match=f"{game}, line 2: not valid JSON"):
        site.gather(bundle_path, docs)


@pytest.mark.parametrize("label", ["<img src=x onerror=alert(1)>", "A B", "ESSS", ""])
def test_card_labels_are_a_few_letters(docs, bundle_path, label):
    game = docs / "nb" / "game.json"
    data = json.loads(game.read_text(encoding="utf-8"))
    data["card_labels"] = {"A": label}
    game.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(BuildError, match=f"{game}.*card_labels"):
        site.gather(bundle_path, docs)


def test_the_board_sets_card_labels_as_text():
    board = (ROOT / "app" / "ui" / "board.js").read_text(encoding="utf-8")
    assert "escapeXml(label)" in board and "text.textContent = rank" in board


# ---------------------------------------------------------------- hidden characters

HIDDEN = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\ufeff", "\u00ad"]


@pytest.mark.parametrize("char", HIDDEN)
def test_hidden_characters_in_a_page_are_refused(nb, tmp_path, char):
    refused(nb, tmp_path, f"# Side\n\nUtde{char}ling.\n", "line 3", f"U+{ord(char):04X}")


@pytest.mark.parametrize("name", ["strings.yml", "game.json", "glossary.yml", "theme.yml"])
def test_hidden_characters_in_language_files_are_refused(docs, bundle_path, name):
    path = docs / "nb" / name
    text = path.read_text(encoding="utf-8")
    at = text.index('"', text.index("\n", 40)) + 1  # inside a string on some line past the start
    path.write_text(text[:at] + "\u202e" + text[at:], encoding="utf-8")
    line = text.count("\n", 0, at) + 1
    with pytest.raises(BuildError, match=f"{path}, line {line}.*U\\+202E"):
        site.gather(bundle_path, docs)


@pytest.mark.parametrize("where", ["example", "language file"])
def test_hidden_characters_in_an_example_are_refused(tmp_path, where):
    """In the example file (deal and moves) and in its words, docs/<lang>/examples/<id>.yml."""
    from verify.examples import ExampleError, load_example
    real = sorted((ROOT / "examples").glob("*.yaml"))[0]
    (tmp_path / "examples").mkdir()
    example = tmp_path / "examples" / real.name
    example.write_text(real.read_text(encoding="utf-8"), encoding="utf-8")
    words = tmp_path / "docs" / "nb" / "examples" / f"{real.stem}.yml"
    words.parent.mkdir(parents=True)
    words.write_text((ROOT / "docs" / "nb" / "examples" / words.name).read_text(encoding="utf-8"), encoding="utf-8")
    target = example if where == "example" else words
    text = target.read_text(encoding="utf-8")
    at = text.index("\n# ") + 3 if where == "example" else text.index('"', text.index("\ntitle: ")) + 3
    target.write_text(text[:at] + "\u200b" + text[at:], encoding="utf-8")
    line = text.count(chr(10), 0, at) + 1
    with pytest.raises(ExampleError, match=f"{re.escape(str(target))}, line {line}: an invisible character U\\+200B"):
        load_example(example)


# ---------------------------------------------------------------- linear matching, search language

def test_the_glossary_reads_a_hostile_line_in_linear_time():
    path = ROOT / "docs" / "nb" / "glossary.yml"
    glossary = load_glossary(path)
    concepts = site.read_yaml(path)["concepts"]
    phrase = next(word for entry in concepts.values() for word in entry["forbidden"]
                  if len(word.split()) == 2 and "{" not in word)
    first, second = phrase.split()
    # The old pattern split each run of spaces between two stars: a run's square for every rule.
    hostile = first + " " * 6000 + "x"
    started = time.perf_counter()
    assert not [hit for hit in find(hostile, glossary.rules) if hit.word.lower() == phrase.lower()]
    found = find(first + " " * 6000 + "\n" + second, glossary.rules)
    elapsed = time.perf_counter() - started
    print(f"glossary over two 6,000-character hostile lines: {elapsed:.3f} s")
    assert any(hit.word.lower() == phrase.lower() for hit in found), found
    assert not find(first + " " * 3000 + "\n\n" + second, glossary.rules) or all(
        hit.word.lower() != phrase.lower() for hit in find(first + " " * 3000 + "\n\n" + second, glossary.rules))


def test_a_search_language_the_engine_does_not_know_is_refused(docs, bundle_path):
    listing = docs / "languages.yml"
    listing.write_text(listing.read_text(encoding="utf-8").replace("search: da", "search: dk"), encoding="utf-8")
    with pytest.raises(BuildError, match=f"{listing}: search language 'dk' of 'da' is not one the search engine "
                                         "knows; known: .*\\bda\\b.*\\bno\\b"):
        site.gather(bundle_path, docs)


# ---------------------------------------------------------------- the fuzz

DATA = ["{{ rules.target_sum }}", "{{ s.site_name }}", "{{ rules.rows | spell }}", "{{ ranks | length }}",
        "{{ pairs_table() }}", "{{ rule('deal.layout') }}", "{{ '3S' | card }}", "{% for r in ranks %}{{ r.name }} {% endfor %}",
        "{{ facts.source_survey.deals | num }}", "{{ examples.winnable.deal }}"]
WORDS = ["Kortene", "ligger", "i", "pyramiden.", "**fritt**", "- punkt", "## Overskrift", "\n", "\n\n", " ", "{", "}",
         "%", "#", "(", ")", "[", "]", "|", "'", '"', "="]
ATTACKS = [
    "{{ cycler.__init__.__globals__.os.popen('touch " + MARK + "').read() }}",
    "{{ ().__class__.__base__.__subclasses__() }}",
    "{{ self.__init__.__globals__ }}", "{{ rules.__class__ }}", "{{ lipsum }}", "{{ range(3) }}",
    "{% include 'secret.md' %}", "{% include 'page.md' %}", "{% import 'secret.md' as x %}",
    "{{ " + SENTINEL + " }}", SENTINEL, "{{ '" + SENTINEL + "' }}", "{{ " + SENTINEL[:3] + " ~ " + SENTINEL[3:] + " }}",
    "".join(chr(0x2070 + int(d)) if d not in "123" else "¹²³"[int(d) - 1] for d in SENTINEL),
    "".join(chr(0xFF10 + int(d)) for d in SENTINEL), "".join(chr(0x0660 + int(d)) for d in SENTINEL),
    "<script src='https://evil.test/x.js'></script>", "<img src='https://evil.test/x.png'>",
    "![x](https://evil.test/x.png)", "{: style=\"background:url(https://evil.test/x)\" }",
    "<style>@import 'https://evil.test/x.css'</style>", "[x](javascript:alert(1))",
    "{% for a in ranks %}{% for b in ranks %}{% for c in ranks %}{% for d in ranks %}x{% endfor %}{% endfor %}{% endfor %}{% endfor %}",
    "{{ s.site_name * " + SENTINEL + " }}", "{{ true + true }}",
    "{% raw %}{{ " + SENTINEL + " }}{% endraw %}", "{% raw %}<script>x</script>{% endraw %}",
]
PAGE = st.lists(st.sampled_from(DATA) | st.sampled_from(WORDS) | st.sampled_from(ATTACKS), max_size=25).map("".join)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])


def is_risky(source: str) -> bool:
    """Whether the source holds an attack, or a brace or percent sign outside the data's tags."""
    rest = source
    for tag in DATA:
        rest = rest.replace(tag, " ")
    return any(attack in source for attack in ATTACKS) or any(c in rest for c in "{}%")


def ascii_digits(text: str) -> str:
    return "".join(str(unicodedata.digit(c)) if unicodedata.digit(c, None) is not None else c for c in text)


@FUZZ
@given(source=PAGE)
def test_fuzz_a_page_source_never_runs_code_leaks_loads_or_invents_a_number(nb, tmp_path, source):
    (tmp_path / "pages").mkdir(exist_ok=True)
    (tmp_path / "pages" / "secret.md").write_text(SECRET, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        out = render_one(nb, tmp_path, source)
    except BuildError as e:
        assert "\n" not in str(e) and "page.md" in str(e), str(e)
        # Refused for a reason the source holds: an attack, or braces and percent signs of its
        # own (a half tag); data and words alone always render.
        assert is_risky(source), f"a harmless page was refused: {source!r}: {e}"
        return
    finally:
        os.chdir(cwd)
    assert not (tmp_path / MARK).exists(), "code ran"
    assert SECRET not in out, "a file outside the page was read"
    assert "evil.test" not in out, "the page names another host"
    assert "javascript:" not in out.lower() and "<script" not in out.lower()
    assert SENTINEL not in ascii_digits(out), "a number the data does not hold"
    assert not any(attack in source for attack in ATTACKS), f"an attack passed: {source!r}"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.sampled_from(ATTACKS + ["<b>fet</b>", "&amp;", "Pyra\u200bmide", "{deal:>{deal}}", "{deal.__class__}"])
       | st.text(max_size=40))
def test_fuzz_a_string_is_refused_or_plain_text_everywhere(docs, bundle_path, value):
    strings = docs / "nb" / "strings.yml"
    original = strings.read_text(encoding="utf-8")
    try:
        text = with_string(original, "site_name", value)
        strings.write_text(with_string(text, "default_title", value + " {deal}"), encoding="utf-8")
        try:
            gathered = site.gather(bundle_path, docs)
        except BuildError as e:
            assert str(strings) in str(e) or "page sources" in str(e)
            # Plain words (letters and single spaces) are never refused.
            assert not re.fullmatch(r"[A-Za-zÆØÅæøå]+( [A-Za-zÆØÅæøå]+)*", value), f"{value!r} refused: {e}"
            return
        pages = "".join(gathered.rendered["nb"].values())
        if "<" in value:  # printed, it is escaped: never the markup itself
            assert value not in pages
        assert "![" not in value and "javascript:" not in value.lower()
        assert not any(unicodedata.category(c) == "Cf" for c in value)
        assert SENTINEL not in ascii_digits(pages)
        assert not (Path.cwd() / MARK).exists()  # a template in a string is text, never run
    finally:
        strings.write_text(original, encoding="utf-8")


@settings(max_examples=100, deadline=None)
@given(words=st.dictionaries(st.sampled_from(["search", "toc", "footer"]),
                             st.sampled_from(ATTACKS + ["<b>", "\"'&"]) | st.text(max_size=30)))
def test_fuzz_theme_words_are_printed_as_text(words):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(OVERRIDES)))
    module = env.get_template("partials/language.html",
                              globals={"config": {"extra": {"theme_words": {"search": "", **words}}}}).module
    for key, value in words.items():
        out = str(module.t(key))
        assert "<" not in out and '"' not in out and out == str(jinja2.utils.markupsafe.escape(value))


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(['{', '}', '"a"', '"b"', ':', ',', '1', 'NaN', 'Infinity', '-Infinity', '[', ']',
                                      '"card_labels"', '"<img>"', 'null', '\n']), max_size=30).map("".join))
def test_fuzz_game_json_is_read_strictly(text):
    try:
        data = loads_strict(text, "game.json")
    except BuildError as e:
        assert str(e).startswith("game.json") and "\n" not in str(e)
        return
    dumped = json.dumps(data, allow_nan=False)  # raises on NaN/Infinity: none got through
    assert "NaN" not in dumped and "Infinity" not in dumped


# ---------------------------------------------------------------- the build's own bounds, and the command line

def test_the_build_is_bounded_in_time():
    from generator.guard.limits import BuildTimeout, time_bound
    with pytest.raises(BuildTimeout, match="longer than 1 s"):
        with time_bound(1):
            time.sleep(3)


def test_the_build_is_bounded_in_memory():
    import subprocess
    import sys
    code = ("from generator.guard.limits import cap_memory\ncap_memory(1024 ** 3)\n"
            "try:\n    x = bytearray(2 * 1024 ** 3)\nexcept MemoryError:\n    print('refused')\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "refused", r.stderr


def test_a_self_including_page_is_one_error_line_on_the_command_line(docs, tmp_path, bundle_path):
    from helpers.cached_builds import build_site
    page = docs / "nb" / "pages" / "variants.md"
    page.write_text(page.read_text(encoding="utf-8") + '{% include "variants.md" %}\n', encoding="utf-8")
    r = build_site(tmp_path / "site", docs=docs, bundle=bundle_path)
    assert r.returncode == 2
    errors = [line for line in r.stderr.splitlines() if not line.startswith("warning: ")]  # placeholder facts warn
    assert len(errors) == 1 and errors[0].startswith(f"error: {page}, line "), r.stderr
    assert "may not include, import or extend" in r.stderr
    assert not (tmp_path / "site").exists()
