"""The PO import is strict (generator/i18n/po.py): a missing, oversized, plural-form or doubled
file is refused by name; a translation the build's lint would refuse, or a target that is a
link, writes nothing; a long list of problems is cut to a count; and a translation-status.yml
edited by hand is caught by the checker, not believed."""
import os
import shutil
from pathlib import Path

import polib
import pytest

from generator import cli
from helpers.po_docs import copy_docs, po_cli, snapshot
from generator.i18n import po as po_module
from generator.i18n import translations
from generator.i18n.segments import fingerprint
from helpers.languages import LANGUAGES, SOURCE

ROOT = Path(__file__).resolve().parents[3]
LANG = LANGUAGES[1]


@pytest.fixture
def docs(tmp_path):
    return copy_docs(tmp_path)


def exported(docs, tmp_path) -> tuple[Path, polib.POFile]:
    out = tmp_path / "x.po"
    assert po_cli(docs, "export", LANG, str(out)) == 0
    return out, polib.pofile(str(out), wrapwidth=0)


def paragraph(po: polib.POFile) -> polib.POEntry:
    return next(e for e in po if e.msgctxt.startswith("pages/index.md:") and "¶" in e.msgctxt)


def refused(docs, out, capsys) -> str:
    before = snapshot(docs)
    assert po_cli(docs, "import", LANG, str(out)) == 2
    assert snapshot(docs) == before  # nothing written
    err = capsys.readouterr().err
    assert err.startswith("error: "), err
    return err


def test_a_missing_file_is_named_as_missing(docs, tmp_path, capsys):
    err = refused(docs, tmp_path / "nowhere.po", capsys)
    assert err.strip() == f"error: {tmp_path / 'nowhere.po'}: no such file"


def test_a_plural_entry_is_refused_by_name(docs, tmp_path, capsys):
    """Issue 40: a plural entry was dropped silently. Here a paragraph's own entry comes as a plural one."""
    out, po = exported(docs, tmp_path)
    first = paragraph(po)
    po.remove(first)
    po.append(polib.POEntry(msgctxt=first.msgctxt, msgid=first.msgid, msgid_plural="{n} kort",
                            msgstr_plural={0: "Et nyt afsnit.", 1: "Nye afsnit."}))
    po.save(str(out))
    err = refused(docs, out, capsys)
    assert "a plural entry (msgid_plural '{n} kort')" in err


def test_a_context_given_twice_is_refused_not_last_wins(docs, tmp_path, capsys):
    out, po = exported(docs, tmp_path)
    first = paragraph(po)
    twice = polib.POEntry(msgctxt=first.msgctxt, msgid=first.msgid, msgstr="Et andet afsnit.")
    po.append(twice)
    po.save(str(out))
    err = refused(docs, out, capsys)
    assert f"'{first.msgctxt}' is given twice (first at line " in err


def test_a_huge_file_is_one_error(docs, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(po_module, "MAX_PO_BYTES", 200_000)  # the rule, on a file of a size a test writes
    out, po = exported(docs, tmp_path)
    with open(out, "a", encoding="utf-8") as f:
        f.write('\nmsgctxt "x"\nmsgid "y"\nmsgstr "z"\n' * 20_000)
    err = refused(docs, out, capsys)
    assert len(err.strip().splitlines()) == 1 and "more than the" in err, err


def test_many_problems_are_cut_to_twenty_and_a_count(docs, tmp_path, capsys):
    out, po = exported(docs, tmp_path)
    for i in range(100):
        po.append(polib.POEntry(msgctxt=f"strings.yml:gone{i}", msgid="x", msgstr="y"))
    po.save(str(out))
    lines = refused(docs, out, capsys).strip().splitlines()
    assert len(lines) == po_module.MAX_SHOWN + 1
    assert lines[-1].strip() == f"… and {100 - po_module.MAX_SHOWN} more problem(s) like these"


@pytest.mark.parametrize("text, says", [
    ("Træk et kort fra trekkbunken, og se.", "'trekkbunken' — use 'talon' (glossary: stock)"),
    ("Der er syv rækker og 28 kort.", "a number typed by hand"),
    ("Klik <script>alert(1)</script> her.", "pages/index.md, line"),
])
def test_a_translation_the_build_would_refuse_writes_nothing(docs, tmp_path, capsys, text, says):
    out, po = exported(docs, tmp_path)
    paragraph(po).msgstr = text
    po.save(str(out))
    err = refused(docs, out, capsys)
    assert says in err and f"{docs / LANG / 'pages' / 'index.md'}, line " in err, err


@pytest.mark.parametrize("where", ["source", "outside"])
def test_a_link_in_the_language_folder_is_never_written_through(docs, tmp_path, capsys, where):
    page = docs / LANG / "pages" / "index.md"
    target = docs / SOURCE / "pages" / "index.md" if where == "source" else tmp_path / "outside.md"
    if where == "outside":
        shutil.copy2(page, target)
    out, po = exported(docs, tmp_path)  # exported before the link: the page as its translator left it
    paragraph(po).msgstr = "Et helt nyt afsnit."
    po.save(str(out))
    page.unlink()
    os.symlink(target, page)
    kept = target.read_bytes()
    err = refused(docs, out, capsys)
    assert "a symbolic link" in err and "pages/index.md" in err
    assert target.read_bytes() == kept and os.path.islink(page)


def test_a_status_file_edited_by_hand_is_caught(docs, capsys):
    """A new fingerprint over the old source text: what a hand edit to pass stale text does."""
    page = docs / SOURCE / "pages" / "index.md"
    status = translations.compare(docs, LANG)
    target = next(f for f in status.findings if f.file == "pages/index.md" and "¶" in f.segment)
    page.write_text(page.read_text(encoding="utf-8").replace(target.new, target.new + " Mer."), encoding="utf-8")
    assert translations.compare(docs, LANG).count("stale") == 1
    status_file = docs / LANG / translations.STATUS_FILE
    text = status_file.read_text(encoding="utf-8")
    old = fingerprint(target.new)
    assert text.count(old) == 1
    status_file.write_text(text.replace(old, fingerprint(target.new + " Mer.")), encoding="utf-8")
    assert cli.main(["translations", "--docs", str(docs), "--check"]) == 2
    err = capsys.readouterr().err
    assert f"docs/{LANG}/translation-status.yml: the record of pages/index.md:{target.segment}" in err
    assert "does not match its own source text" in err
