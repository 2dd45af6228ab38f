"""`make serve`'s warm processes (generator/serve/live_build.py, verify/check_worker.py): the site they
build is the one `generator build` builds, file for file, whether a language was built by MkDocs
or copied from its last output; they start again for an edit of the code they hold; a failed
build is one `error:` line and the process stays usable."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

from generator.serve.live_build import LiveBuilder, LiveChecker
from generator.publish.versions import DIGEST
from helpers.cached_builds import ROOT, ensure_bundle

PAGE = ROOT / "docs" / "nb" / "pages" / "contact.md"  # for the restart rules; the build edits a copy


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.name != DIGEST}  # the digest of a sealed site, which the warm build is not


def test_the_warm_build_is_the_cold_build_file_for_file(tmp_path):
    ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    page = docs / "nb" / "pages" / "contact.md"
    cold = subprocess.run([sys.executable, "-m", "generator", "build", "--dest", str(tmp_path / "cold"),
                           "--docs", str(docs)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert cold.returncode == 0, cold.stderr
    builder = LiveBuilder()
    try:
        assert builder.build(tmp_path / "warm", docs=docs) is None  # both languages by MkDocs
        assert _files(tmp_path / "warm") == _files(tmp_path / "cold")
        assert builder.build(tmp_path / "warm", docs=docs) is None  # both copied from their last output
        assert _files(tmp_path / "warm") == _files(tmp_path / "cold")
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("Vi vil gjerne", "Vi vil {{ 42 }} gjerne"), encoding="utf-8")
        error = builder.build(tmp_path / "warm", {page}, docs=docs)
        assert error.startswith(f"error: {page}") and "42" in error, error
        assert _files(tmp_path / "warm") == _files(tmp_path / "cold")  # the last good site stays
        page.write_text(text.replace("Vi vil gjerne", "Vi vil svært gjerne"), encoding="utf-8")
        assert builder.build(tmp_path / "warm", {page}, docs=docs) is None  # the same process: nb built again
        changed = {name for name, body in _files(tmp_path / "warm").items() if _files(tmp_path / "cold").get(name) != body}
        assert "nb/contact/index.html" in changed and not any(name.startswith("da/") for name in changed), changed
    finally:
        builder.close()


def test_each_warm_process_starts_again_for_the_code_it_holds():
    builder, checker = LiveBuilder(), LiveChecker()
    assert builder.holds_code_of({ROOT / "generator" / "pages.py"})
    assert builder.holds_code_of({ROOT / "strict_yaml" / "loader.py"})
    assert builder.holds_code_of({ROOT / "app" / "core" / "card-drawing.js"})  # svg.py reads it when imported
    assert not builder.holds_code_of({ROOT / "app" / "ui" / "board.js"})  # copied by each build
    assert not builder.holds_code_of({PAGE, ROOT / "examples" / "winnable.yaml", ROOT / "verify" / "notes.py",
                                      ROOT / "generator" / "assets" / "site.css"})  # data: read by each build
    for code in ("verify/checking.py", "strict_yaml/loader.py", "app/core/engine.js", "verify/app_bridge.mjs"):
        assert checker.holds_code_of({ROOT / code}), code
    assert not checker.holds_code_of({PAGE, ROOT / "examples" / "winnable.yaml", ROOT / "docs" / "nb" / "glossary.yml"})


def test_a_kept_page_render_never_hides_a_broken_anchor_or_a_changed_page(tmp_path):
    """The warm builder keeps each page's Markdown render (generator/serve/mkdocs_seams.py): a page
    that links to another page's heading is rendered once, but the anchor is looked for in
    the other page as this build made it; a warning is never kept; and the site after an edit
    is the cold build's of the same sources, file for file."""
    ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    index, contact = docs / "nb" / "pages" / "index.md", docs / "nb" / "pages" / "contact.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n[Se ankeret](contact.md#ankeret)\n", encoding="utf-8")
    with_heading = contact.read_text(encoding="utf-8") + "\n## Ankeret\n\nHer er det.\n"
    contact.write_text(with_heading, encoding="utf-8")
    builder = LiveBuilder()
    try:
        assert builder.build(tmp_path / "warm", docs=docs) is None
        contact.write_text(with_heading.replace("## Ankeret\n", "Ankeret\n"), encoding="utf-8")
        for _ in range(2):  # index.md's render kept, its anchor looked for again; the warning never kept
            error = builder.build(tmp_path / "warm", {contact}, docs=docs)
            assert error and "does not contain an anchor '#ankeret'" in error, error
        contact.write_text(with_heading.replace("Her er det.", "Her står det."), encoding="utf-8")
        assert builder.build(tmp_path / "warm", {contact}, docs=docs) is None
    finally:
        builder.close()
    cold = subprocess.run([sys.executable, "-m", "generator", "build", "--dest", str(tmp_path / "cold"),
                           "--docs", str(docs)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert cold.returncode == 0, cold.stderr
    assert _files(tmp_path / "warm") == _files(tmp_path / "cold")


def _build_edit_contact_and_build_again(dest, docs, mkdocs, seen: list) -> None:
    """A build, one word of nb's contact page edited, a second build; what `seen` recorded of
    the first build and the languages built by it are forgotten first."""
    from generator.site import build as site

    site.build(dest, docs=docs, mkdocs=mkdocs)
    page = docs / "nb" / "pages" / "contact.md"
    page.write_text(page.read_text(encoding="utf-8").replace("Vi vil gjerne", "Vi vil svært gjerne"), encoding="utf-8")
    seen.clear()
    mkdocs.built = []
    site.build(dest, docs=docs, mkdocs=mkdocs)


def test_an_edit_renders_again_only_the_page_it_changed(tmp_path, monkeypatch):
    """In the warm builder's own process: after an edit of one nb page, MkDocs turns that page's
    Markdown into HTML again, and takes the language's other pages from their earlier render (it
    is given an empty text to render for them: generator/serve/mkdocs_seams.py)."""
    import markdown

    from generator.serve.live_build import WarmMkdocs

    ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    converted = []
    convert = markdown.Markdown.convert
    def counted(self, text):
        # MkDocs's renders only: the number guard converts a page's text too, to tell list markers.
        if "mkdocs" in sys._getframe(1).f_code.co_filename:
            converted.append(text)
        return convert(self, text)

    monkeypatch.setattr(markdown.Markdown, "convert", counted)
    mkdocs = WarmMkdocs(tmp_path / "kept")
    try:
        _build_edit_contact_and_build_again(tmp_path / "site", docs, mkdocs, seen=converted)
        assert mkdocs.built == ["nb"]
        rendered = [text for text in converted if text]
        assert len(rendered) == 1 and "Vi vil svært gjerne" in rendered[0], [text[:60] for text in rendered]
    finally:
        mkdocs.forget()


def test_after_an_edit_the_search_index_is_the_one_written_with_nothing_kept(tmp_path, monkeypatch):
    """In the warm builder's own process: after an edit of one nb page (the other pages' renders
    and the theme's templates kept), Material's search plugin indexes every page, and the index
    it writes is the one written with nothing kept."""
    from generator.serve import kept_plugin, mkdocs_seams
    from generator.site import build as site
    from generator.serve.live_build import WarmMkdocs

    ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    mkdocs = WarmMkdocs(tmp_path / "kept")
    index = tmp_path / "site" / "nb" / "search" / "search_index.json"
    try:
        _build_edit_contact_and_build_again(tmp_path / "site", docs, mkdocs, seen=[])
        assert mkdocs.built == ["nb"]
        warm = index.read_bytes()
        assert any("Vi vil svært gjerne" in doc["text"] for doc in json.loads(warm)["docs"])
        # The same sources with nothing kept (every page rendered, every template compiled now): the same index.
        monkeypatch.setattr(mkdocs_seams.KEPT_RENDERS, "stored", {})
        monkeypatch.setattr(kept_plugin.KEPT_ENVIRONMENTS, "stored", {})
        mkdocs.last.clear()
        site.build(tmp_path / "site", docs=docs, mkdocs=mkdocs)
        assert index.read_bytes() == warm
    finally:
        mkdocs.forget()


def test_the_theme_is_compiled_once_and_an_edited_override_again(tmp_path):
    """The warm builder's plugin gives MkDocs the Jinja environment of an earlier build with the same
    theme (its templates compiled once per process: generator/serve/kept_plugin.py); an edit of a
    folder of ours (the overrides), or another language's locale, gets the new environment MkDocs made."""
    from mkdocs.config import load_config

    from generator.serve.kept_plugin import KeptEnvironments

    overrides = tmp_path / "overrides"
    overrides.mkdir()
    (tmp_path / "docs").mkdir()
    (overrides / "main.html").write_text("{{ 'one' }}", encoding="utf-8")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(f"site_name: t\ntheme:\n  name: material\n  custom_dir: {overrides}\n", encoding="utf-8")
    config = load_config(config_file=str(config_file))
    kept = KeptEnvironments()
    first = kept.kept(config.theme.get_env(), config)
    template = first.get_template("main.html")
    assert kept.kept(config.theme.get_env(), config) is first
    assert first.get_template("main.html") is template  # compiled once
    (overrides / "main.html").write_text("{{ 'two' }}", encoding="utf-8")
    edited = kept.kept(config.theme.get_env(), config)
    assert edited is not first
    assert template.render() == "one" and edited.get_template("main.html").render() == "two"
    (overrides / "partials").mkdir()
    (overrides / "partials" / "footer.html").write_text("ours", encoding="utf-8")  # a new file shadowing the theme's
    assert kept.kept(config.theme.get_env(), config) not in (first, edited)
    other = load_config(config_file=str(config_file), theme={"name": "material", "custom_dir": str(overrides),
                                                             "locale": "nb"})
    assert kept.kept(other.theme.get_env(), other) is not kept.kept(config.theme.get_env(), config)


def test_a_build_with_the_plugin_is_mkdocs_own_build_file_for_file(tmp_path, monkeypatch):
    """The warm builder's plugin (generator/serve/kept_plugin.py) on a small site: pages whose title
    comes from their own heading (no navigation given), one from its metadata, links to another
    page's anchor. After an edit of one page, its Markdown is converted again, and so is a page
    whose title comes from its render (MkDocs keeps that title where no plugin may write it); the
    others are taken from the first build; and the site is the one MkDocs builds without the
    plugin, file for file."""
    import logging

    import markdown
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from generator.serve import kept_plugin, mkdocs_seams
    from generator.serve.live_build import WarmMkdocs, _Collect

    monkeypatch.setattr(mkdocs_seams.KEPT_RENDERS, "stored", {})
    monkeypatch.setattr(kept_plugin.KEPT_ENVIRONMENTS, "stored", {})
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Forsiden\n\nSe [delen](other.md#delen).\n", encoding="utf-8")
    (docs / "other.md").write_text("---\ntitle: Fra metadata\n---\n# Annen\n\n## Delen\n\nTekst.\n", encoding="utf-8")
    (docs / "third.md").write_text("Uten overskrift.\n", encoding="utf-8")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text("site_name: t\ntheme:\n  name: material\nplugins:\n  - search\n"
                           "validation:\n  anchors: warn\n", encoding="utf-8")
    converted = []
    convert = markdown.Markdown.convert
    monkeypatch.setattr(markdown.Markdown, "convert", lambda self, text: converted.append(text) or convert(self, text))

    def mkdocs_build(site: Path, plugin: bool) -> dict[str, bytes]:
        config = load_config(config_file=str(config_file), site_dir=str(site), strict=True)
        collect = _Collect()
        logging.getLogger("mkdocs").addHandler(collect)
        try:
            if plugin:
                config.plugins["pyramide/kept-between-builds"] = kept_plugin.KeptBetweenBuilds(collect, WarmMkdocs.config_digest)
            build(config)
        finally:
            logging.getLogger("mkdocs").removeHandler(collect)
        assert collect.lines == []
        return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}

    mkdocs_build(tmp_path / "warm", plugin=True)
    (docs / "other.md").write_text("---\ntitle: Fra metadata\n---\n# Annen\n\n## Delen\n\nNy tekst.\n", encoding="utf-8")
    converted.clear()
    warm = mkdocs_build(tmp_path / "warm", plugin=True)
    rendered = sorted(text.strip().splitlines()[-1] for text in converted if text)
    # index.md again too: its title is its heading, found by its render; third.md's is its name.
    assert rendered == ["Ny tekst.", "Se [delen](other.md#delen)."], rendered
    assert warm == mkdocs_build(tmp_path / "cold", plugin=False)


def test_the_mkdocs_seams_are_made_for_the_mkdocs_installed(tmp_path):
    """generator/serve/mkdocs_seams.py leans on how MkDocs works inside, as checked in the versions
    it names. Under another MkDocs both seams stay off (MkDocs works as in `generator build`) and
    this test fails until they are checked again: Page.render must set the attributes that module
    puts back (or knows to leave: the title it found), and Theme's constructor must make the same
    theme again from a theme's settings."""
    from importlib import metadata

    from mkdocs.config import load_config
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    from generator.serve import mkdocs_seams

    installed = metadata.version("mkdocs")
    assert installed in mkdocs_seams.MADE_FOR, (
        f"generator/serve/mkdocs_seams.py was made for MkDocs {', '.join(mkdocs_seams.MADE_FOR)}; MkDocs "
        f"{installed} is installed: check what its Page.render sets and what Theme(…) makes, then add the "
        "version to MADE_FOR")
    assert mkdocs_seams.ACTIVE
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Tittel\n\n## Del {#del}\n\n[Lenke](other.md#x)\n", encoding="utf-8")
    (docs / "other.md").write_text("# Annen\n", encoding="utf-8")
    config = load_config(config_file=None, docs_dir=str(docs), site_dir=str(tmp_path / "site"), site_name="t")
    files = Files([File(name, str(docs), str(tmp_path / "site"), True) for name in ("index.md", "other.md")])
    page = Page(None, files.get_file_from_path("index.md"), config)
    page.read_source(config)
    before = dict(vars(page))
    page.render(config, files)
    changed = {name for name, value in vars(page).items() if name not in before or before[name] is not value}
    assert changed == mkdocs_seams.RENDER_OUTPUTS, changed

    theme = load_config(config_file=str(ROOT / "mkdocs.yml"), theme={
        "name": "material", "custom_dir": str(ROOT / "generator" / "overrides"), "language": "nb",
        "locale": "nb", "palette": [{"scheme": "slate"}], "features": ["navigation.footer"]}).theme
    copy = mkdocs_seams.ThemeListedOnce.like(theme)
    assert (copy.name, copy.dirs, copy.static_templates, copy.custom_dir, copy.locale, dict(copy)) == \
        (theme.name, theme.dirs, theme.static_templates, theme.custom_dir, theme.locale, dict(theme))


def test_the_theme_listing_is_jinjas_and_sees_a_new_file_in_our_own_folders(tmp_path, monkeypatch):
    """The warm builder lists an installed theme's files once (generator/serve/mkdocs_seams.py
    ListedOnceLoader): the listing is the one Jinja makes, and a file added to a folder of ours
    (the overrides) is in the next one, while the installed folder is not walked again."""
    import jinja2
    from mkdocs.config import load_config

    from generator.serve import mkdocs_seams

    theme_dirs = load_config(config_file=str(ROOT / "mkdocs.yml")).theme.dirs
    ours = tmp_path / "overrides"
    (ours / "partials").mkdir(parents=True)
    (ours / "partials" / "a.html").write_text("a", encoding="utf-8")
    folders = [str(ours), *theme_dirs]
    assert any(mkdocs_seams.installed(d) for d in theme_dirs)
    loader = mkdocs_seams.ListedOnceLoader(folders)
    assert loader.list_templates() == jinja2.FileSystemLoader(folders).list_templates()
    (ours / "extra.svg").write_text("<svg/>", encoding="utf-8")
    walked = []
    original = jinja2.FileSystemLoader.list_templates
    monkeypatch.setattr(jinja2.FileSystemLoader, "list_templates",
                        lambda self: walked.extend(self.searchpath) or original(self))
    listed = loader.list_templates()
    monkeypatch.undo()
    assert "extra.svg" in listed
    assert listed == jinja2.FileSystemLoader(folders).list_templates()
    # Only our own folders were walked again; the installed theme's came from the first listing.
    assert walked == [d for d in folders if not mkdocs_seams.installed(d)]
    assert str(ours) in walked and len(walked) < len(folders)
