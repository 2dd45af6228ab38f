"""What the game's rules choice needs of each variant (pure functions, no I/O).

The game (app/ui/variants.js) offers the app's rules first, then each variant the survey covered
(the variants of the registry, app/core/variant-registry.js), named in the page's language (strings.yml
at the key the registry gives, `variants_names.ID`: the variants page's headings), with
its verified win rate written as the page writes percentages, with the number of deals it was
found on (the standard rules' survey has more deals than each variant's, so the same rules can show
another share in the variants page's table: the base says why), and a link to its section of the
variants page. Each variant's New game pool is its first VARIANT_POOL_SIZE won deals, read from
the bundle's per-deal letters: every one of those wins was found by the app's decider in the
survey and replayed again in the independent engine by `make verify` (verify/checks/
survey_checks.py) before the bundle was written, as the standard pool's games are.
"""
from __future__ import annotations

from generator.render.slugs import slug

__all__ = ["VARIANT_POOL_SIZE", "variant_pool", "variants_data"]

VARIANT_POOL_SIZE = 200  # enough for a player never to meet the same deal twice by chance
MAIN = "standard"


def variant_pool(figures: dict, size: int = VARIANT_POOL_SIZE) -> list[int]:
    """The first `size` won deals of a survey's letters (first … last, w won)."""
    first = figures["first"]
    return [first + i for i, letter in enumerate(figures["results"]) if letter == "w"][:size]


def variants_data(variants: list[dict] | None, survey: dict | None, names: dict, pct, lang: str,
                  variants_page: str) -> list[dict]:
    """The choice's entries, standard first: {id, name, share, deals, link, pool}. `pct` formats a share
    as the page does; `variants_page` is the variants page's address relative to the game's page.
    The standard entry has no pool of its own (the game's pool is it) and no link: its rules are
    the page the game is on."""
    entries = [{"id": MAIN, "name": names[MAIN], "share": pct(survey["share"]) if survey else None,
                "deals": survey["deals"] if survey else None, "link": None, "pool": None}]
    for figures in variants or []:
        vid = figures["variant"]
        if vid == MAIN:
            continue
        entries.append({"id": vid, "name": names[vid], "share": pct(figures["share"]), "deals": figures["deals"],
                        "link": f"{variants_page}#{slug(names[vid], lang)}", "pool": variant_pool(figures)})
    return entries
