"""The browser tests' harness (tests/browser/conftest.py builds its pages): the deals it plays, the
page around the game, and the game's strings as the generator puts them in the page."""
from __future__ import annotations

import json
from pathlib import Path

from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
LANGS = LANGUAGES
POOL = [27, 8, 3]          # winnable deals (checked by test_pool_is_winnable)
WIN_DEAL = 27              # its shortest winning game has 51 moves
LOST_DEAL = 25             # cannot be won
STUCK_DEAL = 71            # stuck after three passes through the stock without removing a card
KNOWN_DEALS = 40           # the harness pages know deals 1 … 40 as the survey would (won or lost)

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pyramide</title><link rel="icon" href="data:,">{head}
<style>body{{margin:0 auto;padding:0 12px;max-width:60rem;font-family:system-ui,sans-serif}}</style>
</head><body><h1>Pyramide</h1>
{body}
</body></html>
"""


def strings(lang: str) -> dict:
    """The game's strings as the generator puts them in the page: game.json and the locale's data."""
    import yaml
    from generator.render.game_locale import game_strings
    path = ROOT / "docs" / lang / "game.json"
    numbers = yaml.safe_load((ROOT / "docs" / lang / "numbers.yml").read_text(encoding="utf-8"))
    return game_strings(json.loads(path.read_text(encoding="utf-8")), lang, str(path), numbers)
