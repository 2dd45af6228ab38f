"""`generator language CODE` (make language): a new language made in docs/<CODE>/ and
docs/languages.yml only, every text untranslated; a bad, known or unsearchable code refused."""
import json
import shutil
from pathlib import Path

import pytest

import strict_yaml
from generator import cli
from generator.i18n import translations

ROOT = Path(__file__).resolve().parents[3]
LANGUAGES = [entry["code"] for entry in strict_yaml.load(ROOT / "docs" / "languages.yml")["languages"]]


@pytest.fixture
def tree(tmp_path):
    for folder in ("docs", "examples"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def snapshot(tree: Path) -> dict[str, bytes]:
    return {str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*")) if p.is_file()}


def language(tree, *args):
    return cli.main(["language", *args, "--docs", str(tree / "docs")])


def test_a_new_language_writes_only_its_folder_and_the_listing(tree, capsys):
    before = snapshot(tree)
    assert language(tree, "sv", "--from", LANGUAGES[0]) == 0
    after = snapshot(tree)
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    assert changed and all(name.startswith("docs/sv/") or name == "docs/languages.yml" for name in changed), changed
    source = tree / "docs" / LANGUAGES[0]
    for path in source.rglob("*"):  # every file of the source is in place
        if path.is_file() and path.name != translations.STATUS_FILE:
            assert (tree / "docs" / "sv" / path.relative_to(source)).is_file(), path
    assert json.loads((tree / "docs/sv/game.json").read_text(encoding="utf-8"))["lang"] == "sv"
    assert strict_yaml.load(tree / "docs/sv/strings.yml")["language_name"] == "Svenska"
    listing = strict_yaml.load(tree / "docs/languages.yml")
    assert listing["languages"][-1] == {"code": "sv", "name": "Svenska", "search": "sv"}
    assert listing["default"] == strict_yaml.load(ROOT / "docs/languages.yml")["default"]
    assert "Made docs/sv/" in capsys.readouterr().out


def test_every_text_of_a_new_language_is_untranslated(tree):
    assert language(tree, "sv") == 0
    status = translations.compare(tree / "docs", "sv")
    assert status.count("current") == status.count("stale") == 0
    pages = [f for f in status.findings if f.file.startswith("pages/") or f.file in ("strings.yml", "game.json")]
    assert pages and all(f.state == "untranslated" for f in pages)
    assert cli.main(["translations", "--docs", str(tree / "docs"), "--check"]) == 1
    # The other languages are as they were.
    for lang in LANGUAGES[1:]:
        assert translations.compare(tree / "docs", lang).problems == []


@pytest.mark.parametrize("code, message", [
    ("sv_SE", "'sv_se' is not a BCP 47 code"),
    ("../x", "'../x' is not a BCP 47 code"),
    ("", "'' is not a BCP 47 code"),
    (LANGUAGES[1], f"language '{LANGUAGES[1]}' is already there"),
    ("qq", "'qq' is not a language Babel (CLDR) knows"),
    ("nn", "search language 'nn' is not one the site's search (lunr) can stem"),
])
def test_a_bad_code_is_refused_and_nothing_is_written(tree, capsys, code, message):
    before = snapshot(tree)
    assert language(tree, code) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err, err
    assert snapshot(tree) == before


def test_an_existing_folder_and_an_unknown_source_are_refused(tree, capsys):
    (tree / "docs" / "sv").mkdir()
    assert language(tree, "sv") == 2
    assert "already exists" in capsys.readouterr().err
    assert language(tree, "fi", "--from", "xx") == 2
    assert "FROM language 'xx'" in capsys.readouterr().err


def test_a_search_language_can_be_named(tree):
    assert language(tree, "nn", "--search", "no") == 0
    assert strict_yaml.load(tree / "docs/languages.yml")["languages"][-1]["search"] == "no"


def test_a_new_glossary_forbids_nothing_and_asks_for_its_words(tree, capsys):
    """The source's forbidden words may be the new language's right ones (Swedish «talongen»,
    forbidden in nb): the new glossary has every concept, no word and nothing forbidden, and
    `make verify`'s summary asks for the words until they are written."""
    from generator.guard import glossary
    from generator.inputs.languages import load_languages

    assert language(tree, "sv") == 0
    capsys.readouterr()
    docs = tree / "docs"
    new, source = glossary.load(docs / "sv" / "glossary.yml"), glossary.load(docs / LANGUAGES[0] / "glossary.yml")
    assert list(new.concepts) == list(source.concepts) and new.rules == () and new.undecided == list(new.concepts)
    assert any(rule.pattern.search("talongen") for rule in source.rules)  # what the copy used to refuse
    page = docs / "sv" / "pages" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nLägg kortet på talongen.\n",
                    encoding="utf-8")
    languages, default = load_languages(docs)
    assert not [p for p in glossary.lint(languages, default) if "/sv/" in p]
    assert cli.main(["translations", "--docs", str(docs), "--summary"]) == 0
    err = capsys.readouterr().err
    assert f"warning: docs/sv/glossary.yml: {len(new.concepts)} concept(s) without a sv word yet (deal," in err
    assert cli.main(["translations", "--docs", str(docs), "--check", "--lang", "sv"]) == 1
    # Written and marked, the words end the request.
    text = (docs / "sv" / "glossary.yml").read_text(encoding="utf-8").replace('use: ""', "use: ord")
    (docs / "sv" / "glossary.yml").write_text(text, encoding="utf-8")
    assert cli.main(["translations", "--docs", str(docs), "--mark", "sv", "glossary.yml"]) == 0
    capsys.readouterr()
    assert cli.main(["translations", "--docs", str(docs), "--summary"]) == 0
    assert "glossary.yml" not in capsys.readouterr().err


@pytest.mark.parametrize("given", ["pt-BR", "pt-br"])
def test_a_code_with_a_region_is_one_language_in_lowercase(tree, capsys, given):
    """BCP 47 is not case sensitive: pt-BR (the usage text's example) and pt-br make one folder, pt-br,
    whose numbers, dates and Open Graph locale are Brazilian Portuguese."""
    from generator.inputs.languages import load_languages
    from generator.render.context import babel_locale
    from generator.site.seo import og_locale

    assert language(tree, given) == 0
    assert "Made docs/pt-br/" in capsys.readouterr().out
    assert strict_yaml.load(tree / "docs/languages.yml")["languages"][-1]["code"] == "pt-br"
    languages, _ = load_languages(tree / "docs")
    assert languages[-1].code == "pt-br"
    assert str(babel_locale("pt-br")) == "pt_BR" and og_locale("pt-br") == "pt_BR"
    assert json.loads((tree / "docs/pt-br/game.json").read_text(encoding="utf-8"))["lang"] == "pt-br"
    from generator.render.game_embed import _check_lang
    _check_lang("pt-br")  # the game embeds in it (it took two or three letters only)
