"""The shape of the code, held by its imports: the independent engine imports nothing of the
checker or the app (read from its source, and seen at run time: the engine plays, solves and
decides under an audit hook that refuses the rest of verify/, app/ and Node), neither package
has an import circle, the generator never imports verify/, the two copies of the bundle's
path and schema agree, the app's core (app/core/) needs neither its UI (app/ui/) nor a DOM, and
no test module imports another: what the tests share is in tests/helpers/."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator import settings as generator_settings
from verify import settings as verify_settings

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module `path` imports, at the top or inside a function, as absolute names (a
    `from X import name` counts as X.name too, since the name may be a submodule)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def modules(package: str) -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py")) if "__pycache__" not in p.parts}


def graph(package: str) -> dict[str, set[str]]:
    """Each module of the package → the modules of the package it imports."""
    mods = modules(package)
    return {name: {m for m in imports(path) if m in mods and m != name} for name, path in mods.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the list of modules around it, or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_independent_engine_imports_nothing_of_the_checker_or_the_app():
    own = modules("verify/independent")
    assert {"verify.independent.deal", "verify.independent.rules", "verify.independent.solver",
            "verify.independent.decider"} <= set(own)
    for name, path in own.items():
        foreign = sorted(m for m in imports(path)
                         if (m.startswith("verify") and not m.startswith("verify.independent"))
                         or m.split(".")[0] in ("generator", "tests", "bench"))
        assert not foreign, f"{path.relative_to(ROOT)} imports {foreign}: the independent engine is written " \
                            "from the documents only and may not use the app's bridge, the checks or the survey"


# Runs the independent engine with an audit hook that refuses what it may not use: any module of
# verify/ outside verify/independent/ (import statements, importlib, __import__ alike), any file
# of app/ (but the variants registry, data) or of the rest of verify/, and any other program
# (Node). The import walk above reads only `import` statements; this catches the engine reaching
# the app however it does it.
ISOLATED = """
import os, sys
ROOT = os.path.realpath(sys.argv[1])
OWN = os.path.join(ROOT, "verify", "independent")
FORBIDDEN = (os.path.join(ROOT, "app"), os.path.join(ROOT, "verify"), os.path.join(ROOT, "generator"))
# The variants registry is data every part reads (its array as JSON), the one file of app/ it may open.
ALLOWED = (os.path.join(ROOT, "verify", "__init__.py"), os.path.join(ROOT, "app", "core", "variant-registry.js"))

def refuse(event, args):
    if event == "import":
        name = args[0]
        if name.split(".")[0] in ("generator", "tests", "bench") or (
                name.startswith("verify.") and not name.startswith("verify.independent")):
            raise RuntimeError(f"the independent engine imported {name}")
    elif event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.realpath(os.fsdecode(args[0]))
        if path.startswith(FORBIDDEN) and not path.startswith(OWN) and path not in ALLOWED:
            raise RuntimeError(f"the independent engine opened {path}")
    elif event in ("subprocess.Popen", "os.exec", "os.posix_spawn", "os.system"):
        raise RuntimeError(f"the independent engine ran another program: {args[0]}")

sys.path.insert(0, ROOT)
import verify  # the package's own __init__, before the hook (it is a docstring)
sys.addaudithook(refuse)
import random
from verify.independent import decider, deal, rules, solver, variants

for n in (1, 25, 27):  # a whole game in the rules, each move from its own legal_moves
    pos, rng = rules.opening(n), random.Random(n)
    while rules.legal_moves(pos):
        pos = rules.apply(pos, rng.choice(rules.legal_moves(pos)))
    assert rules.status(pos) in ("won", "stuck"), rules.status(pos)
start = rules.to_json(rules.opening(25))
assert solver.legal_moves(start) and solver.solve(start).shortest > 0
for name in variants.VARIANTS:
    decider.decide_deal(22, rules=variants.VARIANTS[name])
print("isolated")
"""


def test_the_independent_engine_runs_without_the_app_or_the_checker():
    r = subprocess.run([sys.executable, "-c", ISOLATED, str(ROOT)], capture_output=True, text=True, cwd="/")
    assert (r.returncode, r.stdout.strip()) == (0, "isolated"), r.stderr[-2000:]


def test_the_isolation_hook_refuses_the_app():
    """The same hook stops an engine that reads the app's moves through importlib."""
    probe = ISOLATED.replace('print("isolated")', 'import importlib; importlib.import_module("verify.app")')
    r = subprocess.run([sys.executable, "-c", probe, str(ROOT)], capture_output=True, text=True, cwd="/")
    assert r.returncode != 0
    assert re.search(r"RuntimeError: the independent engine (imported verify\.app|opened \S*/verify/\S*app\.)", r.stderr)


def test_the_import_walk_sees_a_forbidden_import(tmp_path, monkeypatch):
    """The walk above would notice one: a relative import out of the package counts."""
    source = tmp_path / "verify" / "independent" / "rules.py"
    source.parent.mkdir(parents=True)
    source.write_text("from ..app import AppEngine\nfrom . import deal\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert imports(source) == {"verify.app", "verify.app.AppEngine", "verify.independent",
                               "verify.independent.deal"}


@pytest.mark.parametrize("package", ["verify", "generator", "strict_yaml"])
def test_no_import_circles(package):
    assert cycle(graph(package)) is None, f"import circle: {' -> '.join(cycle(graph(package)))}"


def test_the_cycle_finder_finds_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_generator_never_imports_verify():
    for name, path in modules("generator").items():
        assert not any(m == "verify" or m.startswith("verify.") for m in imports(path)), \
            f"{path.relative_to(ROOT)} imports verify/: the generator reads only the verified bundle"


def test_the_bundle_path_and_schema_are_the_same_in_both_packages():
    assert generator_settings.BUNDLE == verify_settings.BUNDLE
    assert generator_settings.BUNDLE_SCHEMA == verify_settings.BUNDLE_SCHEMA
    assert generator_settings.ROOT == verify_settings.ROOT


# ---- the app: a core without the page (app/core/), the page's UI on it (app/ui/) ----------------
# app/core/ is what Node runs too (verify/'s bridge, the survey, tests/app/core/): the rules, the
# searches, the words chosen, the saves. It imports nothing of app/ui/ and names no DOM global;
# storage and statistics reach localStorage only through globalThis, which Node's tests stub.
APP_CORE, APP_UI = ROOT / "app" / "core", ROOT / "app" / "ui"
# Every module a file names: static imports and re-exports, import(), new URL() and new Worker().
JS_IMPORT = re.compile(r"""(?:\b(?:import|export)\b[^;'"`]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|"""
                       r"""\bnew\s+(?:URL|Worker)\s*\(\s*)['"]([^'"]+)['"]""")
# A string (kept: a `//` inside one starts no comment) or a comment (group 1, blanked, its line breaks kept).
JS_TOKEN = re.compile(r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|(/\*.*?\*/|//[^\n]*)""", re.S)
DOM_GLOBAL = re.compile(r"\b(?:document|window|navigator|location|history|customElements|getComputedStyle"
                        r"|requestAnimationFrame|matchMedia|\w*Observer|Element|Node|NodeList|DocumentFragment"
                        r"|Event|CustomEvent|HTML\w*Element|SVG\w*Element)\b")


def without_comments(code: str) -> str:
    return JS_TOKEN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(1)) if m.group(1) else m.group(0), code)


def core_faults(core: Path, ui: Path) -> list[str]:
    """What a module of `core` does that only the page may: import a module of `ui`, or name a
    DOM global outside a comment. One line each, with the file and line."""
    faults = []
    for path in sorted(core.rglob("*.js")):
        code = without_comments(path.read_text(encoding="utf-8"))
        for m in JS_IMPORT.finditer(code):
            target = (path.parent / m.group(1)).resolve()
            if target.is_relative_to(ui.resolve()):
                faults.append(f"{path}, line {code.count(chr(10), 0, m.start()) + 1}: imports {m.group(1)}, of the UI")
        for m in DOM_GLOBAL.finditer(code):
            faults.append(f"{path}, line {code.count(chr(10), 0, m.start()) + 1}: names {m.group(0)}, of the DOM")
    return faults


def test_the_apps_core_needs_no_page():
    core = {p.name for p in APP_CORE.glob("*.js")}
    assert {"engine.js", "solver.js", "decider.js", "storage.js", "worker.js"} <= core
    assert (APP_UI / "game.js").is_file() and (APP_UI / "dom.js").is_file()
    assert core_faults(APP_CORE, APP_UI) == []


def test_the_core_check_sees_the_ui_and_the_dom(tmp_path):
    """The check above would notice either (a `//` in a string hides nothing), and no DOM word in a comment."""
    core, ui = tmp_path / "app" / "core", tmp_path / "app" / "ui"
    core.mkdir(parents=True)
    ui.mkdir()
    (core / "rules.js").write_text("// the document's words, in window order\n/* an Element\n of the page */\n"
                                   "import { a } from './engine.js';\nconst url = 'https://x.test/'; // window\n")
    assert core_faults(core, ui) == []
    (core / "page.js").write_text("import { element } from '../ui/dom.js';\n"
                                  "export const w = new Worker(new URL('../ui/x.js', import.meta.url));\n"
                                  "export const at = 'https://x.test/', f = () => document.body; // a comment\n"
                                  "/* */ export const el = (x) => x instanceof HTMLElement;\n")
    page = core / "page.js"
    assert core_faults(core, ui) == [f"{page}, line 1: imports ../ui/dom.js, of the UI",
                                     f"{page}, line 2: imports ../ui/x.js, of the UI",
                                     f"{page}, line 3: names document, of the DOM",
                                     f"{page}, line 4: names HTMLElement, of the DOM"]


# ---- the tests: their shared helpers in tests/helpers/, no test module imported by another --------
# A test module imported as a library runs its module-level code twice and, under pytest's default
# import mode, depends on which folder was put first on sys.path (two conftest.py are both
# `conftest`). What tests share is a module of tests/helpers/ instead.
TESTS = ROOT / "tests"
TEST_MODULE = re.compile(r"test_\w*|conftest")


def imported_test_modules(tests: Path) -> list[str]:
    """Every import, in a Python file under `tests`, of a test module (a module named test_* or
    conftest): by `import`, by `from … import` (a name imported may be a module too) and by
    importlib.import_module or __import__ of a written name. One line each, with the file and line."""
    faults = []
    for path in sorted(tests.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        found = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                names = [base] + [base + ("" if base.endswith(".") else ".") + alias.name for alias in node.names]
            elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)
                  and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in ("import_module", "__import__")):
                names = [node.args[0].value]
            else:
                continue
            for name in names:
                if any(TEST_MODULE.fullmatch(part) for part in name.strip(".").split(".")):
                    found.append((node.lineno, node.col_offset, name))
                    break
        faults += [f"{path.relative_to(tests.parent)}, line {line}: imports {name}, a test module"
                   for line, _, name in sorted(found)]
    return faults


def test_no_test_module_imports_another():
    faults = imported_test_modules(TESTS)
    assert faults == [], "what tests share belongs in a module of tests/helpers/:\n" + "\n".join(faults)


def test_the_test_import_check_sees_each_way_of_importing_a_test_module(tmp_path):
    tests = tmp_path / "tests"
    (tests / "browser").mkdir(parents=True)
    (tests / "helpers").mkdir()
    (tests / "helpers" / "shared.py").write_text("import json\nfrom pathlib import Path\n")
    (tests / "test_a.py").write_text("from helpers.shared import Path\nfrom helpers import shared\n"
                                     "def test_x():\n    assert shared\n")
    assert imported_test_modules(tests) == []
    (tests / "test_b.py").write_text("import test_a\nfrom test_a import test_x\n"
                                     "from conftest import ROOT\n\ndef helper():\n"
                                     "    from helpers import test_c\n    import importlib\n"
                                     "    return importlib.import_module('test_a'), __import__('browser.conftest')\n")
    (tests / "browser" / "conftest.py").write_text("from . import test_game\nimport json\n")
    assert imported_test_modules(tests) == [
        "tests/browser/conftest.py, line 1: imports .test_game, a test module",
        "tests/test_b.py, line 1: imports test_a, a test module",
        "tests/test_b.py, line 2: imports test_a, a test module",
        "tests/test_b.py, line 3: imports conftest, a test module",
        "tests/test_b.py, line 6: imports helpers.test_c, a test module",
        "tests/test_b.py, line 8: imports test_a, a test module",
        "tests/test_b.py, line 8: imports browser.conftest, a test module",
    ]


def test_what_the_tests_share_lives_in_tests_helpers():
    """Beside the tests (tests/ and its folders, but helpers/ and data/) every Python file is a test
    module or a conftest.py; in tests/helpers/ none is."""
    def stray(paths, wanted: bool) -> list[str]:
        return sorted(str(p.relative_to(ROOT)) for p in paths
                      if "__pycache__" not in p.parts and bool(TEST_MODULE.fullmatch(p.stem)) != wanted)
    beside = [p for p in TESTS.rglob("*.py") if p.relative_to(TESTS).parts[0] not in ("helpers", "data")]
    assert stray(beside, wanted=True) == [], f"helpers beside the tests, their place tests/helpers/: {stray(beside, True)}"
    assert (TESTS / "helpers" / "__init__.py").is_file()
    among = stray((TESTS / "helpers").rglob("*.py"), wanted=False)
    assert among == [], f"test modules among the helpers: {among}"


# ---- the page decides no rule: app/ui/ asks app/core/engine.js -----------------------------------
# Whether a card is free (covered, or cover-pair's one card on it), whether two cards pair, whether
# a card is a king, which rows a move emptied: the engine's (isAvailable, canPair, isKing, cardAt,
# emptiedRows…). A page module doing the arithmetic itself would be a second rule book that can
# drift from the first; the check reads app/ui/*.js without comments or strings.
RULE_ARITHMETIC = [
    (re.compile(r"(?<![\w.])13(?![\w.])"), "the number 13, a king's value or the pairs' sum"),
    (re.compile(r"\b(?:cardValue|KING_VALUE|RANKS)\b"), "a card's value"),
    (re.compile(r"[-+*/%<>=]\s*TARGET_SUM\b|\bTARGET_SUM\s*(?:[-+*/%<>]|[=!]=)"), "arithmetic with the pairs' sum"),
    (re.compile(r"\.rank\b|\b(?!cardValue\b)\w*(?:[vV]alue|[rR]ank)\s*\("), "a card's rank or value"),
    (re.compile(r"\+\s*row\b|\bcoverPair\b|\bCOVER\w*|\brules\??\.stockTop\b"), "which cards cover which, or the stock-top rule"),
    (re.compile(r"^\s*(?:function\s+)?(?:isAvailable|isFree|canPair|isKing|rowsEmptied)\s*\([^)]*\)\s*\{", re.M),
     "covering or pairing logic of its own"),
]
BLANK_STRINGS = re.compile(r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`""")


def rule_faults(ui: Path) -> list[str]:
    """Each place a module of `ui` works out a rule instead of asking the engine: file:line and what."""
    faults = []
    for path in sorted(ui.glob("*.js")):
        code = BLANK_STRINGS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                                 without_comments(path.read_text(encoding="utf-8")))
        for pattern, what in RULE_ARITHMETIC:
            for m in pattern.finditer(code):
                faults.append(f"{path.name}:{code.count(chr(10), 0, m.start()) + 1}: {what} ({m.group(0).strip()}): "
                              "ask app/core/engine.js")
    return sorted(faults, key=lambda f: (f.split(":")[0], int(f.split(":")[1])))


def test_the_page_decides_no_rule():
    faults = rule_faults(APP_UI)
    assert faults == [], "rules worked out in app/ui/, not by the engine:\n" + "\n".join(faults)


def test_the_rule_check_sees_rule_arithmetic(tmp_path):
    """The check above would notice each way the game once worked out a rule itself (and not a 13
    in a string or a comment, a 130, nor the pairs' sum only shown in a message)."""
    (tmp_path / "fine.js").write_text("// a king (13) goes alone\nconst t = 'pair 13';\nconst x = 130 + 1.13;\n"
                                      "say(fill(s.ready, { target: num(TARGET_SUM) }));\nif (isKing(code)) go();\nfor (const b of m.values()) b();\n"
                                      "const { row } = place;\nlabel(row + 1);\n")
    assert rule_faults(tmp_path) == []
    (tmp_path / "game.js").write_text(
        "if (cardValue(code) === KING_VALUE) king();\n"
        "const sum = cardValue(a) + cardValue(b) === TARGET_SUM;\n"
        "const on = [k + row, k + row + 1];\n"
        "if (!this.rules.coverPair) return;\n"
        "  isAvailable(key) {\n"
        "if (card.rank + other.rank === 13) pair();\n")
    assert [f.split(" (")[0] for f in rule_faults(tmp_path)] == [
        "game.js:1: a card's value", "game.js:1: a card's value",
        "game.js:2: a card's value", "game.js:2: a card's value", "game.js:2: arithmetic with the pairs' sum",
        "game.js:3: which cards cover which, or the stock-top rule", "game.js:3: which cards cover which, or the stock-top rule",
        "game.js:4: which cards cover which, or the stock-top rule",
        "game.js:5: covering or pairing logic of its own",
        "game.js:6: the number 13, a king's value or the pairs' sum",
        "game.js:6: a card's rank or value", "game.js:6: a card's rank or value",
    ]


# ---- the generator changes nothing of MkDocs or Material: it uses their events and public API ----
# make serve's warm builder once replaced methods of MkDocs and Material (Theme.get_env, Page.render,
# SearchIndex.add_entry_from_context) and wrote their private attributes; such a write changes the
# libraries for the whole process and breaks silently on their next version. What it keeps between
# saves now goes through a plugin's events (generator/serve/live_build.py).
MKDOCS_PACKAGES = ("mkdocs", "material")


def _root_name(node: ast.AST) -> str | None:
    """The name an expression starts from: `Page` for Page.render, mkdocs.theme.Theme, Page(…).x[0]."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call, ast.Starred)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _targets(node: ast.AST):
    if isinstance(node, (ast.Tuple, ast.List)):
        for element in node.elts:
            yield from _targets(element)
    elif isinstance(node, ast.Starred):
        yield from _targets(node.value)
    else:
        yield node


def library_writes(folder: Path) -> list[str]:
    """Each place a Python file under `folder` writes an attribute of MkDocs or Material: an
    assignment to (or del of) an attribute of a name bound by an import from mkdocs or material,
    or made from one (`P = Page`, `c = load_config(…)`), setattr/delattr on one, a write into its
    __dict__; and a write of a private attribute (`x._name`) of any object but self or cls.
    As 'file:line: what'."""
    faults = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ours = set()  # names bound to MkDocs' or Material's objects, in any scope of the file
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                ours.update((a.asname or a.name.split(".")[0]) for a in node.names
                            if a.name.split(".")[0] in MKDOCS_PACKAGES)
            elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in MKDOCS_PACKAGES:
                ours.update(a.asname or a.name for a in node.names)
        grown = True
        while grown:  # and the names made from them, to a fixed point
            before = len(ours)
            for node in ast.walk(tree):
                value = getattr(node, "value", None)
                if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and _root_name(value) in ours:
                    for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                        ours.update(t.id for t in _targets(target) if isinstance(t, ast.Name))
            grown = len(ours) > before
        where = path.relative_to(folder.parent)
        for node in ast.walk(tree):
            written = []
            if isinstance(node, ast.Assign):
                written = [t for target in node.targets for t in _targets(target)]
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                written = [node.target]
            elif isinstance(node, ast.Delete):
                written = [t for target in node.targets for t in _targets(target)]
            elif (isinstance(node, ast.Call) and node.args and _root_name(node.args[0]) in ours
                  and (isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
                       or isinstance(node.func, ast.Attribute) and node.func.attr in ("__setattr__", "__delattr__"))):
                faults.append(f"{where}:{node.lineno}: {ast.unparse(node.func)} on {ast.unparse(node.args[0])}, "
                              "an object of MkDocs or Material")
            for target in written:
                if isinstance(target, ast.Attribute) and _root_name(target) in ours:
                    faults.append(f"{where}:{target.lineno}: writes {ast.unparse(target)}, an attribute of "
                                  "MkDocs or Material")
                elif (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
                      and target.value.attr == "__dict__" and _root_name(target) in ours):
                    faults.append(f"{where}:{target.lineno}: writes into {ast.unparse(target.value)}, of MkDocs or Material")
                elif (isinstance(target, ast.Attribute) and re.fullmatch(r"_(?!_)\w*", target.attr)
                      and not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls"))):
                    faults.append(f"{where}:{target.lineno}: writes {ast.unparse(target)}, another object's "
                                  "private attribute")
    return sorted(set(faults), key=lambda f: (f.split(":")[0], int(f.split(":")[1]), f))


def test_the_generator_writes_no_attribute_of_mkdocs_or_material():
    faults = library_writes(ROOT / "generator")
    assert faults == [], ("the generator changes MkDocs or Material; use their plugin events and public "
                          "API instead (generator/serve/live_build.py):\n" + "\n".join(faults))


def test_the_library_write_check_sees_each_way_of_writing(tmp_path):
    """The check above would notice a method replaced, through an alias or a module, by setattr, in
    __dict__, or a private attribute written — and not our own objects' attributes, nor a
    MkDocs object's items (config['plugins'] …) or methods called."""
    folder = tmp_path / "generator"
    folder.mkdir()
    (folder / "fine.py").write_text(
        "from mkdocs.plugins import BasePlugin\nimport jinja2\n\n"
        "class Kept(BasePlugin):\n    def __init__(self):\n        self._kept = {}\n"
        "    def on_config(self, config):\n        config.plugins['x'] = self\n        return config\n"
        "def f(page, env):\n    env.bytecode_cache = None\n    jinja2.x = 1\n    return page.render(1, 2)\n")
    assert library_writes(folder) == []
    (folder / "patch.py").write_text(
        "import mkdocs.theme\nimport material as m\nfrom mkdocs.structure.pages import Page as P\n"
        "from material.plugins.search.plugin import SearchIndex\nfrom mkdocs.config import load_config\n\n"
        "def patch(page):\n"
        "    mkdocs.theme.Theme.get_env = lambda self: None\n"
        "    P.render, other = None, 1\n"
        "    original = SearchIndex\n    original.add_entry_from_context = None\n"
        "    setattr(P, 'render', None)\n    m.x += 1\n    del P.title\n"
        "    page._title_from_render = 'x'\n    SearchIndex.__dict__['a'] = 1\n"
        "    config = load_config('x')\n    config.strict = False\n")
    assert [f.split(": ", 1)[0] for f in library_writes(folder)] == [
        f"generator/patch.py:{line}" for line in (8, 9, 11, 12, 13, 14, 15, 16, 18)]


def test_the_tests_mirror_the_code():
    """A test lives in the folder of what it tests: tests/<package path>/ for a package's tests
    (tests/generator/guard/ for generator/guard/, tests/verify/checks/ for verify/checks/,
    tests/app/core/ and tests/app/ui/ for the app's Node tests); at tests/ itself only what holds
    the repository as a whole (its layout, the lock, the mutation list, the variants registry
    every part reads, the browser finder of tests/helpers/, the README and the handbook).
    tests/browser/ drives the game in Chromium; helpers/ and data/ hold what tests share;
    breaks/ holds issue 40's table of breaks, whose tests live all over."""
    own = {"helpers", "data", "browser", "breaks"}
    tests = [*TESTS.rglob("test_*.py"), *TESTS.rglob("*.test.mjs")]
    folders = sorted({p.parent.relative_to(TESTS) for p in tests} - {Path(".")})
    wrong = [str(f) for f in folders if f.parts[0] not in own and not (ROOT / f).is_dir()]
    assert wrong == [], f"test folders that mirror no folder of the code: {wrong}"
    at_top = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert at_top == ["test_layout.py", "test_local_browser.py", "test_lock.py", "test_mutation_config.py",
                      "test_paths_named_exist.py", "test_readme.py", "test_variant_registry.py"], at_top


def test_every_package_folder_is_installed():
    """pyproject.toml's packages name every folder of the code that is a package, so an install
    that is not editable holds the generator's stages too."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("verify", "generator", "bench", "strict_yaml")
             for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts}
    assert found == listed, f"missing: {sorted(found - listed)}, not a package: {sorted(listed - found)}"
