"""A language's segments as a gettext PO file and back (generator/i18n/po.py, polib): the round trip
loses nothing, a translation comes back into its own file and is recorded, a stale segment goes
out fuzzy, and a file whose source no longer matches is refused with nothing written."""
from pathlib import Path

import polib
import pytest

import strict_yaml
from generator import cli
from helpers.po_docs import copy_docs, po_cli, snapshot
from generator.i18n import translations

ROOT = Path(__file__).resolve().parents[3]
LANGUAGES = [entry["code"] for entry in strict_yaml.load(ROOT / "docs" / "languages.yml")["languages"]]
SOURCE, LANG = LANGUAGES[0], LANGUAGES[1]


@pytest.fixture
def docs(tmp_path):
    return copy_docs(tmp_path)


def test_the_round_trip_loses_nothing(docs, tmp_path):
    before = snapshot(docs)
    assert po_cli(docs, "export", LANG, str(tmp_path / "x.po")) == 0
    po = polib.pofile(str(tmp_path / "x.po"))
    assert len(po) == sum(len(f.findings) for f in [translations.compare(docs, LANG)])
    assert all(entry.msgstr for entry in po)  # every text of a current language goes out
    assert po_cli(docs, "import", LANG, str(tmp_path / "x.po")) == 0
    assert snapshot(docs) == before


def test_translations_come_back_into_their_files_and_are_recorded(docs, tmp_path):
    out = tmp_path / "x.po"
    # The source changes in three kinds of file: they are stale, and go out fuzzy.
    page = docs / SOURCE / "pages" / "index.md"
    status = translations.compare(docs, LANG)
    paragraph = next(f for f in status.findings if f.file == "pages/index.md" and "¶" in f.segment)
    page.write_text(page.read_text(encoding="utf-8").replace(paragraph.new, paragraph.new + " Mer."), encoding="utf-8")
    strings = docs / SOURCE / "strings.yml"
    strings.write_text(strings.read_text(encoding="utf-8").replace("status: {won: vunnet,", "status: {won: vunnet!,"),
                       encoding="utf-8")
    note = docs / SOURCE / "examples" / "winnable.yml"
    note.write_text(note.read_text(encoding="utf-8").replace("med en gang.", "straks."), encoding="utf-8")
    assert po_cli(docs, "export", LANG, str(out)) == 0
    po = polib.pofile(str(out))
    fuzzy = {e.msgctxt: e for e in po if "fuzzy" in e.flags}
    assert set(fuzzy) == {f"pages/index.md:{paragraph.segment}", "strings.yml:status.won", "examples/winnable.yml:notes.1"}
    assert fuzzy["strings.yml:status.won"].previous_msgid == "vunnet"
    # The translator's new texts, no longer fuzzy.
    new = {f"pages/index.md:{paragraph.segment}": "Et helt nyt afsnit.", "strings.yml:status.won": "vundet!",
           "examples/winnable.yml:notes.1": "Ruder konge fjernes straks."}
    for ctx, text in new.items():
        fuzzy[ctx].msgstr = text
        fuzzy[ctx].flags.remove("fuzzy")
    po.save(str(out))
    assert po_cli(docs, "import", LANG, str(out)) == 0
    assert "Et helt nyt afsnit." in (docs / LANG / "pages" / "index.md").read_text(encoding="utf-8")
    assert strict_yaml.load(docs / LANG / "strings.yml")["status"]["won"] == "vundet!"
    assert strict_yaml.load(docs / LANG / "examples" / "winnable.yml")["notes"][1] == "Ruder konge fjernes straks."
    assert "# What examples/winnable.yaml" in (docs / LANG / "examples" / "winnable.yml").read_text(encoding="utf-8")
    assert translations.compare(docs, LANG).problems == []


def test_a_file_whose_source_changed_since_the_export_is_refused_and_nothing_written(docs, tmp_path, capsys):
    out = tmp_path / "x.po"
    assert po_cli(docs, "export", LANG, str(out)) == 0
    po = polib.pofile(str(out))
    entry = next(e for e in po if e.msgctxt == "strings.yml:status.won")
    entry.msgstr = "vundet!"
    po.save(str(out))
    strings = docs / SOURCE / "strings.yml"
    strings.write_text(strings.read_text(encoding="utf-8").replace("status: {won: vunnet,", "status: {won: vant,"),
                       encoding="utf-8")
    before = snapshot(docs)
    assert po_cli(docs, "import", LANG, str(out)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out}, line ") and "the source of 'strings.yml:status.won' has changed" in err
    assert snapshot(docs) == before


def test_a_po_file_for_another_language_is_refused(docs, tmp_path, capsys):
    out = tmp_path / "x.po"
    assert po_cli(docs, "export", LANG, str(out)) == 0
    text = out.read_text(encoding="utf-8").replace(f'"Language: {LANG}\\n"', '"Language: fi\\n"')
    out.write_text(text, encoding="utf-8")
    assert po_cli(docs, "import", LANG, str(out)) == 2
    assert "a PO file for 'fi'" in capsys.readouterr().err


def test_the_glossary_and_the_style_guide_travel_in_the_export(docs, tmp_path):
    """A translator with only a PO editor sees the glossary's terms on each entry that uses them,
    writes the language's own words as entries, and reads the whole glossary and STYLE.md in
    the file's header."""
    out = tmp_path / "x.po"
    assert po_cli(docs, "export", LANG, str(out)) == 0
    po = polib.pofile(str(out), wrapwidth=0)
    glossary = strict_yaml.load(docs / LANG / "glossary.yml")["concepts"]
    style = (docs / LANG / "STYLE.md").read_text(encoding="utf-8").splitlines()
    assert f"GLOSSARY (docs/{LANG}/glossary.yml)" in po.header and style[0] in po.header and style[-1] in po.header
    deal = glossary["deal"]
    assert f"deal: {SOURCE} «utdeling» → {LANG} «{deal['use']}»; not: {', '.join(deal['forbidden'])}" in po.header
    uses_deal = [e for e in po if e.msgctxt.startswith("pages/") and "utdeling" in e.msgid.lower()]
    assert uses_deal and all(f"glossary deal: {SOURCE} «utdeling» → {LANG} «{deal['use']}»" in e.comment
                             for e in uses_deal)
    assert not any("glossary deal:" in e.comment for e in po if "utdeling" not in e.msgid.lower())
    word = next(e for e in po if e.msgctxt == "glossary.yml:concepts.deal.use")
    assert word.msgid == "utdeling" and word.msgstr == deal["use"]
    assert f"the {LANG} word for the concept 'deal'" in word.comment


def test_a_new_language_chooses_its_glossary_words_in_the_po_file(docs, tmp_path):
    assert cli.main(["language", "sv", "--docs", str(docs)]) == 0
    out = tmp_path / "sv.po"
    assert po_cli(docs, "export", "sv", str(out)) == 0
    po = polib.pofile(str(out), wrapwidth=0)
    assert "deal: nb «utdeling» → sv not chosen yet (entry glossary.yml:concepts.deal.use)" in po.header
    word = next(e for e in po if e.msgctxt == "glossary.yml:concepts.deal.use")
    assert word.msgstr == ""
    word.msgstr = "giv"
    po.save(str(out))
    assert po_cli(docs, "import", "sv", str(out)) == 0
    assert strict_yaml.load(docs / "sv" / "glossary.yml")["concepts"]["deal"]["use"] == "giv"
    assert "# Glossary for Svenska (sv)" in (docs / "sv" / "glossary.yml").read_text(encoding="utf-8")
