"""The game writes numbers and dates as the pages do: app/core/locale.js, fed the CLDR data that
generator/render/game_locale.py takes from Babel, writes every number and date as Babel writes it for
the pages (format_decimal, format_date "long"), in every language of the site and in locales with
other groupings (en_IN's 2-digit groups), other signs and quoted date text."""
from __future__ import annotations

import datetime as dt
import json
import random
import subprocess
from pathlib import Path

import pytest
from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal

from generator.errors import BuildError
from generator.render.game_locale import game_locale
from generator.inputs.languages import load_languages

ROOT = Path(__file__).resolve().parents[3]
SITE_LANGUAGES = [lang.code for lang in load_languages(ROOT / "docs")[0]]
OTHER_LOCALES = ["en_IN", "fi", "pt_BR", "de", "ko", "sv"]
rng = random.Random(20261201)
NUMBERS = ([0, 1, 7, 13, 99, 100, 515, 999, 1000, 1520, 9999, 10000, 99999, 100000, 123456789, 4294967295, -1, -1234]
           + [rng.randrange(10 ** rng.randrange(1, 11)) for _ in range(200)])
DATES = [dt.date(2026, 1, 1) + dt.timedelta(days=i) for i in range(0, 366, 7)] + [dt.date(2036, 2, 29), dt.date(1970, 1, 1)]


def app_writes(locale_data: dict, numbers: list[int], dates: list[str]) -> dict:
    from verify.app import find_node
    script = ("import('./app/core/locale.js').then(m => { const l = %s; const n = m.numberFormatter(l), d = m.dateFormatter(l);"
              " console.log(JSON.stringify({numbers: %s.map(n), dates: %s.map(d)})); })"
              % (json.dumps(locale_data), json.dumps(numbers), json.dumps(dates)))
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("code", SITE_LANGUAGES + OTHER_LOCALES)
def test_the_game_writes_numbers_and_dates_as_babel_does(code):
    locale = Locale.parse(code)
    written = app_writes(game_locale(locale, "game.json"), NUMBERS, [d.isoformat() for d in DATES])
    assert written["numbers"] == [format_decimal(n, locale=locale) for n in NUMBERS]
    assert written["dates"] == [format_date(d, format="long", locale=locale) for d in DATES]


def test_the_site_languages_group_as_the_pages_say():
    written = {code: app_writes(game_locale(Locale.parse(code), "game.json"), [4294967295], ["2026-12-01"])
               for code in ("nb", "da")}
    assert written["nb"] == {"numbers": ["4\u00a0294\u00a0967\u00a0295"], "dates": ["1. desember 2026"]}
    assert written["da"] == {"numbers": ["4.294.967.295"], "dates": ["1. december 2026"]}


def test_a_date_field_the_game_cannot_write_stops_the_build(monkeypatch):
    from generator.render import game_locale as module

    class Pattern:
        pattern = "EEEE d. MMMM y"  # with the weekday, which app/core/locale.js does not write
    monkeypatch.setattr(module, "get_date_format", lambda *a, **k: Pattern())
    with pytest.raises(BuildError, match=r"docs/xx/game\.json: .*'EEEE d\. MMMM y'.* 'E'"):
        module.game_locale(Locale.parse("nb"), "docs/xx/game.json")
