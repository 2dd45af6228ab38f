"""verify/checks/survey_checks.py on hand-made records, with stand-ins for what it calls (the
replay of a won game, the cache reader, the deciders' chunk and the process pool): the letters
per deal, the figures and the pool, which verdicts are published, every message whole, the lost
deals' tasks and what is made of each answer. tests/verify/survey/test_survey.py runs a real survey (minutes
a run); this file takes a second, so `make mutation MODULE=checks-survey` can run it per mutant."""
import types

import pytest

from verify.checks import Checked, survey_checks
from verify.checks.survey_checks import SurveyCache
from verify.errors import CheckFailed, SurveyDisagreement, SurveyIncomplete
from verify.independent.variants import VARIANTS, rules_of
from verify.settings import DEFAULT_MAX_NODES
from verify.survey.figures import wilson


def won(line=("draw",)):
    return {"result": "won", "line": list(line), "check": "replayed"}


def lost(check="redecided"):
    return {"result": "lost", "line": [], "check": check}


UNDECIDED = {"result": "undecided", "line": [], "check": None}

# deals 3 … 9: won 3, 5, 6 and 9, lost 4 and 8, 7 undecided (the 8th not checked again yet)
RECORDS = {3: won(["king KS"]), 4: lost(), 5: won(["draw", "king KD"]), 6: won(["pair 9H 4H"]),
           7: UNDECIDED, 8: lost(check=None), 9: won(["turn"])}


@pytest.fixture
def replays(monkeypatch):
    """Stand-in replay_won: every call recorded; the deals in `refused` raise as a game that does not win."""
    calls, refused = [], set()

    def replay_won(n, line, rules):
        calls.append((n, line, rules))
        if n in refused:
            raise SurveyDisagreement(n, "the app's winning game (1 moves) does not win in the independent engine")

    monkeypatch.setattr(survey_checks, "replay_won", replay_won)
    return calls, refused


def test_one_letter_per_deal_in_deal_order():
    assert survey_checks.results_text({9: won(), 7: UNDECIDED, 8: lost()}) == "ulw"
    assert survey_checks.results_text(RECORDS) == "wlwwulw"


def test_the_site_figures_of_a_survey():
    low, high = wilson(4, 6)
    assert survey_checks.site_figures(RECORDS, "strict") == {
        "variant": "strict", "first": 3, "last": 9, "deals": 7, "won": 4, "lost": 2, "undecided": 1,
        "share": 4 / 6, "low": low, "high": high, "results": "wlwwulw"}


def test_every_won_game_is_replayed_under_its_variants_rules(replays):
    calls, _ = replays
    assert survey_checks.replay_every_win(RECORDS, "cover-pair") == 4
    assert calls == [(3, ["king KS"], {"coverPair": True}), (5, ["draw", "king KD"], {"coverPair": True}),
                     (6, ["pair 9H 4H"], {"coverPair": True}), (9, ["turn"], {"coverPair": True})]


def test_a_won_game_that_does_not_win_is_named_with_the_command_that_recomputes_it(replays):
    _, refused = replays
    refused.add(6)
    with pytest.raises(CheckFailed) as e:
        survey_checks.replay_every_win(RECORDS, "one-pass")
    assert str(e.value) == ("survey cache, one-pass rules, deal 6: the app's winning game (1 moves) does not win in the "
                            "independent engine — the cache says won; run "
                            "`python -m verify survey --deals 6 --variant one-pass --recompute`")


def test_the_pool_is_the_first_won_deals_in_deal_order_with_their_games():
    shuffled = dict(sorted(RECORDS.items(), reverse=True))
    assert survey_checks.pool_of(shuffled, 3) == [{"deal": 3, "game": ["king KS"]}, {"deal": 5, "game": ["draw", "king KD"]},
                                                  {"deal": 6, "game": ["pair 9H 4H"]}]
    assert [g["deal"] for g in survey_checks.pool_of(RECORDS, 4)] == [3, 5, 6, 9]


def test_a_pool_larger_than_the_won_deals_is_refused():
    with pytest.raises(CheckFailed) as e:
        survey_checks.pool_of(RECORDS, 5)
    assert str(e.value) == "survey: only 4 winnable deals in 3-9, 5 wanted"


def cache(survey_range=(1, 100), variant_range=(1, 50), main=None):
    return SurveyCache(main or {1: won()}, {v: {1: won([v])} for v in VARIANTS}, survey_range, variant_range)


@pytest.mark.parametrize("survey_range, variant_range", [((1, 100), (1, 50)), ((1, 100), (1, 100)), ((1, 100), (100, 100)),
                                                         ((5, 100), (5, 5)), ((1, 100), (40, 60))])
def test_the_standard_variant_inside_the_surveys_range_is_the_survey_itself(survey_range, variant_range):
    published = cache(survey_range, variant_range).published()
    assert [v for v, _ in published] == ["standard"] + [v for v in VARIANTS if v != "standard"]
    assert published[0][1] == {1: won()} and dict(published[1:]) == {v: {1: won([v])} for v in VARIANTS if v != "standard"}


@pytest.mark.parametrize("survey_range, variant_range", [((1, 100), (1, 101)), ((2, 100), (1, 50)), ((1, 100), (101, 200))])
def test_the_standard_variant_beyond_the_surveys_range_is_published_too(survey_range, variant_range):
    assert [v for v, _ in cache(survey_range, variant_range).published()] == ["standard"] + list(VARIANTS)


def test_the_cache_is_read_for_the_survey_and_each_variant(monkeypatch):
    calls = []

    def cached_results(first, last, variant, cache_root):
        calls.append((first, last, variant, cache_root))
        return {first: won([variant])}

    monkeypatch.setattr(survey_checks, "cached_results", cached_results)
    read = survey_checks.read_cache((3, 9), (2, 4), "root")
    assert read == SurveyCache({3: won(["standard"])}, {v: {2: won([v])} for v in VARIANTS}, (3, 9), (2, 4))
    assert calls == [(3, 9, "standard", "root")] + [(2, 4, v, "root") for v in VARIANTS]


def test_a_cache_missing_deals_says_to_run_the_survey(monkeypatch):
    def cached_results(first, last, variant, cache_root):
        raise SurveyIncomplete("deals 5-9 of the standard rules are not in the cache")

    monkeypatch.setattr(survey_checks, "cached_results", cached_results)
    with pytest.raises(CheckFailed) as e:
        survey_checks.read_cache()
    assert str(e.value) == ("survey: deals 5-9 of the standard rules are not in the cache. "
                            "Run `make survey` (it resumes where it stopped).")


def test_the_survey_check_replays_every_published_win_and_makes_the_figures_and_the_pool(replays):
    calls, _ = replays
    given = SurveyCache(RECORDS, {v: {1: won([v]), 2: lost()} for v in VARIANTS}, (3, 9), (1, 2))
    checked = survey_checks.check_survey(pool_size=2, cache=given)
    # 4 wins of the survey, 1 of each variant (the standard one's range is not the survey's)
    assert checked.counts == {"deals": 7, "won": 4, "undecided": 1, "games_replayed": 4 + len(VARIANTS), "lost_rechecked": 1}
    assert len(calls) == 4 + len(VARIANTS)
    pool = [{"deal": 3, "game": ["king KS"]}, {"deal": 5, "game": ["draw", "king KD"]}]
    assert checked.data["survey"] == {**survey_checks.site_figures(RECORDS, "standard"), "pool_size": 2, "pool_deals": [3, 5],
                                      "pool": pool, "replayed": 4, "redecided": 1}
    assert checked.data["variants"] == [survey_checks.site_figures({1: won([v]), 2: lost()}, v) for v in VARIANTS]
    assert [f["variant"] for f in checked.data["variants"]] == list(VARIANTS)


def test_the_survey_check_reads_the_cache_when_given_none(monkeypatch, replays):
    read = []
    monkeypatch.setattr(survey_checks, "read_cache", lambda *args: read.append(args) or cache((1, 1), (1, 1)))
    checked = survey_checks.check_survey((1, 1), (1, 1), 1, "root")
    assert read == [((1, 1), (1, 1), "root")]
    assert checked.data["survey"]["pool_deals"] == [1]


# ---------------------------------------------------------------- the lost deals decided again

@pytest.fixture
def chunks(monkeypatch):
    """Stand-in survey_chunk: each task recorded; its deals answered lost (redecided), or as `answers` says."""
    tasks, answers = [], {}

    def survey_chunk(task):
        tasks.append(task)
        deals = task[0]
        if any(isinstance(answers.get(n), Exception) for n in deals):
            raise next(answers[n] for n in deals if isinstance(answers.get(n), Exception))
        return {n: answers.get(n, lost()) for n in deals}, 12345

    monkeypatch.setattr(survey_checks, "survey_chunk", survey_chunk)
    return tasks, answers


class InlinePool:
    """A pool that runs each task here, in order."""

    def __init__(self):
        self.calls = []

    def imap_unordered(self, function, tasks):
        self.calls.append(function)
        return map(function, tasks)


def test_a_lost_deals_task_is_decided_as_the_survey_decides(chunks):
    tasks, _ = chunks
    assert survey_checks._decide_losses(("stock-top", [4, 8])) == ("stock-top", {4: lost(), 8: lost()}, None)
    assert tasks == [([4, 8], {"stockTop": True}, DEFAULT_MAX_NODES, 1.0)]


def test_a_disagreement_in_a_task_comes_back_as_its_message(chunks):
    _, answers = chunks
    answers[8] = SurveyDisagreement(8, "the app says lost, the independent decider won")
    assert survey_checks._decide_losses(("strict", [4, 8])) == ("strict", {}, "deal 8: the app says lost, the independent decider won")


def test_every_published_lost_deal_is_decided_again_in_tasks_of_twenty(chunks):
    tasks, _ = chunks
    main = {n: lost() if n % 2 else won() for n in range(1, 92)}  # 46 lost: tasks of 20, 20 and 6
    given = SurveyCache(main, {v: {1: lost(), 2: won()} for v in VARIANTS}, (1, 91), (1, 2))
    pool = InlinePool()
    assert survey_checks.check_losses(given, pool=pool) == Checked({"lost_decided_again": 46 + len(VARIANTS) - 1}, None)
    odd = list(range(1, 92, 2))
    assert [(t[0], t[1]) for t in tasks] == [(odd[:20], {}), (odd[20:40], {}), (odd[40:], {})] + \
        [([1], rules_of(v)) for v in VARIANTS if v != "standard"]
    assert pool.calls == [survey_checks._decide_losses]


def test_no_lost_deal_needs_no_pool():
    given = SurveyCache({1: won()}, {v: {} for v in VARIANTS}, (1, 1), (1, 1))
    assert survey_checks.check_losses(given) == Checked({"lost_decided_again": 0}, None)


def test_a_lost_deal_the_deciders_disagree_on_is_named_with_the_command(chunks):
    _, answers = chunks
    answers[3] = SurveyDisagreement(3, "the independent decider finds a win")
    given = SurveyCache({1: lost(), 3: lost()}, {v: {} for v in VARIANTS}, (1, 3), (1, 1))
    with pytest.raises(CheckFailed) as e:
        survey_checks.check_losses(given, pool=InlinePool())
    assert str(e.value) == ("survey cache, standard rules, deal 3: the independent decider finds a win — the cache says "
                            "lost; run `python -m verify survey --variant standard --recompute`")


def test_a_lost_deal_the_apps_decider_wins_is_named_with_its_game(chunks):
    _, answers = chunks
    answers[3] = won(["draw", "king KS"])
    given = SurveyCache({1: lost(), 3: lost()}, {v: {} for v in VARIANTS}, (1, 3), (1, 1))
    with pytest.raises(CheckFailed) as e:
        survey_checks.check_losses(given, pool=InlinePool())
    assert str(e.value) == ("survey cache, standard rules, deal 3: the cache says lost, the app's decider says won with "
                            "draw, king KS; run `python -m verify survey --deals 3 --variant standard --recompute`")


@pytest.mark.parametrize("answer, says", [(UNDECIDED, "undecided"), (lost(check="replayed"), "lost")])
def test_a_lost_deal_not_decided_lost_again_is_named(chunks, answer, says):
    _, answers = chunks
    answers[1] = answer
    given = SurveyCache({}, {"one-pass": {1: lost()}}, (1, 3), (1, 1))
    with pytest.raises(CheckFailed) as e:
        survey_checks.check_losses(given, pool=InlinePool())
    assert str(e.value) == (f"survey cache, one-pass rules, deal 1: the cache says lost, the app's decider says {says}; "
                            "run `python -m verify survey --deals 1 --variant one-pass --recompute`")


class OwnPool(InlinePool):
    """The pool check_losses makes itself, as a stand-in: how it was made and ended."""

    made = []

    def __init__(self, processes, initializer):
        super().__init__()
        self.ended = []
        OwnPool.made.append((processes, initializer, self))

    def terminate(self):
        self.ended.append("terminate")

    def close(self):
        self.ended.append("close")

    def join(self):
        self.ended.append("join")


@pytest.fixture
def own_pool(monkeypatch):
    OwnPool.made = []
    contexts = []
    fake = types.SimpleNamespace(get_context=lambda kind: contexts.append(kind) or types.SimpleNamespace(Pool=OwnPool))
    monkeypatch.setattr(survey_checks, "multiprocessing", fake)
    monkeypatch.setattr(survey_checks.os, "cpu_count", lambda: 7)
    return contexts


@pytest.mark.parametrize("jobs, processes", [(None, 7), (3, 3)])
def test_its_own_pool_has_a_process_per_core_or_per_job_each_with_the_apps_decider_and_is_closed(chunks, own_pool, jobs, processes):
    given = SurveyCache({1: lost()}, {v: {} for v in VARIANTS}, (1, 1), (1, 1))
    assert survey_checks.check_losses(given, jobs=jobs) == Checked({"lost_decided_again": 1}, None)
    ((made_with, initializer, pool),) = OwnPool.made
    assert own_pool == ["fork"] and made_with == processes and initializer is survey_checks.app_decider
    assert pool.ended == ["close", "join"]


def test_its_own_pool_is_stopped_when_a_deal_fails(chunks, own_pool):
    _, answers = chunks
    answers[1] = UNDECIDED
    with pytest.raises(CheckFailed):
        survey_checks.check_losses(SurveyCache({1: lost()}, {v: {} for v in VARIANTS}, (1, 1), (1, 1)))
    ((_, _, pool),) = OwnPool.made
    assert pool.ended == ["terminate"]


def test_a_pool_it_is_given_is_left_to_its_owner(chunks):
    pool = OwnPool(1, None)
    OwnPool.made = []
    given = SurveyCache({1: lost()}, {v: {} for v in VARIANTS}, (1, 1), (1, 1))
    survey_checks.check_losses(given, pool=pool)
    assert pool.ended == []
