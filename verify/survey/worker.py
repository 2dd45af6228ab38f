"""The survey's unit of work, in a worker process (or a Dask worker's thread): decide a chunk of
deals with the app's decider, then check every answer in the independent engine. Each worker
keeps one Node process running verify/survey_worker.mjs, which asks app/core/decider.js. Nothing it
says is trusted: every winning game is replayed in the independent engine
(verify/independent/rules.py, or the variant replayer of verify/independent/decider.py), and
every "lost" is decided again by the independent decider — all of them by default, or a sample.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import multiprocessing.util
import os
import resource
import subprocess
import threading
import time
from pathlib import Path

from ..app import find_node
from ..errors import SurveyDisagreement
from ..independent import decider, rules as independent_rules
from ..independent.illegal import IllegalMove
from ..settings import CHECK_MAX_NODES

WORKER = Path(__file__).resolve().parent.parent / "survey_worker.mjs"


class NodeDecider:
    """One Node process running verify/survey_worker.mjs (the app's decider), JSON lines."""

    def __init__(self):
        self.process = subprocess.Popen([find_node(), str(WORKER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0
        self.max_rss_kb = 0
        self.owner = os.getpid()

    def decide(self, deals: list[int], rules: dict, max_nodes: int, positions: list[dict] | None = None) -> dict[int, dict]:
        """The app's answers for deal numbers (or for positions, keyed by list index)."""
        self.next_id += 1
        self.process.stdin.write(json.dumps({"id": self.next_id, "deals": deals, "positions": positions or [],
                                             "rules": rules, "maxNodes": max_nodes}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the survey's Node process ended unexpectedly")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"the app's decider failed: {answer['error']}")
        self.max_rss_kb = max(self.max_rss_kb, answer.get("maxRssKb", 0))
        return {int(n): r for n, r in answer["results"].items()}

    def close(self):
        if self.owner == os.getpid() and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


_local = threading.local()  # this thread's Node child, started at its first chunk


def app_decider() -> NodeDecider:
    """The app's decider for this worker (process, or thread of a threaded Dask worker), whatever
    started it: a local pool, Dask, Ray. Started once, closed when the process ends."""
    node = getattr(_local, "node", None)
    # A forked process inherits its parent's: it must start its own (the owner pid differs).
    if node is None or node.owner != os.getpid() or node.process.poll() is not None:
        node = _local.node = NodeDecider()
        multiprocessing.util.Finalize(None, node.close, exitpriority=10)  # pool workers skip atexit
        atexit.register(node.close)
    return node


def _sampled(n: int, share: float) -> bool:
    """A fixed pseudo-random choice of deals, the same in every run."""
    if share >= 1:
        return True
    digest = hashlib.sha256(f"survey-sample-{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < share * 2**64


def replay_won(n: int, line: list[str], rules: dict) -> None:
    """The app's winning game, in the independent engine; SurveyDisagreement if it does not win."""
    try:
        if set(rules) <= {"turns"}:  # the app's rules (one pass = 0 turns): verify/independent/rules.py itself
            position = independent_rules.from_json(decider.opening(n, rules))
            for move in line:
                position = independent_rules.apply(position, move)
            won = independent_rules.status(position) == "won"
        else:
            won = decider.replay(decider.opening(n, rules), line, rules)["won"]
    except IllegalMove as e:  # of verify/independent/rules.py or of the variant replayer
        raise SurveyDisagreement(n, f"the app's winning game is refused by the independent engine: {e}") from None
    if not won:
        raise SurveyDisagreement(n, f"the app's winning game ({len(line)} moves) does not win in the independent engine")


def decide_again(n: int, rules: dict) -> None:
    """A deal the app calls lost, decided by the independent decider; SurveyDisagreement if won."""
    again = decider.decide_deal(n, rules, max_nodes=CHECK_MAX_NODES)
    if again.result == "won":
        raise SurveyDisagreement(n, "the app's decider says lost, the independent decider wins it with: "
                                    + ", ".join(again.line))
    if again.result != "lost":
        raise SurveyDisagreement(n, "the app's decider says lost, the independent decider could not decide it")


def _check(n: int, record: dict, rules: dict, check_lost: bool) -> dict:
    started = time.perf_counter()
    if record["result"] == "won":
        replay_won(n, record["line"], rules)
        check = "replayed"
    elif record["result"] == "lost" and check_lost:
        decide_again(n, rules)
        check = "redecided"
    else:
        check = "unchecked" if record["result"] == "lost" else "none"
    record = {**record, "check": check, "check_ms": round((time.perf_counter() - started) * 1000, 3)}
    if record["result"] != "won":
        record["line"] = None
    return record


def survey_chunk(task: tuple) -> tuple[dict[int, dict], int]:
    """The unit of work, a pure function of its task (deals, rules, max_nodes, check_share):
    decide the deals in the app, check each answer. Returns the records and the worker's peak
    memory (its Node and its Python, kB). Any executor can map it over the tasks."""
    deals, rules, max_nodes, share = task
    node = app_decider()
    answers = node.decide(deals, rules, max_nodes)
    records = {}
    for n in deals:
        record = _check(n, answers[n], rules, _sampled(n, share))
        if record["result"] == "undecided":
            record["max_nodes"] = max_nodes
        records[n] = record
    return records, node.max_rss_kb + resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def check_deal(task: tuple) -> tuple[int, dict]:
    """Worker: decide again a lost deal (n, record, rules) left unchecked by a sampled run."""
    n, record, rules = task
    return n, _check(n, record, rules, True)
