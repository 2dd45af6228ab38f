"""The survey on a Dask cluster (verify/cluster.py, `verify survey --scheduler ADDRESS`).

A real scheduler and two real workers on 127.0.0.1, each a process of its own started with the
`dask` command: the cluster's cache equals a local run's, a worker killed in the middle loses
and duplicates nothing, and a scheduler that is not there is one `error:` line. The same over
TLS with the certificates of `verify cluster-certs`, where a client without them is refused in
one `error:` line, and so is a plain tcp:// address on a public network. Every process a test
starts is killed with its process group when the test ends, passed or failed.
"""
import asyncio
import datetime
import concurrent.futures
import json
import os
import shutil
import signal
import ssl
import stat
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psutil  # distributed's dependency
import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID
from distributed import Client  # the cluster extra, which `make test` installs
from distributed.comm import CommClosedError, connect as comm_connect

from verify import cli, cluster, cluster_certs, cluster_security, survey
from verify.errors import ClusterError, InputError

ROOT = Path(__file__).resolve().parents[3]
DASK = Path(sys.executable).with_name("dask")
FIRST, LAST, CHUNK = 1, 100, 5  # 20 tasks: a few seconds on two workers, long enough to kill one midway
TIMINGS = ("ms", "check_ms")  # the only fields of a record that differ between two runs
START_TIMEOUT = 60  # seconds for the scheduler and the workers to come up on a busy 2-core machine
# As docs/dev/cluster.md says: even with --no-dashboard, Dask's HTTP server (health, metrics, info pages)
# listens on every interface unless --dashboard-address binds it.
LOOPBACK_ONLY = ("--no-dashboard", "--dashboard-address", "127.0.0.1:0")


class Cluster:
    """A scheduler and its workers, each `dask` process in a process group of its own (its
    Node children with it), so that one killpg ends everything it started."""

    def __init__(self, folder: Path, pythonpath: Path = ROOT):
        self.folder, self.pythonpath = folder, pythonpath
        self.processes: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.address = ""

    def _start(self, *args: str, log: str) -> subprocess.Popen:
        with open(self.folder / log, "w") as out:
            process = subprocess.Popen([str(DASK), *args], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                       env={**os.environ, "PYTHONPATH": str(self.pythonpath)}, start_new_session=True)
        self.processes.append(process)
        return process

    def start(self, workers: int, tls: tuple[str, ...] = (), security=None) -> None:
        """`tls`: the --tls-* options of scheduler and workers; `security`: this test's own Client's."""
        scheduler_file = self.folder / "scheduler.json"
        protocol = ("--protocol", "tls") if tls else ()
        self._start("scheduler", *protocol, "--host", "127.0.0.1", "--port", "0", *LOOPBACK_ONLY, *tls,
                    "--scheduler-file", str(scheduler_file), log="scheduler.log")
        for i in range(workers):
            # No nanny: a killed worker stays dead, as a lost machine would.
            self.workers.append(self._start("worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                                            "--nworkers", "1", "--no-nanny", "--host", "127.0.0.1",
                                            *LOOPBACK_ONLY, *tls, "--local-directory", str(self.folder / f"worker-{i}"),
                                            log=f"worker-{i}.log"))
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, self.log("scheduler.log")
            assert self.processes[0].poll() is None, self.log("scheduler.log")
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole, but give its writer the moment to finish
        self.address = json.loads(scheduler_file.read_text())["address"]
        with Client(self.address, set_as_default=False, timeout=START_TIMEOUT, security=security) as client:
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
def running_cluster(folder: Path, workers: int = 2, pythonpath: Path = ROOT, **tls):
    folder.mkdir(parents=True, exist_ok=True)
    c = Cluster(folder, pythonpath)
    try:
        c.start(workers, **tls)
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


def test_the_cluster_fills_the_same_cache_as_a_local_run(tmp_path, local_run, certificates, capsys):
    local_root, _ = local_run
    with running_cluster(tmp_path / "cluster") as c:
        run = subprocess.run([sys.executable, "-m", "verify", "survey", "--deals", f"{FIRST}-{LAST}",
                              "--chunk", str(CHUNK), "--cache", str(tmp_path / "cache"), "--scheduler", c.address],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        # TLS to this plain scheduler: one line, nothing written.
        tls = c.address.replace("tcp://", "tls://")
        assert _survey_refused(tmp_path / "tls", capsys, "--scheduler", tls, "--security",
                               str(certificates[0] / "client.yaml")) == (
            f"error: the Dask scheduler at '{tls}' closed the connection: it does not accept the security file's "
            "certificate (not signed by its CA), or does not speak TLS\n")
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


def test_a_cluster_that_cannot_import_the_project_is_one_error_line(tmp_path, capsys):
    """Issue 40: a cluster whose Python lacks the project gave the driver a 49-line remote
    traceback. Its processes here meet, first on PYTHONPATH, a `verify` that fails as a missing
    one does (the shared virtualenv would otherwise find the project), so no task can be read there."""
    stranger = tmp_path / "elsewhere" / "verify"
    stranger.mkdir(parents=True)
    (stranger / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'verify'\", name='verify')\n")
    with running_cluster(tmp_path / "cluster", workers=1, pythonpath=stranger.parent) as c:
        code = cli.main(["survey", "--deals", "1-5", "--chunk", "5", "--cache", str(tmp_path / "cache"),
                         "--scheduler", c.address, "--quiet"])
    err = capsys.readouterr().err
    assert code == ClusterError.exit_code, err
    assert err.count("\n") == 1 and err.startswith(f"error: the Dask cluster at '{c.address}' cannot import "
                                                     "this project's code (its scheduler or a worker"), err


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


# ---------------------------------------------------------------- TLS, and who may connect

TLS_FIRST, TLS_LAST = 1, 10  # two chunks: the TLS cluster runs a few deals only (2 cores)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    """Two sets of `verify cluster-certs`: the cluster's ('ours') and a stranger's ('theirs')."""
    root = tmp_path_factory.mktemp("certs")
    for name in ("ours", "theirs"):
        assert cli.main(["cluster-certs", str(root / name)]) == 0
    return root / "ours", root / "theirs"


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory, certificates):
    """A scheduler and two workers on 127.0.0.1 speaking TLS only, with 'ours' certificates."""
    ours, _ = certificates
    tls = ("--tls-ca-file", str(ours / "ca.pem"), "--tls-cert", str(ours / "cluster.pem"),
           "--tls-key", str(ours / "cluster-key.pem"))
    with running_cluster(tmp_path_factory.mktemp("tls-cluster"), tls=tls,
                         security=cluster_security.load_security(ours / "client.yaml")) as c:
        yield c


def listening_addresses(pid: int) -> set[str]:
    return {c.laddr.ip for c in psutil.Process(pid).net_connections(kind="inet") if c.status == psutil.CONN_LISTEN}


def test_a_tls_cluster_fills_the_same_cache_as_a_local_run(tmp_path, local_run, tls_cluster, certificates):
    ours, _ = certificates
    assert tls_cluster.address.startswith("tls://127.0.0.1:")
    run = subprocess.run([sys.executable, "-m", "verify", "survey", "--deals", f"{TLS_FIRST}-{TLS_LAST}",
                          "--chunk", str(CHUNK), "--cache", str(tmp_path / "cache"), "--scheduler", tls_cluster.address,
                          "--security", str(ours / "client.yaml")], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"survey: on the Dask cluster at {tls_cluster.address} (TLS): 2 worker(s), 2 thread(s)" in run.stderr
    files = cache_files(tmp_path / "cache")
    local = {name: records for name, records in cache_files(local_run[0]).items()
             if all(TLS_FIRST <= int(n) <= TLS_LAST for n in records)}
    assert len(files) == (TLS_LAST - TLS_FIRST + 1) // CHUNK and files == local
    # The flags of docs/dev/cluster.md: no port of the scheduler or of a worker (dashboard's HTTP included) on
    # any other interface than loopback.
    for process in tls_cluster.processes:
        listening = listening_addresses(process.pid)
        assert listening == {"127.0.0.1"}, (process.args, listening)


def _survey_refused(tmp_path, capsys, *options) -> str:
    """The one stderr line of a survey the cluster must not run; nothing is written."""
    code = cli.main(["survey", "--deals", f"{TLS_FIRST}-{TLS_LAST}", "--chunk", str(CHUNK),
                     "--cache", str(tmp_path / "cache"), *options])
    err = capsys.readouterr().err
    assert code == InputError.exit_code, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert not (tmp_path / "cache").exists()
    return err


def _run_in_own_thread(coroutine):
    """asyncio.run in a thread of its own: a Playwright test run before this one in the same pytest
    worker leaves an event loop running in the main thread, where asyncio.run is refused."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_the_tls_scheduler_refuses_a_client_without_the_certificate(tmp_path, tls_cluster, certificates, capsys):
    ours, theirs = certificates
    address = tls_cluster.address
    # The scheduler itself, not only our command line: a TLS client that trusts the cluster's CA
    # but shows no certificate is cut off in the handshake.
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ours / "ca.pem"))
    context.check_hostname = False
    with pytest.raises(CommClosedError):
        _run_in_own_thread(comm_connect(address, timeout=5, ssl_context=context))
    # A certificate signed by another CA, with the cluster's CA to check the scheduler by.
    stranger = tmp_path / "stranger.yaml"
    stranger.write_text(f"ca-file: {ours / 'ca.pem'}\ncert: {theirs / 'client.pem'}\nkey: {theirs / 'client-key.pem'}\n")
    for _ in range(5):  # the refusal reaches us as an alert or as a closed stream, by the timing: the same line
        assert _survey_refused(tmp_path, capsys, "--scheduler", address, "--security", str(stranger)) == (
            f"error: the Dask scheduler at '{address}' closed the connection: it does not accept the security "
            "file's certificate (not signed by its CA), or does not speak TLS\n")
    # Another cluster's whole set: our side refuses the scheduler's certificate.
    assert "shows a certificate that the security file's ca-file did not sign" in _survey_refused(
        tmp_path, capsys, "--scheduler", address, "--security", str(theirs / "client.yaml"))
    # No certificate at all, and plain tcp:// to the TLS port.
    assert "tls:// needs the cluster's certificates: --security FILE" in _survey_refused(
        tmp_path, capsys, "--scheduler", address)
    assert "closed the connection: if it runs with TLS, give its tls:// address and --security FILE" in \
        _survey_refused(tmp_path, capsys, "--scheduler", address.replace("tls://", "tcp://"))
    assert "--security is for a tls:// address" in _survey_refused(
        tmp_path, capsys, "--scheduler", address.replace("tls://", "tcp://"), "--security", str(ours / "client.yaml"))


@pytest.mark.parametrize("address", ["tcp://8.8.8.8:8786", "tcp://[2001:4860:4860::8888]:8786",
                                     "tcp://[::ffff:8.8.8.8]:8786", "tcp://224.0.0.1:8786"])
def test_a_plain_address_on_a_public_network_is_refused_before_any_connection(address, tmp_path, capsys,
                                                                              monkeypatch):
    def no_connection(*args, **kwargs):
        raise AssertionError("connected although the address was refused")
    monkeypatch.setattr(cluster, "_run_in_own_thread", no_connection)
    err = _survey_refused(tmp_path, capsys, "--scheduler", address)
    assert err.startswith(f"error: --scheduler '{address}': plain tcp:// to an address outside loopback and the "
                          "private ranges: anyone on the way could run code on the workers and on this machine; "
                          "use tls:// with --security FILE"), err
    assert "--insecure if that network is private all the same" in err
    cluster_security.check_address(address, None, insecure=True)  # the owner's explicit choice


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "tcp://localhost:8786", "tcp://[::1]:8786",
                                     "tcp://10.1.2.3:8786", "tcp://172.16.0.9:8786", "tcp://192.168.1.5:8786",
                                     "tcp://100.64.7.7:8786", "tcp://169.254.1.1:8786", "tcp://[fd00::5]:8786"])
def test_a_plain_address_on_loopback_or_a_private_network_passes(address):
    cluster_security.check_address(address, None, insecure=False)


@pytest.mark.parametrize("content, fault", [
    ("", "wants the keys ca-file, cert, key"),
    ("- ca.pem\n", "wants the keys ca-file, cert, key"),
    ("ca-file: ca.pem\ncert: client.pem\n", "key is missing (the driver's private key, a PEM file)"),
    ("ca-file: ca.pem\ncert: client.pem\nkey: client-key.pem\nverify: no\n", "line 4: unknown key 'verify'"),
    ("ca-file: ca.pem\ncert: 12\nkey: client-key.pem\n", "line 2: cert wants a file name, got 12"),
    ("ca-file: nowhere.pem\ncert: client.pem\nkey: client-key.pem\n", "line 1: ca-file 'nowhere.pem': no such file"),
    ("ca-file: ca.pem\ncert: client.pem\nkey: cluster-key.pem\n", "are not a CA, a certificate and its key in PEM"),
    ("ca-file: client.yaml\ncert: client.pem\nkey: client-key.pem\n", "are not a CA, a certificate and its key in PEM"),
    ("ca-file: ca.pem\nca-file: ca.pem\n", "line 2: duplicate key"),
])
def test_a_bad_security_file_is_one_error_line(content, fault, certificates, tmp_path, capsys, monkeypatch):
    ours, _ = certificates
    shutil.copytree(ours, tmp_path / "certs")
    security = tmp_path / "certs" / "client.yaml"
    security.write_text(content)
    monkeypatch.setattr(cluster, "_run_in_own_thread", lambda *a: pytest.fail("connected with a bad security file"))
    err = _survey_refused(tmp_path, capsys, "--scheduler", "tls://127.0.0.1:9", "--security", str(security))
    assert err.startswith(f"error: --security {security}"), err
    assert fault in err, err


def test_an_expired_certificate_is_named_as_expired(tmp_path, capsys, monkeypatch):
    """Issue 40: an expired client certificate made the scheduler hang up, reported as "not
    signed by its CA". The security file is refused before any connection, saying when it expired."""
    folder = tmp_path / "old"
    folder.mkdir()
    then = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=30)
    ca, ca_key = cluster_certs.make_ca(365, then)
    client, client_key = cluster_certs.make_end_certificate(ca, ca_key, "pyramide-client",
                                                            [ExtendedKeyUsageOID.CLIENT_AUTH], 2, then)
    for name, data in {"ca.pem": cluster_certs._pem(ca), "client.pem": cluster_certs._pem(client),
                       "client-key.pem": cluster_certs._key_pem(client_key),
                       "client.yaml": cluster_certs.CLIENT_YAML.encode()}.items():
        (folder / name).write_bytes(data)
    monkeypatch.setattr(cluster, "_run_in_own_thread", lambda *a: pytest.fail("connected with an expired certificate"))
    err = _survey_refused(tmp_path, capsys, "--scheduler", "tls://127.0.0.1:9", "--security", str(folder / "client.yaml"))
    ended = then + datetime.timedelta(days=2)
    assert err.rstrip("\n") == (f"error: --security {folder / 'client.yaml'}, line 5: cert 'client.pem' expired on "
                   f"{ended:%Y-%m-%d %H:%M} UTC; make a new set with `verify cluster-certs DIR` and hand it round "
                   "the cluster"), err


def test_cluster_certs_writes_a_ca_and_two_certificates_it_signed(certificates, capsys):
    ours, theirs = certificates
    assert sorted(p.name for p in ours.iterdir()) == sorted(cluster_certs.FILES)
    assert stat.S_IMODE(ours.stat().st_mode) == 0o700
    for key in ("cluster-key.pem", "client-key.pem"):
        assert stat.S_IMODE((ours / key).stat().st_mode) == 0o600
    # The CA's key is nowhere: nobody can sign another certificate for this cluster.
    assert sorted(p.name for p in ours.iterdir() if b"PRIVATE KEY" in p.read_bytes()) == ["client-key.pem",
                                                                                          "cluster-key.pem"]
    ca = x509.load_pem_x509_certificate((ours / "ca.pem").read_bytes())
    usages = {}
    for name in ("cluster", "client"):
        cert = x509.load_pem_x509_certificate((ours / f"{name}.pem").read_bytes())
        cert.verify_directly_issued_by(ca)
        usages[name] = set(cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value)
    with pytest.raises(Exception):  # another cluster's CA signed none of ours
        x509.load_pem_x509_certificate((ours / "client.pem").read_bytes()).verify_directly_issued_by(
            x509.load_pem_x509_certificate((theirs / "ca.pem").read_bytes()))
    assert usages["cluster"] == {ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH}
    assert usages["client"] == {ExtendedKeyUsageOID.CLIENT_AUTH}  # a driver's key cannot pose as the scheduler
    # Never over what is there.
    before = {p.name: p.read_bytes() for p in ours.iterdir()}
    assert cli.main(["cluster-certs", str(ours)]) == InputError.exit_code
    assert capsys.readouterr().err == (f"error: cluster-certs {ours}: the folder is not empty; certificates and "
                                       "keys are never overwritten, give a new folder\n")
    assert {p.name: p.read_bytes() for p in ours.iterdir()} == before


def test_cluster_certs_refuses_a_file_a_link_and_a_bad_validity(tmp_path, certificates, capsys):
    ours, _ = certificates
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "empty")
    for target in (ours / "ca.pem", tmp_path / "link"):
        assert cli.main(["cluster-certs", str(target)]) == InputError.exit_code
        assert capsys.readouterr().err == f"error: cluster-certs {target}: not a folder; give a new or empty folder\n"
    for days in ("0", "3651", "1e3"):
        assert cli.main(["cluster-certs", str(tmp_path / "new"), "--days", days]) == InputError.exit_code
        assert capsys.readouterr().err.startswith("error: verify cluster-certs: argument --days: wants a whole number")
    assert list((tmp_path / "empty").iterdir()) == [] and not (tmp_path / "new").exists()


def test_security_and_insecure_need_a_scheduler(capsys):
    assert cli.main(["survey", "--deals", "1-10", "--insecure"]) == InputError.exit_code
    assert capsys.readouterr().err == ("error: --security and --insecure are about the cluster of --scheduler "
                                       "ADDRESS; a local survey has none\n")
