"""Honest records (issue 43 item 4), in Chromium, in nb and da: the statistics of each rule set,
chosen and named; the chart over time (games, wins and best scores per day or week) as an SVG image
with a title, a description and a table of the same figures, in the game's palette in light and
dark; the hints said in a win's record line; a look at other rules giving up nothing; a deal
opened by its number from a field, anything else refused in the page's words."""
from __future__ import annotations

import datetime as dt
import json

import pytest
from babel.dates import format_date
from babel.numbers import format_decimal

from helpers.game_harness import LANGS, ROOT, WIN_DEAL, strings
from helpers.page_words import cap, counted, fill
from helpers.game_page import GAME, click_move, dataset, deal_number, focus_board, message, open_game, wait_for_hint
from helpers.variant_pages import (VARIANTS, names, open_variants, opening_under,  # noqa: F401  (the fixtures)
                                   variant_pages, variant_pools)

SHOTS = ROOT / "test-artifacts" / "records"
TODAY = dt.date(2026, 12, 10)  # a Thursday
MAX_DEAL = 4294967295


def num(lang: str, n: int) -> str:
    return format_decimal(n, locale=lang)


def written(lang: str, day: dt.date) -> str:
    return format_date(day, "long", locale=lang)  # as the page writes dates (CLDR's long form, from Babel)


def stat(page, key: str) -> str:
    return page.locator(f"{GAME} .pyr-stats dd[data-stat='{key}']").inner_text()


def open_stats(page) -> None:
    if not page.evaluate(f"document.querySelector('{GAME} .pyr-stats').open"):
        page.locator(f"{GAME} .pyr-stats > summary").click()
    page.wait_for_selector(f"{GAME} .pyr-stats dd[data-stat='played']")  # drawn on the toggle event, a task later


def pinned(watched, **kw):
    w = watched(**kw)
    w.page.clock.set_fixed_time(dt.datetime.combine(TODAY, dt.time(10, 0)))
    return w


def store_records(page, games: list[tuple[str, int, str, int]]) -> None:
    """Stores finished games as the game does (app/core/stats.js, format v1): (rules, days before
    TODAY, result, points), each finished at noon of its day in the page's time zone."""
    records = [{"version": 1, "id": f"t{i:011d}", "rules": rules, "deal": 27, "result": result, "moves": 51, "points": points,
                "hints": 0, "ms": 0, "daily": None, "ago": ago} for i, (rules, ago, result, points) in enumerate(games)]
    page.evaluate("""([records, today]) => { for (const {ago, ...r} of records) {
        const [y, m, d] = today; r.at = new Date(y, m - 1, d - ago, 12).getTime();
        localStorage.setItem('pyramide.result.v1.' + r.id, JSON.stringify(r)); } }""",
                  [records, [TODAY.year, TODAY.month, TODAY.day]])


def chart(page) -> dict:
    return page.evaluate(f"""() => {{
        const svg = document.querySelector('{GAME} svg.pyr-stats-chart-svg');
        const byId = (id) => document.getElementById(id).textContent;
        const bar = (cls) => [...svg.querySelectorAll(':scope > rect.' + cls)].map(r => [+r.getAttribute('x'), +r.getAttribute('height')]);
        return {{ role: svg.getAttribute('role'), period: svg.dataset.period,
                  label: svg.getAttribute('aria-labelledby').split(' ').map(byId),
                  title: svg.querySelector(':scope > title').textContent, desc: svg.querySelector(':scope > desc').textContent,
                  played: bar('pyr-chart-played'), won: bar('pyr-chart-won'),
                  scores: svg.querySelectorAll(':scope > circle.pyr-chart-score').length,
                  rows: [...document.querySelectorAll('{GAME} .pyr-timeline-table tr')].slice(1)
                        .map(tr => [...tr.children].map(c => c.textContent)) }};
    }}""")


# ---------------------------------------------------------------- per rule set, and the chart
@pytest.mark.parametrize("lang", LANGS)
def test_statistics_per_rule_set_with_a_chart_by_day(watched, variant_pages, lang):
    s, n = strings(lang)["stats"], names(lang)
    w = pinned(watched)
    page = w.open(variant_pages[lang] + f"#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    store_records(page, [("standard", 0, "won", 500), ("standard", 0, "won", 620), ("standard", 0, "lost", 90),
                         ("standard", 3, "given-up", 10), ("standard", 13, "won", 415), ("strict", 0, "won", 700)])
    open_stats(page)
    # The game's rules are chosen and named; the figures are theirs alone.
    assert page.locator(f"{GAME} .pyr-stats-chooser select").input_value() == "standard"
    assert page.locator(f"{GAME} .pyr-stats-rules").inner_text() == fill(s["for_rules"], name=n["standard"])
    assert stat(page, "played") == "5" and stat(page, "won") == "3" and stat(page, "best_score") == num(lang, 620)
    got = chart(page)
    first = TODAY - dt.timedelta(days=13)
    assert got["role"] == "img" and got["period"] == "day"
    assert got["title"] == fill(s["chart_day"], **{"from": written(lang, first), "to": written(lang, TODAY)})
    assert got["desc"] == fill(s["chart_desc"], played=5, won=3) + " " + fill(s["chart_best"], best=num(lang, 620))
    assert got["label"] == [got["title"], got["desc"]]
    assert got["rows"] == [[written(lang, first), "1", "1", num(lang, 415)], [written(lang, TODAY - dt.timedelta(days=3)), "1", "0", s["none"]],
                           [written(lang, TODAY), "3", "2", num(lang, 620)]]
    # A bar per day with a game, as high as its games; the wins' bars inside them; a point per day won.
    assert [x for x, _ in got["played"]] == sorted(x for x, _ in got["played"]) and len(got["played"]) == 3
    heights = [h for _, h in got["played"]]
    assert heights[0] == pytest.approx(heights[2] / 3) and heights[1] == pytest.approx(heights[2] / 3)
    assert [h for _, h in got["won"]] == pytest.approx([heights[2] / 3, heights[2] * 2 / 3])
    assert got["scores"] == 2
    # Another rule set: its own figures, named.
    page.locator(f"{GAME} .pyr-stats-chooser select").select_option("strict")
    assert page.locator(f"{GAME} .pyr-stats-rules").inner_text() == fill(s["for_rules"], name=n["strict"])
    assert stat(page, "played") == "1" and stat(page, "best_score") == num(lang, 700)
    assert chart(page)["rows"] == [[written(lang, TODAY), "1", "1", num(lang, 700)]]
    page.locator(f"{GAME} .pyr-stats-chooser select").select_option("one-pass")
    assert stat(page, "played") == "0" and page.locator(f"{GAME} .pyr-stats-empty").inner_text() == s["chart_empty"]


def test_the_chart_goes_by_week_once_a_game_is_older_than_its_days(watched, variant_pages):
    s = strings("nb")["stats"]
    w = pinned(watched)
    page = w.open(variant_pages["nb"] + f"#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    store_records(page, [("standard", 20, "won", 515), ("standard", 0, "lost", 30), ("standard", 200, "won", 999)])
    open_stats(page)
    got = chart(page)
    monday = TODAY - dt.timedelta(days=TODAY.weekday())
    first = monday - dt.timedelta(weeks=11)
    assert got["period"] == "week"
    assert got["title"] == fill(s["chart_week"], **{"from": written("nb", first), "to": written("nb", monday)})
    older = TODAY - dt.timedelta(days=20)
    assert got["rows"] == [[written("nb", older - dt.timedelta(days=older.weekday())), "1", "1", num("nb", 515)],
                           [written("nb", monday), "1", "0", s["none"]]]
    assert stat(page, "played") == "3", "the game before the chart's first week is still in the totals"


def luminance(rgb: str) -> float:
    channels = [int(v) / 255 for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted([luminance(a), luminance(b)], reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chart_is_in_the_games_palette_and_seen_on_its_panel(watched, variant_pages, scheme):
    """The bars, the line and the figures in the game's colours (by class), each at least 3:1
    against the panel (WCAG 1.4.11 for graphics), in both schemes; screenshots at a phone's and a
    laptop's size."""
    w = pinned(watched)
    page = w.open(variant_pages["nb"] + f"#deal={WIN_DEAL}")
    page.wait_for_selector(f"{GAME} .pyr-board")
    if scheme == "dark":
        page.evaluate("document.body.dataset.mdColorScheme = 'slate'; document.body.style.background = '#1e2129'")
    store_records(page, [("standard", ago, result, points) for ago, result, points in
                         [(0, "won", 560), (0, "won", 480), (1, "lost", 40), (2, "won", 620), (4, "given-up", 5), (6, "won", 515), (9, "lost", 70)]])
    open_stats(page)
    colours = page.evaluate(f"""() => {{
        const g = document.querySelector('{GAME}');
        const svg = g.querySelector('svg.pyr-stats-chart-svg');
        const css = (el, p) => getComputedStyle(el).getPropertyValue(p).trim();
        const probe = document.createElement('span'); g.append(probe);
        const rgb = (v) => {{ probe.style.color = v; return getComputedStyle(probe).color; }};
        const out = {{ panel: getComputedStyle(g).backgroundColor, gold: rgb(css(g, '--pyr-gold')), line: rgb(css(g, '--pyr-line')),
                 ink: rgb(css(g, '--pyr-ink')), won: css(svg.querySelector(':scope > rect.pyr-chart-won'), 'fill'),
                 played: css(svg.querySelector(':scope > rect.pyr-chart-played'), 'fill'),
                 stroke: css(svg.querySelector('polyline.pyr-chart-line'), 'stroke'), text: css(svg.querySelector('text'), 'fill') }};
        probe.remove(); return out; }}""")
    assert (colours["won"], colours["played"], colours["stroke"]) == (colours["gold"], colours["line"], colours["ink"])
    for part in ("won", "played", "stroke", "text"):
        assert contrast(colours[part], colours["panel"]) >= 3, (scheme, part, colours)
    assert contrast(colours["won"], colours["played"]) >= 1.1, "wins told from games"
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        stats = page.locator(f"{GAME} .pyr-stats")
        stats.scroll_into_view_if_needed()
        stats.screenshot(path=str(SHOTS / f"stats-{scheme}-{width}x{height}.png"))
        box = page.locator(f"{GAME} svg.pyr-stats-chart-svg").bounding_box()
        assert box["width"] <= width and box["x"] >= 0, "the chart fits the screen"


# ---------------------------------------------------------------- the record line and giving up
@pytest.mark.parametrize("lang", LANGS)
def test_a_win_with_hints_says_so_in_its_record_line(watched, winning_game, lang):
    e = strings(lang)["end"]
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    page.locator(f"{GAME} .pyr-hint").click()
    wait_for_hint(page)
    for move in winning_game:
        click_move(page, move)
    s = strings(lang)
    points = page.evaluate(f"document.querySelector('{GAME} .pyr-score-total td').textContent")
    record = fill(e["record_first"], points=counted(s, s["counts"]["points"], int("".join(filter(str.isdigit, points)))),
                  moves=counted(s, s["counts"]["moves"], len(winning_game)))
    assert page.locator(f"{GAME} .pyr-end-record").inner_text() == record + " " + fill(e["record_hints"], hints=1)


def test_a_variants_record_is_measured_against_its_own_rules(watched, variant_pages, variant_pools, app, winning_game):
    """A standard win first; then the first win under one-pass is that rule set's first record,
    whatever the standard best, and only one-pass's figures count it."""
    e = strings("nb")["end"]
    deal = variant_pools["one-pass"][0]
    rules = VARIANTS["one-pass"]
    game = app.solve(opening_under(app, deal, rules), rules=rules)["game"]
    w, page = open_variants(watched, variant_pages, "nb", f"#deal={WIN_DEAL}")
    for move in winning_game:
        click_move(page, move)
    page.evaluate(f"location.hash = '#deal={deal}&rules=one-pass'")
    page.wait_for_function(f"document.querySelector('{GAME}').dataset.variant === 'one-pass'")
    for move in game:
        click_move(page, move)
    assert dataset(page, "status") == "won"
    points = page.evaluate(f"document.querySelector('{GAME} .pyr-score-total td').textContent")
    s = strings("nb")
    assert page.locator(f"{GAME} .pyr-end-record").inner_text() == fill(
        e["record_first"], points=counted(s, s["counts"]["points"], int("".join(filter(str.isdigit, points)))),
        moves=counted(s, s["counts"]["moves"], len(game)))
    page.locator(f"{GAME} .pyr-end-stats").click()
    assert page.locator(f"{GAME} .pyr-stats-chooser select").input_value() == "one-pass"
    assert stat(page, "played") == "1" and stat(page, "best_score") == points
    page.locator(f"{GAME} .pyr-stats-chooser select").select_option("standard")
    assert stat(page, "played") == "1" and stat(page, "fewest_moves") == num("nb", len(winning_game))


def test_a_look_at_other_rules_gives_up_nothing(watched, variant_pages):
    w, page = open_variants(watched, variant_pages, "nb", f"#deal={WIN_DEAL}")
    choice = page.locator(f"{GAME} details.pyr-rules")
    choice.locator("summary").click()
    focus_board(page)
    page.keyboard.press("d")  # a standard game with a move
    choice.locator("input[value='one-pass']").check()
    assert dataset(page, "variant") == "one-pass"
    focus_board(page)
    page.keyboard.press("d")  # a one-pass game with a move
    choice.locator("input[value='standard']").check()
    choice.locator("input[value='one-pass']").check()  # looked at again, no move
    choice.locator("input[value='standard']").check()
    assert dataset(page, "variant") == "standard" and deal_number(page) == WIN_DEAL
    open_stats(page)
    select = page.locator(f"{GAME} .pyr-stats-chooser select")
    for rules in ("standard", "one-pass"):
        select.select_option(rules)
        assert stat(page, "played") == "0", f"{rules}: nothing given up by a look at other rules"
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('pyramide.result.'))") == []
    page.locator(f"{GAME} .pyr-restart").click()  # a restart still gives the game up
    select.select_option("standard")
    assert stat(page, "played") == "1"


# ---------------------------------------------------------------- a deal by its number
@pytest.mark.parametrize("lang", LANGS)
def test_a_deal_opened_by_its_number_and_anything_else_refused(watched, lang):
    s = strings(lang)
    w, page = open_game(watched, lang, f"#deal={WIN_DEAL}")
    field = page.locator(f"{GAME} .pyr-open-deal input")
    assert page.locator(f"{GAME} .pyr-open-deal label").inner_text() == s["open_deal"]["label"]
    assert page.evaluate(f"document.querySelector('{GAME} .pyr-open-deal label').control === document.querySelector('{GAME} .pyr-open-deal input')")
    for bad in ("abc", "0", "-3", "12.5", str(MAX_DEAL + 1), "  "):
        field.fill(bad)
        field.press("Enter")
        said = s["messages"]["bad_deal"] if bad.strip() else s["open_deal"]["empty"]
        refused = fill(said, value=bad, min=num(lang, 1), max=num(lang, MAX_DEAL))
        assert message(page) == cap(refused + " " + fill(s["messages"]["bad_deal_kept"], deal=WIN_DEAL)), bad
        assert field.get_attribute("aria-invalid") == "true" and deal_number(page) == WIN_DEAL
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(GAME).screenshot(path=str(SHOTS / f"deal-field-refused-{lang}-390.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    field.fill("")
    field.press("d")  # a key typed in the field is the field's: no card drawn
    assert page.evaluate("localStorage.getItem('pyramide.game.v2.27')") is None
    field.fill(str(MAX_DEAL))
    page.locator(f"{GAME} .pyr-open-deal-button").click()
    assert deal_number(page) == MAX_DEAL and page.url.endswith(f"#deal={MAX_DEAL}")
    assert message(page) == cap(fill(s["open_deal"]["opened"], deal=MAX_DEAL))
    assert field.get_attribute("aria-invalid") == "false" and field.input_value() == ""
    page.go_back()  # a new history entry, as New game makes
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-deal').textContent.includes('{WIN_DEAL}')")


def test_a_deal_number_opens_under_the_rules_being_played(watched, variant_pages):
    s, n = strings("da"), names("da")
    w, page = open_variants(watched, variant_pages, "da", "#deal=5&rules=one-pass")
    page.locator(f"{GAME} .pyr-open-deal input").fill(" 123 ")
    page.locator(f"{GAME} .pyr-open-deal input").press("Enter")
    assert deal_number(page) == 123 and dataset(page, "variant") == "one-pass"
    assert page.url.endswith("#deal=123&rules=one-pass")
    assert message(page) == cap(fill(s["open_deal"]["opened_variant"], deal=123, name=n["one-pass"]))
    assert json.loads(page.evaluate("JSON.stringify(Object.keys(localStorage).filter(k => k.startsWith('pyramide.result.')))")) == []
