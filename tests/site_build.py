"""The verified bundle and the built site for the tests, made once per set of inputs.

Both are pure functions of the repository's files: `verify check` of the engines, checker,
examples, pages and survey cache; the site of those plus the generator. So they are kept in
build/ under a digest of those files and reused by every test process (pytest-xdist workers
too, one at a time under a lock) and by the next run until a file changes. A reused site is
first compared with the fingerprint taken when it was built.
"""
import fcntl
import hashlib
import shutil
import subprocess
import sys
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
BUNDLE = BUILD / "verified.json"
BUNDLE_STAMP = BUILD / "verified.json.inputs"
SITES = BUILD / "test-sites"   # ours alone: every folder in it was made by shared_site()
KEEP_SITES = 3

# What the bundle is made from; the site adds the generator and the theme's configuration.
BUNDLE_INPUTS = ("app", "verify", "strict_yaml", "examples", "docs", "build/survey-cache")
SITE_INPUTS = BUNDLE_INPUTS + ("generator", "mkdocs.yml", "pyproject.toml")


def build_site(dest: Path, docs: Path | None = None, bundle: Path | None = None, command: str = "build"):
    args = [sys.executable, "-m", "generator", command]
    args += [str(dest)] if command == "publish" else ["--dest", str(dest)]
    if docs:
        args += ["--docs", str(docs)]
    if bundle:
        args += ["--bundle", str(bundle)]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def inputs_digest(names) -> str:
    """Hash of every file under the named paths (path and content), plus the packages' versions."""
    h = hashlib.sha256()
    for dist in ("mkdocs", "mkdocs-material", "jinja2", "babel", "num2words"):
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
        r = subprocess.run([sys.executable, "-m", "verify", "check"], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        BUNDLE_STAMP.write_text(digest)  # of the files as they were when the check began
        return BUNDLE


def _fingerprint(folder: Path) -> str:
    """Hash of every file in a built site: a reused site must be exactly as it was built."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _forget_old_sites(keep: int) -> None:
    # Not only the newest: another test run may still be reading a site of a moment ago.
    built = sorted(SITES.glob("*"), key=lambda p: p.stat().st_mtime, reverse=True) if SITES.exists() else []
    for old in built[keep:]:
        shutil.rmtree(old)


def shared_site() -> Path:
    """The real site, built from the files as they are; reused while none of them changes and
    the built files are untouched."""
    ensure_bundle()
    with _locked("test-sites"):
        digest = inputs_digest(SITE_INPUTS)
        done, stamp = SITES / digest / "site", SITES / digest / "fingerprint"
        if stamp.exists() and done.is_dir() and stamp.read_text() == _fingerprint(done):
            return done
        if done.parent.exists():
            shutil.rmtree(done.parent)  # a killed build or a spoiled site: ours, made here
        _forget_old_sites(keep=KEEP_SITES - 1)
        done.parent.mkdir(parents=True)
        r = build_site(done)
        assert r.returncode == 0, r.stderr
        stamp.write_text(_fingerprint(done))
        return done
