"""Fast on a phone, on the built site's front pages (game and replay): no stylesheet loads from
the body (where it blocks rendering halfway down), the game's space is held before it is drawn
(layout shift < 0.02 at phone and desktop sizes), the replay's static pictures are its frames
rather than markup the script throws away, built while the page loads so that nothing moves
when a reader gets there; every module the page's scripts import is preloaded
from the head, so none waits for the one that imports it; <html>'s script classes are made in the
head, so the theme's script restyles nothing by making them once the page is drawn."""
from __future__ import annotations

import re

import pytest

from helpers.local_browser import serve

FRONT_PAGES = ("nb/", "da/")
SIZES = [(360, 740), (412, 823), (1280, 800)]  # a small phone, Lighthouse's phone, a laptop
MAX_LAYOUT_SHIFT = 0.02

# Every layout shift since the page began (buffered), summed as CLS does for a short visit.
LAYOUT_SHIFT = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
})"""


@pytest.fixture(scope="module")
def base(built_site):
    site, _ = built_site
    with serve(site) as url:
        yield url


@pytest.mark.parametrize("page", FRONT_PAGES)
def test_the_game_stylesheet_is_in_the_head_and_no_stylesheet_in_the_body(built_site, page):
    html = (built_site[0] / page / "index.html").read_text(encoding="utf-8")
    head, body = html.split("</head>", 1)
    assert re.search(r'<link rel="stylesheet" href="[./]*assets/app/ui/game\.css">', head)
    assert not re.search(r"<link\b[^>]*stylesheet", body), "a stylesheet linked in the body blocks rendering there"


@pytest.mark.parametrize("page", FRONT_PAGES)
@pytest.mark.parametrize("width, height", SIZES)
def test_nothing_moves_when_the_game_is_drawn(browser, base, page, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        tab = context.new_page()
        tab.goto(f"{base}/{page}")
        tab.wait_for_selector(".pyramide-game[data-mounted] .pyr-board")
        shift = tab.evaluate(LAYOUT_SHIFT)
        assert shift < MAX_LAYOUT_SHIFT, f"{page} at {width}×{height}: layout shift {shift:.3f}"
    finally:
        context.close()


# Every largest-contentful-paint candidate of the load, in order: its element and size.
LCP_CANDIDATES = """() => new Promise((resolve) => {
  const seen = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.push({ element: e.element ? `${e.element.tagName}.${e.element.className}` : null, size: e.size });
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(seen), 300);
})"""


@pytest.mark.parametrize("page", FRONT_PAGES)
@pytest.mark.parametrize("width, height", SIZES)
def test_the_largest_paint_is_the_deal_face_down_before_the_game_is_drawn(browser, base, page, width, height):
    """The reserve shows the deal face down from the first paint (generator/render/svg.py reserve_svg), so
    the page's largest paint does not wait for game.js: nothing the game then draws is larger."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        tab = context.new_page()
        tab.goto(f"{base}/{page}")
        tab.wait_for_selector(".pyramide-game[data-mounted] .pyr-board .pyr-slot")
        tab.wait_for_timeout(200)  # the game's first message, its largest text
        seen = tab.evaluate(LCP_CANDIDATES)
        assert seen and seen[-1]["element"] == "IMG.pyr-reserve-picture", f"{page} at {width}×{height}: {seen}"
    finally:
        context.close()


@pytest.mark.parametrize("page", FRONT_PAGES)
def test_the_deal_face_down_covers_the_board_to_come_and_gives_way_without_javascript(browser, base, page):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        tab = context.new_page()
        tab.route("**/game.js", lambda route: route.abort())
        tab.goto(f"{base}/{page}")
        picture = tab.locator(".pyr-reserve-picture").bounding_box()
        reserve = tab.locator(".pyr-reserve-board").bounding_box()
        assert picture == reserve and picture["width"] >= 340
        context.close()
        context = browser.new_context(viewport={"width": 360, "height": 740})
        tab = context.new_page()
        tab.goto(f"{base}/{page}")
        board = tab.locator(".pyramide-game[data-mounted] .pyr-board").bounding_box()
        # the cards turn face up where they lay: within 3 px (the reserve holds the status line's
        # height in em, the drawn line is a few tenths of an em taller or shorter)
        assert all(abs(board[k] - reserve[k]) <= 3 for k in ("x", "y", "width", "height")), (board, reserve)
        context.close()
        context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
        tab = context.new_page()
        tab.goto(f"{base}/{page}")
        assert not tab.locator(".pyr-reserve-picture").is_visible() and tab.locator(".pyr-noscript").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("page", FRONT_PAGES)
@pytest.mark.parametrize("width, height", [(360, 740), (1280, 800)])
def test_the_replay_is_built_as_the_page_loads_and_nothing_moves_when_a_reader_reaches_it(
        browser, base, built_site, page, width, height):
    html = (built_site[0] / page / "index.html").read_text(encoding="utf-8")
    replay = html[html.index('<div class="pyramide-replay"'):]
    sent = replay[:replay.index('<script type="application/json"')].count("<figure")
    assert sent >= 2
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        tab = context.new_page()
        tab.goto(f"{base}/{page}")
        # Built while the page loads, far from the window (app/ui/replay.js): its pictures become one
        # frame before anyone has scrolled there. Built only when it came near, the page lost
        # 1,900–3,500 px of pictures under a reader scrolling to it, and they landed in the FAQ.
        tab.wait_for_selector(".pyr-replay")
        assert tab.evaluate("scrollY") == 0
        where = """() => ({height: document.documentElement.scrollHeight,
            after: document.querySelector('.pyramide-replay').nextElementSibling.getBoundingClientRect().top + scrollY})"""
        before = tab.evaluate(where)
        tab.locator(".pyramide-replay").scroll_into_view_if_needed()
        tab.wait_for_timeout(300)
        assert tab.evaluate(where) == before
        # Every picture it was sent is still on the page; one, the opening's, is seen.
        assert tab.locator(".pyramide-replay figure").count() == sent
        visible = tab.eval_on_selector_all(".pyramide-replay figure", "fs => fs.filter(f => f.checkVisibility()).length")
        assert visible == 1
        assert tab.locator(".pyramide-replay .pyr-replay-stage figure.pyr-frame").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("page", FRONT_PAGES + ("nb/examples/",))
def test_the_head_preloads_exactly_the_modules_the_page_loads(browser, base, page):
    """The modulepreload links (generator/render/game_embed.py module_graph) are the modules the page's
    scripts load, each fetched once: a module missing from them waits a round trip per import
    level on a slow line; one too many is sent for nothing (the Web Worker's are not the page's)."""
    context = browser.new_context(viewport={"width": 412, "height": 823}, service_workers="block")
    tab = context.new_page()
    loaded = []
    tab.on("request", lambda r: loaded.append(r.url) if r.resource_type == "script" and "/assets/app/" in r.url else None)
    tab.goto(f"{base}/{page}", wait_until="load")
    tab.wait_for_timeout(300)
    preloaded = tab.eval_on_selector_all('head link[rel="modulepreload"]', "ls => ls.map((l) => l.href)")
    context.close()
    assert sorted(set(loaded)) == sorted(preloaded)
    assert len(loaded) == len(set(loaded)), "a module was fetched twice (its preload's address differs)"
    if page != "nb/examples/":
        assert any(u.endswith("/game.js") for u in preloaded) and any(u.endswith("/engine.js") for u in preloaded)


def test_the_module_graph_follows_every_static_import(tmp_path):
    from generator.render.game_embed import module_graph
    (tmp_path / "a.js").write_text("import { b } from './b.js';\nexport { c } from './c.js';\nconst d = () => import('./d.js');\n")
    (tmp_path / "b.js").write_text("import {\n  x,\n  y,\n} from './c.js';\nimport './e.js';\n")
    (tmp_path / "c.js").write_text("export const c = 1;\n")
    (tmp_path / "e.js").write_text("// import nothing from './nowhere.js' in a comment is not followed by us either way\n")
    assert module_graph("a.js", tmp_path)[:4] == ["a.js", "b.js", "c.js", "e.js"]
    assert "d.js" not in module_graph("a.js", tmp_path)  # a dynamic import loads later, when asked
    (tmp_path / "b.js").write_text("import { z } from './gone.js';\n")
    with pytest.raises(ValueError, match=r"gone\.js: imported by the game's modules, but there is no such file"):
        module_graph("a.js", tmp_path)


def test_the_module_graph_follows_imports_across_the_apps_folders(tmp_path):
    """app/ui/ imports app/core/ by '../core/x.js': each import is read from its importer's folder,
    and named by its path in the app, as the page's preload links give it under assets/app/."""
    from generator.render.game_embed import module_graph
    (tmp_path / "ui").mkdir()
    (tmp_path / "core").mkdir()
    (tmp_path / "ui" / "game.js").write_text("import { e } from '../core/engine.js';\nimport { d } from './dom.js';\n")
    (tmp_path / "ui" / "dom.js").write_text("export const d = 1;\n")
    (tmp_path / "core" / "engine.js").write_text("import { r } from './rules.js';\n")
    (tmp_path / "core" / "rules.js").write_text("export const r = 1;\n")
    assert module_graph("ui/game.js", tmp_path) == ["ui/game.js", "core/engine.js", "ui/dom.js", "core/rules.js"]
    (tmp_path / "core" / "rules.js").write_text("import { x } from '../../elsewhere.js';\n")
    with pytest.raises(ValueError, match=r"rules\.js: imports \.\./\.\./elsewhere\.js, outside"):
        module_graph("ui/game.js", tmp_path)


# Every change of <html>'s class by a script as the page loads, with whether the body existed.
ROOT_CLASS_CHANGES = """
window.__rootClasses = [];
const set = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (attribute, value) {
  if (this === document.documentElement && attribute === 'class') window.__rootClasses.push([value, Boolean(document.body)]);
  return set.call(this, attribute, value);
};
const list = Object.getOwnPropertyDescriptor(Element.prototype, 'classList').get;
for (const name of ['add', 'remove', 'replace', 'toggle']) {
  const call = DOMTokenList.prototype[name];
  DOMTokenList.prototype[name] = function (...tokens) {
    const root = list.call(document.documentElement) === this;
    const before = root && document.documentElement.className;
    const result = call.apply(this, tokens);
    if (root && document.documentElement.className !== before)
      window.__rootClasses.push([document.documentElement.className, Boolean(document.body)]);
    return result;
  };
}
"""


@pytest.mark.parametrize("page", FRONT_PAGES + ("nb/examples/", "da/contact/"))
@pytest.mark.parametrize("width", [412, 1280])
def test_the_root_has_its_script_classes_before_the_body_and_the_theme_changes_none(browser, base, page, width):
    """Any class change on <html> restyles the whole page (site.py JS_CLASS_SCRIPT): the theme's
    "js" and its polyfill's "js-focus-visible" are made in the head, so its own changes, once the
    page is drawn, find them there and change nothing. On a phone the theme's script is not loaded
    with the page (assets/theme-on-demand.js); on a wide screen it is, and its polyfill runs."""
    context = browser.new_context(viewport={"width": width, "height": 823})
    try:
        context.add_init_script(ROOT_CLASS_CHANGES)
        tab = context.new_page()
        tab.goto(f"{base}/{page}", wait_until="load")
        if width > 1000:
            tab.wait_for_function("() => document.documentElement.hasAttribute('data-js-focus-visible')")  # the theme's polyfill ran
        tab.wait_for_timeout(300)
        assert tab.evaluate("window.__rootClasses") == [["js", False], ["js js-focus-visible", False]]
        assert tab.evaluate("document.documentElement.className") == "js js-focus-visible"
        assert tab.evaluate("document.documentElement.hasAttribute('data-js-focus-visible')") == (width > 1000)
    finally:
        context.close()
