"""make serve's MkDocs plugin: what the warm builder (generator/serve/live_build.py) keeps from one
build of a language to the next, through MkDocs' plugin events alone — no method of MkDocs or
Material is replaced, no attribute of theirs written (tests/test_layout.py holds the generator to it).

- The theme's templates compiled once per process: on_env gives MkDocs the Jinja environment it
  made at an earlier build with the same theme folders, locale and filters, whose templates are
  already compiled, in place of the new one it just made (MkDocs' own makes no use of a kept
  one: auto_reload off). Our own template folders (the overrides) are read each time, and any
  change there makes a new environment; the installed theme is held as the process's code is.
- Each page's Markdown render reused when its whole input is the same, and the installed theme's
  files listed once (on_config, on_page_markdown, on_page_content): the two seams that lean on
  how MkDocs works inside, in generator/serve/mkdocs_seams.py alone, used only under the MkDocs
  versions they were checked for.
- Search indexing runs as in any build: Material's plugin reads every page's HTML again, some
  15 ms of an edit's build of one language, and has no public way to take entries it made before.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from mkdocs.plugins import BasePlugin, event_priority

from generator.serve import mkdocs_seams
from generator.serve.mkdocs_seams import KEPT_RENDERS, KeptRenders, ThemeListedOnce, installed

KEPT_ENVIRONMENT_KINDS = 4  # theme folders × locale (both languages share one); then all are forgotten


class KeptEnvironments:
    """The Jinja environments MkDocs made at earlier builds, by what makes one differ."""

    def __init__(self):
        self.stored: dict[str, object] = {}

    @staticmethod
    def key(env, config) -> str:
        """What MkDocs' Theme.get_env makes an environment of (the theme's folders and locale, the
        filters and extensions it adds), and every file of the folders that are not an installed
        package's (our overrides: an edit, or a new template shadowing the theme's, is seen)."""
        h = hashlib.sha256(repr([type(env.loader).__qualname__, list(env.loader.searchpath), str(config.theme.locale),
                                 sorted(env.extensions),
                                 sorted((name, id(f)) for name, f in env.filters.items())]).encode())
        for folder in env.loader.searchpath:
            if not installed(folder):
                for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
                    h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
        return h.hexdigest()

    def kept(self, env, config):
        key = self.key(env, config)
        if key not in self.stored:
            if len(self.stored) >= KEPT_ENVIRONMENT_KINDS:
                self.stored.clear()
            self.stored[key] = env
        return self.stored[key]


KEPT_ENVIRONMENTS = KeptEnvironments()


class KeptBetweenBuilds(BasePlugin):
    """Added to each in-process build's plugins (live_build.build_in_process). warnings: the
    build's handler of MkDocs' warnings (its `lines`); config_digest(config_file, site_dir,
    docs_dir): the language's config as the kept renders' key reads it."""

    def __init__(self, warnings, config_digest, renders: KeptRenders = KEPT_RENDERS,
                 environments: KeptEnvironments = KEPT_ENVIRONMENTS):
        self.warnings, self.config_digest = warnings, config_digest
        self.renders, self.environments = renders, environments
        self.config_key = self.files_key = None
        self.pending: dict[str, tuple] = {}  # page source → (key, kept render or None, warnings so far, Markdown)

    def on_config(self, config):
        self.config_key = self.config_digest(Path(config.config_file_path), Path(config.site_dir), Path(config.docs_dir))
        self.files_key, self.pending = None, {}
        if mkdocs_seams.ACTIVE:
            config["theme"] = ThemeListedOnce.like(config.theme)
        return config

    @event_priority(100)  # first: another plugin's on_env changes the environment it is given
    def on_env(self, env, *, config, files):
        return self.environments.kept(env, config)

    @event_priority(-100)  # last: the Markdown as MkDocs will render it
    def on_page_markdown(self, markdown, *, page, config, files):
        if self.files_key is None:
            self.files_key = KeptRenders.files_key(files)
        key = KeptRenders.key(markdown, page, self.config_key, self.files_key)
        kept = self.renders.get(key)
        self.pending[page.file.src_uri] = (key, kept, len(self.warnings.lines), markdown)
        return "" if kept is not None else markdown

    @event_priority(100)  # first: the HTML as the render made it
    def on_page_content(self, html, *, page, config, files):
        if page.file.src_uri not in self.pending:  # its Markdown never came through on_page_markdown
            return html
        key, kept, warned, markdown = self.pending.pop(page.file.src_uri)
        if kept is not None:
            restored = KeptRenders.restore(kept, page, files)
            if restored is not None:
                return restored
            page.markdown = markdown  # its title comes from its render: rendered for real after all
            page.render(config, files)
            html = page.content
        if len(self.warnings.lines) == warned:
            self.renders.store(key, page, html)
        return html
