"""What each language brings (docs/<lang>/): page sources, interface strings, game strings.

A language is complete when it has every page and every string the default language has;
the build never lets one language stand in for another.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import strict_yaml

from babel import Locale, UnknownLocaleError

from generator.errors import BuildError
from generator.inputs.source_files import read_json, refuse_special, regular_files
from generator.settings import DOCS
from generator.inputs.plural_forms import counted_problems, is_counted
from generator.inputs.theme_words import load_theme_words

# BCP 47 as this site writes it: a lowercase ISO 639 language, optional lowercase subtags (pt-br);
# the code names a folder and an address, so nothing else (no dot, no slash) gets through.
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*")


@dataclass
class Language:
    code: str
    name: str
    search: str          # lunr language code for the search index
    folder: Path
    strings: dict
    game_strings: dict
    pages: dict[str, Path]  # "index.md" → source file
    numbers: dict = field(default_factory=dict)  # numbers.yml: counts 0–12 as words, "one" per gender
    theme: dict[str, str] = None  # the theme's words (docs/<lang>/theme.yml, generator/inputs/theme_words.py)
    page_order: tuple[str, ...] = ()  # docs/languages.yml `pages`, the same for every language


def read_yaml(path: Path):
    """The data of a YAML file under docs/, read strictly (strict_yaml: no aliases, duplicate keys
    or YAML 1.1 numbers); raises BuildError naming the file and line. A symlink or anything but
    a regular file is refused (generator/inputs/source_files.py)."""
    refuse_special(path)
    try:
        return strict_yaml.load(path)
    except FileNotFoundError:
        raise BuildError(f"{path}: missing") from None
    except OSError as e:
        raise BuildError(f"{path}: cannot be read ({e.strerror})") from None
    except strict_yaml.YAMLFileError as e:
        raise BuildError(str(e)) from None


def search_languages() -> list[str]:
    """The languages the search engine can stem: lunr's own English and the lunr-languages that
    mkdocs-material's search plugin ships (assets/javascripts/lunr/min/lunr.<code>.min.js)."""
    import material
    folder = Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "lunr" / "min"
    codes = {p.name[len("lunr."):-len(".min.js")] for p in folder.glob("lunr.*.min.js")}
    return sorted((codes - {"multi", "stemmer.support"}) | {"en"})


def load_languages(docs: Path = DOCS) -> tuple[list[Language], str]:
    listing_file = docs / "languages.yml"
    listing = read_yaml(listing_file)
    if not isinstance(listing, dict) or not isinstance(listing.get("languages"), list) or not listing["languages"]:
        raise BuildError(f"{listing_file}: must hold `languages:`, a list of {{code, name, search}}")
    order = listing.get("pages", [])
    if not isinstance(order, list) or not all(isinstance(p, str) and p for p in order) or len(set(order)) < len(order):
        raise BuildError(f"{listing_file}: `pages:` must be a list of page names without .md, each once, "
                         f"such as [index, examples]; got {order!r}")
    known_search = search_languages()
    languages = []
    for entry in listing["languages"]:
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("code", "name")) \
                or not LANGUAGE_CODE.fullmatch(entry["code"]):
            raise BuildError(f"{listing_file}: each language needs a code (lowercase, such as 'sv' or 'pt-br') "
                             f"and a name, got {entry!r}")
        search = entry.get("search", entry["code"])
        if search not in known_search:
            raise BuildError(f"{listing_file}: search language {search!r} of '{entry['code']}' is not one the "
                             f"search engine knows; known: {', '.join(known_search)}")
        folder = docs / entry["code"]
        for sub in (folder, folder / "pages"):
            if os.path.islink(sub):
                raise BuildError(f"{sub}: a symbolic link; the build reads only regular files and folders")
        game_file = folder / "game.json"
        game = read_json(game_file, docs) if os.path.lexists(game_file) else {}
        pages = {p.name: p for p in regular_files(folder / "pages", "*.md")}
        strings = read_yaml(folder / "strings.yml") or {}
        if not isinstance(strings, dict) or not isinstance(game, dict):
            raise BuildError(f"{folder / ('strings.yml' if not isinstance(strings, dict) else 'game.json')}: "
                             "must be a mapping of names to strings")
        numbers = read_yaml(folder / "numbers.yml") if os.path.lexists(folder / "numbers.yml") else {}
        theme = load_theme_words(folder / "theme.yml", read_yaml)
        languages.append(Language(entry["code"], entry["name"], search, folder, strings, game, pages,
                                  numbers=numbers or {}, theme=theme,
                                  page_order=tuple(f"{name}.md" for name in order)))
    return languages, listing.get("default", languages[0].code)


def _keys(data, prefix="") -> set[str]:
    # A counted text's forms are its language's plural categories, not keys another language must have.
    if isinstance(data, dict) and not is_counted(data):
        out = set()
        for k, v in data.items():
            out |= {f"{prefix}{k}"} | _keys(v, f"{prefix}{k}.")
        return out
    return set()


def nav_title_problems(lang: Language) -> list[str]:
    """Each page needs its title in the navigation (strings.yml `nav`, keyed by the file's name)."""
    titles = lang.strings.get("nav")
    titles = titles if isinstance(titles, dict) else {}
    return [f"{lang.folder / 'pages' / page}: no title in the navigation; add `{page[:-3]}: <title>` under "
            f"nav: in {lang.folder / 'strings.yml'}"
            for page in sorted(lang.pages) if not isinstance(titles.get(page[:-3]), str)]


def completeness_problems(languages: list[Language], default: str) -> list[str]:
    """Every page, string and game string of the default language must exist in each other one."""
    reference = next(lang for lang in languages if lang.code == default)
    problems = []
    for lang in languages:
        code = lang.game_strings.get("lang")
        if code is not None and code != lang.code:  # a copied game.json still naming its source
            problems.append(f"{lang.folder / 'game.json'}: \"lang\" is {json.dumps(code)}, but this is language "
                            f"'{lang.code}' (docs/languages.yml); set it to \"{lang.code}\"")
        problems += counted_problems(lang.folder / "game.json", lang.game_strings, babel_locale(lang.code))
        problems += nav_title_problems(lang)
        if lang is reference:
            continue
        for page in sorted(set(reference.pages) - set(lang.pages)):
            problems.append(f"{lang.folder / 'pages' / page}: missing page (present in {reference.code})")
        for page in sorted(set(lang.pages) - set(reference.pages)):
            problems.append(f"{lang.folder / 'pages' / page}: page not in the default language {reference.code}")
        for key in sorted(_keys(reference.strings) - _keys(lang.strings)):
            problems.append(f"{lang.folder / 'strings.yml'}: missing string '{key}' (present in {reference.code})")
        for key in sorted(_keys(reference.numbers) - _keys(lang.numbers)):
            problems.append(f"{lang.folder / 'numbers.yml'}: missing number word '{key}' (present in {reference.code})")
        for key in sorted(_keys(reference.game_strings) - _keys(lang.game_strings)):
            problems.append(f"{lang.folder / 'game.json'}: missing string '{key}' (present in {reference.code})")
    return problems


def language_facts(lang: Language, facts: dict) -> dict:
    """docs/facts.yml with this language's words about each source (docs/<lang>/facts.yml, by the
    source's url) set as `site_words[code]` and `used_for[code]`, the form the pages read. The older
    form, the words per language inside docs/facts.yml, still counts where the language's file is silent."""
    path = lang.folder / "facts.yml"
    own = (read_yaml(path) or {}) if os.path.lexists(path) else {}  # a link is refused by read_yaml
    words = own.get("sources") if isinstance(own, dict) else None
    if own and not isinstance(words, dict):
        raise BuildError(f"{path}: must hold 'sources:', each source's url mapped to its site_words and used_for")
    words = words or {}
    listed = facts.get("sources") if isinstance(facts, dict) else None
    if not isinstance(facts, dict) or not isinstance(listed or [], list) or not all(
            isinstance(s, dict) and isinstance(s.get("url"), (str, type(None))) for s in listed or []):
        raise BuildError(f"{lang.folder.parent / 'facts.yml'}: must be a mapping whose sources are a list, "
                         "each source a mapping with its url as text")
    sources = []
    for source in listed or []:
        source = dict(source)
        mine = words.get(source.get("url")) or {}
        for key in ("site_words", "used_for"):
            text = mine.get(key) if isinstance(mine, dict) else None
            inline = (source.get(key) or {}).get(lang.code) if isinstance(source.get(key), dict) else None
            if not isinstance(text, str) or not text.strip():
                text = inline
            if not isinstance(text, str) or not text.strip():
                raise BuildError(f"{path}: no {key} for the source {source.get('url')} (docs/facts.yml); "
                                 f"write it under sources: \"{source.get('url')}\": {{{key}: …}}")
            source[key] = {**(source.get(key) if isinstance(source.get(key), dict) else {}), lang.code: text.strip()}
        sources.append(source)
    return {**facts, "sources": sources}

def babel_locale(code: str) -> Locale:
    """The CLDR locale of a language code from docs/languages.yml ('nb', 'da', 'pt-BR')."""
    try:
        return Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise BuildError(f"docs/languages.yml: language code {code!r} is not a locale Babel knows; "
                         "use an ISO 639 code such as 'nb' or 'da'") from None
