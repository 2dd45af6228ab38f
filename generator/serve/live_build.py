"""`make serve`'s builder: the same build as `python -m generator build` (generator/site/build.py
`build`: gather, write into a staging folder, check, swap), done by one long-lived process that
stays warm between saves.

Why it is fast, and why it is still the real build:
- One process (`python -m generator.serve.live_build`), started by `make serve` and kept: Python,
  Jinja2, MkDocs and Material are imported once, not twice per save (a cold `generator build`
  spends most of its time starting Pythons: its own and one MkDocs per language).
- MkDocs runs in that process (mkdocs.commands.build, --strict as in the command), and a
  language whose MkDocs input is byte for byte what it was at the last build — its rendered
  pages, its config (the staging paths aside), the theme overrides, mkdocs.yml, the stylesheet
  and logo — is not built again: its last MkDocs output, kept in build/live-build/<lang>/, is
  copied in. An edit of one language's page therefore runs MkDocs for that language only; and
  there, through a plugin of ours (generator/serve/kept_plugin.py: MkDocs' events, nothing of
  MkDocs or Material replaced), the theme's templates are not compiled again, nor the installed
  theme's files listed again, and MkDocs turns only that page's Markdown into HTML again (these
  two lean on MkDocs' inner workings: generator/serve/mkdocs_seams.py, pinned to its version).
  Material's search plugin indexes every page, as in any build.
- Everything else runs each time as in `generator build`: the bundle's gate (stale or hand-
  edited bundles are refused), every lint and number guard, every page rendered, the root
  pages, the preview pictures, the policies, the offline files and the built site's checks.
- The process holds the generator's code as it was when it started: `make serve` starts a new
  one when a Python file of generator/ or strict_yaml/ changes (WarmProcess), or the cards' drawing
  (app/core/card-drawing.js, which svg.py reads once), so a code edit is never built by the old
  code. Its kept MkDocs outputs live only as long as the process.

Protocol: one JSON line per request on stdin ({"dest": folder, "docs": the page sources or null
for docs/}), one JSON line per answer on
stdout ({"error": null} or {"error": "the error: line"}); whatever the build prints goes to stderr.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from generator.errors import BuildFailed
from generator.render import card_drawing
from generator.settings import OVERRIDES, ROOT

KEPT = ROOT / "build" / "live-build"  # the last MkDocs output of each language, this process's own
CODE = ("generator", "strict_yaml")  # the builder's own code: an edit there needs a new process


# ---- the worker side: MkDocs in this process, unchanged languages copied ------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _tree_digest(h, folder: Path) -> None:
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")


class WarmMkdocs:
    """site.write_site's mkdocs(code, config, site_dir), built in this process, or copied from
    this process's last build of the language when all of its input is the same."""

    def __init__(self, kept: Path = KEPT):
        self.kept = kept / str(os.getpid())  # its own: two `make serve` of one checkout never share it
        self.last: dict[str, str] = {}  # language → digest of the input its kept output was built from
        self.built: list[str] = []  # languages built (not copied) by the last build, for the terminal
        for left in (kept.iterdir() if kept.is_dir() else ()):  # of processes that were killed
            if left.name.isdigit() and not _alive(int(left.name)):
                shutil.rmtree(left, ignore_errors=True)

    def forget(self) -> None:
        shutil.rmtree(self.kept, ignore_errors=True)

    def __call__(self, code: str, config: Path, site_dir: Path, docs_dir: Path) -> None:
        key = self.input_digest(config, site_dir, docs_dir)
        kept = self.kept / code
        if self.last.get(code) == key and kept.is_dir():
            shutil.copytree(kept, site_dir)
            return
        self.last.pop(code, None)
        build_in_process(code, config)
        self.built.append(code)
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(site_dir, kept)
        self.last[code] = key

    @staticmethod
    def input_digest(config: Path, site_dir: Path, docs_dir: Path) -> str:
        """What one MkDocs build reads: its config (this build's own two paths as placeholders), the page
        folder, the theme overrides, mkdocs.yml it inherits, and the versions of MkDocs and what
        renders for it."""
        h = hashlib.sha256(WarmMkdocs.config_digest(config, site_dir, docs_dir).encode())
        for folder in (docs_dir, OVERRIDES):
            h.update(b"\0folder\0")
            _tree_digest(h, folder)
        return h.hexdigest()

    @staticmethod
    def config_digest(config: Path, site_dir: Path, docs_dir: Path) -> str:
        """The language's config (this build's own two paths as placeholders), mkdocs.yml it
        inherits, and the versions of MkDocs and what renders for it."""
        text = config.read_text(encoding="utf-8")  # written unfolded (site.write_site): each path whole
        h = hashlib.sha256(text.replace(str(docs_dir), "<docs>").replace(str(site_dir), "<site>").encode())
        h.update(_running_versions().encode())
        h.update((ROOT / "mkdocs.yml").read_bytes())
        return h.hexdigest()


MKDOCS_DISTRIBUTIONS = ("mkdocs", "mkdocs-material", "pymdown-extensions", "markdown", "jinja2", "babel")


@functools.cache
def _running_versions() -> str:
    """The versions of what renders for MkDocs, read once: this process runs the code it imported,
    whatever is installed later (and reading them at every build cost some 50 ms of a page edit)."""
    return "".join(f"{dist}={metadata.version(dist)}\0" for dist in MKDOCS_DISTRIBUTIONS)


class _Collect(logging.Handler):
    """MkDocs' warnings of one build, for the error message (strict mode stops on any)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


def build_in_process(code: str, config: Path) -> None:
    """`mkdocs build --strict` of one language's config, in this process; BuildFailed with
    MkDocs' warnings, as site.run_mkdocs says them. MkDocs' own build, given one more plugin
    (generator/serve/kept_plugin.py): what it keeps between builds goes through MkDocs' events."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from generator.serve.kept_plugin import KeptBetweenBuilds

    logger = logging.getLogger("mkdocs")
    collect = _Collect()
    logger.addHandler(collect)
    logger.propagate = False  # said once, in the error, not also on the terminal
    try:
        mkdocs_config = load_config(config_file=str(config), strict=True)
        mkdocs_config.plugins["pyramide/kept-between-builds"] = KeptBetweenBuilds(collect, WarmMkdocs.config_digest)
        build(mkdocs_config)
    except (MkDocsException, SystemExit) as e:
        lines = "\n".join(collect.lines + [str(e)])
        raise BuildFailed(f"mkdocs build --strict failed for {code} ({config}):\n{lines}") from None
    finally:
        logger.removeHandler(collect)


def serve_requests(requests=sys.stdin, answers=sys.stdout) -> None:
    """The worker's loop: a build per request line, an answer line each, until stdin closes."""
    mkdocs = WarmMkdocs()
    try:
        _serve(requests, answers, mkdocs)
    finally:
        mkdocs.forget()


def _serve(requests, answers, mkdocs: WarmMkdocs) -> None:
    # Here, not at the top: make serve's own process imports this module only to talk to the worker.
    from generator.site import build as site
    from generator.errors import BuildError

    for line in requests:
        request = json.loads(line)
        mkdocs.built = []
        try:
            site.build(Path(request["dest"]), docs=Path(request.get("docs") or site.DOCS), mkdocs=mkdocs)
            error = None
            print(f"Built {', '.join(mkdocs.built) or 'no language'} with MkDocs, copied the others.",
                  file=sys.stderr, flush=True)
        except BuildError as e:
            error = f"error: {e}"
        except MemoryError:
            error = "error: the build needed more memory than it may use (generator/guard/limits.py); nothing was changed"
        except OSError as e:
            error = f"error: {e.filename}: {e.strerror}" if e.filename else f"error: {e}"
        if error:
            print(error, file=sys.stderr, flush=True)
        answers.write(json.dumps({"error": error}) + "\n")
        answers.flush()


def main() -> None:
    from generator.guard.limits import cap_memory

    cap_memory()
    answers = sys.stdout
    sys.stdout = sys.stderr  # anything a build prints goes to the terminal, never into the answers
    serve_requests(sys.stdin, answers)


# ---- make serve's side --------------------------------------------------------------------------


class WarmProcess:
    """A long-lived worker of make serve (this module's, or verify/check_worker.py): one JSON
    request line, one JSON answer line {"error": …}. Started on first use, and again when an
    edit touches the code it holds (restart_on: the folders of that code)."""

    def __init__(self, module: str, restart_on: tuple[str, ...], python_only: bool = True):
        self.module, self.restart_on, self.python_only = module, restart_on, python_only
        self.process: subprocess.Popen | None = None

    def holds_code_of(self, changed: set[Path]) -> bool:
        return any(path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in self.restart_on
                   and (path.suffix == ".py" or not self.python_only) for path in changed)

    def ask(self, request: dict, changed: set[Path] | None = None) -> str | None:
        """The worker's answer to the request: None, or the line that says what failed."""
        if changed and self.holds_code_of(changed):
            self.close()
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([sys.executable, "-m", self.module], cwd=ROOT, text=True,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1)
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:  # the process ended (killed, or a crash it printed on the terminal)
            self.close()
            return f"error: make serve's {self.module} process ended unexpectedly; see the terminal"
        return json.loads(answer)["error"]

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.stdin.close()
                try:
                    self.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.process = None


class LiveBuilder(WarmProcess):
    """This module's build process: build(dest, changed) → None or the build's `error:` line."""

    def __init__(self):
        super().__init__("generator.serve.live_build", CODE)

    def holds_code_of(self, changed: set[Path]) -> bool:
        # svg.py reads the cards' drawing (app/core/card-drawing.js) once, when it is imported.
        return super().holds_code_of(changed) or card_drawing.FILE in changed

    def build(self, dest: Path, changed: set[Path] | None = None, docs: Path | None = None) -> str | None:
        return self.ask({"dest": str(dest), "docs": str(docs) if docs else None}, changed)


class LiveChecker(WarmProcess):
    """verify/check_worker.py: check(changed) → None or the line that says what failed. It holds
    the checker's code and, in its Node bridge, the app's: any edit of app/ starts a new one."""

    def __init__(self):
        super().__init__("verify.check_worker", ("verify", "strict_yaml", "app"), python_only=False)

    def check(self, changed: set[Path] | None = None) -> str | None:
        return self.ask({}, changed)


if __name__ == "__main__":
    main()
