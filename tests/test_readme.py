"""The README and the handbook (docs/dev/*.md) render whole: each is rendered with Python-Markdown
(the `tables` extension, as MkDocs renders the site) and fails on a table that broke (a line of
pipes left in a paragraph, as a blank line inside a table leaves the rows after it), on a
relative link to a file or an anchor of the repository that does not exist, and when the README
grows past the one screen per job it is meant to be (250 lines)."""
from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import markdown
import pytest

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 250
EXTENSIONS = ["tables", "fenced_code"]


def documents(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs" / "dev").glob("*.md"))]


class Rendered(HTMLParser):
    """What the checks need of a rendered page: the text of paragraphs and list items outside
    code blocks, each link, and each heading's text and each element id (the anchors)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.prose: list[str] = []  # text of <p> and <li>, code blocks left out
        self.links: list[str] = []
        self.headings: list[str] = []
        self.ids: list[str] = []
        self._in_pre = 0
        self._prose_depth = 0
        self._heading: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.append(attrs["name"])
        if tag == "a" and attrs.get("href") is not None:
            self.links.append(attrs["href"])
        if tag == "img" and attrs.get("src") is not None:
            self.links.append(attrs["src"])
        if tag == "pre":
            self._in_pre += 1
        if tag in ("p", "li"):
            self._prose_depth += 1
            self.prose.append("")
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = []

    def handle_endtag(self, tag):
        if tag == "pre":
            self._in_pre -= 1
        if tag in ("p", "li"):
            self._prose_depth -= 1
        if re.fullmatch(r"h[1-6]", tag) and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None:
            self._heading.append(data)
        if self._prose_depth and not self._in_pre:
            self.prose[-1] += data


def render(text: str) -> Rendered:
    parsed = Rendered()
    parsed.feed(markdown.markdown(text, extensions=EXTENSIONS))
    return parsed


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped (letters, digits, '_',
    '-' and spaces kept), each space a '-'."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file: its headings' (a repeated one gets -1, -2 … as on
    GitHub) and any element id."""
    parsed = render(path.read_text(encoding="utf-8"))
    found, seen = set(parsed.ids), {}
    for heading in parsed.headings:
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def broken_tables(path: Path) -> list[str]:
    """Lines of pipes that did not become part of a table: they were left in a paragraph."""
    problems = []
    for block in render(path.read_text(encoding="utf-8")).prose:
        for line in block.splitlines():
            if re.fullmatch(r"\s*\|.*\|\s*", line):
                problems.append(f"{path.name}: a table row left as text (a blank line or a missing "
                                f"|---| row above it?): {line.strip()[:80]}")
    return problems


def dead_links(path: Path, root: Path) -> list[str]:
    """Relative links (and in-page anchors) that lead to no file or no anchor of the repository."""
    problems = []
    for href in render(path.read_text(encoding="utf-8")).links:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("//"):
            continue  # another site: not this test's business
        target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
        if not target.is_relative_to(root.resolve()):
            continue  # outside the repository: not ours to hold
        if not target.exists():
            problems.append(f"{path.relative_to(root)}: link to {href}: no such file")
        elif parts.fragment and target.suffix == ".md" and unquote(parts.fragment) not in anchors(target):
            problems.append(f"{path.relative_to(root)}: link to {href}: {target.name} has no heading "
                            f"with the anchor #{parts.fragment}")
    return problems


def too_long(root: Path) -> list[str]:
    lines = len((root / "README.md").read_text(encoding="utf-8").splitlines())
    return [f"README.md: {lines} lines, more than {README_MAX_LINES}: move the detail to a page of "
            "docs/dev/ and link to it"] if lines > README_MAX_LINES else []


def problems(root: Path) -> list[str]:
    found = too_long(root)
    for path in documents(root):
        found += broken_tables(path) + dead_links(path, root)
    return found


def test_the_readme_and_the_handbook_render_whole():
    assert (ROOT / "docs" / "dev" / "README.md").is_file()
    found = problems(ROOT)
    assert not found, "\n".join(found)


def test_the_readme_fits_its_limit():
    assert too_long(ROOT) == []


@pytest.mark.parametrize("heading, anchor", [
    ("Publishing the site", "publishing-the-site"),
    ("Translating the pages, adding a language", "translating-the-pages-adding-a-language"),
    ("`make serve`: from a save to the reloaded page", "make-serve-from-a-save-to-the-reloaded-page"),
    ("What the build refuses (it fails closed)", "what-the-build-refuses-it-fails-closed"),
    ("The checker's command line", "the-checkers-command-line"),
    ("Spørsmål og svar", "spørsmål-og-svar"),
])
def test_anchors_are_made_as_github_makes_them(heading, anchor):
    assert slug(heading) == anchor


def test_each_check_fails_on_a_broken_copy(tmp_path):
    """The checks themselves: a broken table, a dead file link, a dead anchor and a README too
    long are each found; a sound copy has no problem."""
    (tmp_path / "docs" / "dev").mkdir(parents=True)
    (tmp_path / "docs" / "dev" / "guide.md").write_text(
        "# Guide\n\n## The part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\n| in code | fine |\n```\n",
        encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text("# X\n\nSee [the part](docs/dev/guide.md#the-part) and [here](#x), "
                      "[a site](https://example.org/x.md).\n", encoding="utf-8")
    assert problems(tmp_path) == []

    guide = tmp_path / "docs" / "dev" / "guide.md"
    guide.write_text("# Guide\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n", encoding="utf-8")
    assert broken_tables(guide) == ["guide.md: a table row left as text (a blank line or a missing "
                                    "|---| row above it?): | 3 | 4 |"]

    readme.write_text("# X\n\n[gone](docs/dev/gone.md), [no part](docs/dev/guide.md#the-part), "
                      "[nothing here](#nowhere)\n", encoding="utf-8")
    assert dead_links(readme, tmp_path) == [
        "README.md: link to docs/dev/gone.md: no such file",
        "README.md: link to docs/dev/guide.md#the-part: guide.md has no heading with the anchor #the-part",
        "README.md: link to #nowhere: README.md has no heading with the anchor #nowhere",
    ]

    readme.write_text("# X\n" + "line\n" * README_MAX_LINES, encoding="utf-8")
    assert too_long(tmp_path) == [f"README.md: {README_MAX_LINES + 1} lines, more than {README_MAX_LINES}: "
                                  "move the detail to a page of docs/dev/ and link to it"]
