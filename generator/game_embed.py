"""The HTML snippets that put the game and the replay on a page (pure functions, no I/O).

The page carries everything the scripts need as JSON in ``<script type="application/json">``
elements inside the container, so the scripts fetch nothing: the strings of the page's language
(``docs/<lang>/game.json``), the deal pool, the replay's game. ``assets_url`` is the folder,
relative to the page, where the site copies ``app/*.js`` and ``app/game.css``; no other host is
ever named. Each snippet is one element with no blank line in it (the stylesheet and the script
inside), so Markdown leaves it raw.

Containers
----------
``div.pyramide-game``     the game (``app/game.js`` mounts every one it finds). Children:
                          ``noscript`` (message), ``script.pyramide-strings``,
                          ``script.pyramide-pool`` (list of deal numbers for New game).
``div.pyramide-replay``   the step-by-step replay (``app/replay.js``). Children:
                          ``div.pyramide-replay-fallback`` (the static pictures, hidden once the
                          script runs), ``script.pyramide-strings``, ``script.pyramide-replay-data``.

Replay data: ``{"deal": N, "moves": ["pair 7H 6S", ...], "chapters": [{"title": "...",
"move_index": i}, ...]}`` where ``move_index`` is the number of moves played at that point
(0 = the deal as dealt): the replay shows the position after that many moves, with the cards
the last of them removed drawn as ghosts, like the static pictures.
"""

from __future__ import annotations

import json
import re
from xml.sax.saxutils import quoteattr

__all__ = ["game_html", "replay_html"]


def _json_script(cls: str, data) -> str:
    # "<" written as \u003c: the JSON can then never close the <script> element or open a comment.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" class="{cls}">{text}</script>'


def _assets(assets_url: str) -> str:
    url = assets_url.rstrip("/")
    if "://" in url or url.startswith("//"):
        raise ValueError(f"assets_url must be a relative path on this site, not {assets_url!r}")
    return url or "."


def _check_lang(lang: str) -> None:
    if not (isinstance(lang, str) and lang.isalpha() and 2 <= len(lang) <= 3):
        raise ValueError(f"lang must be a language code such as 'nb' or 'da', not {lang!r}")


def _one_block(html: str) -> str:
    # Blank lines would end Markdown's raw HTML block; between tags they mean nothing in HTML.
    return re.sub(r"\n\s*\n", "\n", html.strip())


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def game_html(lang: str, strings: dict, pool: list[int], assets_url: str) -> str:
    """The game: a ``div.pyramide-game`` with its data, the stylesheet and the module script."""
    _check_lang(lang)
    if not isinstance(pool, list) or not all(isinstance(n, int) and n >= 1 for n in pool):
        raise ValueError("pool must be a list of deal numbers (whole numbers from 1)")
    url = _assets(assets_url)
    return (
        f'<div class="pyramide-game" lang={quoteattr(lang)}>'
        f'<noscript><p class="pyr-noscript">{_escape_text(strings["noscript"])}</p></noscript>'
        + _json_script("pyramide-strings", strings)
        + _json_script("pyramide-pool", pool)
        + f'<link rel="stylesheet" href={quoteattr(url + "/game.css")}>'
        f'<script type="module" src={quoteattr(url + "/game.js")}></script>'
        "</div>"
    )


def replay_html(lang: str, strings: dict, replay_data: dict, assets_url: str, fallback_html: str) -> str:
    """The replay of a shown game; without JavaScript the reader sees ``fallback_html``."""
    _check_lang(lang)
    for key in ("deal", "moves", "chapters"):
        if key not in replay_data:
            raise ValueError(f"replay_data needs '{key}' (deal, moves, chapters)")
    url = _assets(assets_url)
    return (
        f'<div class="pyramide-replay" lang={quoteattr(lang)}>'
        f'<div class="pyramide-replay-fallback">{_one_block(fallback_html)}</div>'
        + _json_script("pyramide-strings", strings)
        + _json_script("pyramide-replay-data", replay_data)
        + f'<link rel="stylesheet" href={quoteattr(url + "/game.css")}>'
        f'<script type="module" src={quoteattr(url + "/replay.js")}></script>'
        "</div>"
    )
