"""Browser tests: a harness site built with generator/render/game_embed.py, served on 127.0.0.1, driven
by Playwright through Debian's Chromium (no browser is ever downloaded)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from helpers.game_harness import KNOWN_DEALS, LANGS, PAGE, POOL, ROOT, WIN_DEAL, strings
from helpers.local_browser import serve


@pytest.fixture(scope="session")
def winning_game(app) -> list[str]:
    result = app.solve(app.opening(WIN_DEAL))
    assert result["winnable"]
    return result["game"]


@pytest.fixture(scope="session")
def known_results() -> str:
    """Result letters (w/l) of deals 1 … KNOWN_DEALS, decided by the app's decider as the survey
    does, for the pages' winnable data (generator/render/winnable.py) — well under a second in Node."""
    from verify.app import find_node
    script = ("import('./app/core/decider.js').then(m => console.log(Array.from({length: %d}, (_, i) =>"
              " m.decideDeal(i + 1).result[0]).join('')))" % KNOWN_DEALS)
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert len(out) == KNOWN_DEALS and set(out) <= {"w", "l"}, out
    return out


@pytest.fixture(scope="session")
def site(tmp_path_factory, winning_game, known_results) -> Path:
    """index pages per language: {lang}.html (the game), replay-{lang}.html (the replay)."""
    from generator.render.game_embed import game_html, head_html, replay_html
    from generator.site.build import copy_game
    from generator.render.winnable import winnable_data

    root = tmp_path_factory.mktemp("site")
    copy_game(ROOT / "app", root / "assets")  # as the site gets them (the reserve's picture too)
    kinds = ["pair", "king", "draw", "turn"]
    chapters = [{"title": "Start", "move_index": 0}] + [
        {"title": kind, "move_index": next(i for i, m in enumerate(winning_game, 1) if m.startswith(kind))}
        for kind in kinds if any(m.startswith(kind) for m in winning_game)
    ] + [{"title": "Slutt", "move_index": len(winning_game)}]
    for lang in LANGS:
        s = strings(lang)
        (root / f"{lang}.html").write_text(PAGE.format(lang=lang, head=head_html("assets"), body=game_html(lang, s, POOL, "assets", winnable_data(1, known_results))),
                                           encoding="utf-8")
        data = {"deal": WIN_DEAL, "moves": winning_game, "chapters": chapters}
        fallback = '<p class="static-pictures">static pictures</p>\n\n<p>more</p>'
        (root / f"replay-{lang}.html").write_text(
            PAGE.format(lang=lang, head=head_html("assets"), body=replay_html(lang, s, data, "assets", fallback)), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def server(site):
    with serve(site) as base:
        yield base


class Watched:
    """A fresh browser context and page that record every request URL and every console error."""

    def __init__(self, browser, base: str, width: int = 1280, reduced_motion: bool = True):
        self.base = base
        self.context = browser.new_context(viewport={"width": width, "height": 900},
                                           reduced_motion="reduce" if reduced_motion else "no-preference")
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: str):
        self.page.goto(f"{self.base}/{path}")
        return self.page

    def close(self):
        self.context.close()


@pytest.fixture
def watched(browser, server):
    made = []

    def make(**kw) -> Watched:
        w = Watched(browser, server, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        foreign = [u for u in w.requests if not u.startswith(("http://127.0.0.1:", "data:"))]
        errors = list(w.errors)
        w.close()
        assert not foreign, f"requests to other hosts: {foreign}"
        assert not errors, f"console errors: {errors}"


