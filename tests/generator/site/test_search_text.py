"""The search index keeps table cells apart (generator/site/search_text.py): Material's search
plugin joined cells written without whitespace into one word («RegelSlik står den herPrøvd i
appen»), so a search for a word of one cell met it glued to the next. Every pair of neighbouring
cells of every built page, in its row and across rows, is read in that page's
search_index.json with whitespace between them; list items (whose tags the index keeps) stay apart."""
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]


class Cells(HTMLParser):
    """Each table's cells in order, as their text with whitespace collapsed; and each list item's."""

    def __init__(self):
        super().__init__()
        self.tables, self.items, self.open = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag in ("td", "th") and self.tables:
            self.open.append(("cell", []))
        elif tag == "li":
            self.open.append(("item", []))

    def handle_endtag(self, tag):
        if tag in ("td", "th", "li") and self.open:
            kind, text = self.open.pop()
            said = " ".join("".join(text).split())
            (self.tables[-1] if kind == "cell" else self.items).append(said)

    def handle_data(self, data):
        for _, text in self.open:
            text.append(data)


def indexed(site: Path, code: str) -> str:
    docs = json.loads((site / code / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    return "\n".join(" ".join(unescape(re.sub(r"<[^>]+>", " ", d["text"])).split()) for d in docs)


def glued(first: str, second: str) -> str | None:
    """The last word of one text run into the first word of the next, as the index must not hold it."""
    if not first or not second or not first.split() or not second.split():
        return None
    return first.split()[-1] + second.split()[0]


@pytest.mark.parametrize("code", ["nb", "da"])
def test_neighbouring_table_cells_are_apart_in_the_search_index(built_site, code):
    site, _ = built_site
    text = indexed(site, code)
    pairs = 0
    for page in sorted((site / code).rglob("index.html")):
        cells = Cells()
        cells.feed(page.read_text(encoding="utf-8"))
        for table in cells.tables:
            for first, second in zip(table, table[1:]):
                word = glued(first, second)
                if word and first.split()[-1] in text:
                    pairs += 1
                    assert word not in text.split(), f"{page}: «{word}» in the search index"
    assert pairs > 50  # the rule table alone has some 80 cells


@pytest.mark.parametrize("code", ["nb", "da"])
def test_the_rule_tables_heading_reads_as_four_cells(built_site, code):
    site, _ = built_site
    words = yaml.safe_load((ROOT / "docs" / code / "strings.yml").read_text(encoding="utf-8"))
    heading = [words["tables"]["rule_checks"][k] for k in ("rule", "sentence", "app", "independent")]
    assert re.search(r"(?<!\S)" + r"\s+".join(map(re.escape, heading)) + r"(?!\S)", indexed(site, code))


@pytest.mark.parametrize("code", ["nb", "da"])
def test_neighbouring_list_items_are_apart_in_the_search_index(built_site, code):
    site, _ = built_site
    text = indexed(site, code).split()
    cells = Cells()
    cells.feed((site / code / "index.html").read_text(encoding="utf-8"))
    items = [i for i in cells.items if i]
    assert len(items) > 5
    for first, second in zip(items, items[1:]):
        assert glued(first, second) not in text
