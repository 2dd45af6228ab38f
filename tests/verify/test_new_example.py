"""`make example DEAL=N` (verify/new_example.py) beside the example file: a words file for every
language with the note rules in its header and each move's place for a note, which builds as it
is and reads back as that language's words once filled in; the next steps name the one command
that records words written directly in a target language; FORCE=1 replaces only a file make
example wrote (never through a link, never a file written by hand)."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from verify.examples import language_codes, load_example

ROOT = Path(__file__).resolve().parents[2]
DEAL = 13  # solved in a few seconds


def make_example(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "verify", "example", *args,
                           "--dir", str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    top = tmp_path_factory.mktemp("clone")
    shutil.copytree(ROOT / "examples", top / "examples")
    r = make_example(top / "examples", str(DEAL))
    assert r.returncode == 0, r.stderr
    return top, r.stdout


def test_a_words_file_for_every_language_with_the_rules_and_each_move(made):
    top, said = made
    example = load_example(top / "examples" / f"deal-{DEAL}.yaml", language_codes())
    assert example.problems == []  # the words files build as they are
    for code in language_codes():
        words = top / "docs" / code / "examples" / f"deal-{DEAL}.yml"
        text = words.read_text(encoding="utf-8")
        assert f"Wrote {words}" in said
        assert f"docs/{code}/glossary.yml" in text and "before its move" in text and "in none" in text
        for field in ("title", "summary", "notes"):
            assert f"\n# {field}:" in text
        for number, move in enumerate(example.game, 1):
            assert f'\n#   {number}: ""  # {move.text}' in text


def test_filled_in_words_are_read_as_that_languages_notes(made, tmp_path):
    top, _ = made
    copy = tmp_path / "clone"
    shutil.copytree(top, copy)
    for code, note in (("nb", "Ruter konge går alene."), ("da", "Ruder konge fjernes alene.")):
        words = copy / "docs" / code / "examples" / f"deal-{DEAL}.yml"
        text = words.read_text(encoding="utf-8").replace("# notes:", "notes:")
        text = text.replace('#   1: ""', f'  1: "{note}"').replace('# title: ""', 'title: "Nr. 13"')
        words.write_text(text, encoding="utf-8")
    example = load_example(copy / "examples" / f"deal-{DEAL}.yaml", language_codes())
    assert example.problems == [] and example.texts["title"] == {"nb": "Nr. 13", "da": "Nr. 13"}
    assert example.game[0].notes == {"nb": "Ruter konge går alene.", "da": "Ruder konge fjernes alene."}


def test_the_next_steps_name_the_command_that_records_words_written_in_a_target_language(made):
    _, said = made
    source, *others = language_codes()
    assert others and "Next steps" in said and "make verify" in said and "make site" in said
    for code in others:
        assert f"make translations MARK={code} FILES=examples/deal-{DEAL}.yml" in said


def test_words_already_written_are_kept(made, tmp_path):
    top, _ = made
    copy = tmp_path / "clone"
    shutil.copytree(top / "examples", copy / "examples")
    kept = copy / "docs" / "da" / "examples" / f"deal-{DEAL}.yml"
    kept.parent.mkdir(parents=True)
    kept.write_text('title: "Min egen"\n', encoding="utf-8")
    (copy / "examples" / f"deal-{DEAL}.yaml").unlink()
    r = make_example(copy / "examples", str(DEAL))
    assert r.returncode == 0, r.stderr
    assert kept.read_text(encoding="utf-8") == 'title: "Min egen"\n' and f"Kept {kept}" in r.stdout


def test_force_never_writes_through_a_committed_link(tmp_path):
    folder = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", folder)
    before = (folder / "winnable.yaml").read_bytes()
    (folder / "x.yaml").symlink_to("winnable.yaml")
    r = make_example(folder, "4242", "--id", "x", "--force")
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: {folder / 'x.yaml'} is a link; FORCE=1 replaces only a file make example wrote")
    assert (folder / "winnable.yaml").read_bytes() == before and (folder / "x.yaml").is_symlink()
    assert not (tmp_path / "docs").exists()  # nothing else written either


def test_force_replaces_only_a_file_make_example_wrote_and_nobody_changed(made, tmp_path):
    top, _ = made
    copy = tmp_path / "clone"
    shutil.copytree(top, copy)
    mine = copy / "examples" / f"deal-{DEAL}.yaml"
    assert make_example(copy / "examples", str(DEAL)).returncode == 2  # without FORCE: refused
    r = make_example(copy / "examples", str(DEAL), "--force")
    assert r.returncode == 0, r.stderr
    mine.write_text(mine.read_text(encoding="utf-8") + "draft: true\n", encoding="utf-8")  # edited by hand
    r = make_example(copy / "examples", str(DEAL), "--force")
    assert r.returncode == 2 and "was not written by make example, or was edited since" in r.stderr
    assert mine.read_text(encoding="utf-8").endswith("draft: true\n")
    r = make_example(copy / "examples", "27", "--id", "winnable", "--force")  # a file it never wrote
    assert r.returncode == 2 and "was not written by make example" in r.stderr


def test_nothing_is_written_through_a_linked_folder_that_leads_outside(tmp_path):
    clone, outside = tmp_path / "clone", tmp_path / "outside"
    shutil.copytree(ROOT / "examples", clone / "examples")
    (clone / "docs" / "da").mkdir(parents=True)
    outside.mkdir()
    (clone / "docs" / "da" / "examples").symlink_to(outside)
    r = make_example(clone / "examples", str(DEAL))
    assert r.returncode == 2 and "leads outside" in r.stderr and "make example writes only inside it" in r.stderr
    assert not any(outside.iterdir()) and not (clone / "examples" / f"deal-{DEAL}.yaml").exists()
