"""Speed and memory of the survey of random deals (verify/survey/), measured from scratch.

`python -m bench survey` — what `make survey` does, each range in a fresh temporary cache (so
every deal is decided by the app and checked independently, nothing comes from
build/survey-cache), on all cores: deals 1–10,000 under the standard rules (target ≤ 80 s on
2 cores), then 1–2,000 under each of the five variants; all six together ≤ 3 minutes.
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

STANDARD = (1, 10000, 80.0)
VARIANTS = ("strict", "one-pass", "unlimited", "stock-top", "cover-pair")
VARIANT_DEALS = (1, 2000)
ALL_TARGET = 180.0


def measure(first: int, last: int, jobs: int | None = None, variant: str = "standard") -> dict:
    with tempfile.TemporaryDirectory(prefix="survey-bench-") as cache:
        started = time.monotonic()
        s = survey.run_survey(first, last, variant=variant, jobs=jobs, cache_root=Path(cache), progress=True)
        wall = time.monotonic() - started
    records = s.results.values()
    app_ms = [r["ms"] for r in records]
    total_ms = [r["ms"] + r["check_ms"] for r in records]
    figures = survey.summarise(s.results)
    return {
        "variant": variant, "deals": f"{first}-{last}", "jobs": jobs or os.cpu_count(), "seconds": round(wall, 1),
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
    """The survey of `make survey`, range by range; prints each figure set as it is measured."""
    first, last, target = STANDARD
    standard = measure(first, last)
    standard["target_seconds"] = target
    standard["within_target"] = standard["seconds"] <= target
    print(json.dumps(standard, indent=2), flush=True)
    results = {"standard": standard}
    for variant in VARIANTS:
        results[variant] = measure(*VARIANT_DEALS, variant=variant)
        print(json.dumps(results[variant], indent=2), flush=True)
    total = round(sum(r["seconds"] for r in results.values()), 1)
    results["all_seconds"] = total
    results["all_within_target"] = total <= ALL_TARGET
    print(f"  the whole survey from scratch: {total} s (target {ALL_TARGET:.0f} s)", flush=True)
    return results


if __name__ == "__main__":
    run()
