"""Speed and memory of the survey of random deals (verify/survey/), measured from scratch.

`python -m bench survey` — what `make survey` does, each range in a fresh temporary cache (so
every deal is decided by the app and checked independently, nothing comes from
build/survey-cache), on all cores: deals 1–10,000 under the standard rules (target ≤ 80 s on
2 cores), then 1–2,000 under each variant of the registry (app/core/variant-registry.js, five
today); all six together ≤ 3 minutes.
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
from verify.independent.variants import VARIANTS as REGISTRY

STANDARD = (1, 10000, 80.0)
VARIANTS = tuple(v for v in REGISTRY if v != "standard")  # the registry's, as `make survey` runs them
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


def simulated_cluster(workers: int = 1000, chunks_per_worker: int = 200) -> dict:
    """The driver alone on a simulated cluster (verify/survey/simulated.py): how busy it keeps
    `workers` workers whose chunks take 0.5–1.5 s (one in a hundred five times as long), and
    the memory it holds, on a virtual clock; the cache writes are left out (they are the driver's
    own disk, measured by the real survey above)."""
    import random
    import tracemalloc
    from verify.survey import run as run_module
    from verify.survey.simulated import SimulatedPool

    rng = random.Random(1)
    pool = SimulatedPool(workers, lambda: rng.uniform(0.5, 1.5) * (5 if rng.random() < 0.01 else 1))
    write, run_module.write_chunk = run_module.write_chunk, lambda *args, **kwargs: None
    tracemalloc.start()
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="survey-sim-") as cache:
            s = survey.run_survey(1, workers * chunks_per_worker, chunk=1, cache_root=Path(cache), progress=False,
                                  pool=pool, keep=False)
    finally:
        run_module.write_chunk = write
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {"workers": workers, "chunks": s.tally.deals, "utilisation": round(pool.utilisation(), 4),
            "peak_in_flight": s.peak_in_flight, "driver_peak_traced_mb": round(peak / 1e6, 2),
            "driver_seconds": round(time.monotonic() - started, 1)}


def run() -> dict:
    """The survey of `make survey`, range by range; prints each figure set as it is measured."""
    simulated = simulated_cluster()
    print(f"  simulated cluster: {simulated['workers']} workers kept {simulated['utilisation']:.1%} busy over "
          f"{simulated['chunks']:,} chunks, {simulated['peak_in_flight']} in flight at most, driver memory "
          f"{simulated['driver_peak_traced_mb']} MB", flush=True)
    first, last, target = STANDARD
    standard = measure(first, last)
    standard["target_seconds"] = target
    standard["within_target"] = standard["seconds"] <= target
    print(json.dumps(standard, indent=2), flush=True)
    results = {"simulated_cluster": simulated, "standard": standard}
    for variant in VARIANTS:
        results[variant] = measure(*VARIANT_DEALS, variant=variant)
        print(json.dumps(results[variant], indent=2), flush=True)
    total = round(sum(r["seconds"] for k, r in results.items() if k != "simulated_cluster"), 1)
    results["all_seconds"] = total
    results["all_within_target"] = total <= ALL_TARGET
    print(f"  the whole survey from scratch: {total} s (target {ALL_TARGET:.0f} s)", flush=True)
    return results


if __name__ == "__main__":
    run()
