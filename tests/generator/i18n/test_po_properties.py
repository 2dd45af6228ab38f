"""The PO import's promise for any PO file a translator (or an attacker) hands it
(generator/i18n/po.py import_po, through the `po import` command):

- it ends with exit 0, or with one `error:` line (the problems under it, indented, at most
  MAX_SHOWN and a count), never a traceback;
- it writes nothing outside docs/<lang>/ and never through a symbolic link (the tree around it,
  links and their targets, is byte for byte as before);
- refused, it writes nothing at all; accepted, every entry it recorded as translated is what the
  file now holds, and the build's lint finds nothing in docs/<lang>/ (it never records a msgstr
  the build would refuse);
- stopped part-way (the file system failing at any write), every file is whole: as before or as
  a full import leaves it, never half-written.

The PO files are an export of the real docs/ with any of: msgstr edits from plain to hostile
(numbers in any script, fractions, entities, `{{ }}`, `{% %}`, HTML and scripts, invisible
characters, paragraph breaks, very long text), plural entries, a msgctxt twice, a msgctxt or
msgid not of the source, fuzzy flags, a header for another language or none, and the file cut
short, broken or not UTF-8; the docs/<lang>/ it imports into may hold a link to the source
language or to a file or folder outside.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import polib
import pytest
from hypothesis import event, given, strategies as st

from generator.i18n import po as po_module
from generator.i18n import translations
from generator.i18n.segments import language_files
from helpers.languages import LANGUAGES, SOURCE
from helpers.po_docs import copy_docs, po_cli
from helpers.properties import property_settings

LANG = LANGUAGES[1]

# What a msgstr may hold besides plain words: each a way a translation could print a number, run
# code or break its file.
HOSTILE = ["28", "٣", "३", "௫", "½", "⅞", "²", "①", "Ⅻ", "𝟗", "&half;", "&frac12;", "&#50;", "&#x32;",
           "{{ rules.deck_size }}", "{{ rules.deck_size + 1 }}", "{% if true %}x{% endif %}", "{{", "}}",
           "{value}", "{n}", "{0}", "%s", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
           '" onmouseover="alert(1)', "javascript:alert(1)", "![x](y.png)", '{: style="color:red" }',
           "<b>", "&amp;", "\u200b", "\u202e", "\u00ad", "\n\n", "\n\n# Overskrift\n\n", "| a | b |",
           "tjueåtte", "MMXXVI", "1e3", "0x1F", "\\", '"', "'", ":", "- ", "#", "\x00", "\r"]
PLAIN = ["Træk et kort.", "Og så videre.", "kort", "", " ", "Et helt nyt afsnit med flere ord i."]
TEXT = st.one_of(
    st.lists(st.sampled_from(HOSTILE + PLAIN), min_size=1, max_size=4).map(" ".join),
    st.text(max_size=30),
    st.sampled_from(PLAIN).map(lambda s: s + " ord" * 20_000),  # very long
)
# A PO file's text cut or broken as a hand edit or a bad copy leaves it.
BREAKS = ['msgstr "no end', 'msgid_plural "x"', 'msgctxt "a"\nmsgctxt "b"', '#~ msgid "old"', "\x00",
          "garbage", 'msgstr[0] "x"', '"continued"']
LINKED = ["pages/index.md", "strings.yml", "game.json", translations.STATUS_FILE, "pages", "examples/winnable.yml",
          "examples"]


class Entries(list):
    def __repr__(self):  # a failing example names its recipe, not 747 entries
        return f"<{len(self)} exported entries>"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[polib.POEntry]:
    """One export of the real docs/ (each example edits a copy of its entries)."""
    tmp = tmp_path_factory.mktemp("export")
    docs = copy_docs(tmp)
    assert po_cli(docs, "export", LANG, str(tmp / "x.po")) == 0
    return Entries(polib.pofile(str(tmp / "x.po"), wrapwidth=0))


@st.composite
def po_files(draw, entries: list[polib.POEntry]) -> dict:
    """A PO file's recipe: its entries after edits, its header, how it is broken."""
    examples = [i for i, e in enumerate(entries) if e.msgctxt.startswith("examples/")]
    chosen = st.one_of(st.integers(0, len(entries) - 1), st.sampled_from(examples))  # examples: few, and linkable
    edits = draw(st.lists(st.tuples(chosen, st.sampled_from(["keep", "reword"])), max_size=6))
    edits += draw(st.lists(st.tuples(chosen, TEXT), max_size=1))  # one hostile text at most
    link = draw(st.one_of(st.none(), st.tuples(st.sampled_from(LINKED), st.sampled_from(["source", "outside"]))))
    if draw(st.booleans()):  # half the files are otherwise sound, so that some are written
        return {"edits": edits, "extras": [], "header": "kept", "broken": None, "link": link}
    extras = draw(st.lists(st.tuples(st.sampled_from(["plural", "twice", "unknown", "msgid", "fuzzy"]), chosen),
                           max_size=2))
    header = draw(st.sampled_from(["kept", "none", "other language", "latin-1"]))
    broken = draw(st.one_of(st.none(), st.tuples(st.sampled_from(["cut", "line", "bytes", "empty"]),
                                                 st.floats(0, 1), st.sampled_from(BREAKS))))
    return {"edits": edits, "extras": extras, "header": header, "broken": broken, "link": link}


def reworded(text: str) -> str:
    """A translation the build accepts, changed: «Altså: » before a sentence (not a heading, a
    list, a template or a paragraph a rule mark ends, which take no words after them)."""
    if text[:1].isupper() and "{" not in text and "\n" not in text:
        return f"Altså: {text[0].lower()}{text[1:]}"
    return text


def write_po(entries: list[polib.POEntry], recipe: dict, out: Path) -> None:
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Language": LANG, "Content-Type": "text/plain; charset=UTF-8"}
    if recipe["header"] == "none":
        po.metadata = {}
    elif recipe["header"] == "other language":
        po.metadata["Language"] = "sv"
    elif recipe["header"] == "latin-1":
        po.metadata["Content-Type"] = "text/plain; charset=latin-1"
    copies = [polib.POEntry(msgctxt=e.msgctxt, msgid=e.msgid, msgstr=e.msgstr, flags=list(e.flags)) for e in entries]
    for index, text in recipe["edits"]:
        entry = copies[index]
        entry.msgstr = {"keep": entry.msgstr, "reword": reworded(entry.msgstr)}.get(text, text)
    for kind, index in recipe["extras"]:
        entry = copies[index]
        if kind == "plural":
            copies.append(polib.POEntry(msgctxt=entry.msgctxt + "#", msgid=entry.msgid, msgid_plural=entry.msgid,
                                        msgstr_plural={0: entry.msgstr, 1: entry.msgstr}))
        elif kind == "twice":
            copies.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr="Et andet afsnit."))
        elif kind == "unknown":
            copies.append(polib.POEntry(msgctxt=entry.msgctxt + ".x", msgid="x", msgstr="y"))
        elif kind == "msgid":
            entry.msgid += " (ændret)"
        else:
            entry.flags.append("fuzzy")
    po.extend(copies)
    try:
        data = po.__unicode__().encode("latin-1" if recipe["header"] == "latin-1" else "utf-8")
    except UnicodeEncodeError:
        data = po.__unicode__().encode("utf-8")
    if recipe["broken"]:
        how, where, line = recipe["broken"]
        at = int(where * len(data))
        at = data.rfind(b"\n", 0, at) + 1  # a line's start
        data = {"cut": data[:at], "line": data[:at] + line.encode() + b"\n" + data[at:],
                "bytes": data[:at] + b"\xff\xfe\xc3" + data[at:], "empty": b""}[how]
    out.write_bytes(data)


def plant_link(work: Path, docs: Path, link: tuple[str, str] | None) -> None:
    """A file or folder of docs/<lang>/ replaced by a link: to the source language's, or to a copy outside."""
    if link is None:
        return
    name, to = link
    place = docs / LANG / name
    target = docs / SOURCE / name if to == "source" else work / "outside" / name
    if to == "outside":
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if place.is_dir() else shutil.copy2)(place, target)
    if not target.exists():  # the source has no translation status of its own
        return
    (shutil.rmtree if place.is_dir() and not place.is_symlink() else os.unlink)(place)
    os.symlink(target, place)


def tree(folder: Path, skip: Path | None = None) -> dict:
    """Every file and link under `folder` (not followed; `skip` left out): bytes, or where a link points."""
    out = {}
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(top) / name
            if skip is not None and (path == skip or skip in path.parents):
                continue
            if path.is_symlink():
                out[str(path)] = ("link", os.readlink(path))
            elif path.is_file():
                out[str(path)] = path.read_bytes()
    return out


def import_once(work: Path, docs: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = po_cli(docs, "import", LANG, str(work / "x.po"))
    return code, capsys.readouterr().err


def assert_one_error_line(code: int, err: str) -> None:
    assert "Traceback" not in err
    if code == 0:
        return
    lines = err.rstrip("\n").split("\n")
    assert err.startswith("error: ") and sum(line.startswith("error:") for line in lines) == 1, err[:2000]
    assert len(lines) <= po_module.MAX_SHOWN + 2, len(lines)


def recorded_as_in_the_file(docs: Path, entries: list[polib.POEntry]) -> None:
    """Each entry the import recorded is current, and docs/<lang>/ holds its msgstr there."""
    current = {f"{f.file}:{f.segment}" for f in translations.compare(docs, LANG).findings if f.state == "current"}
    src, own = language_files(docs, SOURCE), language_files(docs, LANG)
    for entry in entries:
        if not entry.msgstr or "fuzzy" in entry.flags or entry.msgid_plural:
            continue
        assert entry.msgctxt in current, entry.msgctxt
        name, _, segment = entry.msgctxt.partition(":")
        index = [s.id for s in src[name].segments].index(segment)
        mine = own[name].segments[index] if src[name].ordered else \
            next(s for s in own[name].segments if s.id == segment)
        assert mine.text == entry.msgstr.strip(), entry.msgctxt


@property_settings(30, shrink=False)
@given(data=st.data())
def test_any_po_file_writes_only_what_the_build_accepts_inside_the_language(exported, data, capsys):
    recipe = data.draw(po_files(exported))
    with tempfile.TemporaryDirectory(prefix="po-fuzz-") as tmp:
        work = Path(tmp)
        docs = copy_docs(work)
        plant_link(work, docs, recipe["link"])
        write_po(exported, recipe, work / "x.po")
        around, own = tree(work, skip=docs / LANG), tree(docs / LANG)
        code, err = import_once(work, docs, capsys)
        assert code in (0, 2), err
        assert_one_error_line(code, err)
        assert tree(work, skip=docs / LANG) == around  # nothing outside docs/<lang>/, links and targets included
        after = tree(docs / LANG)
        assert {k: v for k, v in after.items() if v[0] == "link"} == {k: v for k, v in own.items() if v[0] == "link"}
        event("refused" if code else "written" if after != own else "nothing to change")
        if code != 0:
            assert after == own  # refused: nothing written
        elif after != own:
            assert po_module.lint_as_built(docs, LANG, {}) == []  # the build's lint on what is now written
            recorded_as_in_the_file(docs, polib.pofile(str(work / "x.po"), wrapwidth=0))


@property_settings(8, shrink=False)
@given(edits=st.lists(st.integers(0, 10_000), min_size=1, max_size=6), failing=st.integers(0, 6))
def test_a_failing_file_system_leaves_every_file_whole(exported, edits, failing, capsys, monkeypatch):
    """os.replace (each file's last step) fails at its `failing`-th call: the import says so in one
    error line, and each file of docs/<lang>/ is as before or as the full import writes it."""
    eligible = [i for i, e in enumerate(exported) if reworded(e.msgstr) != e.msgstr]
    recipe = {"edits": [(eligible[i % len(eligible)], "reword") for i in edits], "extras": [], "header": "kept",
              "broken": None, "link": None}
    with tempfile.TemporaryDirectory(prefix="po-fault-") as tmp:
        work = Path(tmp)
        full = copy_docs(work / "full")
        write_po(exported, recipe, work / "full" / "x.po")
        assert import_once(work / "full", full, capsys)[0] == 0
        docs = copy_docs(work)
        write_po(exported, recipe, work / "x.po")
        before, done = tree(docs / LANG), {Path(k).relative_to(full): v for k, v in tree(full / LANG).items()}
        real_replace, calls = os.replace, []

        def replace(src, dst):
            calls.append(dst)
            if len(calls) > failing:
                raise OSError(28, "No space left on device", str(dst))
            return real_replace(src, dst)

        monkeypatch.setattr(os, "replace", replace)
        code, err = import_once(work, docs, capsys)
        monkeypatch.undo()
        assert_one_error_line(code, err)
        for path, now in tree(docs / LANG).items():
            assert now in (before.get(path), done.get(Path(path).relative_to(docs))), path
        if code == 0:
            assert len(calls) <= failing
