"""Every change publish.py makes to the file system, one small function each, so that a test can
stop a publish, a prune or a rollback at any single one of them (tests/generator/publish/test_publish_faults.py
sets `before`). Reading is not here: only a change can leave a half-done state.

`exchange` swaps two names in one step (Linux renameat2 RENAME_EXCHANGE): a folder becomes a
link with no moment in which the name is missing. Where the system cannot (another OS, a file
system without it) it raises ExchangeUnsupported and the caller takes the two-rename path.
"""
from __future__ import annotations

import ctypes
import errno
import os
from pathlib import Path

# Called before each change with its name and paths; a test raises here to "kill" the run.
before = None
RENAME_EXCHANGE = 2  # linux/fs.h
AT_FDCWD = -100


class ExchangeUnsupported(OSError):
    """The system has no atomic exchange of two names."""


def _step(op: str, *paths) -> None:
    if before is not None:
        before(op, *paths)


def mkdir(path: Path, mode: int) -> None:
    _step("mkdir", path)
    os.mkdir(path)
    os.chmod(path, mode)  # whatever the umask


def chmod(path: Path, mode: int) -> None:
    _step("chmod", path)
    os.chmod(path, mode)


def write_bytes(path: Path, data: bytes, mode: int) -> None:
    """A new file with data, on disk before this returns (a crash right after cannot leave it
    empty). Two steps, so a test can stop between creating the file and filling it."""
    _step("create", path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.fchmod(fd, mode)
        _step("write", path)
        os.write(fd, data) if len(data) < 1 << 20 else _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def rename(source: Path, target: Path) -> None:
    _step("rename", source, target)
    os.rename(source, target)


def replace(source: Path, target: Path) -> None:
    _step("replace", source, target)
    os.replace(source, target)


def symlink(target: str, link: Path) -> None:
    _step("symlink", link)
    os.symlink(target, link)


def unlink(path: Path) -> None:
    _step("unlink", path)
    os.unlink(path)


def rmdir(path: Path) -> None:
    _step("rmdir", path)
    os.rmdir(path)


def rmtree(folder: Path) -> None:
    """Removes a folder and everything in it, one file at a time (so each removal is a step);
    links are removed, never followed."""
    for top, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            unlink(Path(top, name))
        for name in dirs:
            path = Path(top, name)
            unlink(path) if path.is_symlink() else rmdir(path)
    rmdir(folder)


_renameat2 = None


def exchange(a: Path, b: Path) -> None:
    """Swaps the names a and b in one step. ExchangeUnsupported where the system cannot."""
    global _renameat2
    if _renameat2 is None:
        libc = ctypes.CDLL(None, use_errno=True)
        _renameat2 = getattr(libc, "renameat2", False)
    if not _renameat2:
        raise ExchangeUnsupported(errno.ENOSYS, "no renameat2 on this system")
    _step("exchange", a, b)
    if _renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise ExchangeUnsupported(code, f"the file system of {a} cannot exchange names")
        raise OSError(code, os.strerror(code), str(a))
