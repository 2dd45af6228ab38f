"""The survey's driver keeps a large cluster busy in bounded memory (issue 25): a simulated pool
of 1,000 workers on a virtual clock, chunks of random length (a few a hundred times longer)."""
import random
import tracemalloc

from verify import survey
from verify.survey import run as run_module
from verify.survey.simulated import SimulatedPool


def _durations(seed: int):
    rng = random.Random(seed)
    # Chunks take half a second to a second and a half; one in a hundred five times as long (a
    # hard deal). The longest is short beside the whole run, as on a real survey, so what idles
    # the workers is the driver, not the last chunk.
    return lambda: rng.uniform(0.5, 1.5) * (5 if rng.random() < 0.01 else 1)


def _run(tmp_path, workers: int, last: int, seed: int = 1):
    pool = SimulatedPool(workers, _durations(seed))
    run = survey.run_survey(1, last, chunk=1, cache_root=tmp_path, progress=False, pool=pool, keep=False)
    return pool, run


def test_a_thousand_workers_stay_busy(tmp_path, monkeypatch):
    written = []
    monkeypatch.setattr(run_module, "write_chunk", lambda folder, records, prefix="deals": written.append(len(records)))
    pool, run = _run(tmp_path, 1000, 200_000)  # 200 chunks per worker
    assert run.tally.deals == 200_000 and run.computed == 200_000 and sum(written) == 200_000
    assert pool.utilisation() >= 0.90, pool.utilisation()
    # About two tasks per worker are in flight, never more.
    assert 1000 < run.peak_in_flight <= 2000


def test_what_the_driver_holds_does_not_grow_with_the_range(tmp_path, monkeypatch):
    monkeypatch.setattr(run_module, "write_chunk", lambda folder, records, prefix="deals": None)
    peaks = []
    for folder, last in (("a", 20_000), ("b", 80_000)):
        tracemalloc.start()
        peaks.append(_run(tmp_path / folder, 100, last)[1])
        peaks[-1].traced = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    short, long = peaks
    assert long.traced < 1.5 * short.traced, (short.traced, long.traced)  # four times the range, same memory
    assert short.peak_in_flight == long.peak_in_flight == 200  # two per slot, whatever the range


def test_every_deal_is_written_once_and_counted_once(tmp_path):
    _, run = _run(tmp_path, 50, 2_000, seed=7)
    records, _ = survey.load_cache(survey.cache_dir("standard", tmp_path))
    assert sorted(records) == list(range(1, 2_001))
    assert run.tally.lost == 2_000 and run.tally.redecided == 2_000
    again = survey.run_survey(1, 2_000, chunk=1, cache_root=tmp_path, progress=False,
                              pool=SimulatedPool(50, _durations(8)))
    assert again.computed == 0 and len(again.results) == 2_000
