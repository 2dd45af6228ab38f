"""Numbers with provenance: every number a page source can reach carries the data path it came from.

The page sandbox (generator/guard/sandbox.py) sees the language's context through `tagged`: each
number (and each date) of the bundle and docs/facts.yml becomes a `Sourced(value, path)`, each
mapping and list a `SourcedDict` or `SourcedList` that knows its path, each text holding a digit
a `SourcedText`. A Sourced number compares like its value (`survey.undecided == 0`), but has no
text of its own: it is printed only by the sandbox's finalize or the generator's formatting
filters (num, pct, spell…), which write it in the locale's way and note where it came from
(`ShownNumbers`). Arithmetic on it in a page gives a `Computed`, which can be compared or used
as an index but never printed or formatted: the error names the expression.
"""
from __future__ import annotations

import html
import json
import re
from datetime import date
from functools import total_ordering

from jinja2.sandbox import SecurityError

from generator.guard.typed_digits import typed_digit_at


class NotPrintable(SecurityError):
    """A number was asked for its text outside the generator's formatting (the sandbox names the line)."""


@total_ordering
class PageNumber:
    """A number the page may compare and index with, but not turn into text itself."""
    __slots__ = ("value",)

    def __eq__(self, other):
        return self.value == plain(other)

    def __lt__(self, other):
        return self.value < plain(other)

    def __hash__(self):
        return hash(self.value)

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        if not isinstance(self.value, int):
            raise TypeError(f"{self.describe()} is not a whole number")
        return self.value

    __int__ = __index__

    def __float__(self):
        return float(self.value)

    def __str__(self):
        raise NotPrintable(self.refusal())

    def __format__(self, spec):
        raise NotPrintable(self.refusal())

    __html__ = __str__  # markupsafe.escape (`| e`, autoescape) asks for it first


class Sourced(PageNumber):
    """A value of the checked data (a number or a date) and its path: `rules.pyramid_cards`."""
    __slots__ = ("path",)

    def __init__(self, value, path: str):
        self.value, self.path = value, path

    def describe(self) -> str:
        return self.path

    def refusal(self) -> str:
        return (f"{self.path} is a number of the data: print it as it is ({{{{ {self.path} }}}}) or through "
                "num, pct or spell; text filters and join do not take numbers")

    def __repr__(self):
        return f"Sourced({self.value!r}, {self.path!r})"


class Computed(PageNumber):
    """A number a page computed itself (`rules.pyramid_cards + rules.pyramid_cards`): no data holds it."""
    __slots__ = ("expression",)

    def __init__(self, value, expression: str):
        self.value, self.expression = value, expression

    def describe(self) -> str:
        return self.expression

    def refusal(self) -> str:
        return (f"a number computed in the page ({self.expression}); a page prints only values the data "
                "holds, so compare with it or choose by it, but print the data's value instead")

    def __repr__(self):
        return f"Computed({self.value!r}, {self.expression!r})"


def plain(value):
    """The value itself, whether tagged or not."""
    return value.value if isinstance(value, PageNumber) else value


# An expression is named in an error as far as this: `{% set a = a + a %}` repeated doubles its
# text each time, and a page must not run out of memory describing what it computed.
MAX_EXPRESSION = 120


def describe(value) -> str:
    """An operand as the page wrote it: its path, its expression, or the constant (shortened)."""
    if isinstance(value, PageNumber):
        text = value.describe()
        text = f"({text})" if isinstance(value, Computed) else text
    else:
        text = repr(value)
    return text if len(text) <= MAX_EXPRESSION else text[:MAX_EXPRESSION - 1] + "…"


def computed(value, operator: str, *operands) -> Computed:
    """What arithmetic in a page gave (`value`, computed by the sandbox), with its expression."""
    if len(operands) == 1:
        return Computed(value, f"{operator}{describe(operands[0])}")
    return Computed(value, f"{describe(operands[0])} {operator} {describe(operands[1])}")


# A mapping, list or text of the data knows its path as `_path`: a page cannot name it (no
# attribute starting with "_"), so it never hides a key of the data.
class SourcedDict(dict):
    """A mapping of the data and its path (`examples | length` is a number with a source)."""
    __slots__ = ("_path",)

    def __init__(self, items=(), path: str | None = None):
        super().__init__(items)
        self._path = path


class SourcedList(list):
    __slots__ = ("_path",)

    def __init__(self, items=(), path: str | None = None):
        super().__init__(items)
        self._path = path


class SourcedText(str):
    """Text of the data holding a digit (a month «2026-07», an address): printed as it is, noted."""

    def __new__(cls, value: str = "", path: str | None = None):
        return super().__new__(cls, value)

    def __init__(self, value: str = "", path: str | None = None):
        self._path = path


def path_of(value) -> str | None:
    """The data path of a tagged value, or None for one the page made."""
    if isinstance(value, Sourced):
        return value.path
    return getattr(value, "_path", None) if isinstance(value, (SourcedDict, SourcedList, SourcedText)) else None


def tagged(value, path: str):
    """`value` with every number, date, mapping, list and digit-holding text tagged by its path."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float, date)):
        return Sourced(value, path)
    if isinstance(value, str):
        if typed_digit_at(value) < 0:
            return value
        return SourcedText(value, path)
    if isinstance(value, dict):
        return SourcedDict({k: tagged(v, _key_path(path, k)) for k, v in value.items()}, path)
    if isinstance(value, (list, tuple)):
        return SourcedList((tagged(v, f"{path}[{i}]") for i, v in enumerate(value)), path)
    return value


def _key_path(path: str, key) -> str:
    if isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{key!r}]"


def tagged_context(context: dict) -> dict:
    """The names a page sees: the context's data, each tagged from its name (what the generator
    keeps for itself, `_…`, is left out)."""
    return {k: tagged(v, k) for k, v in context.items() if not k.startswith("_")}


class ShownNumbers:
    """Every number a page showed, with the data path it came from, page by page."""

    def __init__(self):
        self.pages: dict[str, list[dict]] = {}
        self.page = None

    def begin(self, page: str) -> None:
        self.page = page
        self.pages[page] = []

    def note(self, path: str, shown: str, how: str, data: list[str] | None = None) -> None:
        """`data`: for a page function (`path` its name), the data paths whose value it wrote."""
        if self.page is not None:
            self.pages[self.page].append({"shown": shown, "path": path, "how": how}
                                         | ({"data": data} if data is not None else {}))

    def as_json(self) -> str:
        return json.dumps(self.pages, ensure_ascii=False, indent=1) + "\n"

    def as_table(self, title: str) -> str:
        """The same as a Markdown table per page, for a reader."""
        lines = [f"# {title}", ""]
        for page, rows in self.pages.items():
            lines += [f"## {page}", "", "| shown | from | how |", "|---|---|---|"]
            lines += [f"| {_cell(r['shown'])} | {_source_cell(r)} | {r['how']} |" for r in rows]
            lines.append("")
        return "\n".join(lines)


# A number as a reader sees it in a page function's output: digits, grouped or with decimals
# (nb «4 294 967 295», da «65,8 %»), outside the HTML's tags.
SHOWN_NUMBER = re.compile(r"\d(?:[\d\u00a0\u202f.,]*\d)?(?:\u00a0%)?")
TAG = re.compile(r"<[^>]*>")
# A script's text is the game's data (its strings, the deal pool), read by the app, not by a reader.
SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.IGNORECASE | re.DOTALL)


def numbers_in(output: str) -> list[str]:
    """The numbers a page function's HTML or Markdown shows a reader (not those in its tags or scripts)."""
    return SHOWN_NUMBER.findall(html.unescape(TAG.sub(" ", SCRIPT.sub(" ", output))))


def data_paths(names: dict, roots: tuple[str, ...], writers) -> dict[str, list[str]]:
    """Each way `writers` write a number of the tagged data under `roots` (paths of `names`,
    "examples.winnable"), with the paths of the values written so: "13" → ["rules.target_sum"].
    A text of the data holding digits gives its numbers too (a date, an address)."""
    found: dict[str, list[str]] = {}
    for root in roots:
        for leaf in _leaves(_at(names, root)):
            if isinstance(leaf, SourcedText):
                texts = set(numbers_in(str(leaf)))
            elif isinstance(leaf.value, date):  # a page function writes no date
                continue
            else:
                texts = {_written(write, leaf.value) for write in writers} - {None}
            for text in texts:
                found.setdefault(text, []).append(leaf.path if isinstance(leaf, Sourced) else leaf._path)
    return found


def _at(names: dict, root: str):
    value = names
    for key in root.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _leaves(value):
    if isinstance(value, (Sourced, SourcedText)):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)


def _written(write, value) -> str | None:
    try:
        return write(value)
    except (TypeError, ValueError, OverflowError):  # a writer for another kind of number (pct of a date)
        return None


def _source_cell(row: dict) -> str:
    source = f"`{_cell(row['path'])}`"
    if "data" in row:
        source += ": " + (", ".join(f"`{_cell(p)}`" for p in row["data"]) or "no data path")
    return source


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
