"""The HTML snippets that put the game and the replay on a page (pure functions, no I/O).

The page carries everything the scripts need as JSON in ``<script type="application/json">``
elements inside the container, so the scripts fetch nothing: the strings of the page's language
(``docs/<lang>/game.json``), the deal pool, the replay's game. ``assets_url`` is the folder,
relative to the page, where the site copies ``app/`` (its ``core/`` and ``ui/`` folders kept); no other host is
ever named. Each snippet is one element with no blank line in it (the stylesheet and the script
inside), so Markdown leaves it raw.

Containers
----------
``div.pyramide-game``     the game (``app/ui/game.js`` mounts every one it finds), ``id="game"`` (the
                          page's "go to the game" link). Children:
                          ``div.pyr-reserve`` (the game's space, held from the first paint so
                          nothing moves when the board is drawn; it shows the deal face down,
                          ``img.pyr-reserve-picture`` of ``RESERVE_PICTURE``, holds the
                          ``noscript`` message and goes once ``data-mounted`` is set), ``script.pyramide-strings``,
                          ``script.pyramide-pool`` (list of deal numbers for New game),
                          ``script.pyramide-winnable`` (when given: which surveyed deals can be
                          won, ``{"first", "last", "winnable": base64 bitset, "undecided"}``,
                          made by ``generator/render/winnable.py``; a linked deal known lost says so),
                          ``script.pyramide-variants`` (when given: the rules choice, standard
                          first, ``[{"id", "name", "share", "deals", "link", "pool"}]``, made by
                          ``generator/render/variant_choice.py``).
``div.pyramide-replay``   the step-by-step replay (``app/ui/replay.js``). Children:
                          ``div.pyramide-replay-fallback`` (the static pictures: every chapter's
                          ``figure``, which the script moves into its stage as that chapter's
                          frame), ``script.pyramide-strings``, ``script.pyramide-replay-data``.

The stylesheet is not in the snippets: it belongs in the page's ``<head>`` (``head_html``), so
that it does not block rendering halfway down the body and the reserve has its size at once.

Replay data: ``{"deal": N, "moves": ["pair 7H 6S", ...], "chapters": [{"title": "...",
"move_index": i}, ...]}`` where ``move_index`` is the number of moves played at that point
(0 = the deal as dealt): the replay shows the position after that many moves, with the cards
the last of them removed drawn as ghosts, like the static pictures.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path, PurePosixPath
from xml.sax.saxutils import quoteattr

from generator.render.svg import VIEW_H, VIEW_W
from generator.inputs.languages import LANGUAGE_CODE

__all__ = ["CARD_STYLESHEET", "RESERVE_PICTURE", "STYLESHEET", "GAME_MODULE", "REPLAY_MODULE", "game_code", "game_html", "head_html",
           "module_graph", "replay_html"]

# The game's and the replay's stylesheet, by its path in the folder of app/ files (generator/overrides/main.html
# links the same file in the head of every page that holds a game or a replay).
STYLESHEET = "ui/game.css"
# The cards' look, shared with the site's pictures (its one source; linked before the game's).
CARD_STYLESHEET = "ui/cards.css"
# The deal face down (generator/render/svg.py reserve_svg), written by the build beside the app's files:
# the reserve shows it until the board is drawn, so the first paint already shows the pyramid
# (and is the page's largest paint, not the game's first message a moment later).
RESERVE_PICTURE = "reserve.svg"


# The modules the page's <script type="module"> loads (paths in app/); module_graph() names what they import.
GAME_MODULE = "ui/game.js"
REPLAY_MODULE = "ui/replay.js"
WORKER_MODULE = "core/worker.js"  # Hint's and the solution's searches (app/ui/game.js WORKER_URL)
_STATIC_IMPORT = re.compile(
    r"""(?:^|;|\n)\s*(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?['"]((?:\./|(?:\.\./)+)[\w./-]*?[\w.-]+\.js)['"]""")


def module_graph(entry: str, app: Path) -> list[str]:
    """``entry`` and every module of ``app`` it imports, directly or not, by static ``import`` (or
    ``export … from``), as paths in ``app`` (``ui/game.js``, ``core/engine.js``: a relative import is
    resolved from its importer's folder), in a stable order (entry first). The page preloads them all in its head
    (overrides/main.html, ``<link rel="modulepreload">``): fetched at once instead of one import
    level per round trip, which on a slow phone line held the game's first draw back by several.
    Raises ValueError for an import of a file that is not there, or outside ``app``."""
    seen, queue = [], [entry]
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        path = app / name
        if not path.is_file():
            raise ValueError(f"{path}: imported by the game's modules, but there is no such file")
        seen.append(name)
        folder = PurePosixPath(name).parent
        for spec in _STATIC_IMPORT.findall(path.read_text(encoding="utf-8")):
            target = posixpath.normpath(str(folder / spec))
            if target.startswith("../"):
                raise ValueError(f"{path}: imports {spec}, outside {app}")
            queue.append(target)
    return seen


def game_code(app: Path) -> list[str]:
    """Every file of ``app`` a reader's browser may fetch for the game and the replay: both pages'
    modules, the worker's (loaded when Hint or the solution asks) and the two stylesheets. What the
    size budget counts (tests/browser/test_game.py, bench/game_bench.py)."""
    files = [CARD_STYLESHEET, STYLESHEET]
    for entry in (GAME_MODULE, WORKER_MODULE, REPLAY_MODULE):
        files += [name for name in module_graph(entry, app) if name not in files]
    return files


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
    if not (isinstance(lang, str) and LANGUAGE_CODE.fullmatch(lang)):
        raise ValueError(f"lang must be a language code such as 'nb', 'da' or 'pt-br', not {lang!r}")


def _one_block(html: str) -> str:
    # Blank lines would end Markdown's raw HTML block; between tags they mean nothing in HTML.
    return re.sub(r"\n\s*\n", "\n", html.strip())


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def game_html(lang: str, strings: dict, pool: list[int], assets_url: str, winnable: dict | None = None,
              variants: list[dict] | None = None) -> str:
    """The game: a ``div.pyramide-game`` with its reserved space, its data and the module script."""
    _check_lang(lang)
    if not isinstance(pool, list) or not all(isinstance(n, int) and n >= 1 for n in pool):
        raise ValueError("pool must be a list of deal numbers (whole numbers from 1)")
    url = _assets(assets_url)
    return (
        f'<div class="pyramide-game" id="game" lang={quoteattr(lang)}>'
        '<div class="pyr-reserve"><div class="pyr-reserve-board">'
        f'<img class="pyr-reserve-picture" src={quoteattr(url + "/" + RESERVE_PICTURE)} alt="" width="{VIEW_W}" height="{VIEW_H}">'
        f'<noscript><p class="pyr-noscript">{_escape_text(strings["noscript"])}</p></noscript>'
        "</div></div>"
        + _json_script("pyramide-strings", strings)
        + _json_script("pyramide-pool", pool)
        + (_json_script("pyramide-winnable", winnable) if winnable is not None else "")
        + (_json_script("pyramide-variants", variants) if variants else "")
        + f'<script type="module" src={quoteattr(url + "/" + GAME_MODULE)}></script>'
        "</div>"
    )


def head_html(assets_url: str) -> str:
    """What a page holding the game or the replay needs in its ``<head>``: the stylesheets."""
    url = _assets(assets_url)
    return "".join(f'<link rel="stylesheet" href={quoteattr(url + "/" + name)}>' for name in (CARD_STYLESHEET, STYLESHEET))


def replay_html(lang: str, strings: dict, replay_data: dict, assets_url: str, fallback_html: str) -> str:
    """The replay of a shown game. ``fallback_html`` is what a reader without JavaScript sees;
    its ``figure`` elements, one per chapter in order, become the replay's frames for those steps."""
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
        + f'<script type="module" src={quoteattr(url + "/" + REPLAY_MODULE)}></script>'
        "</div>"
    )
