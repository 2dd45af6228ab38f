"""No figure that depends on the machine, and the same thing said the same (issue 42, item 3; review 3
A5, A8/D4): no page prints how long a search took (the first run of the independent search is mostly
Numba compiling: 27 s against 0.3 s warm), and each share of winnable deals in the game's rules
choice says how many deals it is of, as the variants page's table does, so 66,5 % of the 10,000 deals
of the standard survey and 66,4 % of the 2,000 of the variants' survey no longer read as one figure twice."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from babel.numbers import format_decimal

from generator.inputs.languages import load_languages
from generator.render.context import Words
from generator.render.pages import PageFunctions, make_environment
from generator.render.variant_choice import variants_data

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))
from helpers.bundle_fakes import check, figures  # noqa: E402
from helpers.game_harness import strings as page_strings  # noqa: E402

LANGUAGES = {lang.code: lang for lang in load_languages(ROOT / "docs")[0]}


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_the_checks_table_counts_and_never_times(code):
    lang = LANGUAGES[code]
    words = Words(lang)
    counts = {"deals_solved": 2, "app_positions": 40_728, "independent_positions": 40_728,
              "app_seconds": 0.2, "independent_seconds": 27.2}
    table = PageFunctions({"s": lang.strings, "_words": words, "checks": [check("search.exact", counts)]}, None).checks_table()
    row = table.splitlines()[-1]
    assert f"{lang.strings['count_words']['independent_positions']}: {words.num(40_728)}" in row
    assert "27" not in row and "0,2" not in row and "seconds" not in row


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_no_page_can_print_a_time(code, tmp_path):
    # The examples page gives positions only, and the filter that wrote seconds is gone.
    source = (LANGUAGES[code].folder / "pages" / "examples.md").read_text(encoding="utf-8")
    assert "seconds" not in source and "positions | num" in source
    words = Words(LANGUAGES[code])
    env = make_environment(tmp_path, {"_words": words}, PageFunctions({"_words": words}, None), {})
    assert "seconds" not in env.filters and "num" in env.filters


def test_each_share_in_the_rules_choice_has_its_base():
    survey = figures("standard", 1, "w" * 6646 + "l" * 3354)
    variant = figures("strict", 1, "w" * 102 + "l" * 1898)
    entries = variants_data([figures("standard", 1, "w" * 1327 + "l" * 673), variant], survey,
                            {"standard": "Standard", "strict": "Streng"}, lambda x: f"{x:.3f}", "nb", "../variants/")
    assert [(e["id"], e["share"], e["deals"]) for e in entries] == [("standard", "0.665", 10_000), ("strict", "0.051", 2_000)]


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_the_game_says_how_many_deals_a_share_is_of(code):
    from verify.app import find_node
    strings = page_strings(code)
    script = ("import('./app/ui/board.js').then(({ makeWords }) => { const w = makeWords(%s);"
              " console.log(JSON.stringify([10000, 2000].map((count) => w.fill(w.strings.variants.share, { share: '66,5 %%', count })))); })"
              % json.dumps(strings))
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True)
    ten, two = json.loads(out.stdout)
    assert ten.startswith("66,5 %") and format_decimal(10_000, locale=code) in ten
    assert format_decimal(2_000, locale=code) in two
