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
  copied in. An edit of one language's page therefore runs MkDocs for that language only, and
  MkDocs turns only that page's Markdown into HTML again (_KeptRenders), and Material's search
  plugin indexes only that page again (_KeptSearchEntries).
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
import sysconfig
from importlib import metadata
from pathlib import Path

import jinja2

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


class _KeptBytecode(jinja2.BytecodeCache):
    """The theme's templates compiled once per process: Jinja files each under its name and
    the checksum of its source, and takes it back only when both match (an edited template
    is compiled again)."""

    def __init__(self):
        self.stored: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.stored:
            bucket.bytecode_from_string(self.stored[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.stored[bucket.key] = bucket.bytecode_to_string()


KEPT_BYTECODE = _KeptBytecode()


def _theme_env_with_kept_bytecode():
    """MkDocs makes a new Jinja environment for every build (mkdocs.theme.Theme.get_env); in this
    process each gets KEPT_BYTECODE, so the theme's templates are not compiled again per save."""
    from mkdocs.theme import Theme

    if getattr(Theme.get_env, "keeps_bytecode", False):
        return
    original = Theme.get_env

    def get_env(self):
        env = original(self)
        env.bytecode_cache = KEPT_BYTECODE
        env.loader.list_templates = functools.partial(_theme_files, tuple(env.loader.searchpath))
        return env
    get_env.keeps_bytecode = True
    Theme.get_env = get_env


INSTALLED = Path(sysconfig.get_paths()["purelib"]).resolve()  # where the installed theme lives


def _theme_files(folders: tuple[str, ...]) -> list[str]:
    """What jinja2.FileSystemLoader.list_templates gives for these folders: MkDocs lists the
    theme's files at every build to copy its static ones, and Material's folder holds some 14,000
    (its icons). An installed theme's folder is listed once per process, as its code is imported
    once; any other folder (our overrides) is listed afresh each time."""
    names = set()
    for folder in folders:
        installed = Path(folder).resolve().is_relative_to(INSTALLED)
        names.update(_installed_files(folder) if installed else jinja2.FileSystemLoader(folder).list_templates())
    return sorted(names)


@functools.cache
def _installed_files(folder: str) -> tuple[str, ...]:
    return tuple(jinja2.FileSystemLoader(folder).list_templates())


class _KeptRenders:
    """Each page's Markdown turned into HTML (mkdocs Page.render) once per process for the same
    input: an edit of one page renders that page again, not the whole language. A render's
    result is a function of the page's Markdown, its place (source, URL), the site's files (its
    links resolve against them), the Markdown extensions and their settings (the language's
    config as WarmMkdocs.input_digest reads it, the base mkdocs.yml, the installed versions) and
    the logging level (it decides whether anchor links are recorded) — the key holds all of
    them. A render that logged a warning is never kept (strict mode must see it again), and the
    anchors a page links to are recorded by file name, so the check of those anchors runs
    against this build's pages every time."""

    def __init__(self):
        self.stored: dict[str, tuple] = {}

    def key(self, page, config, files) -> str:
        h = hashlib.sha256()
        h.update(WarmMkdocs.config_digest(Path(config.config_file_path), Path(config.site_dir),
                                          Path(config.docs_dir)).encode())
        h.update(json.dumps([page.file.src_uri, page.file.url, page.markdown, logging.getLogger("mkdocs.structure.pages")
                             .getEffectiveLevel(), sorted((f.src_uri, f.dest_uri, f.url, str(f.inclusion))
                                                          for f in files)]).encode())
        return h.hexdigest()


KEPT_RENDERS = _KeptRenders()
KEPT_RENDER_PAGES = 64  # a few languages' pages and an edit's undo; then all are forgotten


class _Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def _page_render_kept():
    """MkDocs renders every page of a language on every build; in this process Page.render
    takes a page's earlier result when its whole input is the same (_KeptRenders)."""
    import copy

    from mkdocs.structure.pages import Page

    if getattr(Page.render, "keeps_renders", False):
        return
    original = Page.render

    def render(self, config, files):
        key = KEPT_RENDERS.key(self, config, files)
        kept = KEPT_RENDERS.stored.get(key)
        if kept is not None:
            content, toc, title, anchors, links = kept
            self.content, self.toc, self._title_from_render = content, copy.deepcopy(toc), title
            self.present_anchor_ids = set(anchors)
            if links is not None:
                self.links_to_anchors = {files.get_file_from_path(uri): dict(found) for uri, found in links.items()}
            return
        warnings = _Warnings()
        logger = logging.getLogger("mkdocs")
        logger.addHandler(warnings)
        try:
            original(self, config, files)
        finally:
            logger.removeHandler(warnings)
        if warnings.count == 0 and (self.links_to_anchors is None
                                    or all(f is not None for f in self.links_to_anchors)):
            if len(KEPT_RENDERS.stored) >= KEPT_RENDER_PAGES:
                KEPT_RENDERS.stored.clear()
            links = None if self.links_to_anchors is None else \
                {f.src_uri: dict(found) for f, found in self.links_to_anchors.items()}
            KEPT_RENDERS.stored[key] = (self.content, copy.deepcopy(self.toc), self._title_from_render,
                                        frozenset(self.present_anchor_ids or ()), links)
    render.keeps_renders = True
    Page.render = render


class _KeptSearchEntries:
    """The search index's entries of each page (Material's SearchIndex.add_entry_from_context)
    once per process for the same input: MkDocs indexes every page of a language on every
    build, reading its whole HTML again (the examples page is a third of a megabyte), though
    only the edited page changed. The entries are a function of what that method reads — the
    page's HTML, its table of contents (each heading's id, title and URL), its URL, its title
    and its metadata (search exclude and boost, tags, title) — and of Material's code, which
    this process holds; the key holds all of them."""

    def __init__(self):
        self.stored: dict[str, list[dict]] = {}

    @staticmethod
    def key(page) -> str:
        def toc(items) -> list:
            return [[item.id, item.title, item.url, item.level, toc(item.children)] for item in items]
        return hashlib.sha256(json.dumps([page.content, toc(page.toc), page.url, page.title, page.meta],
                                         default=repr, sort_keys=True).encode()).hexdigest()


KEPT_SEARCH = _KeptSearchEntries()
KEPT_SEARCH_PAGES = 64  # as KEPT_RENDER_PAGES


def _search_entries_kept():
    """Material's search plugin parses every page's HTML on every build; in this process a
    page's entries are taken from its earlier indexing when its whole input is the same
    (_KeptSearchEntries). Nothing else of the plugin changes: it still strips the pages'
    data-search attributes and writes the index from the entries."""
    import copy

    from material.plugins.search.plugin import SearchIndex

    if getattr(SearchIndex.add_entry_from_context, "keeps_entries", False):
        return
    original = SearchIndex.add_entry_from_context

    def add_entry_from_context(self, page):
        key = KEPT_SEARCH.key(page)
        kept = KEPT_SEARCH.stored.get(key)
        if kept is not None:
            self.entries.extend(copy.deepcopy(kept))
            return
        before = len(self.entries)
        original(self, page)
        if len(KEPT_SEARCH.stored) >= KEPT_SEARCH_PAGES:
            KEPT_SEARCH.stored.clear()
        KEPT_SEARCH.stored[key] = copy.deepcopy(self.entries[before:])
    add_entry_from_context.keeps_entries = True
    SearchIndex.add_entry_from_context = add_entry_from_context


def build_in_process(code: str, config: Path) -> None:
    """`mkdocs build --strict` of one language's config, in this process; BuildFailed with
    MkDocs' warnings, as site.run_mkdocs says them."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    _theme_env_with_kept_bytecode()
    _page_render_kept()
    _search_entries_kept()
    logger = logging.getLogger("mkdocs")
    collect = _Collect()
    logger.addHandler(collect)
    logger.propagate = False  # said once, in the error, not also on the terminal
    try:
        build(load_config(config_file=str(config), strict=True))
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
