"""`make mutation` is wired: every module of tools/mutation/modules.toml names a tool the driver
knows, files to mutate and test files that exist, and tests that import or run what they are
said to exercise; the modules the score table of docs/dev/testing.md lists are the configured
ones; a module name the driver does not know is refused with exit 2. (The mutation run itself is
long and is not part of make test.)"""
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "mutation"))
import run as mutation  # noqa: E402  (tools/mutation/run.py, the driver)

MODULES = mutation.load_modules()


def test_the_modules_the_issue_names_are_configured():
    files = {f.split(":")[0] for m in MODULES.values() for f in m["mutate"]}
    assert {"generator/guard/numbers.py", "generator/inputs/bundle.py", "generator/inputs/bundle_schema.py", "verify/compare.py",
            "verify/solving.py", "verify/independent/rules.py", "app/core/engine.js", "generator/guard/glossary.py",
            "generator/guard/sentences.py", "generator/site/csp.py", "generator/site/sitecheck.py", "generator/publish/deploy.py",
            } <= files
    checks = {f"verify/checks/{p.name}" for p in (ROOT / "verify" / "checks").glob("*.py") if p.name != "__init__.py"}
    assert checks <= files, checks - files


@pytest.mark.parametrize("name", list(MODULES))
def test_each_module_names_files_that_exist_and_tests_that_exercise_them(name):
    module = MODULES[name]
    assert module["tool"] in ("mutmut", "stryker"), name
    suffix = ".py" if module["tool"] == "mutmut" else ".js"
    assert module["mutate"] and module["tests"], name
    for path in (p.split(":")[0] for p in module["mutate"]):  # Stryker's "file:from-to"
        assert path.endswith(suffix) and (ROOT / path).is_file(), (name, path)
    for test in (t.split("::")[0] for t in module["tests"]):
        assert (ROOT / test).is_file() and Path(test).name.startswith("test_" if suffix == ".py" else ""), (name, test)
    # The tests name the module (import it, or load or run it by name); a file reached only
    # through another (bundle_schema.py through bundle.py) needs the first one named.
    texts = [(ROOT / t.split("::")[0]).read_text(encoding="utf-8") for t in module["tests"]]
    word = re.escape(module.get("named_by", Path(module["mutate"][0].split(":")[0]).stem))
    assert any(re.search(rf"(?<!\w){word}(?!\w)", text) for text in texts), (name, word, "not named by its tests")
    for eq in module.get("equivalent", []):
        assert eq["file"] in {m.split(":")[0] for m in module["mutate"]} and eq["why"].strip(), (name, eq)
        lines = (ROOT / eq["file"]).read_text(encoding="utf-8").splitlines()
        assert eq["line"] in (l.strip() for l in lines), (name, eq["line"])
        if "at" in eq:  # a line whose text is on more lines than one, named by its number too
            assert lines[eq["at"] - 1].strip() == eq["line"], (name, eq)


def test_the_handbook_scores_every_configured_module():
    handbook = (ROOT / "docs" / "dev" / "testing.md").read_text(encoding="utf-8")
    section = handbook.split("## Mutation testing", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1) for m in re.finditer(r"^\| `([a-z-]+)` \|", section, re.M)}
    assert rows == set(MODULES)


def test_make_mutation_runs_the_driver_and_is_not_part_of_make_test():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^mutation: .*\n\t\$\(PY\) tools/mutation/run\.py \$\(MODULE\)$", makefile, re.M)
    test_rule = re.search(r"^test: (.*)$", makefile, re.M).group(1)
    test_py_rule = re.search(r"^test-py: (.*)$", makefile, re.M).group(1)
    assert "mutation" not in test_rule and "mutation" not in test_py_rule and "stryker" not in test_py_rule


def test_an_unknown_module_is_refused():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "mutation" / "run.py"), "no-such-module"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.startswith("error: tools/mutation/modules.toml: no module no-such-module (there are: ")


def test_strykers_line_ranges_are_read_per_file():
    assert mutation.line_ranges(["app/a.js:3-9", "app/a.js:20-30", "app/b.js"]) == {
        "app/a.js": [(3, 9), (20, 30)], "app/b.js": [(1, sys.maxsize)]}


def test_an_equivalent_mutant_is_known_by_its_file_its_line_and_what_it_becomes():
    module = {"equivalent": [{"file": "verify/x.py", "line": "a = None", "becomes": 'a = ""', "why": "falsy"}]}
    mutant = {"file": "verify/x.py", "text": "        a = None\n"}
    assert mutation.is_equivalent(mutant, module, '-        a = None\n+        a = ""') == "falsy"
    assert mutation.is_equivalent(mutant, module, '-        a = None\n+        a = 1') is None
    assert mutation.is_equivalent({**mutant, "file": "verify/y.py"}, module, '+        a = ""') is None
    assert mutation.is_equivalent({**mutant, "text": "b = None"}, module, '+        a = ""') is None


def test_an_equivalent_mutant_on_a_line_whose_text_repeats_is_known_by_its_number_too():
    module = {"equivalent": [{"file": "app/x.js", "line": "} catch {", "becomes": "{}", "at": 40, "why": "same"}]}
    mutant = {"file": "app/x.js", "text": "  } catch {", "line": 40}
    assert mutation.is_equivalent(mutant, module, "+ {}") == "same"
    assert mutation.is_equivalent({**mutant, "line": 136}, module, "+ {}") is None


@pytest.mark.parametrize("body, code", [
    ("def test_a():\n    assert True\n", 0),
    ("def test_a():\n    assert False\n", 1),
    ("import no_such_module_here\n\ndef test_a():\n    pass\n", 1),  # pytest's own exit: 2
    # the tests' process killed by a signal (its default handling restored: a suite run under nohup ignores SIGHUP)
    ("import os, signal\n\ndef test_a():\n    signal.signal(signal.SIGHUP, signal.SIG_DFL)\n    os.kill(os.getpid(), signal.SIGHUP)\n", 1),
])
def test_the_runner_says_1_for_every_test_run_that_did_not_pass(tmp_path, body, code):
    """mutmut 2 calls a mutant killed only on exit code 1: a mutant that breaks the import (pytest
    exits 2) would otherwise be counted a survivor."""
    (tmp_path / "test_x.py").write_text(body, encoding="utf-8")
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "mutation" / "pytest_verdict.py"), "-q", "-p", "no:cacheprovider",
                        str(tmp_path / "test_x.py")], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == code, r.stdout[-2000:]
    assert "pytest_verdict.py" in inspect.getsource(mutation.run_mutmut)  # the driver runs through it
