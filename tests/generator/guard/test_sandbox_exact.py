"""The page sandbox's refusals, each in the one exact line the build prints (file, line, what is
wrong), and what it lets a page do, to the character: test_content_sandbox shows the attacks are
stopped; this file pins the words a translator reads, and the bounds exactly where they are.
Each page goes through the same lint and sandbox as `gather` (render_one, tests/helpers/page_sandbox.py)."""
from __future__ import annotations

from datetime import date

import pytest

from generator.guard import sandbox
from generator.errors import BuildError
from helpers.page_sandbox import bundle_path, nb, render_one  # noqa: F401  (the fixtures and the one-page build)


def refusal(nb, tmp_path, text: str) -> str:
    """The one line the build prints for a page whose source is "Tekst." and then `text`,
    with the page's path left out."""
    with pytest.raises(BuildError) as e:
        render_one(nb, tmp_path, f"Tekst.\n{text}\n")
    prefix = f"{tmp_path / 'pages' / 'page.md'}, line 2: "
    message = str(e.value)
    assert message.startswith(prefix) and "\n" not in message, message
    return message.removeprefix(prefix)


SANDBOX = "refused by the page sandbox: "
TYPED = "use a value from the verified data or docs/facts.yml"


COMPUTED = ("a page prints only values the data holds, so compare with it or choose by it, but print the data's "
            "value instead")


@pytest.mark.parametrize("text, message", [
    # the page's syntax tree, refused when the page is parsed
    ('{% include "page.md" %}', "a page may not include, import or extend another template; it is one file"),
    ("{% autoescape false %}x{% endautoescape %}", "a page may not switch escaping off (autoescape)"),
    ("{% for r in ranks recursive %}x{% endfor %}", "a page may not use recursive loops"),
    ("{{ s.site_name ~ s.site_name }}", "'~' is not available in a page; write the text outside the tag, or use join"),
    ("{{ (s.site_name, s.site_name) | join }}", "a page may not write lists or mappings of its own; use the data's"),
    ("{{ {'a': s.site_name} }}", "a page may not write lists or mappings of its own; use the data's"),
    ("{{ rules._hidden }}", "'._hidden' is not available in a page (no Python attributes)"),
    ("{{ 29 }}", f"a number typed by hand (29) in a tag; {TYPED}"),
    ("{{ 2.5 }}", f"a number typed by hand (2.5) in a tag; {TYPED}"),
    ("{{ '9 kort' }}", f"a number typed by hand ('9 kort') in a tag; {TYPED}"),
    ("{{ 'kort ٣' }}", f"a number typed by hand ('kort ٣') in a tag; {TYPED}"),
    ("{{ '29'[0] }}", f"a number typed by hand ('29') in a tag; {TYPED}"),
    ("{{ '29' | selectattr('rank') | first }}", f"a number typed by hand ('29') in a tag; {TYPED}"),
    ("{{ '3S' | card('29') }}", f"a number typed by hand ('29') in a tag; {TYPED}"),
    # the first problem of a page is the one named
    ("{{ 29 }}\n{{ self }}", f"a number typed by hand (29) in a tag; {TYPED}"),
    # what the page does, refused as it is rendered
    ("{{ true + rules.target_sum }}", SANDBOX + "arithmetic on true/false (+)"),
    ("{{ rules.target_sum - false }}", SANDBOX + "arithmetic on true/false (-)"),
    ("{{ -true }}", SANDBOX + "arithmetic on true/false (-)"),
    ("{{ +true }}", SANDBOX + "arithmetic on true/false (+)"),
    ("{{ true / rules.target_sum }}", SANDBOX + "arithmetic on true/false (/)"),
    ("{{ true // rules.target_sum }}", SANDBOX + "arithmetic on true/false (//)"),
    ("{{ rules.target_sum ** rules.target_sum }}", SANDBOX + "'**' is not available in a page"),
    ("{{ s.site_name * rules.target_sum }}", SANDBOX + "'*' on text or lists is not available in a page"),
    ("{{ rules.target_sum * s.site_name }}", SANDBOX + "'*' on text or lists is not available in a page"),
    ("{{ ranks * rules.target_sum }}", SANDBOX + "'*' on text or lists is not available in a page"),
    ("{{ s.site_name % s.site_name }}", SANDBOX + "'%' on text or lists is not available in a page"),
    # arithmetic on the data gives a number no data holds: never printed nor formatted (issue 40)
    ("{{ -rules.target_sum }}", SANDBOX + f"a number computed in the page (-rules.target_sum); {COMPUTED}"),
    ("{{ rules.deck_size * rules.deck_size * rules.deck_size }}",
     SANDBOX + f"a number computed in the page ((rules.deck_size * rules.deck_size) * rules.deck_size); {COMPUTED}"),
    ("{{ rules.pyramid_cards + rules.pyramid_cards // rules.pyramid_cards }}", SANDBOX + "a number computed in the "
     f"page (rules.pyramid_cards + (rules.pyramid_cards // rules.pyramid_cards)); {COMPUTED}"),
    ("{{ rules.target_sum + rules.deck_size }}",
     SANDBOX + f"a number computed in the page (rules.target_sum + rules.deck_size); {COMPUTED}"),
    ("{{ (rules.pyramid_cards * rules.pyramid_cards * rules.pyramid_cards) | num }}", SANDBOX + "a number computed "
     f"in the page ((rules.pyramid_cards * rules.pyramid_cards) * rules.pyramid_cards); {COMPUTED}"),
    ("{{ (survey.share * survey.pool_size / survey.pool_size * rules.deck_size / rules.deck_size * 3) | pct }}",
     "a number typed by hand (3) in a tag; " + TYPED),
    ("{{ (survey.share + survey.share + survey.share) | pct }}",
     SANDBOX + f"a number computed in the page ((survey.share + survey.share) + survey.share); {COMPUTED}"),
    ("{{ (rules.rows + rules.rows) | spell }}", SANDBOX + f"a number computed in the page (rules.rows + rules.rows); {COMPUTED}"),
    ("{% set n = rules.rows - rules.rows %}{{ n | num }}",
     SANDBOX + f"a number computed in the page (rules.rows - rules.rows); {COMPUTED}"),
    # a number of the data goes through the locale's formatting only: no text filter, no join
    ("{{ (rules.pyramid_cards + rules.rows) | lower }}", SANDBOX + f"a number computed in the page "
     f"(rules.pyramid_cards + rules.rows); {COMPUTED}"),
    ("{{ (rules.pyramid_cards + rules.rows) | e }}", SANDBOX + f"a number computed in the page "
     f"(rules.pyramid_cards + rules.rows); {COMPUTED}"),
    ("{{ rules.pyramid_cards | lower }}", SANDBOX + "rules.pyramid_cards is a number of the data: print it as it is "
     "({{ rules.pyramid_cards }}) or through num, pct or spell; text filters and join do not take numbers"),
    ("{{ rules.pyramid_cards | e }}", SANDBOX + "rules.pyramid_cards is a number of the data: print it as it is "
     "({{ rules.pyramid_cards }}) or through num, pct or spell; text filters and join do not take numbers"),
    ("{{ ranks | map(attribute='value') | join(', ') }}", SANDBOX + "ranks[0].value is a number of the data: print "
     "it as it is ({{ ranks[0].value }}) or through num, pct or spell; text filters and join do not take numbers"),
    ("{{ ranks | map(attribute='value') | select('gt', 10) | list | length }}",
     SANDBOX + f"a number computed in the page (… | length); {COMPUTED}"),
    ("{{ s.site_name | num }}", SANDBOX + "'num' writes a number of the data (rules.deck_size | num); it was given a str"),
    ("{{ verified_at | spell }}",
     SANDBOX + "'spell' writes a number of the data (rules.deck_size | spell); it was given a date (verified_at)"),
    ("{{ rules.deck_size | card }}", SANDBOX + "'card' does not take a number (rules.deck_size)"),
    ("{{ facts.source_survey.month | lower }}", SANDBOX + "a page printed text holding a number ('2026-07') that a "
     "filter or '+' made from the data; print the data's value as it is"),
    ("{{ rules.target_sum > rules.deck_size }}", SANDBOX + "a page printed true/false; print words from strings.yml instead"),
    ("{{ none }}", "a page printed null (none), which would show as 'None'; print a value the data holds"),
    ("{% set nothing = none %}{{ nothing }}", SANDBOX + "a page printed null (none), which would show as 'None'; print a value the data holds"),
    ("{{ rules }}", SANDBOX + "a page printed a dict; print a value, not a mapping or list"),
    ("{{ ranks }}", SANDBOX + "a page printed a list; print a value, not a mapping or list"),
    ("{% for a in s.site_name %}x{% endfor %}", SANDBOX + "a loop over text (its letters); loop over the data's lists"),
    ("{{ s.site_name | join }}", SANDBOX + "'join' walks a list; on text it would list its letters"),
    ("{{ rules.items() }}", SANDBOX + "'.items' is not available in a page (no Python attributes)"),
])
def test_a_refusal_says_exactly_what_is_wrong(nb, tmp_path, text, message):
    assert refusal(nb, tmp_path, text) == message


# Jinja's globals and its macro and template names, as the module's docstring lists them.
REFUSED = ["self", "varargs", "kwargs", "range", "cycler", "joiner", "namespace", "lipsum", "dict"]


@pytest.mark.parametrize("name", REFUSED)
def test_each_refused_name_is_named(nb, tmp_path, name):
    assert refusal(nb, tmp_path, "{{ " + name + " }}") == f"'{name}' is not available in a page"


@pytest.mark.parametrize("name", ["first", "last", "join", "length", "list", "map", "select", "reject",
                                  "selectattr", "rejectattr", "sort", "reverse", "unique"])
def test_each_filter_that_walks_a_list_refuses_text(nb, tmp_path, name):
    argument = {"selectattr": "('rank')", "rejectattr": "('rank')", "map": "(attribute='rank')"}.get(name, "")
    expected = ("'join' walks a list; on text it would list its letters" if name == "join" else
                f"'{name}' walks a list; on text it would count or list its letters")
    assert refusal(nb, tmp_path, "{{ s.site_name | " + name + argument + " }}") == SANDBOX + expected


@pytest.mark.parametrize("text, printed", [
    # Jinja's filters that walk a list, on the data's lists (those marked to get the context too)
    ("{{ ranks | map(attribute='name') | join(', ') }}",
     "ess, to, tre, fire, fem, seks, sju, åtte, ni, ti, knekt, dame, konge"),
    ("{{ ranks | selectattr('rank', 'equalto', 'Q') | map(attribute='name') | first }}", "dame"),
    ("{{ ranks | rejectattr('value', 'lt', rules.target_sum) | map(attribute='name') | first }}", "konge"),
    ("{{ ranks | map(attribute='name') | sort | first }}", "dame"),
    ("{{ ranks | map(attribute='name') | reverse | first }}", "konge"),
    ("{% if ranks | map(attribute='value') | select('gt', rules.deck_size // ranks | length - rules.target_sum // rules.target_sum) | list | length == 10 %}ja{% endif %}", "ja"),
    ("{{ ranks | map(attribute='name') | unique | list | first }}", "ess"),
    ("{{ ranks | length }}", "13"),  # the length of a list of the data is a value of the data
    ("{{ ranks | last | length }}", "3"),  # the king's keys: rank, name, value
    # a number of the data, printed in the locale's way: nb groups thousands with a no-break space
    ("{{ rules.max_deal }} {{ rules.max_deal | num }}", "4\u00a0294\u00a0967\u00a0295 4\u00a0294\u00a0967\u00a0295"),
    # chosen by a number the page computed: the data's item is printed, never the number
    ("{{ ranks | selectattr('value', 'equalto', rules.target_sum - ranks[2].value) | map(attribute='name') | first }}", "ti"),
    ("{{ ranks[rules.target_sum - rules.target_sum].name }}", "ess"),
    # the text filters
    ("{{ s.site_name | lower }} {{ s.site_name | upper }} {{ s.site_name | capitalize }}", "pyramide PYRAMIDE Pyramide"),
    ("{{ s.site_name | title }} {{ s.site_name | trim }} {{ s.site_name | escape }} {{ s.site_name | e }}",
     "Pyramide Pyramide Pyramide Pyramide"),
    # text joined with +, the data's numbers, card codes and comparisons with a typed number
    ("{{ s.site_name + s.site_name }}", "PyramidePyramide"),
    ("{{ ranks | map(attribute='name') | join }}", "esstotrefirefemsekssjuåtteniti" + "knektdamekonge"),
    ("{{ '3S' | card }}", "spar tre"),
    ("{{ 'pair 6H 7S' | move }}", "hjerter seks og spar sju"),
    # a selector's arguments choose items; a typed number there is never printed
    ("{{ ranks | rejectattr('rank', 'equalto', '2') | map(attribute='name') | first }}", "ess"),
    ("{% if ranks | map(attribute='value') | select('gt', 10) | list | length == 3 %}ja{% endif %}", "ja"),
    ("{% if ranks | map(attribute='value') | reject('gt', 10) | list | length < 11 %}ja{% endif %}", "ja"),
    ("{% if rules.target_sum == 13 %}ja{% endif %}", "ja"),
    ("{% if rules.deck_size is divisibleby 4 %}ja{% endif %}", "ja"),
    ("{% if true %}ja{% endif %}", "ja"),
])
def test_what_a_page_may_print(nb, tmp_path, text, printed):
    assert render_one(nb, tmp_path, f"Tekst.\n{text}\n") == f"Tekst.\n{printed}\n"


def test_a_date_is_printed_only_through_its_filters(nb, tmp_path):
    """A date printed bare would show in Python's form (2026-10-30), not the language's: it is
    refused, and named."""
    lang, context = nb
    with pytest.raises(BuildError) as e:
        render_one((lang, {**context, "visited": date(2026, 10, 30)}), tmp_path, "Tekst.\n{{ visited }}\n")
    assert str(e.value).endswith(f", line 2: {SANDBOX}a date printed raw; use `| date` or `| month`")


def test_macro_and_function_calls_are_bounded(nb, tmp_path):
    tens = "{{ f() }}" * 10  # 2,197 loop passes, 21,970 calls
    loops = "{% for a in ranks %}{% for b in ranks %}{% for c in ranks %}" + tens + "{% endfor %}{% endfor %}{% endfor %}"
    assert refusal(nb, tmp_path, "{% macro f() %}{% endmacro %}" + loops) == SANDBOX + "more than 20,000 calls in one page"


def test_loop_passes_are_bounded_at_twenty_thousand(nb, tmp_path):
    four = "{% for a in ranks %}{% for b in ranks %}{% for c in ranks %}{% for d in ranks %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}"
    assert refusal(nb, tmp_path, four) == SANDBOX + "more than 20,000 loop passes in one page"


def test_rendering_is_bounded_in_time(nb, tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "PAGE_SECONDS", 0.0)
    assert refusal(nb, tmp_path, "{{ s.site_name }}") == SANDBOX + "the page took more than 0 s to render"


NAMES = "ess, to, tre, fire, fem, seks, sju, åtte, ni, ti, knekt, dame, konge"


@pytest.mark.parametrize("limit, refused", [(len(NAMES), None), (len(NAMES) - 1, "a value longer than")])
def test_a_join_is_bounded_to_the_character(nb, tmp_path, monkeypatch, limit, refused):
    """The page is "{{ … | join(', ') }}" alone, so the join and the page are the same length."""
    monkeypatch.setattr(sandbox, "MAX_OUTPUT", limit)
    text = "{{ ranks | map(attribute='name') | join(', ') }}"
    if refused is None:
        assert render_one(nb, tmp_path, text) == NAMES
    else:
        with pytest.raises(BuildError) as e:
            render_one(nb, tmp_path, text)
        assert str(e.value).endswith(f": {SANDBOX}a value longer than {limit:,} characters")


@pytest.mark.parametrize("extra, message", [(0, None), (-1, "a value longer than {:,} characters")])
def test_text_joined_with_plus_is_bounded_to_the_character(nb, tmp_path, monkeypatch, extra, message):
    name = nb[1]["s"]["site_name"]
    limit = 2 * len(name) + extra
    monkeypatch.setattr(sandbox, "MAX_OUTPUT", limit)
    text = "{{ s.site_name + s.site_name }}"
    if message is None:
        assert render_one(nb, tmp_path, text) == name * 2
    else:
        with pytest.raises(BuildError) as e:
            render_one(nb, tmp_path, text)
        assert str(e.value).endswith(f": {SANDBOX}{message.format(limit)}")


@pytest.mark.parametrize("extra", [0, -1])
def test_the_page_is_bounded_to_the_character(nb, tmp_path, monkeypatch, extra):
    page = "Tekst.\n" * 3
    monkeypatch.setattr(sandbox, "MAX_OUTPUT", len(page) + extra)
    if extra == 0:
        assert render_one(nb, tmp_path, page) == page
    else:
        with pytest.raises(BuildError) as e:
            render_one(nb, tmp_path, page)
        assert str(e.value).endswith(f": {SANDBOX}the page is longer than {len(page) - 1:,} characters")


def test_the_doubled_text_is_stopped_at_four_million_characters(nb, tmp_path):
    doubling = "{% set a = s.site_description %}" + "{% set a = a + a %}" * 40 + "{{ a }}"
    assert refusal(nb, tmp_path, doubling) == SANDBOX + "a value longer than 4,000,000 characters"


@pytest.mark.parametrize("limit, refused", [(13 + 13 * 13, False), (13 + 13 * 13 - 1, True)])
def test_loop_passes_are_counted_to_the_pass(nb, tmp_path, monkeypatch, limit, refused):
    """Two loops over the 13 ranks, one inside the other: 13 + 169 passes."""
    monkeypatch.setattr(sandbox, "MAX_ITERATIONS", limit)
    text = "{% for a in ranks %}{% for b in ranks %}{% endfor %}{% endfor %}"
    if refused:
        assert refusal(nb, tmp_path, text) == SANDBOX + f"more than {limit} loop passes in one page"
    else:
        assert render_one(nb, tmp_path, f"Tekst.\n{text}\n") == "Tekst.\n\n"


@pytest.mark.parametrize("limit, refused", [(13, False), (12, True)])
def test_calls_are_counted_to_the_call(nb, tmp_path, monkeypatch, limit, refused):
    monkeypatch.setattr(sandbox, "MAX_CALLS", limit)
    text = "{% macro f() %}{% endmacro %}{% for a in ranks %}{{ f() }}{% endfor %}"
    if refused:
        assert refusal(nb, tmp_path, text) == SANDBOX + f"more than {limit} calls in one page"
    else:
        assert render_one(nb, tmp_path, f"Tekst.\n{text}\n") == "Tekst.\n\n"


class Clock:
    """time.monotonic for the sandbox: 0 when the page begins, then `later` seconds on."""

    def __init__(self, later: float):
        self.later, self.calls = later, 0

    def monotonic(self) -> float:
        self.calls += 1
        return 0.0 if self.calls == 1 else self.later


@pytest.mark.parametrize("later, refused", [(20.0, False), (20.5, True)])
def test_a_page_still_rendering_after_twenty_seconds_is_stopped(nb, tmp_path, monkeypatch, later, refused):
    lang, context = nb
    from generator.render.pages import PageFunctions, make_environment
    from generator.site import build as site

    pages = tmp_path / "pages"
    pages.mkdir()
    source = pages / "page.md"
    source.write_text("Tekst.\n{{ s.site_name }}\n", encoding="utf-8")
    env = make_environment(pages, context, PageFunctions(context, site.assets_url), {"page.md": source})
    monkeypatch.setattr(sandbox, "time", Clock(later))
    env.begin_page()
    template = env.get_template("page.md")
    if refused:
        with pytest.raises(sandbox.SandboxLimit, match=r"^the page took more than 20 s to render$"):
            sandbox.render_bounded(template)
    else:
        assert sandbox.render_bounded(template) == f"Tekst.\n{context['s']['site_name']}\n"


def test_a_page_functions_argument_may_hold_a_digit(nb, tmp_path):
    """Which example, which step: a choice of data, never printed. The digit passes the sandbox,
    and the function itself says there is no such example."""
    message = refusal(nb, tmp_path, "{{ summary('deal-7') }}")
    assert message.startswith("no example 'deal-7' in the verified bundle (have: "), message


def test_the_sandbox_refuses_a_page_by_itself_naming_its_first_problem(nb, tmp_path):
    """Without the lint before it (generator/site/build.py): the environment parses a page and refuses
    it at its first problem, with that problem's line."""
    from generator.site import build as site
    from generator.render.pages import PageFunctions, make_environment

    lang, context = nb
    pages = tmp_path / "pages"
    pages.mkdir()
    source = pages / "page.md"
    source.write_text("Tekst.\n\n{{ self }}\n{{ range }}\n", encoding="utf-8")
    env = make_environment(pages, context, PageFunctions(context, site.assets_url), {"page.md": source})
    with pytest.raises(sandbox.PageRuleError) as e:
        env.get_template("page.md")
    assert (e.value.lineno, e.value.message) == (3, "'self' is not available in a page")


def test_a_join_of_one_item_counts_no_separator(nb, tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "MAX_OUTPUT", len("ess"))
    text = "{{ ranks | selectattr('rank', 'equalto', 'A') | map(attribute='name') | join(', ') }}"
    assert render_one(nb, tmp_path, text) == "ess"


def test_the_page_is_counted_over_all_its_chunks(nb, tmp_path, monkeypatch):
    """Thirteen short pieces, none of them past the bound, together past it."""
    monkeypatch.setattr(sandbox, "MAX_OUTPUT", 20)
    with pytest.raises(BuildError) as e:
        render_one(nb, tmp_path, "{% for a in ranks %}{{ a.name }}{% endfor %}")
    assert str(e.value).endswith(f": {SANDBOX}the page is longer than 20 characters")


def test_a_second_page_of_the_same_build_is_rendered_in_full(nb, tmp_path):
    """One environment renders a language's pages one after another (generator/site/build.py): the
    number guard's pass over the first (typed_text) leaves the second whole."""
    from generator.site import build as site
    from generator.render.pages import PageFunctions, make_environment, render_page

    lang, context = nb
    pages = tmp_path / "pages"
    pages.mkdir()
    first, second = pages / "a.md", pages / "b.md"
    first.write_text("Tekst.\n{{ s.site_name }}\n", encoding="utf-8")
    second.write_text("Mer.\n{{ s.site_name }}\n", encoding="utf-8")
    functions = PageFunctions(context, site.assets_url)
    env = make_environment(pages, context, functions, {"a.md": first, "b.md": second})
    name = context["s"]["site_name"]
    assert render_page(env, functions, first) == f"Tekst.\n{name}\n"
    assert render_page(env, functions, second) == f"Mer.\n{name}\n"
