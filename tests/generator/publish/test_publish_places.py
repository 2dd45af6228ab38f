"""Where a publish may write, and what it never follows (generator/publish/deploy.py, versions.py):
a DEST inside a `*.versions` folder or inside another published site is refused before anything
is written (publishing there changed a version another DEST shows, whose rollback then left its
link pointing nowhere); a version that a link replaced is never rolled back to, nor made to
disappear; the locks, the digest, the marker, the records and the history are never followed
through a symbolic link, so every write stays a regular file inside DEST.versions."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.errors import BuildFailed
from generator.publish import deploy as publish, versions
from helpers.numbered_sites import live_number, make_site, shown

DestinationError = publish.DestinationError
COUNTER = iter(range(10**6))


@pytest.fixture(autouse=True)
def quick_records(monkeypatch, tmp_path):
    monkeypatch.setattr(versions, "source_state", lambda root: ("e" * 40, False))
    monkeypatch.setattr(publish, "LOCK", tmp_path / "build.lock")


def publish_number(tmp: Path, dest: Path, number: int) -> None:
    stage = tmp / "built" / str(next(COUNTER))
    stage.mkdir(parents=True)
    make_site(stage, number)
    publish.check_destination(dest, True)  # as site.build does, before its staging folder is made beside DEST
    dest.parent.mkdir(parents=True, exist_ok=True)
    publish.install(stage, dest, versioned=True)


def tree(folder: Path) -> dict[str, str]:
    """Every entry under folder: a file's bytes, a link's target, a folder's mark."""
    found = {}
    for p in sorted(folder.rglob("*")):
        key = str(p.relative_to(folder))
        found[key] = f"-> {os.readlink(p)}" if p.is_symlink() else p.read_bytes().hex() if p.is_file() else "/"
    return found


@pytest.fixture
def other(tmp_path) -> Path:
    """Another site, published at tmp/other with two versions."""
    dest = tmp_path / "www" / "other"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    return dest


def inside_places(other: Path) -> dict[str, Path]:
    live = other.parent / os.readlink(other)
    return {"through the link, in the live version": other / "inner",
            "in the live version itself": live / "inner",
            "the live version folder": live,
            "an older version folder": other.with_name("other.versions") / publish.versions(other)[0],
            "in the versions folder": other.with_name("other.versions") / "inner",
            "deep in the live version": other / "nb" / "x" / "inner"}


@pytest.mark.parametrize("where", ["through the link, in the live version", "in the live version itself",
                                   "the live version folder", "an older version folder", "in the versions folder",
                                   "deep in the live version"])
def test_a_dest_inside_another_published_site_is_refused_and_nothing_is_written(tmp_path, other, where):
    dest = inside_places(other)[where]
    before = tree(tmp_path / "www")
    for versioned in (True, False):
        with pytest.raises(DestinationError) as e:
            publish_number(tmp_path, dest, 3) if versioned else publish.install(tmp_path / "none", dest, False)
        said = str(e.value)
        assert ("where the versions of a published site are kept" in said or "a published site; publishing there" in said
                ), said
    assert tree(tmp_path / "www") == before and live_number(other) == 2


def test_the_whole_refusal_names_the_folder_it_lies_in(tmp_path, other):
    dest = other / "inner"
    live = other.parent / os.readlink(other)
    with pytest.raises(DestinationError) as e:
        publish.check_destination(dest, True)
    # DEST's parents are resolved: the version folder is what it lies in, and that is inside other.versions
    assert str(e.value) == (f"{live / 'inner'}: is inside {live}, a published site; publishing there would change a "
                            "version its DEST shows. Publish into a folder of its own")


@pytest.mark.parametrize("name", ["x.versions/site", "x.versions/a/b/site", "site.versions"])
def test_any_versions_folder_is_no_place_for_a_dest(tmp_path, name):
    dest = tmp_path / name
    with pytest.raises(DestinationError) as e:
        publish.check_destination(dest, True)
    assert ".versions" in str(e.value) and not dest.exists()


def test_a_plain_published_folder_holds_no_other_site(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    make_site(plain, 1)
    publish.seal(plain)
    with pytest.raises(DestinationError, match="a published site"):
        publish.check_destination(plain / "nb" / "site", False)


def test_a_version_a_link_replaced_is_refused_by_rollback_and_publish_and_the_site_stays_up(tmp_path, other):
    """What the old bug left: another publish turned the live version into a link. Rollback once
    removed that link as a leftover, and DEST pointed nowhere."""
    folder = other.with_name("other.versions")
    live = publish.versions(other)[1]
    moved = tmp_path / "elsewhere" / live
    moved.parent.mkdir()
    (folder / live).rename(moved)
    (folder / live).symlink_to(moved)
    before = tree(tmp_path / "www")
    for attempt in (publish.rollback, publish.status, lambda d: publish_number(tmp_path, d, 3)):
        with pytest.raises(DestinationError) as e:
            attempt(other)
        assert str(e.value) == (f"{other}: shows {folder / live}, which is a link, not a version folder (another "
                                "publish replaced it); nothing was changed. Publish again to make a version of its own live")
        assert tree(tmp_path / "www") == before and shown(other) == 2  # still served, nothing changed


def test_rollback_to_a_version_a_link_replaced_is_refused_and_the_live_one_stays(tmp_path, other):
    folder = other.with_name("other.versions")
    older = publish.versions(other)[0]
    moved = tmp_path / "elsewhere" / older
    moved.parent.mkdir()
    (folder / older).rename(moved)
    (folder / older).symlink_to(moved)
    with pytest.raises(DestinationError, match="nothing to roll back to"):
        publish.rollback(other)
    assert live_number(other) == 2 and shown(moved) == 1


# ---- no write through a link -----------------------------------------------------------------------

def outside_file(tmp_path: Path) -> Path:
    target = tmp_path / "outside" / "precious.txt"
    target.parent.mkdir(exist_ok=True)
    target.write_text("keep me")
    return target


def test_a_lock_that_is_a_link_is_refused_and_its_target_untouched(tmp_path):
    dest, target = tmp_path / "site", outside_file(tmp_path)
    publish_number(tmp_path, dest, 1)
    lock = tmp_path / "site.versions" / publish.DEST_LOCK
    lock.unlink()
    lock.symlink_to(target)
    with pytest.raises(DestinationError) as e:
        publish_number(tmp_path, dest, 2)
    assert str(e.value).startswith(f"{lock}: cannot be used as a lock") and str(e.value).endswith("remove it")
    assert target.read_text() == "keep me" and live_number(dest) == 1
    publish.LOCK.symlink_to(target)
    with pytest.raises(DestinationError, match="cannot be used as a lock"):
        with publish.build_lock():
            pass
    assert target.read_text() == "keep me"


def test_a_lock_that_is_a_fifo_is_refused_without_waiting(tmp_path):
    os.mkfifo(publish.LOCK)
    with pytest.raises(DestinationError, match="is not a regular file, so it cannot be used as a lock"):
        with publish.build_lock():
            pass


def test_a_digest_that_is_a_link_proves_nothing(tmp_path):
    """Even a link to the very digest the version had: the version is refused, never made live."""
    dest = tmp_path / "site"
    for number in (1, 2):
        publish_number(tmp_path, dest, number)
    first = tmp_path / "site.versions" / publish.versions(dest)[0]
    copy = tmp_path / "outside-digest.json"
    (first / versions.DIGEST).rename(copy)
    (first / versions.DIGEST).symlink_to(copy)
    assert versions.problem(first) == f"holds {versions.DIGEST}, which is not a regular file"
    with pytest.raises(BuildFailed, match="which is not a regular file; it is not made live"):
        publish.switch_link(dest, first.name)
    with pytest.raises(DestinationError, match="nothing to roll back to"):
        publish.rollback(dest)
    assert live_number(dest) == 2


def test_a_marker_that_is_a_link_makes_no_folder_ours(tmp_path):
    folder, target = tmp_path / "someone", outside_file(tmp_path)
    folder.mkdir()
    (folder / "index.html").write_text("theirs")
    (folder / publish.MARKER).symlink_to(target)
    with pytest.raises(DestinationError, match="was not made by this generator"):
        publish.check_destination(folder, False)
    assert (folder / "index.html").read_text() == "theirs"


def test_records_and_the_history_replace_a_planted_link_and_never_write_through_it(tmp_path):
    dest, target = tmp_path / "site", outside_file(tmp_path)
    publish_number(tmp_path, dest, 1)
    folder = tmp_path / "site.versions"
    name = publish.versions(dest)[0]
    for planted in (versions.record_file(folder, name), folder / versions.HISTORY):
        planted.unlink()
        planted.symlink_to(target)
    assert versions.read_record(folder, name) == {} and versions.read_history(folder) is None  # a link is not read
    versions.write_record(folder, name, "c" * 64, tmp_path, 0, ["ALLOW_STALE=1 (nothing was behind)"])
    versions.write_history(folder, versions.History([name]))
    assert target.read_text() == "keep me"
    for written in (versions.record_file(folder, name), folder / versions.HISTORY):
        assert written.is_file() and not written.is_symlink() and json.loads(written.read_text())["format"] == 1
    assert versions.read_record(folder, name)["allowances"] == ["ALLOW_STALE=1 (nothing was behind)"]


def test_sealing_replaces_a_marker_or_digest_that_is_a_link_and_leaves_the_target_alone(tmp_path):
    site, target = tmp_path / "site", outside_file(tmp_path)
    make_site(site, 1)
    (site / publish.MARKER).symlink_to(target)
    (site / versions.DIGEST).symlink_to(tmp_path / "nowhere")
    content = publish.seal(site)
    assert target.read_text() == "keep me" and versions.problem(site) is None and versions.content_of(site) == content
    assert not (site / publish.MARKER).is_symlink() and publish.marked(site)
