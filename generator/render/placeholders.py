"""Filling the {placeholders} of strings.yml: names only, nothing Python's format() could do more.

str.format reads attributes ({deal.__class__}), indexes ({a[0]}), conversions ({a!r}) and
format specifications, nested ones too: `{number:>{deal}{deal}}` pads to a width made of the
deal's digits and grew one build to 1.3 GB. Here a placeholder is a plain name, `{deal}`, and
nothing else: `format_problem` says what is wrong with a template (the lint names file and key),
`fill` fills one (refusing the same).
"""
from __future__ import annotations

import string

from generator.errors import BuildError

_FORMATTER = string.Formatter()


def format_problem(template: str) -> str | None:
    """None for a template whose placeholders are plain names; otherwise what is wrong."""
    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError as e:
        return f"not a valid template ({e}); write a brace as {{{{ or }}}}"
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if not field.isidentifier():
            return f"'{{{field}}}': a placeholder is a plain name such as {{deal}}"
        if spec or conversion:
            return f"'{{{field}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}': " \
                   f"no format specification or conversion in a string; write {{{field}}}"
    return None


def fill(template: str, **values) -> str:
    """The template with each {name} replaced by str(values[name]); KeyError for a name not given."""
    problem = format_problem(template)
    if problem:
        raise BuildError(f"the string {template[:60]!r}: {problem}")
    out = []
    for literal, field, _, _ in _FORMATTER.parse(template):
        out.append(literal)
        if field is not None:
            out.append(str(values[field]))
    return "".join(out)


def template_problems(path, strings, lines: dict, prefix: str = "") -> list[str]:
    """format_problem for every string of a strings file, naming file, line and key."""
    problems = []
    if isinstance(strings, dict):
        for key, value in strings.items():
            problems += template_problems(path, value, lines, f"{prefix}{key}.")
    elif isinstance(strings, list):
        for i, value in enumerate(strings):
            problems += template_problems(path, value, lines, f"{prefix}{i}.")
    elif isinstance(strings, str) and ("{" in strings or "}" in strings):
        problem = format_problem(strings)
        if problem:
            key = prefix[:-1]
            line = lines.get(key)
            problems.append(f"{path}{f', line {line}' if line else ''}: string '{key}': {problem}")
    return problems
