"""The daily deal, written again from docs/daily.md (the app's is app/core/daily.js): the deal of a
calendar date is drawn from New game's pool by the first number of Mulberry32 seeded with the
date's day number. Imports only the independent side."""
from __future__ import annotations

import datetime as dt

from .deal import mulberry32

EPOCH = dt.date(1970, 1, 1)
TWO_32 = 2 ** 32


def day_number(date: dt.date) -> int:
    """Days from 1970-01-01 to `date` (negative before it)."""
    return (date - EPOCH).days


def daily_deal(date: dt.date, pool: list[int]) -> int:
    """The deal of `date`: pool[floor(x × len(pool) / 2^32)], x the first number of
    Mulberry32 seeded with the day number modulo 2^32. Raises ValueError on an empty pool."""
    if not pool:
        raise ValueError("the daily deal needs a pool of deals")
    x = next(mulberry32(day_number(date) % TWO_32))
    return pool[x * len(pool) // TWO_32]
