"""What a published version is and which one was live when: the digest that proves a version
complete, what is recorded with it, and the history of live switches that rollback follows.

Promises:
- A version folder is complete only when its DIGEST file (the SHA-256 of every other file in
  it, written last) lists exactly the files that are there, each with its hash. Nothing is ever
  made live without that check, so a folder half-copied or half-deleted by a killed run can
  never be served. Its `content` hash (the site's files, not what is recorded about the build)
  says whether two builds are the same site.
- A version's record (DEST.versions/<version>.json, beside the version, never served) names it
  by its content id and says when it was built, from which commit, whether the working tree
  had uncommitted changes and which allowances (ALLOW_STALE) let it through.
- HISTORY (DEST.versions/history.json, replaced in one rename) holds the stack of versions that
  were live, oldest first: publish pushes, rollback pops. It is read together with the link,
  which is the truth about what is live now, so a run killed between writing the history and
  switching the link is read correctly (reconciled()).
- Nothing here follows a symbolic link: files are written under a fresh name and renamed into
  place (a link planted at the name is replaced, its target untouched), and read only when they
  are regular files (read_json), so a digest or record that is a link counts as missing.
"""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from generator.publish import fileops
from generator.errors import BuildFailed

DIGEST = ".pyramide-digest.json"
# Inside versions published before records moved beside them (2026-12-07): left out of the
# content id, so their digests still hold; seal() removes it from a folder it seals again.
LEGACY_RECORD = ".pyramide-version.json"
HISTORY = "history.json"
FORMAT = 1
FILE_MODE = 0o644
LOG_ENTRIES = 50  # of the history's log of switches, for `status`


# ---- the digest ---------------------------------------------------------------------------

def _file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _entries(folder: Path) -> tuple[list[str], list[str]]:
    """(relative paths of the regular files, of anything else: links, FIFOs…), the digest left out."""
    files, others = [], []
    for top, dirs, names in os.walk(folder):
        for name in names + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            path = os.path.join(top, name)
            relative = os.path.relpath(path, folder)
            if relative == DIGEST and not os.path.islink(path):
                continue  # a digest that is a link is "not a regular file", like any other
            (files if os.path.isfile(path) and not os.path.islink(path) else others).append(relative)
    return sorted(files), sorted(others)


def content_hash(files: dict[str, str]) -> str:
    """The hash of the site itself: every file but an old version's record of how it was built."""
    site = {path: sha for path, sha in files.items() if path != LEGACY_RECORD}
    return hashlib.sha256(json.dumps(site, sort_keys=True).encode()).hexdigest()


def file_hashes(folder: Path) -> dict[str, str]:
    files, others = _entries(folder)
    if others:
        raise BuildFailed(f"{folder / others[0]}: not a regular file; a published site holds only files and folders")
    return {path: _file_hash(folder / path) for path in files}


def write_digest(folder: Path) -> str:
    """Writes DIGEST into folder, last: the hashes of every other file. Returns the content hash."""
    files = file_hashes(folder)
    content = content_hash(files)
    text = json.dumps({"format": FORMAT, "content": content, "files": files}, indent=0, sort_keys=True)
    fileops.write_bytes(folder / DIGEST, text.encode(), FILE_MODE)
    return content


def read_json(path: Path):
    """The JSON in path when it is a regular file (not a link, a FIFO…), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # NONBLOCK: a FIFO cannot hang us
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            return json.loads(f.read())
        except ValueError:
            return None


def replace_file(path: Path, data: bytes) -> None:
    """path holds data, written under a fresh name and renamed over it in one step: a reader sees
    the old file or the new one, and a link at path is replaced, never followed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    fileops.write_bytes(temporary, data, FILE_MODE)
    fileops.replace(temporary, path)


def read_digest(folder: Path) -> dict | None:
    data = read_json(folder / DIGEST)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("files"), dict) \
            or not isinstance(data.get("content"), str):
        return None
    return data


def problem(folder: Path) -> str | None:
    """Why folder is not a complete version (a missing, extra or changed file, no digest), or None."""
    if folder.is_symlink() or not folder.is_dir():
        return "is not a folder"
    files, others = _entries(folder)
    if others:
        return f"holds {others[0]}, which is not a regular file"
    data = read_digest(folder)
    if data is None:
        return f"has no readable {DIGEST} (it was never completed, or was published before digests)"
    missing = sorted(set(data["files"]) - set(files))
    if missing:
        return f"misses {len(missing)} file(s), e.g. {missing[0]}"
    extra = sorted(set(files) - set(data["files"]))
    if extra:
        return f"holds {extra[0]}, which its digest does not list"
    for path in files:
        if _file_hash(folder / path) != data["files"][path]:
            return f"{path} differs from its digest"
    if content_hash(data["files"]) != data["content"]:
        return "its digest contradicts itself"
    return None


def content_of(folder: Path) -> str | None:
    """The content hash a version's digest states (not checked: use problem() for that)."""
    data = read_digest(folder)
    return data["content"] if data else None


# ---- what is recorded with a version ---------------------------------------------------------

def source_state(root: Path) -> tuple[str | None, bool | None]:
    """(commit, whether the working tree had changes) of the checkout at root; None when git
    cannot say (no git, not a repository)."""
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=30)
        changes = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=normal"],
                                 capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None, None
    if commit.returncode != 0 or changes.returncode != 0:
        return None, None
    return commit.stdout.strip(), bool(changes.stdout.strip())


def record_file(versions_folder: Path, name: str) -> Path:
    return versions_folder / f"{name}.json"


def write_record(versions_folder: Path, name: str, content: str, root: Path, when: float,
                 allowances: list[str]) -> None:
    """The record of version `name`, beside it in versions_folder."""
    commit, changed = source_state(root)
    record = {"format": FORMAT, "content": content,
              "built_at": datetime.fromtimestamp(when, timezone.utc).isoformat(timespec="seconds"),
              "commit": commit, "working_tree_had_changes": changed, "allowances": allowances}
    replace_file(record_file(versions_folder, name), json.dumps(record, indent=1).encode())


def read_record(versions_folder: Path, name: str) -> dict:
    data = read_json(record_file(versions_folder, name))
    return data if isinstance(data, dict) else {}


# ---- the history of live switches --------------------------------------------------------

@dataclass
class History:
    live: list[str] = field(default_factory=list)  # versions that were live, oldest first; the last is live now
    log: list[dict] = field(default_factory=list)  # {"at", "action", "version"} of each switch

    def switched(self, action: str, version: str, when: float) -> None:
        self.live.append(version)
        self.logged(action, version, when)

    def logged(self, action: str, version: str, when: float) -> None:
        at = datetime.fromtimestamp(when, timezone.utc).isoformat(timespec="seconds")
        self.log = [*self.log, {"at": at, "action": action, "version": version}][-LOG_ENTRIES:]


def read_history(versions_folder: Path) -> History | None:
    """The history as written, or None when there is none (or it cannot be read)."""
    data = read_json(versions_folder / HISTORY)
    if not isinstance(data, dict) or not isinstance(data.get("live"), list) \
            or not all(isinstance(v, str) for v in data["live"]):
        return None
    log = [e for e in data.get("log", []) if isinstance(e, dict)]
    return History(list(data["live"]), log)


def reconciled(history: History | None, live: str | None, by_time: list[str]) -> History:
    """The history as it is, given the version the link shows now (`live`, None when DEST is
    missing). A run killed after writing the history but before switching (or the reverse)
    left the stack one step ahead or behind: cut it back to the live version, or push it.
    Without a history (versions published before it was kept), the versions up to the live
    one by time stand in."""
    if history is None:
        older = [name for name in by_time if live is None or name <= live]
        return History(older)
    if live is None:
        return history
    if live in history.live:
        last = len(history.live) - 1 - history.live[::-1].index(live)
        return History(history.live[:last + 1], history.log)
    return History(history.live + [live], history.log)


def write_history(versions_folder: Path, history: History) -> None:
    """Replaces the history in one rename: a reader sees the old one or the new one."""
    text = json.dumps({"format": FORMAT, "live": history.live, "log": history.log}, indent=1)
    replace_file(versions_folder / HISTORY, text.encode())
