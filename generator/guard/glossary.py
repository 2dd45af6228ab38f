"""The glossary check: one word per concept in each language, and none of the words it forbids.

docs/<lang>/glossary.yml names, per concept (deal, draw, redeal, move, …), the word to `use`
and the words that are `forbidden` for it. A forbidden word is found as a whole word (each
inflection is listed on its own), case-insensitively and across line breaks; `{}` in it stands
for any value ({{ … }} in a page, {deal} in a string); phrases under `allow` are exceptions.

Checked, with file and line: every page source (the text outside template tags), every string
in strings.yml, every game message in game.json, the language's own text in docs/facts.yml and
every example's notes, title and summary in that language. Problems read
"<file>, line <n>: '<word>' — use '<preferred>' (glossary: <concept>)".
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from json.decoder import scanstring
from json.scanner import py_make_scanner
from pathlib import Path

import yaml

import strict_yaml

from generator.errors import BuildError
from generator.inputs.source_files import read_text
from generator.inputs.languages import Language, read_yaml
from generator.guard.numbers import note_place, tag_sub

FILE_NAME = "glossary.yml"
CONCEPT_FIELDS = {"meaning", "use", "note", "forbidden", "allow"}
# A value in running text: a string's {placeholder}, or a page's {{ … }} once page_text made it
# "{}". Both read as "{}", which is what `{}` in a glossary phrase matches.
PLACEHOLDER = re.compile(r"\{[^{}\n]*\}")
# Between the words of a phrase: spaces and at most one line break (a wrapped line), never a
# blank line, which ends a paragraph ("### Hele spillet", blank, "{{ picture }}" is no phrase).
# Possessive (*+, Python 3.11): a run of spaces is taken whole, never split between the two
# stars, so a long run after a phrase's first word costs its length, not its square (the old
# `[^\S\n]*\n?[^\S\n]*` took two minutes over one 6 KB line).
SPACE = r"(?=\s)[^\S\n]*+(?:\n[^\S\n]*+)?"


@dataclass(frozen=True)
class Rule:
    concept: str
    use: str
    pattern: re.Pattern        # one forbidden word or phrase
    allowed: tuple[re.Pattern, ...]

    def __hash__(self) -> int:  # asked for every string find() looks in: worked out once
        if "_hash" not in self.__dict__:
            object.__setattr__(self, "_hash", hash((self.concept, self.use, self.pattern, self.allowed)))
        return self.__dict__["_hash"]


@dataclass(frozen=True)
class Glossary:
    path: Path
    concepts: dict[str, str]   # concept → the word to use ("" while a new language has not chosen it)
    rules: tuple[Rule, ...]

    @property
    def undecided(self) -> list[str]:
        """The concepts whose word is not written yet (`use: ""`, as `make language` leaves them)."""
        return [name for name, use in self.concepts.items() if not use]


def phrase_pattern(phrase: str) -> re.Pattern:
    """A whole-word, case-insensitive pattern for a phrase; its words may be split by a line
    break (a page wraps its lines), and `{}` matches a value (see PLACEHOLDER)."""
    words = [re.escape(word) for word in phrase.split()]
    # Whole words: no letter may touch a phrase's words or values ({}); a phrase that begins
    # or ends with a sign («—») needs no such edge there, so the em dash in «a—b» is found.
    start = r"(?<!\w)" if re.match(r"[\w{]", phrase.strip()) else ""
    end = r"(?!\w)" if re.search(r"[\w}]$", phrase.strip()) else ""
    return re.compile(start + SPACE.join(words) + end, re.IGNORECASE)


# ---- loading ----

# `make serve`'s warm builder lints after every save, mostly files that did not change. Each
# file's result below is a function of exactly what it is computed from — the file's name, the
# text read now and the glossary's rules (a Glossary is itself a function of its file's text) —
# so it is kept under those (lru_cache: a text or rule that differs is another key, never the
# old result); the code is the process's own (make serve starts a new one when it changes).
# Failures are not kept (lru_cache keeps no exception).
KEPT_FILES = 256  # results per kind: every file of a few languages, and an edit's undo


def load(path: Path) -> Glossary:
    """The glossary in `path`; raises BuildError naming the file and line of anything wrong."""
    return _load(path, read_text(path))  # regular files only (generator/inputs/source_files.py)


@lru_cache(maxsize=16)
def _load(path: Path, text: str) -> Glossary:
    try:
        data, root = strict_yaml.parse(text.encode("utf-8"), path)  # the strict loader's errors, with file and line
    except strict_yaml.YAMLFileError as e:
        raise BuildError(str(e)) from None
    lines = strict_yaml.line_map(root)

    def refuse(key: str, problem: str):
        line = lines.get(key)
        raise BuildError(f"{path}, line {line}: {problem}" if line else f"{path}: {problem}")

    # `note_words` (the words of an example note) is read by verify/notes.py, not by the lint.
    if not isinstance(data, dict) or set(data) - {"note_words"} != {"concepts"} \
            or not isinstance(data["concepts"], dict) \
            or not data["concepts"]:
        refuse("concepts", "a glossary is one mapping `concepts:` of concept names to "
                           "{use: word, forbidden: [words]} (see docs/TRANSLATING.md, \"Glossary\")")
    concepts, rules = {}, []
    for name, entry in data["concepts"].items():
        where = f"concepts.{name}"
        if not isinstance(entry, dict):
            refuse(where, f"concept '{name}' must be a mapping with use and forbidden")
        for key in entry:
            if key not in CONCEPT_FIELDS:
                refuse(f"{where}.{key}", f"unknown field '{key}' in concept '{name}'; "
                                         f"known: {', '.join(sorted(CONCEPT_FIELDS))}")
        use = entry.get("use")
        # "" is a new language's concept still to fill in: it forbids nothing until then, and
        # `make translations` / `make verify` ask for it (generator/i18n/translations.py).
        if not isinstance(use, str) or (use and not use.strip()):
            refuse(where, f"concept '{name}' needs `use:`, the word to use for it")
        for key in ("meaning", "note"):
            if key in entry and not isinstance(entry[key], str):
                refuse(f"{where}.{key}", f"'{key}' of concept '{name}' must be text")
        words = {}
        for key in ("forbidden", "allow"):
            value = entry.get(key, [])
            if key == "forbidden" and key not in entry:
                refuse(where, f"concept '{name}' needs `forbidden:`, a list of words (may be [])")
            if not isinstance(value, list):
                refuse(f"{where}.{key}", f"'{key}' of concept '{name}' must be a list of words")
            for i, word in enumerate(value):
                if not isinstance(word, str) or not word.strip():
                    refuse(f"{where}.{key}.{i}", f"'{key}' of concept '{name}' holds "
                                                 f"{strict_yaml.shown(word)}; each entry is a word or phrase")
            words[key] = value
        allowed = tuple(phrase_pattern(phrase) for phrase in words["allow"])
        for i, word in enumerate(words["forbidden"]):
            pattern = phrase_pattern(word)
            # A word that forbids the preferred term itself would make the glossary unkeepable.
            if use and pattern.search(use):
                refuse(f"{where}.forbidden.{i}", f"'{word}' is forbidden for '{name}' but is part of "
                                                 f"its own word '{use}'")
            rules.append(Rule(name, use.strip(), pattern, allowed))
        concepts[name] = use.strip()
    return Glossary(path, concepts, tuple(rules))


# ---- finding ----

@dataclass(frozen=True)
class Hit:
    line: int    # 1-based, within the text searched
    word: str    # as written there, its whitespace made single spaces
    rule: Rule


def find(text: str, rules) -> list[Hit]:
    """Every forbidden word in `text`, in order; where two overlap, the longer one only
    («snu kastebunken», not also «snu»). A {placeholder} is a value, never a word."""
    return list(_find(text, tuple(rules)))


@lru_cache(maxsize=8192)  # a build reads the same strings for each page; `make serve` rebuilds often
def _find(text: str, rules: tuple[Rule, ...]) -> tuple[Hit, ...]:
    text = PLACEHOLDER.sub("{}", text)  # removes no newline, so lines stay true
    found = []
    for rule in rules:
        spans = None  # where the rule's allowed phrases stand: found once per text, when needed
        for match in rule.pattern.finditer(text):
            if spans is None:
                spans = [(a.start(), a.end()) for allowed in rule.allowed for a in allowed.finditer(text)]
            if not any(start <= match.start() and match.end() <= end for start, end in spans):
                found.append((match, rule))
    found.sort(key=lambda item: (item[0].start(), -item[0].end()))
    hits, end = [], -1
    for match, rule in found:
        if match.start() >= end:
            hits.append(Hit(text.count("\n", 0, match.start()) + 1, " ".join(match.group(0).split()), rule))
            end = match.end()
    return tuple(hits)


def _problem(file, line, hit: Hit) -> str:
    return f"{file}, line {line}: '{hit.word}' — use '{hit.rule.use}' (glossary: {hit.rule.concept})"


def _in_source(file, source: str, start: int, end: int, value: str, rules) -> list[str]:
    """Problems in one string `value` written at source[start:end] (a YAML or JSON scalar).
    Found in the value itself (escapes undone); the line is where the same word stands in the
    source, or the string's first line when the source spells it differently (an escape)."""
    hits = find(value, rules)
    if not hits:
        return []
    first = source.count("\n", 0, start) + 1
    raw = find(source[start:end], rules)
    if [h.rule for h in raw] != [h.rule for h in hits]:
        raw = [Hit(1, h.word, h.rule) for h in hits]
    return [_problem(file, first + at.line - 1, hit) for hit, at in zip(hits, raw)]


def page_text(source: str) -> str:
    """A page source as its reader sees the words: a {{ value }} becomes "{}", a {% statement %}
    or {# comment #} a space; newlines stay, so lines stay true."""
    def blank(tag: str) -> str:
        return "\n" * tag.count("\n") + ("{}" if tag.startswith("{{") else " ")
    return tag_sub(source, blank)


def page_problems(path: Path, rules) -> list[str]:
    return list(_page_problems(path, read_text(path), tuple(rules)))


@lru_cache(maxsize=KEPT_FILES)
def _page_problems(path: Path, source: str, rules: tuple[Rule, ...]) -> tuple[str, ...]:
    return tuple(_problem(path, hit.line, hit) for hit in find(page_text(source), rules))


def yaml_problems(path: Path, rules, language: str | None = None) -> list[str]:
    """Problems in the text values of a YAML file; with `language`, only in the values under
    a key of that name (docs/facts.yml's {nb: …, da: …})."""
    return list(_yaml_problems(path, read_text(path), tuple(rules), language))  # regular files only


@lru_cache(maxsize=KEPT_FILES)
def _yaml_problems(path: Path, source: str, rules: tuple[Rule, ...], language: str | None) -> tuple[str, ...]:
    keep = (lambda keys: True) if language is None else (lambda keys: language in keys)
    try:
        root = strict_yaml.parse(source.encode("utf-8"), path)[1]
    except strict_yaml.YAMLFileError as e:
        return (str(e),)
    problems = []

    def walk(node, keys):
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                walk(value_node, keys + (key_node.value,))
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item, keys)
        elif node.tag == "tag:yaml.org,2002:str" and keep(keys):
            problems.extend(_in_source(path, source, node.start_mark.index, node.end_mark.index,
                                       node.value, rules))
    if root is not None:
        walk(root, ())
    return tuple(problems)


class _Located(str):
    """A JSON string value that knows where it stands in the file."""
    start: int
    end: int


def _located_json(text: str):
    """json.loads, but each string value is a _Located. The pure-Python scanner reads every
    value through the decoder's parse_string (keys it reads itself), so wrapping that is enough."""
    decoder = json.JSONDecoder()

    def parse_string(s, end, strict):
        value, after = scanstring(s, end, strict)
        located = _Located(value)
        located.start, located.end = end - 1, after
        return located, after
    decoder.parse_string = parse_string
    decoder.scan_once = py_make_scanner(decoder)
    return decoder.decode(text)


def json_problems(path: Path, rules) -> list[str]:
    return list(_json_problems(path, read_text(path), tuple(rules)))  # regular files only (generator/inputs/source_files.py)


@lru_cache(maxsize=KEPT_FILES)
def _json_problems(path: Path, source: str, rules: tuple[Rule, ...]) -> tuple[str, ...]:
    try:
        data = _located_json(source)
    except json.JSONDecodeError as e:
        return (f"{path}, line {e.lineno}: not valid JSON ({e.msg})",)
    problems = []

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, _Located):
            problems.extend(_in_source(path, source, value.start, value.end, value, rules))
    walk(data)
    return tuple(problems)


def note_problems(examples, code: str, rules) -> list[str]:
    """The examples' notes, titles and summaries in one language, at their line in the example
    file (a note's is its move's)."""
    problems = []
    for example in examples:
        lines = example.get("lines") or {}
        file = (example.get("text_files") or {}).get(code, example["file"])  # the language's own file
        for key in ("title", "summary"):
            text = (example.get(key) or {}).get(code, "")
            problems += [_problem(file, lines.get(f"{key}.{code}", "?"), hit) for hit in find(text, rules)]
        problems += [_problem(*note_place(example, step, code), hit)
                     for step in example["steps"] for hit in find((step.get("notes") or {}).get(code, ""), rules)]
    return problems


# ---- the lint ----

def language_problems(lang: Language, glossary: Glossary, examples) -> list[str]:
    rules = glossary.rules
    problems = []
    for path in lang.pages.values():
        problems += page_problems(path, rules)
    problems += yaml_problems(lang.folder / "strings.yml", rules)
    if (lang.folder / "game.json").exists():
        problems += json_problems(lang.folder / "game.json", rules)
    if (lang.folder / "facts.yml").exists():  # the language's words about the sources
        problems += yaml_problems(lang.folder / "facts.yml", rules)
    facts = lang.folder.parent / "facts.yml"
    if facts.exists():  # its per-language text ({nb: …, da: …}) is shown on the pages too
        problems += yaml_problems(facts, rules, language=lang.code)
    problems += note_problems(examples, lang.code, rules)
    return problems


def lint(languages: list[Language], default: str, examples=()) -> list[str]:
    """Every language's forbidden words, with file and line; a missing or broken glossary, or a
    concept the default language's glossary has and another lacks, is a problem too."""
    problems, glossaries = [], {}
    for lang in languages:
        path = lang.folder / FILE_NAME
        if not path.exists():
            problems.append(f"{path}: missing; every language needs a glossary "
                            f"(copy docs/{default}/{FILE_NAME} and translate it)")
            continue
        try:
            glossaries[lang.code] = load(path)
        except BuildError as e:
            problems.append(str(e))
    reference = glossaries.get(default)
    for code, glossary in glossaries.items():
        if reference is not None and glossary is not reference:
            for name in sorted(set(reference.concepts) - set(glossary.concepts)):
                problems.append(f"{glossary.path}: missing concept '{name}' (present in {default})")
    examples = list(examples)
    for lang in languages:
        if lang.code in glossaries:
            problems += language_problems(lang, glossaries[lang.code], examples)
    return problems
