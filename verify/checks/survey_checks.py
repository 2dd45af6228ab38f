"""The survey's figures and New game's pool, taken from the survey cache and checked again.

The survey itself (make survey) decided every deal with the app's decider, replayed every
winning game in the independent engine and decided every lost deal again independently. Here
the pool's winning games are replayed once more, so no game reaches the page unchecked.
"""
from __future__ import annotations

from .. import rules
from ..survey import SurveyIncomplete, pool, survey_summary, variant_table
from .example_checks import CheckError

SURVEY_RANGE = (1, 10000)
VARIANT_RANGE = (1, 2000)
POOL_SIZE = 1000


def _site_figures(summary: dict) -> dict:
    low, high = summary["interval95"]
    return {"variant": summary["variant"], "first": summary["first"], "last": summary["last"],
            "deals": summary["deals"], "won": summary["won"], "lost": summary["lost"],
            "undecided": summary["undecided"], "share": summary["share"], "low": low, "high": high}


def check_survey(store: dict) -> dict:
    try:
        summary = survey_summary(*SURVEY_RANGE)
        games = pool(POOL_SIZE, *SURVEY_RANGE)
        variants = variant_table(*VARIANT_RANGE)
    except SurveyIncomplete as e:
        raise CheckError(f"survey: {e}. Run `make survey` (it resumes where it stopped).") from None
    for entry in games:
        position = rules.opening(entry["deal"])
        for number, move in enumerate(entry["game"], 1):
            try:
                position = rules.apply(position, move)
            except rules.IllegalMove as e:
                raise CheckError(f"survey pool, deal {entry['deal']}, move {number} '{move}': {e}") from None
        if rules.status(position) != "won":
            raise CheckError(f"survey pool, deal {entry['deal']}: the stored winning game does not win")
    store["survey"] = {**_site_figures(summary), "pool_size": len(games),
                       "pool_deals": [g["deal"] for g in games], "pool": games,
                       "replayed": summary["replayed"], "redecided": summary["redecided"]}
    store["variants"] = [_site_figures(v) for v in variants]
    return {"deals": summary["deals"], "won": summary["won"], "undecided": summary["undecided"],
            "games_replayed": summary["replayed"] + len(games), "lost_rechecked": summary["redecided"]}
