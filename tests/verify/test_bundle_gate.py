"""The bundle is checked, not trusted (issue 12, breaks 4 and 6).

A hand-edited bundle — a changed number, "passed": "no", a missing `passed`, one check only, a
list, a missing key, a pool deal that is not won — is refused with the bundle's path and the JSON
path of the bad value; and a survey cache file edited to turn a lost deal into a won one (its
checksum redone) makes the survey check fail naming the deal, because every won game is replayed,
and one edited to turn a won deal into a lost one fails too, because every lost deal is decided
again by both deciders (issue 22, part 3).
"""
import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.inputs.bundle import load_bundle
from generator.errors import BuildError
from verify import survey
from verify.independent import variants
from verify.checks import survey_checks
from verify.errors import CheckFailed
from helpers.bundle_fakes import fake_bundle, figures, write

ROOT = Path(__file__).resolve().parents[2]


def refusal(tmp_path: Path, damage) -> str:
    bundle = fake_bundle()
    damage(bundle)
    path = write(tmp_path, bundle)
    with pytest.raises(BuildError) as caught:
        load_bundle(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message


def test_the_fake_bundle_is_accepted(tmp_path):
    bundle = fake_bundle()
    assert load_bundle(write(tmp_path, bundle)) == bundle


def _passed(value):
    def damage(b):
        b["checks"][6]["passed"] = value
    return damage


@pytest.mark.parametrize("damage, message", [
    # A changed number: the survey's won count no longer follows from its per-deal results.
    (lambda b: b["survey"].update(won=6),
     "$.survey.won: is 6, but the per-deal results ('w') gives 5"),
    (lambda b: b["survey"].update(share=0.5),
     "$.survey.share: is 0.5, but won / (won + lost) gives 0.4545"),
    (lambda b: b["variants"][1].update(high=0.99),
     "$.variants[1].high: is 0.99, but the 95 % Wilson interval"),
    (lambda b: b["examples"][0]["final"].update(pyramid_removed=3),
     "$.examples[0].final.pyramid_removed: is 3, but the cards gone from the last step's pyramid gives 2"),
    (lambda b: b["examples"][0]["final"].update(moves=4),
     "$.examples[0].final.moves: is 4, but the number of steps gives 3"),
    (lambda b: b["checks"][6]["counts"].update(games_replayed=1),
     "$.checks[6].counts.games_replayed: is 1, but the bundle's own detail gives 6"),
    # Only the literal true is a pass.
    (_passed("no"), '$.checks[6].passed: the bundle records failed checks (survey.checked): passed is "no"'),
    (_passed(1), "$.checks[6].passed: the bundle records failed checks (survey.checked): passed is 1"),
    (_passed(False), "$.checks[6].passed: the bundle records failed checks (survey.checked): passed is false"),
    (lambda b: b["checks"][0].pop("passed"), "$.checks[0]: check examples.read: missing key(s) passed"),
    (lambda b: b.update(checks=b["checks"][:1]),
     "$.checks: check(s) rules.constants, deal.regenerated, game.replayed, notes.true, search.exact, rules.checked, "
     "survey.checked, survey.redecided missing"),
    (lambda b: b["checks"][7]["counts"].update(notes=5),
     "$.checks[7].counts.notes: is 5, but the bundle's own detail gives 6"),
    # A bundle made without deciding every lost deal again is not a verified one.
    (lambda b: b.update(checks=b["checks"][:8]), "$.checks: check(s) survey.redecided missing"),
    (lambda b: b["checks"][8]["counts"].update(lost_decided_again=9),
     "$.checks[8].counts.lost_decided_again: is 9, but the bundle's own detail gives 10"),
    (lambda b: b["checks"].append(copy.deepcopy(b["checks"][0])),
     "$.checks: check(s) examples.read recorded more than once"),
    # Types: numbers are numbers, not bools or strings; shares lie in 0 … 1.
    (lambda b: b["survey"].update(won="5"), '$.survey.won: expected an integer, got "5"'),
    (lambda b: b["survey"].update(deals=True), "$.survey.deals: expected an integer, got true"),
    (lambda b: b["variants"][0].update(low=-0.1), "$.variants[0].low: -0.1 is out of range (0 … 1)"),
    (lambda b: b["examples"][0]["steps"][1]["position"]["pyramid"].__setitem__(0, "<b>"),
     '$.examples[0].steps[1].position.pyramid[0]: "<b>" is not of the form'),
    # Keys: every one present, no other.
    (lambda b: b.pop("rule_checks"), "$: missing key(s) rule_checks"),
    (lambda b: b["survey"].pop("results"), "$.survey: missing key(s) results"),
    (lambda b: b.update(extra=1), "$: unexpected key(s) extra"),
    # The pool: won deals of the survey, the first of them.
    (lambda b: b["survey"].update(pool_deals=[1, 2, 6]) or b["survey"]["pool"][1].update(deal=2),
     "$.survey.pool[1].deal: deal 2 is not a won deal of the survey"),
    (lambda b: b["survey"].update(pool_deals=[1, 3, 99]) or b["survey"]["pool"][2].update(deal=99),
     "$.survey.pool[2].deal: deal 99 is not a won deal of the survey"),
    (lambda b: b["survey"].update(pool_deals=[1, 3, 8]) or b["survey"]["pool"][2].update(deal=8),
     "$.survey.pool_deals: is [1, 3, 8], but the first won deals of the survey gives [1, 3, 6]"),
    (lambda b: b["survey"].update(pool_size=1000),
     "$.survey.pool_size: is 1000, but the length of $.survey.pool gives 3"),
    # A variant row under the main survey's rules must agree with the main survey.
    (lambda b: b["variants"][0].update(figures("standard", 1, "wwwllw")),
     "$.variants[0].results: is \"wwwllw\", but $.survey.results over the same deals gives \"wlwllw\""),
])
def test_a_hand_edited_bundle_is_refused_naming_the_value(tmp_path, damage, message):
    assert message in refusal(tmp_path, damage)


def test_a_bundle_that_is_not_an_object_is_refused(tmp_path):
    for value, shown in (([1, 2], "a list of 2"), ("{}", '"{}"'), (None, "null")):
        path = write(tmp_path, value)
        with pytest.raises(BuildError, match=re.escape(f"{path}: $: the bundle must be a JSON object, got {shown}.")):
            load_bundle(path)


def test_a_bundle_that_is_not_readable_json_is_refused(tmp_path):
    path = tmp_path / "verified.json"
    for content in (b'{"schema": \xff}', b"[" * 100_000 + b"]" * 100_000, b'{"schema": ' + b"9" * 5000 + b"}"):
        path.write_bytes(content)
        with pytest.raises(BuildError, match=re.escape(f"{path}: the bundle is not readable JSON")):
            load_bundle(path)
    with pytest.raises(BuildError, match=re.escape(f"{tmp_path}: the bundle is not readable JSON")):
        load_bundle(tmp_path)  # a folder


def test_the_command_line_says_one_line_for_a_list_or_a_missing_key(tmp_path):
    bundle = fake_bundle()
    del bundle["survey"]
    for value, message in (([], "$: the bundle must be a JSON object, got a list of 0"),
                           (bundle, "$: missing key(s) survey")):
        path = write(tmp_path, value)
        r = subprocess.run([sys.executable, "-m", "generator", "build", "--dest", str(tmp_path / "site"),
                            "--bundle", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode != 0 and "Traceback" not in r.stderr
        assert f"error: {path}: {message}." in r.stderr
        assert not (tmp_path / "site").exists()


# ---------------------------------------------------------------- the survey cache

SMALL = dict(survey_range=(1, 30), variant_range=(1, 10), pool_size=5)


@pytest.fixture(scope="module")
def surveyed(tmp_path_factory):
    """Deals 1-30 (standard) and 1-10 (each variant) surveyed once into a cache of their own."""
    root = tmp_path_factory.mktemp("survey-cache")
    survey.run_survey(1, 30, cache_root=root, progress=False, chunk=10)
    for variant in variants.VARIANTS:
        survey.run_survey(1, 10, variant, cache_root=root, progress=False, chunk=10)
    return root


@pytest.fixture
def cache(surveyed, tmp_path):
    """A copy of the small cache that a test may forge; the check reads these small ranges
    instead of 1-10000 and 1-2000."""
    shutil.copytree(surveyed, tmp_path / "cache")
    return tmp_path / "cache"


def forge_win(cache_root: Path, variant: str, chunk: str, line: list[str]) -> int:
    """Turns the last lost deal of a cache file into a win with `line`, checksum redone (as
    verify.survey.write_chunk writes it); returns its number."""
    directory = survey.cache_dir(variant, cache_root)
    path = directory / f"deals-{chunk}.json"
    records = {int(n): r for n, r in json.loads(path.read_text())["deals"].items()}
    lost = max(n for n, r in records.items() if r["result"] == "lost")
    records[lost] = {**records[lost], "result": "won", "check": "replayed", "line": line}
    assert survey.write_chunk(directory, records) == path
    assert survey.load_cache(directory)[0][lost]["result"] == "won"  # the checksum holds: the cache trusts it
    return lost


def test_every_won_game_of_the_cache_is_replayed(cache):
    checked = survey_checks.check_survey(**SMALL, cache_root=cache)
    counts, store = checked.counts, checked.data
    variants_won = sum(v["won"] for v in store["variants"] if v["variant"] != "standard")
    assert variants_won > 0
    assert counts["games_replayed"] == store["survey"]["won"] + variants_won
    assert store["survey"]["won"] > len(store["survey"]["pool"]) == 5  # more than the pool's games
    assert store["survey"]["results"][:10] == "wlwllwlwll"
    assert store["survey"]["pool_deals"] == [1, 3, 6, 8, 12]


def test_a_forged_win_in_the_cache_fails_the_check_naming_the_deal(cache):
    # A deal after the pool's last (12): replaying only the pool's games would not see it.
    deal = forge_win(cache, "standard", "21-30", ["draw", "draw"])
    assert deal > 12
    with pytest.raises(CheckFailed, match=rf"survey cache, standard rules, deal {deal}: the app's winning game "
                                         r"\(2 moves\) does not win"):
        survey_checks.check_survey(**SMALL, cache_root=cache)


def test_a_forged_win_in_a_variant_fails_the_check_naming_the_deal(cache):
    deal = forge_win(cache, "strict", "1-10", ["pair AS AS"])
    with pytest.raises(CheckFailed, match=rf"survey cache, strict rules, deal {deal}: the app's winning game "
                                         r"is refused"):
        survey_checks.check_survey(**SMALL, cache_root=cache)


def test_what_the_survey_check_writes_passes_the_gate(cache, tmp_path):
    """The survey part of a bundle made from a real (small) cache is accepted as it is."""
    checked = survey_checks.check_survey(**SMALL, cache_root=cache)
    counts, store = checked.counts, checked.data
    bundle = fake_bundle()
    bundle["survey"], bundle["variants"] = store["survey"], store["variants"]
    bundle["checks"][6]["counts"] = counts
    bundle["checks"][8]["counts"] = survey_checks.check_losses(small_cache(cache), jobs=2).counts
    assert load_bundle(write(tmp_path, bundle))["survey"] == store["survey"]


# ---------------------------------------------------------------- forged losses (issue 22)

def forge_loss(cache_root: Path, variant: str, chunk: str) -> int:
    """Turns the last won deal of a cache file into a loss, checksum redone; returns its number."""
    directory = survey.cache_dir(variant, cache_root)
    path = directory / f"deals-{chunk}.json"
    records = {int(n): r for n, r in json.loads(path.read_text())["deals"].items()}
    won = max(n for n, r in records.items() if r["result"] == "won")
    records[won] = {**records[won], "result": "lost", "check": "redecided", "line": None}
    assert survey.write_chunk(directory, records) == path
    assert survey.load_cache(directory)[0][won]["result"] == "lost"  # the checksum holds: the cache trusts it
    return won


class InProcess:
    """A pool that runs each task here, so a test can watch the deciders."""

    def imap_unordered(self, fn, tasks, chunksize=1):
        return map(fn, tasks)


def small_cache(cache):
    return survey_checks.read_cache(SMALL["survey_range"], SMALL["variant_range"], cache)


@pytest.mark.parametrize("variant, chunk", [("standard", "21-30"), ("cover-pair", "1-10")])
def test_a_forged_loss_in_the_cache_fails_the_check_naming_the_deal(cache, variant, chunk):
    deal = forge_loss(cache, variant, chunk)
    survey_checks.check_survey(**SMALL, cache_root=cache)  # replaying the wins cannot see it
    with pytest.raises(CheckFailed, match=rf"survey cache, {variant} rules, deal {deal}: the cache says lost, "
                                         r"the app's decider says won with "):
        survey_checks.check_losses(small_cache(cache), jobs=1)


def test_every_lost_deal_is_decided_again_by_both_deciders(cache, monkeypatch):
    from verify.survey import worker

    seen = {"app": [], "independent": []}
    decide, again = worker.NodeDecider.decide, worker.decide_again
    monkeypatch.setattr(worker.NodeDecider, "decide",
                        lambda self, deals, *a, **k: seen["app"].extend(deals) or decide(self, deals, *a, **k))
    monkeypatch.setattr(worker, "decide_again", lambda n, rules: seen["independent"].append(n) or again(n, rules))
    cached = small_cache(cache)
    checked = survey_checks.check_losses(cached, pool=InProcess())
    lost = sum(r["result"] == "lost" for _, records in cached.published() for r in records.values())
    assert lost > 10 and checked.counts["lost_decided_again"] == lost
    assert len(seen["app"]) == len(seen["independent"]) == lost


def test_a_loss_the_independent_decider_wins_fails_the_check(cache, monkeypatch):
    from verify.errors import SurveyDisagreement
    from verify.survey import worker

    cached = small_cache(cache)
    deal = min(n for n, r in cached.main.items() if r["result"] == "lost")

    def wins(n, rules):
        if n == deal and not rules:
            raise SurveyDisagreement(n, "the app's decider says lost, the independent decider wins it with: draw")

    monkeypatch.setattr(worker, "decide_again", wins)
    with pytest.raises(CheckFailed, match=rf"survey cache, standard rules, deal {deal}: the app's decider says lost, "
                                         "the independent decider wins it"):
        survey_checks.check_losses(cached, pool=InProcess())
