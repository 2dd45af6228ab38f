"""The strict loader: PyYAML's SafeLoader with YAML 1.1's surprises and expansions taken out.

Refusals happen while the document is composed or constructed, before any value is used:
an anchor is refused where it is written, so an alias bomb never gets to expand.
"""
from __future__ import annotations

import re

import yaml

MAX_BYTES = 256 * 1024  # the largest hand-written file here is a few KB
MAX_DEPTH = 32          # examples nest 4 levels, strings.yml 3; a 100,000-deep file would exhaust the stack
MAX_DIGITS = 20         # any count or deal number fits; int() refuses over 4,300 digits with a traceback

INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
LEADING_ZERO = re.compile(r"[-+]?0[0-9]")


class Refused(yaml.YAMLError):
    """Valid YAML that this loader does not accept; `mark` is where it starts."""

    def __init__(self, mark, problem: str):
        super().__init__(problem)
        self.mark = mark
        self.problem = problem


def shown(value, limit: int = 40) -> str:
    """A value for an error message: repr (control characters escaped), cut to one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


class StrictLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core scalars, no anchors/aliases/tags, unique keys, bounded depth."""

    # YAML 1.2 core schema only: no yes/no/on/off, no octal 033, no 0x1F, 1_000, 1:20, dates or '<<'.
    yaml_implicit_resolvers: dict = {}
    yaml_constructors = dict(yaml.SafeLoader.yaml_constructors)

    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise Refused(event.start_mark, f"aliases (*{event.anchor}) are not allowed; write the value out")
        if event.anchor is not None:
            raise Refused(event.start_mark, f"anchors (&{event.anchor}) are not allowed; write the value out")
        if event.tag is not None:
            tag = event.tag.replace("tag:yaml.org,2002:", "!!")[:40]  # the reader already refused control characters
            raise Refused(event.start_mark, f"tags ({tag}) are not allowed; quote the value if it is text")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Refused(event.start_mark, f"nested more than {MAX_DEPTH} levels deep")
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node, deep=False):
        """A dict; a repeated key is refused at its second occurrence instead of silently winning."""
        mapping, first_line = {}, {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise Refused(key_node.start_mark, "a key must be a single word or number, not a list or mapping")
            key = self.construct_object(key_node, deep=deep)
            if key in mapping:
                raise Refused(key_node.start_mark,
                              f"duplicate key {shown(key)} (first at line {first_line[key]}); write each key once")
            first_line[key] = key_node.start_mark.line + 1
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping

    def construct_strict_number(self, node):
        """An int or float; too many digits or a leading zero is refused (YAML 1.1 reads 033 as 27, 1.2 as 33)."""
        text = self.construct_scalar(node)
        digits = sum(c.isdigit() for c in text)
        if digits > MAX_DIGITS:
            raise Refused(node.start_mark, f"a number of {digits:,} digits; at most {MAX_DIGITS} are allowed")
        if LEADING_ZERO.match(text):
            raise Refused(node.start_mark, f"the number {text} has a leading zero; "
                                           f"remove it, or quote the value (\"{text}\") if it is text")
        return int(text) if node.tag == INT_TAG else self.construct_yaml_float(node)


StrictLoader.add_constructor(INT_TAG, StrictLoader.construct_strict_number)
StrictLoader.add_constructor(FLOAT_TAG, StrictLoader.construct_strict_number)
# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution), in this order.
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"),
                                   ["~", "n", "N", ""])
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                   list("tTfF"))
StrictLoader.add_implicit_resolver(INT_TAG, re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789"))
StrictLoader.add_implicit_resolver(
    FLOAT_TAG,
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
               r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+.0123456789"))


def compose_and_construct(text: str):
    """(data, root node) of a single-document text; raises Refused or another yaml.YAMLError."""
    loader = StrictLoader(text)
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()
