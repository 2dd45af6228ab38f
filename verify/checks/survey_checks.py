"""The survey's figures and New game's pool, taken from the survey cache and checked again.

The survey itself (make survey) decided every deal with the app's decider, replayed every
winning game in the independent engine and decided every lost deal again independently. The
cache is only a file, though, and a file can be edited (its checksum redone): so here EVERY won
deal's game of the cache — the standard survey and each variant's — is replayed once more in the
independent engine before any figure or pool game is written to the bundle. They are short
games: about 20,000 of them take seconds (the check's time is printed by `make verify`).

The bundle gets the figures and, for each survey, its per-deal results as one letter per deal
(w won, l lost, u undecided, first … last), from which the generator recomputes the figures.
"""
from __future__ import annotations

from ..errors import CheckFailed, SurveyDisagreement, SurveyIncomplete
from ..independent.variants import VARIANTS, rules_of
from ..settings import MAIN_VARIANT, POOL_SIZE, SURVEY_RANGE, VARIANT_RANGE
from ..survey.cache import cached_results
from ..survey.figures import summarise
from ..survey.worker import replay_won
from . import Checked

RESULT_LETTERS = {"won": "w", "lost": "l", "undecided": "u"}


def results_text(records: dict[int, dict]) -> str:
    """One letter per deal, in deal order: the survey's detail, compact enough for the bundle."""
    return "".join(RESULT_LETTERS[records[n]["result"]] for n in sorted(records))


def site_figures(records: dict[int, dict], variant: str) -> dict:
    summary = summarise(records, variant)
    low, high = summary["interval95"]
    return {"variant": variant, "first": summary["first"], "last": summary["last"],
            "deals": summary["deals"], "won": summary["won"], "lost": summary["lost"],
            "undecided": summary["undecided"], "share": summary["share"], "low": low, "high": high,
            "results": results_text(records)}


def replay_every_win(records: dict[int, dict], variant: str) -> int:
    """Replays each won deal's stored game in the independent engine (verify/independent/rules.py for the
    standard rules, verify/independent/decider.replay for a variant); CheckFailed naming the first deal whose
    game is refused or does not win. Returns how many games were replayed."""
    rules = rules_of(variant)
    replayed = 0
    for n, record in records.items():
        if record["result"] != "won":
            continue
        try:
            replay_won(n, record["line"], rules)
        except SurveyDisagreement as e:
            raise CheckFailed(f"survey cache, {variant} rules, {e} — the cache says won; run "
                             f"`python -m verify survey --deals {n} --variant {variant} --recompute`") from None
        replayed += 1
    return replayed


def pool_of(records: dict[int, dict], count: int) -> list[dict]:
    """New game's pool: the first `count` won deals, each with its (replayed) winning game."""
    won = [{"deal": n, "game": records[n]["line"]} for n in sorted(records) if records[n]["result"] == "won"]
    if len(won) < count:
        raise CheckFailed(f"survey: only {len(won)} winnable deals in {min(records)}-{max(records)}, {count} wanted")
    return won[:count]


def check_survey(survey_range: tuple[int, int] = SURVEY_RANGE,
                 variant_range: tuple[int, int] = VARIANT_RANGE, pool_size: int = POOL_SIZE,
                 cache_root=None) -> Checked:
    """Reads the survey and each variant from the cache and replays every won game; makes the
    bundle's `survey` and `variants`. CheckFailed when the cache is incomplete
    or a stored winning game does not win."""
    try:
        records = cached_results(*survey_range, MAIN_VARIANT, cache_root)
        variant_records = {v: cached_results(*variant_range, v, cache_root) for v in VARIANTS}
    except SurveyIncomplete as e:
        raise CheckFailed(f"survey: {e}. Run `make survey` (it resumes where it stopped).") from None
    replayed = replay_every_win(records, MAIN_VARIANT)
    for variant, chunk in variant_records.items():
        # The main survey's own rules over a range it covers: those games were just replayed.
        if not (variant == MAIN_VARIANT and survey_range[0] <= variant_range[0] <= variant_range[1] <= survey_range[1]):
            replayed += replay_every_win(chunk, variant)
    summary = summarise(records, MAIN_VARIANT)
    games = pool_of(records, pool_size)
    made = {}
    made["survey"] = {**site_figures(records, MAIN_VARIANT), "pool_size": len(games),
                       "pool_deals": [g["deal"] for g in games], "pool": games,
                       "replayed": summary["replayed"], "redecided": summary["redecided"]}
    made["variants"] = [site_figures(chunk, v) for v, chunk in variant_records.items()]
    return Checked({"deals": summary["deals"], "won": summary["won"], "undecided": summary["undecided"],
                    "games_replayed": replayed, "lost_rechecked": summary["redecided"]}, made)
