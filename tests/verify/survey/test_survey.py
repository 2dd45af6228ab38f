"""The survey of random deals and the independent decider (verify/survey/, verify/independent/decider.py).

The decider against the exhaustive solver and against a plain search for every variant; the
app's decider against the independent one; the survey's cache: resume after a stop, corrupted
files recomputed, sampled checks completed later; disagreements named; the figures for the site.
"""
import json
import random
import signal
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path
from types import SimpleNamespace

import pytest

from verify import cli, settings, survey
from verify.errors import CheckFailed, InputError, Stopped
from verify.independent import decider, rules, solver, variants

ROOT = Path(__file__).resolve().parents[3]


def reduced(n, cut=14, stock=18):
    """Deal n without its top pyramid rows and the end of its stock: small enough for the
    exhaustive solver, and about half can be won."""
    o = decider.opening(n)
    return {**o, "pyramid": [None if k < cut else c for k, c in enumerate(o["pyramid"])], "stock": o["stock"][:stock]}


def played(seed, left, side_cards=24, useful=False):
    """Deal `seed` after random legal moves (mostly removals, the independent engine) until only
    `left` pyramid cards remain; the cards beside the pyramid cut to `side_cards` (with useful:
    only those that are kings or can pair with a pyramid card still there)."""
    rng = random.Random(seed)
    pos = rules.opening(seed)
    for _ in range(300):
        if sum(c is not None for c in pos.pyramid) <= left:
            break
        moves = rules.legal_moves(pos)
        if not moves:
            break
        removals = [m for m in moves if m.kind in ("pair", "king")]
        pos = rules.apply(pos, rng.choice(removals if removals and rng.random() < 0.75 else moves))
    side = list(pos.waste) + list(pos.stock)
    if useful:
        values = {decider._value(c) for c in pos.pyramid if c}
        side = [c for c in side if 13 - decider._value(c) in values | {0}]
    side = side[:side_cards]
    w = min(len(pos.waste), len(side))
    return {"pyramid": list(pos.pyramid), "waste": side[:w], "stock": side[w:], "turns_left": pos.turns_left,
            "points": 0, "moves": 0}


def replays_in_rules(position, line):
    pos = rules.from_json(position)
    for move in line:
        pos = rules.apply(pos, move)
    return rules.status(pos) == "won"


# ---------------------------------------------------------------- the independent decider

def test_independent_decider_agrees_with_the_exhaustive_solver_on_200_deals():
    won = 0
    for n in range(1, 201):
        start = reduced(n)
        exhaustive = solver.solve(start)
        d = decider.decide(start)
        assert d.result == ("won" if exhaustive.winnable else "lost"), f"deal {n}"
        if d.result == "won":
            won += 1
            assert replays_in_rules(start, d.line), f"deal {n}: the winning line replays in verify/independent/rules.py"
    assert 50 < won < 150


PRUNINGS = ("king_first", "dead_cards", "side_kings", "forced_pairs")
PLAIN = dict.fromkeys(PRUNINGS, False)


@pytest.mark.parametrize("variant", list(variants.VARIANTS))
def test_each_pruning_keeps_the_plain_answer(variant):
    """Every pruning on its own, and every one left out, against the plain search."""
    rules_ = decider.rules_of(variant)
    for seed in range(1, 121):
        start = played(seed, 8 + seed % 9)
        if "turns" in rules_:
            start["turns_left"] = rules_["turns"]
        plain = decider.decide(start, rules_, **PLAIN).result
        assert decider.decide(start, rules_).result == plain, f"{variant}, seed {seed}"
        for name in PRUNINGS:
            alone = decider.decide(start, rules_, **{**PLAIN, name: True}).result
            assert alone == plain, f"{variant}, seed {seed}, only {name}"
            assert decider.decide(start, rules_, **{name: False}).result == plain, f"{variant}, seed {seed}, no {name}"


def test_each_pruning_on_its_own_enters_fewer_card_sets():
    def nodes(**prune):
        return sum(decider.decide(reduced(n), **prune).nodes for n in range(1, 41))
    plain = nodes(**PLAIN)
    for name in PRUNINGS:
        alone = nodes(**{**PLAIN, name: True})
        assert alone < plain, f"{name}: {alone} < {plain}"


def plain_variant_search(start, rules_):
    """Every position reachable under the variant's rules, tried move by move through the
    replayer (a different path from the decider's search): can a won one be reached?"""
    def key(p):
        turns = 0 if rules_.get("unlimitedTurns") else p["turns_left"]
        return tuple(p["pyramid"]), tuple(p["stock"]), tuple(p["waste"]), turns

    seen = {key(start)}
    todo = [start]
    while todo:
        pos = todo.pop()
        cards = [c for c in pos["pyramid"] if c] + pos["stock"] + pos["waste"]
        candidates = ["draw", "turn"] + [f"king {c}" for c in cards if c[0] == "K"]
        candidates += [f"pair {a} {b}" for a, b in combinations(cards, 2)
                       if decider._value(a) + decider._value(b) == 13]
        for move in candidates:
            try:
                nxt = decider.replay(pos, [move], rules_)
            except decider.IllegalMove:
                continue
            if nxt["won"]:
                return True
            nxt = {k: v for k, v in nxt.items() if k != "won"}
            if key(nxt) not in seen:
                seen.add(key(nxt))
                todo.append(nxt)
    return False


@pytest.fixture(scope="module")
def app_decider():
    node = survey.NodeDecider()
    yield node
    node.close()


@pytest.mark.parametrize("variant", list(variants.VARIANTS))
def test_both_deciders_against_a_plain_search_of_each_variant(variant, app_decider):
    rules_ = decider.rules_of(variant)
    starts = []
    for seed in range(1, 301):
        start = played(seed, 4 + seed % 5, side_cards=4 + seed % 6, useful=True)
        if "turns" in rules_:
            start["turns_left"] = rules_["turns"]
        starts.append(start)
    app_answers = app_decider.decide([], rules_, 10**8, positions=starts)
    wins = 0
    for i, start in enumerate(starts):
        truth = "won" if plain_variant_search(start, rules_) else "lost"
        d = decider.decide(start, rules_)
        assert d.result == truth == app_answers[i]["result"], f"{variant}, position {i}"
        if truth == "won":
            assert decider.replay(start, d.line, rules_)["won"], f"{variant}, position {i}: line"
            assert decider.replay(start, app_answers[i]["line"], rules_)["won"], f"{variant}, position {i}: app line"
            wins += 1
    assert 3 <= wins <= 297, wins


def test_the_app_decider_and_the_independent_one_agree_on_every_variant(app_decider):
    for variant in variants.VARIANTS:
        rules_ = decider.rules_of(variant)
        answers = app_decider.decide(list(range(1, 41)), rules_, 10**8)
        for n, a in answers.items():
            assert decider.decide_deal(n, rules_).result == a["result"], f"{variant}, deal {n}"
            if a["result"] == "won":
                survey.replay_won(n, a["line"], rules_)


def test_rules_options_are_checked():
    assert decider.rules_of("one-pass") == {"turns": 0}
    with pytest.raises(ValueError):
        decider.rules_of("two-pass")
    with pytest.raises(ValueError):
        decider.rules_of({"strictWin": True, "stockTop": True})
    with pytest.raises(ValueError):
        decider.rules_of({"jokers": 2})


# ---------------------------------------------------------------- the survey

def args(tmp_path, deals, **more):
    base = dict(deals=deals, variant="standard", jobs=2, check_share=1.0, max_nodes=settings.DEFAULT_MAX_NODES,
                chunk=10, cache=str(tmp_path), recompute=False, json=True, quiet=True, scheduler=None, all=False,
                security=None, insecure=False)
    return SimpleNamespace(**{**base, **more})


def test_survey_json_then_straight_from_the_cache(tmp_path, capsys):
    assert cli.cmd_survey(args(tmp_path, "1-30")) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"deals", "won", "undecided", "seconds", "results"}
    assert out["deals"] == 30 and out["undecided"] == 0
    assert out["won"] == list(out["results"].values()).count("won")
    assert [out["results"][str(n)] for n in range(1, 11)] == ["won", "lost", "won", "lost", "lost",
                                                              "won", "lost", "won", "lost", "lost"]
    again = survey.run_survey(1, 30, cache_root=tmp_path, progress=False)
    assert again.computed == 0 and {n: r["result"] for n, r in again.results.items()} == \
        {int(n): r for n, r in out["results"].items()}
    assert all(r["check"] in ("replayed", "redecided") for r in again.results.values())


def test_a_stopped_survey_resumes_without_redoing_finished_deals(tmp_path):
    command = [sys.executable, "-m", "verify.survey", "--deals", "1-300", "--chunk", "5", "--jobs", "2",
               "--cache", str(tmp_path), "--quiet"]
    # A shell that runs the tests in the background ignores Ctrl+C for them, and Python then never
    # raises KeyboardInterrupt: give the survey the default handling a person at a terminal has.
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("*/*.json"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == Stopped.exit_code, err
    assert "resume" in err
    kept = {p: p.stat().st_mtime_ns for p in tmp_path.glob("*/*.json")}
    done, _ = survey.load_cache(next(tmp_path.iterdir()))
    assert 0 < len(done) < 300
    resumed = survey.run_survey(1, 300, chunk=5, cache_root=tmp_path, progress=False)
    assert resumed.computed == 300 - len(done)
    assert len(resumed.results) == 300
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items()), "finished chunks were not rewritten"


def test_a_corrupted_cache_entry_is_recomputed_never_trusted(tmp_path):
    first = survey.run_survey(1, 20, chunk=10, cache_root=tmp_path, progress=False)
    directory = survey.cache_dir("standard", tmp_path)
    a, b = sorted(directory.glob("*.json"))
    # One file with a flipped answer (still valid JSON), one cut short.
    data = json.loads(a.read_text())
    data["deals"]["1"]["result"] = "lost"
    a.write_text(json.dumps(data))
    b.write_text(b.read_text()[:100])
    records, dropped = survey.load_cache(directory)
    assert records == {} and sorted(dropped) == [a, b]
    again = survey.run_survey(1, 20, chunk=10, cache_root=tmp_path, progress=False)
    assert again.computed == 20
    assert {n: r["result"] for n, r in again.results.items()} == {n: r["result"] for n, r in first.results.items()}
    # A record that claims a win without a replayed game is refused even with a good checksum.
    path = sorted(directory.glob("*.json"))[0]
    data = json.loads(path.read_text())
    data["deals"]["1"]["check"] = "unchecked"
    payload = {k: v for k, v in data.items() if k != "sha256"}
    path.write_text(json.dumps({**payload, "sha256": survey.cache._checksum(payload)}))
    assert 1 not in survey.load_cache(directory)[0]


def test_a_sampled_survey_checks_the_first_lost_deals_and_completes_later(tmp_path):
    # One process, so chunks come back in order: the first ones are checked whole until they
    # hold FIRST_CHECKED lost deals, and the later ones only sampled.
    sampled = survey.run_survey(1, 400, check_share=0.1, chunk=25, jobs=1, cache_root=tmp_path, progress=False)
    lost = [n for n in sorted(sampled.results) if sampled.results[n]["result"] == "lost"]
    checks = [sampled.results[n]["check"] for n in lost]
    assert checks[:settings.FIRST_CHECKED] == ["redecided"] * settings.FIRST_CHECKED
    assert "unchecked" in checks
    assert checks.count("redecided") >= max(settings.FIRST_CHECKED, 0.1 * len(lost))
    full = survey.run_survey(1, 400, cache_root=tmp_path, progress=False)
    assert full.computed == 0
    assert all(full.results[n]["check"] == "redecided" for n in lost)


def test_disagreements_stop_the_survey_and_name_the_deal():
    with pytest.raises(survey.SurveyDisagreement, match="deal 1: .*refused"):
        survey.replay_won(1, ["pair 7H 6S"], {})
    with pytest.raises(survey.SurveyDisagreement, match="deal 1: .*does not win"):
        survey.replay_won(1, ["draw"], {})
    with pytest.raises(survey.SurveyDisagreement, match="deal 3: the app's decider says lost, the independent"):
        survey.decide_again(3, {})
    survey.decide_again(2, {})  # really lost: no complaint


def test_summary_pool_and_variant_table(tmp_path):
    survey.run_survey(1, 30, cache_root=tmp_path, progress=False)
    s = survey.survey_summary(1, 30, cache_root=tmp_path)
    assert (s["deals"], s["won"] + s["lost"] + s["undecided"]) == (30, 30)
    assert s["interval95"][0] < s["share"] < s["interval95"][1]
    assert s["replayed"] == s["won"] and s["redecided"] == s["lost"]
    games = survey.pool(count=5, first=1, last=30, cache_root=tmp_path)
    assert [g["deal"] for g in games] == [1, 3, 6, 8, 12]
    for g in games:
        assert replays_in_rules(decider.opening(g["deal"]), g["game"])
    with pytest.raises(survey.SurveyIncomplete):
        survey.pool(count=1000, first=1, last=30, cache_root=tmp_path)
    with pytest.raises(survey.SurveyIncomplete):
        survey.survey_summary(1, 31, cache_root=tmp_path)
    with pytest.raises(survey.SurveyIncomplete):
        survey.variant_table(1, 30, cache_root=tmp_path)


def test_wilson_interval_and_ranges():
    low, high = survey.wilson(50, 100)
    assert abs(low - 0.4038) < 1e-3 and abs(high - 0.5962) < 1e-3
    assert survey.wilson(0, 10)[0] == 0.0 and survey.wilson(10, 10)[1] == 1.0
    assert survey.parse_range("1-10000") == (1, 10000) and survey.parse_range("7") == (7, 7)
    for bad in ("0-5", "5-1", "a-b", "1-2-3", "1-4294967296"):
        with pytest.raises(ValueError):
            survey.parse_range(bad)


def test_the_cache_key_follows_rules_and_files(tmp_path, monkeypatch):
    keys = {survey.cache_key(decider.rules_of(v)) for v in variants.VARIANTS}
    assert len(keys) == len(variants.VARIANTS)
    for name in survey.KEY_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    monkeypatch.setattr(survey.cache, "ROOT", tmp_path)
    before = survey.cache_key({})
    assert before == survey.cache_key({})
    with open(tmp_path / "app" / "core" / "engine.js", "a") as f:
        f.write("\n// changed\n")
    assert survey.cache_key({}) != before


def test_any_executor_runs_the_same_survey(tmp_path):
    """The unit of work is a pure function of its task: a concurrent.futures executor (as Dask's
    client.get_executor() gives) produces the same records as the local pool."""
    from concurrent.futures import ProcessPoolExecutor

    local = survey.run_survey(1, 20, cache_root=tmp_path / "local", progress=False)
    with ProcessPoolExecutor(2) as executor:
        other = survey.run_survey(1, 20, cache_root=tmp_path / "other", progress=False,
                                  pool=survey.ExecutorPool(executor))
    assert {n: r["result"] for n, r in other.results.items()} == {n: r["result"] for n, r in local.results.items()}
    assert {n: r["line"] for n, r in other.results.items()} == {n: r["line"] for n, r in local.results.items()}


def test_the_survey_check_writes_one_letter_per_deal_and_replays_every_win(tmp_path):
    """verify/checks/survey_checks.py: the per-deal results the generator recomputes the figures
    from, and every won game replayed (a win the independent engine does not reach is named)."""
    from verify.checks import survey_checks

    run = survey.run_survey(1, 10, cache_root=tmp_path, progress=False)
    figures = survey_checks.site_figures(run.results, "standard")
    assert figures["results"] == "wlwllwlwll"
    assert (figures["won"], figures["lost"], figures["deals"]) == (4, 6, 10)
    assert survey_checks.replay_every_win(run.results, "standard") == 4
    forged = {**run.results, 2: {**run.results[2], "result": "won", "line": ["draw"]}}
    with pytest.raises(CheckFailed, match="standard rules, deal 2: .*does not win"):
        survey_checks.replay_every_win(forged, "standard")
    with pytest.raises(CheckFailed, match="only 4 winnable deals in 1-10, 5 wanted"):
        survey_checks.pool_of(run.results, 5)


# ---------------------------------------------------------------- a cache that is not ours (issue 22)

def strangers_folder(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """Someone's own folder: JSON files the survey did not write, one even with a cache file's name."""
    mine = tmp_path / "mine"
    mine.mkdir()
    files = {"thesis.json": '{"chapters": 12}', "deals-1-10.json": '{"my": "deals"}'}
    for name, text in files.items():
        (mine / name).write_text(text)
    return mine, files


def untouched(folder: Path, files: dict[str, str]) -> bool:
    return {p.name: p.read_text() for p in folder.iterdir()} == files


def test_a_cache_folder_that_is_a_link_is_refused_and_left_alone(tmp_path):
    mine, files = strangers_folder(tmp_path)
    root = tmp_path / "cache"
    root.mkdir()
    survey.cache_dir("standard", root).symlink_to(mine)  # the variant's folder leads into someone's folder
    for recompute in (False, True):
        with pytest.raises(InputError, match=r"is a symbolic link .*must be a folder of its own"):
            survey.run_survey(1, 10, chunk=10, cache_root=root, progress=False, recompute=recompute)
        assert untouched(mine, files)


def test_a_cache_root_that_is_a_link_is_refused_on_the_command_line(tmp_path, capsys):
    mine, _ = strangers_folder(tmp_path)
    key_folder = survey.cache_dir("standard", mine)
    key_folder.mkdir()
    (key_folder / "notes.json").write_text("{}")
    (tmp_path / "cache").symlink_to(mine)
    code = cli.main(["survey", "--deals", "1-10", "--chunk", "10", "--cache", str(tmp_path / "cache"), "--recompute",
                     "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"error: {tmp_path / 'cache'}: is a symbolic link") and err.count("\n") == 1
    assert (key_folder / "notes.json").read_text() == "{}"


def test_the_survey_deletes_only_files_it_made(tmp_path):
    root = tmp_path / "cache"
    survey.run_survey(1, 10, chunk=10, cache_root=root, progress=False)
    directory = survey.cache_dir("standard", root)
    (directory / "notes.json").write_text("my notes")
    (directory / "deals-1-10.json.bak").write_text("a copy")
    again = survey.run_survey(1, 10, chunk=10, cache_root=root, progress=False, recompute=True)
    assert again.computed == 10
    assert (directory / "notes.json").read_text() == "my notes" and (directory / "deals-1-10.json.bak").is_file()
    assert survey.load_cache(directory)[1] == []  # notes.json is not a cache file: not read, not dropped


def test_a_reader_never_cleans_a_linked_cache_folder(tmp_path):
    # `verify check` reads the cache and drops files that do not verify; through a link it only reads.
    mine, files = strangers_folder(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(mine)
    records, dropped = survey.load_cache(link)
    assert records == {} and dropped == [link / "deals-1-10.json"] and untouched(mine, files)


def test_the_node_worker_ends_quietly_when_nobody_reads_its_answer():
    """Issue 40: a failed re-decision stops the survey while the app's decider is answering; its
    answer then went into a closed pipe and Node printed a 23-line EPIPE trace under the survey's
    own error line. The worker now ends at once, with nothing on stderr."""
    from verify.app import find_node
    from verify.survey.worker import WORKER

    node = subprocess.Popen([find_node(), str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    node.stdout.close()  # the survey has stopped reading
    request = {"id": 1, "deals": [1], "rules": {}, "maxNodes": 1000}
    node.stdin.write(json.dumps(request) + "\n")
    node.stdin.flush()
    node.stdin.close()
    stderr = node.stderr.read()
    assert node.wait(timeout=60) == 0
    assert stderr == ""
