"""The navigation's page order is data (docs/languages.yml `pages`), not code: a new page is
added in docs/ alone."""
import shutil
from pathlib import Path

import pytest

from generator.errors import BuildError
from generator.inputs.languages import load_languages
from generator.site.build import page_order

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def docs(tmp_path):
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy, ignore=shutil.ignore_patterns("dev"))
    return copy


def _set_pages(docs: Path, value: str) -> None:
    listing = docs / "languages.yml"
    text = listing.read_text(encoding="utf-8")
    start = text.index("\npages:")
    end = text.index("\n", start + 1)
    listing.write_text(text[:start] + f"\npages: {value}" + text[end:], encoding="utf-8")


def test_the_listing_orders_every_language_and_a_page_left_out_comes_last(docs):
    _set_pages(docs, "[contact, index]")
    languages, _ = load_languages(docs)
    for lang in languages:
        order = page_order(lang)
        assert order[:2] == ["contact.md", "index.md"]
        assert order[2:] == sorted(set(lang.pages) - {"contact.md", "index.md"})


def test_the_repository_lists_every_page_it_has():
    languages, default = load_languages(ROOT / "docs")
    lang = next(lang for lang in languages if lang.code == default)
    assert sorted(lang.page_order) == sorted(lang.pages)


@pytest.mark.parametrize("value", ["index", "[index, index]", "[index, 3]", "[index, '']"])
def test_a_bad_listing_is_refused_naming_the_file(docs, value):
    _set_pages(docs, value)
    with pytest.raises(BuildError, match=r"languages\.yml: `pages:` must be a list"):
        load_languages(docs)
