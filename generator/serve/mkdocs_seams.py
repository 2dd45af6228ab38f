"""make serve's two seams that lean on how MkDocs works inside, kept here alone. Both use only
MkDocs' public events, classes and attributes (generator/serve/kept_plugin.py calls them), but
each has to know something MkDocs does not promise:

- Each page's Markdown render reused when its whole input is the same (KeptRenders). It must know
  what a render yields: in MkDocs 1.6, Page.render sets `content`, `toc`, `present_anchor_ids`,
  `links_to_anchors` (public, put back below) and the title it found in the page (private, put
  back by no one: a page whose title comes from its render is rendered again). For a page whose
  render is kept, on_page_markdown gives MkDocs an empty text to render (next to nothing to do)
  and on_page_content puts back what the real render gave.
- The installed theme's files listed once per process (ThemeListedOnce): MkDocs lists the theme's
  folders at every build to find its static files, and Material's holds some 14,500 (its icons),
  some 25 ms of an edit's build. The listing happens before any event, on the environment of
  `config.theme`, so on_config puts an equal Theme in its place (made by Theme's own constructor
  from the first one's settings) whose environment's loader lists an installed folder once;
  that needs Theme's constructor to make the same theme from them.

Another MkDocs may differ in either, so both are used only under the versions they were checked
for (MADE_FOR); under any other, MkDocs works as it does in `generator build` (only slower), and
tests/generator/serve/test_live_build.py fails naming the version until someone checks them again.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import json
import logging
import sysconfig
from importlib import metadata
from pathlib import Path

import jinja2
from mkdocs.theme import Theme

MADE_FOR = ("1.6.1",)  # the MkDocs versions both seams were checked against
RENDER_OUTPUTS = {"content", "toc", "present_anchor_ids", "links_to_anchors", "_title_from_render"}
ACTIVE = metadata.version("mkdocs") in MADE_FOR

KEPT_PAGES = 64  # a few languages' pages and an edit's undo; then all are forgotten


class KeptRenders:
    """Each page's render once per process for the same input. A render is a function of the
    page's Markdown (as the last on_page_markdown leaves it), its place (source, URL), the site's
    files (its links resolve against them), the Markdown extensions and their settings (the
    language's config: `config_key`, which the plugin computes once per build) and the logging
    level (it decides whether links to anchors are recorded); the key holds all of them. A render
    that logged a warning is never kept (strict mode must see it again), and the anchors a page
    links to are kept by file name, so MkDocs checks them against this build's pages every time."""

    def __init__(self):
        self.stored: dict[str, tuple] = {}

    @staticmethod
    def files_key(files) -> str:
        return json.dumps(sorted((f.src_uri, f.dest_uri, f.url, str(f.inclusion)) for f in files))

    @staticmethod
    def key(markdown: str, page, config_key: str, files_key: str) -> str:
        level = logging.getLogger("mkdocs.structure.pages").getEffectiveLevel()
        return hashlib.sha256(json.dumps([config_key, files_key, page.file.src_uri, page.file.url,
                                          markdown, level]).encode()).hexdigest()

    def get(self, key: str) -> tuple | None:
        return self.stored.get(key) if ACTIVE else None

    def store(self, key: str, page, html: str) -> None:
        """What the render of `page` gave (called from on_page_content, before any other plugin's)."""
        if not ACTIVE or (page.links_to_anchors is not None and any(f is None for f in page.links_to_anchors)):
            return
        links = None if page.links_to_anchors is None else \
            {f.src_uri: dict(found) for f, found in page.links_to_anchors.items()}
        if len(self.stored) >= KEPT_PAGES:
            self.stored.clear()
        self.stored[key] = (html, copy.deepcopy(page.toc), frozenset(page.present_anchor_ids or ()), links,
                            page.title)

    @staticmethod
    def restore(kept: tuple, page, files) -> str | None:
        """After MkDocs rendered the empty text in place of the page's: its render's table of
        contents, anchors and links to anchors put back on the page, and its HTML returned for
        on_page_content to give. None when the page's title now differs from the kept render's
        (it came from the render itself): the caller renders the page for real."""
        html, toc, anchors, links, title = kept
        if page.title != title:
            return None
        page.toc = copy.deepcopy(toc)
        page.present_anchor_ids = set(anchors)
        if links is not None:
            page.links_to_anchors = {files.get_file_from_path(uri): dict(found) for uri, found in links.items()}
        return html


KEPT_RENDERS = KeptRenders()


class ThemeListedOnce(Theme):
    """A theme equal to the one MkDocs made from the config (its name, folders, static templates,
    settings and locale), whose Jinja environment is MkDocs' own but with a loader that lists an
    installed theme's folder once per process (jinja's overlay: a copy of the environment with
    another loader)."""

    @classmethod
    def like(cls, theme: Theme) -> ThemeListedOnce:
        """Made once per process for the same settings (some 3 ms: Theme reads the installed themes'
        entry points and configuration), and made again if a build changed the one made before."""
        key = _settings(theme)
        made = _MADE_THEMES.get(key)
        if made is None or _settings(made) != key:
            if len(_MADE_THEMES) >= KEPT_THEMES:
                _MADE_THEMES.clear()
            made = _MADE_THEMES[key] = cls(theme.name, custom_dir=theme.custom_dir, static_templates=theme.static_templates,
                                           locale=str(theme.locale),
                                           **copy.deepcopy({k: v for k, v in theme.items() if k not in ("name", "locale")}))
        return made

    def get_env(self) -> jinja2.Environment:
        env = super().get_env()
        return env.overlay(loader=ListedOnceLoader(env.loader.searchpath))


def _settings(theme: Theme) -> str:
    return repr([theme.name, theme.dirs, sorted(theme.static_templates), theme.custom_dir, dict(theme)])


_MADE_THEMES: dict[str, ThemeListedOnce] = {}
KEPT_THEMES = 4  # a theme per language; then all are forgotten
INSTALLED = Path(sysconfig.get_paths()["purelib"]).resolve()  # where the installed theme lives


@functools.cache
def installed(folder: str) -> bool:
    """A folder of an installed package (Material's templates, MkDocs' own), not one of ours."""
    return Path(folder).resolve().is_relative_to(INSTALLED)


class ListedOnceLoader(jinja2.FileSystemLoader):
    """jinja2.FileSystemLoader, whose listing of an installed folder is made once per process,
    as its code is imported once; any other folder (our overrides) is listed afresh each time."""

    def list_templates(self) -> list[str]:
        names = set()
        for folder in self.searchpath:
            names.update(_installed_files(folder) if installed(folder) else jinja2.FileSystemLoader(folder).list_templates())
        return sorted(names)


@functools.cache
def _installed_files(folder: str) -> tuple[str, ...]:
    return tuple(jinja2.FileSystemLoader(folder).list_templates())
