"""Where a built site goes, without ever destroying what was there.

Promises:
- A destination is touched only when it is new, an empty folder, or a site this generator made
  (it holds the MARKER file, a regular file). A file, a link we did not make, the repository or
  a folder that contains it are refused, naming the folder; nothing is changed. A published
  (versioned) DEST may not lie inside the repository either (`make site` and `make clean` would
  remove it), nor start with an unexpanded `~`. No DEST may lie inside a `*.versions` folder or
  inside another published site (a folder with the MARKER), nor be named `*.versions`: publishing
  there would change a version another DEST shows, and that DEST's rollback would break it.
- `publish` keeps versions next to DEST (`DEST.versions/<time>-<hash>/`) and DEST is a symlink
  switched with one rename, so a reader always gets one complete site. A version is made live
  (by publish or rollback) only after its digest (generator/publish/versions.py) proves every file
  there; removal renames a version aside before deleting it, so a killed run never leaves
  anything that looks like a version but is not one.
- A plain folder (from `build --dest` or the old publish) becomes a version in one step (the
  folder and a link exchange names, Linux renameat2), so DEST is never missing. Where the
  system cannot exchange names, a run killed between the two renames leaves DEST missing for
  a moment; the next publish, rollback or status puts the link back.
- `rollback` returns to what was live before the live version (DEST.versions/history.json);
  pruning keeps the newest KEEP_VERSIONS and never removes the live version or the one
  rollback would go to. A publish of a site identical to the live one adds no version.
- Published files and folders are world-readable: the web server may run as another user. What
  a version was built from (commit, uncommitted changes, allowances) is recorded beside it in
  DEST.versions/, never in what is served.
- No write follows a symbolic link: files are created new (O_EXCL) or renamed into place, the
  locks are opened without following one, and a version that is itself a link is never shown.
- Each build stages in its own folder next to DEST (named with its pid); folders left by killed
  runs are removed by the next build. Builds in one checkout take one lock; every change to a
  published DEST takes DEST's own lock (DEST.versions/.lock), so two checkouts never collide.
- Every change to the file system goes through generator/publish/fileops.py, where a test stops it.
"""
from __future__ import annotations

import fcntl
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from generator.publish import fileops, versions as version_files
from generator.settings import ROOT
from generator.errors import BuildError, BuildFailed

MARKER = ".pyramide-published"
MARKER_TEXT = ("This folder was made by `python -m generator` (Pyramide). `make site`, `make publish`\n"
               "and `make rollback` may replace it; they refuse any folder without this file.\n")
LOCK = ROOT / "build" / "build.lock"
DEST_LOCK = ".lock"  # in DEST.versions/
KEEP_VERSIONS = 3  # besides the live one and the one rollback goes to, when they are older
STALE_SECONDS = 60 * 60  # a staging folder this old is left over even if its pid was reused
VERSION_NAME = re.compile(r"\d{8}T\d{12}Z-[0-9a-f]{12}")
FILE_MODE, FOLDER_MODE = 0o644, 0o755


class DestinationError(BuildError):
    """A destination the generator must not touch: bad input, exit 2."""
    exit_code = 2


# ---- what the destination is ------------------------------------------------------------

def absolute(dest: Path) -> Path:
    """dest made absolute with its parent folders resolved (`/var/www` may be a link to
    `/srv/www`), but not DEST itself: it may be our link. A leading `~` is refused: nothing
    expanded it (a quoted DEST), and it would make a folder named `~` here."""
    if str(dest).startswith("~"):
        raise DestinationError(f"{dest}: starts with '~', which nothing expanded; write the full path "
                               "(e.g. $HOME/pyramide-site)")
    dest = Path(os.path.abspath(dest))
    return Path(os.path.realpath(dest.parent)) / dest.name


def versions_folder(dest: Path) -> Path:
    return dest.with_name(dest.name + ".versions")


def marked(folder: Path) -> bool:
    """Whether folder holds our MARKER as a regular file (a link there proves nothing)."""
    marker = folder / MARKER
    return marker.is_file() and not marker.is_symlink()


def link_target(dest: Path) -> str | None:
    """The version name DEST links to when it is a link publish made, to a version folder (not
    a link) of its own DEST.versions, else None."""
    if not dest.is_symlink():
        return None
    target = os.readlink(dest)
    folder, _, name = target.partition("/")
    version = versions_folder(dest) / name
    if folder == versions_folder(dest).name and VERSION_NAME.fullmatch(name) and not version.is_symlink() and marked(version):
        return name
    return None


def nesting_problem(dest: Path) -> str | None:
    """Why dest (absolute, parents resolved) lies where a publish would change another published
    site, or None."""
    if dest.name.endswith(".versions"):
        return f"{dest}: its name ends in '.versions', the name publish keeps for the versions beside a DEST; choose another"
    for folder in dest.parents:
        if folder.name.endswith(".versions"):
            return (f"{dest}: is inside {folder}, where the versions of a published site are kept; "
                    "publish into a folder of its own")
        if marked(folder):
            return (f"{dest}: is inside {folder}, a published site; publishing there would change a version "
                    "its DEST shows. Publish into a folder of its own")
    return None


def check_destination(dest: Path, versioned: bool = False) -> str:
    """What dest is: "new", "empty" (an empty folder), "folder" (a site we built), "link"
    (our symlink to a version) or "lost" (missing, while DEST.versions says a version was live:
    a run was killed between two renames). Raises DestinationError for anything we must not
    touch, and for a versioned DEST inside the repository."""
    dest = absolute(dest)
    for place in (dest, Path(os.path.realpath(dest))):
        if place == ROOT:
            raise DestinationError(f"{dest}: is the repository itself; publish into a folder outside it, e.g. ../pyramide-site")
        if ROOT.is_relative_to(place):
            raise DestinationError(f"{dest}: contains the repository ({ROOT}); publish into a folder of its own")
        if versioned and place.is_relative_to(ROOT):
            raise DestinationError(f"{dest}: is inside the repository ({ROOT}), where `make site` and `make clean` "
                                   "remove what is there; publish into a folder outside it, e.g. ../pyramide-site")
    nested = nesting_problem(dest)
    if nested:
        raise DestinationError(nested)
    versions = versions_folder(dest)
    if ROOT.is_relative_to(versions):
        raise DestinationError(f"{dest}: its versions would go into the repository ({versions}); choose another name")
    if os.path.lexists(versions) and (versions.is_symlink() or not versions.is_dir()):
        raise DestinationError(f"{versions}: exists and is not a folder of its own (a file, or a link); the published versions "
                               "are kept and pruned there, so move it away")
    if dest.is_symlink():
        folder, _, name = os.readlink(dest).partition("/")
        if folder == versions.name and VERSION_NAME.fullmatch(name) and (versions / name).is_symlink():
            raise DestinationError(f"{dest}: shows {versions / name}, which is a link, not a version folder (another "
                                   "publish replaced it); nothing was changed. Publish again to make a version of "
                                   "its own live")
        if link_target(dest) is None:
            raise DestinationError(f"{dest}: is a link to {os.readlink(dest)}, not a site published here; "
                                   "nothing was changed. Move it away or choose another folder")
        return "link"
    if not dest.exists():
        return "lost" if lost_version(dest) else "new"
    if not dest.is_dir():
        raise DestinationError(f"{dest}: is a file, not a folder; nothing was changed. Choose a folder")
    if marked(dest):
        return "folder"
    if not any(dest.iterdir()):
        return "empty"
    raise DestinationError(f"{dest}: the folder exists and was not made by this generator (no {MARKER} in it); "
                           "nothing was changed. Move it away or choose a new folder")


# ---- one build at a time, each in its own staging folder --------------------------------

@contextmanager
def file_lock(path: Path, what: str) -> Iterator[None]:
    """Holds an exclusive flock on path; waits (saying so) while another process holds it."""
    try:  # never through a link, never anything but a regular file: we write our pid into it
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, FILE_MODE)
    except OSError as e:
        raise DestinationError(f"{path}: cannot be used as a lock ({e.strerror}: a link or something else is "
                               "there); remove it") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DestinationError(f"{path}: is not a regular file, so it cannot be used as a lock; remove it")
    with open(fd, "a+") as lock:
        if os.fstat(lock.fileno()).st_uid == os.getuid():
            os.fchmod(lock.fileno(), FILE_MODE)  # readable like the rest of DEST.versions, whatever the umask
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            print(f"Waiting for another {what} (pid {holder}, lock {path}) to finish…", file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def build_lock(path: Path | None = None) -> Iterator[None]:
    """The checkout's lock (build/build.lock): one build at a time uses its build/ folder."""
    path = path or LOCK
    path.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(path, "build or publish"):
        yield


@contextmanager
def dest_lock(dest: Path) -> Iterator[None]:
    """DEST's own lock, DEST.versions/.lock: whichever checkout publishes, rolls back or prunes
    there, one at a time."""
    folder = versions_folder(dest)
    if not folder.is_dir():
        fileops.mkdir(folder, FOLDER_MODE)
    with file_lock(folder / DEST_LOCK, f"publish or rollback of {dest}"):
        yield


def leftover_pattern(dest: Path) -> re.Pattern:
    """Names of the helpers a run puts next to dest: staging folders, a replaced copy, a new link."""
    return re.compile(rf"\.{re.escape(dest.name)}\.(staging|old|link)-(\d+)-[0-9a-f]+")


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def remove(path: Path) -> None:
    """A leftover of ours, whatever it is: a link or file is unlinked, a folder removed."""
    if path.is_symlink() or not path.is_dir():
        fileops.unlink(path)
    else:
        fileops.rmtree(path)


def remove_stale(dest: Path, now: float | None = None) -> list[Path]:
    """Removes what killed runs left next to dest (their pid is gone, or older than an hour);
    returns what it removed. Only names this module makes are looked at."""
    now = time.time() if now is None else now
    pattern, removed = leftover_pattern(dest), []
    if not dest.parent.is_dir():
        return removed
    for entry in dest.parent.iterdir():
        match = pattern.fullmatch(entry.name)
        if not match:
            continue
        age = now - entry.lstat().st_mtime
        if pid_alive(int(match[2])) and age < STALE_SECONDS:
            continue
        remove(entry)
        removed.append(entry)
    return removed


@contextmanager
def staging(dest: Path) -> Iterator[Path]:
    """A fresh folder next to dest (same file system, so the final move is a rename), removed
    afterwards whatever happens. Leftovers of killed runs are cleaned first."""
    dest = absolute(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(dest)
    stage = dest.with_name(f".{dest.name}.staging-{os.getpid()}-{secrets.token_hex(4)}")
    stage.mkdir()
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)  # the build's scratch, never served


def aside(dest: Path, kind: str) -> Path:
    """A fresh name next to dest for a helper of this run (see leftover_pattern)."""
    return dest.with_name(f".{dest.name}.{kind}-{os.getpid()}-{secrets.token_hex(4)}")


# ---- the versions kept beside DEST ------------------------------------------------------

def versions(dest: Path) -> list[str]:
    """The published versions, oldest first: only folders with our name and marker count
    (complete or not: version_files.problem says that)."""
    folder = versions_folder(dest)
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if VERSION_NAME.fullmatch(p.name) and not p.is_symlink() and marked(p))


def complete(dest: Path, name: str) -> bool:
    return version_files.problem(versions_folder(dest) / name) is None


def history(dest: Path) -> version_files.History:
    """The stack of versions that were live, reconciled with the link, without versions that
    are gone."""
    kept = versions(dest)
    written = version_files.read_history(versions_folder(dest))
    h = version_files.reconciled(written, link_target(dest), kept)
    h.live = [name for name in h.live if name in kept]
    return h


def lost_version(dest: Path) -> str | None:
    """When DEST is missing but its history names a complete version that was live: that one."""
    if os.path.lexists(dest) or not versions_folder(dest).is_dir():
        return None
    return next((name for name in reversed(history(dest).live) if complete(dest, name)), None)


def rollback_target(dest: Path, h: version_files.History) -> tuple[str | None, list[str]]:
    """The version that was live before the live one, and the stack once rollback went there;
    versions that are gone or fail their digest are passed over."""
    stack = list(h.live)
    live = stack.pop() if stack else None
    while stack and (stack[-1] == live or not complete(dest, stack[-1])):
        stack.pop()
    return (stack[-1] if stack else None), stack


def version_name(content: str, when: float) -> str:
    """<UTC time to the microsecond>-<content hash>: sorts by time, says whether two differ."""
    stamp = datetime.fromtimestamp(when, timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}-{content[:12]}"


def make_world_readable(folder: Path) -> None:
    """Folders 0755, files 0644, whatever the umask or tempfile gave (a web server running as
    another user must read them). Links are left alone: chmod would follow them (os.walk does
    not enter linked folders)."""
    for parent, _, files in os.walk(folder):
        fileops.chmod(Path(parent), FOLDER_MODE)
        for name in files:
            path = Path(parent, name)
            if not path.is_symlink():
                fileops.chmod(path, FILE_MODE)


def seal(folder: Path) -> str:
    """Marks a finished site as ours, readable by all, with, last, its digest; returns its
    content hash. A digest already there (a plain folder published before) is written anew, so
    it proves the files as they are now; an old record of the build inside is removed."""
    for name in (version_files.DIGEST, version_files.LEGACY_RECORD, *([] if marked(folder) else [MARKER])):
        if os.path.lexists(folder / name):  # a marker that is a link goes too: ours is written new
            fileops.unlink(folder / name)
    if not marked(folder):
        fileops.write_bytes(folder / MARKER, MARKER_TEXT.encode(), FILE_MODE)
    make_world_readable(folder)
    return version_files.write_digest(folder)


def clean_versions_folder(dest: Path) -> None:
    """What killed runs left in DEST.versions (under DEST's lock, so no other run is using it):
    versions renamed aside to be deleted, temporary files, a link made for an exchange that
    never happened, the record of a version that is gone or never arrived."""
    folder, kept = versions_folder(dest), versions(dest)
    for entry in folder.iterdir():
        record_of = entry.name.removesuffix(".json")
        if entry.name.startswith(".trash-") or (entry.name.startswith(".") and entry.name.endswith(".tmp")) \
                or (VERSION_NAME.fullmatch(entry.name) and entry.is_symlink()) \
                or (VERSION_NAME.fullmatch(record_of) and record_of not in kept):
            remove(entry)


def switch_link(dest: Path, name: str) -> None:
    """Points dest at DEST.versions/<name> with one rename: readers see the old or the new site."""
    problem = version_files.problem(versions_folder(dest) / name)
    if problem:  # checked here, at the one place a version becomes live
        raise BuildFailed(f"{versions_folder(dest) / name}: {problem}; it is not made live")
    temporary = aside(dest, "link")
    fileops.symlink(f"{versions_folder(dest).name}/{name}", temporary)  # relative: the pair can move together
    fileops.replace(temporary, dest)


def link_over_folder(dest: Path, name: str, moved: Path) -> None:
    """DEST, a folder, becomes the link to DEST.versions/<name>; the folder goes to `moved`.
    In one step where the system exchanges names; else two renames, and the history already
    says which version DEST must show if the run is killed between them (lost_version)."""
    target = f"{versions_folder(dest).name}/{name}"
    fileops.symlink(target, moved)
    try:
        fileops.exchange(moved, dest)
        return
    except fileops.ExchangeUnsupported:
        fileops.unlink(moved)
    fileops.rename(dest, moved)
    temporary = aside(dest, "link")
    fileops.symlink(target, temporary)
    fileops.replace(temporary, dest)


def adopt_folder(dest: Path) -> None:
    """A plain site (from `build --dest` or the old publish) becomes the oldest version, with
    DEST linking to it, DEST never missing."""
    when = dest.stat().st_mtime
    # Built by this generator with a digest that holds: nothing to write into the live folder.
    content = version_files.content_of(dest) if version_files.problem(dest) is None else seal(dest)
    name = version_name(content, when)
    h = history(dest)
    h.switched("adopted", name, time.time())
    version_files.write_history(versions_folder(dest), h)  # before: a kill between the renames finds it
    link_over_folder(dest, name, versions_folder(dest) / name)


def same_version(dest: Path, content: str) -> str | None:
    """A kept, complete version holding exactly this site, or None."""
    for name in reversed(versions(dest)):
        if version_files.content_of(versions_folder(dest) / name) == content and complete(dest, name):
            return name
    return None


def publish_version(site: Path, dest: Path, kind: str, content: str, allowances: list[str]) -> Path:
    """Moves the sealed site into DEST.versions/, its record beside it, and switches DEST to it
    (or to the kept version that is the same site, whose record stays); returns the live
    version. Caller holds dest_lock."""
    clean_versions_folder(dest)
    if kind == "folder":
        adopt_folder(dest)
    elif kind == "empty":
        fileops.rmdir(dest)  # refuses if something appeared in it meanwhile; nothing was shown
    h = history(dest)
    live = link_target(dest) or lost_version(dest)
    name = same_version(dest, content)
    if name is None:
        when = time.time()
        name = version_name(content, when)
        version_files.write_record(versions_folder(dest), name, content, ROOT, when, allowances)
        fileops.rename(site, versions_folder(dest) / name)
    if name != live or link_target(dest) != name:
        h.switched("publish", name, time.time())
        version_files.write_history(versions_folder(dest), h)
        switch_link(dest, name)
    prune(dest)
    return versions_folder(dest) / name


def prune(dest: Path, keep: int = KEEP_VERSIONS) -> list[str]:
    """Removes all but the newest `keep` versions, never the live one nor the one rollback would
    go to; each is renamed aside first, so a killed removal leaves no half version under a
    version's name. Returns the removed names."""
    h = history(dest)
    protected = {link_target(dest), rollback_target(dest, h)[0]}
    old = [name for name in versions(dest)[:-keep] if name not in protected]
    for name in old:
        trash = versions_folder(dest) / f".trash-{name}-{os.getpid()}-{secrets.token_hex(4)}"
        fileops.rename(versions_folder(dest) / name, trash)
        fileops.rmtree(trash)
        record = version_files.record_file(versions_folder(dest), name)
        if os.path.lexists(record):
            fileops.unlink(record)
    if old:
        h.live = [name for name in h.live if name not in old]
        version_files.write_history(versions_folder(dest), h)
    return old


def replace_folder(site: Path, dest: Path, kind: str) -> Path:
    """`build --dest`: dest becomes the new site as a plain folder. An empty or missing dest is
    replaced by one rename; our old site is exchanged with the new one (or, where the system
    cannot, renamed aside first) and removed after."""
    if kind in ("new", "empty"):
        fileops.replace(site, dest)  # onto an empty folder this is atomic; a non-empty one refuses
        return dest
    try:
        fileops.exchange(site, dest)
        remove(site)
        return dest
    except fileops.ExchangeUnsupported:
        pass
    old = aside(dest, "old")
    fileops.rename(dest, old)
    fileops.rename(site, dest)
    fileops.rmtree(old)
    return dest


def install(site: Path, dest: Path, versioned: bool, allowances: list[str] = ()) -> Path:
    """Puts a checked site at dest: as a new version behind DEST's link when `versioned` (or
    when dest already is our link), else as a plain folder. `allowances` (e.g. ALLOW_STALE and
    what it let through) go into the version's record. Returns where the site now is."""
    dest = absolute(dest)
    kind = check_destination(dest, versioned)
    content = seal(site)
    if not (versioned or kind in ("link", "lost")):
        return replace_folder(site, dest, kind)
    with dest_lock(dest):
        kind = check_destination(dest, True)  # again, under DEST's lock: another checkout may have published
        return publish_version(site, dest, kind, content, list(allowances))


# ---- going back, and saying what is live --------------------------------------------------

def rollback(dest: Path) -> tuple[str, str]:
    """Switches DEST back to the version that was live before the live one; returns (its name,
    what happened). When DEST is missing (a publish killed between two renames) it restores the
    version that was live. Raises DestinationError when there is nothing to go back to."""
    dest = absolute(dest)
    kind = check_destination(dest, True)
    if kind not in ("link", "lost"):
        raise DestinationError(f"{dest}: is not a site published with versions (make publish DEST=…); nothing to roll back")
    with dest_lock(dest):
        clean_versions_folder(dest)
        h = history(dest)
        if link_target(dest) is None:
            name = lost_version(dest)
            if name is None:
                raise DestinationError(f"{dest}: is missing and no complete version is kept in {versions_folder(dest)}")
            switch_link(dest, name)
            return name, "restored: DEST was missing (a publish had been stopped)"
        live = link_target(dest)
        target, stack = rollback_target(dest, h)
        if target is None:
            raise DestinationError(f"{dest}: no complete version kept in {versions_folder(dest)} was live before "
                                   f"{live}; nothing to roll back to")
        h.live = stack
        h.logged("rollback", target, time.time())
        version_files.write_history(versions_folder(dest), h)
        switch_link(dest, target)
        return target, f"rolled back from {live}"


def describe(dest: Path, name: str) -> str:
    """What a version's record says: its content id, when and from what it was built, and with
    which allowances."""
    record = version_files.read_record(versions_folder(dest), name)
    if not record:
        return f"{name}: not recorded (published before records were kept beside the versions, or its record is gone)"
    changed = record.get("working_tree_had_changes")
    tree = {True: "with uncommitted changes", False: "clean"}.get(changed, "state unknown")
    allowances = record.get("allowances")
    allowed = "; ".join(map(str, allowances if isinstance(allowances, list) else [])) or "none"
    return (f"{name}: content {record.get('content', 'unknown')}, built {record.get('built_at', 'at an unknown time')} "
            f"from commit {record.get('commit') or 'unknown'} (working tree {tree}), allowances: {allowed}")


def status(dest: Path) -> tuple[list[str], bool]:
    """What `status` says about DEST: the live version, when it went live, whether its digest
    holds, where rollback would go, then every kept version, newest first, by its record.
    Returns (lines, healthy). Raises DestinationError when DEST is not a published site."""
    dest = absolute(dest)
    kind = check_destination(dest, True)
    if kind not in ("link", "lost"):
        raise DestinationError(f"{dest}: is not a site published with versions (make publish DEST=…)")
    h = history(dest)
    live = link_target(dest)
    if live is None:
        return [f"{dest}: MISSING (a publish was stopped between two renames); "
                f"`make rollback DEST={dest}` restores {lost_version(dest)}"], False
    problem = version_files.problem(versions_folder(dest) / live)
    switched = next((e for e in reversed(h.log) if e.get("version") == live), None)
    target, _ = rollback_target(dest, h)
    kept = versions(dest)
    return [f"{dest} shows {live}",
            f"  live since {switched['at']} ({switched['action']})" if switched else "  live since: not recorded",
            f"  digest: {'every file matches' if problem is None else 'FAILS: ' + problem}",
            f"  rollback goes to {target}" if target else "  rollback: no version that was live before is kept",
            f"versions kept in {versions_folder(dest)}, newest first ({len(kept)}):",
            *(f"  {describe(dest, name)}" for name in reversed(kept))], problem is None
