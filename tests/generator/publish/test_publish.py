"""Publish and `build --dest` never destroy: a folder, file or repository that is not a site
made here is refused and left as it was; a published site is world-readable, switched in one
step and can be rolled back to what was live before; a version that fails its digest is never
made live; staging leftovers are cleaned; two builds, or two checkouts publishing to one DEST,
never overlap; `status` says what is live. (Kills at every change: tests/generator/publish/test_publish_faults.py.)

The real MkDocs build is replaced by a tiny fake site, so these tests take a second."""
import os
import stat
import subprocess
import sys
import threading
import time
from contextlib import nullcontext
from pathlib import Path

import pytest

from generator.publish import deploy as publish
from generator.publish import fresh_checks

from generator import settings as generator_settings
from generator.site import build as site

from generator.publish import versions
from generator.cli import main

FAKE = site.Gathered(languages=[], default="nb", rendered={}, facts={"contact": {"email": "post@pyramide.no"},
                                                                        "site_url": "https://pyramide.no/"})


@pytest.fixture
def fake_build(monkeypatch, tmp_path):
    """site.build without MkDocs: each build writes index.html holding its number. Returns the
    list of (stage, sources) each build was given."""
    calls = []

    def write_site(languages, default, rendered, stage, sources, site_url=None, mkdocs=None, pictures=None):
        calls.append((stage, sources))
        (stage / "nb").mkdir(parents=True)
        (stage / "index.html").write_text(f"site {len(calls)}")
        (stage / "nb" / "index.html").write_text("nb")
        sources.mkdir(parents=True, exist_ok=True)

    monkeypatch.setattr(fresh_checks, "checked_bundle", lambda *args: nullcontext(site.BUNDLE))  # its own test: test_incremental_checks
    monkeypatch.setattr(site, "gather", lambda bundle, docs: FAKE)
    monkeypatch.setattr(site, "read_facts", lambda docs: (FAKE.facts, docs / "facts.yml", {}))
    monkeypatch.setattr(site, "write_site", write_site)
    monkeypatch.setattr(site, "check_site", lambda *args: [])
    monkeypatch.setattr(publish, "LOCK", tmp_path / "build.lock")
    # git is asked once per sealed site; here it need not be (test_the_recorded_commit_is_the_checkout_s)
    monkeypatch.setattr(versions, "source_state", lambda root: ("c" * 40, False))
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


# ---- the attacks of issue 22, part 2 ---------------------------------------------------------

def version_path(dest: Path, index: int) -> Path:
    return publish.versions_folder(dest) / publish.versions(dest)[index]


def test_a_version_missing_files_is_never_made_live(fake_build, capsys, tmp_path):
    # What a prune killed half-way through a removal used to leave: the marker and some files.
    dest = tmp_path / "site"
    for _ in range(2):
        assert run(capsys, "publish", str(dest))[0] == 0
    half = version_path(dest, 0)
    (half / "index.html").unlink()
    code, err = run(capsys, "rollback", str(dest))
    assert code == 2 and "nothing to roll back to" in err, err
    assert (dest / "index.html").read_text() == "site 2"


def test_a_version_whose_file_changed_is_never_made_live(fake_build, capsys, tmp_path):
    dest = tmp_path / "site"
    for _ in range(2):
        assert run(capsys, "publish", str(dest))[0] == 0
    (version_path(dest, 0) / "nb" / "index.html").write_text("<script>steal()</script>")
    code, err = run(capsys, "rollback", str(dest))
    assert code == 2 and (dest / "index.html").read_text() == "site 2"


def test_a_stopped_first_publish_over_a_folder_leaves_the_folder(fake_build, capsys, monkeypatch, tmp_path):
    dest = tmp_path / "site"
    assert run(capsys, "build", "--dest", str(dest))[0] == 0
    real = os.symlink

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # the moment the old publish had already moved DEST away

    monkeypatch.setattr(os, "symlink", killed)
    with pytest.raises(KeyboardInterrupt):
        main(["publish", str(dest)])
    monkeypatch.setattr(os, "symlink", real)
    assert (dest / "index.html").read_text() == "site 1" and (dest / "nb" / "index.html").is_file()
    assert run(capsys, "publish", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 3"


def test_rollback_restores_a_dest_left_missing(fake_build, capsys, tmp_path):
    # Where names cannot be exchanged, a kill between the two renames leaves DEST missing.
    dest = tmp_path / "site"
    for _ in range(2):
        assert run(capsys, "publish", str(dest))[0] == 0
    dest.unlink()
    assert main(["status", str(dest)]) == 1
    assert "MISSING" in capsys.readouterr().out
    code, err = run(capsys, "rollback", str(dest))
    assert code == 0, err
    assert (dest / "index.html").read_text() == "site 2"


def test_rollback_returns_to_what_was_live_before(fake_build, capsys, tmp_path):
    dest = tmp_path / "site"
    assert run(capsys, "publish", str(dest))[0] == 0  # site 1
    assert run(capsys, "publish", str(dest))[0] == 0  # site 2, bad
    assert run(capsys, "rollback", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 1"
    assert run(capsys, "publish", str(dest))[0] == 0  # site 3
    assert run(capsys, "rollback", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 1"  # not the bad site 2, published after it


def test_pruning_keeps_the_version_rollback_goes_to(fake_build, capsys, tmp_path):
    dest = tmp_path / "site"
    for _ in range(3):
        assert run(capsys, "publish", str(dest))[0] == 0
    for _ in range(2):
        assert run(capsys, "rollback", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 1"  # the oldest, live again
    assert run(capsys, "publish", str(dest))[0] == 0  # site 4: prunes, but not site 1
    assert run(capsys, "rollback", str(dest))[0] == 0
    assert (dest / "index.html").read_text() == "site 1"


def test_publishing_the_same_site_again_adds_no_version(fake_build, capsys, monkeypatch, tmp_path):
    texts = iter(["same", "same", "other", "same"])

    def write_site(languages, default, rendered, stage, sources, site_url=None, mkdocs=None, pictures=None):
        stage.mkdir(parents=True)
        (stage / "index.html").write_text(next(texts))

    monkeypatch.setattr(site, "write_site", write_site)
    dest = tmp_path / "site"
    assert main(["publish", str(dest)]) == 0
    assert main(["publish", str(dest)]) == 0
    assert "Nothing changed" in capsys.readouterr().out
    assert len(publish.versions(dest)) == 1
    assert main(["publish", str(dest)]) == 0  # other
    assert main(["publish", str(dest)]) == 0  # same again: the kept version goes live
    assert len(publish.versions(dest)) == 2 and (dest / "index.html").read_text() == "same"
    assert main(["rollback", str(dest)]) == 0
    assert (dest / "index.html").read_text() == "other"


@pytest.mark.parametrize("inside", ["site", "site/pub", "build/x", "docs/../site/pub"])
def test_a_published_dest_inside_the_repository_is_refused(fake_build, capsys, monkeypatch, tmp_path, inside):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setattr(publish, "ROOT", repo)
    monkeypatch.chdir(repo)
    for dest in (inside, str(repo / inside)):
        code, err = run(capsys, "publish", dest)
        assert code == 2 and "is inside the repository" in err and err.count("\n") == 1, err
    assert listing(repo) == [".git"] and fake_build == []
    assert run(capsys, "build", "--dest", "site")[0] == 0  # `make site` itself still builds there


def test_an_unexpanded_tilde_is_refused(fake_build, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for command in (["publish"], ["build", "--dest"], ["rollback"], ["status"]):
        code, err = run(capsys, *command, "~/pyramide-site")
        assert code == 2 and "starts with '~', which nothing expanded" in err, (command, err)
    assert not os.path.lexists(tmp_path / "~")


def test_a_dest_under_a_linked_parent_is_published(fake_build, capsys, monkeypatch, tmp_path):
    (tmp_path / "srv" / "www").mkdir(parents=True)
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "www").symlink_to(tmp_path / "srv" / "www")

    def write_site(languages, default, rendered, stage, sources, site_url=None, mkdocs=None, pictures=None):
        stage.mkdir(parents=True)
        (stage / "index.html").write_text('<html lang="nb"><h1 id="top">Pyramide</h1><a href="#top">opp</a></html>')

    from generator.site import sitecheck

    monkeypatch.setattr(site, "write_site", write_site)
    # The real link check, alone: the fake site has none of the rest of a real one.
    monkeypatch.setattr(site, "check_site", lambda built, *args: [p for p in sitecheck.check_site(built, {}, set())
                                                                   if "leads" in p])
    dest = tmp_path / "var" / "www" / "site"
    code, err = run(capsys, "publish", str(dest))
    assert code == 0, err
    assert "Pyramide" in (dest / "index.html").read_text()
    assert (tmp_path / "srv" / "www" / "site").is_symlink()


def test_two_checkouts_publishing_to_one_dest_take_turns(fake_build, tmp_path):
    import fcntl

    dest = tmp_path / "site"
    (tmp_path / "site.versions").mkdir()
    errors = []
    # Another checkout (its own build/build.lock) holds DEST's lock, in the middle of its publish.
    with open(tmp_path / "site.versions" / ".lock", "a+") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        thread = threading.Thread(target=lambda: errors.append(main(["publish", str(dest)])))
        thread.start()
        time.sleep(1.0)
        assert not os.path.lexists(dest), "published while another checkout held DEST's lock"
        fcntl.flock(other, fcntl.LOCK_UN)
    thread.join(10)
    assert errors == [0] and (dest / "index.html").read_text() == "site 1"


def test_status_names_the_live_version_its_commit_and_its_working_tree(fake_build, capsys, monkeypatch, tmp_path):
    dest = tmp_path / "site"
    monkeypatch.setattr(versions, "source_state", lambda root: ("a" * 40, True))
    assert run(capsys, "publish", str(dest))[0] == 0
    monkeypatch.setattr(versions, "source_state", lambda root: ("b" * 40, False))
    assert run(capsys, "publish", str(dest))[0] == 0
    first, live = publish.versions(dest)
    assert main(["status", str(dest)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{dest} shows {live}"
    assert out[1].startswith("  live since ") and out[1].endswith("(publish)")
    assert out[2] == "  digest: every file matches"
    assert out[3] == f"  rollback goes to {first}"
    assert out[5].startswith(f"  {live}: content ") and f"from commit {'b' * 40} (working tree clean)" in out[5]
    assert out[6].startswith(f"  {first}: content ") and f"from commit {'a' * 40} (working tree with uncommitted changes)" in out[6]
    assert out[5].endswith("allowances: none")
    (dest / "nb" / "index.html").write_text("changed on the server")
    assert main(["status", str(dest)]) == 1
    assert "digest: FAILS: nb/index.html differs from its digest" in capsys.readouterr().out


def test_the_allowances_of_a_publish_are_recorded_with_what_they_let_through(fake_build, capsys, monkeypatch, tmp_path):
    """Three publishes from one commit: without ALLOW_STALE, with it and nothing behind, with it
    and a language behind. Each version's record (not the served folder) says which."""
    dest = tmp_path / "site"
    monkeypatch.setattr(site, "behind", lambda docs: [])
    assert run(capsys, "publish", str(dest))[0] == 0
    assert run(capsys, "publish", str(dest), "--allow-stale")[0] == 0
    monkeypatch.setattr(site, "behind", lambda docs: ["translations not current: da: 3 stale"])
    code, err = run(capsys, "publish", str(dest))
    assert code == 2 and err == ("error: translations not current: da: 3 stale (make translations lists them; "
                                 "ALLOW_STALE=1 publishes anyway)\n")
    assert run(capsys, "publish", str(dest), "--allow-stale")[0] == 0
    folder = tmp_path / "site.versions"
    assert [versions.read_record(folder, name)["allowances"] for name in publish.versions(dest)] == [
        [], ["ALLOW_STALE=1 (nothing was behind)"], ["ALLOW_STALE=1 let through: translations not current: da: 3 stale"]]
    assert main(["status", str(dest)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.rsplit("allowances: ", 1)[1] for line in out[-3:]] == [
        "ALLOW_STALE=1 let through: translations not current: da: 3 stale", "ALLOW_STALE=1 (nothing was behind)", "none"]
    assert not [p for p in dest.resolve().rglob("*") if "version" in p.name or p.suffix == ".json" and "c" * 40 in p.read_text()]


def test_the_recorded_commit_is_the_checkout_s():
    head = subprocess.run(["git", "-C", str(publish.ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    commit, changed = versions.source_state(publish.ROOT)
    assert commit == head and isinstance(changed, bool)
    assert versions.source_state(Path("/")) == (None, None)


def test_a_built_site_holding_a_link_is_not_published(fake_build, capsys, monkeypatch, tmp_path):
    def write_site(languages, default, rendered, stage, sources, site_url=None, mkdocs=None, pictures=None):
        stage.mkdir(parents=True)
        (stage / "index.html").write_text("site")
        (stage / "passwd").symlink_to("/etc/passwd")

    monkeypatch.setattr(site, "write_site", write_site)
    code, err = run(capsys, "publish", str(tmp_path / "site"))
    assert code == 1 and "passwd: not a regular file" in err and err.count("error:") == 1
    assert not os.path.lexists(tmp_path / "site")


def test_a_versions_folder_that_is_a_link_is_refused(fake_build, capsys, tmp_path):
    # Pruning deletes old versions there: a link would lead it into someone else's folder.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "notes.txt").write_text("mine")
    (tmp_path / "site.versions").symlink_to(elsewhere)
    code, err = run(capsys, "publish", str(tmp_path / "site"))
    assert code == 2 and "site.versions: exists and is not a folder of its own (a file, or a link)" in err
    assert listing(elsewhere) == ["notes.txt"] and fake_build == []
