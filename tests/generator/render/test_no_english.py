"""No English and no code ids on a nb/da page (issue 9, items 4 and 5).

Every built HTML page of both languages, the 404 page included, is read: every text node and
every aria-label, title, alt and placeholder, and the theme's strings its script shows later
(search results, the copy button). None may be one of the theme's English strings (taken from
Material's own English table, so a string Material adds is caught too), and no rule or check id
(from the bundle) may appear outside <code>. Text marked with another `lang` (a quoted English
title) is that language's, and is left alone.
"""
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import material
import pytest
import yaml

from generator.errors import BuildError
from generator.render.pages import PageFunctions
from generator.render.slugs import slug
from generator.inputs.languages import read_yaml
from generator.inputs.theme_words import load_theme_words, theme_config
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
MATERIAL = Path(material.__file__).resolve().parent / "templates"
OVERRIDES = ROOT / "generator" / "overrides"

# Keys of the table that are settings, not words.
TECHNICAL_KEYS = {"language", "direction", "search.config.lang", "search.config.pipeline", "search.config.separator"}
# English a page can get from outside the table: Python-Markdown's heading links, Material's 404.
OTHER_ENGLISH = ("Permanent link", "404 - Not found")
CHECKED_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def translation_table(path: Path) -> dict[str, str]:
    """A Material language partial's table, key → string (its lines are `"key": "string",`)."""
    table = {key: json.loads(f'"{value}"') for key, value in
             re.findall(r'^\s*"([\w.]+)": "((?:[^"\\]|\\.)*)",?$', path.read_text(encoding="utf-8"), re.M)}
    assert len(table) > 20, f"{path}: could not read its table"
    return table


ENGLISH = {k: v for k, v in translation_table(MATERIAL / "partials" / "languages" / "en.html").items()
           if k not in TECHNICAL_KEYS}


def english_pattern(strings) -> re.Pattern:
    """Matches a text that is one of the English strings ('#' stands for a number). A string of
    one word must be the whole text (a button's label); a longer one may be part of a text."""
    whole, part = [], []
    for s in sorted(set(strings), key=len, reverse=True):
        body = re.escape(s).replace(r"\#", r"\d+")
        (part if " " in s else whole).append(body)
    return re.compile(rf"^(?:{'|'.join(whole)})$|(?<!\w)(?:{'|'.join(part)})(?!\w)")


ENGLISH_TEXT = english_pattern([*ENGLISH.values(), *OTHER_ENGLISH])


def code_id_pattern(ids) -> re.Pattern:
    return re.compile(rf"(?<![\w.-])(?:{'|'.join(map(re.escape, sorted(ids, key=len, reverse=True)))})(?![\w-])")


class PageText(HTMLParser):
    """A page's words: (where, text) for text nodes and the checked attributes, each marked
    whether it is inside <code>; text under another language's `lang` is skipped."""

    def __init__(self, lang: str):
        super().__init__(convert_charrefs=True)
        self.lang = lang
        self.stack: list[tuple[str, str | None]] = []  # open tags with their lang, if any
        self.found: list[tuple[str, str, bool]] = []    # (where, text, in <code>)
        self.translations: dict[str, str] = {}          # Material's __config: strings its script shows

    def _foreign(self) -> bool:
        langs = [lang for _, lang in self.stack if lang]
        return bool(langs) and langs[-1].split("-")[0] != self.lang

    def _in(self, *tags) -> bool:
        return any(tag in tags for tag, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append((tag, a.get("lang") if tag != "html" else None))
        if tag == "script" and a.get("id") == "__config":
            self.stack[-1] = ("config-script", None)
        if self._foreign():
            return
        for name in CHECKED_ATTRIBUTES:
            if (a.get(name) or "").strip():
                self.found.append((f"<{tag} {name}>", a[name], self._in("code")))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag or (tag == "script" and self.stack[i][0] == "config-script"):
                del self.stack[i:]
                return

    def handle_data(self, data):
        if self._in("config-script"):
            self.translations.update(json.loads(data).get("translations") or {})
        elif data.strip() and not self._in("script", "style") and not self._foreign():
            self.found.append(("text", " ".join(data.split()), self._in("code")))


def read_page(path: Path, lang: str) -> PageText:
    page = PageText(lang)
    page.feed(path.read_text(encoding="utf-8"))
    return page


def english_on(page: PageText) -> list[str]:
    texts = [(where, text) for where, text, _ in page.found]
    texts += [(f"theme string {key}", text) for key, text in page.translations.items()]
    return [f"{where}: {text!r}" for where, text in texts if ENGLISH_TEXT.search(text)]


def ids_on(page: PageText, pattern: re.Pattern) -> list[str]:
    return [f"{where}: {text!r}" for where, text, in_code in page.found if not in_code and pattern.search(text)]


def html_pages(site: Path, lang: str) -> list[Path]:
    """The language's pages, and the root page (its other languages' parts carry their `lang`)."""
    pages = sorted((site / lang).rglob("*.html"))
    assert site / lang / "404.html" in pages, "the 404 page was not built"
    return [site / "index.html", *pages]


@pytest.fixture(scope="module")
def bundle(built_site):
    return json.loads((ROOT / "build" / "verified.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def known_ids(bundle):
    return set(bundle["rule_checks"]) | {check["id"] for check in bundle["checks"]}


def strings_of(lang: str) -> dict:
    return yaml.safe_load((ROOT / "docs" / lang / "strings.yml").read_text(encoding="utf-8"))


# -- the checks themselves catch what they are for
def test_the_reader_finds_planted_english_and_ids():
    ids = code_id_pattern({"deal.layout", "pair.one-waste", "examples.read"})
    page = PageText("nb")
    page.feed('<html lang="nb"><header aria-label="Header"></header><p>Ok <a title="Permanent link">¶</a></p>'
              '<p>Se deal.layout og <code>pair.one-waste</code>, eller pair.one-waste.</p>'
              '<button>Search</button><p>Søk etter «Search» i teksten</p><p>3 more on this page</p>'
              '<blockquote lang="en">Back to top, examples.read</blockquote><p lang="nb-NO">Back to top</p>'
              '<script id="__config">{"translations": {"clipboard.copy": "Copy to clipboard"}}</script></html>')
    assert english_on(page) == ["<header aria-label>: 'Header'", "<a title>: 'Permanent link'", "text: 'Search'",
                                "text: '3 more on this page'", "text: 'Back to top'",
                                "theme string clipboard.copy: 'Copy to clipboard'"]
    assert ids_on(page, ids) == ["text: 'Se deal.layout og'", "text: ', eller pair.one-waste.'"]


def test_the_english_list_is_material_s_own():
    assert {"Skip to content", "Header", "Footer", "Copy to clipboard", "Back to top", "Type to start searching",
            "Initializing search", "Search"} <= set(ENGLISH.values())


# -- the rule mark and the theme's words refuse what they cannot say
def rule_functions(titles: dict) -> PageFunctions:
    words = SimpleNamespace(lang=SimpleNamespace(folder=Path("docs/xx"), code="nb"))
    strings = {"rule_titles": titles, "rule_names": {"end.win": "Seier ved {target_sum}"},
               "tables": {"rule_checks": {"rule": "Regel"}}}
    functions = PageFunctions({"rule_checks": {"end.win": {}}, "s": strings, "_words": words}, None)
    functions._rule_values = lambda: {"target_sum": 13}
    return functions


def test_a_rule_mark_is_a_check_mark_named_by_its_sentence():
    mark = rule_functions({"marker": "Kontrollert regel: {title}", "rules": {"end.win": "vunnet ved {target_sum}"}})
    label = "Kontrollert regel: vunnet ved 13"
    # it links to the rule's row, named in the page's language (not #rule-end-win)
    assert mark.rule("end.win") == (f'<span class="rule-ref" data-tip="{label}">[✓](sources.md#regel-seier-ved-13)'
                                    f'{{: aria-label="{label}" }}</span>')


@pytest.mark.parametrize("titles, message", [
    ({"marker": "{title}", "rules": {}}, "docs/xx/strings.yml: rule_titles.rules has no title for the rule 'end.win'"),
    ({"marker": "{title}", "rules": {"end.win": 'et "sitat"'}},
     "docs/xx/strings.yml: the rule_titles label of 'end.win' may not contain any of"),
    ({"marker": "{title}", "rules": {"end.win": "*vunnet*"}}, "may not contain any of"),
])
def test_a_rule_mark_refuses_a_missing_or_unsafe_title(titles, message):
    with pytest.raises(BuildError) as e:
        rule_functions(titles).rule("end.win")
    assert message in str(e.value)


def test_a_language_without_its_theme_words_stops_the_build(tmp_path):
    theme = tmp_path / "theme.yml"
    theme.write_text('search: "Søk"\n', encoding="utf-8")
    with pytest.raises(BuildError, match=r"theme\.yml: missing the theme's word"):
        load_theme_words(theme, read_yaml)


# -- the theme's words in nb and da
@pytest.mark.parametrize("lang", LANGUAGES)
def test_our_theme_table_has_every_key_in_the_language(lang):
    path = ROOT / "docs" / lang / "theme.yml"
    ours = read_yaml(path)
    assert theme_config(ours, lang, "x")["language"] == lang
    missing = sorted(set(ENGLISH) - set(ours))
    assert not missing, f"{path}: missing {missing}: Material would show them in English"
    same = sorted(k for k, v in ENGLISH.items() if ours[k] == v)
    assert not same, f"{path}: still English: {same}"
    assert ours["toc.permalink"].strip(), f"{path}: no title for the headings' links"


# -- the built pages
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_on_any_page(built_site, lang):
    site, _ = built_site
    problems = [f"{page.relative_to(site)}: {p}" for page in html_pages(site, lang)
                for p in english_on(read_page(page, lang))]
    assert not problems, "English on a page:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_code_ids_outside_code(built_site, lang, known_ids):
    site, _ = built_site
    pattern = code_id_pattern(known_ids)
    problems = [f"{page.relative_to(site)}: {p}" for page in html_pages(site, lang)
                for p in ids_on(read_page(page, lang), pattern)]
    assert not problems, "a rule or check id in the prose:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_marks_are_named_by_a_sentence_in_the_page_language(built_site, lang, bundle, known_ids):
    site, _ = built_site
    titles = strings_of(lang)["rule_titles"]
    assert set(titles["rules"]) == set(bundle["rule_checks"]), "every rule, and only those, has a title"
    prefix = titles["marker"].split("{title}")[0]
    # Each rule's row on the sources page is named by its word for a rule and the rule's name.
    strings = strings_of(lang)
    rows = {slug(f"{strings['tables']['rule_checks']['rule']} {name.format(target_sum=bundle['rules']['target_sum'])}",
                 lang): rule_id for rule_id, name in strings["rule_names"].items()}
    assert len(rows) == len(bundle["rule_checks"])
    html = (site / lang / "index.html").read_text(encoding="utf-8")
    marks = re.findall(r'<span class="rule-ref" data-tip="([^"]*)"><a ([^>]*)>(.*?)</a></span>', html)
    assert len(marks) > 5, "the front page's rule marks are missing"
    for tooltip, attrs, content in marks:
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', attrs))
        assert content == "✓"
        # The tip shown on hover and focus says the same to the eye; on the wrapper, so the link is not described twice.
        assert tooltip == a["aria-label"] and "title" not in a
        anchor = re.fullmatch(r"(?:\.\./)?sources/#([a-z0-9-]+)", a["href"])
        assert anchor and anchor.group(1) in rows, a["href"]
        rule_id = rows[anchor.group(1)]
        # The sentence names the rule the mark links to (its title, before any {value}).
        assert a["aria-label"].startswith(prefix + titles["rules"][rule_id].split("{")[0]), (rule_id, a)
        assert not code_id_pattern(known_ids).search(a["aria-label"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_404_page_speaks_the_language_and_leads_home(built_site, lang):
    site, languages = built_site
    words = strings_of(lang)["not_found"]
    page = (site / lang / "404.html").read_text(encoding="utf-8")
    assert f"<h1>{words['title']}</h1>" in page
    assert f"<title>{words['title']} – " in page
    assert words["text"] in page
    assert re.search(rf'<a href="/{lang}/\.?">{words["home"]}</a>', page)
    nav = strings_of(lang)["nav"]
    for name in languages[lang]:
        slug = name[:-3]
        href = f"/{lang}/." if slug == "index" else f"/{lang}/{slug}/"  # "/nb/.": as Material links it
        assert f'<li><a href="{href}">{nav[slug]}</a></li>' in page, (slug, href)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_heading_links_are_titled_in_the_language(built_site, lang):
    site, _ = built_site
    ours = read_yaml(ROOT / "docs" / lang / "theme.yml")["toc.permalink"]
    titles = set(re.findall(r'<a class="headerlink" href="#[^"]*" title="([^"]*)"',
                            (site / lang / "index.html").read_text(encoding="utf-8")))
    assert titles == {ours}
