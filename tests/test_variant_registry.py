"""The variants registry (app/core/variant-registry.js) is the one list of the rule sets: the
app's engine, the independent engine, the survey (its command line, its cache, `make survey`),
the bench and the site (names, rules choice) all read it, each language names and sums up every
variant in it, and no other file of app/, verify/, generator/, bench/, tools/ or the Makefile
writes two variant ids together (a second list, that a new variant would have to be added to)."""
from __future__ import annotations

import json
import re
from argparse import Namespace
import subprocess
from pathlib import Path

import pytest
import yaml

from bench import survey_bench
from generator.errors import BuildError
from generator.inputs import variant_registry
from generator.inputs.languages import load_languages
from verify.app import find_node
from verify.cli import surveys_asked, build_parser, main
from verify.independent import variants
from verify.survey import cache

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "app" / "core" / "variant-registry.js"
ENTRIES = variants.read_registry()
IDS = [entry["id"] for entry in ENTRIES]


def test_the_registry_holds_the_rule_sets():
    assert IDS[0] == "standard" and len(IDS) >= 2 and len(set(IDS)) == len(IDS)
    assert variant_registry.read() == ENTRIES  # the site reads the same entries as the checker


def test_the_apps_engine_and_its_rules_choice_know_every_variant_with_its_options():
    script = """
import { VARIANTS, normaliseRules } from './app/core/engine.js';
import { isVariant, rulesOf, variantOf } from './app/ui/variants.js';
const ids = Object.keys(VARIANTS);
for (const id of ids) {
  normaliseRules(VARIANTS[id]);  // throws on an option the engine does not know
  if (!isVariant(id) || rulesOf(id) !== VARIANTS[id] || variantOf({ rules: rulesOf(id) }) !== id) throw new Error(id);
}
console.log(JSON.stringify(ids.map((id) => [id, VARIANTS[id], Object.isFrozen(VARIANTS[id])])));
"""
    r = subprocess.run([find_node(), "--input-type=module", "-e", script], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout) == [[e["id"], e["rules"], True] for e in ENTRIES]


def test_the_independent_engine_knows_every_variant_with_its_options():
    assert list(variants.VARIANTS) == IDS
    for entry in ENTRIES:
        assert variants.rules_of(entry["id"]) == variants.rules_of(entry["rules"]) == entry["rules"]
    # no two variants are the same rules: their kernel options and opening turns differ
    assert len({(variants.options_of(v), variants.rules_of(v).get("turns")) for v in IDS}) == len(IDS)


def test_the_survey_and_the_bench_run_every_variant(capsys):
    survey = build_parser()._subparsers._group_actions[0].choices["survey"]
    choices = next(a.choices for a in survey._actions if a.dest == "variant")
    assert list(choices) == IDS
    assert [cache.variant_rules(v) for v in IDS] == [e["rules"] for e in ENTRIES]
    assert main(["variants"]) == 0 and capsys.readouterr().out.split() == IDS
    assert main(["variants", "--without-standard"]) == 0 and capsys.readouterr().out.split() == IDS[1:]
    assert list(survey_bench.VARIANTS) == IDS[1:]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^survey: .*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "-m verify survey --all" in recipe, recipe  # every variant of the registry, one progress line
    assert [variant for variant, _ in surveys_asked(Namespace(all=True, variant=None, deals=None, json=False))] == IDS


@pytest.mark.parametrize("lang", [language.code for language in load_languages()[0]])
def test_every_language_names_and_sums_up_every_variant(lang):
    strings = yaml.safe_load((ROOT / "docs" / lang / "strings.yml").read_text(encoding="utf-8"))
    names = variant_registry.names(strings, f"docs/{lang}/strings.yml")
    assert list(names) == IDS and all(names.values())
    game = json.loads((ROOT / "docs" / lang / "game.json").read_text(encoding="utf-8"))
    assert set(game["variants"]["summaries"]) == set(IDS)  # the rules choice's line on each


def test_a_missing_name_stops_the_build():
    with pytest.raises(BuildError, match="variants_names.standard is missing"):
        variant_registry.names({"variants_names": {}}, "docs/xx/strings.yml")


@pytest.mark.parametrize("text, problem", [
    ('export const VARIANT_REGISTRY = [{"id": "standard", "name": "n", "rules": {}},];\n', "strict JSON"),
    ('export const VARIANT_REGISTRY = [{"id": "standard", "name": "n", "rules": {}}];\nexport const X = 1;\n', "end with"),
    ('export const VARIANT_REGISTRY = [{"id": "strict", "name": "n", "rules": {}}];\n', "standard"),
    ('export const VARIANT_REGISTRY = [{"id": "standard", "name": "n"}];\n', "entry 0"),
])
def test_a_damaged_registry_is_refused_by_the_checker(tmp_path, text, problem):
    path = tmp_path / "variant-registry.js"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=problem):
        variants.read_registry(path)


def test_a_damaged_registry_stops_the_build(tmp_path):
    path = tmp_path / "variant-registry.js"
    path.write_text('export const VARIANT_REGISTRY = [{"id": "standard", "name": "n", "rules": {}},];\n')
    with pytest.raises(BuildError, match=r"variant-registry\.js:1: .*strict JSON"):
        variant_registry.read(path)


# ---------------------------------------------------------------- no second list
SCANNED = ("app", "verify", "generator", "bench", "tools")
SUFFIXES = (".py", ".js", ".mjs", ".json", ".toml", ".yml", ".sh", ".html")


def id_patterns(ids: list[str]) -> tuple[re.Pattern, re.Pattern]:
    alt = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    # an id as a whole string literal ("strict", 'one-pass', `unlimited`) or as an object key (strict:)
    literal = re.compile(rf"""(["'`])({alt})\1|(?<![\w.$-])({alt})(?=\s*:(?![:=]))""")
    # in a Makefile or shell script, a bare word too (for v in strict one-pass …)
    word = re.compile(rf"(?<![\w.$/=-])({alt})(?![\w./=-])")
    return literal, word


def variant_lists(path: Path, ids: list[str], window: int = 3) -> list[tuple[int, list[str]]]:
    """(line, ids) wherever two or more variant ids are written within `window` lines."""
    literal, word = id_patterns(ids)
    shell = path.name == "Makefile" or path.suffix == ".sh"
    per_line = []
    for line in path.read_text(encoding="utf-8").splitlines():
        found = {m.group(2) or m.group(3) for m in literal.finditer(line)}
        if shell and not line.lstrip().startswith("#"):
            found |= {m.group(1) for m in word.finditer(line)}
        per_line.append(found)
    hits = []
    for i in range(len(per_line)):
        found = set().union(*per_line[i:i + window])
        if len(found) >= 2 and per_line[i]:
            hits.append((i + 1, sorted(found)))
    return hits


def scanned_files(root: Path) -> list[Path]:
    files = [p for d in SCANNED for p in sorted((root / d).rglob("*"))
             if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts and "node_modules" not in p.parts]
    return [p for p in files if p.resolve() != REGISTRY] + [root / "Makefile"]


def test_no_other_file_lists_the_variants():
    found = {str(p.relative_to(ROOT)): hits for p in scanned_files(ROOT) if (hits := variant_lists(p, IDS))}
    assert not found, f"variant ids written together outside {REGISTRY.relative_to(ROOT)} (read the registry " \
                      f"instead): {found}"


@pytest.mark.parametrize("name, text", [
    ("Makefile", "survey:\n\t@for v in strict one-pass unlimited; do \\\n\t  run $$v; done\n"),
    ("bench.py", 'VARIANTS = ("strict", "one-pass")\n'),
    ("engine.js", "export const VARIANTS = Object.freeze({\n  standard: {},\n  'cover-pair': { coverPair: true },\n});\n"),
    ("variants.py", 'VARIANTS = {\n    "standard": {},\n    "strict": {"strictWin": True},\n}\n'),
])
def test_the_scan_sees_a_second_list(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert variant_lists(path, IDS)


@pytest.mark.parametrize("text", [
    '# strict, one-pass and unlimited in a comment\nrules = rules_of("strict")\n',
    'RULE_CHECKS = {\n    "variant.strict": a,\n    "variant.one-pass": b,\n}\n',
    "const strict = r.strictWin, unlimited = r.unlimitedTurns;\n",
    "survey:\n\t# for v in strict one-pass\n\trun\n",
])
def test_the_scan_leaves_prose_rule_ids_and_names_alone(tmp_path, text):
    path = tmp_path / ("Makefile" if text.startswith("survey") else "x.py")
    path.write_text(text, encoding="utf-8")
    assert variant_lists(path, IDS) == []
