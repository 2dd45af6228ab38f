"""The survey's figures and New game's pool, taken from the survey cache and checked again.

The survey itself (make survey) decided every deal with the app's decider, replayed every
winning game in the independent engine and decided every lost deal again independently. The
cache is only a file, though, and a file can be edited (its checksum redone): so here EVERY
verdict the bundle publishes is checked again before any figure or pool game is written. Each
won deal's game — the standard survey and each variant's — is replayed in the independent
engine (short games: about 20,000 of them take seconds), and each lost deal is decided again
from scratch by both deciders, the app's (app/core/decider.js, through the survey's Node worker) and
the independent one, on every core (check_losses; minutes of CPU, printed by `make verify`).

The bundle gets the figures and, for each survey, its per-deal results as one letter per deal
(w won, l lost, u undecided, first … last), from which the generator recomputes the figures.
"""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass

from ..errors import CheckFailed, SurveyDisagreement, SurveyIncomplete
from ..independent.variants import VARIANTS, rules_of
from ..settings import DEFAULT_MAX_NODES, MAIN_VARIANT, POOL_SIZE, SURVEY_RANGE, VARIANT_RANGE
from ..survey.cache import cached_results
from ..survey.figures import summarise
from ..survey.worker import app_decider, replay_won, survey_chunk
from . import Checked

LOSS_TASK = 20  # lost deals per task of check_losses: small, so both cores stay busy to the end

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
    standard rules, verify/independent/decider.py `replay` for a variant); CheckFailed naming the first deal whose
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


@dataclass
class SurveyCache:
    """The cached records the bundle is made from, read once: the main survey and each variant."""
    main: dict[int, dict]
    variants: dict[str, dict[int, dict]]
    survey_range: tuple[int, int]
    variant_range: tuple[int, int]

    def published(self) -> list[tuple[str, dict[int, dict]]]:
        """(variant, records) of every verdict the bundle publishes, each deal once: a variant
        with the main survey's own rules over a range it covers is the main survey's."""
        covered = self.survey_range[0] <= self.variant_range[0] <= self.variant_range[1] <= self.survey_range[1]
        return [(MAIN_VARIANT, self.main)] + [(v, records) for v, records in self.variants.items()
                                              if not (v == MAIN_VARIANT and covered)]


def read_cache(survey_range: tuple[int, int] = SURVEY_RANGE, variant_range: tuple[int, int] = VARIANT_RANGE,
               cache_root=None) -> SurveyCache:
    """The survey and each variant from the cache; CheckFailed when a deal is missing."""
    try:
        records = cached_results(*survey_range, MAIN_VARIANT, cache_root)
        variant_records = {v: cached_results(*variant_range, v, cache_root) for v in VARIANTS}
    except SurveyIncomplete as e:
        raise CheckFailed(f"survey: {e}. Run `make survey` (it resumes where it stopped).") from None
    return SurveyCache(records, variant_records, survey_range, variant_range)


def check_survey(survey_range: tuple[int, int] = SURVEY_RANGE,
                 variant_range: tuple[int, int] = VARIANT_RANGE, pool_size: int = POOL_SIZE,
                 cache_root=None, cache: SurveyCache | None = None) -> Checked:
    """Reads the survey and each variant from the cache (or takes `cache`, read once by the
    caller) and replays every won game; makes the bundle's `survey` and `variants`. CheckFailed
    when the cache is incomplete or a stored winning game does not win."""
    cache = cache or read_cache(survey_range, variant_range, cache_root)
    records = cache.main
    replayed = sum(replay_every_win(chunk, variant) for variant, chunk in cache.published())
    summary = summarise(records, MAIN_VARIANT)
    games = pool_of(records, pool_size)
    made = {}
    made["survey"] = {**site_figures(records, MAIN_VARIANT), "pool_size": len(games),
                       "pool_deals": [g["deal"] for g in games], "pool": games,
                       "replayed": summary["replayed"], "redecided": summary["redecided"]}
    made["variants"] = [site_figures(chunk, v) for v, chunk in cache.variants.items()]
    return Checked({"deals": summary["deals"], "won": summary["won"], "undecided": summary["undecided"],
                    "games_replayed": replayed, "lost_rechecked": summary["redecided"]}, made)


def _decide_losses(task: tuple[str, list[int]]) -> tuple[str, dict[int, dict], str | None]:
    """Worker: lost deals of one variant decided again as the survey decides them (the app's
    decider, then the independent decider for each loss). Returns (variant, records, the
    disagreement's message or None); the message, because SurveyDisagreement does not pickle."""
    variant, deals = task
    try:
        records, _ = survey_chunk((deals, rules_of(variant), DEFAULT_MAX_NODES, 1.0))
    except SurveyDisagreement as e:
        return variant, {}, str(e)
    return variant, records, None


def check_losses(cache: SurveyCache, jobs: int | None = None, pool=None) -> Checked:
    """Decides every lost deal the bundle publishes again, from scratch, in both deciders, on
    `jobs` processes (default: every core) or on `pool`; CheckFailed naming the first deal that
    either decider does not call lost (a forged verdict, or a changed engine)."""
    tasks = []
    for variant, records in cache.published():
        lost = sorted(n for n, r in records.items() if r["result"] == "lost")
        tasks += [(variant, lost[i:i + LOSS_TASK]) for i in range(0, len(lost), LOSS_TASK)]
    own = pool is None and bool(tasks)
    if own:
        pool = multiprocessing.get_context("fork").Pool(processes=jobs or os.cpu_count(), initializer=app_decider)
    decided = 0
    try:
        for variant, records, disagreement in pool.imap_unordered(_decide_losses, tasks) if tasks else ():
            if disagreement:
                raise CheckFailed(f"survey cache, {variant} rules, {disagreement} — the cache says lost; run "
                                  f"`python -m verify survey --variant {variant} --recompute`")
            for n, record in sorted(records.items()):
                if record["result"] != "lost" or record["check"] != "redecided":
                    won = f" with {', '.join(record['line'])}" if record["result"] == "won" else ""
                    raise CheckFailed(f"survey cache, {variant} rules, deal {n}: the cache says lost, the app's decider "
                                      f"says {record['result']}{won}; run `python -m verify survey --deals {n} "
                                      f"--variant {variant} --recompute`")
            decided += len(records)
    except BaseException:
        if own:
            pool.terminate()
        raise
    if own:
        pool.close()  # workers end normally: each closes its Node process
        pool.join()
    return Checked({"lost_decided_again": decided}, None)  # each by both deciders, or CheckFailed
