"""The root chooser's title, description and list of languages come from docs/languages.yml: a
language added by `make language` is named there, in the default language, with no text to
change outside its own folder (generator/site/seo.py `root_words`)."""
import re
import shutil
import subprocess
from pathlib import Path

from generator import cli
from generator.inputs.languages import load_languages
from generator.site.root_pages import root_page

ROOT = Path(__file__).resolve().parents[3]


def test_a_third_language_is_named_on_the_root_page(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    assert cli.main(["language", "sv", "--docs", str(tmp_path / "docs")]) == 0
    languages, default = load_languages(tmp_path / "docs")
    page = root_page(languages, default, "https://pyramide.example.test/")
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    description = re.search(r'<meta name="description" content="([^"]*)"', page).group(1)
    if default == "nb":
        assert title == "Pyramidekabal på norsk bokmål, dansk og svensk – regler og spill"
    for text in (title, description):
        assert "svensk" in text and "dansk" in text, text
    for lang in languages:
        assert f'<a href="{lang.code}/" hreflang="{lang.code}" lang="{lang.code}">{lang.name}</a>' in page


def test_no_list_of_languages_is_written_by_hand_outside_their_folders():
    """«på norsk og dansk» in a shared file would be wrong the day a third language comes."""
    tracked = subprocess.run(["git", "ls-files", "docs", "generator"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    for name in tracked:
        path = ROOT / name
        if path.suffix in (".py", ".yml", ".md", ".html", ".json") and path.is_file():
            text = path.read_text(encoding="utf-8").lower()
            assert not re.search(r"på (norsk|dansk) og (dansk|norsk)", text), name
