"""A publish, a prune, a rollback and a `build --dest` killed at every single change they make
to the file system, one run per change, never leave DEST without a complete, digest-correct
site; the next run recovers, rollback still returns to what was live before, and no half
version ever carries a version's name.

Every change goes through generator/publish/fileops.py; `fileops.before` is called before each one.
A "kill" at change k makes change k and every later one raise (a killed process changes
nothing more, its `finally` blocks included). A last test kills real processes with SIGKILL."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.publish import fileops, deploy as publish

from generator.publish import versions
from helpers.numbered_sites import live_number, make_site, shown

ROOT = Path(__file__).resolve().parents[3]


class Killed(BaseException):
    """Not an Exception: no `except` of the code under test may swallow it."""


@pytest.fixture(autouse=True)
def quick_records(monkeypatch):
    """git is asked once per sealed site; here it need not be."""
    monkeypatch.setattr(versions, "source_state", lambda root: ("f" * 40, False))
    yield
    fileops.before = None


def staged(tmp: Path, number: int) -> Path:
    stage = tmp / f".site.staging-{os.getpid()}-{number:08x}" / "site"
    stage.mkdir(parents=True)
    make_site(stage, number)
    return stage


def every_version_complete(dest: Path) -> None:
    for name in publish.versions(dest):
        assert versions.problem(publish.versions_folder(dest) / name) is None, f"{name} looks like a version but is not whole"


def publish_number(tmp: Path, dest: Path, number: int) -> None:
    publish.install(staged(tmp, number), dest, versioned=True)


def killed_at(k: int, action) -> bool:
    """Runs action with every change from the k-th on failing; True when it was stopped."""
    count = [0]

    def before(op, *paths):
        count[0] += 1
        if count[0] >= k:
            raise Killed(f"change {k}: {op} {paths}")

    fileops.before = before
    try:
        action()
        return False
    except Killed:
        return True
    finally:
        fileops.before = None


def changes_of(make_state, action) -> int:
    """How many changes an uninterrupted run of action makes (from a fresh state)."""
    count = [0]
    state = make_state()
    fileops.before = lambda *a: count.__setitem__(0, count[0] + 1)
    try:
        action(*state)
    finally:
        fileops.before = None
    return count[0]


def each_kill(tmp_path, make_state, action):
    """Yields (k, state) for a run of action killed at each change k in turn, on a fresh state."""
    counter = tmp_path / "count"
    counter.mkdir()
    total = changes_of(lambda: make_state(counter), action)
    assert total >= 5, total  # a rollback makes 5: the history's three, the link's two
    for k in range(1, total + 1):
        here = tmp_path / f"k{k}"
        here.mkdir()
        state = make_state(here)
        assert killed_at(k, lambda: action(*state)), f"the run made fewer than {k} changes"
        yield k, state


def test_publish_and_prune_killed_at_every_change(tmp_path):
    def start(here):
        dest = here / "site"
        for number in (1, 2, 3, 4):
            publish_number(here, dest, number)
        return here, dest

    def action(here, dest):
        publish_number(here, dest, 5)

    for k, (here, dest) in each_kill(tmp_path, start, action):
        live = live_number(dest)
        assert live in (4, 5), (k, live)
        every_version_complete(dest)
        # Afterwards: rollback goes to what was live before, and the next publish is clean.
        name, _ = publish.rollback(dest)
        assert live_number(dest) == live - 1, (k, live)
        publish_number(here, dest, 6)
        assert live_number(dest) == 6
        publish.rollback(dest)
        assert live_number(dest) == live - 1, k
        every_version_complete(dest)
        leftovers = [p.name for p in publish.versions_folder(dest).iterdir() if p.name.startswith(".") and p.name != ".lock"]
        assert leftovers == [], (k, leftovers)


def test_rollback_killed_at_every_change(tmp_path):
    def start(here):
        dest = here / "site"
        for number in (1, 2, 3):
            publish_number(here, dest, number)
        return here, dest

    for k, (here, dest) in each_kill(tmp_path, start, lambda here, dest: publish.rollback(dest)):
        live = live_number(dest)
        assert live in (3, 2), (k, live)
        publish.rollback(dest)
        assert live_number(dest) == live - 1, k


@pytest.mark.parametrize("exchange", ["exchange", "two renames"])
def test_first_versioned_publish_over_a_plain_folder_killed_at_every_change(tmp_path, monkeypatch, exchange):
    if exchange == "two renames":
        def unsupported(a, b):
            raise fileops.ExchangeUnsupported(38, "not here")
        monkeypatch.setattr(fileops, "exchange", unsupported)

    def start(here):
        dest = here / "site"
        publish.install(staged(here, 1), dest, versioned=False)  # `make site`-style plain folder
        assert dest.is_dir() and not dest.is_symlink()
        return here, dest

    for k, (here, dest) in each_kill(tmp_path, start, lambda here, dest: publish_number(here, dest, 2)):
        if not os.path.lexists(dest):
            # Only between the two renames, where the system cannot exchange names: the history
            # knows what was live, and status says so and rollback restores it.
            assert exchange == "two renames", k
            lines, healthy = publish.status(dest)
            assert not healthy and "MISSING" in lines[0]
            publish.rollback(dest)
            assert live_number(dest) == 1
        elif dest.is_symlink():
            assert live_number(dest) in (1, 2), k
        else:
            assert shown(dest) == 1, f"change {k}: the plain folder lost files"
        every_version_complete(dest)
        publish_number(here, dest, 3)
        assert live_number(dest) == 3
        publish.rollback(dest)
        assert live_number(dest) in (1, 2), k


@pytest.mark.parametrize("exchange", ["exchange", "two renames"])
def test_build_over_its_own_folder_killed_at_every_change(tmp_path, monkeypatch, exchange):
    if exchange == "two renames":
        def unsupported(a, b):
            raise fileops.ExchangeUnsupported(38, "not here")
        monkeypatch.setattr(fileops, "exchange", unsupported)

    def start(here):
        dest = here / "site"
        publish.install(staged(here, 1), dest, versioned=False)
        return here, dest

    action = lambda here, dest: publish.install(staged(here, 2), dest, versioned=False)  # noqa: E731
    for k, (here, dest) in each_kill(tmp_path, start, action):
        if exchange == "exchange":
            assert shown(dest) in (1, 2), k  # never missing, never mixed
        else:
            assert shown(dest) in (1, 2, None) and (shown(dest) or not os.path.lexists(dest)), k  # the documented gap


# ---- real processes, killed with SIGKILL --------------------------------------------------

CHILD = """
import sys, time
from pathlib import Path
from generator.publish import fileops, deploy as publish
k, count = int(sys.argv[1]), [0]
def before(op, *paths):
    count[0] += 1
    if count[0] == k:
        print("at", op, flush=True)
        time.sleep(120)
fileops.before = before
publish.install(Path(sys.argv[2]), Path(sys.argv[3]), versioned=True)
print("done", count[0], flush=True)
"""


def test_a_publish_killed_with_sigkill_leaves_a_complete_site(tmp_path):
    def run_child(here, dest, k):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(k), str(staged(here, 5)), str(dest)],
                                 cwd=ROOT, stdout=subprocess.PIPE, text=True)
        line = child.stdout.readline()
        if line.startswith("at"):
            child.send_signal(signal.SIGKILL)
        child.wait(30)
        child.stdout.close()
        return line

    def start(name):
        here = tmp_path / name
        here.mkdir()
        dest = here / "site"
        for number in (1, 2, 3, 4):
            publish_number(here, dest, number)
        return here, dest

    here, dest = start("count")
    total = int(run_child(here, dest, 10**9).split()[1])
    for k in sorted({1, total // 4, total // 2, 3 * total // 4, total - 1, total}):
        here, dest = start(f"k{k}")
        assert run_child(here, dest, k).startswith("at"), k
        assert live_number(dest) in (4, 5), k
        every_version_complete(dest)
        publish_number(here, dest, 6)
        assert live_number(dest) == 6
