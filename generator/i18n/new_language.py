"""`generator language CODE --from nb`: a new language, docs/<CODE>/, made from another one.

Every file of the source language's folder is copied, the language's code is set where a file
names it (game.json "lang", strings.yml language_name), every text is recorded untranslated in
its translation-status.yml, and the language is added to docs/languages.yml. The glossary is
not copied: it starts with every concept and its meaning, no word chosen (`use: ""`) and nothing
forbidden, since the source's forbidden words may be the new language's right ones (Swedish
«talongen»); `make translations` asks for the words until they are written. Nothing else is
written: a translator's work stays in docs/<CODE>/ (tests/generator/i18n/test_new_language.py holds it to that).
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from babel import Locale, UnknownLocaleError

from generator.i18n import translations
from generator.errors import BuildError
from generator.inputs.languages import LANGUAGE_CODE as CODE, read_yaml, search_languages as known_search_languages
from generator.i18n.segments import language_files
from generator.guard.glossary import FILE_NAME as GLOSSARY, load as load_glossary


class LanguageError(BuildError):
    exit_code = 2


def search_languages() -> set[str]:
    """The stemming languages the site's search knows (generator/inputs/languages.py)."""
    return set(known_search_languages())


def create(docs: Path, code: str, source: str, search: str | None = None) -> list[Path]:
    """Makes docs/<code>/ from docs/<source>/ and adds `code` to docs/languages.yml; returns the
    files written. Raises LanguageError (nothing written) for a bad, known or unsupported code."""
    listing_file = docs / "languages.yml"
    listing = read_yaml(listing_file)
    codes = [entry["code"] for entry in listing["languages"]]
    code = canonical(code)
    if not CODE.fullmatch(code):
        raise LanguageError(f"language code {code!r} is not a BCP 47 code such as 'sv', 'nn' or 'pt-BR'")
    if code in codes:
        raise LanguageError(f"{listing_file}: language '{code}' is already there")
    if (docs / code).exists():
        raise LanguageError(f"{docs / code}: already exists; remove it or choose another code")
    if source not in codes:
        raise LanguageError(f"{listing_file}: FROM language '{source}' is not one of {', '.join(codes)}")
    try:
        locale = Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise LanguageError(f"language code '{code}' is not a language Babel (CLDR) knows, so numbers and dates "
                            "could not be written in it; use an ISO 639 code such as 'sv'") from None
    search = search or (code if code in search_languages() else code.split("-")[0])
    if search not in search_languages():
        raise LanguageError(f"search language '{search}' is not one the site's search (lunr) can stem; "
                            f"give one of {', '.join(sorted(search_languages()))} with SEARCH=… (en: no stemming)")
    name = locale.get_display_name(locale)
    name = name[:1].upper() + name[1:]

    stage = docs / f".{code}.new"
    shutil.rmtree(stage, ignore_errors=True)
    try:
        shutil.copytree(docs / source, stage, ignore=shutil.ignore_patterns(translations.STATUS_FILE, ".*"))
        _set_code(stage, code, name)
        _fresh_glossary(docs / source / GLOSSARY, stage / GLOSSARY, code, name, source)
        stage.rename(docs / code)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    _add_to_listing(listing_file, code, name, search)
    # Every text is the source's copy: recorded, and reported, as untranslated.
    copied = language_files(docs, source)
    translations.save_status(docs, code, codes[0], {
        file_name: [translations.entry(s, untranslated=True) for s in text_file.segments]
        for file_name, text_file in copied.items()})
    return sorted(p for p in (docs / code).rglob("*") if p.is_file()) + [listing_file]


def canonical(code: str) -> str:
    """The code as the site writes it (a folder, an address, <html lang>): BCP 47 is not case
    sensitive, so `pt-BR` and `pt-br` are one language, written in lowercase."""
    return (code or "").strip().lower()


def _fresh_glossary(source_file: Path, out: Path, code: str, name: str, source: str) -> None:
    """The new language's glossary: each concept of the source's with its meaning and the
    source's word as a comment, `use: ""` and nothing forbidden; the source's note_words as
    they are (the words a note is read by: to translate, see docs/TRANSLATING.md)."""
    glossary = load_glossary(source_file)
    text = source_file.read_text(encoding="utf-8")
    meanings = {name_: (entry or {}).get("meaning", "") for name_, entry in
                (read_yaml(source_file).get("concepts") or {}).items()}
    lines = [f"# Glossary for {name} ({code}): one word per concept, and the words that must not be used for it.",
             "#",
             f"# Made by `make language` from docs/{source}/{GLOSSARY}: every concept with its meaning and",
             f"# the {source} word as a comment. Write the {code} word for each one in `use:` (in a PO",
             f"# editor: the entries glossary.yml:concepts.<name>.use), and under `forbidden:` the {code}",
             "# words a writer might wrongly use for it. Until every `use:` is written, `make verify`",
             "# warns and `make publish` refuses (docs/TRANSLATING.md, «Glossary»).",
             "#",
             "# - forbidden: matched as whole words, case-insensitively, also across a line break; list",
             "#              each inflection on its own. `{}` stands for any value.",
             "# - allow:     phrases in which a forbidden word is right (it is skipped inside them).",
             "",
             "concepts:"]
    for concept, use in glossary.concepts.items():
        lines += [f"  {concept}:",
                  f"    meaning: {json.dumps(meanings.get(concept) or concept, ensure_ascii=False)}",
                  f"    use: \"\"  # {source}: {use}",
                  "    forbidden: []"]
    # note_words and the comment block just above it, as the source has them.
    source_lines = text.splitlines()
    start = next((i for i, line in enumerate(source_lines) if line.startswith("note_words:")), None)
    if start is not None:
        while start > 0 and source_lines[start - 1].startswith("#"):
            start -= 1
        lines += ["", f"# The words example notes are read by, still {source}'s: write each list in {code}."]
        lines += source_lines[start:]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _set_code(folder: Path, code: str, name: str) -> None:
    game = folder / "game.json"
    if game.exists():
        # In place, so that the file stays as its translator will see it (order, layout).
        text, n = re.subn(r'("lang"\s*:\s*)"[^"]*"', lambda m: f'{m.group(1)}"{code}"',
                          game.read_text(encoding="utf-8"), count=1)
        if n != 1:
            raise LanguageError(f"{game}: no \"lang\" entry to set to \"{code}\"")
        game.write_text(text, encoding="utf-8")
    strings = folder / "strings.yml"
    if strings.exists():
        text = strings.read_text(encoding="utf-8")
        text = re.sub(r"(?m)^language_name: .*$", f"language_name: {json.dumps(name, ensure_ascii=False)}", text)
        strings.write_text(text, encoding="utf-8")


def _add_to_listing(path: Path, code: str, name: str, search: str) -> None:
    """One line after the last language entry; the file's comments and order stay as they are."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    last = max((i for i, line in enumerate(lines) if re.match(r"\s+- \{?\s*code:", line)), default=None)
    if last is None:
        raise LanguageError(f"{path}: no '  - {{code: …}}' entry line to add '{code}' after; add it by hand")
    indent = re.match(r"\s*", lines[last]).group(0)
    lines.insert(last + 1, f"{indent}- {{code: {code}, name: {json.dumps(name, ensure_ascii=False)}, "
                           f"search: {json.dumps(search)}}}\n")
    tmp = path.with_suffix(".yml.tmp")
    tmp.write_text("".join(lines), encoding="utf-8")
    tmp.replace(path)
