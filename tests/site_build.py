"""Builds the site once per test session from the real docs and a fresh bundle."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_site(dest: Path, docs: Path | None = None, bundle: Path | None = None, command: str = "build"):
    args = [sys.executable, "-m", "generator", command]
    args += [str(dest)] if command == "publish" else ["--dest", str(dest)]
    if docs:
        args += ["--docs", str(docs)]
    if bundle:
        args += ["--bundle", str(bundle)]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def ensure_bundle() -> Path:
    bundle = ROOT / "build" / "verified.json"
    r = subprocess.run([sys.executable, "-m", "verify", "check"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return bundle
