"""The figures of a survey: counts, the share won with its 95 % Wilson interval, New game's pool
and the variants' table — from a run's tally or from the cache."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..errors import SurveyIncomplete
from ..independent.variants import VARIANTS
from ..settings import POOL_SIZE
from .cache import cached_results, variant_rules


@dataclass
class Tally:
    """Counts of a survey's records, added one at a time (no record is kept)."""

    won: int = 0
    lost: int = 0
    undecided: int = 0
    replayed: int = 0
    redecided: int = 0
    first: int | None = None
    last: int | None = None

    def add(self, n: int, record: dict) -> None:
        setattr(self, record["result"], getattr(self, record["result"]) + 1)
        self.replayed += record["check"] == "replayed"
        self.redecided += record["check"] == "redecided"
        self.first = n if self.first is None else min(self.first, n)
        self.last = n if self.last is None else max(self.last, n)

    @property
    def deals(self) -> int:
        return self.won + self.lost + self.undecided


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a share k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At k = 0 (k = n) the bound is exactly 0 (1); rounding would leave a speck.
    return (0.0 if k == 0 else centre - half, 1.0 if k == n else centre + half)


def summarise(records, variant: str = "standard") -> dict:
    """The figures of a survey from its records ({deal: record}) or from its Tally."""
    tally = records
    if not isinstance(records, Tally):
        tally = Tally()
        for n, r in records.items():
            tally.add(n, r)
    won, lost, undecided = tally.won, tally.lost, tally.undecided
    decided = won + lost
    low, high = wilson(won, decided)
    return {
        "variant": variant, "rules": variant_rules(variant),
        "first": tally.first, "last": tally.last, "deals": tally.deals,
        "won": won, "lost": lost, "undecided": undecided,
        "share": won / decided if decided else None, "interval95": [low, high],
        "replayed": tally.replayed, "redecided": tally.redecided,
    }


def survey_summary(first: int = 1, last: int = 10000, variant: str = "standard",
                   cache_root: Path | None = None) -> dict:
    """The survey figures for the site: deals surveyed, won, share of the decided deals won with
    its 95 % Wilson interval, undecided, and how many answers were checked. From the cache."""
    return summarise(cached_results(first, last, variant, cache_root), variant)


def pool(count: int = POOL_SIZE, first: int = 1, last: int = 10000, variant: str = "standard",
         cache_root: Path | None = None) -> list[dict]:
    """New game's pool: the first `count` winnable deal numbers of the survey, each with its
    winning game (replayed in the independent engine): [{"deal": n, "game": [moves]}, ...]."""
    records = cached_results(first, last, variant, cache_root)
    won = [{"deal": n, "game": r["line"]} for n, r in records.items() if r["result"] == "won" and r["check"] == "replayed"]
    if len(won) < count:
        raise SurveyIncomplete(f"only {len(won)} winnable deals in {first}-{last}, {count} wanted")
    return won[:count]


def variant_table(first: int = 1, last: int = 2000, cache_root: Path | None = None) -> list[dict]:
    """One summary per variant (each surveyed over first … last), for the win-rate table."""
    return [survey_summary(first, last, v, cache_root) for v in VARIANTS]
