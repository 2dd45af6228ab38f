"""Where a built site goes, without ever destroying what was there.

Promises:
- A destination is touched only when it is new, an empty folder, or a site this generator made
  (it holds the MARKER file). A file, a link we did not make, the repository or a folder that
  contains it are refused, naming the folder; nothing is changed.
- `publish` keeps versions next to DEST (`DEST.versions/<time>-<hash>/`) and DEST is a symlink
  switched with one rename, so a reader always gets one complete site; the last KEEP_VERSIONS
  stay for `rollback`. (A plain folder made by `build --dest` or the old publish is moved into
  the versions once, then DEST becomes the link.)
- Published files and folders are world-readable: the web server may run as another user.
- Each build stages in its own folder next to DEST (named with its pid); folders left by killed
  runs are removed by the next build. Builds and publishes take one lock, so they never overlap.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import secrets
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from .settings import ROOT
from .errors import BuildError

MARKER = ".pyramide-published"
MARKER_TEXT = ("This folder was made by `python -m generator` (Pyramide). `make site`, `make publish`\n"
               "and `make rollback` may replace it; they refuse any folder without this file.\n")
LOCK = ROOT / "build" / "build.lock"
KEEP_VERSIONS = 3  # the live one and two to roll back to
STALE_SECONDS = 60 * 60  # a staging folder this old is left over even if its pid was reused
VERSION_NAME = re.compile(r"\d{8}T\d{12}Z-[0-9a-f]{12}")
FILE_MODE, FOLDER_MODE = 0o644, 0o755


class DestinationError(BuildError):
    """A destination the generator must not touch: bad input, exit 2."""
    exit_code = 2


# ---- what the destination is ------------------------------------------------------------

def absolute(dest: Path) -> Path:
    """dest made absolute without following a symlink at its end (DEST itself may be our link)."""
    return Path(os.path.abspath(dest))


def versions_folder(dest: Path) -> Path:
    return dest.with_name(dest.name + ".versions")


def link_target(dest: Path) -> str | None:
    """The version name DEST links to when it is a link publish made, else None."""
    target = os.readlink(dest)
    folder, _, name = target.partition("/")
    if folder == versions_folder(dest).name and VERSION_NAME.fullmatch(name) and (versions_folder(dest) / name / MARKER).is_file():
        return name
    return None


def check_destination(dest: Path) -> str:
    """What dest is: "new", "empty" (an empty folder), "folder" (a site we built) or "link"
    (our symlink to a version). Raises DestinationError for anything we must not touch."""
    dest = absolute(dest)
    for place in (dest, Path(os.path.realpath(dest))):
        if place == ROOT:
            raise DestinationError(f"{dest}: is the repository itself; publish into a folder outside it, e.g. ../pyramide-site")
        if ROOT.is_relative_to(place):
            raise DestinationError(f"{dest}: contains the repository ({ROOT}); publish into a folder of its own")
    versions = versions_folder(dest)
    if ROOT.is_relative_to(versions):
        raise DestinationError(f"{dest}: its versions would go into the repository ({versions}); choose another name")
    if os.path.lexists(versions) and not versions.is_dir():
        raise DestinationError(f"{versions}: exists and is not a folder; the published versions are kept there, so move it away")
    if dest.is_symlink():
        if link_target(dest) is None:
            raise DestinationError(f"{dest}: is a link to {os.readlink(dest)}, not a site published here; "
                                   "nothing was changed. Move it away or choose another folder")
        return "link"
    if not dest.exists():
        return "new"
    if not dest.is_dir():
        raise DestinationError(f"{dest}: is a file, not a folder; nothing was changed. Choose a folder")
    if (dest / MARKER).is_file():
        return "folder"
    if not any(dest.iterdir()):
        return "empty"
    raise DestinationError(f"{dest}: the folder exists and was not made by this generator (no {MARKER} in it); "
                           "nothing was changed. Move it away or choose a new folder")


# ---- one build at a time, each in its own staging folder --------------------------------

@contextmanager
def build_lock(path: Path | None = None) -> Iterator[None]:
    """Holds an exclusive lock on build/build.lock; waits (saying so) while another build holds it."""
    path = path or LOCK
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            print(f"Waiting for another build or publish (pid {holder}, lock {path}) to finish…", file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


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
        if entry.is_symlink() or not entry.is_dir():
            entry.unlink()
        else:
            shutil.rmtree(entry)
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
        shutil.rmtree(stage, ignore_errors=True)


# ---- putting a checked site in place ----------------------------------------------------

def make_world_readable(folder: Path) -> None:
    """Folders 0755, files 0644, whatever the umask or tempfile gave (a web server running as
    another user must read them). Links are left alone: chmod would follow them (os.walk does
    not enter linked folders)."""
    for parent, _, files in os.walk(folder):
        os.chmod(parent, FOLDER_MODE)
        for name in files:
            path = os.path.join(parent, name)
            if not os.path.islink(path):
                os.chmod(path, FILE_MODE)


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        h.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def version_name(folder: Path, when: float) -> str:
    """<UTC time to the microsecond>-<content hash>: sorts by time, says whether two differ."""
    stamp = datetime.fromtimestamp(when, timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}-{digest(folder)[:12]}"


def switch_link(dest: Path, name: str) -> None:
    """Points dest at DEST.versions/<name> with one rename: readers see the old or the new site."""
    temporary = dest.with_name(f".{dest.name}.link-{os.getpid()}-{secrets.token_hex(4)}")
    os.symlink(f"{versions_folder(dest).name}/{name}", temporary)  # relative: the pair can move together
    try:
        os.replace(temporary, dest)
    except OSError:
        temporary.unlink()
        raise


def versions(dest: Path) -> list[str]:
    """The published versions, oldest first: only folders with our name and marker count."""
    folder = versions_folder(dest)
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if VERSION_NAME.fullmatch(p.name) and not p.is_symlink() and (p / MARKER).is_file())


def prune(dest: Path, keep: int = KEEP_VERSIONS) -> list[str]:
    """Removes all but the newest `keep` versions, never the live one; returns the removed names."""
    live = link_target(dest) if dest.is_symlink() else None
    old = [name for name in versions(dest)[:-keep] if name != live]
    for name in old:
        shutil.rmtree(versions_folder(dest) / name)
    return old


def publish_version(site: Path, dest: Path, kind: str) -> Path:
    """Moves the finished site into DEST.versions/ and switches DEST to it; returns the version."""
    folder = versions_folder(dest)
    if not folder.is_dir():
        folder.mkdir()
        os.chmod(folder, FOLDER_MODE)
    if kind == "folder":
        # A plain site from `build --dest` or the old publish: it becomes the oldest version.
        # The one moment without DEST is between this rename and the link's, once per folder.
        os.rename(dest, folder / version_name(dest, dest.stat().st_mtime))
    elif kind == "empty":
        os.rmdir(dest)  # refuses if something appeared in it meanwhile
    name = version_name(site, time.time())
    os.rename(site, folder / name)
    switch_link(dest, name)
    prune(dest)
    return folder / name


def replace_folder(site: Path, dest: Path, kind: str) -> Path:
    """`build --dest`: dest becomes the new site as a plain folder. An empty or missing dest is
    replaced by one rename; our old site is renamed aside first and removed after."""
    if kind in ("new", "empty"):
        os.replace(site, dest)  # onto an empty folder this is atomic; a non-empty one refuses
        return dest
    old = dest.with_name(f".{dest.name}.old-{os.getpid()}-{secrets.token_hex(4)}")
    os.rename(dest, old)
    os.rename(site, dest)
    shutil.rmtree(old)
    return dest


def install(site: Path, dest: Path, versioned: bool) -> Path:
    """Puts a checked site at dest: as a new version behind DEST's link when `versioned` (or
    when dest already is our link), else as a plain folder. Returns where the site now is."""
    dest = absolute(dest)
    kind = check_destination(dest)  # again: the folder may have changed during the build
    (site / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    make_world_readable(site)
    if versioned or kind == "link":
        return publish_version(site, dest, kind)
    return replace_folder(site, dest, kind)


def rollback(dest: Path) -> str:
    """Switches DEST back to the version published before the live one; returns its name.
    Raises DestinationError when DEST is not our link or there is nothing older."""
    dest = absolute(dest)
    if check_destination(dest) != "link":
        raise DestinationError(f"{dest}: is not a site published with versions (make publish DEST=…); nothing to roll back")
    with build_lock():  # not while a publish switches or prunes
        live = link_target(dest)
        older = [name for name in versions(dest) if name < live]
        if not older:
            raise DestinationError(f"{dest}: {live} is the oldest version kept in {versions_folder(dest)}; nothing older to roll back to")
        switch_link(dest, older[-1])
        return older[-1]
