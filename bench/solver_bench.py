"""Both exact solvers on the openings of deals 1–40: positions and seconds per deal (wall clock,
and CPU time, fairer on a busy machine), mean and max, peak memory of each solver's process, and
whether they agree on every deal.

Targets (issue 28, fast and small enough for a phone), for both solvers: a mean of at most
0.5 s and a max of at most 3 s per deal, and at most 300 MB.

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


def run(first: int = 1, last: int = 40, root: Path = ROOT) -> dict:
    figures = {}
    commands = {
        "app": [find_node(), str(root / "bench" / "solve_deals.mjs"), str(first), str(last)],
        "independent": [sys.executable, str(root / "bench" / "solve_deals_independent.py"), str(first), str(last)],
    }
    results = {}
    for name, cmd in commands.items():
        print(f"  {name} solver, deals {first}–{last}:", flush=True)
        rows, peak_mb = run_child(cmd, root)
        results[name] = rows
        total = sum(r["seconds"] for r in rows)
        cpu = sum(r["cpu_seconds"] for r in rows)
        figures[name] = {"deals": len(rows), "total_seconds": round(total, 1),
                         "mean_seconds": round(total / len(rows), 2),
                         "max_seconds": round(max(r["seconds"] for r in rows), 2),
                         "mean_cpu_seconds": round(cpu / len(rows), 2),
                         "max_cpu_seconds": round(max(r["cpu_seconds"] for r in rows), 2),
                         "total_positions": sum(r["positions"] for r in rows),
                         "peak_memory_mb": round(peak_mb)}
    disagreements = [a["deal"] for a, b in zip(results["app"], results["independent"])
                     if (a["max_removed"], a["shortest"]) != (b["max_removed"], b["shortest"])]
    figures["agree_on_all"] = not disagreements
    print("  solvers, deals %d–%d:" % (first, last))
    for name in commands:
        f = figures[name]
        print(f"    {name:<12} total {f['total_seconds']} s, mean {f['mean_seconds']} s/deal, max {f['max_seconds']} s "
              f"(CPU: mean {f['mean_cpu_seconds']} s, max {f['max_cpu_seconds']} s), "
              f"{f['total_positions']:,} positions, peak memory {f['peak_memory_mb']} MB")
    print(f"    agree on every deal: {'yes' if not disagreements else 'NO: ' + str(disagreements)}")
    return figures
