"""The harness pages with the rules choice beside the board (variants-{lang}.html, as
generator/render/variant_choice.py makes it) and each variant's pool, for the browser tests of
the variants and of the solution: the fixtures variant_pools and variant_pages, and open_variants."""
from __future__ import annotations

import pytest
import yaml

from generator.render.game_embed import game_html, head_html
from helpers.game_harness import LANGS, PAGE, POOL, ROOT, strings
from helpers.game_page import GAME

VARIANTS = {"strict": {"strictWin": True}, "one-pass": {"turns": 0}, "unlimited": {"unlimitedTurns": True},
            "stock-top": {"stockTop": True}, "cover-pair": {"coverPair": True}}
SHARES = {"standard": "66,5 %", "strict": "20,0 %", "one-pass": "30,0 %", "unlimited": "70,0 %",
          "stock-top": "75,0 %", "cover-pair": "80,0 %"}  # the harness's own figures
DEALS = {"standard": 10_000, **{v: 2_000 for v in VARIANTS}}  # the surveys' sizes those shares are of


def names(lang: str) -> dict:
    return yaml.safe_load((ROOT / "docs" / lang / "strings.yml").read_text(encoding="utf-8"))["variants_names"]


def opening_under(app, deal: int, rules: dict) -> dict:
    pos = app.opening(deal)
    if "turns" in rules:
        pos = {**pos, "turns_left": rules["turns"]}
    return pos


@pytest.fixture(scope="session")
def variant_pools(app) -> dict[str, list[int]]:
    """Each variant's pool for the harness: its first two won deals of the survey (as
    generator/render/variant_choice.py takes them), each checked again here by the app's solver."""
    from verify.survey.cache import cached_results
    pools = {}
    for vid, rules in VARIANTS.items():
        records = cached_results(1, 2000, vid)
        pools[vid] = [n for n in sorted(records) if records[n]["result"] == "won"][:2]
        for n in pools[vid]:
            assert app.solve(opening_under(app, n, rules), rules=rules)["winnable"], (vid, n)
    return pools


@pytest.fixture(scope="session")
def variant_pages(site, variant_pools) -> dict[str, str]:
    """variants-{lang}.html: the game with the rules choice (as generator/render/variant_choice.py makes it)."""
    for lang in LANGS:
        n = names(lang)
        entries = [{"id": "standard", "name": n["standard"], "share": SHARES["standard"], "deals": DEALS["standard"],
                    "link": None, "pool": None}]
        entries += [{"id": v, "name": n[v], "share": SHARES[v], "deals": DEALS[v], "link": f"variants/#{v}",
                     "pool": variant_pools[v]}
                    for v in VARIANTS]
        body = game_html(lang, strings(lang), POOL, "assets", None, entries)
        (site / f"variants-{lang}.html").write_text(PAGE.format(lang=lang, head=head_html("assets"), body=body),
                                                   encoding="utf-8")
    return {lang: f"variants-{lang}.html" for lang in LANGS}


def open_variants(watched, variant_pages, lang: str, fragment: str = "", **kw):
    w = watched(**kw)
    page = w.open(variant_pages[lang] + fragment)
    page.wait_for_selector(f"{GAME} .pyr-board")
    return w, page
