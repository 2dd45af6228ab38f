"""The game in Chromium: Hint's time to its search answer from the opening position of 50 pool
deals, and the size of the game's code.

Each deal is opened fresh (a deal link on a newly loaded page), so every time includes starting
the worker and loading its modules: the wait a player has on a first hint. Time runs from the
click on Hint to the answer (checked / lost / not checked), measured inside the page.

Targets: median ≤ 0.2 s, max ≤ 5 s; JS + CSS (every file the pages may load) ≤ 104 KB gzipped.

    .venv/bin/python -m bench.game_bench          # pool from build/verified.json, else found here
"""
from __future__ import annotations

import functools
import gzip
import http.server
import json
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.render.game_embed import game_code, game_html, head_html  # noqa: E402
from generator.render.game_locale import game_strings  # noqa: E402
from generator.site.build import copy_game  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DEALS = 50
TARGETS = {"median_s": 0.2, "max_s": 5.0, "gzip_kb": 104}  # the size: tests/browser/test_game.py BUDGET_GZIP

MEASURE_HINT = """() => new Promise((resolve) => {
    const game = document.querySelector('.pyramide-game');
    const start = performance.now();
    const seen = new MutationObserver(() => {
        const state = game.dataset.hint;
        if (state && state !== 'searching') {
            seen.disconnect();
            resolve({ seconds: (performance.now() - start) / 1000, answer: state });
        }
    });
    seen.observe(game, { attributes: true, attributeFilter: ['data-hint'] });
    game.querySelector('.pyr-hint').click();
})"""


def gzip_sizes() -> dict:
    sizes = {f: len(gzip.compress((ROOT / "app" / f).read_bytes(), 9)) for f in game_code(ROOT / "app")}
    return {"files": sizes, "total_bytes": sum(sizes.values())}


def _harness(folder: Path, pool: list[int]) -> None:
    copy_game(ROOT / "app", folder / "assets")  # as the site gets them
    path = ROOT / "docs" / "nb" / "game.json"  # with the locale's data, as the generator gives it to the page
    strings = game_strings(json.loads(path.read_text(encoding="utf-8")), "nb", str(path))
    (folder / "index.html").write_text(
        '<!doctype html><html lang="nb"><head><meta charset="utf-8"><link rel="icon" href="data:,">'
        f"{head_html('assets')}<title>bench</title></head><body>{game_html('nb', strings, pool, 'assets')}</body></html>",
        encoding="utf-8")


def _serve(folder: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def hint_times(pool: list[int]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _harness(folder, pool)
        server = _serve(folder)
        base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for deal in pool[:DEALS]:
                    context = browser.new_context()  # fresh: no saved game, a cold worker
                    page = context.new_page()
                    page.goto(f"{base}#deal={deal}")
                    page.wait_for_selector(".pyramide-game .pyr-board")
                    row = {"deal": deal, **page.evaluate(MEASURE_HINT)}
                    rows.append(row)
                    print(f"    deal {deal:>10}: {row['answer']:<9} {row['seconds']:6.3f} s", flush=True)
                    context.close()
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    return rows


def run(pool: list[int]) -> dict:
    """Prints and returns Hint's times over the first 50 deals of the pool and the code size."""
    if not Path(CHROMIUM).exists():
        print(f"    {CHROMIUM} is missing: no browser figures (make browser installs it)")
        rows = []
    else:
        rows = hint_times(pool)
    sizes = gzip_sizes()
    figures = {"deals": len(rows), "gzip_bytes": sizes["total_bytes"], "gzip_files": sizes["files"], "targets": TARGETS}
    if rows:
        seconds = [r["seconds"] for r in rows]
        figures.update(median_s=round(statistics.median(seconds), 4), max_s=round(max(seconds), 4),
                       answers={a: sum(r["answer"] == a for r in rows) for a in {r["answer"] for r in rows}})
        print(f"    Hint from the opening, {len(rows)} pool deals: median {figures['median_s']:.3f} s "
              f"(target ≤ {TARGETS['median_s']}), max {figures['max_s']:.3f} s (target ≤ {TARGETS['max_s']}); "
              f"answers {figures['answers']}")
    print(f"    game JS + CSS gzipped: {sizes['total_bytes'] / 1024:.1f} KB (target ≤ {TARGETS['gzip_kb']} KB)")
    return figures


def default_pool() -> list[int]:
    """The site's pool (build/verified.json), else the first winnable deals found by the app's decider."""
    bundle = ROOT / "build" / "verified.json"
    if bundle.exists():
        pool = (json.loads(bundle.read_text()).get("survey") or {}).get("pool_deals") or []
        if len(pool) >= DEALS:
            return pool
    from verify.app import find_node
    script = (f"import('./app/core/decider.js').then(({{decideDeal}}) => {{ const won = [];"
              f" for (let n = 1; won.length < {DEALS}; n++) if (decideDeal(n).result === 'won') won.push(n);"
              " console.log(JSON.stringify(won)); })")
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


if __name__ == "__main__":
    run(default_pool())
