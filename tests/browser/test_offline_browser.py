"""The built site without a network, in Chromium: after one visit the service worker serves the
pages, the game and its Hint worker; a move made offline survives a reload; a new build gets a
new cache that replaces the old one once the old build's pages are closed; a file that does not
match the build's hashes is never cached. (127.0.0.1 over http is a secure context.)"""
from __future__ import annotations

import json
import shutil
import time

import pytest

from helpers.local_browser import serve
from generator.site import offline
from generator.inputs.languages import load_languages
from helpers.languages import LANGUAGES

GAME = ".pyramide-game"
LANGS = LANGUAGES


def visit_until_cached(context, base: str, path: str):
    """A page of the site, once its service worker is active (its cache then holds the whole build)."""
    page = context.new_page()
    page.goto(f"{base}/{path}")
    wait_until(page, "navigator.serviceWorker.ready.then(r => !!r.active)")
    return page


def wait_until(page, expression: str, timeout: float = 30) -> None:
    """Polls `expression` (it may return a promise) until it is true. Not page.wait_for_function:
    that evaluates a string inside the page, which the pages' Content-Security-Policy refuses."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.1)


def cache_names(page) -> list[str]:
    return page.evaluate("caches.keys()")


def saved_game(page):
    """The one deal's game saved in this fresh context (app/core/storage.js: a key per deal)."""
    return json.loads(page.evaluate("(k => k && localStorage.getItem(k))(Object.keys(localStorage)"
                                    ".find(k => k.startsWith('pyramide.game.v2.')))") or "null")


def stock_count(page) -> str:
    return page.locator(f"{GAME} .stock-count").text_content()


@pytest.mark.parametrize("lang", LANGS)
def test_pages_and_game_work_offline_after_one_visit(built_site, browser, lang):
    site, _ = built_site
    context = browser.new_context()
    errors = []
    try:
        with serve(site) as base:
            page = visit_until_cached(context, base, f"{lang}/")
            cache = json.loads(page.evaluate("fetch('../sw.js').then(r => r.text())")
                               .split("const BUILD = ", 1)[1].split(";\n", 1)[0])["cache"]
            assert cache_names(page) == [cache]
        # The server is gone and the browser is offline: only the service worker can answer.
        context.set_offline(True)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.reload()
        page.wait_for_selector(f"{GAME} .pyr-board")
        assert page.evaluate("document.documentElement.lang") == lang
        before = stock_count(page)
        page.locator(f"{GAME} button[data-pile='stock']").click()
        assert stock_count(page) != before
        moves = saved_game(page)["moves"]
        assert moves[-1] == "draw"
        page.reload()
        page.wait_for_selector(f"{GAME} .pyr-board")
        assert saved_game(page)["moves"] == moves and stock_count(page) != before  # the move is kept
        # Hint's worker comes from the cache too: its answer is a checked one, not "search too large".
        page.locator(f"{GAME} .pyr-hint").click()
        wait_until(page, f"['checked','lost','unchecked'].includes(document.querySelector('{GAME}').dataset.hint)")
        assert page.evaluate(f"document.querySelector('{GAME}').dataset.hint") in ("checked", "lost")
        # Other pages, the search index and the root page as well.
        page.goto(page.url.split("#")[0] + "variants/")
        assert page.locator("h1").count() == 1
        assert page.evaluate("fetch('../search/search_index.json').then(r => r.json()).then(d => d.docs.length)") > 0
        page.goto(page.url.split(f"/{lang}/")[0] + "/index.html#stay")
        assert page.locator(f"a[hreflang='{lang}']").count() >= 1
        assert not errors
    finally:
        context.close()


def rebuild_with(site, change) -> str:
    """The site after `change(site)`, with its service worker written again as a build would;
    returns the new cache name."""
    change(site)
    languages, _ = load_languages()
    (site / offline.SERVICE_WORKER).write_text(offline.service_worker(site, languages), encoding="utf-8")
    text = (site / offline.SERVICE_WORKER).read_text(encoding="utf-8")
    return json.loads(text.split("const BUILD = ", 1)[1].split(";\n", 1)[0])["cache"]


def test_a_new_build_replaces_the_old_cache_at_the_next_visit(built_site, browser, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site[0], site)
    context = browser.new_context()
    try:
        with serve(site) as base:
            page = visit_until_cached(context, base, "nb/")
            old = cache_names(page)
            assert len(old) == 1
            new = rebuild_with(site, lambda s: (s / "assets/app/ui/game.css").write_text(
                (s / "assets/app/ui/game.css").read_text(encoding="utf-8") + "\n/* a new build */\n", encoding="utf-8"))
            assert [new] != old
            # The open page keeps the old build; the new one installs beside it and waits.
            page.reload()
            wait_until(page, "navigator.serviceWorker.getRegistration().then(r => !!r && !!r.waiting)")
            assert sorted(cache_names(page)) == sorted(old + [new])
            # Once no page of the old build is open, the new one takes over and deletes the old
            # cache. A page opened at once may still catch the old worker, as a reader's might:
            # the test then closes it and visits again, as the reader would next time.
            deadline = time.monotonic() + 30
            while True:
                page.close()
                page = context.new_page()
                # Only the page's service worker and caches matter here, not every picture: on a
                # machine busy with other tests, waiting for "load" once took over 30 s.
                page.goto(f"{base}/nb/", wait_until="domcontentloaded", timeout=60_000)
                if page.evaluate(f"caches.keys().then(k => k.length === 1 && k[0] === {json.dumps(new)})"):
                    break
                assert time.monotonic() < deadline, f"the old cache is still there: {cache_names(page)}"
                page.wait_for_timeout(500)
            css = page.evaluate("fetch('../assets/app/ui/game.css').then(r => r.text())")
            assert css.endswith("/* a new build */\n")
    finally:
        context.close()


def test_a_file_of_another_build_is_never_cached(built_site, browser, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site[0], site)
    worker = site / "assets/app/core/worker.js"
    worker.write_text(worker.read_text(encoding="utf-8") + "\n// not the file the build hashed\n", encoding="utf-8")
    context = browser.new_context()
    fetched = []
    context.on("request", lambda r: fetched.append(r.url))
    try:
        with serve(site) as base:
            page = context.new_page()
            page.goto(f"{base}/nb/")
            deadline = time.monotonic() + 30
            while not any(u.endswith("/assets/app/core/worker.js") for u in fetched):  # the install fetched it
                assert time.monotonic() < deadline, "the service worker never fetched the changed file"
                page.wait_for_timeout(100)
            # The install refused the build: the browser drops a first registration whose install failed.
            wait_until(page, "navigator.serviceWorker.getRegistration().then(r => !r || !r.installing)")
            assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => !!(r && (r.active || r.waiting)))") is False
            assert cache_names(page) == []
    finally:
        context.close()


def test_a_page_new_in_a_build_never_gets_the_old_builds_files(built_site, browser, tmp_path):
    """Issue 40: build A's worker is in charge (A's page is open) when build B adds a page and
    changes game.css: the new page, served by the network, gets B's game.css, not A's cached one;
    A's own page keeps A's."""
    site = tmp_path / "site"
    shutil.copytree(built_site[0], site)
    css = site / "assets/app/ui/game.css"
    rules = ("[...document.styleSheets].filter(s => (s.href || '').endsWith('/game.css'))"
             ".flatMap(s => [...s.cssRules].map(r => r.selectorText))")
    context = browser.new_context()
    try:
        with serve(site) as base:
            old_page = visit_until_cached(context, base, "nb/")
            rebuild_with(site, lambda s: (css.write_text(css.read_text(encoding="utf-8") + "\n.pyr-build-b { order: 2; }\n",
                                                         encoding="utf-8"),
                                          shutil.copy(s / "nb/index.html", s / "nb/new-in-b.html")))
            page = context.new_page()
            page.goto(f"{base}/nb/new-in-b.html")
            page.wait_for_selector(f"{GAME} .pyr-board")
            assert page.evaluate("!!navigator.serviceWorker.controller")  # build A's worker answered
            assert ".pyr-build-b" in page.evaluate(rules), "the new page has its own build's game.css"
            old_page.reload()
            old_page.wait_for_selector(f"{GAME} .pyr-board")
            assert ".pyr-build-b" not in old_page.evaluate(rules), "build A's page keeps build A's files"
    finally:
        context.close()
