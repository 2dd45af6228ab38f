"""The check cache: each passed check's result (what it counted, what it made for the bundle,
how long it took) kept in build/check-cache/<check id>/<digest>.json under the digest of
exactly what it read (verify/check_inputs.py), so `make verify` redoes only the checks an edit
can change.

Only passed results are kept — a failed check runs again every time — and each is written
atomically as soon as it passes, so a stopped run keeps what it finished. An entry is used only
when its name, its recorded digest and its content's checksum all agree; anything else (a
truncated file, an edit) is a miss and is computed again. The cache is a build output like
build/verified.json, made and read only by `verify check`; `verify check --no-cache` ignores it.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

KEEP_UNUSED = 8  # per check: results not used by this run kept for going back (an undo, a branch switch)


def _checksum(entry: dict) -> str:
    return hashlib.sha256(json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class CheckCache:
    """Results by (check id, digest) in `folder`; a cache with folder None keeps nothing."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.used: set[Path] = set()

    def _path(self, check_id: str, key: str) -> Path:
        return self.folder / check_id / f"{key}.json"

    def load(self, check_id: str, key: str) -> dict | None:
        """The stored {counts, data, seconds} of this check for this digest, or None."""
        if self.folder is None:
            return None
        path = self._path(check_id, key)
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            entry = stored["entry"]
            if stored["sha256"] != _checksum(entry) or entry["check"] != check_id or entry["digest"] != key:
                return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        self.used.add(path)
        return entry

    def save(self, check_id: str, key: str, counts: dict, data, seconds: float) -> None:
        """Keeps a passed result (temporary file, then rename: a reader sees all of it or none)."""
        if self.folder is None:
            return
        entry = {"check": check_id, "digest": key, "counts": counts, "data": data, "seconds": seconds}
        path = self._path(check_id, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"entry": entry, "sha256": _checksum(entry)}, ensure_ascii=False),
                           encoding="utf-8")
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        self.used.add(path)

    def prune(self) -> None:
        """Per check, every result this run used or made, and the KEEP_UNUSED newest others."""
        if self.folder is None or not self.folder.is_dir():
            return
        for check_dir in self.folder.iterdir():
            if not check_dir.is_dir() or check_dir.is_symlink():
                continue
            unused = sorted((p for p in check_dir.glob("*.json") if p not in self.used and not p.is_symlink()),
                            key=lambda p: p.stat().st_mtime, reverse=True)
            for old in unused[KEEP_UNUSED:]:
                old.unlink(missing_ok=True)
