"""What make verify prints beside the checker's lines: the lint (`generator lint`) names files
from the repository's root as the checker does, and after a failed check it says the notes were
not linted without sending the reader to run make verify, which they are running. A build
names them so too, in its warnings and errors."""
import shutil
import tempfile
from pathlib import Path

import pytest

from generator import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def docs_in_repository():
    """A copy of docs/ inside the repository (under build/), one page with a number typed by hand."""
    (ROOT / "build").mkdir(exist_ok=True)
    top = Path(tempfile.mkdtemp(dir=ROOT / "build", prefix="lint-lines-"))
    try:
        shutil.copytree(ROOT / "docs", top / "docs")
        page = top / "docs" / "nb" / "pages" / "contact.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nDet er 29 kort her.\n", encoding="utf-8")
        yield top / "docs"
    finally:
        shutil.rmtree(top)


def test_lint_names_files_from_the_repository_root_and_sends_nobody_to_make_verify(docs_in_repository, capsys):
    missing = docs_in_repository.parent / "verified.json"  # as when `verify check` failed and wrote none
    assert cli.main(["lint", "--docs", str(docs_in_repository), "--bundle", str(missing)]) == 2
    err = capsys.readouterr().err
    page = docs_in_repository.relative_to(ROOT) / "nb" / "pages" / "contact.md"
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert errors and errors[0].startswith(f"error: {page}, line ") and "a number typed by hand" in errors[0]
    assert str(ROOT) not in err
    [warning] = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert warning.startswith(f"warning: the example notes are not linted: {missing.relative_to(ROOT)} is not current")
    assert "make verify" not in err


def test_a_build_names_files_from_the_repository_root_in_warnings_and_errors(docs_in_repository, tmp_path, capsys):
    """Issue 40: `make site` printed its placeholder warnings with the absolute path of
    docs/facts.yml, beside lines naming files from the repository's root."""
    missing = docs_in_repository.parent / "verified.json"
    assert cli.main(["build", "--dest", str(tmp_path / "site"), "--docs", str(docs_in_repository),
                     "--bundle", str(missing)]) == 2
    err = capsys.readouterr().err
    facts = docs_in_repository.relative_to(ROOT) / "facts.yml"
    warnings = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert warnings and all(line.startswith(f"warning: {facts}") for line in warnings), err
    [error] = [line for line in err.splitlines() if line.startswith("error: ")]
    assert error.startswith(f"error: {missing.relative_to(ROOT)}: the verified data bundle is missing"), err
    assert str(ROOT) not in err
    assert not (tmp_path / "site").exists()
