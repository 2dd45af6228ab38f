"""The verified bundle, the built site and other costly test inputs, made once per set of inputs.

Each is a pure function of the repository's files: `verify check` of the engines, checker,
examples, pages and survey cache; the site of those plus the generator; a worked example added
to a copy of the repository. So they are kept in build/ under a digest of those files and
reused by every test process (pytest-xdist workers too, one at a time under a lock) and by the
next run until a file changes. A reused folder is first compared with the fingerprint taken
when it was made.
"""
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
BUNDLE = BUILD / "verified.json"
BUNDLE_STAMP = BUILD / "verified.json.inputs"
SHARED = BUILD / "test-shared"  # ours alone: every folder in it was made by shared_output()
KEEP = 3  # per kind: not only the newest, another test run may still read one of a moment ago

# What the bundle is made from; the site adds the generator and the theme's configuration.
BUNDLE_INPUTS = ("app", "verify", "strict_yaml", "examples", "docs", "build/survey-cache")
SITE_INPUTS = BUNDLE_INPUTS + ("generator", "mkdocs.yml", "pyproject.toml")


def build_site(dest: Path, docs: Path | None = None, bundle: Path | None = None, command: str = "build"):
    args = [sys.executable, "-m", "generator", command]
    args += [str(dest)] if command == "publish" else ["--dest", str(dest)]
    if docs:
        args += ["--docs", str(docs)]
    # A publish without --bundle runs every check again (minutes): these tests publish the
    # bundle made for them; that step is tested in tests/verify/test_incremental_checks.py.
    if bundle or command == "publish":
        args += ["--bundle", str(bundle or BUNDLE)]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def inputs_digest(names) -> str:
    """Hash of every file under the named paths (path and content), plus the packages' versions."""
    h = hashlib.sha256()
    for dist in ("mkdocs", "mkdocs-material", "jinja2", "babel"):
        h.update(f"{dist}={metadata.version(dist)}\n".encode())
    for name in names:
        top = ROOT / name
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts:
                continue
            h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


@contextmanager
def _locked(name: str):
    BUILD.mkdir(exist_ok=True)
    with open(BUILD / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def ensure_bundle() -> Path:
    """build/verified.json for the files as they are: `verify check` runs only when one changed."""
    with _locked("test-bundle"):
        digest = inputs_digest(BUNDLE_INPUTS)
        if BUNDLE.exists() and BUNDLE_STAMP.exists() and BUNDLE_STAMP.read_text() == digest:
            return BUNDLE
        # Minutes: every lost deal of the survey is decided again in both deciders (17 min on a busy 2-core machine).
        r = subprocess.run([sys.executable, "-m", "verify", "check"], cwd=ROOT, capture_output=True, text=True, timeout=3600)
        assert r.returncode == 0, r.stderr
        BUNDLE_STAMP.write_text(digest)  # of the files as they were when the check began
        return BUNDLE


def _fingerprint(folder: Path) -> str:
    """Hash of every file in a made folder (a link by its target, never followed): a reused
    folder must be exactly as it was made."""
    h = hashlib.sha256()
    for top, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(top, d))]):
            path = Path(top, name)
            body = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
            h.update(str(path.relative_to(folder)).encode() + b"\0" + body + b"\0")
    return h.hexdigest()


def _forget_old(kind_folder: Path, keep: int) -> None:
    made = sorted(kind_folder.glob("*"), key=lambda p: p.stat().st_mtime, reverse=True) if kind_folder.exists() else []
    for old in made[keep:]:
        shutil.rmtree(old)


def shared_output(kind: str, digest: str, make) -> tuple[Path, dict]:
    """make(folder) once per digest: it creates `folder` and returns a JSON-able answer. Returns
    (folder, answer), reused while the digest holds and the folder is untouched."""
    with _locked(f"test-{kind}"):
        here = SHARED / kind / digest
        folder, answer, stamp = here / "out", here / "answer.json", here / "fingerprint"
        if stamp.exists() and answer.exists() and folder.is_dir() and stamp.read_text() == _fingerprint(folder):
            return folder, json.loads(answer.read_text())
        if here.exists():
            shutil.rmtree(here)  # a killed run or a spoiled folder: ours, made here
        _forget_old(SHARED / kind, keep=KEEP - 1)
        here.mkdir(parents=True)
        result = make(folder)
        answer.write_text(json.dumps(result))
        stamp.write_text(_fingerprint(folder))
        return folder, result


def shared_site() -> Path:
    """The real site, built from the files as they are; reused while none of them changes and
    the built files are untouched."""
    ensure_bundle()

    def build(dest: Path) -> dict:
        r = build_site(dest)
        assert r.returncode == 0, r.stderr
        return {}

    return shared_output("site", inputs_digest(SITE_INPUTS), build)[0]
