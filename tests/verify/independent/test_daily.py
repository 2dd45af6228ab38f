"""The daily deal (docs/daily.md): the app's app/core/daily.js and the independent
verify/independent/daily.py choose the same deal on every date, and each date's deal is a pool deal."""
from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import pytest

from verify.independent.daily import daily_deal, day_number

ROOT = Path(__file__).resolve().parents[3]
POOL = list(range(3, 3003, 3))  # a pool of 1,000 deals, like New game's, in the page's order
START = dt.date(2026, 12, 1)
TEN_YEARS = [START + dt.timedelta(days=i) for i in range((dt.date(2036, 12, 1) - START).days + 1)]
# Pinned: the deals of a few dates as docs/daily.md made them when it was written, so that a change
# of the function on both sides at once (which the agreement test cannot see) shows here.
PINNED = {"1970-01-01": 801, "2026-12-01": 2586, "2027-01-01": 96, "2030-06-15": 1890, "2036-02-29": 2559}


def app_daily(dates: list[str], pool: list[int]) -> list[int]:
    from verify.app import find_node
    script = ("import('./app/core/daily.js').then(m => console.log(JSON.stringify(%s.map(d => m.dailyDeal(d, %s)))))"
              % (json.dumps(dates), json.dumps(pool)))
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def test_day_numbers_as_documented():
    assert day_number(dt.date(1970, 1, 1)) == 0
    assert day_number(dt.date(1970, 1, 2)) == 1
    assert day_number(dt.date(2026, 12, 1)) == 20788
    assert day_number(dt.date(1969, 12, 31)) == -1


def test_both_engines_agree_on_every_date_of_the_next_ten_years():
    dates = [d.isoformat() for d in TEN_YEARS]
    ours = [daily_deal(d, POOL) for d in TEN_YEARS]
    assert app_daily(dates, POOL) == ours
    assert set(ours) <= set(POOL)
    assert len(set(ours)) > 900  # spread over the pool, not stuck on a few deals


def test_pinned_dates():
    assert {d: daily_deal(dt.date.fromisoformat(d), POOL) for d in PINNED} == PINNED
    assert app_daily(list(PINNED), POOL) == list(PINNED.values())


def test_the_pages_small_pool_and_an_empty_one():
    assert app_daily(["2026-12-01"], [27, 8, 3]) == [daily_deal(START, [27, 8, 3])]
    assert app_daily(["2026-12-01"], []) == [None]
    with pytest.raises(ValueError):
        daily_deal(START, [])
