"""The main thread's blocking time of a page load, measured in real loads rather than Lighthouse's
simulation: Debian's Chromium at Lighthouse's phone size (412 × 823) with its CPU slowed four
times (Chromium's own throttling, as Lighthouse's devtools mode applies it), no tracing, the
service worker kept out (a first visit). Every long task from the first contentful paint until
three seconds after the load event counts its time over 50 ms, as Lighthouse's TBT does.

Why beside Lighthouse: on this 2-core machine Lighthouse's score of one build moves by 5–10 points
from run to run, more than most changes move it; this figure's median over seven rounds moved by
about a tenth between runs of one build here. It is no Lighthouse score, and no target is set on
it: issue 26's target is Lighthouse's (bench/lighthouse.py).

    .venv/bin/python -m bench.blocking          # needs build/verified.json (make verify)
"""
from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from .lighthouse import CHROMIUM, built_and_served

PAGES = ("nb/", "da/", "nb/examples/")
ROUNDS = 7
CPU_SLOWDOWN = 4
AFTER_LOAD_MS = 3000
# Collects the page's long tasks from its very start (buffered): each one's start and length.
LONG_TASKS = """window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const t of list.getEntries()) window.__longTasks.push([t.startTime, t.duration]);
}).observe({ type: 'longtask', buffered: true });"""


def blocking_of_one_load(browser, url: str) -> dict:
    """One first visit: {"blocking_ms", "fcp_ms", "long_tasks_ms"} (long tasks' total, all of them)."""
    context = browser.new_context(viewport={"width": 412, "height": 823}, device_scale_factor=1.75,
                                  is_mobile=True, has_touch=True, service_workers="block")
    try:
        context.add_init_script(LONG_TASKS)
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        page.goto(url, wait_until="load")
        page.wait_for_timeout(AFTER_LOAD_MS)
        fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0")
        tasks = page.evaluate("window.__longTasks")
        return {"blocking_ms": sum(max(0.0, length - 50) for start, length in tasks if start >= fcp),
                "fcp_ms": fcp, "long_tasks_ms": sum(length for _, length in tasks)}
    finally:
        context.close()


def run(rounds: int = ROUNDS) -> dict:
    """Builds the site for a local address, loads each page of PAGES `rounds` times (the pages in
    turn, so that a slow moment of the machine falls on all of them), prints and returns medians."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"    no blocking figures: {CHROMIUM} is missing (`make browser`)")
        return {"skipped": f"{CHROMIUM} is missing"}
    loads = {page: [] for page in PAGES}
    try:
        with tempfile.TemporaryDirectory() as tmp, built_and_served(Path(tmp)) as (base, _), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                for _ in range(rounds):
                    for page in PAGES:
                        loads[page].append(blocking_of_one_load(browser, f"{base}/{page}"))
            finally:
                browser.close()
    except RuntimeError as e:  # the site did not build (say, a stale bundle)
        print(f"    no blocking figures: {e}")
        return {"skipped": str(e)}
    figures = {}
    for page, runs in loads.items():
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        figures[page] = {**median, "blocking_ms_each": [round(run["blocking_ms"]) for run in runs]}
        print(f"    {page:<14} blocking {median['blocking_ms']:5.0f} ms (median of {rounds}; each "
              f"{figures[page]['blocking_ms_each']}), first paint {median['fcp_ms']:4.0f} ms, "
              f"long tasks {median['long_tasks_ms']:5.0f} ms in all; CPU {CPU_SLOWDOWN}× slower, 412 × 823",
              flush=True)
    return {"pages": figures, "cpu_slowdown": CPU_SLOWDOWN}


if __name__ == "__main__":
    run()
