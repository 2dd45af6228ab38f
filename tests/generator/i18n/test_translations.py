"""Translation status (generator/i18n/translations.py): a changed source paragraph is stale in every
other language, a new section is missing, marking records the source, publish refuses stale text.

Each test works on a copy of docs/ and examples/ (the status file is written by --mark)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import strict_yaml
from generator import cli
from generator.i18n import translations
from generator.i18n.segments import page_segments

ROOT = Path(__file__).resolve().parents[3]
LANGUAGES = [entry["code"] for entry in strict_yaml.load(ROOT / "docs" / "languages.yml")["languages"]]
SOURCE, OTHERS = LANGUAGES[0], LANGUAGES[1:]


@pytest.fixture
def docs(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path / "docs"


def run(docs, *args):
    return cli.main(["translations", "--docs", str(docs), *args])


def not_current(docs, lang):
    return [(f.file, f.segment, f.state) for f in translations.compare(docs, lang).problems]


def test_every_language_is_current_today():
    # The bootstrap: each translation was marked as made from today's source.
    for lang in OTHERS:
        status = translations.compare(ROOT / "docs", lang)
        assert status.problems == [], [(f.file, f.segment, f.state) for f in status.problems][:5]
        assert status.count("current") > 400


def test_a_changed_paragraph_is_stale_in_every_other_language_and_nothing_else(docs, capsys):
    page = docs / SOURCE / "pages" / "index.md"
    text = page.read_text(encoding="utf-8")
    target = page_segments(text)[5]
    assert "¶" in target.id  # a paragraph, not a heading
    page.write_text(text.replace(target.text, target.text.replace(" ", " helt ", 1)), encoding="utf-8")
    for lang in OTHERS:
        assert not_current(docs, lang) == [("pages/index.md", target.id, "stale")]
    assert run(docs) == 0
    out = capsys.readouterr().out
    assert f"  stale        {target.id}" in out
    assert "was: " in out and "{+helt+}" in out  # the old and the new source, the change marked
    assert f"{OTHERS[0]}: " in out and ", 1 stale, 0 missing" in out
    assert run(docs, "--check") == 1


def test_re_wrapping_a_paragraph_is_not_a_change(docs):
    page = docs / SOURCE / "pages" / "index.md"
    text = page.read_text(encoding="utf-8")
    target = next(s for s in page_segments(text) if s.text.count(" ") > 10 and "\n" not in s.text)
    page.write_text(text.replace(target.text, target.text.replace(" ", "\n", 3)), encoding="utf-8")
    assert not_current(docs, OTHERS[0]) == []


def test_a_new_section_is_missing_and_its_neighbours_stay_current(docs):
    page = docs / SOURCE / "pages" / "index.md"
    text = page.read_text(encoding="utf-8")
    new = "## Ny seksjon\n\nFørste avsnitt.\n\n- Et punkt.\n- Et punkt til.\n\n"
    at = text.index("## Når du står fast")
    page.write_text(text[:at] + new + text[at:], encoding="utf-8")
    for lang in OTHERS:
        assert not_current(docs, lang) == [("pages/index.md", "Pyramidekabal / Ny seksjon", "missing"),
                                           ("pages/index.md", "Pyramidekabal / Ny seksjon ¶1", "missing"),
                                           ("pages/index.md", "Pyramidekabal / Ny seksjon ¶2", "missing"),
                                           ("pages/index.md", "Pyramidekabal / Ny seksjon ¶3", "missing")]


def test_marking_one_stale_segment_makes_it_current(docs, capsys):
    lang = OTHERS[0]
    page = docs / SOURCE / "pages" / "index.md"
    text = page.read_text(encoding="utf-8")
    a, b = page_segments(text)[5], page_segments(text)[9]
    page.write_text(text.replace(a.text, a.text + " Endret.").replace(b.text, b.text + " Også endret."),
                    encoding="utf-8")
    assert run(docs, "--mark", lang, f"pages/index.md:{a.id}") == 0
    assert not_current(docs, lang) == [("pages/index.md", b.id, "stale")]
    status = strict_yaml.load(docs / lang / "translation-status.yml")
    recorded = {e["id"]: e for e in status["files"]["pages/index.md"]}
    assert recorded[a.id]["source"] == a.text + " Endret."


def test_marking_a_new_section_after_translating_it(docs):
    lang = OTHERS[0]
    for code, words in ((SOURCE, "Ny seksjon"), (lang, "Nyt afsnit")):
        page = docs / code / "pages" / "variants.md"
        text = page.read_text(encoding="utf-8")
        page.write_text(text + f"\n## {words}\n\n{words}: tekst.\n", encoding="utf-8")
    assert sorted(state for _, _, state in not_current(docs, lang)) == ["missing", "missing", "reshaped"]
    assert run(docs, "--mark", lang, "pages/variants.md") == 0
    assert not_current(docs, lang) == []


def test_marking_refuses_a_page_whose_structure_differs(docs, capsys):
    lang = OTHERS[0]
    page = docs / SOURCE / "pages" / "contact.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nEt nytt avsnitt.\n", encoding="utf-8")
    before = (docs / lang / "translation-status.yml").read_bytes()
    assert run(docs, "--mark", lang, "pages/contact.md") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: docs/{lang}/pages/contact.md: ") and "the source has" in err
    assert (docs / lang / "translation-status.yml").read_bytes() == before  # nothing lost


def test_marking_refuses_the_source_language_and_an_unknown_segment(docs, capsys):
    assert run(docs, "--mark", SOURCE) == 2
    assert "not a translated language" in capsys.readouterr().err
    assert run(docs, "--mark", OTHERS[0], "pages/index.md:No such heading ¶9") == 2
    assert "no such segment" in capsys.readouterr().err
    assert run(docs, "--mark", OTHERS[0], "pages/nope.md") == 2


def test_strings_game_words_and_notes_by_key(docs):
    lang = OTHERS[0]
    strings = docs / SOURCE / "strings.yml"
    text = strings.read_text(encoding="utf-8")
    strings.write_text(text.replace("status: {won: vunnet,", "status: {won: vunnet!,")
                       + "extra_key: Ny tekst\n", encoding="utf-8")
    game = docs / SOURCE / "game.json"
    game.write_text(game.read_text(encoding="utf-8").replace('"undo": "Angre"', '"undo": "Angre trekk"'),
                    encoding="utf-8")
    example = docs / SOURCE / "examples" / "winnable.yml"
    text = example.read_text(encoding="utf-8")
    example.write_text(text.replace("fjernes alene med en gang.", "fjernes alene straks."), encoding="utf-8")
    assert sorted(not_current(docs, lang)) == [("examples/winnable.yml", "notes.1", "stale"),
                                               ("game.json", "buttons.undo", "stale"),
                                               ("strings.yml", "extra_key", "missing"),
                                               ("strings.yml", "status.won", "stale")]


def test_marking_one_key_writes_what_marking_its_file_writes(docs):
    # A key changed in the source and its translation brought up to date: marking that key alone
    # records it in the source's order, so the status file equals a mark of the whole file.
    lang = OTHERS[0]
    game = docs / SOURCE / "game.json"
    game.write_text(game.read_text(encoding="utf-8").replace('"undo": "Angre"', '"undo": "Angre trekk"'),
                    encoding="utf-8")
    status_file = docs / lang / "translation-status.yml"
    assert run(docs, "--mark", lang, "game.json:buttons.undo") == 0
    one = status_file.read_text(encoding="utf-8")
    assert run(docs, "--mark", lang, "game.json") == 0
    assert status_file.read_text(encoding="utf-8") == one
    assert not_current(docs, lang) == []


def test_make_publish_refuses_stale_text_unless_allowed():
    # The Makefile's publish checks the translations unless ALLOW_STALE is set (dry run: nothing is built).
    out = subprocess.run(["make", "-n", "publish", "DEST=/tmp/x"], cwd=ROOT, capture_output=True, text=True).stdout
    assert 'generator publish "/tmp/x"\n' in out and "--allow-stale" not in out
    out = subprocess.run(["make", "-n", "publish", "DEST=/tmp/x", "ALLOW_STALE=1"], cwd=ROOT,
                         capture_output=True, text=True).stdout
    assert 'generator publish "/tmp/x" --allow-stale' in out


def test_publish_says_a_stale_translation_and_every_placeholder_in_one_run(docs, tmp_path):
    """Issue 25: a stale paragraph and the two placeholder facts (the contact address, the
    site's address) stop a publish together, one line each, before anything is built."""
    page = docs / SOURCE / "pages" / "contact.md"
    page.write_text(page.read_text(encoding="utf-8").replace("\n\n", "\n\nEn ny setning her.\n\n", 1),
                    encoding="utf-8")
    dest = tmp_path / "published"
    r = subprocess.run([sys.executable, "-m", "generator", "publish", str(dest), "--docs", str(docs)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert all(line.startswith("error: ") for line in lines), lines  # one `error:` line per reason
    said = [line.removeprefix("error: ") for line in lines]
    assert len([line for line in said if "contact.email is" in line and "a placeholder" in line]) == 1, said
    assert len([line for line in said if "site_url is not set" in line]) == 1, said
    assert [line.split(":")[0].strip() for line in said if "translations not current" in line] == \
        ["translations not current"] * len(OTHERS), said
    assert not dest.exists()
    r = subprocess.run([sys.executable, "-m", "generator", "publish", str(dest), "--docs", str(docs), "--allow-stale"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and "translations not current" not in r.stderr and "site_url is not set" in r.stderr


def test_the_command_line_reports_totals(docs):
    done = subprocess.run([sys.executable, "-m", "generator", "translations", "--docs", str(docs)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0
    for lang in OTHERS:
        assert f"{lang}: " in done.stdout and " current, 0 stale, 0 missing" in done.stdout


# ---------------------------------------------------------------- an example's texts in docs/<lang>/examples/
def test_an_examples_texts_come_from_each_languages_file(tmp_path):
    from verify.examples import example_notes, load_example

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    path = tmp_path / "examples" / "winnable.yaml"
    assert "note:" not in path.read_text(encoding="utf-8")  # the example file holds no language's text
    ex = load_example(path, tuple(LANGUAGES))
    notes = example_notes(ex)
    assert {n.language for n in notes} == set(LANGUAGES)
    for n in notes:  # each note's file and line are where its translator writes it
        assert n.file == str(tmp_path / "docs" / n.language / "examples" / "winnable.yml")
        assert f'{n.move}: "{n.text}"' in (tmp_path / n.file).read_text(encoding="utf-8").splitlines()[n.line - 1]
    assert set(ex.texts["title"]) == set(LANGUAGES)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("\n  3: ", "\n  999: "), "999 is not a move of"),
    (lambda t: t + "comment: x\n", "unknown field 'comment'"),
    (lambda t: t.replace("\n  3: ", "\n  3: \"\"\n  4: ", 1), "the note on move 3 is empty"),
])
def test_a_bad_language_file_is_refused_with_its_line(tmp_path, edit, message):
    from verify.errors import VerifyError
    from verify.examples import ExampleError, load_example

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    file = tmp_path / "docs" / OTHERS[0] / "examples" / "winnable.yml"
    file.write_text(edit(file.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(VerifyError) as caught:  # ExampleError, or Problems when it causes another
        load_example(tmp_path / "examples" / "winnable.yaml", tuple(LANGUAGES))
    said = [str(p) for p in getattr(caught.value, "problems", [caught.value])]
    assert all(isinstance(p, ExampleError) for p in getattr(caught.value, "problems", [caught.value]))
    assert said[0].startswith(f"{file}, line ") and message in said[0], said


def test_a_note_missing_in_one_language_names_that_languages_file(tmp_path):
    from verify.examples import ExampleError, load_example

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    file = tmp_path / "docs" / OTHERS[0] / "examples" / "winnable.yml"
    file.write_text("\n".join(l for l in file.read_text(encoding="utf-8").splitlines()
                              if not l.startswith("  3: ")) + "\n", encoding="utf-8")
    with pytest.raises(ExampleError, match=rf"the note on move 3 has no text in {OTHERS[0]} "
                                           rf"\(docs/{OTHERS[0]}/examples/winnable.yml\)"):
        load_example(tmp_path / "examples" / "winnable.yaml", tuple(LANGUAGES))


# ---------------------------------------------------------------- every problem in one run
def test_lint_lists_every_missing_page_string_and_wrong_code_at_once(docs, capsys):
    lang = OTHERS[0]
    (docs / lang / "pages" / "contact.md").unlink()
    strings = docs / lang / "strings.yml"
    strings.write_text("\n".join(l for l in strings.read_text(encoding="utf-8").splitlines()
                                 if not l.startswith("status:")) + "\n", encoding="utf-8")
    game = docs / lang / "game.json"
    game.write_text(game.read_text(encoding="utf-8").replace(f'"lang": "{lang}"', f'"lang": "{SOURCE}"'),
                    encoding="utf-8")
    numbers = docs / lang / "numbers.yml"
    numbers.write_text(numbers.read_text(encoding="utf-8").replace('  "7":', '  "77":'), encoding="utf-8")
    code = cli.main(["lint", "--docs", str(docs), "--bundle", str(docs / "no-bundle.json")])
    err = capsys.readouterr().err
    assert code == 2
    for expected in (f"{docs / lang / 'pages' / 'contact.md'}: missing page",
                     f"{strings}: missing string 'status.won'",
                     f'{game}: "lang" is "{SOURCE}", but this is language \'{lang}\'',
                     f"{numbers}: missing number word 'counts.7'"):
        assert expected in err, err


def test_every_missing_note_of_every_example_at_once(docs):
    from verify.errors import Problems
    from verify.examples import ExampleError, load_examples

    lang = OTHERS[0]
    for name in ("winnable", "not-winnable"):
        file = docs / lang / "examples" / f"{name}.yml"
        lines = file.read_text(encoding="utf-8").splitlines()
        first_note = next(i for i, l in enumerate(lines) if l.startswith("  ") and l.strip()[0].isdigit())
        file.write_text("\n".join(lines[:first_note] + lines[first_note + 1:]) + "\n", encoding="utf-8")
    with pytest.raises(Problems) as caught:
        load_examples(docs.parent / "examples", tuple(LANGUAGES))
    assert all(isinstance(p, ExampleError) for p in caught.value.problems)
    message = str(caught.value)
    assert message.count(f"has no text in {lang}") == 2 == len(caught.value.problems)
    assert "winnable.yml" in message and "not-winnable.yml" in message


def test_a_paragraph_removed_from_the_translation_alone_is_reported(docs):
    lang = OTHERS[0]
    page = docs / lang / "pages" / "contact.md"
    text = page.read_text(encoding="utf-8")
    last = page_segments(text)[-1]
    page.write_text(text.replace(last.text, ""), encoding="utf-8")
    assert [state for _, _, state in not_current(docs, lang)] == ["reshaped"]
    assert ", 1 reshaped" in translations.compare(docs, lang).totals()


def test_one_language_alone(docs, capsys):
    """`make translations LANG=xx` reports that language only; an unknown one is refused."""
    assert cli.main(["language", "sv", "--docs", str(docs)]) == 0
    capsys.readouterr()
    assert run(docs, "--lang", OTHERS[0]) == 0
    out = capsys.readouterr().out
    assert f"{OTHERS[0]}: " in out and "sv:" not in out and "docs/sv/" not in out
    assert run(docs, "--lang", "sv") == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("sv: 0 current") and not any(
        line.startswith(f"{code}:") for code in OTHERS for line in out.splitlines())
    assert run(docs, "--lang", "fi") == 2
    assert "'fi' is not a translated language" in capsys.readouterr().err


def test_make_passes_lang_only_when_given_on_its_command_line():
    """LANG is also the locale's variable in every shell: only LANG=xx given to make filters."""
    def dry(*args, env_lang):
        r = subprocess.run(["make", "-n", "-o", ".venv/.installed-stamp", "-o", "setup", "translations", *args],
                           cwd=ROOT, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "LANG": env_lang})
        return r.stdout
    assert '--lang "da"' in dry("LANG=da", env_lang="C.UTF-8")
    assert "--lang" not in dry(env_lang="C.UTF-8")


def test_untranslated_means_not_recorded_whatever_the_file_holds(docs, tmp_path):
    """A text written in the language but not yet marked is untranslated (the report, the
    totals, the docs say so); its words go out in the PO export, and the import records them."""
    import polib
    assert cli.main(["language", "sv", "--docs", str(docs)]) == 0
    strings = docs / "sv" / "strings.yml"
    strings.write_text(strings.read_text(encoding="utf-8").replace("status: {won: vunnet,", "status: {won: vunnit,"),
                       encoding="utf-8")
    finding = next(f for f in translations.compare(docs, "sv").findings if f.segment == "status.won")
    assert finding.state == "untranslated"
    out = tmp_path / "sv.po"
    assert cli.main(["po", "export", "sv", str(out), "--docs", str(docs)]) == 0
    entries = {e.msgctxt: e for e in polib.pofile(str(out))}
    assert entries["strings.yml:status.won"].msgstr == "vunnit"
    assert entries["strings.yml:status.stuck"].msgstr == ""  # still the source's copy: nothing to keep
    assert cli.main(["po", "import", "sv", str(out), "--docs", str(docs)]) == 0
    finding = next(f for f in translations.compare(docs, "sv").findings if f.segment == "status.won")
    assert finding.state == "current"
    for text in ((ROOT / "docs" / "TRANSLATING.md").read_text(encoding="utf-8"),
                 (ROOT / "docs" / "dev" / "translating.md").read_text(encoding="utf-8")):
        assert "untranslated**: not yet recorded as translated" in text or \
            "*untranslated* (not yet recorded as translated" in text
