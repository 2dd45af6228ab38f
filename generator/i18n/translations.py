"""Translation status, segment by segment: what each text of a language was translated from.

docs/<lang>/translation-status.yml records, per file and segment (segments.py), the source
language's text the translation was made from and its fingerprint. Comparing that with the
source language's text now gives each segment's state:

- current       the source is what the translation was made from;
- stale         the source changed since (the old and the new source text are shown);
- missing       the source has a segment the translation lacks (a new paragraph, key, note);
- untranslated  no translation of it is recorded yet (`make language` records every text so;
                marking it or a PO import records it), or the translation's text is empty:
                whatever the file holds, it counts as not translated until then;
- obsolete      the translation still has a segment whose source was removed;
- reshaped      a page of the translation has more or fewer segments than were recorded: a
                paragraph was added or removed there alone (one finding for the page).

A page's segments are matched by aligning the recorded source texts with today's (difflib),
so inserting a paragraph reports that paragraph missing and leaves its neighbours current.
The status file is written only by `mark` (never by hand): `python -m generator translations
--mark da pages/index.md[:segment id]`.
"""
from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import strict_yaml
import yaml

from generator.errors import BuildError
from generator.inputs.languages import read_yaml
from generator.inputs.source_files import refuse_special, refuse_special_folder
from generator.i18n.segments import Segment, TextFile, fingerprint, language_files

STATUS_FILE = "translation-status.yml"
STATES = ("current", "stale", "missing", "untranslated", "obsolete", "reshaped")
HEADER = """\
# What each text of docs/{lang}/ was translated from: the source language's ({source}) text at
# the time, per file and segment. Written by `make translations MARK={lang}` (or
# `python -m generator translations --mark {lang} FILE[:segment]`); never edit it by hand.
"""


class StatusError(BuildError):
    exit_code = 2


@dataclass
class Finding:
    file: str
    segment: str          # the source segment's id (for obsolete: the recorded one)
    state: str
    old: str = ""         # stale: the source text the translation was made from
    new: str = ""         # stale, missing, untranslated: the source text now


@dataclass
class Status:
    lang: str
    findings: list[Finding] = field(default_factory=list)

    def count(self, state: str) -> int:
        return sum(f.state == state for f in self.findings)

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.state != "current"]

    def totals(self) -> str:
        parts = [f"{self.count('current')} current", f"{self.count('stale')} stale",
                 f"{self.count('missing')} missing"]
        parts += [f"{self.count(s)} {s}" for s in ("untranslated", "obsolete", "reshaped") if self.count(s)]
        return f"{self.lang}: " + ", ".join(parts)


def source_language(docs: Path) -> tuple[str, list[str]]:
    """(source code, the other codes): the source is the first language of docs/languages.yml."""
    codes = [entry["code"] for entry in read_yaml(docs / "languages.yml")["languages"]]
    return codes[0], codes[1:]


def load_status(docs: Path, lang: str) -> dict[str, list[dict]]:
    """The recorded entries per file ({id, sha, source[, untranslated]}); {} when there is no file."""
    path = docs / lang / STATUS_FILE
    if not path.exists():
        return {}
    try:
        data = strict_yaml.load(path) or {}
    except strict_yaml.YAMLFileError as e:
        raise StatusError(str(e)) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not all(isinstance(v, list) for v in files.values()):
        raise StatusError(f"{path}: must hold 'files:', a list of segments per file; "
                          f"write it again with `make translations MARK={lang}`")
    return files


def save_status(docs: Path, lang: str, source: str, files: dict[str, list[dict]]) -> None:
    path = docs / lang / STATUS_FILE
    body = yaml.safe_dump({"source": source, "files": {k: files[k] for k in sorted(files)}},
                          allow_unicode=True, sort_keys=False, width=100)
    write_inside(docs / lang, path, HEADER.format(lang=lang, source=source) + body)


def write_inside(folder: Path, path: Path, text: str) -> None:
    """Writes `path`, a file of `folder`, all or nothing: a new file beside it (never an existing
    one, so no link is followed) renamed over it; a link or a non-regular file in the way is
    refused (generator/inputs/source_files.py), so nothing outside `folder` is ever written."""
    refuse_special_folder(folder)
    if os.path.lexists(path):
        refuse_special(path, folder)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def entry(segment: Segment, untranslated: bool = False) -> dict:
    out = {"id": segment.id, "sha": segment.fingerprint, "source": segment.text}
    if untranslated:
        out["untranslated"] = True
    return out


def compare(docs: Path, lang: str) -> Status:
    """Every source segment's state in `lang`, file by file."""
    source, _ = source_language(docs)
    src_files = language_files(docs, source)
    own_files = language_files(docs, lang)
    recorded = load_status(docs, lang)
    _refuse_edited(docs, lang, recorded)
    status = Status(lang)
    for name, src in src_files.items():
        own = own_files.get(name)
        if own is None:
            status.findings += [Finding(name, s.id, "missing", new=s.text) for s in src.segments]
            continue
        if src.ordered:
            records = recorded.get(name, [])
            status.findings += _compare_ordered(name, src.segments, records)
            if records and len(own.segments) != len(records):
                status.findings.append(Finding(name, f"the page has {len(own.segments)} segments, "
                                               f"{len(records)} were recorded", "reshaped"))
        else:
            status.findings += _compare_keyed(name, src.segments, own.segments, recorded.get(name, []))
    return status


def _refuse_edited(docs: Path, lang: str, recorded: dict[str, list[dict]]) -> None:
    """Each record's fingerprint is its recorded source text's: a record edited by hand (a new
    fingerprint over the old text, to pass stale text as current) is refused, not believed."""
    edited = [f"{name}:{r.get('id')}" for name, records in recorded.items() for r in records
              if r.get("sha") != fingerprint(str(r.get("source", "")))]
    if edited:
        raise StatusError(f"docs/{lang}/{STATUS_FILE}: the record of {', '.join(edited[:5])}"
                          f"{' …' if len(edited) > 5 else ''} does not match its own source text (edited by "
                          f"hand?); the file is written only by `make translations MARK={lang}`: mark the "
                          "translated files again, or `git checkout` it")


def _compare_ordered(name: str, now: list[Segment], records: list[dict]) -> list[Finding]:
    if not records:
        return [Finding(name, s.id, "untranslated", new=s.text) for s in now]
    out = []
    matcher = difflib.SequenceMatcher(None, [r.get("sha") for r in records], [s.fingerprint for s in now],
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for r, s in zip(records[i1:i2], now[j1:j2]):
                out.append(Finding(name, s.id, "untranslated" if r.get("untranslated") else "current", new=s.text))
            continue
        old, new = records[i1:i2], now[j1:j2]
        paired = min(len(old), len(new)) if op == "replace" else 0
        for r, s in zip(old[:paired], new[:paired]):
            out.append(Finding(name, s.id, "stale", old=str(r.get("source", "")), new=s.text))
        out += [Finding(name, s.id, "missing", new=s.text) for s in new[paired:]]
        out += [Finding(name, str(r.get("id")), "obsolete", old=str(r.get("source", ""))) for r in old[paired:]]
    return out


def _compare_keyed(name: str, now: list[Segment], own: list[Segment], records: list[dict]) -> list[Finding]:
    by_id = {str(r.get("id")): r for r in records}
    present = {s.id: s.text for s in own}
    out = []
    for s in now:
        r = by_id.get(s.id)
        if s.id not in present:
            out.append(Finding(name, s.id, "missing", new=s.text))
        elif r is None or r.get("untranslated") or (s.text and not present[s.id]):
            out.append(Finding(name, s.id, "untranslated", new=s.text))
        elif r.get("sha") != s.fingerprint:
            out.append(Finding(name, s.id, "stale", old=str(r.get("source", "")), new=s.text))
        else:
            out.append(Finding(name, s.id, "current", new=s.text))
    return out


def mark(docs: Path, lang: str, targets: list[str]) -> list[str]:
    """Records the source's current text for `targets` ("FILE" or "FILE:segment id"; none: every
    file) as what `lang`'s translation now renders. Returns what was marked, one line each."""
    source, others = source_language(docs)
    if lang not in others:
        raise StatusError(f"docs/languages.yml: '{lang}' is not a translated language "
                          f"(the source is {source}; translations: {', '.join(others) or 'none'})")
    src_files = language_files(docs, source)
    own_files = language_files(docs, lang)
    recorded = load_status(docs, lang)
    done = []
    for target in targets or list(src_files):
        name, _, segment_id = target.partition(":")
        if name not in src_files:
            raise StatusError(f"{target}: no such translatable file (files: {', '.join(src_files)})")
        src, own = src_files[name], own_files.get(name)
        if own is None:
            raise StatusError(f"docs/{lang}/{name}: missing; make the file before marking it")
        if segment_id:
            recorded[name] = _mark_one(lang, src, own, recorded.get(name, []), segment_id)
            done.append(f"{lang}: {name}: {segment_id}: current")
        else:
            recorded[name] = _mark_file(lang, src, own)
            done.append(f"{lang}: {name}: {len(recorded[name])} segment(s) current")
    save_status(docs, lang, source, recorded)
    return done


def _mark_file(lang: str, src: TextFile, own: TextFile) -> list[dict]:
    if src.ordered:
        if len(own.segments) != len(src.segments):
            first = next((i for i, (a, b) in enumerate(zip(src.segments, own.segments)) if _kind(a) != _kind(b)),
                         min(len(src.segments), len(own.segments)))
            where = src.segments[first].id if first < len(src.segments) else "the end"
            raise StatusError(f"docs/{lang}/{src.name}: {len(own.segments)} segment(s), the source has "
                              f"{len(src.segments)} (they part at «{where}»); give the translation the same "
                              "headings, paragraphs and list items, or mark one segment (FILE:segment)")
    else:
        present = {s.id for s in own.segments}
        lacking = [s.id for s in src.segments if s.id not in present]
        if lacking:
            raise StatusError(f"docs/{lang}/{src.name}: no text yet for {', '.join(lacking[:5])}"
                              f"{' …' if len(lacking) > 5 else ''}; translate it before marking")
    return [entry(s) for s in src.segments]


def _kind(segment: Segment) -> str:
    head = segment.text.lstrip()[:3]
    return "heading" if head.startswith("#") else "item" if head[:2] in ("- ", "* ") else "admonition" \
        if head.startswith("!!!") else "paragraph"


def _mark_one(lang: str, src: TextFile, own: TextFile, records: list[dict], segment_id: str) -> list[dict]:
    index = next((i for i, s in enumerate(src.segments) if s.id == segment_id), None)
    if index is None:
        raise StatusError(f"{src.name}:{segment_id}: no such segment in the source "
                          "(`make translations` names each one)")
    segment = src.segments[index]
    if not src.ordered:
        if segment_id not in {s.id for s in own.segments}:
            raise StatusError(f"docs/{lang}/{src.name}: no text yet for {segment_id}; translate it before marking")
        # In the source's order, as marking the whole file writes them: the status file then
        # reads the same whichever way a segment was marked (a PO round trip changes nothing).
        place = {s.id: i for i, s in enumerate(src.segments)}
        kept = [r for r in records if r.get("id") != segment_id] + [entry(segment)]
        return sorted(kept, key=lambda r: place.get(r.get("id"), len(place)))
    if not records:
        raise StatusError(f"docs/{lang}/{src.name}: nothing recorded yet; mark the whole file first")
    # Where the source segment sits among the recorded ones: its aligned record, or (missing)
    # the place after the record aligned to the segment before it.
    aligned, after = _alignment(records, src.segments), -1
    for j in range(index):
        after = aligned.get(j, after)
    records = list(records)
    if index in aligned:
        records[aligned[index]] = entry(segment)
    else:
        records.insert(after + 1, entry(segment))
    return records


def _alignment(records: list[dict], now: list[Segment]) -> dict[int, int]:
    """Source segment index → the index of the record it is matched with (equal or stale)."""
    matcher = difflib.SequenceMatcher(None, [r.get("sha") for r in records], [s.fingerprint for s in now],
                                      autojunk=False)
    out = {}
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "replace"):
            for k in range(min(i2 - i1, j2 - j1)):
                out[j1 + k] = i1 + k
    return out


def report(statuses: list[Status], details: bool = True) -> list[str]:
    """The report's lines: per language and file the segments not current, then the totals."""
    lines = []
    for status in statuses:
        if details:
            by_file: dict[str, list[Finding]] = {}
            for f in status.problems:
                by_file.setdefault(f.file, []).append(f)
            for name, findings in by_file.items():
                lines.append(f"{status.lang}: docs/{status.lang}/{name}")
                for f in findings:
                    lines.append(f"  {f.state:<12} {f.segment}")
                    if f.state == "stale":
                        lines += _side_by_side(f.old, f.new)
                    elif f.state == "obsolete":
                        lines.append(f"      source removed: {_short(f.old)}")
                    elif f.state == "reshaped":
                        lines.append("      give it the source's headings, paragraphs and list items, then mark it")
                    elif f.state == "missing":
                        lines.append(f"      source: {_short(f.new)}")
    lines += [status.totals() for status in statuses]
    return lines


def _short(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _side_by_side(old: str, new: str) -> list[str]:
    """The old and new source text, word by word: [-removed-] and {+added+}."""
    a, b = old.split(), new.split()
    was, now = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            was += a[i1:i2]
            now += b[j1:j2]
        else:
            if i2 > i1:
                was.append("[-" + " ".join(a[i1:i2]) + "-]")
            if j2 > j1:
                now.append("{+" + " ".join(b[j1:j2]) + "+}")
    return ["      was: " + " ".join(was), "      now: " + " ".join(now)]


def all_statuses(docs: Path, only: str | None = None) -> list[Status]:
    """Every translated language's status; `only`: that language's alone (make translations LANG=xx)."""
    source, others = source_language(docs)
    if only is not None and only not in others:
        raise StatusError(f"docs/languages.yml: '{only}' is not a translated language "
                          f"(the source is {source}; translations: {', '.join(others) or 'none'})")
    return [compare(docs, lang) for lang in others if only in (None, lang)]


def glossary_request(status: Status) -> str | None:
    """What `make verify` says while a language's glossary has concepts without a word."""
    words = [f.segment.split(".")[1] for f in status.findings
             if f.file == "glossary.yml" and f.state in ("untranslated", "missing")]
    if not words:
        return None
    shown = ", ".join(words[:6]) + (" …" if len(words) > 6 else "")
    return (f"docs/{status.lang}/glossary.yml: {len(words)} concept(s) without a {status.lang} word yet ({shown}): "
            f"write each one's `use:` (in a PO editor: the entries glossary.yml:concepts.<name>.use), "
            f"then mark it; until then nothing is forbidden in {status.lang}")
