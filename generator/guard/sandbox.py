"""The page sources' sandbox: a page is content, not code.

A page source (docs/<lang>/pages/*.md) is Markdown with values and calls in Jinja's syntax,
rendered in a `SandboxedEnvironment` whose reach is closed:

- names: the language's context (data: dicts, lists, text, numbers) and the page functions
  (generator/render/pages.py PageFunctions); no Jinja globals (range, cycler, joiner, namespace,
  lipsum, dict), no `self`, `varargs`, `kwargs`;
- attributes: none. `rules.target_sum` reads the key of a dict; every Python attribute
  (`__class__`, `items`, `format`…) is refused;
- filters: the closed set FILTERS (ours: num, pct, card…; Jinja's: join, map, first…), no
  `safe`, `format`, `attr`, `center`…; sequence filters refuse text (no counting its letters);
- tags: no include, import, extends (a page is one file), no autoescape switch, no recursive
  loops, no `~` (joins go through `join`, which counts), no list or dict literals;
- numbers: a number, or text holding a digit of any Unicode kind, may stand in a tag only as a
  card code (`"3S" | card`), an index (`chapters[-1]`), a comparison (`== 0`), a selector's
  argument (`selectattr("rank", "equalto", "3")`) or a page function's argument: it can never
  be printed. What is printed is checked again as it is printed (`finalize`): a number must be
  a value of the data, tagged with its path (generator/render/sourced.py `Sourced`), and is
  written in the locale's way; every number shown is noted with its path (`ShownNumbers`);
- arithmetic: its result is a `Computed` number, which a page may compare or choose by but never
  print or format (the error names the expression); none on true/false, no `**`, no repetition
  of text or lists, no `%` formatting;
- bounds, per page: MAX_ITERATIONS loop passes, MAX_CALLS calls, MAX_OUTPUT characters,
  PAGE_SECONDS of rendering, whole numbers of MAX_NUMBER_BITS (refused before they are computed). The whole build is bounded by generator/guard/limits.py.

Every refusal is a PageRuleError (at parse time, with the line) or a SandboxLimit (at render
time; generator/render/pages.py finds the line).
"""
from __future__ import annotations

import time
from datetime import date

import jinja2
from jinja2 import BaseLoader, TemplateNotFound, TemplateSyntaxError, Undefined, nodes
from jinja2 import filters as jinja_filters
from jinja2.sandbox import SandboxedEnvironment, SecurityError
from markupsafe import Markup

from generator.errors import BuildError
from generator.guard.typed_digits import typed_digit_at
from generator.render.sourced import (Computed, ShownNumbers, Sourced, SourcedText, PageNumber, computed, data_paths, numbers_in,
                                      path_of, plain)

MAX_ITERATIONS = 20_000   # loop passes in one page (the examples page makes a few hundred)
MAX_CALLS = 20_000        # function and macro calls in one page
MAX_OUTPUT = 4_000_000    # characters of one rendered page (the largest today is under 200,000)
PAGE_SECONDS = 20.0       # rendering one page (today: well under a second)
# Whole numbers a page's arithmetic may reach. One multiplication of huge integers is one step of
# Python's that no clock can stop (squaring a number 25 times ran 80 s past PAGE_SECONDS), so
# the size of a result is judged before it is computed. The data's largest values are far below.
MAX_NUMBER_BITS = 256
# What a printed value becomes in the text the page wrote itself (typed_text): a character, as
# the value is on the page, so that «{{ s.site_name }} 12. kort» stays a paragraph, not a list.
# U+FFFC OBJECT REPLACEMENT CHARACTER: no number, no markup, and never in a page's own words.
PROBE_VALUE = "\ufffc"

# Jinja's own filters a page may use (beside the generator's, see make_environment). Those that
# walk a sequence refuse text: counting or listing the letters of a string a page typed would
# make a number the data did not supply.
SEQUENCE_FILTERS = ("first", "last", "join", "length", "list", "map", "select", "reject",
                    "selectattr", "rejectattr", "sort", "reverse", "unique")
TEXT_FILTERS = ("capitalize", "lower", "upper", "title", "trim", "escape", "e")
# Filters whose input may be a constant holding digits: they turn a card code or a move's
# notation into words (the number guard reads their output like any other).
CODE_FILTERS = ("card", "move")
# Filters whose arguments choose items of the data (`selectattr("rank", "equalto", "3")`):
# the items are printed, never the arguments.
SELECTOR_FILTERS = ("selectattr", "rejectattr", "select", "reject")
REFUSED_NAMES = {"self", "varargs", "kwargs", "range", "cycler", "joiner", "namespace", "lipsum", "dict"}


class PageRuleError(TemplateSyntaxError):
    """A page source breaks a rule of the sandbox (found when it is parsed)."""


class SandboxLimit(SecurityError):
    """A page went past one of its bounds, or asked for something the sandbox refuses."""


# ---------------------------------------------------------------- the rules on a page's syntax tree

def tree_problems(tree: nodes.Template, page_functions: frozenset[str]) -> list[tuple[int, str]]:
    """(line, problem) for everything in a parsed page source that the sandbox refuses."""
    problems: list[tuple[int, str]] = []

    def refuse(node, problem):
        problems.append((node.lineno, problem))

    def walk(node, may_hold_numbers=False):
        if isinstance(node, nodes.Output):  # `{{ none }}` itself: Jinja prints it while compiling, past finalize
            for child in node.nodes:
                if isinstance(child, nodes.Const) and child.value is None:
                    refuse(child, PRINTED_NULL)
        if isinstance(node, (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)):
            refuse(node, "a page may not include, import or extend another template; it is one file")
        elif isinstance(node, (nodes.EvalContextModifier, nodes.ScopedEvalContextModifier)):
            refuse(node, "a page may not switch escaping off (autoescape)")
        elif isinstance(node, nodes.For) and node.recursive:
            refuse(node, "a page may not use recursive loops")
        elif isinstance(node, nodes.Concat):
            refuse(node, "'~' is not available in a page; write the text outside the tag, or use join")
        elif isinstance(node, (nodes.List, nodes.Dict)) or (isinstance(node, nodes.Tuple) and node.ctx == "load"):
            refuse(node, "a page may not write lists or mappings of its own; use the data's")
        elif isinstance(node, nodes.Name) and node.name in REFUSED_NAMES:
            refuse(node, f"'{node.name}' is not available in a page")
        elif isinstance(node, nodes.Getattr) and node.attr.startswith("_"):
            refuse(node, f"'.{node.attr}' is not available in a page (no Python attributes)")
        elif isinstance(node, nodes.Const) and not may_hold_numbers and _holds_number(node.value):
            refuse(node, f"a number typed by hand ({node.value!r}) in a tag; use a value from the "
                         "verified data or docs/facts.yml")
        if isinstance(node, nodes.Filter) and node.name in CODE_FILTERS and node.node is not None:
            walk(node.node, True)
            for child in [*node.args, *node.kwargs]:
                walk(child, may_hold_numbers)
            return
        if isinstance(node, nodes.Filter) and node.name in SELECTOR_FILTERS:
            if node.node is not None:
                walk(node.node, may_hold_numbers)
            for child in [*node.args, *node.kwargs]:
                walk(child, True)
            return
        if isinstance(node, nodes.Getitem):
            walk(node.node, may_hold_numbers)
            walk(node.arg, True)
            return
        if isinstance(node, (nodes.Compare, nodes.Test)):
            for child in node.iter_child_nodes():
                walk(child, True)
            return
        if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name) and node.node.name in page_functions:
            for child in node.iter_child_nodes():  # which example, which step: a choice of data
                walk(child, True)
            return
        for child in node.iter_child_nodes():
            walk(child, may_hold_numbers)

    walk(tree)
    return problems


PRINTED_NULL = "a page printed null (none), which would show as 'None'; print a value the data holds"


def _holds_number(value) -> bool:
    """A number typed in a tag (29, 2.5) is one always; text typed there as the number guard
    decides (generator/guard/typed_digits.py)."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, (int, float, complex)):
        return True
    return isinstance(value, str) and typed_digit_at(value) >= 0


def _bounded_loop_tree(tree: nodes.Template) -> nodes.Template:
    """Every `for` loop's sequence goes through the loop counter (the `_counted` filter)."""
    for loop in tree.find_all(nodes.For):
        loop.iter = nodes.Filter(loop.iter, "_counted", [], [], None, None, lineno=loop.lineno)
    return tree


# ---------------------------------------------------------------- what a page prints

class DataText(str):
    """Text a generator filter made from data (a number in words or digits, a date): printed as it is."""


def number_filter(env: "PageEnvironment", name: str, function):
    """A generator filter that writes a number (num, pct, spell…): it takes only a value of the
    data, writes it in the locale's way and notes it with its path."""
    def filtered(value, *args, **kwargs):
        if isinstance(value, Computed):
            raise SandboxLimit(value.refusal())
        if not isinstance(value, Sourced) or isinstance(value.value, date):
            raise SandboxLimit(f"'{name}' writes a number of the data (rules.deck_size | {name}); "
                               f"it was given {_what(value)}")
        text = function(value.value, *args, **kwargs)
        env.note(value.path, text, name)
        return DataText(text)
    return filtered


def text_filter(env: "PageEnvironment", name: str, function):
    """A generator filter that writes words from text (card, move) or a date (date, month): noted
    with its path when the data gave it."""
    def filtered(value, *args, **kwargs):
        if isinstance(value, PageNumber) and not (isinstance(value, Sourced) and isinstance(value.value, date)):
            raise SandboxLimit(f"'{name}' does not take a number ({value.describe()})")
        text = function(plain(value), *args, **kwargs)
        if path_of(value) is not None:
            env.note(path_of(value), text, name)
        return text if isinstance(text, Markup) else DataText(text)
    return filtered


def _what(value) -> str:
    if isinstance(value, Sourced):
        return f"a date ({value.path})"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value!r}, a number that is no value of the data"
    return f"a {type(value).__name__}"


# ---------------------------------------------------------------- the environment

class PageLoader(BaseLoader):
    """Serves the page set only, each read through `read` (generator/inputs/source_files.py: regular files only)."""

    def __init__(self, pages: dict, read):
        self.pages = pages  # name → Path
        self.read = read

    def get_source(self, environment, template):
        path = self.pages.get(template)
        if path is None:
            raise TemplateNotFound(template)
        text = self.read(path)
        return text, str(path), lambda: False


class PageEnvironment(SandboxedEnvironment):
    """The sandbox described above. `begin_page()` resets the bounds for each page."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})
    intercepted_unops = frozenset({"-", "+"})

    def __init__(self, *args, page_functions: frozenset[str] = frozenset(), **kwargs):
        super().__init__(*args, **kwargs)
        self.page_functions = page_functions
        self.globals.clear()
        self.filters = {name: _text_refusing(jinja_filters.FILTERS[name], name) for name in SEQUENCE_FILTERS}
        self.filters.update({name: jinja_filters.FILTERS[name] for name in TEXT_FILTERS})
        self.filters["join"] = _counted_join
        self.filters["length"] = _text_refusing(_sourced_length, "length")
        self.filters["_counted"] = self._counted
        # Jinja's tests (divisibleby, gt, equalto…) answer true or false: they see plain values.
        self.tests = {name: _on_plain_values(test) for name, test in self.tests.items()}
        self.shown = ShownNumbers()
        self.format_number = str  # the locale's way (generator/render/pages.py make_environment sets it)
        self.number_writers = (str,)  # every way a page function writes a number (make_environment too)
        # Given the context, finalize runs as the page renders, for constants too: Jinja would
        # otherwise fold `{{ "l'ess" }}` into the page's own text, escaped (&#39;), at compile time.
        self.finalize = jinja2.pass_context(lambda context, value: self.finalize_value(value))
        self.begin_page()

    # -- the bounds
    def begin_page(self, probe: bool = False) -> None:
        """Resets the bounds. With `probe`, every printed value is PROBE_VALUE and every page
        function's output empty: what is left is the text the page itself wrote (see typed_text)."""
        self.iterations = self.calls = 0
        self.started = time.monotonic()
        self.probe = probe

    def _tick(self) -> None:
        if time.monotonic() - self.started > PAGE_SECONDS:
            raise SandboxLimit(f"the page took more than {PAGE_SECONDS:g} s to render")

    def _counted(self, sequence):
        if isinstance(sequence, str):
            raise SandboxLimit("a loop over text (its letters); loop over the data's lists")
        for item in sequence:
            self.iterations += 1
            if self.iterations > MAX_ITERATIONS:
                raise SandboxLimit(f"more than {MAX_ITERATIONS:,} loop passes in one page")
            self._tick()
            yield item

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja's signature)
        __self.calls += 1
        if __self.calls > MAX_CALLS:
            raise SandboxLimit(f"more than {MAX_CALLS:,} calls in one page")
        __self._tick()
        if __self.probe and getattr(__obj, "page_function", False):
            return Markup("")
        result = super().call(__context, __obj, *args, **kwargs)
        if getattr(__obj, "page_function", False):  # its numbers come from the bundle it reads
            shown = numbers_in(result)
            if shown and not __self.probe:
                roots = __obj.data_roots(*args, **kwargs)
                sources = data_paths(__self.globals, roots, __self.number_writers)
                for text in shown:
                    if text not in sources:  # the generator's own mistake: a page function computed it
                        raise BuildError(f"{__obj.__name__}() shows {text!r}, which no value of its data "
                                         f"({', '.join(roots) or 'none declared'}) is written as; a page function "
                                         "shows the data's values (generator/render/pages.py @reads)")
                    __self.shown.note(f"{__obj.__name__}()", text, "page function", data=sources[text])
        return result

    # -- no Python objects
    def is_safe_attribute(self, obj, attr, value) -> bool:
        return False  # a page reads keys of the data (rules.target_sum), never attributes

    def wrap_str_format(self, value):
        return None  # text's format and format_map are attributes like any other: refused

    def unsafe_undefined(self, obj, attribute):
        return self.undefined(f"'.{attribute}' is not available in a page (no Python attributes)",
                              obj=obj, name=attribute, exc=SecurityError)

    def note(self, path: str, shown: str, how: str) -> None:
        if not self.probe:
            self.shown.note(path, shown, how)

    # -- arithmetic: allowed to compare and choose with, its result never printed (Computed)
    def call_binop(self, context, operator, left, right):
        a, b = plain(left), plain(right)
        if isinstance(a, bool) or isinstance(b, bool):
            raise SandboxLimit(f"arithmetic on true/false ({operator})")
        if operator == "**":
            raise SandboxLimit("'**' is not available in a page")
        if isinstance(a, (str, list, tuple)) or isinstance(b, (str, list, tuple)):
            if operator != "+":
                raise SandboxLimit(f"'{operator}' on text or lists is not available in a page")
            if len(a) + len(b) > MAX_OUTPUT:
                raise SandboxLimit(f"a value longer than {MAX_OUTPUT:,} characters")
        elif isinstance(a, int) and isinstance(b, int) and _result_bits(operator, a, b) > MAX_NUMBER_BITS:
            raise SandboxLimit(f"arithmetic on whole numbers past {MAX_NUMBER_BITS} bits ({operator}); "
                               "a page compares or chooses by the data's numbers, it does not grow them")
        result = super().call_binop(context, operator, a, b)
        return computed(result, operator, left, right) if isinstance(result, (int, float)) else result

    def call_unop(self, context, operator, arg):
        if isinstance(plain(arg), bool):
            raise SandboxLimit(f"arithmetic on true/false ({operator})")
        return computed(super().call_unop(context, operator, plain(arg)), operator, arg)

    # -- parsing: the rules on the tree, and the loops counted
    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        problems = tree_problems(tree, self.page_functions)
        if problems:
            line, problem = problems[0]
            raise PageRuleError(problem, line, name, filename)
        return _bounded_loop_tree(tree)

    # -- printing: what reaches the page
    def finalize_value(self, value):
        self._tick()
        if self.probe:
            return PROBE_VALUE
        if isinstance(value, (Markup, DataText, Undefined)):  # Undefined: StrictUndefined says which name
            return value
        if value is None:
            raise SandboxLimit(PRINTED_NULL)
        if isinstance(value, bool):
            raise SandboxLimit("a page printed true/false; print words from strings.yml instead")
        if isinstance(value, Computed):
            raise SandboxLimit(value.refusal())
        if isinstance(value, (date, Sourced)) and isinstance(plain(value), date):
            raise SandboxLimit("a date printed raw; use `| date` or `| month`")
        if isinstance(value, Sourced):
            text = self.format_number(value.value)
            self.note(value.path, text, "printed")
            return DataText(text)
        if isinstance(value, (int, float)):
            raise SandboxLimit(f"a page printed {value!r}, a number that is no value of the data")
        if isinstance(value, SourcedText):
            self.note(value._path, str(value), "printed")
            return value
        if isinstance(value, str):
            if typed_digit_at(value) >= 0:  # data text a filter or '+' made anew: its source is lost
                raise SandboxLimit(f"a page printed text holding a number ({value[:40]!r}) that a filter or '+' "
                                   "made from the data; print the data's value as it is")
            return value
        kind = "dict" if isinstance(value, dict) else "list" if isinstance(value, list) else type(value).__name__
        raise SandboxLimit(f"a page printed a {kind}; print a value, not a mapping or list")


def _result_bits(operator: str, a: int, b: int) -> int:
    """At most how many bits `a operator b` has, known before computing it."""
    if operator == "*":
        return a.bit_length() + b.bit_length()
    return max(a.bit_length(), b.bit_length()) + 1


def _text_refusing(function, name):
    # Jinja passes a context or environment first to the filters marked so (jinja_pass_arg).
    offset = 1 if hasattr(function, "jinja_pass_arg") else 0

    def filtered(*args, **kwargs):
        if len(args) > offset and isinstance(args[offset], str):
            raise SandboxLimit(f"'{name}' walks a list; on text it would count or list its letters")
        return function(*args, **kwargs)
    if offset:
        filtered.jinja_pass_arg = function.jinja_pass_arg
    return filtered


def _on_plain_values(test):
    def tested(*args, **kwargs):
        return test(*map(plain, args), **{k: plain(v) for k, v in kwargs.items()})
    if hasattr(test, "jinja_pass_arg"):
        tested.jinja_pass_arg = test.jinja_pass_arg
    return tested


def _sourced_length(value):
    """The length of a list or mapping of the data is a value of the data (`examples | length`);
    of one the page made (`… | select(…) | list`), a number computed in the page."""
    path = path_of(value)
    if path is not None:
        return Sourced(len(value), f"{path} | length")
    return Computed(len(value), "… | length")


@jinja_filters.pass_eval_context
def _counted_join(eval_ctx, value, d: str = "", attribute=None):
    if isinstance(value, str):
        raise SandboxLimit("'join' walks a list; on text it would list its letters")
    items = list(value)
    if sum(len(str(item)) for item in items) + len(str(d)) * max(len(items) - 1, 0) > MAX_OUTPUT:
        raise SandboxLimit(f"a value longer than {MAX_OUTPUT:,} characters")
    return jinja_filters.do_join(eval_ctx, items, d, attribute)


def typed_text(env: PageEnvironment, template) -> str:
    """The page rendered with every value a word (PROBE_VALUE) and every page function's output
    left out: the text its source wrote itself, as Jinja sees it (a `{% raw %}` block
    included), for the number guard."""
    env.begin_page(probe=True)
    try:
        return render_bounded(template)
    finally:
        env.probe = False


def render_bounded(template) -> str:
    """The page, its length counted as it is written (MAX_OUTPUT)."""
    parts, size = [], 0
    for chunk in template.generate():
        size += len(chunk)
        if size > MAX_OUTPUT:
            raise SandboxLimit(f"the page is longer than {MAX_OUTPUT:,} characters")
        parts.append(chunk)
    return "".join(parts)
