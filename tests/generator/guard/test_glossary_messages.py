"""The glossary's refusals (generator/guard/glossary.py `load`), each message whole: the file, the line
of the key at fault when there is one, and what is wrong; and the glossary read is immutable, so
the lint's caches, keyed by its rules, can never answer for an older version of a rule."""
import dataclasses
from types import SimpleNamespace

import pytest

from generator.guard import glossary
from generator.errors import BuildError

SHAPE = ("a glossary is one mapping `concepts:` of concept names to {use: word, forbidden: [words]} "
         "(see docs/TRANSLATING.md, \"Glossary\")")
DEAL = "concepts:\n  deal:\n    use: utdeling\n"


@pytest.mark.parametrize("text, where, message", [
    ("- utdeling\n", "", SHAPE),
    ("concepts:\n  deal: {use: a, forbidden: [b]}\nother: 1\n", ", line 1", SHAPE),
    ("concepts: {}\n", ", line 1", SHAPE),
    ("concepts: [deal]\n", ", line 1", SHAPE),
    ("concepts:\n  deal: utdeling\n", ", line 2", "concept 'deal' must be a mapping with use and forbidden"),
    (DEAL + "    forbidden: [spill]\n    wrong: x\n", ", line 5",
     "unknown field 'wrong' in concept 'deal'; known: allow, forbidden, meaning, note, use"),
    ("concepts:\n  deal:\n    use: ' '\n    forbidden: [spill]\n", ", line 2",
     "concept 'deal' needs `use:`, the word to use for it"),
    ("concepts:\n  deal:\n    use: [a]\n    forbidden: [spill]\n", ", line 2",
     "concept 'deal' needs `use:`, the word to use for it"),
    (DEAL + "    meaning: [x]\n    forbidden: [spill]\n", ", line 4", "'meaning' of concept 'deal' must be text"),
    (DEAL + "    note: {a: b}\n    forbidden: [spill]\n", ", line 4", "'note' of concept 'deal' must be text"),
    (DEAL, ", line 2", "concept 'deal' needs `forbidden:`, a list of words (may be [])"),
    (DEAL + "    forbidden: spill\n", ", line 4", "'forbidden' of concept 'deal' must be a list of words"),
    (DEAL + "    forbidden: [spill]\n    allow: steg\n", ", line 5", "'allow' of concept 'deal' must be a list of words"),
    (DEAL + "    forbidden: [spill, ' ']\n", ", line 4",
     "'forbidden' of concept 'deal' holds ' '; each entry is a word or phrase"),
    (DEAL + "    forbidden: [spill]\n    allow: [7]\n", ", line 5",
     "'allow' of concept 'deal' holds 7; each entry is a word or phrase"),
    (DEAL + "    forbidden: [spill, utdeling]\n", ", line 4",
     "'utdeling' is forbidden for 'deal' but is part of its own word 'utdeling'"),
])
def test_each_broken_glossary_is_refused_with_its_whole_message(tmp_path, text, where, message):
    path = tmp_path / "glossary.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        glossary.load(path)
    assert str(e.value) == f"{path}{where}: {message}"


def test_the_words_of_example_notes_may_stand_beside_the_concepts(tmp_path):
    path = tmp_path / "glossary.yml"
    path.write_text("note_words: {}\n" + DEAL + "    forbidden: [spill]\n    allow: [spill nr]\n", encoding="utf-8")
    loaded = glossary.load(path)
    assert loaded.concepts == {"deal": "utdeling"} and [r.concept for r in loaded.rules] == ["deal"]
    assert [p.pattern for p in loaded.rules[0].allowed] == [glossary.phrase_pattern("spill nr").pattern]


def test_a_loaded_glossary_and_its_rules_cannot_change(tmp_path):
    path = tmp_path / "glossary.yml"
    path.write_text(DEAL + "    forbidden: [spill]\n", encoding="utf-8")
    loaded = glossary.load(path)
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.rules[0].use = "spill"
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.concepts = {}


def rules_of(tmp_path, forbidden, allow=()):
    path = tmp_path / "glossary.yml"
    path.write_text(DEAL + f"    forbidden: {list(forbidden)}\n    allow: {list(allow)}\n", encoding="utf-8")
    return glossary.load(path).rules


def test_an_allowed_phrase_excuses_only_the_words_inside_it(tmp_path):
    rules = rules_of(tmp_path, ["steg"], ["steg for steg"])
    assert [(h.line, h.word) for h in glossary.find("Steg for steg, og så ett steg til.\nsteg", rules)] == \
        [(1, "steg"), (2, "steg")]


def test_forbidden_signs_side_by_side_are_each_found(tmp_path):
    rules = rules_of(tmp_path, ["—"])
    assert [h.word for h in glossary.find("a——b", rules)] == ["—", "—"]


def test_a_hit_is_on_its_line_when_the_text_starts_with_a_line_break(tmp_path):
    rules = rules_of(tmp_path, ["spill"])
    assert [h.line for h in glossary.find("\nspill", rules)] == [2]
    strings = tmp_path / "strings.yml"
    strings.write_text("\nsite_name: et spill\n", encoding="utf-8")
    assert glossary.yaml_problems(strings, rules) == [f"{strings}, line 2: 'spill' — use 'utdeling' (glossary: deal)"]


@pytest.mark.parametrize("source, line", [
    ("Et spill{% if x %} her.", 1),             # a statement is a space
    ("Et spill{% if x\n%} her.", 1),            # … and keeps its line break
    ("Et spill{{ deal }}", 1),                  # a value is «{}», no letter
    ("{# a\ncomment #}\n\nEt spill.", 4),
    ("{{ a\n}}{% b\n%}\nspill", 4),
])
def test_a_page_is_read_with_its_tags_as_the_reader_sees_them(tmp_path, source, line):
    rules = rules_of(tmp_path, ["spill"])
    page = tmp_path / "page.md"
    page.write_text(source, encoding="utf-8")
    assert glossary.page_problems(page, rules) == [f"{page}, line {line}: 'spill' — use 'utdeling' (glossary: deal)"]


def test_a_word_in_a_json_list_is_found_on_its_line(tmp_path):
    rules = rules_of(tmp_path, ["spill"])
    game = tmp_path / "game.json"
    game.write_text('{"a": {"b": ["ok",\n"et spill"]},\n "c": "spill"}\n', encoding="utf-8")
    assert glossary.json_problems(game, rules) == [f"{game}, line 2: 'spill' — use 'utdeling' (glossary: deal)",
                                                   f"{game}, line 3: 'spill' — use 'utdeling' (glossary: deal)"]


def test_a_game_file_that_is_not_json_is_one_problem(tmp_path):
    game = tmp_path / "game.json"
    game.write_text('{"a": ', encoding="utf-8")
    assert glossary.json_problems(game, rules_of(tmp_path, ["spill"])) == [
        f"{game}, line 1: not valid JSON (Expecting value)"]


def test_an_examples_title_summary_and_notes_are_read_in_the_language_at_their_lines(tmp_path):
    rules = rules_of(tmp_path, ["spill"])
    example = {"file": "examples/x.yaml", "text_files": {"nb": "docs/nb/examples/x.yml"},
               "lines": {"title.nb": 2, "summary.nb": 3},
               "title": {"nb": "Et spill", "da": "Et spill"}, "summary": {"nb": "Spill godt"},
               "steps": [{"number": 1, "line": 9, "notes": {"nb": "Første spill"}, "note_lines": {"nb": 5}}]}
    word = "— use 'utdeling' (glossary: deal)"
    assert glossary.note_problems([example], "nb", rules) == [
        f"docs/nb/examples/x.yml, line 2: 'spill' {word}", f"docs/nb/examples/x.yml, line 3: 'Spill' {word}",
        f"docs/nb/examples/x.yml, line 5: 'spill' {word}"]
    bare = {"file": "examples/y.yaml", "title": {"nb": "Et spill"}, "steps": []}
    assert glossary.note_problems([bare], "nb", rules) == [f"examples/y.yaml, line ?: 'spill' {word}"]


def language(tmp_path, code, glossary_text=None, pages=(), facts=None):
    """A language folder with its glossary, pages (name → text), strings and facts.yml."""
    folder = tmp_path / code
    (folder / "pages").mkdir(parents=True)
    if glossary_text is not None:
        (folder / "glossary.yml").write_text(glossary_text, encoding="utf-8")
    (folder / "strings.yml").write_text("site_name: Pyramide\n", encoding="utf-8")
    if facts is not None:
        (folder / "facts.yml").write_text(facts, encoding="utf-8")
    for name, text in pages:
        (folder / "pages" / name).write_text(text, encoding="utf-8")
    return SimpleNamespace(code=code, folder=folder, pages={n: folder / "pages" / n for n, _ in pages})


TWO = DEAL + "    forbidden: [spill]\n  move:\n    use: trekk\n    forbidden: [steg]\n"


def test_the_lint_reads_every_page_and_the_languages_own_facts(tmp_path):
    nb = language(tmp_path, "nb", TWO, [("a.md", "Et spill."), ("b.md", "Ett steg.")], facts="kilde: et spill\n")
    word = lambda file, w, use, concept: f"{file}, line 1: '{w}' — use '{use}' (glossary: {concept})"
    assert glossary.lint([nb], "nb") == [word(nb.pages["a.md"], "spill", "utdeling", "deal"),
                                         word(nb.pages["b.md"], "steg", "trekk", "move"),
                                         word(nb.folder / "facts.yml", "spill", "utdeling", "deal")]


def test_a_concept_the_default_language_has_and_another_lacks_is_named(tmp_path):
    nb = language(tmp_path, "nb", TWO)
    da = language(tmp_path, "da", DEAL + "    forbidden: [spil nr.]\n", [("a.md", "Spil nr. syv.")])
    assert glossary.lint([nb, da], "nb") == [
        f"{da.folder / 'glossary.yml'}: missing concept 'move' (present in nb)",
        f"{da.pages['a.md']}, line 1: 'Spil nr.' — use 'utdeling' (glossary: deal)"]
    # The default's own concepts are the reference: a language with more is not refused for it.
    assert glossary.lint([da, nb], "da") == [f"{da.pages['a.md']}, line 1: 'Spil nr.' — use 'utdeling' (glossary: deal)"]


def test_a_language_without_a_glossary_does_not_stop_the_others(tmp_path):
    nb = language(tmp_path, "nb", None, [("a.md", "Et spill.")])
    da = language(tmp_path, "da", DEAL + "    forbidden: [spil]\n", [("a.md", "Et spil.")])
    assert glossary.lint([nb, da], "da") == [
        f"{nb.folder / 'glossary.yml'}: missing; every language needs a glossary (copy docs/da/glossary.yml and translate it)",
        f"{da.pages['a.md']}, line 1: 'spil' — use 'utdeling' (glossary: deal)"]


def test_without_the_default_languages_glossary_the_others_are_still_read(tmp_path):
    nb = language(tmp_path, "nb", None)
    da = language(tmp_path, "da", DEAL + "    forbidden: [spil]\n", [("a.md", "Et spil.")])
    assert glossary.lint([nb, da], "nb") == [
        f"{nb.folder / 'glossary.yml'}: missing; every language needs a glossary (copy docs/nb/glossary.yml and translate it)",
        f"{da.pages['a.md']}, line 1: 'spil' — use 'utdeling' (glossary: deal)"]


def test_a_word_spelled_with_an_escape_is_named_on_its_strings_line(tmp_path):
    rules = rules_of(tmp_path, ["spill"])
    game = tmp_path / "game.json"
    game.write_text('{"a": [\n"et \\u0073pill"]}\n', encoding="utf-8")
    assert glossary.json_problems(game, rules) == [f"{game}, line 2: 'spill' — use 'utdeling' (glossary: deal)"]


def test_what_the_search_finds_cannot_change(tmp_path):
    hit = glossary.find("et spill", rules_of(tmp_path, ["spill"]))[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        hit.line = 2
