"""`make serve`'s warm processes (generator/live_build.py, verify/check_worker.py): the site they
build is the one `generator build` builds, file for file, whether a language was built by MkDocs
or copied from its last output; they start again for an edit of the code they hold; a failed
build is one `error:` line and the process stays usable."""
import shutil
import subprocess
import sys
from pathlib import Path

from generator.live_build import LiveBuilder, LiveChecker
from generator.versions import DIGEST, RECORD
from site_build import ROOT, ensure_bundle

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
    assert not builder.holds_code_of({PAGE, ROOT / "examples" / "winnable.yaml", ROOT / "verify" / "notes.py",
                                      ROOT / "generator" / "assets" / "site.css"})  # data: read by each build
    for code in ("verify/checking.py", "strict_yaml/loader.py", "app/engine.js", "verify/app_bridge.mjs"):
        assert checker.holds_code_of({ROOT / code}), code
    assert not checker.holds_code_of({PAGE, ROOT / "examples" / "winnable.yaml", ROOT / "docs" / "nb" / "glossary.yml"})
