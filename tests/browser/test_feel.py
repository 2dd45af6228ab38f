"""The game's feel (issue 43 item 5): a draw slides from the stock to the waste and a removal flies
to the discard pile (Web Animations running while they play), a win throws cards up, none of it
under `prefers-reduced-motion` nor with Animations off in the options (remembered); sound is off
until chosen (no AudioContext before), remembered; the cards' back and the table's colour are
chosen and remembered; in the dark scheme the buttons take the dark palette."""
from __future__ import annotations

from helpers.game_harness import WIN_DEAL
from helpers.game_page import GAME, click_move, open_game

# Deal 27 as dealt: the bottom row is K♦ 4♠ 7♦ A♦ 10♣ 6♣ J♥ (7♦ + 6♣ = 13).
PAIR = ("p23", "p26")

# The properties the game's motion animates now (a card's lift when chosen, a CSS transition, is
# no motion of a move).
ANIMATED = """[...new Set(document.getAnimations().filter((a) => !(a instanceof CSSTransition))
  .flatMap((a) => a.effect.getKeyframes().flatMap(Object.keys)))]
  .filter((name) => !['offset', 'computedOffset', 'easing', 'composite'].includes(name)).sort()"""

# Clicks the places, each acted on in the task after its click, and returns what is animating
# right after: a few milliseconds later, so a 240 ms animation is certainly still running. Also what makes the
# motion cheap for a slow phone's main thread (issue 43: no long task during an animation): the
# properties animated, the layout reads of the move (getBoundingClientRect, what the motion once
# measured with), and the places whose drawing was replaced.
PLAY_AND_LOOK = """async (keys) => {
  const board = document.querySelector('.pyramide-game .pyr-board');
  const drawings = () => new Map([...board.querySelectorAll('.pyr-slot')].map((s) => [s.dataset.key, s.firstChild]));
  const before = drawings();
  const measure = Element.prototype.getBoundingClientRect;
  let reads = 0;
  Element.prototype.getBoundingClientRect = function () { reads += 1; return measure.call(this); };
  try {
    for (const key of keys) {
      board.querySelector(`.pyr-slot[data-key="${key}"]`).click();
      await new Promise((done) => setTimeout(done)); // the game acts in a task after the click's (dom.js afterInput)
    }
  } finally {
    Element.prototype.getBoundingClientRect = measure;
  }
  return {
    waste: board.querySelector('.pyr-slot[data-key="waste"]').getAnimations().length,
    leaving: [...board.querySelectorAll('.pyr-leaving')].map((e) => e.getAnimations().length),
    all: document.getAnimations().length,
    discard: board.querySelector('.pyr-discard').textContent,
    properties: """ + ANIMATED + """,
    reads,
    redrawn: [...drawings()].filter(([key, drawing]) => before.get(key) !== drawing).map(([key]) => key).sort(),
  };
}"""

# Counts the AudioContexts the page makes, before any of its scripts runs.
COUNT_AUDIO = """(() => {
  window.audioContexts = 0;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real { constructor(...a) { super(...a); window.audioContexts += 1; } };
})()"""


def test_a_draw_and_a_removal_animate_and_the_discard_pile_counts(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}", reduced_motion=False)
    assert page.locator(f"{GAME} .pyr-discard").inner_text() == "0"
    drawn = page.evaluate(PLAY_AND_LOOK, ["stock"])
    assert drawn["waste"] > 0, "a drawn card slides from the stock to the waste"
    assert drawn["redrawn"] == ["stock", "waste"], "a draw draws the two piles again, not the pyramid"
    removed = page.evaluate(PLAY_AND_LOOK, list(PAIR))
    assert removed["leaving"] and all(removed["leaving"]), removed
    assert removed["discard"] == "2"
    # The pair's two places, and the cards it freed (none here: 7♦ and 6♣ each half-cover a card).
    assert removed["redrawn"] == sorted(PAIR), removed
    for move in (drawn, removed):
        assert move["properties"] == ["opacity", "transform"] or move["properties"] == ["transform"], move
        assert move["reads"] == 0, "the motion is placed by the board's drawing, not by measuring the page"
    page.wait_for_function("document.querySelectorAll('.pyr-leaving').length === 0")  # the copies go when they land


def test_reduced_motion_runs_no_animation(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}", reduced_motion=True)
    assert page.evaluate(PLAY_AND_LOOK, ["stock"])["all"] == 0
    removed = page.evaluate(PLAY_AND_LOOK, list(PAIR))
    assert removed["all"] == 0 and removed["leaving"] == [] and removed["discard"] == "2"


def test_the_animations_option_stops_them_and_is_remembered(watched):
    w, page = open_game(watched, "da", f"#deal={WIN_DEAL}", reduced_motion=False)
    page.locator(f"{GAME} .pyr-options summary").click()
    box = page.locator(f"{GAME} .pyr-option-animations input")
    assert box.is_checked()  # on by default
    box.uncheck()
    assert page.evaluate(PLAY_AND_LOOK, ["stock"])["all"] == 0
    assert page.evaluate(PLAY_AND_LOOK, list(PAIR))["all"] == 0
    page.reload()
    page.wait_for_selector(f"{GAME}[data-mounted]")
    assert page.locator(f"{GAME}[data-still]").count() == 1
    assert not page.locator(f"{GAME} .pyr-option-animations input").is_checked()


def test_sound_is_off_until_chosen_and_remembered(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}", reduced_motion=False)
    page.add_init_script(COUNT_AUDIO)
    page.reload()
    page.wait_for_selector(f"{GAME}[data-mounted]")
    page.evaluate(PLAY_AND_LOOK, ["stock"])
    page.evaluate(PLAY_AND_LOOK, list(PAIR))
    assert page.evaluate("window.audioContexts") == 0, "no sound, nor its context, before the player asks"
    page.locator(f"{GAME} .pyr-options summary").click()
    box = page.locator(f"{GAME} .pyr-option-sound input")
    assert not box.is_checked()
    box.check()
    page.evaluate(PLAY_AND_LOOK, ["stock"])
    page.evaluate(PLAY_AND_LOOK, ["stock"])
    assert page.evaluate("window.audioContexts") == 1, "one context, made at the first sound"
    page.reload()
    page.wait_for_selector(f"{GAME}[data-mounted]")
    assert page.locator(f"{GAME} .pyr-option-sound input").is_checked()


def test_card_back_and_table_colour_are_chosen_and_remembered(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    look = """() => ({
      back: getComputedStyle(document.querySelector('.pyramide-game [data-key="stock"] .back-face')).fill,
      felt: getComputedStyle(document.querySelector('.pyramide-game .pyr-board')).backgroundColor,
    })"""
    before = page.evaluate(look)
    page.locator(f"{GAME} .pyr-options summary").click()
    for name, choices in (("back", ["blue", "red", "green"]), ("table", ["green", "blue", "red"])):
        select = page.locator(f"{GAME} .pyr-option-{name} select")
        assert select.evaluate("s => [...s.options].map((o) => o.value)") == choices
        assert select.input_value() == choices[0]  # the first is the default
    page.locator(f"{GAME} .pyr-option-back select").select_option("red")
    page.locator(f"{GAME} .pyr-option-table select").select_option("blue")
    chosen = page.evaluate(look)
    assert chosen["back"] != before["back"] and chosen["felt"] != before["felt"]
    page.reload()
    page.wait_for_selector(f"{GAME}[data-mounted]")
    assert page.evaluate(look) == chosen
    assert page.locator(f"{GAME} .pyr-option-back select").input_value() == "red"


def luminance(rgb: str) -> float:
    channels = [int(v) / 255 for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_dark_scheme_buttons_are_dark_and_readable(watched):
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    colours = f"""() => {{
      const b = getComputedStyle(document.querySelector('{GAME} .pyr-undo'));
      return {{bg: b.backgroundColor, ink: b.color, panel: getComputedStyle(document.querySelector('{GAME}')).backgroundColor}};
    }}"""
    light = page.evaluate(colours)
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    dark = page.evaluate(colours)
    assert luminance(light["bg"]) > 0.7, light  # cream in the light scheme
    assert luminance(dark["bg"]) < 0.15, dark  # no bright button on the dark board
    assert luminance(dark["bg"]) > luminance(dark["panel"]), dark  # yet it stands out from the panel
    for scheme in (light, dark):
        assert contrast(scheme["bg"], scheme["ink"]) >= 4.5, scheme


def test_a_win_throws_the_cards_up_unless_motion_is_off(watched, winning_game):
    for reduced in (False, True):
        w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}", reduced_motion=reduced)
        for move in winning_game[:-1]:
            click_move(page, move)
        kind, *cards = winning_game[-1].split()
        keys = [page.locator(f"{GAME} .pyr-slot[data-code='{c}']").get_attribute("data-key") for c in cards] or ["stock"]
        page.evaluate(PLAY_AND_LOOK, keys)
        # The cards rise in a task after the winning move's first frame (dom.js afterFrame).
        page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        fountain = page.evaluate("[...document.querySelectorAll('.pyr-fountain')].filter((e) => e.getAnimations().length).length")
        if reduced:
            assert fountain == 0
        else:
            assert fountain >= 20, fountain
            look = page.evaluate(ANIMATED)
            assert look == ["opacity", "transform"], "the win's glow and cards move by opacity and transform only"
            page.wait_for_function("document.querySelectorAll('.pyr-fountain').length === 0", timeout=10_000)


# A tap, a key and a button, each dispatched by script: what the game shows right after the
# event, in the same task, and once a timer set after it has run.
ACT_LATER = """async () => {
  const game = document.querySelector('.pyramide-game');
  const stock = game.querySelector('[data-key="stock"]');
  const seen = [];
  const inputs = [() => stock.click(), () => game.dispatchEvent(new KeyboardEvent('keydown', { key: 'd', bubbles: true })),
    () => game.querySelector('.pyr-undo').click()];
  for (const input of inputs) {
    const before = stock.getAttribute('aria-label');
    input();
    const during = stock.getAttribute('aria-label');
    await new Promise((done) => setTimeout(done));
    seen.push([before, during, stock.getAttribute('aria-label')]);
  }
  return seen;
}"""


def test_a_move_is_played_in_a_task_after_its_input(watched):
    """Chromium draws a frame in the task that hands a tap or a key to the page: the move's script
    in that task made one long task of both. The game acts in the task after (dom.js afterInput),
    which a timer set after the input follows."""
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    (draw_before, draw_during, draw_after), (key_before, key_during, key_after), (undo_before, undo_during, undo_after) = \
        page.evaluate(ACT_LATER)
    assert draw_during == draw_before and draw_after != draw_before, "a tap on the stock: drawn after its task"
    assert key_during == key_before and key_after != key_before, "the D key: drawn after its task"
    assert undo_during == undo_before and undo_after == draw_after, "Undo: the second draw taken back after its task"


def test_a_king_tapped_twice_in_one_task_is_played_once_and_the_tab_stop_stays_on_a_card(watched):
    """Two taps before the game acts on the first (a busy phone): the second finds its place emptied
    when its turn comes, and neither plays nor leaves the keyboard's one tab stop on the empty place."""
    w, page = open_game(watched, "nb", f"#deal={WIN_DEAL}")
    king = page.locator(f"{GAME} .pyr-slot[data-code='KD']").get_attribute("data-key")  # deal 27's free K♦
    after = page.evaluate("""async (key) => {
      const board = document.querySelector('.pyramide-game .pyr-board');
      const place = board.querySelector(`.pyr-slot[data-key="${key}"]`);
      place.click();
      place.click();
      await new Promise((done) => setTimeout(done));
      const stops = [...board.querySelectorAll('.pyr-slot')].filter((s) => s.tabIndex === 0);
      return { stops: stops.map((s) => [s.dataset.key, s.classList.contains('is-removed')]),
               moves: document.querySelector('.pyramide-game .pyr-score').textContent };
    }""", king)
    assert len(after["stops"]) == 1 and after["stops"][0][0] != king and not after["stops"][0][1], after
    assert after["moves"].startswith("Trekk: 1 "), after

