"""A copy of the repository in a temporary folder, for the tests of a whole job (a worked example
added, a third language): its files as they are now, the .venv linked and the survey cache
copied, so nothing is installed or surveyed again; and `make` run in the copy."""
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def repository_files() -> list[str]:
    """The tracked files and the new ones not ignored, as they are in the working tree."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    return [name for name in listed if name and (ROOT / name).is_file()]


def copy_repository(dest: Path, names: list[str]) -> None:
    for name in names:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)  # mtimes kept: make sees the setup as done
    os.symlink(ROOT / ".venv", dest / ".venv")
    (dest / "build").mkdir(exist_ok=True)
    # A copy, not a link: the survey refuses a cache folder reached through a link (it deletes
    # files there), so the copy's `make site` checks its own copy of the finished survey.
    shutil.copytree(ROOT / "build" / "survey-cache", dest / "build" / "survey-cache")


def run_make(copy: Path, *args: str) -> subprocess.CompletedProcess:
    # -o: never remake the setup stamp, which would reinstall the shared .venv from the copy.
    # --no-print-directory: run from `make test`, make would add its "Entering directory" lines.
    return subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed-stamp", *args], cwd=copy,
                          capture_output=True, text=True, timeout=900)
