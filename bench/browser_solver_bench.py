"""`make bench SECTION=browser-solver`: the app's exact solver in Chromium, in its Web Worker
(app/core/worker.js, op `solve`, what "show the solution" sends), from mid-game positions of the
survey's hardest deals.

The deals: the DEALS deals of the standard survey (build/survey-cache/, deals 1–10,000) on which
the decider spent the most positions — the hardest to decide; nearly all are lost, so the
solver has to find the most cards and then the shortest game removing them. The position:
the app's solver solves the opening in Node (bench/mid_game_positions.mjs), and the first third
of its shortest game (floor(moves / 3) moves) is played from the opening. The rest of that game
is a shortest game from there, so each answer is checked to be exactly that long.

The page is a minimal one serving app/'s files; one worker is started and warmed up on a small
position first (a player asking for the solution has had the worker running since the page
loaded), then each position is posted to it; the time runs from postMessage to the solution's
message, measured inside the page. Target (issue 28): at most 2 s per position.

    .venv/bin/python -m bench browser-solver
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.game_bench import CHROMIUM, CHROMIUM_ARGS, _serve  # noqa: E402

DEALS = 10
TARGET_MAX_S = 2.0
PAGE = ('<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>solver bench</title>'
        '</head><body></body></html>')
# One worker for the page; solve(position) resolves with the solution and the milliseconds it took.
START_WORKER = """() => {
    const worker = new Worker('assets/core/worker.js', { type: 'module' });
    let next = 0;
    window.solveInWorker = (position) => new Promise((resolve, reject) => {
        const id = ++next;
        const started = performance.now();
        worker.onmessage = (event) => {
            const m = event.data;
            if (m.id !== id || m.progress) return;
            if (m.error) reject(new Error(m.error));
            else resolve({ ms: performance.now() - started, ...m.solution });
        };
        worker.postMessage({ id, op: 'solve', position, rules: {} });
    });
}"""
WARM_UP = {"pyramid": [None] * 27 + ["6S"], "waste": [], "stock": ["7H"], "turns_left": 0, "points": 0, "moves": 0}


def hardest_deals(count: int = DEALS) -> list[dict]:
    """The deals of the standard survey with the most decider positions, most first."""
    from verify.survey.cache import cache_dir
    folder = cache_dir("standard")
    rows = []
    for chunk in sorted(folder.glob("deals-*.json")):
        for deal, r in json.loads(chunk.read_text(encoding="utf-8"))["deals"].items():
            rows.append({"deal": int(deal), "result": r["result"], "decider_nodes": r["nodes"]})
    rows.sort(key=lambda r: (-r["decider_nodes"], r["deal"]))
    return rows[:count]


def mid_game_positions(deals: list[int]) -> list[dict]:
    from verify.app import find_node
    out = subprocess.run([find_node(), str(ROOT / "bench" / "mid_game_positions.mjs"), *map(str, deals)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def solve_in_chromium(positions: list[dict]) -> list[dict]:
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "assets" / "core").mkdir(parents=True)
        for f in (ROOT / "app" / "core").glob("*.js"):  # the worker and what it imports
            shutil.copy(f, folder / "assets" / "core" / f.name)
        (folder / "index.html").write_text(PAGE, encoding="utf-8")
        server = _serve(folder)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
                page.evaluate(START_WORKER)
                page.evaluate("(p) => solveInWorker(p)", WARM_UP)
                answers = [page.evaluate("(p) => solveInWorker(p)", row["position"]) for row in positions]
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    return answers


def run() -> dict:
    if not Path(CHROMIUM).exists():
        print(f"    {CHROMIUM} is missing: no browser figures (make browser installs it)")
        return {}
    deals = hardest_deals()
    if not deals:
        print("    no standard survey in build/survey-cache/ for today's engine: make survey first")
        return {}
    print(f"    the {len(deals)} deals of the standard survey the decider spent the most positions on: "
          + ", ".join(f"{d['deal']} ({d['result']}, {d['decider_nodes']:,})" for d in deals), flush=True)
    positions = mid_game_positions([d["deal"] for d in deals])
    answers = solve_in_chromium(positions)
    rows = []
    for d, pos, a in zip(deals, positions, answers):
        left = pos["opening"]["shortest"] - len(pos["played"])
        if not a["complete"] or a["shortest"] != left:
            raise SystemExit(f"error: deal {d['deal']}, after {len(pos['played'])} moves: the worker answered "
                             f"{a['shortest']} moves (complete: {a['complete']}), the rest of the opening's "
                             f"shortest game is {left}")
        rows.append({"deal": d["deal"], "result": d["result"], "moves_played": len(pos["played"]),
                     "shortest": a["shortest"], "max_removed": a["max_removed"], "positions": a["positions"],
                     "ms": round(a["ms"], 1)})
        print(f"    deal {d['deal']:>5} after {len(pos['played']):>2} moves: {a['max_removed']:>2} more cards in "
              f"{a['shortest']:>2} moves, {a['positions']:>9,} positions, {a['ms']:7.0f} ms", flush=True)
    ms = [r["ms"] for r in rows]
    figures = {"positions": rows, "mean_ms": round(statistics.mean(ms), 1), "max_ms": round(max(ms), 1),
               "target_max_s": TARGET_MAX_S, "load_average": [round(x, 2) for x in os.getloadavg()]}
    print(f"    in Chromium's worker, {len(rows)} mid-game positions: mean {figures['mean_ms']:.0f} ms, "
          f"max {figures['max_ms']:.0f} ms (target ≤ {TARGET_MAX_S * 1000:.0f} ms); "
          f"load average {figures['load_average']}")
    return figures


if __name__ == "__main__":
    run()
