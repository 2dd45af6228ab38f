"""Every repository path that a comment, a docstring or a Markdown document names exists.

A path is recognised by one of the repository's top-level folders at its start (`app/`, `bench/`,
`docs/`, `examples/`, `generator/`, `strict_yaml/`, `tests/`, `tools/`, `verify/`), standing on its
own: `assets/app/x.js` or `../shared/x.md` are not repository paths. Only prose is read: the
comments and docstrings of Python, the comments of JavaScript, CSS, the HTML templates, YAML, TOML
and the Makefile, and the whole of a Markdown file. String literals are code, so a test's made-up
file names are left alone. Placeholders and globs (`docs/<lang>/…`, `app/core/*.js`,
`bench/solve_deals*.{mjs,py}`, `docs/CODE/`, `examples/deal-N.yaml`) name no single file and are
skipped. The files read are the ones git keeps or would keep (`git ls-files`, untracked files
included, ignored ones left out: `.venv/`, `build/`, `site/`, `node_modules/`, …).

A path that is moved or deleted must take every mention along: the failure lists each mention
that names a missing path, with its file and line.
"""
from __future__ import annotations

import ast
import io
import os
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOP_FOLDERS = ("app", "bench", "docs", "examples", "generator", "strict_yaml", "tests", "tools", "verify")
# Not preceded by a name's character, a '/' or a '.' (a folder further down, or ../): then one of
# the folders, and every character a path or a placeholder in it can hold.
PATH = re.compile(r"(?<![\w./\\-])(?:" + "|".join(TOP_FOLDERS) + r")/[\w./<>{}*…$\[\]-]*")
TRAILING = ".,:;)]}'\"`"  # punctuation after a path ends the sentence, not the path
PLACEHOLDER_CHARACTERS = set("<>{}*…$[]")
PLACEHOLDER_WORDS = {"CODE", "N", "LANG", "ID", "NAME"}  # docs/CODE/, examples/deal-N.yaml
# Paths that a walkthrough makes, named as the reader will see them.
EXAMPLE_PATHS = {
    "docs/sv/": "the language the README's and docs/TRANSLATING.md's walkthrough adds (make language CODE=sv)",
}
# Folders a walk leaves out when there is no git to ask (the same ones .gitignore names).
SKIPPED_FOLDERS = {".git", ".venv", "node_modules", "__pycache__", ".hypothesis", ".pytest_cache", "mutants",
                   ".stryker-tmp"}
SKIPPED_AT_ROOT = {"build", "site", "test-artifacts", "html"}
HASH_COMMENTED = (".yml", ".yaml", ".toml")
HASH_COMMENTED_NAMES = ("Makefile", ".gitignore")


def repository_files(root: Path) -> list[str]:
    """The files of the repository as paths relative to `root`: what git keeps or would keep, or,
    without git, a walk that leaves out the folders .gitignore names."""
    if (root / ".git").exists():
        try:
            listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                                    cwd=root, capture_output=True, check=True).stdout.decode("utf-8")
            return sorted(p for p in listed.split("\0") if p and (root / p).is_file())
        except (OSError, subprocess.CalledProcessError):
            pass
    found = []
    for top, folders, names in os.walk(root):
        here = Path(top)
        folders[:] = [f for f in folders if f not in SKIPPED_FOLDERS and not (here == root and f in SKIPPED_AT_ROOT)]
        found += [(here / name).relative_to(root).as_posix() for name in names]
    return sorted(found)


def python_prose(text: str):
    """(line, text) of each comment and docstring of a Python file."""
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.add((first.value.lineno, first.value.col_offset))
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and token.start in docstrings):
            yield token.start[0], token.string


REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")
REGEX_AFTER_WORD = re.compile(r"\b(?:return|typeof|case|in|of|void|delete)\s*$")


def javascript_comments(text: str):
    """(line, text) of each comment of a JavaScript file: strings, template strings and regular
    expression literals are stepped over, so a '//' inside one is no comment."""
    i, n, line, before = 0, len(text), 1, ""
    while i < n:
        c = text[i]
        if c == "\n":
            line, i = line + 1, i + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield line, text[i:end]
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            yield line, text[i:end]
            line, i = line + text.count("\n", i, end), end
        elif c in "'\"`":
            j = i + 1
            while j < n and text[j] != c and (c == "`" or text[j] != "\n"):
                j += 2 if text[j] == "\\" else 1
            line, i, before = line + text.count("\n", i, j + 1), j + 1, c
        elif c == "/" and (before == "" or before in REGEX_BEFORE or REGEX_AFTER_WORD.search(text[max(0, i - 12):i])):
            j, in_class = i + 1, False
            while j < n and text[j] != "\n" and (in_class or text[j] != "/"):
                if text[j] == "\\":
                    j += 1
                elif text[j] in "[]":
                    in_class = text[j] == "["
                j += 1
            i, before = j + 1, "/"
        else:
            if not c.isspace():
                before = c
            i += 1


def delimited(text: str, start: str, end: str):
    """(line, text) of each block from `start` to `end` (CSS and HTML comments, Jinja's {# #})."""
    for m in re.finditer(re.escape(start) + ".*?" + re.escape(end), text, re.S):
        yield text.count("\n", 0, m.start()) + 1, m.group(0)


def hash_comments(text: str):
    """(line, text) of each '#' comment of YAML, TOML or a Makefile (a '#' starting the line or after a space)."""
    for number, line in enumerate(text.split("\n"), 1):
        m = re.search(r"(?:^|\s)#.*", line)
        if m:
            yield number, m.group(0)


def prose(relative: str, text: str):
    """(line, text) of the prose of one file; nothing for a kind of file that holds none."""
    name = relative.rsplit("/", 1)[-1]
    if name.endswith(".py"):
        return python_prose(text)
    if name.endswith((".js", ".mjs")):
        return javascript_comments(text)
    if name.endswith(".css"):
        return delimited(text, "/*", "*/")
    if name.endswith(".html"):
        return [*delimited(text, "<!--", "-->"), *delimited(text, "{#", "#}")]
    if name.endswith(".md"):
        return [(1, text)]
    if name.endswith(HASH_COMMENTED) or name in HASH_COMMENTED_NAMES:
        return hash_comments(text)
    return []


def is_placeholder(path: str) -> bool:
    return bool(PLACEHOLDER_CHARACTERS & set(path)) or bool(PLACEHOLDER_WORDS & set(re.split(r"[/._-]", path)))


def named_paths(root: Path):
    """(file, line, path) of every repository path the prose of the files under `root` names."""
    for relative in repository_files(root):
        try:
            text = (root / relative).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # pictures, fonts and other data hold no prose
        for line, piece in prose(relative, text):
            for m in PATH.finditer(piece):
                yield relative, line + piece.count("\n", 0, m.start()), m.group(0).rstrip(TRAILING)


def missing_paths(root: Path) -> list[str]:
    """'file:line: path' for each named path that is not in the repository under `root`."""
    return [f"{file}:{line}: {path}" for file, line, path in named_paths(root)
            if not is_placeholder(path) and not any(path.startswith(p) for p in EXAMPLE_PATHS)
            and not (root / path).exists()]


def test_every_path_named_in_comments_docstrings_and_documents_exists():
    missing = missing_paths(ROOT)
    assert not missing, "paths named but not in the repository (moved or deleted? name the new place):\n" + \
        "\n".join(missing)


def test_a_stale_path_is_named_with_its_file_and_line(tmp_path):
    """The collector itself: what it reads, what it skips, and where it says a mention is."""
    (tmp_path / "verify").mkdir()
    (tmp_path / "verify" / "here.py").write_text(
        '"""Reads verify/here.py and verify/gone.py."""\n'
        'PATH = "verify/made_up_in_code.py"  # docs/<lang>/x.yml, app/core/*.js, docs/CODE/: placeholders\n'
        "def f():\n"
        '    """See tools/old.py, then examples/deal-N.yaml."""  \n'
        "    return 1  # bench/gone.mjs.\n", encoding="utf-8")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "a.js").write_text(
        "const re = /\\/\\/ app\\/in-regex.js/; const s = '// app/in-string.js';\n"
        "/* spans\n   two lines: app/gone.js */ // and verify/here.py\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# x\n\n`generator/gone.py` and `verify/` and ../shared/RULES.md\n",
                                        encoding="utf-8")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "notes.md").write_text("generator/ignored.py\n", encoding="utf-8")
    assert missing_paths(tmp_path) == [
        "README.md:3: generator/gone.py",
        "app/a.js:3: app/gone.js",
        "verify/here.py:1: verify/gone.py",
        "verify/here.py:4: tools/old.py",
        "verify/here.py:5: bench/gone.mjs",
    ]
