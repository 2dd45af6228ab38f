"""The app's JavaScript unit tests (tests/js/*.test.mjs, node:test), one file per pytest test so
that they run beside the Python tests on every core instead of before them."""
import subprocess
from pathlib import Path

import pytest

from verify.app import find_node

JS_TESTS = sorted((Path(__file__).parent / "js").glob("*.test.mjs"))


def test_every_js_test_file_is_found():
    assert {p.name for p in JS_TESTS} >= {"engine.test.mjs", "decider.test.mjs", "solver.test.mjs", "storage.test.mjs"}


@pytest.mark.parametrize("path", JS_TESTS, ids=lambda p: p.name)
def test_js_unit_tests_pass(path):
    r = subprocess.run([find_node(), "--test", str(path)], capture_output=True, text=True, timeout=1200)
    failed = [line for line in r.stdout.splitlines() if line.startswith("not ok") or line.startswith("✖")]
    assert r.returncode == 0, f"{path.name}: {len(failed)} failed\n" + "\n".join(failed) + "\n" + r.stdout[-4000:] + r.stderr[-2000:]
    assert "# fail 0" in r.stdout or "ℹ fail 0" in r.stdout, r.stdout[-2000:]
