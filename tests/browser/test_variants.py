"""Every variant in the game (issue 28), in Chromium: chosen beside the board or by a link
(#deal=N&rules=…, refused cleanly when unknown), hinted by the decider under its rules, saved
per variant and deal, and won by following Hint from a deal of its pool."""
from __future__ import annotations

import json

import pytest

from helpers.game_harness import LANGS, POOL, strings
from helpers.page_words import cap, counted, fill
from helpers.game_page import GAME, dataset, deal_number, focus_board, message, slot, stock, wait_for_hint
from helpers.variant_pages import (DEALS, SHARES, VARIANTS, names, open_variants,  # noqa: F401  (the fixtures)
                                   variant_pages, variant_pools)


def saved(page, key: str):
    return page.evaluate(f"JSON.parse(localStorage.getItem('pyramide.game.v2.{key}'))")


def follow_hint(page, limit: int = 200) -> int:
    """Plays the checked hint until the game is won; returns the moves played."""
    for played in range(limit):
        if dataset(page, "status") == "won":
            return played
        page.locator(f"{GAME} .pyr-hint").click()
        assert wait_for_hint(page) == "checked", message(page)
        keys = page.evaluate(f"""[...document.querySelectorAll('{GAME} .pyr-slot.is-hinted')]
            .map(b => [b.dataset.key ?? b.dataset.pile ?? '', b.dataset.pile ?? '', b.dataset.code ?? ''])""")
        # The pyramid or waste card first, the stock (a draw, a turn or its face-up top card) last.
        keys.sort(key=lambda k: k[1] == "stock")
        for _, pile, code in keys:
            (stock(page) if pile == "stock" else slot(page, code)).click()
        if len(keys) == 1 and keys[0][1] == "stock" and keys[0][2] and not keys[0][2].startswith("K"):
            stock(page).click()  # stock-top: its face-up card chosen by the first tap, drawn by a second
    raise AssertionError(f"not won after {limit} hinted moves: {message(page)}")


# ---------------------------------------------------------------- the data
def test_variant_pools_are_the_first_won_deals_of_the_survey():
    from generator.render.variant_choice import variant_pool, variants_data
    figures = {"variant": "one-pass", "first": 11, "results": "lwwluw" + "w" * 300, "share": 0.3, "deals": 306}
    assert variant_pool(figures, 3) == [12, 13, 16]
    assert len(variant_pool(figures)) == 200
    data = variants_data([{**figures, "variant": "standard"}, figures], {"share": 0.665, "deals": 10000},
                         names("nb"), lambda x: f"{x:.3f}", "nb", "../variants/")
    assert [e["id"] for e in data] == ["standard", "one-pass"]  # standard first, once
    assert data[0]["pool"] is None and data[0]["link"] is None
    assert data[1]["link"] == "../variants/#uten-vending" and data[1]["share"] == "0.300"


# ---------------------------------------------------------------- in the browser
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_is_won_by_following_hint(watched, variant_pages, variant_pools, variant):
    s = strings("nb")
    deal = variant_pools[variant][0]
    w, page = open_variants(watched, variant_pages, "nb", f"#deal={deal}&rules={variant}")
    assert message(page) == cap(fill(s["variants"]["from_link"], deal=deal, name=names("nb")[variant]))
    assert dataset(page, "variant") == variant
    played = follow_hint(page)
    assert dataset(page, "status") == "won" and played > 0
    game = saved(page, f"{variant}.{deal}")
    assert game["variant"] == variant and len(game["moves"]) == played
    assert saved(page, str(deal)) is None  # the standard game of that deal is untouched
    # The win panel's points for turns say what they are paid for (review 3, A2): unused turns where
    # the rules count them, a fixed bonus under unlimited turns (docs/rules.md, Variants: Points).
    label = page.locator(f"{GAME} .pyr-end-score .pyr-score-turns th").inner_text()
    if variant == "unlimited":
        assert label == s["end"]["turns_unlimited"]
    else:
        unused = VARIANTS[variant].get("turns", 2) - game["moves"].count("turn")
        assert label == fill(s["end"]["turns"], count=unused, per=50)


@pytest.mark.parametrize("variant", ["standard", *VARIANTS])
def test_the_stock_says_true_things_under_each_rule_set(watched, variant_pages, variant):
    """Review 3, A2, A3, A11: the stock pressed (D) through every pass: each turn back says how many
    are left only where the rules count them, and the stock at its end refuses with the reason that
    holds under these rules (never the bare "not allowed")."""
    s = strings("nb")
    rules = "" if variant == "standard" else f"&rules={variant}"
    w, page = open_variants(watched, variant_pages, "nb", f"#deal=5{rules}")
    focus_board(page)
    turned = s["done"]["turn_last"].split(".")[0]  # «Kastebunken er vendt tilbake til trekkbunken»
    turns, empty_names, refusal = [], set(), None
    for _ in range(150):
        if stock(page).get_attribute("data-code") is None and "tom" in (stock(page).get_attribute("aria-label") or ""):
            empty_names.add(stock(page).get_attribute("aria-label"))
        page.keyboard.press("d")
        said = message(page)
        if page.locator(f"{GAME} .pyr-message").get_attribute("data-kind") == "refused":
            refusal = said
            break
        if said.startswith(turned):
            turns.append(said)
            if len(turns) == 3:
                break
    if variant == "unlimited":
        assert turns == [s["done"]["turn_unlimited"]] * 3 and refusal is None
        assert empty_names == {s["aria"]["stock_turn_unlimited"]}  # no turns counted in the stock's name either
    elif variant == "one-pass":
        assert turns == [] and refusal == s["refused"]["turn.none"]
    else:
        assert turns == [fill(s["done"]["turn"], turns=1), s["done"]["turn_last"]]
        assert refusal == s["refused"]["turn.limit"]


def test_back_to_the_last_winnable_position_searches_by_the_games_rules(watched, variant_pages, app):
    """Review 3, A1: a variant's lost panel sends the player to "back to the last position that can
    still be won"; that search decides by the game's rules (cover-pair here), not the app's, under
    which deal 18 cannot be won at all (it said «Ikke engang utgangsstillingen kan vinnes»)."""
    import random
    from verify.independent import decider
    s, rules, deal = strings("nb"), VARIANTS["cover-pair"], 18
    rnd = random.Random(0)
    pos, moves = app.opening(deal), []
    positions = [pos]
    while pos["status"] == "playing":  # seeded random play by the rules, a removal three times in four
        legal = app.legal_moves(pos, rules)
        removals = [m for m in legal if m.split()[0] in ("pair", "king")]
        move = rnd.choice(removals) if removals and rnd.random() < 0.75 else rnd.choice(legal)
        pos = app.apply(pos, move, rules)
        positions.append(pos)
        moves.append(move)
    assert pos["status"] == "stuck" and moves[-1] == "draw"
    results = [decider.decide(p, rules).result for p in positions]  # the independent decider
    last = max(i for i, r in enumerate(results) if r == "won")
    assert 0 < last < len(moves) and set(results[last + 1:]) == {"lost"}
    assert decider.decide(positions[0]).result == "lost"  # by the app's rules: lost from the start
    w, page = open_variants(watched, variant_pages, "nb", "#deal=999")
    record = {"version": 2, "deal": deal, "moves": moves[:-1], "undo": [], "at": 1, "variant": "cover-pair"}
    page.evaluate(f"localStorage.setItem('pyramide.game.v2.cover-pair.{deal}', JSON.stringify({json.dumps(record)}));"
                  f"history.replaceState(null, '', location.pathname + '#deal={deal}&rules=cover-pair')")
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    focus_board(page)
    page.keyboard.press("d")  # the last move: no move left
    panel = page.locator(f"{GAME} .pyr-end")
    assert panel.is_visible() and panel.locator(".pyr-end-why").inner_text() == s["end"]["lost_unknown"]
    panel.locator(".pyr-end-back").click()
    page.wait_for_function(f"""() => {{ const g = document.querySelector('{GAME}'), said = g.querySelector('.pyr-end-back-said');
        return g.dataset.status === 'playing' || (said && said.textContent && said.textContent !== {json.dumps(s["end"]["searching"])}); }}""",
        timeout=60000)
    assert message(page) == cap(fill(s["end"]["back_done"], moves=last))
    assert dataset(page, "variant") == "cover-pair" and saved(page, f"cover-pair.{deal}")["moves"] == moves[:last]
    assert saved(page, str(deal)) is None  # still the variant's game, not one of the app's rules


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_choice_names_each_variant_and_switches(watched, variant_pages, variant_pools, lang):
    s, n = strings(lang), names(lang)
    w, page = open_variants(watched, variant_pages, lang, f"#deal={POOL[0]}")
    choice = page.locator(f"{GAME} details.pyr-rules")
    assert choice.locator("summary").inner_text().strip() == fill(s["variants"]["current"], name=n["standard"])
    choice.locator("summary").click()
    items = choice.locator(".pyr-rules-item")
    assert items.count() == 6
    texts = [items.nth(i).inner_text() for i in range(6)]
    for text, vid in zip(texts, ["standard", *VARIANTS]):
        assert n[vid] in text and counted(s, s["variants"]["share"], DEALS[vid], share=SHARES[vid]) in text
        summary = s["variants"]["summaries"][vid]
        assert (counted(s, summary, 2) if isinstance(summary, dict) else summary) in text
    assert items.nth(2).locator("a").get_attribute("href") == "variants/#one-pass"
    assert items.nth(0).locator("a").count() == 0  # the app's rules are on this page
    # One move in the standard game, then one-pass: a new deal of its pool, no turns back.
    page.keyboard.press("d")
    items.nth(2).locator("input").check()
    assert dataset(page, "variant") == "one-pass"
    assert deal_number(page) in variant_pools["one-pass"]
    assert message(page) == cap(fill(s["variants"]["chosen"], deal=deal_number(page), name=n["one-pass"]))
    assert s["board"]["turns_left_none"] in page.locator(f"{GAME} .pile-info").first.inner_text()
    # Back to the app's rules: the standard game as it was left.
    items.nth(0).locator("input").check()
    assert dataset(page, "variant") == "standard" and deal_number(page) == POOL[0]
    assert saved(page, str(POOL[0]))["moves"] == ["draw"]


def test_saved_games_are_kept_per_variant_and_deal(watched, variant_pages):
    w, page = open_variants(watched, variant_pages, "nb", "#deal=5&rules=one-pass")
    focus_board(page)
    page.keyboard.press("d")
    page.keyboard.press("d")
    page.evaluate("location.hash = '#deal=5'")
    page.wait_for_function(f"document.querySelector('{GAME}').dataset.variant === 'standard'")
    assert deal_number(page) == 5 and saved(page, "5") is None
    page.keyboard.press("d")
    page.evaluate("location.hash = '#deal=5&rules=one-pass'")
    page.wait_for_function(f"document.querySelector('{GAME}').dataset.variant === 'one-pass'")
    assert saved(page, "one-pass.5")["moves"] == ["draw", "draw"]
    assert saved(page, "5")["moves"] == ["draw"]
    assert page.locator(f"{GAME} .pyr-score").inner_text().startswith(fill(strings("nb")["board"]["status"], moves=2, points=0)[:8])
    # A reload keeps the tab's variant and deal.
    page.evaluate("history.replaceState(null, '', location.pathname)")
    page.reload()
    page.wait_for_selector(f"{GAME} .pyr-board")
    assert dataset(page, "variant") == "one-pass" and deal_number(page) == 5


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_variant_in_a_link_is_refused(watched, variant_pages, lang):
    s = strings(lang)
    w, page = open_variants(watched, variant_pages, lang, "#deal=5&rules=%3Cb%3Eeasy")
    text = message(page)
    assert text.startswith(fill(s["variants"]["bad_rules"], value="<b>easy")), text
    # The refused rules leave the address: it shows the deal on the board, under the app's rules.
    assert dataset(page, "variant") == "standard"
    assert page.evaluate("location.hash") == f"#deal={deal_number(page)}"
    # With a game going on, the game goes on.
    focus_board(page)
    page.keyboard.press("d")
    deal = deal_number(page)
    page.evaluate("location.hash = '#rules=easy'")
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-message').dataset.kind === 'refused'")
    assert message(page) == fill(s["variants"]["bad_rules"], value="easy") + " " + fill(s["messages"]["bad_deal_kept"], deal=deal)
    assert deal_number(page) == deal


def test_a_rules_link_without_a_deal_opens_that_variant(watched, variant_pages, variant_pools):
    w, page = open_variants(watched, variant_pages, "nb", "#rules=cover-pair")
    assert dataset(page, "variant") == "cover-pair" and deal_number(page) in variant_pools["cover-pair"]


def test_the_copied_link_carries_the_variant(watched, variant_pages, app):
    w, page = open_variants(watched, variant_pages, "nb", "#deal=9&rules=stock-top")
    w.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator(f"{GAME} .pyr-deal").click()
    page.wait_for_function(f"document.querySelector('{GAME} .pyr-message').textContent.includes('9')")
    assert page.evaluate("navigator.clipboard.readText()").endswith("#deal=9&rules=stock-top")
    # The stock's top card lies face up in this variant.
    assert stock(page).get_attribute("data-code") == app.opening(9)["stock"][0]
