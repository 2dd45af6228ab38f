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
from generator.publish.versions import DIGEST, RECORD
from helpers.cached_builds import ROOT, ensure_bundle

PAGE = ROOT / "docs" / "nb" / "pages" / "contact.md"  # for the restart rules; the build edits a copy


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.name not in (DIGEST, RECORD)}  # these two say when it was made


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
    """The warm builder keeps each page's Markdown render (live_build._KeptRenders): a page
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
    Markdown into HTML again, and takes the language's other pages from their earlier render."""
    import markdown

    from generator.serve.live_build import WarmMkdocs

    ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    converted = []
    convert = markdown.Markdown.convert
    monkeypatch.setattr(markdown.Markdown, "convert", lambda self, text: converted.append(text) or convert(self, text))
    mkdocs = WarmMkdocs(tmp_path / "kept")
    try:
        _build_edit_contact_and_build_again(tmp_path / "site", docs, mkdocs, seen=converted)
        assert mkdocs.built == ["nb"]
        assert len(converted) == 1 and "Vi vil svært gjerne" in converted[0]
    finally:
        mkdocs.forget()


def test_an_edit_indexes_again_only_the_page_it_changed_and_the_index_is_the_cold_ones(tmp_path, monkeypatch):
    """In the warm builder's own process: after an edit of one nb page, Material's search plugin
    reads that page's HTML again and takes the language's other pages' entries from their
    earlier indexing (live_build._KeptSearchEntries); the search index it writes is the one
    written with nothing kept."""
    from material.plugins.search import plugin as search_plugin

    from generator.serve import live_build
    from generator.site import build as site
    from generator.serve.live_build import WarmMkdocs

    ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    parsed = []
    feed = search_plugin.Parser.feed
    monkeypatch.setattr(search_plugin.Parser, "feed", lambda self, data: parsed.append(data) or feed(self, data))
    # What this process kept from other tests' builds of the same sources is not this test's.
    monkeypatch.setattr(live_build.KEPT_SEARCH, "stored", {})
    mkdocs = WarmMkdocs(tmp_path / "kept")
    index = tmp_path / "site" / "nb" / "search" / "search_index.json"
    try:
        _build_edit_contact_and_build_again(tmp_path / "site", docs, mkdocs, seen=parsed)
        assert mkdocs.built == ["nb"]
        assert len(parsed) == 1 and "Vi vil svært gjerne" in parsed[0], len(parsed)
        warm = index.read_bytes()
        assert any("Vi vil svært gjerne" in doc["text"] for doc in json.loads(warm)["docs"])
        # The same sources with nothing kept (every page rendered and indexed now): the same index.
        monkeypatch.setattr(live_build.KEPT_SEARCH, "stored", {})
        monkeypatch.setattr(live_build.KEPT_RENDERS, "stored", {})
        mkdocs.last.clear()
        parsed.clear()
        site.build(tmp_path / "site", docs=docs, mkdocs=mkdocs)
        assert len(parsed) == 2 * len(list((docs / "nb" / "pages").glob("*.md")))  # both languages, every page
        assert index.read_bytes() == warm
    finally:
        mkdocs.forget()


def test_the_theme_listing_is_jinjas_and_sees_a_new_file_in_our_own_folders(tmp_path):
    """The warm builder lists an installed theme's files once (generator/serve/live_build.py _theme_files):
    the listing is the one Jinja makes, and a file added to a folder of ours (the overrides) is in
    the next one, while the installed folder is not walked again."""
    import jinja2
    from mkdocs.config import load_config
    from generator.serve import live_build

    theme_dirs = load_config(config_file=str(ROOT / "mkdocs.yml")).theme.dirs
    ours = tmp_path / "overrides"
    (ours / "partials").mkdir(parents=True)
    (ours / "partials" / "a.html").write_text("a", encoding="utf-8")
    folders = (str(ours), *theme_dirs)
    assert any(Path(d).resolve().is_relative_to(live_build.INSTALLED) for d in theme_dirs)
    assert live_build._theme_files(folders) == jinja2.FileSystemLoader(list(folders)).list_templates()
    (ours / "extra.svg").write_text("<svg/>", encoding="utf-8")
    walked = []
    original = jinja2.FileSystemLoader.list_templates

    def counting(loader):
        walked.extend(loader.searchpath)
        return original(loader)
    jinja2.FileSystemLoader.list_templates = counting
    try:
        listed = live_build._theme_files(folders)
    finally:
        jinja2.FileSystemLoader.list_templates = original
    assert "extra.svg" in listed
    assert listed == jinja2.FileSystemLoader(list(folders)).list_templates()
    # Only our own folders were walked again (this one, the repository's overrides); the installed
    # theme's came from the first listing.
    assert walked == [d for d in folders if not Path(d).resolve().is_relative_to(live_build.INSTALLED)]
    assert str(ours) in walked and len(walked) < len(folders)
