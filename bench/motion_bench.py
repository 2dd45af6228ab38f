"""`make bench SECTION=motion`: the main thread's long tasks while the game moves (issue 43,
item 5: none over 50 ms during an animation, the CPU four times slower).

The built site's game page (nb/), in Debian's Chromium, at a phone's size (412 × 823, touch:
every card tapped) and a laptop's (1280 × 800, clicked), with Chromium's CPU throttling at 4×.
A won game is played by its cards: the app's solver gives the shortest win of the pool's first
deal (draws, pairs, kings, turns of the waste), with Undo pressed three times on the way (and the
move played again), and the last move wins (the win's motion). Each tap is raw input at the
card's centre (read before the window opens), so none of Playwright's checks run in the page.
Each action's window runs from just before its tap until no animation with an end is running
(Web Animations and CSS ones: document.getAnimations()); every long task that starts in it
counts for the action's kind: choose (a pair's first card), pair, draw, turn, king, undo, win.
Tasks between two windows (after an animation ended, before the next tap) count as "between".

Two figures per kind. Long tasks as the page's PerformanceObserver ('longtask') sees them: wall
clock, so on a shared machine they grow with its load (another process holding the core
stretches a task). And the main thread's own CPU time of each task (from a Chromium trace's
top-level tasks, `tdur`): how many took over 50 ms, and the longest task of any length (the room
left under the goal). With the 4× throttling, which Chromium spends on the thread itself, that is
the length a task would have on a quiet machine, and the steadier figure here. The window of a
tap lasts until the game has acted on it (a task after the tap's) and its animations have ended. No test asserts either: the figures are printed and saved to build/bench.json.

    .venv/bin/python -m bench motion          # builds the site for a local address (make verify first)
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.blocking import LONG_TASKS  # noqa: E402
from bench.game_bench import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from bench.lighthouse import built_and_served  # noqa: E402

CPU_SLOWDOWN = 4
LONG_TASK_MS = 50
SIZES = {
    "phone": {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
}
UNDO_AFTER = (4, 20, 40)  # Undo pressed after these moves of the game (counted from 1), then the move again
SETTLE_MS = 3000  # after the load, before the first tap: the load's own tasks stay out
# Only the top-level tasks with their thread's CPU time (tdur), and the page's marks: cheap to record.
TRACE_CATEGORIES = ["toplevel", "disabled-by-default-devtools.timeline", "blink.user_timing"]
KINDS = ("choose", "pair", "draw", "turn", "king", "undo", "win", "between")

# Resolves, once the tap has been acted on and no animation with an end is running (an infinite one, a hint's pulse, never
# ends), with that moment. It waits on the animations' own promises: looking at every frame
# (getAnimations() flushes the style) would add work of its own to the frames measured.
STILL = """async () => {
  // The game acts on a tap in a task after it, and a win's focus and motion wait a frame
  // (app/ui/dom.js afterInput, afterFrame): a timer, a frame and a timer come after those.
  await new Promise((done) => setTimeout(() => requestAnimationFrame(() => setTimeout(done))));
  const ending = () => document.getAnimations().filter((a) => a.playState === 'running'
    && Number.isFinite(a.effect?.getComputedTiming().endTime));
  for (let running = ending(); running.length; running = ending()) await Promise.allSettled(running.map((a) => a.finished));
  return performance.now();
}"""


def winning_game(deal: int) -> list[str]:
    """The app solver's shortest win of `deal` from its opening, in the engine's move notation."""
    from verify.app import find_node

    script = ("import('./app/core/engine.js').then(({openingPosition}) => import('./app/core/solver.js').then(({solve}) =>"
              f" console.log(JSON.stringify(solve(openingPosition({deal})).game))))")
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def actions(game: list[str]) -> list[tuple[str, str]]:
    """The taps that play `game`, each (kind, what to tap: a card's code, 'stock' or 'undo'), with Undo."""
    def taps(move: str, last: bool) -> list[tuple[str, str]]:
        kind, *cards = move.split()
        if kind in ("draw", "turn"):
            return [("win" if last else kind, "stock")]
        if kind == "king":
            return [("win" if last else "king", cards[0])]
        return [("choose", cards[0]), ("win" if last else "pair", cards[1])]

    out = []
    for n, move in enumerate(game, start=1):
        last = n == len(game)
        out += taps(move, last)
        if n in UNDO_AFTER and not last:
            out += [("undo", "undo"), *taps(move, False)]
    return out


def _target(page, what: str):
    game = page.locator(".pyramide-game")
    if what == "stock":
        return game.locator("button[data-pile='stock']")
    if what == "undo":
        return game.locator("button.pyr-undo")
    return game.locator(f"button.pyr-slot[data-code='{what}']")


def play(browser, url: str, size: dict, taps: list[tuple[str, str]]) -> dict[str, list[float]]:
    """Plays `taps` on a fresh page; the lengths (ms) of the long tasks seen, per kind."""
    context = browser.new_context(**size, reduced_motion="no-preference", service_workers="block")
    try:
        context.add_init_script(LONG_TASKS)
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        page.goto(url, wait_until="load")
        page.wait_for_selector(".pyramide-game[data-mounted] .pyr-board")
        page.wait_for_timeout(SETTLE_MS)
        seen = {kind: [] for kind in KINDS}
        cpu = {kind: [] for kind in KINDS}
        windows = []
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        page.evaluate("document.querySelector('.pyramide-game').scrollIntoView({ block: 'start', behavior: 'instant' })")
        for kind, what in taps:
            # Where to tap, read before the window opens; the tap itself is raw input (a touch or
            # a mouse click at a point), so none of Playwright's checks run in the page meanwhile.
            box = _target(page, what).bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            start = page.evaluate(f"performance.mark('motion-start-{len(windows)}').startTime")
            page.touchscreen.tap(x, y) if size.get("has_touch") else page.mouse.click(x, y)
            windows.append((kind, start, page.evaluate(STILL)))
            page.evaluate(f"performance.mark('motion-end-{len(windows) - 1}')")
        if page.evaluate("document.querySelector('.pyramide-game').dataset.status") != "won":
            raise RuntimeError(f"{url}: the game was not won by its solution's moves")
        page.wait_for_timeout(200)  # the observer hears of the last task after it ends
        for kind, length in busy_tasks(json.loads(browser.stop_tracing()), [k for k, _, _ in windows]):
            cpu[kind].append(length)
        for task_start, length in page.evaluate("window.__longTasks"):
            if task_start < windows[0][1]:
                continue  # the load's
            kind = next((k for k, start, end in windows if start <= task_start <= end), "between")
            seen[kind].append(length)
        seen["actions"] = {kind: sum(k == kind for k, _ in taps) for kind in KINDS if kind != "between"}
        seen["cpu"] = cpu
        return seen
    finally:
        context.close()


def busy_tasks(trace: dict, kinds: list[str]) -> list[tuple[str, float]]:
    """The renderer main thread's tasks of a millisecond or more of its own CPU time, each
    (the kind of the window it started in, or "between"; its CPU ms), from a Chromium trace with
    the page's motion-start-i / motion-end-i marks."""
    events = trace["traceEvents"]
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    marks = {e["name"]: e["ts"] for e in events if e.get("name", "").startswith("motion-")}
    windows = [(kind, marks[f"motion-start-{i}"], marks[f"motion-end-{i}"]) for i, kind in enumerate(kinds)]
    busy = []
    for e in events:
        if (e.get("pid"), e.get("tid")) in main and e.get("name") == "ThreadControllerImpl::RunTask" \
                and e.get("tdur", 0) >= 1000 and e["ts"] >= windows[0][1]:
            kind = next((k for k, start, end in windows if start <= e["ts"] <= end), "between")
            busy.append((kind, e["tdur"] / 1000))
    return busy


def summary(seen: dict) -> dict:
    """Per kind: the actions measured, the long tasks (wall-clock, as the page's observer saw them)
    and their longest, and of the main thread's own CPU time the tasks over 50 ms and the longest task."""
    return {kind: {"actions": seen["actions"].get(kind), "long_tasks": len(seen[kind]),
                   "max_ms": round(max(seen[kind], default=0.0), 1), "cpu_long_tasks": sum(ms > LONG_TASK_MS for ms in seen["cpu"][kind]),
                   "max_cpu_ms": round(max(seen["cpu"][kind], default=0.0), 1)} for kind in KINDS}


def measure(base: str, deal: int) -> dict:
    """The figures of one played game per size, on the site served at `base`."""
    from playwright.sync_api import sync_playwright

    taps = actions(winning_game(deal))
    figures = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name, size in SIZES.items():
                figures[name] = summary(play(browser, f"{base}/nb/#deal={deal}", size, taps))
                width, height = size["viewport"].values()
                print(f"    {name} ({width} × {height}), CPU {CPU_SLOWDOWN}× slower, deal {deal}:", flush=True)
                for kind, row in figures[name].items():
                    print(f"      {kind:<8} {row['actions'] if row['actions'] is not None else '':>4} actions  "
                          f"{row['long_tasks']:>3} long tasks  longest {row['max_ms']:6.1f} ms;  over 50 ms of CPU "
                          f"{row['cpu_long_tasks']:>3}, longest task {row['max_cpu_ms']:6.1f} ms", flush=True)
        finally:
            browser.close()
    return figures


def run() -> dict:
    """Builds the site for a local address and plays the pool's first deal at both sizes."""
    if not Path(CHROMIUM).exists():
        print(f"    no motion figures: {CHROMIUM} is missing (`make browser`)")
        return {"skipped": f"{CHROMIUM} is missing"}
    bundle = ROOT / "build" / "verified.json"
    if not bundle.exists():
        print("    no motion figures: build/verified.json is missing (make verify)")
        return {"skipped": "build/verified.json is missing"}
    deal = json.loads(bundle.read_text())["survey"]["pool_deals"][0]
    try:
        with tempfile.TemporaryDirectory() as tmp, built_and_served(Path(tmp)) as (base, _):
            return {"deal": deal, "cpu_slowdown": CPU_SLOWDOWN, "sizes": measure(base, deal)}
    except RuntimeError as e:  # the site did not build (a stale bundle), or the game went wrong
        print(f"    no motion figures: {e}")
        return {"skipped": str(e)}


if __name__ == "__main__":
    run()
