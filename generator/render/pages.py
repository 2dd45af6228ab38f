"""Renders one language's page sources (Jinja2 → Markdown) from its filled context.

In a sandbox (generator/guard/sandbox.py): a page reads the data and calls the functions below, and
nothing else; its loops, calls, size and time are bounded. StrictUndefined: a name the context does not have stops the build, naming file and line.
Autoescape: every value a page prints is text (an example's note, a string, a fact), so
`<script>` in a note reaches the reader as the characters `<script>`. The helper functions turn
verified data into Markdown, HTML tables and inline SVG; they escape every value they insert
and return Markup, the only output that is not escaped again.
"""
from __future__ import annotations

import inspect
import re
import sys
import traceback
from html import escape
from pathlib import Path

import jinja2
import jinja2.sandbox
from markupsafe import Markup, escape as markup_escape

from generator.render import picture_slots, svg
from generator.render.game_embed import game_html, replay_html
from generator.render.slugs import slug
from generator.inputs.source_files import read_text
from generator.guard.text_rules import RAW_HTML
from generator.guard.numbers import typed_numbers
from generator.guard.sandbox import (PROBE_VALUE, PageEnvironment, PageLoader, typed_text, PageRuleError, SandboxLimit, number_filter,
                                     text_filter, render_bounded)
from generator.render.sourced import tagged_context
from generator.render.winnable import winnable_data
from generator.inputs import variant_registry
from generator.errors import BuildError
from generator.render.placeholders import fill

# Characters a rule's label may not hold: Markdown or attribute-list markup (see rule()).
# A check's counts that are not counts but times: left out of the checks table, as a time depends on
# the machine (the first run of the independent search is mostly Numba compiling: 27 s against 0.3 s).
MACHINE_FIGURES = ("_seconds",)
LABEL_MARKUP_CHARS = '"{}*_`<>[]\\&'
LABEL_MARKUP = re.compile(f"[{re.escape(LABEL_MARKUP_CHARS)}]")
# The characters Python-Markdown lets a backslash escape; in a heading, unescaped, they could
# make emphasis, a link or an attribute list out of an example's title.
MARKDOWN_CHARS = re.compile(r"([\\`*_{}\[\]()#+\-.!])")


def markdown_text(value) -> Markup:
    """Text for one line of Markdown (a heading): Markdown's characters backslash-escaped first,
    then HTML's escaped (the other way round would break the entities, «&#39;»)."""
    return Markup(escape(MARKDOWN_CHARS.sub(r"\\\1", str(value))))


# The functions a page may call: the closed set (generator/guard/sandbox.py refuses every other name).
PAGE_FUNCTION_NAMES = ("rule", "picture", "chapter_pictures", "pairs_table", "moves_list", "checks_table",
                       "rule_checks_table", "variants_table", "game", "replay", "play_link", "example_index",
                       "summary", "play_variant")


def reads(*roots: str):
    """The data a page function writes its numbers from, as paths of the context (`{example}`:
    the key of the example it is given). The sandbox notes each number the function shows with
    the paths under these whose value is written so (`make numbers`)."""
    def marked(function):
        function.reads = roots
        return function
    return marked


class PageFunctions:
    """The functions a page may call, bound to one language's context."""

    def __init__(self, context: dict, assets_url_of):
        self.c = context
        self.words = context["_words"]
        self.assets_url_of = assets_url_of
        self.page = None  # set while a page renders
        self._ids = 0
        self.pictures: dict[str, str] = {}  # slot name → drawing, put in after MkDocs (picture_slots.py)

    def export(self) -> dict:
        return {name: _markup(getattr(self, name)) for name in PAGE_FUNCTION_NAMES}

    def _example(self, example_id: str) -> dict:
        key = example_id.replace("-", "_") if isinstance(example_id, str) else None
        if key not in self.c["examples"]:
            raise BuildError(f"no example '{example_id}' in the verified bundle (have: {', '.join(self.c['examples'])})")
        return self.c["examples"][key]

    # -- links to the rule checks
    @reads("rules", "pairs")
    def rule(self, rule_id: str) -> str:
        """A quiet check mark after a rule's sentence, linking to the rule's row on the sources
        page. Its name (for screen readers, and the tip shown on hover and focus) is a sentence in the page's
        language, never the rule's id: strings.yml `rule_titles`."""
        if not isinstance(rule_id, str) or rule_id not in self.c["rule_checks"]:
            raise BuildError(f"rule('{rule_id}'): no such rule check in the bundle")
        titles = self.c["s"]["rule_titles"]
        strings = self.words.lang.folder / "strings.yml"
        if rule_id not in titles["rules"]:
            raise BuildError(f"{strings}: rule_titles.rules has no title for the rule '{rule_id}'")
        label = fill(titles["marker"], title=fill(titles["rules"][rule_id], **self._rule_values()))
        if LABEL_MARKUP.search(label):
            # The label goes into a Markdown attribute list, {: … "…" }, where these are markup.
            raise BuildError(f"{strings}: the rule_titles label of '{rule_id}' may not contain any of "
                             f"{' '.join(LABEL_MARKUP_CHARS)} ({label!r})")
        # The sentence shows on hover and on focus from data-tip, by CSS alone (site.css): Material's
        # tooltips cost some 45 ms of script on every load of a page with twenty marks. On the
        # wrapper, and shown as decoration: screen readers read the link's aria-label once.
        return (f'<span class="rule-ref" data-tip="{escape(label)}">[✓](sources.md#{self._rule_anchor(rule_id)})'
                f'{{: aria-label="{escape(label)}" }}</span>')

    def _rule_name(self, rule_id: str) -> str:
        names = self.c["s"].get("rule_names") or {}
        if rule_id not in names:
            raise BuildError(f"{self.words.lang.folder / 'strings.yml'}: rule_names has no name for the rule '{rule_id}'")
        return fill(names[rule_id], **self._rule_values())

    def _rule_anchor(self, rule_id: str) -> str:
        """A rule's row on the sources page, named in the page's language («#regel-antall-vendinger»):
        the table's word for a rule and the rule's name, never its id."""
        word = self.c["s"]["tables"]["rule_checks"]["rule"]
        return slug(f"{word} {self._rule_name(rule_id)}", self.words.lang.code)

    def _rule_values(self) -> dict:
        r = self.c["rules"]
        return {"target_sum": r["target_sum"], "turns_allowed": r["turns_allowed"], "passes": r["passes"],
                "pyramid_cards": r["pyramid_cards"], "deck_size": r["deck_size"], "stock_cards": r["stock_cards"],
                "per_card": r["points"]["per_card"], "row_cleared": r["points"]["row_cleared"], "win": r["points"]["win"],
                "per_unused_turn": r["points"]["per_unused_turn"], "max_deal": self.words.num(r["max_deal"]),
                "min_deal": r["min_deal"], "waste_cards": r["waste_cards"],
                **{name: r["ranks"].index(letter) + 1 for name, letter in
                   (("ace", "A"), ("jack", "J"), ("queen", "Q"), ("king", "K"))}}

    # -- pictures
    @reads("examples.{example}")
    def picture(self, example_id: str, which="opening") -> str:
        ex = self._example(example_id)
        titles = self.c["s"]["picture_titles"]
        highlight = frozenset()
        if which in ("opening", 0):
            position, title = ex["opening"], fill(titles["opening"], deal=ex["deal"])
        else:
            try:
                number = int(which)
            except (TypeError, ValueError, OverflowError):
                number = 0
            if not 1 <= number <= len(ex["steps"]):
                raise BuildError(f"picture('{example_id}', {which!r}): no such move; give \"opening\" or the "
                                 f"number of one of the example's {len(ex['steps'])} moves")
            step = ex["steps"][number - 1]
            kind, *cards = step["move"].split()
            # Removed cards are drawn as ghosts on the position before the move.
            position, highlight = ((step["before"], frozenset(cards)) if kind in ("pair", "king")
                                   else (step["position"], frozenset()))
            title = fill(titles["after"], deal=ex["deal"], number=step["number"], words=step["words"])
        self._ids += 1
        name = f"pic-{ex['id']}-{self._ids}"
        self.pictures[name] = svg.pyramid_svg(position, names=self.words.names, text=self.words.picture_text,
                                              title=title, highlight=highlight, id_prefix=name)
        # The picture's box has its size before it is drawn (the drawing's own proportions), so the
        # browser can skip the style and layout of every picture off screen (site.css
        # content-visibility) without anything moving when one comes into view.
        return (f'<figure class="pyramid-figure">\n<div class="pyramid-picture" style="aspect-ratio: {svg.VIEW_W} / {svg.VIEW_H}">'
                f'{picture_slots.slot(name)}</div>\n<figcaption>{escape(title)}</figcaption>\n</figure>')

    @reads("examples.{example}")
    def chapter_pictures(self, example_id: str) -> str:
        ex = self._example(example_id)
        parts = []
        for chapter in ex["chapters"]:
            parts.append(f'<p class="chapter-title"><strong>{escape(chapter["title"])}</strong></p>\n\n'
                         + self.picture(example_id, chapter["number"] or "opening"))
        return "\n\n".join(parts)

    # -- tables
    @reads("pairs", "king", "rules.target_sum")
    def pairs_table(self) -> str:
        t = self.c["s"]["tables"]["pairs"]
        target = self.c["rules"]["target_sum"]
        rows = [f"| {escape(t['cards'])} | {escape(t['values'])} | {escape(t['sum'])} |", "|---|---|---|"]
        for p in self.c["pairs"]:
            rows.append(f"| {escape(p['low_name'])} + {escape(p['high_name'])} | {p['low']} + {p['high']} | {target} |")
        king = self.c["king"]
        rows.append(f"| {escape(king['name'])} | {king['value']} | {escape(t['king_alone'])} |")
        return "\n".join(rows)

    @reads("examples.{example}")
    def moves_list(self, example_id: str) -> str:
        """An HTML list, not Markdown: a note is plain text, so neither HTML nor Markdown
        (links, images) written in it can become anything but text."""
        ex = self._example(example_id)
        items = []
        for step in ex["steps"]:
            note = f" – <em>{escape(step['note'])}</em>" if step["note"] else ""  # nb/da: a spaced en dash
            items.append(f'<li value="{step["number"]}">{escape(step["words"])}{note}</li>')
        return '<ol class="moves-list">\n' + "\n".join(items) + "\n</ol>"

    @reads("example_list")
    def example_index(self) -> str:
        """The examples page's list of its sections, each a link to its anchor."""
        items = "".join(f'<li><a href="#{markup_escape(ex["anchor"])}">{markup_escape(ex["title"])}</a></li>'
                        for ex in self.c["example_list"])
        return f'<ul class="example-list">{items}</ul>'

    @reads("examples.{example}")
    def summary(self, example_id: str) -> str:
        """An example's summary as its own paragraph (nothing when it has none)."""
        text = self._example(example_id)["summary"]
        return f'<p class="example-summary">{markup_escape(text)}</p>' if text else ""

    @reads("examples.{example}")
    def play_link(self, example_id: str) -> str:
        """A link that opens the game on the front page at the example's deal (app/ui/game.js reads
        #deal=N); the front page holds an anchor of that name for each example (see game())."""
        ex = self._example(example_id)
        front = "" if self.page == "index.md" else "../"
        return (f'<p class="play-deal"><a class="md-button" href="{front}#deal={int(ex["deal"])}">'
                f'{escape(self.c["s"]["example_section"]["play"])}</a></p>')

    @reads("checks")
    def checks_table(self) -> str:
        """What each check counted. Not how long it took (`verify check` prints that, the bundle
        keeps it): a check computed again takes another time, and a page that changed with it
        would make `make serve` rebuild every language for an edit of one example's note."""
        s = self.c["s"]
        t = s["tables"]["checks"]
        rows = [f"| {escape(t['check'])} | {escape(t['counted'])} |", "|---|---|"]
        for check in self.c["checks"]:
            counted = "; ".join(f"{escape(s['count_words'][k])}: {self.words.num(v)}"
                                for k, v in check["counts"].items() if not k.endswith(MACHINE_FIGURES))
            # The check's id is for the checker's output, not for readers: the title says it.
            rows.append(f"| {escape(s['check_titles'][check['id']])} | {counted} |")
        return "\n".join(rows)

    # Counts in the rule sentences that are written as words when small («høyst to ganger»,
    # «fem poeng»), each with the gender of its noun (ganger/gange common, poeng/point neuter).
    SPELLED_COUNTS = {"turns_allowed": "c", "passes": "c", "per_card": "n", "per_unused_turn": "n",
                      "row_cleared": "n", "win": "n"}

    def _sentence_values(self) -> dict:
        """The rule values for running text: small counts as words (Words.spell), the rest as digits."""
        values = self._rule_values()
        return {**values, **{k: self.words.spell(values[k], gender) for k, gender in self.SPELLED_COUNTS.items()}}

    @reads("rule_checks", "rules", "pairs")
    def rule_checks_table(self) -> str:
        """Each rule under its plain name (strings.yml `rule_names`), never its id."""
        s = self.c["s"]
        t = s["tables"]["rule_checks"]
        sentence_values = self._sentence_values()
        anchors = [self._rule_anchor(rid) for rid in self.c["rule_checks"]]
        if len(set(anchors)) < len(anchors):
            raise BuildError(f"{self.words.lang.folder / 'strings.yml'}: two rules share a name in rule_names "
                             "(each names its row on the sources page)")
        body = "".join(
            f'<tr id="{escape(self._rule_anchor(rid))}"><td>{escape(self._rule_name(rid))}</td>'
            f'<td>{escape(fill(s["rules_text"][rid], **sentence_values))}</td>'
            f'<td>{self.words.num(counts["app"])}</td><td>{self.words.num(counts["independent"])}</td></tr>'
            for rid, counts in self.c["rule_checks"].items())
        head = "".join(f"<th>{escape(t[k])}</th>" for k in ("rule", "sentence", "app", "independent"))
        return f'<table class="rule-checks"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'

    @reads("variants")
    def variants_table(self) -> str:
        variants = self.c["variants"]
        if not variants:
            return ""
        s = self.c["s"]
        t = s["tables"]["variants"]
        rows = ["| " + " | ".join(escape(t[k]) for k in ("variant", "deals", "won", "share", "interval")) + " |",
                "|---|---|---|---|---|"]
        names = self._variant_names()
        for v in variants:
            rows.append(f"| {escape(names[v['variant']])} | {self.words.num(v['deals'])} | {self.words.num(v['won'])} "
                        f"| {self.words.pct(v['share'])} | {self.words.pct(v['low'])}–{self.words.pct(v['high'])} |")
        return "\n".join(rows)

    # -- the game and the replay (the app's own modules, copied into the site)
    @reads("example_list", "variants", "survey")
    def game(self) -> str:
        # The examples' play links end in #deal=N: an empty element of that id just before the
        # game makes the browser scroll to the game, and the link's anchor one that exists.
        deals = sorted({ex["deal"] for ex in self.c["example_list"]})
        ids = [f"deal={int(d)}" for d in deals]
        # VARIANTS: the variants page's "play this variant" links end in #deal=N&rules=… (play_variant).
        ids += [f"deal={int(v['pool'][0])}&amp;rules={escape(v['id'])}" for v in self._variants() if v["pool"]]
        # One block of its own (a blank line after it), so Markdown leaves it and the game as they are.
        anchors = ('<div class="deal-anchors">' + "".join(f'<span id="{i}"></span>' for i in ids)
                   + "</div>\n\n") if ids else ""
        return anchors + game_html(self.c["lang"], self.c["_game_strings"], self.c["_pool"],
                                   self.assets_url_of(self.page), self._winnable(), self._variants())

    # VARIANTS: the game's rules choice (generator/render/variant_choice.py) and the variants page's
    # "play this variant" links.
    def _variants(self) -> list[dict]:
        from generator.render.variant_choice import variants_data
        variants_page = ("" if self.page == "index.md" else "../") + "variants/"
        return variants_data(self.c.get("variants"), self.c.get("survey"), self._variant_names(),
                             self.words.pct, self.c["lang"], variants_page)

    def _variant_names(self) -> dict[str, str]:
        """Each variant's name in this language, at the strings key the registry gives it
        (app/core/variant-registry.js); the bundle surveys only variants the registry has."""
        names = variant_registry.names(self.c["s"], str(self.words.lang.folder / "strings.yml"))
        unknown = [v["variant"] for v in self.c.get("variants") or () if v["variant"] not in names]
        if unknown:
            raise BuildError(f"the bundle's survey has variants that {variant_registry.FILE.name} does not list: "
                             f"{', '.join(unknown)} (run make verify again)")
        return names

    @reads("variants", "survey")
    def play_variant(self, variant: str) -> str:
        """A button that opens the front page's game at the variant's first pool deal under its
        rules (app/ui/variants.js reads #deal=N&rules=…); nothing when the survey did not cover it."""
        entry = next((v for v in self._variants() if v["id"] == variant), None)
        if entry is None or not entry["pool"]:
            return ""
        front = "" if self.page == "index.md" else "../"
        label = self.c["_game_strings"]["variants"]["play"]
        return (f'<p class="play-deal"><a class="md-button" href="{front}#deal={int(entry["pool"][0])}'
                f'&amp;rules={escape(variant)}">{escape(label)}</a></p>')

    def _winnable(self) -> dict | None:
        # Which surveyed deals can be won, so a linked deal known lost says so at once (the
        # bundle's letters, checked by generator/inputs/bundle.py; none without a survey).
        survey = self.c.get("survey")
        return winnable_data(survey["first"], survey["results"]) if survey else None

    @reads("examples.winnable")
    def replay(self) -> str:
        ex = self._example("winnable")
        fallback = self.chapter_pictures("winnable")
        data = {"deal": ex["deal"], "moves": [s["move"] for s in ex["steps"]],
                "chapters": [{"title": c["title"], "move_index": c["number"]} for c in ex["chapters"]]}
        return replay_html(self.c["lang"], self.c["_game_strings"], data, self.assets_url_of(self.page), fallback)


# Set on an error a page function raised that is not its own refusal: a bug of the generator's,
# which render_page lets through with its traceback instead of naming the page.
RAISED_IN_PAGE_FUNCTION = "raised_in_page_function"


def _markup(function):
    """A page function's HTML/Markdown, marked safe: it escaped every value it inserted.

    What the page gets wrong in a call is the page's: arguments the function does not take, and
    the function's own refusals (a BuildError: no such example, no such rule). Jinja's errors
    pass as they are (an undefined name the page handed over), and so do the build's bounds
    (memory; the stack, which a macro calling itself may run out of inside a function). Anything
    else the function raises is a bug of the generator's, marked RAISED_IN_PAGE_FUNCTION."""
    signature = inspect.signature(function)

    def marked(*args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError as e:
            raise BuildError(f"{function.__name__}(): {e}") from None
        try:
            return Markup(function(*args, **kwargs))
        except (BuildError, jinja2.TemplateError, MemoryError, RecursionError):
            raise
        except Exception as e:
            setattr(e, RAISED_IN_PAGE_FUNCTION, function.__name__)
            raise
    def data_roots(*args, **kwargs) -> tuple[str, ...]:
        example = signature.bind(*args, **kwargs).arguments.get("example_id")
        key = example.replace("-", "_") if isinstance(example, str) else ""
        return tuple(root.format(example=key) for root in getattr(function, "reads", ()))

    marked.__name__ = function.__name__
    marked.page_function = True  # the sandbox's probe leaves its output out (sandbox.typed_text)
    marked.data_roots = data_roots  # where its numbers come from (sandbox.call notes them)
    return marked


class CompiledPages(jinja2.BytecodeCache):
    """Compiled page sources kept in memory, keyed by Jinja by name and source checksum: a
    process that gathers the site many times (`make serve`, the tests) compiles a page once."""

    def __init__(self):
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


COMPILED_PAGES = CompiledPages()


def make_environment(folder: Path, context: dict, functions: PageFunctions, pages: dict | None = None) -> jinja2.Environment:
    """The sandbox (generator/guard/sandbox.py) for one language's pages: the page set its only
    templates, the context's data and the page functions its only names."""
    pages = pages if pages is not None else {p.name: p for p in sorted(folder.glob("*.md"))}
    exported = functions.export()
    env = PageEnvironment(loader=PageLoader(pages, read_text), undefined=jinja2.StrictUndefined,
                          keep_trailing_newline=True, autoescape=True, bytecode_cache=COMPILED_PAGES,
                          page_functions=frozenset(exported))
    words = context["_words"]
    env.format_number = lambda value: words.num(value) if isinstance(value, int) else words.decimal(value)
    env.number_writers = (env.format_number, words.num, words.pct)  # how a page function writes a number
    env.filters.update({name: number_filter(env, name, f) for name, f in dict(
        num=words.num, pct=words.pct, spell=words.spell).items()})
    env.filters.update({name: text_filter(env, name, f) for name, f in dict(
        date=words.date, card=words.card, move=words.move, month=words.month).items()}, markdown=markdown_text)
    # The page sees the data tagged with its paths (generator/render/sourced.py); the page
    # functions read it as it is.
    env.globals.update(tagged_context(context))
    env.globals.update(exported)
    return env


def render_page(env: jinja2.Environment, functions: PageFunctions, source: Path) -> str:
    functions.page = source.name
    env.shown.begin(source.name)
    env.begin_page()
    try:
        template = env.get_template(source.name)
        rendered = render_bounded(template)
        typed = typed_text(env, template)
    except PageRuleError as e:
        raise BuildError(f"{source}, line {e.lineno}: {e.message}") from None
    except jinja2.TemplateSyntaxError as e:
        raise BuildError(f"{source}, line {e.lineno}: template syntax error: {e.message}") from None
    except RecursionError:
        line = _template_line(source)
        raise BuildError(f"{source}{f', line {line}' if line else ''}: calls itself without end "
                         "(a macro that calls itself)") from None
    except MemoryError:
        raise BuildError(f"{source}: rendering it needs more memory than the build may use") from None
    except (jinja2.TemplateError, BuildError) as e:
        # Refused by Jinja or the sandbox (UndefinedError, SecurityError and SandboxLimit…), or by a
        # page function or filter: the page's mistake, named with its line.
        line = _template_line(source)
        raise BuildError(f"{source}{f', line {line}' if line else ''}: {_describe(e)}") from None
    except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError) as e:
        # The page's own expression on its values (a division by zero, text added to a number, a
        # filter given what it cannot write) is the page's mistake; the same errors from inside a
        # page function, or from no line of the page at all, are bugs of the generator's.
        line = _template_line(source)
        if line is None or hasattr(e, RAISED_IN_PAGE_FUNCTION):
            raise
        raise BuildError(f"{source}, line {line}: {_describe(e)}") from None
    typed_number_check(source, typed)  # its error names file and line itself
    return rendered


def typed_number_check(source: Path, typed: str) -> None:
    """The number guard on the rendered text, a second line behind the source's own check
    (generator/guard/numbers.py): no number the page wrote itself reaches the page (values are
    PROBE_VALUE there, page functions' output left out, see sandbox.typed_text), read as the
    site's Markdown reads it; and no raw HTML either. It catches what only rendering shows, such
    as a number inside `{% raw %}`."""
    source_lines = read_text(source).splitlines()
    lines = typed.splitlines()
    html_line = next((n for n, line in enumerate(lines, 1) if RAW_HTML.search(line)), None)
    number_line = next(iter(typed_numbers(typed)), (None,))[0]
    if html_line is not None and (number_line is None or html_line <= number_line):
        raise BuildError(f"{source}, line {_line_in(source_lines, lines[html_line - 1]) or f'{html_line} of the rendered page'}: "
                         "raw HTML in a page source; a page is Markdown, the page functions write its HTML")
    if number_line is not None:
        text = lines[number_line - 1].replace(PROBE_VALUE, "…").strip()
        where = _line_in(source_lines, lines[number_line - 1])
        raise BuildError(f"{source}, line {where or f'{number_line} of the rendered page'}: a number typed by hand "
                         f"('{text[:60]}'); use a value from the verified data or docs/facts.yml instead")


def _line_in(source_lines: list[str], line: str) -> int | None:
    """The source line that wrote a rendered line: the first holding each piece of it between values."""
    pieces = [piece.strip() for piece in line.split(PROBE_VALUE) if piece.strip()]
    return next((i for i, s in enumerate(source_lines, 1) if pieces and all(p in s for p in pieces)), None)


def _describe(e: Exception) -> str:
    if isinstance(e, jinja2.UndefinedError):
        return f"unknown name in the template: {e.message}"
    if isinstance(e, SandboxLimit):
        return f"refused by the page sandbox: {e}"
    if isinstance(e, jinja2.sandbox.SecurityError):
        return f"refused by the page sandbox: {e}"
    if isinstance(e, KeyError):
        return f"missing string or value {e}"
    if not isinstance(e, (BuildError, jinja2.TemplateError)):
        return f"cannot compute a value: {e}"
    return str(e)


def _template_line(source: Path) -> int | None:
    """The template line being rendered when the error happened (Jinja maps frames to it)."""
    tb = sys.exc_info()[2]
    line = None
    for frame in traceback.extract_tb(tb):
        if Path(frame.filename).name == source.name:
            line = frame.lineno
    return line
