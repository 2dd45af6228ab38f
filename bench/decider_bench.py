"""Both deciders (app/core/decider.js and verify/independent/decider.py) on the openings of the survey's deals,
each variant, one process each (one core): deals per second, mean / median / max ms per deal,
card sets entered, peak memory, and whether the two agree on every deal.

The deals are those `make survey` decides: 1–10,000 under the standard rules, 1–2,000 under
each of the five variants."""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from verify.app import find_node
from verify.independent.variants import VARIANTS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEALS = {"standard": 10000, **{v: 2000 for v in VARIANTS if v != "standard"}}


def run_child(cmd: list[str]) -> tuple[list[dict], float]:
    """Runs a decider process; returns its JSON lines and its peak resident memory in MB."""
    process = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    rows = [json.loads(line) for line in process.stdout]
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"decider process failed: {' '.join(cmd)}")
    return rows, usage.ru_maxrss / 1024  # Linux reports KB


def figures_of(rows: list[dict], peak_mb: float) -> dict:
    ms = [r["ms"] for r in rows]
    return {"deals": len(rows), "seconds": round(sum(ms) / 1000, 1),
            "deals_per_second_per_core": round(1000 * len(ms) / sum(ms), 1),
            "ms_per_deal": {"mean": round(statistics.fmean(ms), 2), "median": round(statistics.median(ms), 2),
                            "max": round(max(ms), 1)},
            "card_sets": sum(r["nodes"] for r in rows), "peak_memory_mb": round(peak_mb)}


def run() -> dict:
    results = {}
    for variant, last in DEALS.items():
        commands = {
            "app": [find_node(), str(HERE / "decide_deals.mjs"), variant, "1", str(last)],
            "independent": [sys.executable, str(HERE / "decide_deals_independent.py"), variant, "1", str(last)],
        }
        rows = {}
        figures = {}
        for name, cmd in commands.items():
            rows[name], peak_mb = run_child(cmd)
            figures[name] = figures_of(rows[name], peak_mb)
            f = figures[name]
            print(f"  {variant:<10} {name:<11} deals 1–{last:,}: {f['deals_per_second_per_core']:>7.1f} deals/s per core, "
                  f"ms per deal mean {f['ms_per_deal']['mean']}, median {f['ms_per_deal']['median']}, "
                  f"max {f['ms_per_deal']['max']}; {f['card_sets']:,} card sets; {f['peak_memory_mb']} MB", flush=True)
        disagree = [a["deal"] for a, b in zip(rows["app"], rows["independent"]) if a["result"] != b["result"]]
        figures["won"] = sum(r["result"] == "won" for r in rows["app"])
        figures["agree_on_all"] = not disagree
        print(f"  {variant:<10} won {figures['won']:,} of {last:,}; the deciders agree on every deal: "
              f"{'yes' if not disagree else 'NO: ' + str(disagree[:20])}", flush=True)
        results[variant] = figures
    return results
