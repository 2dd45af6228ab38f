"""The glossary lint: a forbidden word in a page, string, game message or note is named with
file and line; words that merely contain a forbidden one pass; both real glossaries load."""
import shutil
import json
from pathlib import Path

import pytest

from generator.guard import glossary
from generator.site import build as site
from generator.errors import BuildError
from generator.inputs.languages import load_languages
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
# The concepts the issue names; each language must have a word for every one.
REQUIRED = {"deal", "draw", "redeal", "move", "pass", "free", "stock", "waste", "pyramid_row", "pair",
            "move_counter"}

GLOSSARY = """\
concepts:
  deal:
    use: utdeling
    forbidden: [spillnummer, "spill nr.", "spill {}"]
  move:
    use: trekk
    forbidden: [steg]
    allow: ["steg for steg"]
"""
PAGE = """\
# Pyramidekabal

Velg en utdeling. {{ rule("deal.layout") }}

Her følger spillet steg for steg.
"""
STRINGS = """\
site_name: Pyramide
picture_titles:
  opening: "Utdeling {deal}: slik ligger kortene"
rules_text:
  deal.layout: Utdelingsnummeret er et heltall
    opp til {max_deal}.
"""
GAME = {"lang": "nb", "board": {"deal": "Utdeling nr. {deal}", "label": "Pyramiden"}}
FACTS = """\
sources:
  - used_for:
      nb: oppsettet og kastebunken
      da: spillnummer er dansk her og telles ikke
"""


@pytest.fixture
def docs(tmp_path):
    """A one-language docs folder in which nothing breaks the glossary."""
    root = tmp_path / "docs"
    (root / "nb" / "pages").mkdir(parents=True)
    (root / "languages.yml").write_text('languages:\n  - {code: nb, name: Norsk, search: "no"}\ndefault: nb\n',
                                        encoding="utf-8")
    shutil.copy(ROOT / "docs" / "nb" / "theme.yml", root / "nb" / "theme.yml")
    (root / "facts.yml").write_text(FACTS, encoding="utf-8")
    (root / "nb" / "glossary.yml").write_text(GLOSSARY, encoding="utf-8")
    (root / "nb" / "pages" / "index.md").write_text(PAGE, encoding="utf-8")
    (root / "nb" / "strings.yml").write_text(STRINGS, encoding="utf-8")
    (root / "nb" / "game.json").write_text(json.dumps(GAME, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return root


def lint(docs, examples=()):
    languages, default = load_languages(docs)
    return glossary.lint(languages, default, examples)


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problem(path, line, word, use="utdeling", concept="deal") -> str:
    return f"{path}, line {line}: '{word}' — use '{use}' (glossary: {concept})"


def test_clean_files_have_no_problems(docs):
    assert lint(docs) == []


def test_a_forbidden_word_in_a_page_is_named_with_file_and_line(docs):
    page = docs / "nb" / "pages" / "index.md"
    replace(page, "Velg en utdeling.", "Velg et spillnummer.")
    assert lint(docs) == [problem(page, 3, "spillnummer")]


def test_a_phrase_wrapped_over_two_lines_is_found_at_its_first_line(docs):
    page = docs / "nb" / "pages" / "index.md"
    replace(page, "Her følger spillet steg for steg.", "Her følger\nSpill {{ examples.winnable.deal }}.")
    assert lint(docs) == [problem(page, 6, "Spill {}")]


def test_text_inside_template_tags_and_across_paragraphs_is_not_read(docs):
    page = docs / "nb" / "pages" / "index.md"
    replace(page, '{{ rule("deal.layout") }}', '{{ "spillnummer" }} {% if steg %}{% endif %}')
    replace(page, "Her følger spillet steg for steg.", "### Spill\n\n{{ game() }}")
    assert lint(docs) == []


def test_a_forbidden_word_in_a_string_is_named_at_its_line(docs):
    strings = docs / "nb" / "strings.yml"
    replace(strings, "Utdeling {deal}: slik", "Spill nr. {deal}: slik")
    # a plain scalar over two lines: the word stands on the second
    replace(strings, "    opp til {max_deal}.", "    opp til et spillnummer.")
    assert lint(docs) == [problem(strings, 3, "Spill nr."), problem(strings, 6, "spillnummer")]


def test_a_forbidden_word_in_a_game_message_is_named_at_its_key(docs):
    game = docs / "nb" / "game.json"
    data = json.loads(game.read_text(encoding="utf-8"))
    data["board"]["label"] = "Hvert steg teller"
    game.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    line = next(n for n, text in enumerate(game.read_text(encoding="utf-8").splitlines(), 1) if '"label"' in text)
    assert lint(docs) == [problem(game, line, "steg", use="trekk", concept="move")]


def test_a_game_message_written_with_escapes_is_still_found(docs):
    game = docs / "nb" / "game.json"
    game.write_text('{\n  "lang": "nb",\n  "board": {\n    "deal": "Spill nr. {deal}",\n'
                    '    "label": "Spillnumm\\u0065r"\n  }\n}\n', encoding="utf-8")
    assert lint(docs) == [problem(game, 4, "Spill nr."), problem(game, 5, "Spillnummer")]


def test_a_forbidden_word_in_a_note_is_named_with_the_example_file_and_move_line():
    rules = glossary.load(ROOT / "docs" / "nb" / "glossary.yml").rules
    examples = [{"file": "examples/winnable.yaml",
                 "steps": [{"number": 1, "line": 11, "notes": {"nb": "Kongen er fri.", "da": "Kongen er fri."}},
                           {"number": 2, "line": 14, "notes": {"nb": "Nå er dronningen ledig.", "da": "…"}},
                           {"number": 3, "line": 15}]}]
    assert glossary.note_problems(examples, "nb", rules) == [
        problem("examples/winnable.yaml", 14, "ledig", use="fri", concept="free")]


def test_the_language_text_of_facts_is_read_and_the_other_language_is_not(docs):
    facts = docs / "facts.yml"
    replace(facts, "nb: oppsettet og kastebunken", "nb: spill nr. og kastebunken")
    assert lint(docs) == [problem(facts, 3, "spill nr.")]


def test_words_that_contain_a_forbidden_one_and_allowed_phrases_pass(docs):
    page = docs / "nb" / "pages" / "index.md"
    replace(page, "Her følger spillet steg for steg.",
            "Fotsteget og stegt mat, spillnummeret, spillnumre, et skuespill nr. to, {steg} og steg for steg.")
    assert lint(docs) == []


def test_the_lint_of_the_build_and_of_make_verify_includes_the_glossary(docs):
    page = docs / "nb" / "pages" / "index.md"
    replace(page, "Velg en utdeling.", "Velg et spillnummer.")
    languages, default = load_languages(docs)
    assert problem(page, 3, "spillnummer") in site.lint(languages, default, [])


def test_an_em_dash_in_a_page_is_named_with_file_and_line(docs):
    (docs / "nb" / "glossary.yml").write_text(GLOSSARY + '  dash:\n    use: "– (spaced en dash)"\n'
                                              '    forbidden: ["—"]\n', encoding="utf-8")
    page = docs / "nb" / "pages" / "index.md"
    replace(page, "Her følger spillet steg for steg.", "Her følger spillet—steg for steg.")
    assert lint(docs) == [problem(page, 5, "—", use="– (spaced en dash)", concept="dash")]


def test_a_missing_glossary_is_a_problem(docs):
    (docs / "nb" / "glossary.yml").unlink()
    assert lint(docs) == [f"{docs / 'nb' / 'glossary.yml'}: missing; every language needs a glossary "
                          f"(copy docs/nb/glossary.yml and translate it)"]


@pytest.mark.parametrize("text, message", [
    ("concepts:\n  deal:\n    use: utdeling\n    forbidden: [spill]\n    wrong: x\n",
     "line 5: unknown field 'wrong' in concept 'deal'"),
    ("concepts:\n  deal:\n    use: utdeling\n    forbidden: [spill, utdeling]\n",
     "line 4: 'utdeling' is forbidden for 'deal' but is part of its own word 'utdeling'"),
    ("concepts:\n  deal:\n    forbidden: [spill]\n", "line 2: concept 'deal' needs `use:`"),
    ("concepts:\n  deal:\n    use: utdeling\n    forbidden:\n      - spill\n      - 7\n",
     "line 6: 'forbidden' of concept 'deal' holds 7"),
    ("concepts:\n  deal: {use: utdeling, forbidden: [a]}\n  deal: {use: b, forbidden: [c]}\n",
     "line 3: duplicate key 'deal'"),
])
def test_a_broken_glossary_is_refused_with_file_and_line(tmp_path, text, message):
    path = tmp_path / "glossary.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        glossary.load(path)
    assert str(e.value).startswith(f"{path}, {message}")


@pytest.fixture(scope="module")
def real():
    return {code: glossary.load(ROOT / "docs" / code / "glossary.yml") for code in LANGUAGES}


def test_both_glossaries_load_with_the_same_concepts_and_a_word_for_each(real):
    assert set(real["nb"].concepts) == set(real["da"].concepts)
    assert REQUIRED <= set(real["nb"].concepts)
    for code, g in real.items():
        assert all(use.strip() for use in g.concepts.values()), code
        # a concept is a choice between names: each forbids at least one
        assert {rule.concept for rule in g.rules} == set(g.concepts), code


def words(real, code, text):
    return [(hit.word, hit.rule.concept) for hit in glossary.find(text, real[code].rules)]


@pytest.mark.parametrize("code, text, found", [
    # nb: «trekk» is a move, drawing is the verb «trekke»
    ("nb", "Du trekker ett kort om gangen. Trekk: {moves}. Trekktelleren teller alt.", []),
    ("nb", "kort trukket fra trekkbunken og vendinger", []),
    ("nb", "par, konger, trekk fra trekkbunken og vendinger", [("trekk fra trekkbunken", "draw")]),
    ("nb", "Trekkbunke, {count} kort. Trekk ett kort.", [("Trekk ett kort", "draw")]),
    ("nb", "Du snur kortene enkeltvis, og snur kastebunken til slutt.",
     [("snur", "draw"), ("snur kastebunken", "redeal")]),
    ("nb", "«{card} er ikke fritt ennå»; kortet er fritt", [("{} er ikke fritt", "free")]),
    ("nb", "Spill nr. {deal}, et gyldig spillnummer, Nytt spill", [("Spill nr.", "deal"), ("spillnummer", "deal")]),
    ("nb", "i samme rekkefølge, rad for rad", []),
    # da: «spil» is the game and the deck, only the deal's phrases are forbidden
    ("da", "Nyt spil lægger en ny kortfordeling ud; et almindeligt spil kort; spillet er vundet", []),
    ("da", "Spil {deal} efter træk {number}: før afkastbunken tilbage til talonen",
     [("Spil {}", "deal"), ("før afkastbunken tilbage", "redeal")]),
    ("da", "Afkastbunken lægges tilbage som talon. Ingen flere gennemgange.", []),
    ("da", "Ingen tilbageføringer tilbage; du kan tilbageføre den", [("tilbageføringer", "redeal"),
                                                                     ("tilbageføre", "redeal")]),
    # review 3: the bank's word and the verb that went with it (C5), «i» for «på» afkastbunken (D5)
    ("da", "Afkastbunken føres tilbage til talonen. Det var den sidste tilbageføring.",
     [("føres tilbage", "redeal"), ("tilbageføring", "redeal")]),
    ("da", "Det øverste kort i afkastbunken; tre kort på afkastbunken", [("kort i afkastbunken", "waste")]),
    ("nb", "Forslag: ta neste kort fra trekkbunken. Løst helt nøyaktig: Spill spilt 3, spill spilt på nytt",
     [("ta neste kort", "draw"), ("Løst helt nøyaktig", "exact_answer"), ("Spill spilt", "games_played")]),
    ("da", "hvilke kort der bliver fri, og kongen ligger frit",
     [("kort der bliver fri", "free"), ("ligger frit", "free")]),
    ("da", "to gange på rad, trin for trin, i første omgang", []),
    ("da", "Kortfordelingen genskabes; udlægningen", [("udlægningen", "layout")]),
    # review 2: the words its native reader stumbled on, in the sentences it quoted
    ("nb", "Ruterkongen er fri i nederste rad og går alene med en gang. Her går alle pyramidekortene.",
     [("går alene", "remove"), ("Her går", "remove")]),
    ("nb", "Ruter konge fjernes alene. Ruter dame går sammen med ruter ess.", []),
    ("nb", "Gi det forrang å åpne akkurat den veien. Prioriter å åpne den.", [("Gi det forrang", "prioritise")]),
    ("nb", "Forslag: {move}. Jeg sjekker om det fører fram …", [("Jeg sjekker", "voice"), ]),
    ("nb", "Hvorfor kan jeg ikke velge et kort jeg ser? Programmet undersøker det.", []),
    ("nb", "hvert kort har en fast verdi, og fargen spiller ingen rolle", [("fargen", "suit")]),
    ("nb", "Sorten spiller ingen rolle, og det gjør heller ikke om kortet er rødt eller svart", []),
    ("nb", "ruter konge alene — Ruterkongen er fri; Norsk bokmål—Les", [("—", "dash"), ("—", "dash")]),
    ("nb", "ruter konge alene – Ruter konge er fri; Fisher–Yates", []),
    ("nb", "I stedet for en video kan du her følge", [("video", "replay")]),
    ("nb", "tapte utdelinger kontrollert på nytt; merket som ikke sjekket",
     [("tapte utdelinger", "winnable"), ("sjekket", "checked")]),
    ("nb", "Angre tar deg tilbake til før siste trekk", [("tilbake til før", "undo")]),
    ("da", "Ruder konge er fri og går alene med det samme. Begge de frie konger går først.",
     [("går alene", "remove"), ("konger går", "remove")]),
    ("da", "Kabalen går op, og kongen fjernes alene.", []),
    ("da", "Giv det forrang at åbne netop den vej. Prioritér at åbne den.", [("Giv det forrang", "prioritise")]),
    ("da", "Forslag: {move}. Jeg tjekker, om det fører frem …", [("Jeg tjekker", "voice")]),
    ("da", "Forslag: flyt afkastbunken tilbage til talonen.", [("flyt afkastbunken", "redeal")]),
    ("da", "Kulør og farve er ligegyldige; sorten er norsk", [("sorten", "suit")]),
    ("da", "Dansk — Læs og spil på dansk", [("—", "dash")]),
    ("da", "tabte kortfordelinger kontrolleret igen, mærket som ikke tjekket",
     [("tabte kortfordelinger", "winnable"), ("tjekket", "checked")]),
    ("da", "Til sammenligning har PlaySolitaire.io lavet en ekstern undersøgelse",
     [("ekstern undersøgelse", "outside_survey")]),
])
def test_the_real_glossaries_decide_the_review_cases(real, code, text, found):
    assert words(real, code, text) == found
