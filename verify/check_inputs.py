"""What each check of `make verify` reads, as a digest: the key of its result in the check cache
(verify/check_cache.py).

A check's result is a function of three things, and its digest covers all three:
- its code: the check's own module and every module of the project it imports, followed
  through every `import` statement (a local import too) — Python by its syntax tree, the
  app's JavaScript by its `import … from './x.js'` lines, from the Node programs the check
  starts (verify/app_bridge.mjs, verify/survey_worker.mjs). Code outside the project (numba,
  PyYAML, Node itself) is covered by `environment()`: the Python version, every installed
  distribution's version, and Node's path and version;
- the data it is given: an example's fields the check looks at (not its whole file, so a note
  edit does not solve the deal again), or the files it opens itself (a glossary, the survey
  cache);
- the cache machinery itself (this module and check_cache.py, FORMAT): changing how inputs
  are listed invalidates every result.

A file that cannot be read makes the digest fail with the error the check would have raised,
so nothing is ever taken from the cache for it.
"""
from __future__ import annotations

import ast
import hashlib
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

from .settings import ROOT

FORMAT = 1  # of the digests; part of every one
PACKAGES = ("verify", "strict_yaml")  # the project's Python packages a check can import
JS_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}/[^'"]+)['"]""")
MACHINERY = (Path(__file__), Path(__file__).with_name("check_cache.py"))


def digest(*parts) -> str:
    """SHA-256 of JSON-able parts (file contents go in as their own digests, via files())."""
    text = json.dumps([FORMAT, *parts], sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def files(paths) -> dict[str, str]:
    """{path inside the project: SHA-256 of its bytes} of each path (OSError when one is missing)."""
    return {_shown(p): _file_digest(*_identity(Path(p))) for p in sorted(set(map(Path, paths)))}


def _identity(path: Path) -> tuple:
    """A file as its digest is remembered (by a warm process of make serve): any write or
    replacement changes its change time (ctime, which no tool sets back) or its inode."""
    st = path.stat()
    return path, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


@cache
def _file_digest(path: Path, *identity) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _shown(path: Path) -> str:
    path = path if path.is_absolute() else path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


# ---- code: the check's modules and everything they import ------------------------------------


def code(modules: tuple[str, ...], node_programs: tuple[str, ...] = ()) -> dict[str, str]:
    """The digest of every project file the check's code runs: the Python modules `modules`
    (dotted names) with their imports, followed to the end, and the Node programs
    `node_programs` (paths inside the project) with theirs; plus the cache's own code."""
    found = set(MACHINERY)
    for name in modules:
        found |= python_closure(name)
    for program in node_programs:
        found |= js_closure(ROOT / program)
    return files(found)


def python_closure(module: str) -> frozenset[Path]:
    """The module's file, its packages' __init__.py (run when it is imported), and the same for
    every project module it imports anywhere in its text."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        for path, name in _module_files(todo.pop()):
            if path not in seen:
                seen.add(path)
                todo += _imports_of(path, name)
    return frozenset(seen)


def _module_files(name: str) -> list[tuple[Path, str]]:
    """(file, its module's name) of what importing `name` runs: each package's __init__.py on the
    way, and the module."""
    parts = name.split(".")
    out = []
    for i in range(1, len(parts) + 1):
        base, dotted = ROOT.joinpath(*parts[:i]), ".".join(parts[:i])
        if (base / "__init__.py").is_file():
            out.append((base / "__init__.py", dotted))
        elif base.with_suffix(".py").is_file():
            return out + [(base.with_suffix(".py"), dotted)]  # what follows names something inside it
        else:
            break  # a name inside the package (`from . import Checked`)
    return out


# An import statement at the start of a line (a parenthesised list may span lines); each is
# parsed on its own, so only the import lines are read as Python. A match inside a string that
# is not an import fails to parse and is skipped; one that parses only adds a file.
IMPORT_LINE = re.compile(r"^[ \t]*((?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+(?:\([^)]*\)|[^\n]*))", re.M)


def _imports_of(path: Path, name: str) -> list[str]:
    """Dotted names of the project modules `path` (module `name`) imports, relative ones resolved;
    for `from x import y`, both x and x.y (y may be a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names = []
    for statement in _import_statements(*_identity(path)):
        if isinstance(statement, ast.Import):
            names += [alias.name for alias in statement.names]
        else:
            if statement.level:
                parts = package.split(".")
                target = ".".join(parts[:len(parts) - statement.level + 1] + ([statement.module] if statement.module else []))
            else:
                target = statement.module or ""
            names += [target] + [f"{target}.{alias.name}" for alias in statement.names]
    return [n for n in names if n.split(".")[0] in PACKAGES]


@cache
def _import_statements(path: Path, *identity) -> list[ast.stmt]:
    statements = []
    for line in IMPORT_LINE.findall(path.read_text(encoding="utf-8")):
        try:
            tree = ast.parse(line.strip())
        except SyntaxError:
            continue
        statements += [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    return statements


def js_closure(program: Path) -> frozenset[Path]:
    """The program and every file it imports by a relative path, followed to the end."""
    seen: set[Path] = set()
    todo = [program.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo += [(path.parent / target).resolve() for target in JS_IMPORT.findall(path.read_text(encoding="utf-8"))]
    return frozenset(seen)


# ---- the world outside the project ------------------------------------------------------------


def environment() -> dict:
    """What runs the project's code: Python, every installed distribution (by the names of their
    metadata folders, which carry the version), and Node (its path and version). Read afresh
    by every run (a warm process of make serve outlives a `pip install`)."""
    from .app import find_node  # NodeMissing here means the checks could not run either

    node = find_node()
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    installed = sorted(entry.name for place in map(Path, sys.path) if place.is_dir()
                       for entry in place.iterdir() if entry.suffix in (".dist-info", ".egg-info"))
    return {"python": sys.version, "executable": sys.executable, "node": [node, version], "distributions": installed}
