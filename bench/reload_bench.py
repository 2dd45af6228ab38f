"""`make bench SECTION=reload`: from saving a file to the browser showing the reloaded page,
under `make serve`, in a temporary copy of the repository (its files as they are, the .venv,
the survey's folders and the check cache of this checkout copied, so it starts where this
checkout is).

Three edits, each saved, measured, then undone (the undo waited for too):
- page: one word more in docs/nb/pages/contact.md;
- note: one nb note of the example winnable reworded, in docs/nb/examples/winnable.yml (notes.true
  again for that example);
- move: one move of it written the other way round, `pair 6C 7D` for `pair 7D 6C` (the replay and
  the notes again; not the search, the game is as long).

After: `python -m generator serve` (the warm builder, the check cache), a Chromium page open on
the page the edit changes; the time runs from the write to the reloaded page's load event.
Before: what `make serve` did for the same edit until issue 25 — the whole `generator build` in
a process of its own, and for an example `verify check` with every check computed
(`--no-cache`); the commands are timed, a browser would add its reload to them.

Wall time, CPU time (of every process the edit made work: the server, its builder, the checks)
and the load average are printed: the machine has 2 cores and is shared. BENCH_RELOAD_BEFORE=
earlier takes the before figures from the last run's build/bench.json instead of measuring them.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verify.independent.variants import VARIANTS  # noqa: E402
from verify.settings import CHECK_CACHE, MAIN_VARIANT  # noqa: E402
from verify.survey.cache import cache_dir, own_files  # noqa: E402

from bench.game_bench import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  the bench's one browser setup
PORT = 8731
READY_SECONDS = 600  # the server's first (warm-up) build, the browser's first page
TARGET_PAGE_S = 2.0  # issue 25: a page edit in the browser within 2 s of the save
TARGET_EXAMPLE_MARGIN_S = 2.0  # an example edit within its own solve time + 2 s
# (what, file, old text, new text, the page that shows it)
EDITS = [
    ("page", "docs/nb/pages/contact.md", "Vi vil gjerne høre fra deg.", "Vi vil svært gjerne høre fra deg.",
     "nb/contact/"),
    # An example's notes live in docs/<lang>/examples/<id>.yml since issue 23.
    ("note", "docs/nb/examples/winnable.yml", "fjernes alene med en gang", "fjernes alene straks", "nb/examples/"),
    ("move", "examples/winnable.yaml", "- pair 7D 6C\n", "- pair 6C 7D\n", "nb/examples/"),
]


def _repository_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    return [name for name in listed if name and (ROOT / name).is_file()]


def make_copy(dest: Path) -> None:
    for name in _repository_files():
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    os.symlink(ROOT / ".venv", dest / ".venv")
    for variant in dict.fromkeys((MAIN_VARIANT, *VARIANTS)):
        folder = cache_dir(variant)
        if not own_files(folder):
            sys.exit(f"error: {folder}: no survey here; run `make survey` first")
        shutil.copytree(folder, dest / "build" / "survey-cache" / folder.name)
    if CHECK_CACHE.is_dir():
        shutil.copytree(CHECK_CACHE, dest / "build" / "check-cache")


def _run(copy: Path, *args: str) -> None:
    r = subprocess.run([sys.executable, *args], cwd=copy, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"error: {' '.join(args)} in the copy failed:\n{r.stderr[-2000:]}")


def _edit(copy: Path, name: str, old: str, new: str) -> None:
    path = copy / name
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        sys.exit(f"error: {name}: the bench's edit wants {old!r} exactly once; update bench/reload_bench.py EDITS")
    path.write_text(text.replace(old, new), encoding="utf-8")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process, the children it has waited for, and its living descendants (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        own = sum(int(v) for v in fields[11:15]) / tick  # utime, stime, cutime, cstime
        kids = [int(k) for t in Path(f"/proc/{pid}/task").iterdir() for k in (t / "children").read_text().split()]
    except (OSError, ValueError):
        return 0.0
    return own + sum(_tree_cpu(k) for k in kids)


def _figures(wall: float, cpu: float) -> dict:
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load": [round(x, 2) for x in os.getloadavg()]}


def before(copy: Path) -> dict:
    """The old way: a cold `generator build`; for an example, every check computed, then the build."""
    out = {}
    started, cpu = time.monotonic(), _children_cpu()
    _run(copy, "-m", "generator", "build", "--dest", str(copy / "site"))
    out["page"] = _figures(time.monotonic() - started, _children_cpu() - cpu)
    print(f"  before, page edit:      {out['page']}", flush=True)
    started, cpu = time.monotonic(), _children_cpu()
    _run(copy, "-m", "verify", "check", "--no-cache", "--out", str(copy / "build" / "nocache.json"))
    _run(copy, "-m", "generator", "build", "--dest", str(copy / "site"))
    out["example"] = _figures(time.monotonic() - started, _children_cpu() - cpu)
    print(f"  before, example edit:   {out['example']} (note or move: every check, then the build)", flush=True)
    return out


def earlier_before() -> dict:
    """BENCH_RELOAD_BEFORE=earlier: the before figures of the last run (build/bench.json), not
    measured again (they do not change with make serve's code; the example's takes minutes)."""
    import json

    saved = ROOT / "build" / "bench.json"
    figures = json.loads(saved.read_text())["reload"]["before"] if saved.is_file() else None
    if not figures:
        sys.exit(f"error: BENCH_RELOAD_BEFORE=earlier, but {saved} holds no reload figures; run without it once")
    print(f"  before (from {saved}, measured earlier): page {figures['page']}, example {figures['example']}")
    return {**figures, "measured_earlier": True}


def after(copy: Path) -> dict:
    from playwright.sync_api import sync_playwright

    out = {}
    server = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--port", str(PORT)], cwd=copy,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_for_line(server, "Starting the warm")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            _wait_for_line(server, None)  # the warm-up build
            # From here on its output is only drained (a full pipe would stop the server).
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
            for what, name, old, new, url in EDITS:
                page.goto(f"http://127.0.0.1:{PORT}/{url}")
                page.wait_for_timeout(1500)  # the page's question about the build state is held
                figures = []
                for a, b in ((old, new), (new, old)):  # the edit, then its undo
                    cpu = _tree_cpu(server.pid)
                    with page.expect_event("load", timeout=READY_SECONDS * 1000):
                        started = time.monotonic()
                        _edit(copy, name, a, b)
                    figures.append(_figures(time.monotonic() - started, _tree_cpu(server.pid) - cpu))
                    page.wait_for_timeout(1500)
                out[what] = {"edit": figures[0], "undo": figures[1]}
                print(f"  after,  {what} edit:{' ' * (12 - len(what))}{figures[0]}  undo: {figures[1]}", flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return out


def _wait_for_line(server: subprocess.Popen, start: str | None) -> None:
    """Reads the server's output until a line starting with `start` (None: until its first
    build is done, the line after the warm-up)."""
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            sys.exit("error: make serve ended in the copy before it was ready")
        if (start and line.startswith(start)) or (start is None and line.startswith("Built ")):
            return
    sys.exit(f"error: make serve was not ready in the copy after {READY_SECONDS} s")


def run() -> dict:
    with tempfile.TemporaryDirectory(prefix="reload-bench-") as tmp:
        copy = Path(tmp) / "repo"
        make_copy(copy)
        print(f"  load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
        _run(copy, "-m", "verify", "check")  # the copy's bundle (from the copied check cache)
        out = {"after": after(copy)}  # first: a fault in the browser part shows before the long part
        out["before"] = earlier_before() if os.environ.get("BENCH_RELOAD_BEFORE") == "earlier" else before(copy)
        solve = _solve_seconds(copy)
    out["targets"] = {"page_s": TARGET_PAGE_S, "example_s": round(solve + TARGET_EXAMPLE_MARGIN_S, 2),
                      "example_solve_s": solve}
    print(f"  targets: page ≤ {TARGET_PAGE_S} s; example ≤ its solve ({solve} s) + {TARGET_EXAMPLE_MARGIN_S} s")
    return out


def _solve_seconds(copy: Path) -> float:
    """How long both solvers take on the edited example's deal (examples/winnable.yaml), now."""
    import json

    for _ in range(2):  # the second: the independent solver's numba code compiled and cached by the first
        r = subprocess.run([sys.executable, "-m", "verify", "solve", "27", "--json", "--quiet"], cwd=copy,
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"error: verify solve 27 in the copy failed:\n{r.stderr[-2000:]}")
    return round(sum(s["seconds"] for s in json.loads(r.stdout)["solvers"].values()), 2)
