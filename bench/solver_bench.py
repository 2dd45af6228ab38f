"""Both exact solvers on the openings of deals 1–40: positions and seconds per deal (wall clock,
and CPU time, fairer on a busy machine), mean and max, peak memory, and whether they agree on
every deal.

Times: all the deals in one Node process, as issue 43 measured them (the code warmed up after
the first deals). Memory, as a phone's tab would hold it: each deal is solved again in a Node
process of its own, and the figure is the largest peak resident memory of those processes (Node
itself included, some 40 MB; no garbage of earlier deals). Their mean time is printed too: the
code is cold in each. The peak of the one process for all deals is kept beside it. The
independent solver runs all the deals in one process only (compiling it with numba takes some
15 s): its figure is that process's peak.

Targets (issue 43, for the app's solver): a mean of at most 0.25 s per deal, and at most
150 MB. (Issue 28's, for both: a mean of at most 0.5 s, a max of at most 3 s, 300 MB.)

`run(root=...)` runs the same scripts against another checkout (say, the code before a change):
copy bench/solve_deals*.{mjs,py} into its bench/ folder first.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from verify.app import find_node

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def run_child(cmd: list[str], root: Path = ROOT) -> tuple[list[dict], float]:
    """Runs a solver process; returns its JSON lines and its peak resident memory in MB."""
    process = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, text=True)
    rows = []
    for line in process.stdout:
        row = json.loads(line)
        rows.append(row)
        print(f"    deal {row['deal']:>3}: {row['max_removed']:>2} cards in {row['shortest']:>2} moves, "
              f"{row['positions']:>11,} positions, {row['seconds']:6.2f} s ({row['cpu_seconds']:6.2f} s CPU)", flush=True)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"solver process failed: {cmd}")
    return rows, usage.ru_maxrss / 1024  # Linux reports KB


TARGETS = {"mean_seconds": 0.25, "peak_memory_mb": 150}  # issue 43, the app's solver


def summary(rows: list[dict], peak_mb: float) -> dict:
    total, cpu = sum(r["seconds"] for r in rows), sum(r["cpu_seconds"] for r in rows)
    return {"deals": len(rows), "total_seconds": round(total, 1), "mean_seconds": round(total / len(rows), 3),
            "max_seconds": round(max(r["seconds"] for r in rows), 2), "mean_cpu_seconds": round(cpu / len(rows), 3),
            "max_cpu_seconds": round(max(r["cpu_seconds"] for r in rows), 2),
            "total_positions": sum(r["positions"] for r in rows), "peak_memory_mb": round(peak_mb)}


def run(first: int = 1, last: int = 40, root: Path = ROOT) -> dict:
    app = [find_node(), str(root / "bench" / "solve_deals.mjs")]
    independent = [sys.executable, str(root / "bench" / "solve_deals_independent.py"), str(first), str(last)]
    results, figures = {}, {}
    for name, cmd in (("app", app + [str(first), str(last)]), ("independent", independent)):
        print(f"  {name} solver, deals {first}–{last} in one process:", flush=True)
        results[name], peak_mb = run_child(cmd, root)
        figures[name] = summary(results[name], peak_mb)
    print(f"  app solver, each deal in a process of its own (its peak memory; the code not warmed up):", flush=True)
    alone = [run_child(app + [str(n), str(n)], root) for n in range(first, last + 1)]
    largest, peak_mb = max(((rows[0]["deal"], peak) for rows, peak in alone), key=lambda d: d[1])
    cold = summary([row for rows, _ in alone for row in rows], peak_mb)
    figures["app"].update({"peak_memory_whole_run_mb": figures["app"]["peak_memory_mb"], "peak_memory_mb": round(peak_mb),
                           "peak_memory_deal": largest, "cold_mean_seconds": cold["mean_seconds"],
                           "cold_mean_cpu_seconds": cold["mean_cpu_seconds"], "targets": TARGETS})
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    disagreements = [a["deal"] for a, b in zip(results["app"], results["independent"])
                     if (a["max_removed"], a["shortest"]) != (b["max_removed"], b["shortest"])]
    figures["agree_on_all"] = not disagreements
    print("  solvers, deals %d–%d:" % (first, last))
    for name in ("app", "independent"):
        f = figures[name]
        print(f"    {name:<12} total {f['total_seconds']} s, mean {f['mean_seconds']} s/deal, max {f['max_seconds']} s "
              f"(CPU: mean {f['mean_cpu_seconds']} s, max {f['max_cpu_seconds']} s), "
              f"{f['total_positions']:,} positions, peak memory {f['peak_memory_mb']} MB")
    a = figures["app"]
    print(f"    app: the peak memory is the largest of one process per deal (deal {a['peak_memory_deal']}); the whole "
          f"run's process: {a['peak_memory_whole_run_mb']} MB; one deal per process, not warmed up: mean "
          f"{a['cold_mean_seconds']} s ({a['cold_mean_cpu_seconds']} s CPU)")
    print(f"    app targets (issue 43): mean ≤ {TARGETS['mean_seconds']} s: "
          f"{'met' if a['mean_seconds'] <= TARGETS['mean_seconds'] else 'NOT met'} (in CPU time: "
          f"{'met' if a['mean_cpu_seconds'] <= TARGETS['mean_seconds'] else 'NOT met'}); peak ≤ "
          f"{TARGETS['peak_memory_mb']} MB: {'met' if a['peak_memory_mb'] <= TARGETS['peak_memory_mb'] else 'NOT met'}; "
          f"load average {figures['load_average']}")
    print(f"    agree on every deal: {'yes' if not disagreements else 'NO: ' + str(disagreements)}")
    return figures
