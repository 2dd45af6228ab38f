"""`make serve`'s checker: `verify check` run again and again by one long-lived process, so a
save pays neither Python's imports (numba among them) nor Node's start; the results still come
from the check cache only under the digest of their inputs (verify/check_cache.py).

The process holds the checker's code and the app's code (in its Node bridge) as they were when
it started: `make serve` starts a new one when a file of verify/, strict_yaml/ or app/ changes
(generator/serve/live_build.py WarmProcess), so an edit there is never checked by the old code.

Protocol: one line per request on stdin (its content unused), one JSON line per answer on
stdout ({"error": null} or {"error": the line that says what failed}); what the checks print
goes to stderr.
"""
from __future__ import annotations

import json
import sys

from . import checking
from .app import AppEngine
from .cli import build_parser
from .errors import VerifyError


def serve_requests(requests, answers) -> None:
    with AppEngine() as app:
        for _ in requests:
            try:
                checking.run(build_parser().parse_args(["check"]), app)
                error = None
            except VerifyError as e:
                error = e.report()
                print(error, *getattr(e, "__notes__", ()), sep="\n", file=sys.stderr, flush=True)
            answers.write(json.dumps({"error": error}) + "\n")
            answers.flush()


def main() -> None:
    answers = sys.stdout
    sys.stdout = sys.stderr  # what the checks print goes to the terminal, never into the answers
    serve_requests(sys.stdin, answers)


if __name__ == "__main__":
    main()
