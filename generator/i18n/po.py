"""A language's segments as a gettext PO file and back (polib), for Poedit, Weblate or OmegaT.

Export: one entry per source segment; msgctxt "FILE:segment id" (as `make translations` names
it), msgid the source's text now, msgstr the translation (empty while untranslated or missing);
a stale one is fuzzy, its previous msgid the source it was translated from.

Import: every msgid must still be the source's text (else the export is out of date: refused,
nothing written). A msgstr that differs from the file is written into docs/<lang>/ in place
(a page's paragraph, a YAML or JSON string); every filled, non-fuzzy entry is then recorded as
translated. Importing an unchanged export changes nothing.
"""
from __future__ import annotations

import json
from pathlib import Path

import polib
import yaml

from generator.i18n import translations
from generator.i18n.segments import Segment, TextFile, language_files


class POError(translations.StatusError):
    pass


def _pairs(src: TextFile, own: TextFile | None) -> list[tuple[Segment, Segment | None]]:
    """Each source segment with the translation's segment for it (a page: by place, when the
    page has the source's shape; a keyed file: by key)."""
    if own is None:
        return [(s, None) for s in src.segments]
    if src.ordered:
        if len(own.segments) != len(src.segments):
            return [(s, None) for s in src.segments]
        return list(zip(src.segments, own.segments))
    by_id = {s.id: s for s in own.segments}
    return [(s, by_id.get(s.id)) for s in src.segments]


def export(docs: Path, lang: str, out: Path) -> int:
    source, others = translations.source_language(docs)
    if lang not in others:
        raise POError(f"docs/languages.yml: '{lang}' is not a translated language (translations: {', '.join(others)})")
    status = {(f.file, f.segment): f for f in translations.compare(docs, lang).findings}
    src_files, own_files = language_files(docs, source), language_files(docs, lang)
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Project-Id-Version": "Pyramide", "Language": lang, "MIME-Version": "1.0",
                   "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
                   "X-Source-Language": source}
    for name, src in src_files.items():
        for s, mine in _pairs(src, own_files.get(name)):
            found = status.get((name, s.id))
            state = found.state if found else "missing"
            entry = polib.POEntry(msgctxt=f"{name}:{s.id}", msgid=s.text,
                                  msgstr=mine.text if mine is not None and state in ("current", "stale") else "",
                                  occurrences=[(f"docs/{lang}/{name}", "")])
            if state == "stale":
                entry.flags.append("fuzzy")
                entry.previous_msgid = found.old
            po.append(entry)
    out.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(out))
    return len(po)


def import_po(docs: Path, lang: str, path: Path) -> list[str]:
    """Writes the PO file's translations into docs/<lang>/ and records them; returns what changed."""
    source, others = translations.source_language(docs)
    if lang not in others:
        raise POError(f"docs/languages.yml: '{lang}' is not a translated language")
    try:
        po = polib.pofile(str(path), wrapwidth=0)
    except (OSError, ValueError) as e:
        raise POError(f"{path}: not a PO file ({e})") from None
    if po.metadata.get("Language") not in (None, "", lang):
        raise POError(f"{path}: a PO file for '{po.metadata.get('Language')}', not '{lang}'")
    src_files, own_files = language_files(docs, source), language_files(docs, lang)
    sources = {f"{name}:{s.id}": (name, i, s) for name, f in src_files.items() for i, s in enumerate(f.segments)}
    problems, edits, marks = [], {}, []
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{path}, line {entry.linenum}"
        if entry.msgctxt not in sources:
            problems.append(f"{where}: '{entry.msgctxt}' is no segment of the source any more; export again")
            continue
        name, index, s = sources[entry.msgctxt]
        if entry.msgid != s.text:
            problems.append(f"{where}: the source of '{entry.msgctxt}' has changed since the export; export again "
                            "(make translations shows the change)")
            continue
        if not entry.msgstr:
            continue
        pairs = _pairs(src_files[name], own_files.get(name))
        mine = pairs[index][1]
        if mine is None:
            problems.append(f"{where}: docs/{lang}/{name} has no place for '{entry.msgctxt}' yet (a page must have "
                            "the source's paragraphs one for one); add it there first")
            continue
        if entry.msgstr != mine.text:
            edits.setdefault(name, []).append((mine, entry.msgstr))
        if "fuzzy" not in entry.flags:
            marks.append(entry.msgctxt)
    if problems:
        raise POError("\n  ".join(problems))
    texts = {}
    for name, changes in edits.items():  # all in memory first: a failure writes nothing
        file = docs / lang / name
        texts[file] = _edited(file, own_files[name], changes)
    for file, text in texts.items():
        file.write_text(text, encoding="utf-8")
    done = [f"{lang}: {name}: {len(changes)} text(s) written" for name, changes in edits.items()]
    if marks:
        translations.mark(docs, lang, marks)
        done.append(f"{lang}: {len(marks)} segment(s) recorded as translated")
    return done


def _edited(file: Path, own: TextFile, changes: list[tuple[Segment, str]]) -> str:
    text = file.read_text(encoding="utf-8")
    new = dict((s.id, value) for s, value in changes)
    if file.suffix == ".md":
        out, cursor = [], 0
        for s in own.segments:  # in order, each where it stands in the file
            at = text.find(s.text, cursor)
            if at < 0:
                raise POError(f"{file}: cannot find the text of '{s.id}' to replace; edit it by hand")
            out.append(text[cursor:at] + new.get(s.id, s.text))
            cursor = at + len(s.text)
        return "".join(out) + text[cursor:]
    if file.suffix == ".json":
        data = json.loads(text)
        for key, value in new.items():
            _set(data, key, value, file)
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    nodes = _yaml_scalars(yaml.compose(text))
    spans = sorted(((nodes[key].start_mark.index, nodes[key].end_mark.index, value)
                    for key, value in new.items()), reverse=True)
    for start, end, value in spans:  # from the end, so the earlier places stay where they are
        text = text[:start] + json.dumps(value, ensure_ascii=False) + text[end:]
    return text


def _set(data, key: str, value: str, file: Path, prefix: str = "") -> None:
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for k, v in items:
        name = f"{prefix}{k}"
        if name == key and isinstance(v, str):
            data[k] = value
            return
        if isinstance(v, (dict, list)) and key.startswith(name + "."):
            return _set(v, key, value, file, name + ".")
    raise POError(f"{file}: no string '{key}'")


def _yaml_scalars(node, prefix: str = "") -> dict:
    """Every string node of a YAML tree by the id segments.keyed_segments gives it."""
    out = {}
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            out.update(_yaml_scalars(v, f"{prefix}{k.value}.") if not isinstance(v, yaml.ScalarNode)
                       else {f"{prefix}{k.value}": v})
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out.update(_yaml_scalars(v, f"{prefix}{i}.") if not isinstance(v, yaml.ScalarNode)
                       else {f"{prefix}{i}": v})
    return out
