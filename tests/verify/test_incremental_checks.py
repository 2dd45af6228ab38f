"""`make verify` redoes only what an edit can change (issue 25, part 1).

In a temporary copy of the repository (the .venv shared; the survey's ranges cut to a few
hundred deals in the copy's verify/settings.py, so that its survey checks take seconds), every
check runs once; then each kind of input is edited in turn — a page, an example's title, a
note, a move, a glossary, the app's solver, a check's own code, the survey's code, a survey
cache file — and `verify check` must compute exactly the checks that read it, taking every
other result from build/check-cache/. A failed check is never kept, and an entry that was
tampered with is computed again.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from verify.independent.variants import VARIANTS
from verify.settings import MAIN_VARIANT
from verify.survey.cache import cache_dir, own_files

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"SURVEY_RANGE": "(1, 300)", "VARIANT_RANGE": "(1, 100)", "POOL_SIZE": "50"}
CHECK_LINE = re.compile(r"^  ok  (\S+) .*\((.+)\)$")
EXAMPLE_CHECKS = ("deal.regenerated", "game.replayed", "notes.true", "search.exact")
EVERY_EXAMPLE = {check: 2 for check in EXAMPLE_CHECKS}  # the copy's two examples


def _repository_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    return [name for name in listed if name and (ROOT / name).is_file()]


def _verify(copy: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", *args], cwd=copy, capture_output=True, text=True,
                          timeout=900, env={**os.environ, "PYTHONPATH": str(copy)})


def computed(copy: Path) -> dict[str, int]:
    """`verify check` in the copy: how many units of each check (one per example, or the check
    itself) it computed now; 0 when all came from the cache."""
    r = _verify(copy, "check")
    assert r.returncode == 0, r.stdout + r.stderr
    ran = {}
    for line in r.stdout.splitlines():
        match = CHECK_LINE.match(line)
        if match:
            check, how = match.groups()
            units = re.search(r"; (\d+) of \d+ computed", how)
            ran[check] = 0 if how == "cached" else int(units.group(1)) if units else 1
    return ran


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The copy, every check computed once."""
    copy = tmp_path_factory.mktemp("incremental") / "repo"
    for name in _repository_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    os.symlink(ROOT / ".venv", copy / ".venv")
    settings = copy / "verify" / "settings.py"
    text = settings.read_text()
    for name, value in SMALL.items():
        text, n = re.subn(rf"^{name} = .*$", f"{name} = {value}", text, flags=re.M)
        assert n == 1, name
    settings.write_text(text)
    # The finished survey's folders for this engine when this checkout has them (the copy's keys
    # are the same: the same engine files), else the small survey made in the copy.
    for variant in dict.fromkeys((MAIN_VARIANT, *VARIANTS)):
        folder = cache_dir(variant)
        if own_files(folder):
            shutil.copytree(folder, copy / "build" / "survey-cache" / folder.name)
        else:
            deals = "1-300" if variant == MAIN_VARIANT else "1-100"
            r = _verify(copy, "survey", "--deals", deals, "--variant", variant, "--quiet")
            assert r.returncode == 0, r.stderr
    assert computed(copy) == {"examples.read": 1, "rules.constants": 1, **EVERY_EXAMPLE, "rules.checked": 1,
                              "survey.checked": 1, "survey.redecided": 1}  # an empty cache: everything computed
    return copy


def _append(copy: Path, name: str, text: str) -> None:
    with open(copy / name, "a", encoding="utf-8") as f:
        f.write(text)


def _replace(copy: Path, name: str, old: str, new: str) -> None:
    path = copy / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (name, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def _rewrite_survey_file(copy: Path) -> None:
    """One survey cache file written again with the same records, in other bytes (indented)."""
    folder = copy / "build" / "survey-cache" / cache_dir(MAIN_VARIANT).name
    path = sorted(folder.glob("deals-*.json"))[0]
    path.write_text(json.dumps(json.loads(path.read_text()), indent=1))


# (what is edited, the edit, the checks computed again: units of each). In order, on one copy.
EDITS = [
    ("nothing", None, {}),
    ("a page", lambda c: _append(c, "docs/nb/pages/index.md", "\nEtt ord til.\n"), {}),
    # An example's words live in docs/<lang>/examples/<id>.yml (issue 23), its moves in examples/.
    ("an example's title", lambda c: _replace(c, "docs/nb/examples/winnable.yml", "Utdelingen som kan vinnes",
                                              "Utdelingen som vinnes"), {}),
    ("a note", lambda c: _replace(c, "docs/nb/examples/winnable.yml", "fjernes alene med en gang", "fjernes alene straks"),
     {"notes.true": 1}),
    # The same move in other words: the replay and the notes on it again, not the search (same length).
    ("a move", lambda c: _replace(c, "examples/winnable.yaml", "- pair 7D 6C\n", "- pair 6C 7D\n"),
     {"game.replayed": 1, "notes.true": 1}),
    ("a glossary", lambda c: _append(c, "docs/nb/glossary.yml", "\n# one more line\n"), {"notes.true": 2}),
    ("the app's solver", lambda c: _append(c, "app/core/solver.js", "\n// one more line\n"),
     {"rules.constants": 1, **EVERY_EXAMPLE, "rules.checked": 1}),
    ("a rule check's code", lambda c: _append(c, "verify/checks/rule_checks.py", "\n# one more line\n"),
     {"rules.checked": 1}),
    ("the note check's code", lambda c: _append(c, "verify/checks/note_checks.py", "\n# one more line\n"),
     {"notes.true": 2}),
    ("the survey's code", lambda c: _append(c, "verify/survey/figures.py", "\n# one more line\n"),
     {"survey.checked": 1, "survey.redecided": 1}),
    ("a survey cache file", _rewrite_survey_file, {"survey.checked": 1, "survey.redecided": 1}),
]


@pytest.mark.parametrize("what, edit, expected", EDITS, ids=[e[0] for e in EDITS])
def test_an_edit_computes_again_exactly_the_checks_that_read_it(copy, what, edit, expected):
    if edit:
        edit(copy)
    ran = computed(copy)
    assert ran.pop("examples.read") == 1  # always read: what every other check is given
    assert {check: n for check, n in ran.items() if n} == expected


def test_a_failed_check_is_not_kept_and_going_back_finds_the_result_again(copy):
    false, true = "Ruter dame tar ruter ess fra kastebunken", "Ruter dame fra kastebunken tar ruter ess i nederste rad"
    _replace(copy, "docs/nb/examples/winnable.yml", true, false)
    for _ in range(2):  # the second time computed again, not taken from a cache: still false
        r = _verify(copy, "check")
        assert r.returncode == 1 and "winnable.yml, line 7, nb: says ruter ess is on the waste" in r.stderr, r.stderr
        assert "ok  game.replayed" in r.stdout and "ok  notes.true" not in r.stdout
    _replace(copy, "docs/nb/examples/winnable.yml", false, true)
    assert {check: n for check, n in computed(copy).items() if n} == {"examples.read": 1}


def test_a_tampered_entry_is_computed_again(copy):
    entry = next((copy / "build" / "check-cache" / "rules.checked").glob("*.json"))
    for path in (copy / "build" / "check-cache" / "rules.checked").glob("*.json"):
        stored = json.loads(path.read_text())
        stored["entry"]["counts"]["rules"] += 1  # a forged count, its checksum not redone
        path.write_text(json.dumps(stored))
    assert entry.exists()
    ran = computed(copy)
    assert ran["rules.checked"] == 1 and ran["search.exact"] == 0


# What a hostile hand with the checkout can write (issue 40): a won deal of the survey cache
# turned into a loss (the file's checksum redone), and both survey checks' cached results stored
# again under the new digest, as if they had passed on it.
FORGE = """
import json, sys
from verify import survey
from verify.check_cache import CheckCache
from verify.checking import Keys, SURVEY_CODE, SURVEY_WORKER, survey_files
from verify.settings import CHECK_CACHE, MAIN_VARIANT
directory = survey.cache_dir(MAIN_VARIANT)
path = next(p for p in sorted(directory.glob("deals-*.json"))
            if max(map(int, json.loads(p.read_text())["deals"])) <= 300)
records = {int(n): r for n, r in json.loads(path.read_text())["deals"].items()}
won = max(n for n, r in records.items() if r["result"] == "won")
records[won] = {**records[won], "result": "lost", "check": "redecided", "line": None}
survey.write_chunk(directory, records)
for check in ("survey.checked", "survey.redecided"):
    newest = max((CHECK_CACHE / check).glob("*.json"), key=lambda p: p.stat().st_mtime)
    entry = json.loads(newest.read_text())["entry"]
    key = Keys(True)(check, SURVEY_CODE, SURVEY_WORKER, read=survey_files)()
    CheckCache(CHECK_CACHE).save(check, key, entry["counts"], entry["data"], entry["seconds"])
print(path.name, won)
"""


def test_publish_trusts_no_cached_result_a_forged_survey_is_refused(copy, tmp_path):
    folder = copy / "build" / "survey-cache" / cache_dir(MAIN_VARIANT).name
    kept = {p: p.read_bytes() for p in folder.glob("deals-*.json")}
    facts = copy / "docs" / "facts.yml"
    real_facts = facts.read_text(encoding="utf-8")
    try:
        forged = subprocess.run([sys.executable, "-c", FORGE], cwd=copy, capture_output=True, text=True,
                                env={**os.environ, "PYTHONPATH": str(copy)})
        assert forged.returncode == 0, forged.stderr
        chunk, deal = forged.stdout.split()
        # The cached `make verify` takes the forged results: this is what publish must not trust.
        assert computed(copy) == {"examples.read": 1, **{check: 0 for check in EVERY_EXAMPLE},
                                  "rules.constants": 0, "rules.checked": 0, "survey.checked": 0,
                                  "survey.redecided": 0}
        # Real-looking facts, so that nothing but the checks can refuse this publish.
        facts.write_text(re.sub(r'email: "[^"]*"', 'email: "post@pyramide.no"', real_facts)
                         + '\nsite_url: "https://pyramide.no/"\n', encoding="utf-8")
        dest = tmp_path / "published"
        r = subprocess.run([sys.executable, "-m", "generator", "publish", str(dest), "--allow-stale"], cwd=copy,
                           capture_output=True, text=True, timeout=900, env={**os.environ, "PYTHONPATH": str(copy)})
        assert r.returncode != 0, r.stdout
        assert f"standard rules, deal {deal}: the cache says lost, the app's decider says won" in r.stderr, r.stderr
        assert "error: the checks, run again from their inputs for publishing" in r.stderr
        assert not dest.exists() and not (tmp_path / "published.versions").exists()
        assert not list((copy / "build").glob("publish-checks-*"))  # its own bundle's folder removed
    finally:
        facts.write_text(real_facts, encoding="utf-8")
        for path, data in kept.items():
            path.write_bytes(data)
