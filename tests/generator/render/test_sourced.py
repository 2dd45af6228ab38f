"""Numbers with provenance (generator/render/sourced.py, the sandbox's finalize and filters, and
generator/render/numbers_report.py): a number a page shows is a value of the checked data,
written in the locale's way, and noted with the data path it came from; a number the page
computed is never shown, and the error names the expression.

The breaks of issue 40's first bullet point, each refused naming file and line, are in
tests/generator/guard/test_sandbox_exact.py (test_a_refusal_says_exactly_what_is_wrong):
arithmetic printed («29 kort»), computed numbers through num, pct, spell, lower and e."""
from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given, strategies as st

from generator.errors import BuildError
from generator.render.pages import PageFunctions, make_environment, reads, render_page
from generator.render.sourced import (Computed, NotPrintable, Sourced, SourcedText, data_paths, numbers_in, path_of,
                                      tagged_context)
from generator.inputs.bundle import load_bundle
from generator.inputs.languages import language_facts, read_yaml
from generator.render.context import build_context
from generator.render.game_locale import game_strings
from generator.site import build as site
from helpers.page_sandbox import bundle_path, nb, render_one  # noqa: F401  (the fixtures and the one-page build)
from helpers.properties import property_settings


def test_every_number_and_date_of_the_data_is_tagged_with_its_path():
    context = tagged_context({"rules": {"deck_size": 52, "ranks": ["A", "2"], "ok": True},
                              "facts": {"sources": [{"url": "https://x/9", "visited": date(2026, 10, 30)}]},
                              "_words": 99})
    assert context["rules"]["deck_size"] == Sourced(52, "rules.deck_size")
    assert context["rules"]["deck_size"].path == "rules.deck_size"
    assert context["rules"]["ok"] is True  # true/false is no number
    assert path_of(context["rules"]["ranks"]) == "rules.ranks"
    assert context["rules"]["ranks"][0] == "A" and type(context["rules"]["ranks"][0]) is str  # no digit: plain text
    assert isinstance(context["rules"]["ranks"][1], SourcedText) and path_of(context["rules"]["ranks"][1]) == "rules.ranks[1]"
    assert context["facts"]["sources"][0]["visited"].path == "facts.sources[0].visited"
    assert "_words" not in context  # what the generator keeps for itself is no data


@given(value=st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False))
@property_settings(100)
def test_a_sourced_number_compares_like_its_value_and_has_no_text_of_its_own(value):
    number = Sourced(value, "a.b")
    assert number == value and hash(number) == hash(value) and not number < value and number <= value
    assert (number > value - 1) == (value > value - 1) and bool(number) == bool(value)
    for make_text in (str, format, lambda n: f"{n}", lambda n: f"{n:d}"):
        with pytest.raises(NotPrintable, match=r"^a\.b is a number of the data"):
            make_text(number)
    with pytest.raises(NotPrintable, match="a number computed in the page"):
        str(Computed(value, "a.b + a.b"))


def test_the_numbers_a_page_function_shows_are_read_outside_its_tags():
    assert numbers_in('<td value="3">4\u00a0294\u00a0967\u00a0295</td><td>65,8\u00a0%</td> og 7') == [
        "4\u00a0294\u00a0967\u00a0295", "65,8\u00a0%", "7"]
    assert numbers_in('<a href="#deal=27">Spill</a>') == []
    assert numbers_in('<script type="application/json">{"pool": [1, 3]}</script >Kabal nr. 8') == ["8"]


def test_the_data_paths_of_a_number_are_every_value_written_so():
    names = tagged_context({"rules": {"target_sum": 13, "king_value": 13, "max_deal": 4294967295},
                            "pairs": [{"low": 1, "high": 12}], "checks": [{"when": date(2026, 7, 1)}],
                            "facts": {"address": "Gate 13"}})
    found = data_paths(names, ("rules", "pairs", "checks", "facts"), (str, lambda n: f"{n:,}".replace(",", " ")))
    assert found["13"] == ["rules.target_sum", "rules.king_value", "facts.address"]
    assert found["4 294 967 295"] == ["rules.max_deal"] and found["1"] == ["pairs[0].low"]
    assert not any("checks" in path for paths in found.values() for path in paths)  # a date is no number shown
    assert data_paths(names, ("pairs",), (str,)) == {"1": ["pairs[0].low"], "12": ["pairs[0].high"]}
    assert data_paths(names, ("nowhere", "rules.nothing"), (str,)) == {}


def shown_on(nb, tmp_path, text: str) -> list[dict]:  # noqa: F811
    """What the sandbox noted for a page 'Tekst.' and `text`."""
    lang, context = nb
    pages = tmp_path / "pages"
    pages.mkdir(exist_ok=True)
    source = pages / "page.md"
    source.write_text(f"Tekst.\n{text}\n", encoding="utf-8")
    functions = PageFunctions(context, site.assets_url)
    env = make_environment(pages, context, functions, {"page.md": source})
    render_page(env, functions, source)
    return env.shown.pages["page.md"]


@pytest.mark.parametrize("text, shown", [
    ("{{ rules.deck_size }} kort", [("52", "rules.deck_size", "printed")]),
    ("{{ rules.max_deal | num }}", [("4\u00a0294\u00a0967\u00a0295", "rules.max_deal", "num")]),
    ("{{ rules.max_deal }}", [("4\u00a0294\u00a0967\u00a0295", "rules.max_deal", "printed")]),
    ("{{ rules.rows | spell }} rader", [("sju", "rules.rows", "spell")]),
    ("{{ examples | length | spell('n') }}", [("to", "examples | length", "spell")]),
    ("{{ facts.source_survey.share | pct }}", [("65,8\u00a0%", "facts.source_survey.share", "pct")]),
    ("{{ facts.source_survey.month | month }}", [("juli 2026", "facts.source_survey.month", "month")]),
    ("{% for r in ranks %}{% if r.rank == 'K' %}{{ r.value }}{% endif %}{% endfor %}", [("13", "ranks[12].value", "printed")]),
    ("{{ s.site_name }} og {% if rules.deck_size > rules.target_sum %}mer{% endif %}", []),  # a comparison shows no number
])
def test_each_number_shown_is_noted_with_its_data_path(nb, tmp_path, text, shown):  # noqa: F811
    assert [(r["shown"], r["path"], r["how"]) for r in shown_on(nb, tmp_path, text)] == shown


def test_a_page_functions_numbers_are_noted_under_its_name_with_their_data_paths(nb, tmp_path):  # noqa: F811
    noted = shown_on(nb, tmp_path, "{{ pairs_table() }}")
    assert noted and {r["path"] for r in noted} == {"pairs_table()"}
    assert [r["shown"] for r in noted][:3] == ["1", "12", "13"]  # ess + dronning: 1 + 12 = 13
    assert [r["data"] for r in noted][:3] == [["pairs[0].low"], ["pairs[0].high"],
                                              ["king.value", "rules.target_sum"]]
    caption = shown_on(nb, tmp_path, "{{ picture('winnable', 3) }}")
    assert [r["shown"] for r in caption] == ["27", "3"]  # «Utdeling 27 etter trekk 3»
    assert "examples.winnable.deal" in caption[0]["data"] and "examples.winnable.steps[2].number" in caption[1]["data"]


def test_a_page_function_that_shows_a_number_of_no_data_of_its_own_is_refused(nb, tmp_path, monkeypatch):  # noqa: F811
    """Its numbers come from the data it declares (@reads): a count it made itself, or one of
    data it does not declare, is a mistake of the generator's, refused naming the function."""
    @reads("examples.{example}")
    def summary(self, example_id):
        return "<p>9876</p>"  # a count it made up

    monkeypatch.setattr(PageFunctions, "summary", summary)
    with pytest.raises(BuildError, match=r"page\.md, line 2: summary\(\) shows '9876', which no value of its data "
                                         r"\(examples\.winnable\) is written as"):
        shown_on(nb, tmp_path, "{{ summary('winnable') }}")
    monkeypatch.setattr(PageFunctions.pairs_table, "reads", ("examples.{example}",))  # not where its numbers are
    with pytest.raises(BuildError, match=r"pairs_table\(\) shows '1', which no value of its data \(examples\.\)"):
        shown_on(nb, tmp_path, "{{ pairs_table() }}")


def test_the_probe_notes_nothing_twice(nb, tmp_path):  # noqa: F811
    assert len(shown_on(nb, tmp_path, "{{ rules.deck_size }} {{ rules.deck_size | num }}")) == 2


def test_every_path_noted_on_the_real_pages_leads_to_the_number_shown(nb, bundle_path):  # noqa: F811
    """Each page of nb, as the build renders it: every noted path, read back in the page's own
    sandbox as an expression, gives the value whose writing is the number shown."""
    lang = nb[0]
    context = build_context(load_bundle(bundle_path), lang, language_facts(lang, read_yaml(site.DOCS / "facts.yml")))
    context["_game_strings"] = game_strings(lang.game_strings, lang.code, "game.json")
    functions = PageFunctions(context, site.assets_url)
    env = make_environment(lang.folder / "pages", context, functions, lang.pages)
    words = context["_words"]
    writers = {"printed": env.format_number, "num": words.num, "pct": words.pct,
               "spell": words.spell, "date": words.date, "month": words.month}
    checked = 0
    for name, source in lang.pages.items():
        render_page(env, functions, source)
        for record in env.shown.pages[name]:
            if record["how"] == "page function":  # each data path it names holds a value written so
                assert record["data"], record
                for path in record["data"]:
                    value = env.compile_expression(path, undefined_to_none=False)()
                    raw = value.value if isinstance(value, Sourced) else str(value)
                    assert (record["shown"] in numbers_in(raw) if isinstance(value, SourcedText)
                            else record["shown"] in {env.format_number(raw), words.num(raw), words.pct(raw)}), record
                    checked += 1
                continue
            value = env.compile_expression(record["path"], undefined_to_none=False)()
            raw = value.value if isinstance(value, Sourced) else str(value)
            if record["how"] == "spell" and record["shown"] != words.num(raw):
                # spell agrees with its noun: the word is one of the language's for that count
                assert record["shown"] in (words.spell(raw, "c"), words.spell(raw, "n")), record
            elif record["how"] == "printed" and isinstance(value, SourcedText):
                assert record["shown"] == raw, record
            else:
                assert record["shown"] == writers[record["how"]](raw), record
            checked += 1
    assert checked > 500  # the pages show many numbers from the data, each of them checked here


def test_the_report_is_written_per_language_as_json_and_a_table(tmp_path, bundle_path, monkeypatch):  # noqa: F811
    from generator.render import numbers_report
    written = numbers_report.write_report(tmp_path)
    assert sorted(p.name for p in written) == ["da.json", "da.md", "nb.json", "nb.md"]
    report = json.loads((tmp_path / "nb.json").read_text(encoding="utf-8"))
    assert set(report) == {"contact.md", "examples.md", "index.md", "sources.md", "variants.md"}
    assert {"shown": "4\u00a0294\u00a0967\u00a0295", "path": "rules.max_deal", "how": "num"} in report["sources.md"]
    table = (tmp_path / "da.md").read_text(encoding="utf-8")
    assert "| shown | from | how |" in table and "`rules.max_deal`" in table


def test_printing_what_the_page_computed_names_the_expression_and_its_line(nb, tmp_path):  # noqa: F811
    with pytest.raises(BuildError) as e:
        render_one(nb, tmp_path, "Tekst.\n\n{% set n = rules.rows * rules.rows %}\nDet er {{ n }} kort.\n")
    assert str(e.value).startswith(f"{tmp_path / 'pages' / 'page.md'}, line 4: refused by the page sandbox: "
                                   "a number computed in the page (rules.rows * rules.rows)")


# ---------------------------------------------------------------- a fuzz over page sources

# Values of the data a page may name (each a whole number or a share), and how a page can write
# what it computed from them: printed bare, through each of the generator's number filters, the
# text filters, or set first and printed after.
LEAVES = ["rules.deck_size", "rules.target_sum", "rules.pyramid_cards", "rules.rows", "survey.share",
          "facts.source_survey.deals", "ranks[0].value", "examples | length", "example_list[0].deal"]
OPERATORS = ["+", "-", "*", "/", "//", "%"]
SINKS = ["", " | num", " | pct", " | spell", " | spell('n')", " | lower", " | upper", " | e",
         " | capitalize", " | trim"]
USES = ["{{{{ {} }}}} kort", "{{% set n = {} %}}Det er {{{{ n }}}}.", "- {{{{ {} }}}}", "| a | {{{{ {} }}}} |"]


@st.composite
def expressions(draw, depth=0):
    """(expression, whether it computes): a leaf, or an operator on two expressions, or a minus."""
    if depth >= 2 or draw(st.booleans()):
        return draw(st.sampled_from(LEAVES)), False
    if draw(st.integers(0, 5)) == 0:
        inner, _ = draw(expressions(depth + 1))
        return f"-({inner})", True
    (a, _), (b, _) = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    return f"({a} {draw(st.sampled_from(OPERATORS))} {b})", True


def test_no_page_source_prints_a_number_it_computed(nb, tmp_path):  # noqa: F811
    """Any expression over the data's values, written any way a page can: when it computes
    (an operator), the page is refused at its line naming the expression; when it does not, every
    number the page shows is noted with the path that gives it."""
    page = tmp_path / "pages" / "page.md"

    @property_settings(80, shrink=False)
    @given(expression=expressions(), sink=st.sampled_from(SINKS), use=st.sampled_from(USES),
           line=st.integers(0, 3))
    def holds(expression, sink, use, line):
        text, computes = expression
        source = "Tekst.\n\n" + "Mer tekst.\n\n" * line + use.format(f"({text}){sink}" if sink else text) + "\n"
        where = 3 + 2 * line
        try:
            out = render_one(nb, tmp_path, source)
        except BuildError as e:
            message = str(e)
            assert message.startswith(f"{page}, line {where}: "), (source, message)
            if computes:  # (or, before it prints, a division by zero)
                assert "a number computed in the page (" in message or "cannot compute a value" in message, (
                    source, message)
            return
        assert not computes, f"printed what it computed: {source!r} → {out!r}"
        noted = shown_on(nb, tmp_path, source.removeprefix("Tekst.\n"))
        shown = " ".join(r["shown"] for r in noted)
        assert all(n in shown for n in numbers_in(out.split("\n", 1)[1])), (source, out, noted)
    holds()
