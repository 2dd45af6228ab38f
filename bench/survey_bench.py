"""Speed and memory of the survey of random deals (verify/survey.py), measured from scratch.

`python -m bench.survey_bench` — deals 1–1,520 and 1–10,000 under the standard rules, each in
a fresh temporary cache (so every deal is decided and checked, nothing comes from
build/survey-cache), on all cores. Targets: 1–1,520 under 60 s, 1–10,000 under 5 minutes.
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from verify import survey

RANGES = ((1, 1520, 60.0), (1, 10000, 300.0))


def measure(first: int, last: int, jobs: int | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="survey-bench-") as cache:
        started = time.monotonic()
        s = survey.run_survey(first, last, jobs=jobs, cache_root=Path(cache), progress=True)
        wall = time.monotonic() - started
    records = s.results.values()
    app_ms = [r["ms"] for r in records]
    total_ms = [r["ms"] + r["check_ms"] for r in records]
    figures = survey.summarise(s.results)
    return {
        "deals": f"{first}-{last}", "jobs": jobs or os.cpu_count(), "seconds": round(wall, 1),
        "deals_per_second": round(len(app_ms) / wall, 1),
        "app_ms_per_deal": {"mean": round(statistics.fmean(app_ms), 2), "median": round(statistics.median(app_ms), 2),
                            "max": round(max(app_ms), 1)},
        "with_checks_ms_per_deal": {"mean": round(statistics.fmean(total_ms), 2),
                                    "median": round(statistics.median(total_ms), 2), "max": round(max(total_ms), 1)},
        "peak_worker_mb": round(s.peak_rss_kb / 1024, 1),  # one worker: its Node process plus its Python
        "peak_main_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "won": figures["won"], "lost": figures["lost"], "undecided": figures["undecided"],
        "share": round(figures["share"], 4), "interval95": [round(x, 4) for x in figures["interval95"]],
    }


def run() -> dict:
    """Both ranges; prints each figure set as it is measured and returns them all."""
    results = {}
    for first, last, target in RANGES:
        r = measure(first, last)
        r["target_seconds"] = target
        r["within_target"] = r["seconds"] < target
        results[r["deals"]] = r
        print(json.dumps(r, indent=2), flush=True)
    return results


if __name__ == "__main__":
    run()
