"""No sentence of running text starts with a digit: careful nb and da writers spell the number
out or turn the sentence round («Pyramiden har 28 kort», not «28 kort ligger i pyramiden»).

Running text is the paragraphs and list items of a rendered page (Markdown), admonitions
included. Tables, headings, raw HTML (figures, the game, generated lists), code and the numbers
of ordered lists are not running text and keep their digits.
"""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^#{1,6}(\s|$)")
SETEXT_UNDERLINE = re.compile(r"^(=+|-+)\s*$")
TABLE_ROW = re.compile(r"^\|")
HTML_BLOCK = re.compile(r"^<(/?)([a-zA-Z][a-zA-Z0-9-]*)")
ADMONITION = re.compile(r"^(!!!|\?\?\?\+?)\s")
LIST_ITEM = re.compile(r"^([-*+]|\d+[.)])(\s+|$)")
ATTR_LIST = re.compile(r"\{:?\s*[.#][^{}]*\}")
LINK = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)")
TAG = re.compile(r"<[^<>]*>")
EMPHASIS = re.compile(r"[*`]++|(?<!\w)_++|_++(?!\w)")  # possessive: linear over a long run
# A sentence ends at . ! ? or … (closing quotes and brackets may follow) before white space.
SENTENCE_END = re.compile(r"[.!?…][»”\"')\]]*\s+")
# Abbreviations after which a number goes on the same sentence («ca. 66 %», «nr. 27»).
ABBREVIATIONS = {"ca", "nr", "kl", "jf", "jfr", "f.eks", "bl.a", "dvs", "mht", "pga", "s", "kap", "mv", "o.l"}
# A rule id such as «deal.layout» in a marker after a sentence: code, not the next sentence's start.
CODE_ID = re.compile(r"[a-z_]+(\.[a-z_]+)+")
SNIPPET = 40
# The patterns above and below never rescan: the bracketed parts exclude their own opening
# bracket, so a line of 6,000 "[" or "<" is read once, not once per bracket.

Line = tuple[int, str]  # (line number in the rendered page, text)


def sentence_problems(page_path: Path, markdown: str) -> list[str]:
    """One line per sentence of running text that starts with a digit, naming the page source
    and its line (the rendered page's line when the sentence cannot be found in the source)."""
    source = _source_lines(page_path)
    problems = []
    for line, sentence in digit_sentences(markdown):
        where = _source_line(source, sentence) or f"{line} of the rendered page"
        problems.append(f"{page_path}, line {where}: a sentence starts with a digit ('{sentence[:SNIPPET]}'); "
                        "write the count as a word (`{{ n | spell }}`) or turn the sentence round")
    return problems


def digit_sentences(markdown: str) -> list[Line]:
    """(rendered line, sentence start) for each sentence of running text that starts with a digit."""
    found = []
    for block in running_text(list(enumerate(markdown.splitlines(), 1))):
        found += _digit_starts(block)
    return found


# ---------------------------------------------------------------- the blocks of running text
def running_text(lines: list[Line]) -> list[list[Line]]:
    """The paragraphs (each a list of lines) of running text in Markdown lines, list items and
    admonitions opened, everything else skipped."""
    blocks: list[list[Line]] = []
    paragraph: list[Line] = []
    i = 0

    def close():
        if paragraph:
            blocks.append(list(paragraph))
            paragraph.clear()

    while i < len(lines):
        number, text = lines[i]
        stripped = text.strip()
        indent = len(text) - len(text.lstrip(" "))
        if not stripped:
            close()
            i += 1
        elif FENCE.match(stripped):
            close()
            i = _after_fence(lines, i)
        elif paragraph and SETEXT_UNDERLINE.match(stripped) and indent < 4:
            paragraph.clear()  # the paragraph was a heading
            i += 1
        elif not paragraph and indent >= 4:
            i = _after_indented(lines, i)  # an indented code block
        elif HEADING.match(stripped) or TABLE_ROW.match(stripped):
            close()
            i = i + 1 if HEADING.match(stripped) else _after_paragraph(lines, i)
        elif _is_html_block(stripped) and not paragraph:
            i = _after_html(lines, i)
        elif ADMONITION.match(stripped):
            close()
            body, i = _indented_body(lines, i + 1, indent + 4)
            blocks += running_text(body)
        elif LIST_ITEM.match(stripped) and indent < 4:
            close()
            marker = LIST_ITEM.match(stripped)
            width = indent + len(marker.group(0))
            body, i = _indented_body(lines, i + 1, min(width, indent + 4), lazy=True)
            blocks += running_text([(number, stripped[len(marker.group(0)):])] + body)
        else:
            paragraph.append((number, stripped))
            i += 1
    close()
    return blocks


def _after_fence(lines: list[Line], i: int) -> int:
    fence = FENCE.match(lines[i][1].strip()).group(1)
    i += 1
    while i < len(lines) and not lines[i][1].strip().startswith(fence):
        i += 1
    return i + 1


def _after_indented(lines: list[Line], i: int) -> int:
    while i < len(lines) and (not lines[i][1].strip() or lines[i][1].startswith("    ")):
        i += 1
    return i


def _after_paragraph(lines: list[Line], i: int) -> int:
    while i < len(lines) and lines[i][1].strip():
        i += 1
    return i


BLOCK_TAGS = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption",
              "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "iframe", "li",
              "nav", "noscript", "ol", "p", "pre", "script", "section", "style", "summary", "svg", "table",
              "tbody", "td", "tfoot", "th", "thead", "tr", "ul"}
VOID_TAGS = {"br", "hr", "img", "input", "link", "meta", "source", "wbr", "col", "area", "base", "embed"}


def _is_html_block(stripped: str) -> bool:
    m = HTML_BLOCK.match(stripped)
    return bool(m) and m.group(2).lower() in BLOCK_TAGS or stripped.startswith("<!--")


def _after_html(lines: list[Line], i: int) -> int:
    """Past a raw HTML block: until its first element is closed (blank lines inside it included,
    as Python-Markdown reads it), or, for a lone or self-closed tag, until a blank line."""
    depth = 0
    while i < len(lines):
        for m in re.finditer(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*?(/?)>", lines[i][1]):
            closing, name, self_closed = m.groups()
            if name.lower() in VOID_TAGS or self_closed:
                continue
            depth += -1 if closing else 1
        i += 1
        if depth <= 0 and (i >= len(lines) or not lines[i][1].strip() or depth < 0):
            return i
    return i


def _indented_body(lines: list[Line], i: int, width: int, lazy: bool = False) -> tuple[list[Line], int]:
    """The lines that belong to a container (a list item, an admonition): blank, or indented by
    `width`, de-indented; with `lazy`, also unindented lines that continue its first paragraph."""
    body: list[Line] = []
    while i < len(lines):
        number, text = lines[i]
        if text.strip() and text[:width].strip() == "":
            body.append((number, text[width:]))
        elif not text.strip():
            body.append((number, ""))
        elif lazy and body == [] and not _starts_block(text.strip()):
            body.append((number, text.strip()))
        elif lazy and body and body[-1][1].strip() and not _starts_block(text.strip()):
            body.append((number, text.strip()))
        else:
            break
        i += 1
    while body and not body[-1][1].strip():  # trailing blank lines end the container
        body.pop()
        i -= 1
    return body, i


def _starts_block(stripped: str) -> bool:
    return bool(LIST_ITEM.match(stripped) or HEADING.match(stripped) or TABLE_ROW.match(stripped)
                or FENCE.match(stripped) or ADMONITION.match(stripped) or _is_html_block(stripped))


# ---------------------------------------------------------------- sentences in a paragraph
def _digit_starts(block: list[Line]) -> list[Line]:
    """The sentences of one paragraph that start with a digit, with the line each starts on."""
    text, line_of = _plain(block)
    starts = [0] + [m.end() for m in SENTENCE_END.finditer(text) if not _after_abbreviation(text, m.start())]
    found = []
    for start in starts:
        at = _first_word(text, start)
        if at < len(text) and text[at].isdigit():
            found.append((line_of(at), text[at:].split("\n")[0].strip()))
    return found


def _plain(block: list[Line]):
    """The paragraph as text (links, emphasis, attribute lists, tags and entities reduced to what
    a reader sees), and a function from a character position to its line number."""
    lines = []
    for number, text in block:
        plain = unescape(EMPHASIS.sub("", TAG.sub("", LINK.sub(r"\1", ATTR_LIST.sub("", text)))))
        lines.append((number, plain))
    text = "\n".join(plain for _, plain in lines)
    ends = []
    position = 0
    for number, plain in lines:
        position += len(plain) + 1
        ends.append((position, number))

    def line_of(at: int) -> int:
        return next(number for end, number in ends if at < end)

    return text, line_of


def _first_word(text: str, at: int) -> int:
    """Where the words of a sentence begin: past white space, markup and symbols (*, _, «, ✓)
    and past rule ids in a marker."""
    while at < len(text):
        if not text[at].isalnum():
            at += 1
            continue
        code = CODE_ID.match(text, at)
        if code and (code.end() == len(text) or not text[code.end()].isalnum()):
            at = code.end()
            continue
        return at
    return at


def _after_abbreviation(text: str, period: int) -> bool:
    if text[period] != ".":
        return False
    word = re.search(r"([A-Za-zÆØÅæøå.]+)$", text[:period])
    return bool(word) and word.group(1).lower() in ABBREVIATIONS


# ---------------------------------------------------------------- back to the page source
def _source_lines(page_path: Path) -> list[str]:
    try:
        return Path(page_path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _source_line(source: list[str], sentence: str) -> int | None:
    """The one source line holding the words after the sentence's leading number (the number
    itself is a template tag there), or None when no such line is found or more than one."""
    prose = re.match(r"[\w\s,;:.!?«»\"'–-]*", re.sub(r"^[\d\s\u00a0.,%]+", "", sentence)).group(0)
    words = prose.split()
    for count in (5, 3):
        if len(words) < count:
            continue
        phrase = " ".join(words[:count])
        lines = [number for number, text in enumerate(source, 1) if phrase in " ".join(text.split())]
        if len(lines) == 1:
            return lines[0]
    return None
