"""publish.py's promises piece by piece, each refusal whole (tests/generator/publish/test_publish.py drives the
command line and looks for a part of a message; tests/generator/publish/test_publish_faults.py kills every run at
every change): what a destination is, what is never touched, the locks and who holds them, the
leftovers that are removed and those that are not, the names and the marks a version carries,
the history rollback follows, pruning, and what `status` says line by line."""
import fcntl
import json
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from generator.publish import fileops, deploy as publish

from generator.publish import versions
from generator.errors import BuildFailed
from helpers.numbered_sites import live_number, make_site

STAGED = iter(range(1, 10**6))


def staged(tmp: Path, number: int) -> Path:
    """Site `number` built in a folder of its own (the same site may be built twice)."""
    stage = tmp / "built" / str(next(STAGED))
    stage.mkdir(parents=True)
    make_site(stage, number)
    return stage


def publish_number(tmp: Path, dest: Path, number: int) -> None:
    publish.install(staged(tmp, number), dest, versioned=True)

DestinationError = publish.DestinationError


@pytest.fixture(autouse=True)
def quick_records(monkeypatch):
    monkeypatch.setattr(versions, "source_state", lambda root: ("e" * 40, False))
    yield
    fileops.before = None


def refused(dest, versioned=False) -> str:
    with pytest.raises(DestinationError) as e:
        publish.check_destination(dest, versioned)
    assert e.value.exit_code == 2
    return str(e.value)


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ---- what a destination is --------------------------------------------------------------

def test_an_unexpanded_tilde_is_refused_whole():
    for dest in ("~/pyramide-site", "~"):
        with pytest.raises(DestinationError) as e:
            publish.absolute(Path(dest))
        assert str(e.value) == (f"{dest}: starts with '~', which nothing expanded; write the full path "
                                "(e.g. $HOME/pyramide-site)")
    assert publish.absolute(Path("a~")) == Path.cwd().resolve() / "a~"


def test_the_parent_is_resolved_but_not_dest_itself(tmp_path):
    (tmp_path / "srv").mkdir()
    (tmp_path / "var").symlink_to(tmp_path / "srv")
    (tmp_path / "srv" / "site").symlink_to("elsewhere")
    assert publish.absolute(tmp_path / "var" / "x" / ".." / "site") == tmp_path / "srv" / "site"


def test_each_kind_of_destination(tmp_path):
    dest = tmp_path / "site"
    assert publish.check_destination(dest) == "new"
    dest.mkdir()
    assert publish.check_destination(dest) == "empty"
    (dest / publish.MARKER).write_text("")
    assert publish.check_destination(dest) == "folder"
    (dest / publish.MARKER).unlink()
    (dest / publish.MARKER).mkdir()  # a folder of that name is not the mark
    assert refused(dest) == (f"{dest}: the folder exists and was not made by this generator (no .pyramide-published in it); "
                             "nothing was changed. Move it away or choose a new folder")
    other = tmp_path / "other"
    publish_number(tmp_path, other, 1)
    assert publish.check_destination(other) == "link"
    other.unlink()
    assert publish.check_destination(other) == "lost"
    assert publish.check_destination(tmp_path / "third") == "new"


def test_a_file_and_links_that_are_not_ours_are_refused_whole(tmp_path):
    (tmp_path / "page.html").write_text("keep")
    assert refused(tmp_path / "page.html") == f"{tmp_path / 'page.html'}: is a file, not a folder; nothing was changed. Choose a folder"
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    name = publish.versions(dest)[0]
    (tmp_path / "other.versions").mkdir()
    os.rename(tmp_path / "site.versions" / name, tmp_path / "other.versions" / name)
    (tmp_path / "site.versions" / "notes").mkdir()
    (tmp_path / "site.versions" / "20260101T000000000000Z-0123456789ab").mkdir()  # a version's name, no mark
    for target in ("site.versions/notes", f"other.versions/{name}", "site.versions/20260101T000000000000Z-0123456789ab",
                   f"site.versions/{name}x", f"site.versions/{name}/"):
        dest.unlink()
        dest.symlink_to(target)
        assert publish.link_target(dest) is None, target
        assert refused(dest, True) == (f"{dest}: is a link to {target}, not a site published here; "
                                       "nothing was changed. Move it away or choose another folder")
    assert publish.link_target(tmp_path / "page.html") is None


def test_a_versions_folder_that_is_a_file_is_refused_whole(tmp_path):
    (tmp_path / "site.versions").write_text("mine")
    assert refused(tmp_path / "site") == (f"{tmp_path / 'site.versions'}: exists and is not a folder of its own (a file, "
                                          "or a link); the published versions are kept and pruned there, so move it away")
    assert (tmp_path / "site.versions").read_text() == "mine"


def stand_in_repository(monkeypatch, folder: Path) -> Path:
    (folder / ".git").mkdir(parents=True)
    monkeypatch.setattr(publish, "ROOT", folder)
    return folder


def test_the_repository_and_what_holds_it_are_refused_whole(monkeypatch, tmp_path):
    repo = stand_in_repository(monkeypatch, tmp_path / "outer" / "repo")
    assert refused(repo) == (f"{repo}: is the repository itself; publish into a folder outside it, e.g. ../pyramide-site")
    assert refused(tmp_path / "outer") == f"{tmp_path / 'outer'}: contains the repository ({repo}); publish into a folder of its own"
    link = tmp_path / "link"
    link.symlink_to(repo)  # a link of someone else's to the repository: what it leads to counts
    assert refused(link) == f"{link}: is the repository itself; publish into a folder outside it, e.g. ../pyramide-site"
    (tmp_path / "up").symlink_to(tmp_path / "outer")
    assert refused(tmp_path / "up") == f"{tmp_path / 'up'}: contains the repository ({repo}); publish into a folder of its own"
    inside = repo / "site"
    assert publish.check_destination(inside) == "new"  # `make site`: a plain folder in the repository
    assert refused(inside, True) == (f"{inside}: is inside the repository ({repo}), where `make site` and `make clean` remove "
                                     "what is there; publish into a folder outside it, e.g. ../pyramide-site")
    (tmp_path / "into").symlink_to(repo / "build")
    assert refused(tmp_path / "into", True).startswith(f"{tmp_path / 'into'}: is inside the repository ({repo}), where")


def test_a_dest_whose_versions_would_be_the_repository_is_refused_whole(monkeypatch, tmp_path):
    repo = stand_in_repository(monkeypatch, tmp_path / "site.versions")
    assert refused(tmp_path / "site") == (f"{tmp_path / 'site'}: its versions would go into the repository "
                                          f"({tmp_path / 'site.versions'}); choose another name")
    stand_in_repository(monkeypatch, tmp_path / "x.versions" / "repo")
    assert refused(tmp_path / "x").startswith(f"{tmp_path / 'x'}: its versions would go into the repository")
    assert repo.is_dir() and listing(tmp_path) == ["site.versions", "x.versions"]


def test_by_default_a_destination_is_a_plain_folder_which_may_be_in_the_repository():
    assert publish.check_destination(publish.ROOT / "build" / "no-such-site") == "new"


# ---- locks ---------------------------------------------------------------------------------

def test_the_checkouts_build_lock_is_build_build_lock_under_the_checkout():
    lock = publish.ROOT / "build" / "build.lock"
    assert publish.LOCK == lock
    with publish.build_lock():
        with open(lock) as other:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert lock.read_text() == str(os.getpid())


def test_a_held_lock_is_waited_for_saying_who_holds_it(tmp_path, capsys):
    path = tmp_path / "deep" / "er" / "build.lock"
    old_umask = os.umask(0o077)
    try:
        inside = threading.Event()

        def take():
            with publish.build_lock(path):
                inside.set()

        with publish.build_lock(path):  # makes build/ and its parents, as a fresh checkout has none
            pass
        with open(path, "a+") as other:
            other.truncate(0)
            other.write("4242")
            other.flush()
            fcntl.flock(other, fcntl.LOCK_EX)
            thread = threading.Thread(target=take)
            thread.start()
            said = ""
            for _ in range(500):
                said += capsys.readouterr().err
                if said or not thread.is_alive():
                    break
                time.sleep(0.01)
            waited = not inside.is_set()
            fcntl.flock(other, fcntl.LOCK_UN)
            thread.join(10)
    finally:
        os.umask(old_umask)
    assert said == f"Waiting for another build or publish (pid 4242, lock {path}) to finish…\n" and waited
    assert inside.is_set() and path.read_text() == str(os.getpid())
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_the_wait_names_the_holder_and_the_lock(tmp_path, capsys):
    for held, says in (("4242", "4242"), ("", "?"), (" \n", "?")):
        path = tmp_path / f"lock{len(held)}"
        path.write_text(held)
        with open(path, "a+") as other:
            fcntl.flock(other, fcntl.LOCK_EX)
            thread = threading.Thread(target=lambda: publish.file_lock(path, "test of the lock").__enter__())
            thread.start()
            for _ in range(500):
                err = capsys.readouterr().err
                if err:
                    break
                time.sleep(0.01)
            assert err == f"Waiting for another test of the lock (pid {says}, lock {path}) to finish…\n"
            fcntl.flock(other, fcntl.LOCK_UN)
            thread.join(10)


def test_the_lock_of_dest_is_in_its_versions_folder(tmp_path):
    dest = tmp_path / "site"
    old_umask = os.umask(0o077)
    try:
        with publish.dest_lock(dest):
            assert stat.S_IMODE((tmp_path / "site.versions").stat().st_mode) == 0o755
            with open(tmp_path / "site.versions" / ".lock") as other:
                with pytest.raises(BlockingIOError):
                    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.umask(old_umask)
    with open(tmp_path / "site.versions" / ".lock") as other:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go afterwards
    with publish.dest_lock(dest):  # the folder already there
        pass


# ---- leftovers -----------------------------------------------------------------------------

def test_the_names_of_a_runs_helpers(tmp_path):
    pattern = publish.leftover_pattern(tmp_path / "my.site")
    for name in (".my.site.staging-12-ab", ".my.site.old-1-0", ".my.site.link-99-deadbeef"):
        assert pattern.fullmatch(name), name
    for name in (".myxsite.staging-12-ab", ".my.site.new-12-ab", ".my.site.staging-x-ab", ".my.site.staging-12-",
                 ".my.site.staging-12-xy", "my.site.staging-12-ab", ".my.site.staging-12"):
        assert not pattern.fullmatch(name), name
    assert pattern.fullmatch(".my.site.old-123-ab")[2] == "123"
    name = publish.aside(tmp_path / "my.site", "old").name
    assert pattern.fullmatch(name) and name.startswith(f".my.site.old-{os.getpid()}-") and len(name) == len(f".my.site.old-{os.getpid()}-") + 8


def test_whose_process_is_alive(monkeypatch):
    assert publish.pid_alive(os.getpid())

    def refuse(pid, signal):
        raise PermissionError
    monkeypatch.setattr(publish.os, "kill", refuse)
    assert publish.pid_alive(1)  # someone else's

    def gone(pid, signal):
        raise ProcessLookupError
    monkeypatch.setattr(publish.os, "kill", gone)
    assert not publish.pid_alive(1)


def test_leftovers_of_killed_runs_are_removed_and_no_others(tmp_path, monkeypatch):
    dest = tmp_path / "site"
    monkeypatch.setattr(publish, "pid_alive", lambda pid: pid == 7)
    made = {}
    for name in (".site.staging-7-aa", ".site.staging-8-aa", ".site.old-8-bb", ".site.link-8-cc", ".site.link-7-dd",
                 ".other.staging-8-aa", "site.staging-8-aa"):
        path = tmp_path / name
        if "link" in name:
            path.symlink_to("site.versions/x")  # dangling: removed as a link
        elif "old" in name:
            path.write_text("a file")
        else:
            (path / "nb").mkdir(parents=True)
        made[name] = path
    now = time.time()
    for name in (".site.staging-7-aa", ".site.link-7-dd"):
        os.utime(made[name], (now - 3599, now - 3599), follow_symlinks=False)
    removed = publish.remove_stale(dest, now=now)
    assert sorted(p.name for p in removed) == [".site.link-8-cc", ".site.old-8-bb", ".site.staging-8-aa"]
    assert listing(tmp_path) == [".other.staging-8-aa", ".site.link-7-dd", ".site.staging-7-aa", "site.staging-8-aa"]
    # An hour old, a live pid's is taken for a leftover too (the pid may have been given again)
    assert [p.name for p in publish.remove_stale(dest, now=now + 1)] == [".site.link-7-dd", ".site.staging-7-aa"] or \
        sorted(p.name for p in publish.remove_stale(dest, now=now + 1)) == [".site.link-7-dd", ".site.staging-7-aa"]
    assert listing(tmp_path) == [".other.staging-8-aa", "site.staging-8-aa"]
    assert publish.remove_stale(tmp_path / "missing" / "site") == []


def test_a_leftover_an_hour_old_exactly(tmp_path, monkeypatch):
    monkeypatch.setattr(publish, "pid_alive", lambda pid: True)
    path = tmp_path / ".site.staging-7-aa"
    path.mkdir()
    mtime = path.lstat().st_mtime
    assert publish.remove_stale(tmp_path / "site", now=mtime + 3599.5) == []
    assert publish.remove_stale(tmp_path / "site", now=mtime + 3600) == [path]
    assert publish.STALE_SECONDS == 3600


def test_remove_takes_a_link_a_file_or_a_folder_and_never_follows_the_link(tmp_path):
    target = tmp_path / "target"
    (target / "sub").mkdir(parents=True)
    (target / "sub" / "f").write_text("x")
    (tmp_path / "link").symlink_to(target)
    (tmp_path / "file").write_text("x")
    for name in ("link", "file", "target"):
        if name == "target":
            assert (target / "sub" / "f").read_text() == "x"  # the link's removal left it
        publish.remove(tmp_path / name)
        assert not os.path.lexists(tmp_path / name)


def test_staging_is_a_fresh_folder_next_to_dest_removed_afterwards(tmp_path):
    dest = tmp_path / "deeper" / "site"
    stale = tmp_path / "deeper" / ".site.staging-999999999-aa"
    stale.mkdir(parents=True)
    with pytest.raises(RuntimeError):
        with publish.staging(dest) as stage:
            assert stage.parent == tmp_path / "deeper" and stage.is_dir() and listing(stage) == []
            assert stage.name.startswith(f".site.staging-{os.getpid()}-")
            assert not stale.exists()
            (stage / "x").write_text("x")
            raise RuntimeError
    assert listing(tmp_path / "deeper") == []


# ---- a version's name, marks and files -------------------------------------------------------

def test_a_versions_name_is_its_utc_time_to_the_microsecond_and_its_content():
    assert publish.version_name("0123456789abcdef", 0.25) == "19700101T000000250000Z-0123456789ab"
    assert publish.version_name("fedcba9876543210", 1767225600.000001) == "20260101T000000000001Z-fedcba987654"
    assert publish.VERSION_NAME.fullmatch(publish.version_name("ab" * 32, time.time()))
    for bad in ("20260101T000000000001Z-fedcba98765", "20260101T000000000001Z-fedcba9876543", "20260101T00000000001Z-fedcba987654",
                "20260101T000000000001-fedcba987654", "20260101T000000000001Z-FEDCBA987654", "2026010 T000000000001Z-fedcba987654"):
        assert not publish.VERSION_NAME.fullmatch(bad), bad


def test_only_folders_with_a_versions_name_and_mark_are_versions(tmp_path):
    dest = tmp_path / "site"
    assert publish.versions(dest) == []
    folder = tmp_path / "site.versions"
    names = ["20260102T000000000000Z-0123456789ab", "20260101T000000000000Z-0123456789ab"]
    for name in names:
        (folder / name).mkdir(parents=True)
        (folder / name / publish.MARKER).write_text("")
    (folder / "20260103T000000000000Z-0123456789ab").mkdir()  # no mark
    (folder / "20260104T000000000000Z-0123456789ab").symlink_to(names[0])  # a link
    (folder / "x20260105T000000000000Z-0123456789ab").mkdir()
    (folder / "x20260105T000000000000Z-0123456789ab" / publish.MARKER).write_text("")
    assert publish.versions(dest) == sorted(names)


def test_a_sealed_site_is_marked_readable_and_digested_and_tells_nothing_of_its_build(tmp_path):
    site = tmp_path / "site"
    make_site(site, 1)
    old_umask = os.umask(0o077)
    try:
        (site / "private").mkdir()
        (site / "private" / "x").write_text("x")
    finally:
        os.umask(old_umask)
    os.chmod(site / "index.html", 0o600)
    before = listing(site)
    (site / versions.LEGACY_RECORD).write_text('{"commit": "1234", "working_tree_had_changes": true}')
    content = publish.seal(site)
    assert (site / publish.MARKER).read_text() == (
        "This folder was made by `python -m generator` (Pyramide). `make site`, `make publish`\n"
        "and `make rollback` may replace it; they refuse any folder without this file.\n")
    # What it was built from is no business of the web: the old record inside is gone, no new one
    assert listing(site) == sorted(before + [versions.DIGEST, publish.MARKER])
    assert stat.S_IMODE((site / "index.html").stat().st_mode) == 0o644
    assert stat.S_IMODE((site / "private").stat().st_mode) == 0o755 and stat.S_IMODE((site / "private" / "x").stat().st_mode) == 0o644
    assert stat.S_IMODE(site.stat().st_mode) == 0o755
    assert content == versions.content_of(site)
    # Sealed again (a plain folder published before): the old digest and record are replaced, the mark kept
    (site / publish.MARKER).write_text("kept")
    (site / "index.html").write_text("changed")
    again = publish.seal(site)
    assert again != content and versions.problem(site) is None and versions.content_of(site) == again
    assert (site / publish.MARKER).read_text() == "kept"


def test_world_readable_leaves_links_alone(tmp_path):
    (tmp_path / "target").write_text("x")
    os.chmod(tmp_path / "target", 0o600)
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "link").symlink_to(tmp_path / "target")
    publish.make_world_readable(folder)
    assert stat.S_IMODE((tmp_path / "target").stat().st_mode) == 0o600


def test_what_killed_runs_left_in_the_versions_folder_is_cleaned_and_nothing_else(tmp_path):
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    folder = tmp_path / "site.versions"
    (folder / ".trash-x-1-aa" / "nb").mkdir(parents=True)
    (folder / ".history.json.1-aa.tmp").write_text("{}")
    (folder / ".20260101T000000000000Z-0123456789ab.json.1-aa.tmp").write_text("{}")  # a record never renamed
    (folder / "20260101T000000000000Z-0123456789ab").symlink_to(publish.versions(dest)[0])
    (folder / "20260101T000000000000Z-0123456789ab.json").write_text("{}")  # the record of a version that is gone
    (folder / "notes").mkdir()
    (folder / ".other").write_text("x")
    (folder / "20260101T000000000000Z-0123456789").symlink_to("x")  # not a version's name
    (folder / "20260101T000000000000Z-0123456789.json").write_text("{}")
    publish.clean_versions_folder(dest)
    kept = publish.versions(dest)[0]
    assert listing(folder) == [".lock", ".other", "20260101T000000000000Z-0123456789",
                               "20260101T000000000000Z-0123456789.json", kept, f"{kept}.json", "history.json", "notes"]


def test_a_version_failing_its_digest_is_not_made_live(tmp_path):
    dest = tmp_path / "site"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    first = publish.versions(dest)[0]
    (tmp_path / "site.versions" / first / "nb" / "index.html").write_text("changed")
    with pytest.raises(BuildFailed) as e:
        publish.switch_link(dest, first)
    assert str(e.value) == f"{tmp_path / 'site.versions' / first}: nb/index.html differs from its digest; it is not made live"
    assert live_number(dest) == 2 and os.readlink(dest) == f"site.versions/{publish.versions(dest)[1]}"


# ---- publishing, rollback, pruning -----------------------------------------------------------------

def test_each_publish_adds_a_version_and_the_history_follows(tmp_path):
    dest = tmp_path / "site"
    for number in (1, 2, 3):
        publish_number(tmp_path, dest, number)
    kept = publish.versions(dest)
    assert [live_number(dest)] == [3] and os.readlink(dest) == f"site.versions/{kept[-1]}"
    assert publish.history(dest).live == kept
    log = json.loads((tmp_path / "site.versions" / "history.json").read_text())["log"]
    assert [(e["action"], e["version"]) for e in log] == [("publish", name) for name in kept]
    assert listing(tmp_path) == ["built", "site", "site.versions"]


def test_publishing_onto_an_empty_folder_makes_it_the_link(tmp_path):
    dest = tmp_path / "site"
    dest.mkdir()
    publish_number(tmp_path, dest, 1)
    assert live_number(dest) == 1 and publish.history(dest).live == publish.versions(dest)


def test_a_plain_folder_published_over_becomes_the_oldest_version(tmp_path, monkeypatch):
    dest = tmp_path / "site"
    publish.install(staged(tmp_path, 1), dest, versioned=False)
    assert dest.is_dir() and not dest.is_symlink() and versions.problem(dest) is None
    mtime = dest.stat().st_mtime
    publish_number(tmp_path, dest, 2)
    first, second = publish.versions(dest)
    assert first == publish.version_name(versions.content_of(tmp_path / "site.versions" / first), mtime)
    log = json.loads((tmp_path / "site.versions" / "history.json").read_text())["log"]
    assert [(e["action"], e["version"]) for e in log] == [("adopted", first), ("publish", second)]
    assert publish.rollback(dest) == (first, f"rolled back from {second}")
    assert live_number(dest) == 1


def test_a_plain_folder_without_a_digest_is_sealed_when_adopted(tmp_path):
    dest = tmp_path / "site"
    publish.install(staged(tmp_path, 1), dest, versioned=False)
    (dest / versions.DIGEST).unlink()  # a folder the old publish made
    publish_number(tmp_path, dest, 2)
    first = publish.versions(dest)[0]
    assert versions.problem(tmp_path / "site.versions" / first) is None
    assert publish.rollback(dest)[0] == first and live_number(dest) == 1


def test_the_same_site_again_adds_no_version_and_switches_to_the_kept_one(tmp_path):
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    first = publish.versions(dest)
    assert publish.install(staged(tmp_path, 1), dest, versioned=True) == tmp_path / "site.versions" / first[0]
    assert publish.versions(dest) == first and len(publish.history(dest).live) == 1
    publish_number(tmp_path, dest, 2)
    assert publish.install(staged(tmp_path, 1), dest, versioned=True) == tmp_path / "site.versions" / first[0]
    assert live_number(dest) == 1 and len(publish.versions(dest)) == 2
    assert publish.rollback(dest)[1] == f"rolled back from {first[0]}" and live_number(dest) == 2


def test_a_kept_copy_that_fails_its_digest_is_not_taken_for_the_same_site(tmp_path):
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    publish_number(tmp_path, dest, 2)
    first = publish.versions(dest)[0]
    (tmp_path / "site.versions" / first / "da" / "index.html").write_text("changed")
    publish_number(tmp_path, dest, 1)
    assert live_number(dest) == 1 and publish.link_target(dest) != first and len(publish.versions(dest)) == 3


def test_pruning_keeps_the_newest_the_live_one_and_where_rollback_goes(tmp_path):
    dest = tmp_path / "site"
    for number in range(1, 6):
        publish_number(tmp_path, dest, number)
        assert len(publish.versions(dest)) == min(number, 3)
    names = publish.versions(dest)
    assert publish.prune(dest, keep=2) == [names[0]]
    assert publish.versions(dest) == names[1:] and publish.history(dest).live == names[1:]
    assert publish.prune(dest, keep=2) == []
    publish.rollback(dest)
    assert publish.prune(dest, keep=1) == []  # the live one and the one rollback goes to
    assert listing(tmp_path / "site.versions") == [".lock", *sorted(names[1:] + [f"{n}.json" for n in names[1:]]),
                                                   "history.json"]  # each version with its record


def test_rollback_refuses_what_is_not_published_with_versions_whole(tmp_path):
    for dest in (tmp_path / "new", tmp_path / "plain"):
        if dest.name == "plain":
            dest.mkdir()
            (dest / publish.MARKER).write_text("")
        with pytest.raises(DestinationError) as e:
            publish.rollback(dest)
        assert str(e.value) == f"{dest}: is not a site published with versions (make publish DEST=…); nothing to roll back"
        with pytest.raises(DestinationError) as e:
            publish.status(dest)
        assert str(e.value) == f"{dest}: is not a site published with versions (make publish DEST=…)"


def test_rollback_with_nothing_before_says_so_whole(tmp_path):
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    live = publish.versions(dest)[0]
    with pytest.raises(DestinationError) as e:
        publish.rollback(dest)
    assert str(e.value) == (f"{dest}: no complete version kept in {tmp_path / 'site.versions'} was live before {live}; "
                            "nothing to roll back to")


def test_rollback_restores_a_missing_dest_and_says_so(tmp_path):
    dest = tmp_path / "site"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    second = publish.versions(dest)[1]
    dest.unlink()
    assert publish.lost_version(dest) == second
    assert publish.rollback(dest) == (second, "restored: DEST was missing (a publish had been stopped)")
    assert live_number(dest) == 2 and publish.lost_version(dest) is None
    dest.unlink()
    for name in publish.versions(dest):
        (tmp_path / "site.versions" / name / "index.html").write_text("broken")
    assert publish.lost_version(dest) is None and publish.check_destination(dest) == "new"


def test_rollback_passes_over_versions_gone_or_broken(tmp_path):
    dest = tmp_path / "site"
    for number in (1, 2, 3):
        publish_number(tmp_path, dest, number)
    first, second, third = publish.versions(dest)
    h = publish.history(dest)
    assert publish.rollback_target(dest, h) == (second, [first, second])
    (tmp_path / "site.versions" / second / "index.html").write_text("broken")
    assert publish.rollback_target(dest, h) == (first, [first])
    h.live = [first, third, third]
    assert publish.rollback_target(dest, h) == (first, [first])
    h.live = [third]
    assert publish.rollback_target(dest, h) == (None, [])
    h.live = []
    assert publish.rollback_target(dest, h) == (None, [])
    assert publish.rollback(dest) == (first, f"rolled back from {third}") and live_number(dest) == 1
    log = json.loads((tmp_path / "site.versions" / "history.json").read_text())
    assert log["live"] == [first] and (log["log"][-1]["action"], log["log"][-1]["version"]) == ("rollback", first)


def test_build_dest_replaces_its_own_folder_in_one_step(tmp_path):
    dest = tmp_path / "site"
    assert publish.install(staged(tmp_path, 1), dest, versioned=False) == dest
    assert publish.install(staged(tmp_path, 2), dest, versioned=False) == dest
    assert (dest / "index.html").read_text() == "site 2" and not dest.is_symlink()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.old")] == []
    empty = tmp_path / "empty"
    empty.mkdir()
    assert publish.install(staged(tmp_path, 3), empty, versioned=False) == empty and (empty / "index.html").read_text() == "site 3"


def test_build_dest_onto_a_published_link_publishes(tmp_path):
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    where = publish.install(staged(tmp_path, 2), dest, versioned=False)
    assert where == tmp_path / "site.versions" / publish.versions(dest)[1] and live_number(dest) == 2


def test_build_dest_where_names_cannot_be_exchanged(tmp_path, monkeypatch):
    def unsupported(a, b):
        raise fileops.ExchangeUnsupported(38, "not here")
    monkeypatch.setattr(fileops, "exchange", unsupported)
    dest = tmp_path / "site"
    publish.install(staged(tmp_path, 1), dest, versioned=False)
    assert publish.install(staged(tmp_path, 2), dest, versioned=False) == dest
    assert (dest / "index.html").read_text() == "site 2"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    publish_number(tmp_path, dest, 3)  # over the plain folder, in two renames
    assert live_number(dest) == 3 and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert publish.rollback(dest)[0] == publish.versions(dest)[0] and live_number(dest) == 2


# ---- status -----------------------------------------------------------------------------------

def test_status_line_by_line(tmp_path, monkeypatch):
    dest, folder = tmp_path / "site", tmp_path / "site.versions"
    monkeypatch.setattr(versions, "source_state", lambda root: (None, None))
    publish_number(tmp_path, dest, 1)
    first = publish.versions(dest)[0]
    lines, healthy = publish.status(dest)
    at = json.loads((folder / "history.json").read_text())["log"][-1]["at"]
    record = versions.read_record(folder, first)
    built, content = record["built_at"], versions.content_of(folder / first)
    assert record["content"] == content and first.endswith(content[:12])
    one = (f"  {first}: content {content}, built {built} from commit unknown (working tree state unknown), "
           "allowances: none")
    assert healthy and lines == [f"{dest} shows {first}",
                                 f"  live since {at} (publish)",
                                 "  digest: every file matches",
                                 "  rollback: no version that was live before is kept",
                                 f"versions kept in {folder}, newest first (1):",
                                 one]
    monkeypatch.setattr(versions, "source_state", lambda root: ("d" * 40, True))
    publish.install(staged(tmp_path, 2), dest, versioned=True, allowances=["ALLOW_STALE=1 (nothing was behind)"])
    second = publish.versions(dest)[1]
    (folder / "history.json").write_text(json.dumps({"live": [first, second], "log": []}))
    lines, healthy = publish.status(dest)
    built2, content2 = versions.read_record(folder, second)["built_at"], versions.content_of(folder / second)
    assert healthy and lines == [f"{dest} shows {second}",
                                 "  live since: not recorded",
                                 "  digest: every file matches",
                                 f"  rollback goes to {first}",
                                 f"versions kept in {folder}, newest first (2):",
                                 f"  {second}: content {content2}, built {built2} from commit {'d' * 40} "
                                 "(working tree with uncommitted changes), allowances: ALLOW_STALE=1 (nothing was behind)",
                                 one]
    versions.record_file(folder, second).unlink()
    (folder / second / "nb" / "index.html").write_text("x")
    lines, healthy = publish.status(dest)
    assert not healthy and lines[2].startswith("  digest: FAILS: ")
    assert lines[5] == (f"  {second}: not recorded (published before records were kept beside the versions, "
                        "or its record is gone)")
    dest.unlink()
    assert publish.status(dest) == ([f"{dest}: MISSING (a publish was stopped between two renames); "
                                     f"`make rollback DEST={dest}` restores {first}"], False)


def test_two_versions_from_one_commit_are_told_apart_and_nothing_of_the_build_is_served(tmp_path):
    """The same commit and tree, once as it is and once let through by ALLOW_STALE: two content
    ids, each version's allowances; the served folders hold no record of the build."""
    dest, folder = tmp_path / "site", tmp_path / "site.versions"
    publish_number(tmp_path, dest, 1)
    publish.install(staged(tmp_path, 2), dest, versioned=True,
                    allowances=["ALLOW_STALE=1 let through: translations not current: da 2 stale"])
    first, second = publish.versions(dest)
    records = [versions.read_record(folder, name) for name in (first, second)]
    assert [r["commit"] for r in records] == ["e" * 40] * 2
    assert records[0]["content"] != records[1]["content"]
    assert [r["allowances"] for r in records] == [[], ["ALLOW_STALE=1 let through: translations not current: da 2 stale"]]
    lines = publish.status(dest)[0]
    assert [line.split(",")[0] for line in lines[-2:]] == [f"  {second}: content {records[1]['content']}",
                                                           f"  {first}: content {records[0]['content']}"]
    assert lines[-2].endswith("allowances: ALLOW_STALE=1 let through: translations not current: da 2 stale")
    served = {p.name for name in (first, second) for p in (folder / name).rglob("*")}
    assert not served & {versions.LEGACY_RECORD, f"{first}.json", f"{second}.json"}
    assert not any("e" * 40 in p.read_text(errors="replace") for p in dest.resolve().rglob("*") if p.is_file())


def test_describe_reads_the_record(tmp_path):
    assert publish.describe(tmp_path / "site", "x") == (
        "x: not recorded (published before records were kept beside the versions, or its record is gone)")


# ---- what mutation testing found untold (issue 29) ---------------------------------------------

def test_the_liveness_probe_sends_no_signal_to_the_process_it_asks_about():
    # os.kill(pid, 0) only asks; any other number would be a real signal to someone's process.
    import signal
    import subprocess
    # SIGHUP as it would be for anyone's process (a run under nohup ignores it, and so would its children).
    child = subprocess.Popen(["sleep", "30"], preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    try:
        assert publish.pid_alive(child.pid)
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=0.5)
    finally:
        child.kill()
        child.wait()
    assert not publish.pid_alive(child.pid)


def test_a_pruning_stopped_midway_leaves_a_trash_folder_the_next_run_removes(tmp_path, monkeypatch):
    dest = tmp_path / "site"
    for number in (1, 2, 3):
        publish_number(tmp_path, dest, number)
    first = publish.versions(dest)[0]

    def stopped(folder):
        raise OSError("stopped")
    monkeypatch.setattr(publish.fileops, "rmtree", stopped)
    with pytest.raises(OSError):
        publish.prune(dest, keep=2)
    monkeypatch.undo()
    folder = tmp_path / "site.versions"
    kept = publish.versions(dest)
    trash = [name for name in listing(folder) if name not in (".lock", "history.json", *kept, *(f"{n}.json" for n in kept))]
    assert trash == [trash[0], f"{first}.json"] and trash[0].startswith(f".trash-{first}-{os.getpid()}-"), trash
    assert first not in publish.versions(dest)
    publish.clean_versions_folder(dest)
    assert listing(folder) == [".lock", *sorted(kept + [f"{n}.json" for n in kept]), "history.json"]


def test_a_link_inside_the_repository_is_refused_even_when_not_asked_for_versions(monkeypatch, tmp_path):
    # `build --dest` onto our link publishes a version: the check under DEST's lock is the
    # versioned one, so a link that lies in the repository is refused there.
    dest = tmp_path / "repo" / "site"
    dest.parent.mkdir()
    publish_number(tmp_path, dest, 1)
    stand_in_repository(monkeypatch, tmp_path / "repo")
    assert publish.check_destination(dest) == "link"
    before = listing(tmp_path / "repo" / "site.versions")
    with pytest.raises(DestinationError) as e:
        publish.install(staged(tmp_path, 2), dest, versioned=False)
    assert str(e.value).startswith(f"{dest}: is inside the repository ({tmp_path / 'repo'}), where")
    assert live_number(dest) == 1 and listing(tmp_path / "repo" / "site.versions") == before


def test_rollback_of_a_dest_lost_meanwhile_with_no_complete_version_says_so_whole(tmp_path, monkeypatch):
    # Found missing with a version that was live; by the time DEST's lock is held that version
    # broke (or another checkout cleaned up): nothing to restore.
    dest = tmp_path / "site"
    publish_number(tmp_path, dest, 1)
    dest.unlink()
    for name in publish.versions(dest):
        (tmp_path / "site.versions" / name / "index.html").write_text("broken")
    monkeypatch.setattr(publish, "check_destination", lambda dest, versioned=False: "lost")
    with pytest.raises(DestinationError) as e:
        publish.rollback(dest)
    assert str(e.value) == f"{dest}: is missing and no complete version is kept in {tmp_path / 'site.versions'}"
    assert not os.path.lexists(dest)


def test_a_held_lock_of_dest_says_whose_publish_or_rollback_it_waits_for(tmp_path, capsys):
    dest = tmp_path / "site"
    with publish.dest_lock(dest):
        pass
    lock = tmp_path / "site.versions" / ".lock"
    with open(lock, "a+") as other:
        other.truncate(0)
        other.write("77")
        other.flush()
        fcntl.flock(other, fcntl.LOCK_EX)
        thread = threading.Thread(target=lambda: publish.dest_lock(dest).__enter__())
        thread.start()
        said = ""
        for _ in range(500):
            said += capsys.readouterr().err
            if said:
                break
            time.sleep(0.01)
        fcntl.flock(other, fcntl.LOCK_UN)
        thread.join(10)
    assert said == f"Waiting for another publish or rollback of {dest} (pid 77, lock {lock}) to finish…\n"


def test_staging_makes_the_folders_above_dest(tmp_path):
    with publish.staging(tmp_path / "a" / "b" / "site") as stage:
        assert stage.parent == tmp_path / "a" / "b" and stage.is_dir()


def test_every_leftover_among_other_entries_is_removed(tmp_path, monkeypatch):
    # The folder is read in no set order: leftovers first and last among twenty other entries.
    dest = tmp_path / "site"
    monkeypatch.setattr(publish, "pid_alive", lambda pid: False)
    first = tmp_path / ".site.staging-1-aa"
    first.mkdir()
    for i in range(20):
        (tmp_path / f"other-{i}").write_text("x")
    last = tmp_path / ".site.old-2-bb"
    last.mkdir()
    assert sorted(publish.remove_stale(dest)) == sorted([first, last])
    assert len(listing(tmp_path)) == 20


def test_the_helpers_a_stopped_run_leaves_are_named_for_the_next_run_to_remove(tmp_path, monkeypatch):
    # A new link made but not yet moved over DEST, and our old folder moved aside but not yet
    # removed: both carry names leftover_pattern knows.
    dest = tmp_path / "site"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    pattern = publish.leftover_pattern(dest)

    def stopped(*args):
        raise OSError("stopped")
    monkeypatch.setattr(publish.fileops, "replace", stopped)
    with pytest.raises(OSError):
        publish.switch_link(dest, publish.versions(dest)[0])
    monkeypatch.undo()
    left = [name for name in listing(tmp_path) if name.startswith(".")]
    assert len(left) == 1 and pattern.fullmatch(left[0]) and left[0].startswith(".site.link-"), left
    publish.remove_stale(dest, now=time.time() + publish.STALE_SECONDS)
    plain = tmp_path / "plain"
    publish.install(staged(tmp_path, 1), plain, versioned=False)

    def unsupported(*args):
        raise publish.fileops.ExchangeUnsupported()
    monkeypatch.setattr(publish.fileops, "exchange", unsupported)
    monkeypatch.setattr(publish.fileops, "rmtree", stopped)
    with pytest.raises(OSError):
        publish.install(staged(tmp_path, 2), plain, versioned=False)
    monkeypatch.undo()
    left = [name for name in listing(tmp_path) if name.startswith(".plain")]
    assert len(left) == 1 and publish.leftover_pattern(plain).fullmatch(left[0]) and left[0].startswith(".plain.old-"), left


def test_publishing_the_lost_version_again_brings_dest_back(tmp_path):
    dest = tmp_path / "site"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    dest.unlink()  # a run stopped between two renames: DEST.versions says 2 was live
    publish_number(tmp_path, dest, 2)
    assert live_number(dest) == 2 and len(publish.versions(dest)) == 2


def test_build_dest_onto_a_lost_published_site_publishes_a_version(tmp_path):
    dest = tmp_path / "site"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    dest.unlink()
    assert publish.check_destination(dest) == "lost"
    publish.install(staged(tmp_path, 3), dest, versioned=False)
    assert dest.is_symlink() and live_number(dest) == 3 and len(publish.versions(dest)) == 3


def test_rollback_and_status_refuse_a_link_inside_the_repository(monkeypatch, tmp_path):
    dest = tmp_path / "repo" / "site"
    dest.parent.mkdir()
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    stand_in_repository(monkeypatch, tmp_path / "repo")
    inside = f"{dest}: is inside the repository ({tmp_path / 'repo'}), where"
    for command in (publish.rollback, publish.status):
        with pytest.raises(DestinationError) as e:
            command(dest)
        assert str(e.value).startswith(inside), command
    assert live_number(dest) == 2


def test_a_staging_folder_removed_meanwhile_is_no_error(tmp_path):
    # Another checkout's cleaning may take a stage it found stale: the build's own result stands.
    with publish.staging(tmp_path / "site") as stage:
        stage.rmdir()
    assert listing(tmp_path) == []


def test_a_plain_folder_adopted_by_two_renames_leaves_a_link_the_next_run_removes(tmp_path, monkeypatch):
    dest = tmp_path / "site"
    publish.install(staged(tmp_path, 1), dest, versioned=False)

    def unsupported(*args):
        raise publish.fileops.ExchangeUnsupported()

    real_replace = publish.fileops.replace

    def stopped_at_dest(source, target):
        if target == dest:
            raise OSError("stopped")
        real_replace(source, target)  # the history's own writes
    monkeypatch.setattr(publish.fileops, "exchange", unsupported)
    monkeypatch.setattr(publish.fileops, "replace", stopped_at_dest)
    with pytest.raises(OSError):
        publish_number(tmp_path, dest, 2)
    monkeypatch.undo()
    left = [name for name in listing(tmp_path) if name.startswith(".site.")]
    assert len(left) == 1 and publish.leftover_pattern(dest).fullmatch(left[0]) and left[0].startswith(".site.link-"), left
