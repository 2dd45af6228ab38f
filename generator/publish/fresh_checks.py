"""What a publish builds from: every check run again from its inputs, no cache in build/ trusted.

`make verify` keeps each passed check's result in build/check-cache/ and the survey's verdicts
in build/survey-cache/, and anyone who can write the checkout can write those files: a forged
check result with its digest recomputed, beside a forged survey file, passes a cached
`make verify`. So `publish` without --bundle runs `verify check --no-cache` into a bundle of
its own: the examples replayed and searched again, the rules checked, every won deal of the
survey replayed and every lost one decided again by both deciders. On the shared 2-core
machine that took 5 min 41 s (2 min 7 s of CPU) on 2026-12-07 with other work beside it.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import BuildError
from generator.settings import BUILD, ROOT


@contextmanager
def checked_bundle(dest: Path, docs: Path, allow_stale: bool) -> Iterator[Path]:
    """A bundle written by `verify check --no-cache` now, in a folder of build/ made for it (and
    removed after); BuildError when a check fails (the checker has printed what and where).
    What refuses a publish in a second (DEST, placeholder facts, stale translations) is said
    first, not after minutes of checks."""
    from generator.site import build as site

    site.refuse_unpublishable(dest, docs, allow_stale)
    BUILD.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="publish-checks-", dir=BUILD))
    try:
        bundle = folder / "verified.json"
        print("Publishing runs every check again from its inputs (no cached result is trusted)…", flush=True)
        done = subprocess.run([sys.executable, "-m", "verify", "check", "--no-cache", "--out", str(bundle)],
                              cwd=ROOT)
        if done.returncode != 0 or not bundle.is_file():
            raise BuildError("the checks, run again from their inputs for publishing (verify check --no-cache), "
                             "failed; nothing published")
        yield bundle
    finally:
        shutil.rmtree(folder, ignore_errors=True)
