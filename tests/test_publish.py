"""Publish and `build --dest` never destroy: a folder, file or repository that is not a site
made here is refused and left as it was; a published site is world-readable, switched in one
step and can be rolled back; staging leftovers are cleaned; two builds never overlap.

The real MkDocs build is replaced by a tiny fake site, so these tests take a second."""
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from generator import publish, settings as generator_settings, site
from generator.__main__ import main

FAKE = site.Gathered(languages=[], default="nb", rendered={}, facts={"contact": {"email": "post@pyramide.test"},
                                                                        "site_url": "https://pyramide.test/"})


@pytest.fixture
def fake_build(monkeypatch, tmp_path):
    """site.build without MkDocs: each build writes index.html holding its number. Returns the
    list of (stage, sources) each build was given."""
    calls = []

    def write_site(languages, default, rendered, stage, sources, site_url=None):
        calls.append((stage, sources))
        (stage / "nb").mkdir(parents=True)
        (stage / "index.html").write_text(f"site {len(calls)}")
        (stage / "nb" / "index.html").write_text("nb")
        sources.mkdir(parents=True, exist_ok=True)

    monkeypatch.setattr(site, "gather", lambda bundle, docs: FAKE)
    monkeypatch.setattr(site, "write_site", write_site)
    monkeypatch.setattr(site, "check_site", lambda *args: [])
    monkeypatch.setattr(publish, "LOCK", tmp_path / "build.lock")
    return calls


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ---- what is refused -----------------------------------------------------------------------

@pytest.mark.parametrize("command", [["publish"], ["build", "--dest"]])
def test_a_folder_not_made_here_is_refused_and_left_alone(fake_build, capsys, tmp_path, command):
    dest = tmp_path / "mine"
    dest.mkdir()
    (dest / "thesis.txt").write_text("years of work")
    code, err = run(capsys, *command, str(dest))
    assert code == 2
    assert err == (f"error: {dest}: the folder exists and was not made by this generator (no .pyramide-published "
                   "in it); nothing was changed. Move it away or choose a new folder\n")
    assert (dest / "thesis.txt").read_text() == "years of work"
    assert listing(tmp_path) == ["mine"]
    assert fake_build == []  # refused before building anything


def test_the_repository_and_folders_containing_it_are_refused(fake_build, capsys, monkeypatch, tmp_path):
    # A stand-in repository, so that even a broken guard cannot touch the real one.
    repo = tmp_path / "outer" / "repo"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setattr(publish, "ROOT", repo)
    monkeypatch.chdir(repo)
    for dest, says in [(".", "is the repository itself"), (str(repo), "is the repository itself"),
                       ("..", "contains the repository"), (str(tmp_path), "contains the repository")]:
        code, err = run(capsys, "publish", dest)
        assert code == 2 and says in err and err.count("\n") == 1, (dest, err)
    assert listing(repo) == [".git"] and listing(repo.parent) == ["repo"]
    assert fake_build == []


def test_the_real_repository_is_refused():
    for dest in (publish.ROOT, publish.ROOT / "docs" / ".." / "..", Path("/")):
        with pytest.raises(publish.DestinationError, match="repository"):
            publish.check_destination(dest)


def test_a_file_is_refused(fake_build, capsys, tmp_path):
    dest = tmp_path / "site.html"
    dest.write_text("keep me")
    code, err = run(capsys, "publish", str(dest))
    assert code == 2 and err == f"error: {dest}: is a file, not a folder; nothing was changed. Choose a folder\n"
    assert dest.read_text() == "keep me"


def test_a_link_made_elsewhere_is_refused(fake_build, capsys, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    dest = tmp_path / "site"
    dest.symlink_to("elsewhere")
    code, err = run(capsys, "publish", str(dest))
    assert code == 2 and "is a link to elsewhere, not a site published here" in err
    assert os.readlink(dest) == "elsewhere"


# ---- publishing ----------------------------------------------------------------------------

def test_published_files_and_folders_are_world_readable(fake_build, capsys, tmp_path):
    old_umask = os.umask(0o077)  # the strictest umask a user may have
    try:
        code, err = run(capsys, "publish", str(tmp_path / "site"))
    finally:
        os.umask(old_umask)
    assert code == 0, err
    versions = tmp_path / "site.versions"
    assert stat.S_IMODE(versions.stat().st_mode) == 0o755
    for path in [versions, *versions.rglob("*")]:
        assert stat.S_IMODE(path.stat().st_mode) == (0o755 if path.is_dir() else 0o644), path


def test_publish_switches_a_link_in_one_step_and_rolls_back(fake_build, capsys, monkeypatch, tmp_path):
    dest = tmp_path / "site"
    assert run(capsys, "publish", str(dest))[0] == 0
    assert dest.is_symlink() and (dest / "index.html").read_text() == "site 1"
    assert (dest / publish.MARKER).is_file()

    # Every rename of the second publish: before and after it, DEST is a complete site.
    seen = []

    def watched(real):
        def call(a, b):
            seen.append((dest / "index.html").read_text())
            real(a, b)
            seen.append((dest / "index.html").read_text())
        return call

    with monkeypatch.context() as m:
        m.setattr(publish.os, "rename", watched(os.rename))
        m.setattr(publish.os, "replace", watched(os.replace))
        assert run(capsys, "publish", str(dest))[0] == 0
    assert seen and set(seen) <= {"site 1", "site 2"} and seen[-1] == "site 2"
    assert (dest / "index.html").read_text() == "site 2"
    assert os.readlink(dest).startswith("site.versions/")
    assert len(publish.versions(dest)) == 2

    code, err = run(capsys, "rollback", str(dest))
    assert code == 0, err
    assert (dest / "index.html").read_text() == "site 1"
    code, err = run(capsys, "rollback", str(dest))
    assert code == 2 and "was live before" in err and "nothing to roll back to" in err
    assert (dest / "index.html").read_text() == "site 1"
    assert listing(tmp_path) == ["build.lock", "site", "site.versions"]  # no staging or link left


def test_only_the_last_versions_are_kept(fake_build, capsys, tmp_path):
    dest = tmp_path / "site"
    (tmp_path / "site.versions").mkdir()
    (tmp_path / "site.versions" / "notes.txt").write_text("not ours")
    for _ in range(5):
        assert run(capsys, "publish", str(dest))[0] == 0
    kept = publish.versions(dest)
    assert len(kept) == publish.KEEP_VERSIONS
    assert [(tmp_path / "site.versions" / name / "index.html").read_text() for name in kept] == ["site 3", "site 4", "site 5"]
    assert (tmp_path / "site.versions" / "notes.txt").read_text() == "not ours"


def test_rollback_refuses_a_folder_without_versions(fake_build, capsys, tmp_path):
    dest = tmp_path / "plain"
    dest.mkdir()
    (dest / publish.MARKER).write_text("")
    code, err = run(capsys, "rollback", str(dest))
    assert code == 2 and "is not a site published with versions" in err
    assert dest.is_dir() and not dest.is_symlink()


def test_a_site_built_here_becomes_a_version_when_published(fake_build, capsys, tmp_path):
    dest = tmp_path / "site"
    assert run(capsys, "build", "--dest", str(dest))[0] == 0
    assert dest.is_dir() and not dest.is_symlink() and (dest / publish.MARKER).is_file()
    assert run(capsys, "publish", str(dest))[0] == 0
    assert dest.is_symlink() and (dest / "index.html").read_text() == "site 2"
    assert run(capsys, "rollback", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 1"
    assert run(capsys, "build", "--dest", str(dest))[0] == 0  # `make site` onto a published link
    assert dest.is_symlink() and (dest / "index.html").read_text() == "site 3"


def test_build_replaces_its_own_folder_and_an_empty_one(fake_build, capsys, tmp_path):
    dest = tmp_path / "site"
    dest.mkdir()
    assert run(capsys, "build", "--dest", str(dest))[0] == 0
    assert run(capsys, "build", "--dest", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 2" and not dest.is_symlink()
    assert listing(tmp_path) == ["build.lock", "site"]


# ---- leftovers and concurrency ---------------------------------------------------------------

def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_staging_left_by_killed_runs_is_cleaned(fake_build, capsys, tmp_path):
    dead = tmp_path / f".site.staging-{dead_pid()}-0badc0de"
    old = tmp_path / f".site.staging-{os.getppid()}-01d01d00"  # a live pid, but hours old
    running = tmp_path / f".site.staging-{os.getppid()}-12345678"  # another build, running now
    unrelated = tmp_path / ".site-notes"
    for folder in (dead, old, running, unrelated):
        (folder / "nb").mkdir(parents=True)
    hours_ago = time.time() - 3 * 3600
    os.utime(old, (hours_ago, hours_ago))
    assert run(capsys, "publish", str(tmp_path / "site"))[0] == 0
    assert not dead.exists() and not old.exists()
    assert running.is_dir() and unrelated.is_dir()


def test_a_failed_build_leaves_no_staging_and_the_site_as_it_was(fake_build, capsys, monkeypatch, tmp_path):
    dest = tmp_path / "site"
    assert run(capsys, "publish", str(dest))[0] == 0
    monkeypatch.setattr(site, "check_site", lambda *args: ["nb/index.html: a broken link"])
    code, err = run(capsys, "publish", str(dest))
    assert code == 1 and "nb/index.html: a broken link" in err
    assert (dest / "index.html").read_text() == "site 1" and len(publish.versions(dest)) == 1
    assert listing(tmp_path) == ["build.lock", "site", "site.versions"]


def test_two_builds_never_overlap_and_each_has_its_own_sources(fake_build, monkeypatch, tmp_path):
    inside, first_may_finish = threading.Event(), threading.Event()
    active, overlaps = [], []
    write = site.write_site

    def slow_write(*args):
        active.append(1)
        overlaps.append(len(active))
        inside.set()
        first_may_finish.wait(5)
        write(*args)
        active.pop()

    monkeypatch.setattr(site, "write_site", slow_write)
    threads = [threading.Thread(target=site.build, args=(tmp_path / name,), kwargs={"versioned": True})
               for name in ("one", "two")]
    threads[0].start()
    assert inside.wait(5)
    threads[1].start()
    time.sleep(0.5)  # the second build is waiting for the lock, not writing
    assert len(fake_build) == 0 and overlaps == [1]
    first_may_finish.set()
    for t in threads:
        t.join(10)
    assert overlaps == [1, 1] and len(fake_build) == 2
    (stage_one, sources_one), (stage_two, sources_two) = fake_build
    assert sources_one != sources_two and generator_settings.BUILD not in sources_one.parents
    assert (tmp_path / "one" / "index.html").is_file() and (tmp_path / "two" / "index.html").is_file()
