"""The survey on a Dask cluster (verify/cluster.py, `verify survey --scheduler ADDRESS`).

A real scheduler and two real workers on 127.0.0.1, each a process of its own started with the
`dask` command: the cluster's cache equals a local run's, a worker killed in the middle loses
and duplicates nothing, and a scheduler that is not there is one `error:` line. Every process a
test starts is killed with its process group when the test ends, passed or failed.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from distributed import Client  # the cluster extra, which `make test` installs

from verify import cli, cluster, survey
from verify.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
DASK = Path(sys.executable).with_name("dask")
FIRST, LAST, CHUNK = 1, 100, 5  # 20 tasks: a few seconds on two workers, long enough to kill one midway
TIMINGS = ("ms", "check_ms")  # the only fields of a record that differ between two runs
START_TIMEOUT = 60  # seconds for the scheduler and the workers to come up on a busy 2-core machine


class Cluster:
    """A scheduler and its workers, each `dask` process in a process group of its own (its
    Node children with it), so that one killpg ends everything it started."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.processes: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.address = ""

    def _start(self, *args: str, log: str) -> subprocess.Popen:
        with open(self.folder / log, "w") as out:
            process = subprocess.Popen([str(DASK), *args], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                       env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
        self.processes.append(process)
        return process

    def start(self, workers: int) -> None:
        scheduler_file = self.folder / "scheduler.json"
        self._start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(scheduler_file), log="scheduler.log")
        for i in range(workers):
            # No nanny: a killed worker stays dead, as a lost machine would.
            self.workers.append(self._start("worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                            "--nworkers", "1", "--no-nanny", "--no-dashboard",
                                            "--local-directory", str(self.folder / f"worker-{i}"),
                                            log=f"worker-{i}.log"))
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, self.log("scheduler.log")
            assert self.processes[0].poll() is None, self.log("scheduler.log")
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole, but give its writer the moment to finish
        self.address = json.loads(scheduler_file.read_text())["address"]
        with Client(self.address, set_as_default=False, timeout=START_TIMEOUT) as client:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)

    def log(self, name: str) -> str:
        path = self.folder / name
        return path.read_text()[-2000:] if path.exists() else f"(no {name})"

    def stop(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:  # already gone, with all its group
                pass
            process.wait(timeout=30)


@contextmanager
def running_cluster(folder: Path, workers: int = 2):
    folder.mkdir(parents=True, exist_ok=True)
    c = Cluster(folder)
    try:
        c.start(workers)
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: FIRST … LAST surveyed by local processes into a cache of its own."""
    root = tmp_path_factory.mktemp("local-cache")
    run = survey.run_survey(FIRST, LAST, chunk=CHUNK, cache_root=root, progress=False)
    return root, run


def cache_files(cache_root: Path) -> dict[str, dict]:
    """Each cache file of the standard survey → its records, timings left out."""
    files = {}
    for path in sorted(survey.cache_dir("standard", cache_root).glob("*.json")):
        deals = json.loads(path.read_text())["deals"]
        files[path.name] = {n: {k: v for k, v in r.items() if k not in TIMINGS} for n, r in deals.items()}
    return files


def test_the_cluster_fills_the_same_cache_as_a_local_run(tmp_path, local_run):
    local_root, _ = local_run
    with running_cluster(tmp_path / "cluster") as c:
        run = subprocess.run([sys.executable, "-m", "verify", "survey", "--deals", f"{FIRST}-{LAST}",
                              "--chunk", str(CHUNK), "--cache", str(tmp_path / "cache"), "--scheduler", c.address],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"survey: on the Dask cluster at {c.address}: 2 worker(s), 2 thread(s)" in run.stderr
    assert f"survey standard {FIRST}-{LAST}: {LAST - FIRST + 1}/{LAST - FIRST + 1} deals" in run.stderr  # progress
    assert f"deals:      {LAST - FIRST + 1} ({LAST - FIRST + 1} decided now" in run.stdout
    # Same file names (the same chunks), same verdicts, games, node counts and checks.
    assert cache_files(tmp_path / "cache") == cache_files(local_root)


def test_a_worker_killed_midway_loses_and_duplicates_nothing(tmp_path, local_run):
    local_root, local = local_run
    directory = survey.cache_dir("standard", tmp_path / "cache")
    seen = {}  # what the killer saw when it struck
    finished = threading.Event()

    def kill_a_busy_worker(client: Client, workers: dict[str, subprocess.Popen]) -> None:
        while not finished.is_set():
            busy = {w: keys for w, keys in client.processing().items() if keys}
            done = len(list(directory.glob("*.json")))
            if done >= 2 and busy:
                victim = sorted(busy)[0]
                workers[victim].kill()  # SIGKILL: no goodbye to the scheduler
                seen.update(victim=victim, tasks=len(busy[victim]), files=done)
                return
            time.sleep(0.05)

    with running_cluster(tmp_path / "cluster") as c:
        pool = cluster.DaskPool(cluster.connect(c.address), c.address)
        try:
            pids = pool.client.run(os.getpid)
            workers = {address: next(p for p in c.workers if p.pid == pid) for address, pid in pids.items()}
            killer = threading.Thread(target=kill_a_busy_worker, args=(pool.client, workers))
            killer.start()
            try:
                run = survey.run_survey(FIRST, LAST, chunk=CHUNK, cache_root=tmp_path / "cache", progress=False,
                                        pool=pool)
            finally:
                finished.set()
                killer.join()
            left = pool.client.nthreads()
        finally:
            pool.close()
    total = LAST - FIRST + 1
    assert seen, "the survey ended before a worker could be killed in the middle"
    assert seen["tasks"] >= 1 and seen["files"] < total // CHUNK, seen  # it died holding unfinished work
    assert seen["victim"] not in left and len(left) == 1
    # Nothing lost, nothing twice: each deal in exactly one file, one file per chunk.
    files = cache_files(tmp_path / "cache")
    deals = [int(n) for records in files.values() for n in records]
    assert sorted(deals) == list(range(FIRST, LAST + 1))
    assert len(files) == total // CHUNK
    assert files == cache_files(local_root)
    assert survey.summarise(run.results) == survey.summarise(local.results)
    assert survey.load_cache(directory)[1] == []  # every file verifies


def test_a_worker_with_other_code_refuses_the_task():
    with pytest.raises(cluster.CodeMismatch, match="other engine, decider or checker files"):
        cluster.on_same_code("0" * 16, survey.check_deal, (2, {}, {}))
    assert cluster.on_same_code(cluster.code_digest(), len, (1, 2)) == 2


def test_an_unreachable_scheduler_is_one_error_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cluster, "SCHEDULER_TIMEOUT", 1.0)
    address = "tcp://127.0.0.1:9"  # the discard port: nothing listens there
    code = cli.main(["survey", "--deals", "1-10", "--cache", str(tmp_path), "--scheduler", address])
    err = capsys.readouterr().err
    assert code == InputError.exit_code
    assert err == (f"error: no Dask scheduler answers at '{address}' (waited 1 s); start one with "
                   "`dask scheduler`, or check the address\n")
    assert cli.main(["survey", "--deals", "1-10", "--scheduler", "nonsense"]) == InputError.exit_code
    assert capsys.readouterr().err.startswith("error: --scheduler 'nonsense': not a Dask address (")
    assert cli.main(["survey", "--deals", "1-10", "--scheduler", address, "--jobs", "2"]) == InputError.exit_code
    assert "--jobs counts local processes" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


@pytest.mark.parametrize("address", ["", "tcp://", "tcp://a:b", "tcp://[::1", "\x00", "inproc://x", "udp://1.2.3.4:5",
                                     "tls://127.0.0.1:9", "ucx://127.0.0.1:9", "tcp://127.0.0.1:-5",
                                     "tcp://" + "9" * 5000, "tcp://127.0.0.1:9\n"])
def test_any_scheduler_address_is_refused_in_one_line(address):
    with pytest.raises(survey.ClusterError) as refused:
        cluster.connect(address, timeout=0.2)
    message = str(refused.value)
    assert message.isprintable() and len(message) < 600, message
