"""The page sandbox's refusals (generator/guard/sandbox.py, with the page lint of
generator/guard/text_rules.py that runs before it), held for every page composed of their pieces
rather than for the attacks an example thought of.

The promise: a page source reads the data by key and calls the page functions, and does nothing
else. A page holding any piece the sandbox documents as refused is refused, in one line that
starts with the file and the line of a refused piece (a BuildError, never another exception and
never a Python object's repr), however the piece is mixed with harmless text and data:
- reaching a Python object: a dunder or Python attribute of any value or function, by `.`, by
  `[…]` or through `attr`, in a print, a `set`, a loop or a condition, whatever filter follows;
  Jinja's globals and names (self, range, cycler, lipsum, namespace, loop, caller …);
- a filter outside the closed set (safe, format, attr, center, tojson …);
- raw HTML, a script, an event handler, a javascript: address, a Markdown image, `{% raw %}`, an
  attribute list with a value;
- an autoescape switch, including, importing or extending a page (itself), a recursive loop,
  `~`, a list or mapping of the page's own;
- a loop, a chain of calls or an output past its bound, a macro calling itself;
- arithmetic on true/false, `**`, repeating or formatting text;
- printing what is no value (a mapping, a list, a function, none, true/false, a number the data
  does not hold), walking the letters of text, a number typed in a tag.
A page of harmless pieces alone renders, and what it prints holds no raw HTML, no script and no
Python object's repr: so the property fails both ways.

Each page goes through the lint and the sandbox as `gather` takes it (render_one,
tests/helpers/page_sandbox.py). Text's format method, which Jinja's sandbox hands out before it asks
whether an attribute is safe, is its own case (test_the_format_method_of_text_is_refused_naming_its_line).
"""
from __future__ import annotations

import html
import os
import re

import pytest
from hypothesis import Phase, example, given, settings, strategies as st

from generator.errors import BuildError
from helpers.page_sandbox import bundle_path, nb, render_one  # noqa: F401  (the fixtures and the one-page build)
from helpers.properties import property_settings

MARK = "pyramide-sandbox-ran"  # a file the code-running pieces try to create
RAW_HTML = re.compile(r"<[A-Za-z!/?]")
# What a Python object's repr or str looks like in a page; searched in the output unescaped.
REPRS = re.compile(r"<class '|<type '| object at 0x|<function |<built-in |<bound method |<method |<module |"
                   r"<generator |<jinja2\.|<markupsafe\.|Undefined|__class__|__globals__|__mro__", re.I)

# ---------------------------------------------------------------- harmless pieces

WORDS = ["Kortene", "ligger", "i", "pyramiden.", "**fritt**", "_kursiv_", "«sitat»", "(parentes)", "–", ":", "%",
         "a < b", "fisk & chips", "- punkt", "## Overskrift", "> sitat", "onkel", "java", "script"]
DATA = ["{{ rules.target_sum }}", "{{ s.site_name }}", "{{ s.site_name | upper }}", "{{ ranks | length }}",
        "{{ pairs_table() }}", "{{ '3S' | card }}", "{% for r in ranks %}{{ r.name }} {% endfor %}",
        "{{ examples.winnable.deal }}", "{{ ranks | map(attribute='name') | join(', ') }}",
        "{% if rules.target_sum == 13 %}ja{% endif %}", "{% set n = rules.deck_size %}{{ n }}",
        "{{ ranks | selectattr('rank', 'equalto', 'Q') | map(attribute='name') | first }}",
        "{{ ranks[0]['name'] }}", "{{ rules['target_sum'] }}", "{{ s.site_name | e }}",
        # Markup typed in a tag's text is printed escaped: harmless, and its output must show it so.
        "{{ '<b>fet</b>' }}", "{{ '\\x3cb\\x3efet\\x3c/b\\x3e' }}", "{{ '\\x3cscript\\x3ealert(x)\\x3c/script\\x3e' }}"]
HARMLESS = st.sampled_from(WORDS) | st.sampled_from(DATA)

# ---------------------------------------------------------------- dangerous pieces

# Values a page can name, and names a Python object answers to that no data key has.
TEXT_BASES = ["s.site_name", "s.site_description", "(s.site_name | upper)", "pairs_table()"]  # str, Markup
BASES = ["rules", "s", "ranks", "ranks[0]", "examples", "pairs", "king", "facts", "survey", "rules.target_sum",
         "pairs_table", "game", "rule", "summary", "(ranks | first)", "(ranks | map(attribute='name') | list)",
         *TEXT_BASES]
PYTHON_NAMES = ["__class__", "__mro__", "__base__", "__bases__", "__subclasses__", "__globals__", "__init__",
                "__dict__", "__builtins__", "__module__", "__name__", "__qualname__", "__doc__", "__code__",
                "__func__", "__self__", "__getattribute__", "__reduce_ex__", "__len__", "__call__", "__wrapped__",
                "__html__", "mro", "format", "format_map", "items", "keys", "get", "pop", "update", "copy", "split",
                "upper", "gi_frame", "f_globals", "func_globals", "_TemplateReference__context", "_module"]
# By key most often: a name that starts with "_" reached by `.` is refused when the page is
# parsed (sandbox.tree_problems), by `[…]` only when it renders (PageEnvironment.is_safe_attribute),
# and a break in the second must show too.
STEPS = ["['{}']", '["{}"]', "['{}']", '["{}"]', ".{}", "|attr('{}')"]
# What follows the reach, and the use that needs its result.
SINKS = ["", " | lower", " | e", " | upper", " | first", " | list | first", " | join", " | length", " | trim",
         " | capitalize", " | map(attribute='name') | join"]
USES = ["{{{{ {} }}}}", "{{% set v = {} %}}{{{{ v }}}}", "{{% for v in {} %}}x{{% endfor %}}",
        "{{% if {} %}}x{{% endif %}}", "{{{{ s.site_name if {} else 'x' }}}}", "{{{{ summary({}) }}}}"]


# The format methods of text have a case of their own too (test_the_format_method_of_text_is_refused_naming_its_line).
FORMAT_NAMES = ("format", "format_map")


@st.composite
def python_reach(draw, name: str):
    """A value, `name` reached in it, up to two more Python names after it, a call or not after
    each, a filter, and a use that needs the result."""
    chain = draw(st.sampled_from(BASES)) + draw(st.sampled_from(STEPS)).format(name)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        chain += draw(st.sampled_from(["", "", "()"]))
        chain += draw(st.sampled_from(STEPS)).format(draw(st.sampled_from(PYTHON_NAMES)))
    chain += draw(st.sampled_from(["", "", "()"]))
    sink = draw(st.sampled_from(SINKS))
    return draw(st.sampled_from(USES)).format(f"({chain}{sink})" if sink else chain)


# Jinja's globals, the names it gives macros and loops, and names a template engine often has.
JINJA_NAMES = ["self", "varargs", "kwargs", "range", "cycler", "joiner", "namespace", "lipsum", "dict", "caller",
               "loop", "config", "request", "os", "__builtins__", "super", "g", "url_for", "environment"]


@st.composite
def jinja_name(draw, name: str):
    after = draw(st.sampled_from(["", "()", ".__class__", "['__globals__']", " | lower", " | list | first"]))
    return draw(st.sampled_from(USES[:4])).format(name + after)


# Filters outside the closed set (sandbox.py SEQUENCE_FILTERS, TEXT_FILTERS and the generator's own).
FILTERS = ["safe", "format", "attr('x')", "center", "indent", "wordwrap", "truncate", "urlize", "xmlattr", "tojson",
           "pprint", "string", "int", "float", "abs", "round", "sum", "max", "min", "slice", "groupby('name')",
           "dictsort", "filesizeformat", "items", "default", "d", "replace('a', 'b')", "striptags", "forceescape",
           "wordcount", "urlencode", "random", "batch", "mark_safe", "unknown"]


@st.composite
def refused_filter(draw, name: str):
    value = draw(st.sampled_from(["s.site_name", "'\\x3cb\\x3e'", "ranks", "rules", "rules.target_sum", "'x'",
                                  "ranks | map(attribute='name')"]))
    return draw(st.sampled_from(USES[:2])).format(f"{value} | {name}")


MARKUP = ["<script>alert(x)</script>", "&lt;script&gt;alert(x)&lt;/script&gt;", "<b>fet</b>",
          "<img src=x onerror=alert(x)>", "<!-- skjult -->", '## Tittel {: onclick="alert(x)" }',
          'onmouseover="alert(x)"', "Tekst onfocus = x", "[klikk](javascript:alert(x))",
          "[klikk](java\tscript:alert(x))", "[klikk](JaVaScRiPt:x)", "![bilde](https://evil.test/x.png)",
          "{% raw %}x{% endraw %}", '{: style="color:red" }', "<style>x</style>", "{{ '<script>' }}",
          "{{ 'onclick=x' }}", "</div>", "<?php ?>", "<a href='x'>", "<SCRIPT src=x>", "{: #a onload=x }"]
STRUCTURE = ['{% include "page.md" %}', '{% import "page.md" as p %}', '{% extends "page.md" %}',
             '{% from "page.md" import x %}', "{% include 'secret.md' %}",
             "{% autoescape false %}{{ s.site_name }}{% endautoescape %}",
             "{% for r in ranks recursive %}{{ loop(ranks) }}{% endfor %}", "{{ s.site_name ~ s.site_name }}",
             "{{ (s.site_name, s.site_name) | join }}", "{{ {'a': s.site_name} }}",
             "{% set x = [s.site_name] %}{{ x | first }}"]
BOUNDS = ["{% for i in range(rules.deck_size * rules.deck_size * rules.deck_size) %}x{% endfor %}",
          "{% for a in ranks %}{% for b in ranks %}{% for c in ranks %}{% for d in ranks %}"
          "{% endfor %}{% endfor %}{% endfor %}{% endfor %}",  # 30,940 loop passes
          "{% set a = s.site_description %}" + "{% set a = a + a %}" * 40 + "{{ a }}",  # text doubled past 4,000,000
          "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
          "{% macro f() %}{% endmacro %}{% for a in ranks %}{% for b in ranks %}{% for c in ranks %}"
          + "{{ f() }}" * 10 + "{% endfor %}{% endfor %}{% endfor %}"]  # 21,970 calls
ARITHMETIC = ["{{ true + true }}", "{{ -true }}", "{{ rules.target_sum ** rules.target_sum }}",
              "{{ s.site_name * rules.target_sum }}", "{{ ranks * rules.target_sum }}", "{{ s.site_name % s.site_name }}"]
NO_VALUES = ["{{ ranks }}", "{{ rules }}", "{{ none }}", "{% set nothing = none %}{{ nothing }}",
             "{{ rules.target_sum > rules.deck_size }}", "{{ rules.deck_size * rules.deck_size * rules.deck_size }}",
             "{{ pairs_table }}", "{{ s.site_name.upper }}", "{% for a in s.site_name %}x{% endfor %}",
             "{{ s.site_name | list | first }}", "{{ s.site_name | length }}", "{{ 29 }}", "{{ '\\x37' }}",
             "{{ '\\N{DIGIT SEVEN}' }}", "{{ cycler.__init__.__globals__.os.popen('touch " + MARK + "').read() }}"]
PIECES = MARKUP + STRUCTURE + BOUNDS + ARITHMETIC + NO_VALUES
SEPARATORS = st.sampled_from([" ", "\n", "\n\n"])


@st.composite
def page(draw, dangerous=None):
    """(source, the line of the dangerous piece or None, the words used): harmless pieces, and the
    one dangerous piece among them in any place, on a line of its own or shared. One only: a
    second would be refused in its stead, and hide a break that spares the first."""
    pieces = [(p, False) for p in draw(st.lists(HARMLESS, min_size=0 if dangerous is not None else 1, max_size=8))]
    if dangerous is not None:
        pieces.insert(draw(st.integers(0, len(pieces))), (draw(dangerous), True))
    source, line = "", None
    for piece, bad in pieces:
        source += draw(SEPARATORS) if source else ""
        if bad:
            line = source.count("\n") + 1
        source += piece
    return source + "\n", line, [p for p, bad in pieces if p in WORDS]


def rendered_in(tmp_path, nb, source: str) -> str:
    """render_one from tmp_path (what a piece creates lands there), and nothing created."""
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        return render_one(nb, tmp_path, source)
    finally:
        os.chdir(cwd)
        assert not (tmp_path / MARK).exists(), "a page ran code"


def assert_refused(nb, tmp_path, dangerous, examples: int, explicit=(), shrink: bool = True) -> None:
    """Every page made of harmless pieces and one piece from `dangerous` is refused, in one line
    naming the file and that piece's line, without a Python object's repr. The `explicit` pieces
    are tried first, each alone on line 1: the plainest use of a name, which any break that lets
    the name through shows. (A gap's case is not shrunk: its reason says what the input is, and
    shrinking an expected failure only costs time.)"""
    page_file = tmp_path / "pages" / "page.md"
    (tmp_path / "pages").mkdir(exist_ok=True)
    (tmp_path / "pages" / "secret.md").write_text("secret-token", encoding="utf-8")

    def holds(composed):
        source, line, _ = composed
        try:
            out = rendered_in(tmp_path, nb, source)
        except BuildError as e:
            message = str(e)
            assert "\n" not in message and re.match(re.escape(f"{page_file}, line {line}") + "[,:] ", message), (
                source, line, message)
            assert not re.search(r"<class '| object at 0x|<function |<built-in |<bound method ", message), message
            return
        raise AssertionError(f"not refused: {source!r} rendered {out[:300]!r}")
    for piece in explicit:
        holds = example(composed=(piece + "\n", 1, []))(holds)
    phases = list(Phase) if shrink else [Phase.explicit, Phase.generate]
    settings(property_settings(examples), phases=phases)(given(composed=page(dangerous))(holds))()


# ---------------------------------------------------------------- the properties

@pytest.mark.parametrize("name", PYTHON_NAMES)
def test_reaching_a_python_object_is_refused_naming_its_line(nb, tmp_path, name):  # noqa: F811
    explicit = [f"{{{{ ({base}['{name}'] | lower) }}}}" for base in ("rules", "ranks", "pairs_table")]
    assert_refused(nb, tmp_path, python_reach(name), 10, explicit + [f"{{% if rules['{name}'] %}}x{{% endif %}}"])


@st.composite
def format_of_text(draw):
    """Text's format method, by `.` or by key: printed through a text filter, or called on a
    mapping or list of the data, whose Python repr it prints."""
    name = draw(st.sampled_from(FORMAT_NAMES))
    step = draw(st.sampled_from([".{}", "['{}']", '["{}"]'])).format(name)
    if name == "format" and draw(st.booleans()):
        data = draw(st.sampled_from(["rules", "ranks", "pairs", "king", "examples.winnable.steps"]))
        return f"{{{{ ('{{x}}' | lower){step}(x={data}) }}}}"
    sink = draw(st.sampled_from([" | lower", " | e", " | upper", " | trim", " | capitalize"]))
    return draw(st.sampled_from(USES[:2])).format(f"({draw(st.sampled_from(TEXT_BASES))}{step}{sink})")


def test_the_format_method_of_text_is_refused_naming_its_line(nb, tmp_path):  # noqa: F811
    assert_refused(nb, tmp_path, format_of_text(), 10)


# Raw HTML the lint refuses as raw HTML (not first as a script, a handler or an address).
PLAIN_HTML = ["<b>fet</b>", "<!-- skjult -->", "<style>x</style>", "</div>", "<?php ?>", "<a href='x'>"]


def test_a_raw_html_refusal_is_one_line(nb, tmp_path):  # noqa: F811
    @property_settings(10)
    @given(html_piece=st.sampled_from(PLAIN_HTML), separator=st.sampled_from(["\n", "\n\n"]),
           word=st.sampled_from([w for w in WORDS if " " not in w]))
    def holds(html_piece, separator, word):
        with pytest.raises(BuildError) as e:
            render_one(nb, tmp_path, html_piece + separator + word + "\n")
        assert "\n" not in str(e.value), str(e.value)
    holds()


@pytest.mark.parametrize("name", JINJA_NAMES)
def test_a_jinja_name_is_refused_naming_its_line(nb, tmp_path, name):  # noqa: F811
    assert_refused(nb, tmp_path, jinja_name(name), 4, [f"{{{{ {name} }}}}", f"{{{{ {name} | lower }}}}"])


@pytest.mark.parametrize("name", FILTERS)
def test_a_filter_outside_the_closed_set_is_refused_naming_its_line(nb, tmp_path, name):  # noqa: F811
    assert_refused(nb, tmp_path, refused_filter(name), 4, [f"{{{{ s.site_name | {name} }}}}"])


@pytest.mark.parametrize("piece", PIECES)
def test_markup_structure_bounds_and_what_is_no_value_are_refused_naming_their_line(nb, tmp_path, piece):  # noqa: F811
    assert_refused(nb, tmp_path, st.just(piece), 3)


def test_a_page_of_harmless_pieces_renders_plain_text(nb, tmp_path):  # noqa: F811
    @property_settings(80)
    @given(composed=page())
    def holds(composed):
        source, _, words = composed
        out = rendered_in(tmp_path, nb, source)
        assert not RAW_HTML.search(out), (source, out)  # markup from a tag's text is printed escaped
        assert "<script" not in out.lower() and "javascript:" not in out.lower(), (source, out)
        assert not REPRS.search(html.unescape(out)), (source, out)
        for word in words:  # the page's own words are printed as written
            assert word in out, (word, source, out)
    holds()
