"""The verified data bundle: the only door through which game facts reach the pages.

The generator refuses a bundle that is missing, failed, of another schema, or stale — made
from examples or app code that have changed since (their hashes are re-computed here).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .errors import BuildError

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = 1
FIX = "Run `make verify` to check everything again and write a fresh bundle."


def load_bundle(path: Path) -> dict:
    if not path.exists():
        raise BuildError(f"{path}: the verified data bundle is missing. {FIX}")
    try:
        bundle = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise BuildError(f"{path}, line {e.lineno}: the bundle is not valid JSON ({e.msg}). {FIX}") from None
    if bundle.get("schema") != SCHEMA:
        raise BuildError(f"{path}: bundle schema {bundle.get('schema')!r}, this generator reads {SCHEMA}. {FIX}")
    failed = [c["id"] for c in bundle.get("checks", []) if c.get("passed") is False]
    if failed or not bundle.get("checks"):
        raise BuildError(f"{path}: the bundle records failed checks ({', '.join(failed) or 'no checks at all'}). {FIX}")
    for name, digest in bundle["inputs"].items():
        file = ROOT / name
        if not file.exists():
            raise BuildError(f"{path}: made from {name}, which no longer exists. {FIX}")
        if hashlib.sha256(file.read_bytes()).hexdigest() != digest:
            raise BuildError(f"{path}: {name} has changed since the bundle was made, so its figures are stale. {FIX}")
    current = {str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.yaml")} | \
              {str(p.relative_to(ROOT)) for p in (ROOT / "app").glob("*.js")}
    new = sorted(current - set(bundle["inputs"]))
    if new:
        raise BuildError(f"{path}: {', '.join(new)} came after the bundle was made. {FIX}")
    return bundle
