"""A language's segments as a gettext PO file and back (polib), for Poedit, Weblate or OmegaT.

Export: one entry per source segment; msgctxt "FILE:segment id" (as `make translations` names
it), msgid the source's text now, msgstr the translation (empty while missing, or untranslated
and still the source's copy); a stale one is fuzzy, its previous msgid the source it was
translated from. So that a PO editor alone is enough, the glossary's words are entries too
(glossary.yml:concepts.<name>.use), each entry's extracted comment names the glossary's terms
its source uses (the language's word, the words not to use), and the file's header holds the
whole glossary and the language's style guide (docs/<lang>/STYLE.md).

Import: every msgid must still be the source's text (else the export is out of date: refused,
nothing written). A msgstr that differs from the file is written into docs/<lang>/ in place
(a page's paragraph, a YAML or JSON string); every filled, non-fuzzy entry is then recorded as
translated. Importing an unchanged export changes nothing. The import is strict: a missing,
oversized or plural-form file, a msgctxt given twice, a target that is a link or outside
docs/<lang>/, or a result the build's lint refuses writes nothing (at most MAX_SHOWN lines).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import polib
import yaml

from generator.errors import BuildError
from generator.i18n import translations
from generator.inputs.languages import read_yaml
from generator.inputs.source_files import refuse_special, refuse_special_folder
from generator.i18n.segments import Segment, TextFile, language_files


class POError(translations.StatusError):
    pass


MAX_PO_BYTES = 5_000_000  # the whole site's text is about 0.3 MB of PO
MAX_SHOWN = 20            # problems listed before the count of the rest


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
    terms = glossary_terms(docs, source, lang)
    po = polib.POFile(wrapwidth=0)
    po.header = header_note(docs, source, lang, terms)
    po.metadata = {"Project-Id-Version": "Pyramide", "Language": lang, "MIME-Version": "1.0",
                   "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
                   "X-Source-Language": source}
    for name, src in src_files.items():
        for s, mine in _pairs(src, own_files.get(name)):
            found = status.get((name, s.id))
            state = found.state if found else "missing"
            entry = polib.POEntry(msgctxt=f"{name}:{s.id}", msgid=s.text, msgstr=_msgstr(state, s, mine),
                                  occurrences=[(f"docs/{lang}/{name}", "")],
                                  comment=_terms_comment(name, s, terms, source, lang))
            if state == "stale":
                entry.flags.append("fuzzy")
                entry.previous_msgid = found.old
            po.append(entry)
    out.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(out))
    return len(po)


def _msgstr(state: str, s: Segment, mine: Segment | None) -> str:
    """The translation as the file holds it; empty when there is none, or when an untranslated
    text is still the source's copy (text written but not recorded goes out, to be recorded)."""
    if mine is None or state == "missing" or (state == "untranslated" and mine.text == s.text):
        return ""
    return mine.text


@dataclass(frozen=True)
class Term:
    concept: str
    meaning: str
    source_word: str     # the source language's `use`
    word: str            # this language's `use` ("" while not chosen)
    forbidden: tuple[str, ...]
    pattern: re.Pattern  # the source word's phrases, any ending, in a source text


def glossary_terms(docs: Path, source: str, lang: str) -> list[Term]:
    """Each concept of the source's glossary with this language's word and forbidden words."""
    def concepts(code):
        path = docs / code / "glossary.yml"
        data = read_yaml(path) if path.is_file() else {}
        return (data or {}).get("concepts") or {}
    theirs, mine = concepts(source), concepts(lang)
    terms = []
    for name, entry in theirs.items():
        own = mine.get(name) or {}
        phrases = [p.strip() for p in str(entry.get("use", "")).split("/") if len(p.strip()) >= 3]
        if not phrases:
            continue
        # Any ending; a long word inside a compound too («eksempelutdelingene»), a short one only
        # as a word's start («rad», not «paradis»).
        pattern = re.compile("|".join((r"(?<!\w)" if len(p) < 6 else "") + r"\s+".join(map(re.escape, p.split()))
                                      + r"\w*" for p in phrases), re.IGNORECASE)
        terms.append(Term(name, str(entry.get("meaning", "")), str(entry.get("use", "")), str(own.get("use") or ""),
                          tuple(str(w) for w in own.get("forbidden") or ()), pattern))
    return terms


def _term_line(term: Term, source: str, lang: str) -> str:
    word = f"«{term.word}»" if term.word else f"not chosen yet (entry glossary.yml:concepts.{term.concept}.use)"
    avoid = f"; not: {', '.join(term.forbidden)}" if term.forbidden else ""
    return f"glossary {term.concept}: {source} «{term.source_word}» → {lang} {word}{avoid}"


def _terms_comment(name: str, s: Segment, terms: list[Term], source: str, lang: str) -> str:
    """The extracted comment of one entry: the glossary's terms its source text uses, or, for a
    glossary entry, what the concept means."""
    if name == "glossary.yml":
        concept = s.id.split(".")[1]
        term = next((t for t in terms if t.concept == concept), None)
        meaning = f": {term.meaning}" if term and term.meaning else ""
        return f"the {lang} word for the concept '{concept}'{meaning}"
    return "\n".join(_term_line(t, source, lang) for t in terms if t.pattern.search(s.text))


def header_note(docs: Path, source: str, lang: str, terms: list[Term]) -> str:
    """The PO file's opening comment: how to translate here, the glossary, the style guide."""
    lines = [f"Pyramide: the site's text in {lang}, translated from {source}.",
             "Each entry is one paragraph, string or note; msgctxt names its file and place. Keep everything",
             "between {{ }} and {% %} and every {name} as it is; write no digits (numbers come from the data).",
             "A fuzzy entry's source changed since it was translated. The entries glossary.yml:concepts.*.use",
             f"are the {lang} glossary's words: write them first. Then `make po-import CODE={lang} PO=this file`.",
             "", f"GLOSSARY (docs/{lang}/glossary.yml): one word per concept, and the words not to use"]
    lines += [f"- {_term_line(t, source, lang)}" + (f" — {t.meaning}" if t.meaning else "") for t in terms]
    style = docs / lang / "STYLE.md"
    if style.is_file():
        lines += ["", f"STYLE GUIDE (docs/{lang}/STYLE.md):", ""]
        lines += style.read_text(encoding="utf-8").splitlines()
    return "\n".join(lines)


def import_po(docs: Path, lang: str, path: Path) -> list[str]:
    """Writes the PO file's translations into docs/<lang>/ and records them; returns what changed.
    Everything is checked first (the file, each entry, every target file, the build's lint on
    the result); any problem raises POError listing them, and nothing is written."""
    source, others = translations.source_language(docs)
    if lang not in others:
        raise POError(f"docs/languages.yml: '{lang}' is not a translated language")
    po = _read(path)
    if po.metadata.get("Language") not in (None, "", lang):
        raise POError(f"{path}: a PO file for '{po.metadata.get('Language')}', not '{lang}'")
    src_files, own_files = language_files(docs, source), language_files(docs, lang)
    sources = {f"{name}:{s.id}": (name, i, s) for name, f in src_files.items() for i, s in enumerate(f.segments)}
    problems, edits, marks, seen = [], {}, [], {}
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{path}, line {entry.linenum}"
        if entry.msgid_plural:
            problems.append(f"{where}: a plural entry (msgid_plural {_shown(entry.msgid_plural)}); the site's "
                            "texts have no plural forms, each entry is one msgid and one msgstr")
            continue
        if entry.msgctxt in seen:
            problems.append(f"{where}: '{entry.msgctxt}' is given twice (first at line {seen[entry.msgctxt]}); "
                            "keep one of them")
            continue
        seen[entry.msgctxt] = entry.linenum
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
        raise POError(_listed(problems))
    folder = docs / lang
    targets = [folder / name for name in edits] + ([folder / translations.STATUS_FILE] if marks else [])
    for file in targets:  # never through a link, never outside docs/<lang>/
        try:
            refuse_special_folder(folder)
            if os.path.lexists(file):
                refuse_special(file, folder)
        except BuildError as e:
            problems.append(f"{e}; the import writes only regular files of docs/{lang}/")
    if problems:
        raise POError(_listed(problems))
    texts = {folder / name: _edited(folder / name, own_files[name], changes) for name, changes in edits.items()}
    problems = lint_as_built(docs, lang, texts)
    if problems:
        raise POError(_listed([f"{p} (from {path}; nothing was written)" for p in problems]))
    for file, text in texts.items():
        translations.write_inside(folder, file, text)
    done = [f"{lang}: {name}: {len(changes)} text(s) written" for name, changes in edits.items()]
    if marks:
        translations.mark(docs, lang, marks)
        done.append(f"{lang}: {len(marks)} segment(s) recorded as translated")
    return done


def _read(path: Path) -> polib.POFile:
    """The PO file, or POError: missing, too big, or not PO (polib reads a missing file's name
    as PO text, so the name is looked at first)."""
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        raise POError(f"{path}: no such file") from None
    except OSError as e:
        raise POError(f"{path}: cannot be read ({e.strerror})") from None
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise POError(f"{path}: not a regular file")
    if size > MAX_PO_BYTES:
        raise POError(f"{path}: {size:,} bytes, more than the {MAX_PO_BYTES // 1_000_000} MB a PO file of this "
                      "site can be (a full export is about 0.3 MB); is it the right file?")
    try:
        return polib.pofile(str(path), wrapwidth=0)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise POError(f"{path}: not a PO file ({e})") from None


def _listed(problems: list[str]) -> str:
    """At most MAX_SHOWN problems, then how many more: a broken file says what is wrong, not
    400,000 times."""
    shown = problems[:MAX_SHOWN]
    if len(problems) > MAX_SHOWN:
        shown.append(f"… and {len(problems) - MAX_SHOWN} more problem(s) like these")
    return "\n  ".join(shown)


def _shown(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[:width - 1] + "…")


def lint_as_built(docs: Path, lang: str, texts: dict[Path, str]) -> list[str]:
    """The build's lint (generator/site/build.py `lint`: glossary, number guard, text rules,
    completeness) on docs/ as it would be with `texts` written, in a copy; the problems in
    docs/<lang>/, named by their real path. An example's texts are linted here as strings (the
    build reads them from the bundle, which `make verify` writes after the import)."""
    from generator.guard import glossary
    from generator.guard.numbers import string_problems
    from generator.inputs.languages import load_languages
    from generator.site.build import lint

    with tempfile.TemporaryDirectory(prefix="po-import-") as tmp:
        stage = Path(tmp) / "docs"
        shutil.copytree(docs, stage, symlinks=True)
        for file, text in texts.items():
            (stage / file.relative_to(docs)).write_text(text, encoding="utf-8")
        try:
            languages, default = load_languages(stage)
            problems = lint(languages, default, (), stage)
            rules = glossary.load(stage / lang / glossary.FILE_NAME).rules
            for file in texts:
                staged = stage / file.relative_to(docs)
                if file.parent.name == "examples" and file.suffix == ".yml":
                    problems += glossary.yaml_problems(staged, rules)
                    problems += string_problems(staged, read_yaml(staged))
        except BuildError as e:
            problems = [str(e)]
        mine = f"{stage / lang}{os.sep}"
        return [p.replace(str(stage), str(docs)) for p in problems if mine in p]


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
