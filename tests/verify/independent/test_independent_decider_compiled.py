"""verify/independent/decider.py's kernel is numba's compiled code: every function between its
"kernel" and "Python side" headings is a numba dispatcher, and the inlined bit helpers compile.
`make mutation MODULE=independent-decider` runs the module's tests without numba's compiler (each
mutant would otherwise compile the search again, a minute here), where a dropped @njit or a bad
option of one changes nothing; compiled, the search would not compile at all. So this asks a
fresh interpreter with the compiler on: a second or two (only the two small helpers compile)."""
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "verify" / "independent" / "decider.py"


def kernel_functions() -> list[str]:
    text = SOURCE.read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines, 1) if l.startswith("# ") and l.rstrip().endswith(" kernel"))
    end = next(i for i, l in enumerate(lines, 1) if l.startswith("# ") and l.rstrip().endswith(" Python side"))
    return [node.name for node in ast.parse(text).body
            if isinstance(node, ast.FunctionDef) and start < node.lineno < end]


def test_every_kernel_function_is_compiled_and_the_inlined_helpers_compile():
    names = kernel_functions()
    assert {"_bits", "_low", "_hall", "_partners_ok", "_expand", "_search"} <= set(names) and len(names) == 18
    code = ("import json, numba\n"
            "from verify.independent import decider as d\n"
            f"names = {names!r}\n"
            "plain = [n for n in names if not isinstance(getattr(d, n), numba.core.dispatcher.Dispatcher)]\n"
            "print(json.dumps([plain, d._bits(11), d._low(8)]))\n")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "0"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.splitlines()[-1]) == [[], 3, 3]
