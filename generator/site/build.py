"""The whole build: gather (bundle, languages, facts, every page rendered in memory), then
write (page Markdown, one MkDocs build per language, the root page, the game's files) into a
staging folder, and only then swap it into place — so a failed build leaves the published
copy exactly as it was.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

import strict_yaml

from generator.inputs.bundle import load_bundle
from generator.render.context import build_context, context_string_problems
from generator.render.game_embed import GAME_MODULE, REPLAY_MODULE, module_graph
from generator.render.svg import RANKS
from generator.render.game_locale import game_strings
from generator.site.csp import with_policy
from generator.site import seo
from generator.render import picture_slots
from generator.publish import deploy as publish
from generator.publish import addresses
from generator.publish.addresses import LOCAL_ADDRESS, SITE_URL, problems as placeholder_problems
from generator.errors import BuildError, BuildFailed, excerpt, in_repository
from generator.guard.glossary import lint as glossary_problems
from generator.guard.limits import time_bound
from generator.inputs.languages import Language, completeness_problems, language_facts, load_languages, read_yaml
from generator.inputs.source_files import hidden_characters, read_text, refuse_special, refuse_special_folder
from generator.guard.numbers import has_digit, tag_sub, note_problems, page_problems, string_problems
from generator.render.placeholders import template_problems
from generator.guard.text_rules import page_markup_problems, string_problems as text_string_problems
from generator.inputs.theme_words import ONE_KEYS
from generator.site.offline import LOGO_FILE, logo_svg, write_offline
from generator.render.game_embed import RESERVE_PICTURE
from generator.render.svg import reserve_svg
from generator.render.pages import PAGE_FUNCTION_NAMES, PageFunctions, make_environment, render_page
from generator.site.root_pages import language_choice_script, not_found_page, root_page
from generator.guard.rule_marks import page_problems as rule_mark_problems
from generator.guard.sentences import sentence_problems
from generator.settings import APP, ASSETS, BUNDLE, DOCS, OVERRIDES, ROOT
from generator.site.sitecheck import check_site
from generator.site.link_places import at_source
from generator.inputs.theme_words import theme_config


def lint(languages: list[Language], default: str, examples: list[dict] = (), docs: Path = DOCS) -> list[str]:
    """Per language: missing pages or strings, numbers not backed by data (in pages, strings
    and the examples' notes), words its glossary forbids (docs/<lang>/glossary.yml), rule marks
    that are not alone at the end of their paragraph, and content that is not content
    (generator/guard/text_rules.py, hidden characters, templates that are more than {names})."""
    problems = completeness_problems(languages, default)
    problems += glossary_problems(languages, default, examples)
    problems += note_problems(list(examples), [lang.code for lang in languages])
    for shared in ("languages.yml", "facts.yml"):
        problems += _file_problems(docs / shared)
    for lang in languages:
        for source in lang.pages.values():
            problems += lint_page(source)
            problems += rule_mark_problems(source)
        strings_file = lang.folder / "strings.yml"
        problems += _file_problems(strings_file)
        problems += template_problems(strings_file, lang.strings, _yaml_lines(strings_file))
        problems += string_problems(strings_file, lang.strings)
        problems += string_problems(lang.folder / "game.json", lang.game_strings)
        problems += text_string_problems(lang.folder / "game.json", lang.game_strings)
        problems += card_label_problems(lang.folder / "game.json", lang.game_strings)
        if os.path.lexists(lang.folder / "game.json"):
            problems += hidden_characters(lang.folder / "game.json", read_text(lang.folder / "game.json"))
        for words_file in ("facts.yml", "numbers.yml"):  # the language's own words (docs/<lang>/)
            problems += _file_problems(lang.folder / words_file)
            if os.path.lexists(lang.folder / words_file):  # printed as they are: a digit in them is typed by hand
                problems += string_problems(lang.folder / words_file, read_yaml(lang.folder / words_file))
        theme_file = lang.folder / "theme.yml"
        problems += _file_problems(theme_file)
        problems += theme_digit_problems(theme_file, lang.theme)
        if os.path.lexists(lang.folder / "glossary.yml"):
            problems += hidden_characters(lang.folder / "glossary.yml", read_text(lang.folder / "glossary.yml"))
    return problems


def lint_page(source: Path) -> list[str]:
    """One page source: hidden characters, scripts and raw HTML, and numbers (generator/guard/numbers.py)."""
    return list(_page_lint(source, read_text(source)))


@lru_cache(maxsize=64)
def _page_lint(source: Path, text: str) -> tuple[str, ...]:
    """A function of the page's name and text: `make serve`'s warm builder lints a page again
    only when it changed."""
    return tuple(hidden_characters(source, text) + page_markup_problems(source, text, _outside_tags(text))
                 + page_problems(source, text, frozenset(PAGE_FUNCTION_NAMES)))


def _outside_tags(text: str) -> str:
    return tag_sub(text, lambda tag: re.sub(r"[^\n]", " ", tag))


def _yaml_lines(path: Path) -> dict:
    try:
        return strict_yaml.line_map(strict_yaml.load_tree(path)[1])
    except (OSError, strict_yaml.YAMLFileError):
        return {}


def _file_problems(path: Path, per_string: bool = True) -> list[str]:
    """Hidden characters anywhere in a YAML file, and markup in each of its strings."""
    if not os.path.lexists(path):
        return []
    problems = hidden_characters(path, read_text(path))
    if per_string:
        problems += text_string_problems(path, read_yaml(path), _yaml_lines(path))
    return problems


def card_label_problems(path: Path, game: dict) -> list[str]:
    """game.json `card_labels` (what a card face shows for a rank, «E» for ess): one to three
    letters or digits each, for ranks that exist; the app sets them as text (app/ui/board.js)."""
    labels = game.get("card_labels")
    if labels is None:
        return []
    if not isinstance(labels, dict):
        return [f"{path}: card_labels must map ranks ({', '.join(RANKS)}) to the letters on the card face"]
    return [f"{path}: card_labels['{rank}'] = {label!r}: a card face shows one to three letters or digits "
            f"for a rank of {', '.join(RANKS)}"
            for rank, label in labels.items()
            if rank not in RANKS or not isinstance(label, str) or not 1 <= len(label) <= 3 or not label.isalnum()]


def theme_digit_problems(path: Path, words: dict) -> list[str]:
    """The theme's words hold no digit, except the «1» of the singular forms (readtime.one…)."""
    lines = _yaml_lines(path)
    problems = []
    for key, value in words.items():
        text = value.replace("1", " ", 1) if key in ONE_KEYS else value  # blanked, as numbers.py sets markup aside
        if has_digit(text):
            problems.append(f"{path}, line {lines.get(key, '?')}: '{key}' contains a number typed by hand ('{excerpt(value)}')")
    return problems


def assets_url(page_name: str) -> str:
    """The game's files from a page: pages live at <lang>/ (index) or <lang>/<name>/."""
    return "../assets/app" if page_name == "index.md" else "../../assets/app"


@dataclass
class Gathered:
    languages: list[Language]
    default: str
    rendered: dict[str, dict[str, str]]  # language → page name → Markdown
    facts: dict
    pictures: dict[str, dict[str, str]] = field(default_factory=dict)  # language → slot → drawing
    numbers: dict = field(default_factory=dict)  # language → the numbers each page showed (render/sourced.py ShownNumbers)

    @property
    def site_url(self) -> str:
        """The published address (docs/facts.yml `site_url`), or a local one for `make site`."""
        return site_address(self.facts)


def gather(bundle_path: Path = BUNDLE, docs: Path = DOCS) -> Gathered:
    bundle = load_bundle(bundle_path)
    languages, default = load_languages(docs)
    problems = lint(languages, default, bundle["examples"], docs)
    if len(problems) == 1:  # one problem, one `error:` line
        raise BuildError(problems[0])
    if problems:
        raise BuildError("the page sources are not ready:\n  " + "\n  ".join(problems))
    facts = read_yaml(docs / "facts.yml")
    rendered, pictures, numbers = {}, {}, {}
    for lang in languages:
        # A placeholder address is not shown as if it were real: the contact page says there is none yet.
        lang_facts = {**language_facts(lang, facts), "contact": {"email": contact_address(facts)}}
        try:
            context = build_context(bundle, lang, lang_facts)
        except (LookupError, TypeError, AttributeError, ValueError):
            # The bundle's shape is checked; what can still be at fault is a string of this
            # language. If none is, the error is a bug of the generator's: its traceback.
            problems = context_string_problems(bundle, lang)
            if not problems:
                raise
            raise BuildError(f"{lang.folder / 'strings.yml'}: a string the pages need is missing or not "
                             f"text: {'; '.join(problems)}") from None
        # The game writes numbers, dates and counts as the pages do, from the same CLDR data and
        # number words (app/core/locale.js).
        context["_game_strings"] = game_strings(lang.game_strings, lang.code, f"{lang.folder / 'game.json'}", lang.numbers)
        functions = PageFunctions(context, assets_url)
        env = make_environment(lang.folder / "pages", context, functions, lang.pages)
        rendered[lang.code] = {name: render_page(env, functions, source) for name, source in lang.pages.items()}
        pictures[lang.code] = functions.pictures
        numbers[lang.code] = env.shown
    problems = [problem for lang in languages for name, source in lang.pages.items()
                for problem in sentence_problems(source, rendered[lang.code][name])]
    if problems:
        raise BuildError("sentences start with a digit:\n  " + "\n  ".join(problems))
    return Gathered(languages, default, rendered, facts, pictures, numbers)


def outside_addresses(facts: dict) -> set[str]:
    """What a page may link outside the site: the cited sources, and mail to the contact address."""
    email = contact_address(facts)
    return {source["url"] for source in facts.get("sources", [])} | ({f"mailto:{email}"} if email else set())


def site_address(facts: dict) -> str:
    address = facts.get("site_url") or LOCAL_ADDRESS
    if not isinstance(address, str) or not SITE_URL.fullmatch(address):
        raise BuildError(f"docs/facts.yml: site_url {address!r} must be an http(s) address ending in '/'")
    return address


NOT_FOUND_KEYS = ("title", "text", "home", "pages")  # strings.yml not_found, used by overrides/404.html


def theme_string(lang: Language, key: str) -> str:
    """One of the theme's words in language `lang` (docs/<lang>/theme.yml)."""
    return theme_config(lang.theme, lang.code, lang.search)[key]


def page_order(lang: Language) -> list[str]:
    """The language's page files in navigation order: docs/languages.yml `pages` first, any others by name."""
    return [p for p in lang.page_order if p in lang.pages] + sorted(set(lang.pages) - set(lang.page_order))


def nav_links(lang: Language) -> list[tuple[str, str]]:
    """(title, path inside the language's folder) of each page, in navigation order."""
    return [(lang.strings["nav"][p[:-3]], "" if p == "index.md" else f"{p[:-3]}/") for p in page_order(lang)]


def theme_words(lang: Language) -> dict:
    words = lang.strings.get("theme")
    scheme = words.get("scheme") if isinstance(words, dict) else None
    if not (isinstance(words, dict) and isinstance(words.get("game_skip"), str) and isinstance(scheme, dict)
            and all(isinstance(scheme.get(k), str) for k in ("to_light", "to_dark", "to_system"))):
        raise BuildError(f"{lang.folder / 'strings.yml'}: theme must give game_skip and scheme "
                         "(to_light, to_dark, to_system) as text")
    return words


def palette(lang: Language) -> list[dict]:
    """Material's colour scheme switch: the device's setting first (light or dark, as it says),
    then light, then dark; the theme keeps the reader's choice. Our colours in both schemes
    (generator/assets/site.css, app/ui/cards.css, app/ui/game.css)."""
    names = theme_words(lang)["scheme"]
    ours = {"primary": "custom", "accent": "custom"}
    return [
        {"media": "(prefers-color-scheme)", **ours,
         "toggle": {"icon": "material/brightness-auto", "name": names["to_light"]}},
        {"media": "(prefers-color-scheme: light)", "scheme": "default", **ours,
         "toggle": {"icon": "material/brightness-7", "name": names["to_dark"]}},
        {"media": "(prefers-color-scheme: dark)", "scheme": "slate", **ours,
         "toggle": {"icon": "material/brightness-4", "name": names["to_system"]}},
    ]


# The head's one inline script of ours on every language page (overrides/main.html; csp.py allows it
# by this very text). The theme's script, at the end of the body, swaps <html>'s "no-js" for "js"
# and its focus-visible polyfill adds "js-focus-visible": two class changes on the root once the
# page is drawn, and any class change there restyles the whole page (the theme's
# `table:not([class]) td > :first-child` rules can no longer tell what it touches), some 15 ms
# here and four times that on a phone. Made before the body exists, the same classes cost
# nothing, the theme's later changes find them already there, and the first paint is the one
# with script. No stylesheet reads "js-focus-visible": without the theme's script it changes nothing.
JS_CLASS_SCRIPT = 'document.documentElement.classList.replace("no-js", "js");document.documentElement.classList.add("js-focus-visible");'


# The theme's script, by the name its own base.html loads it under (it changes with the theme's
# version). Our pages load it on demand (assets/theme-on-demand.js says when and why), so the
# override of the page's scripts needs the name; a theme that no longer names one stops the build.
THEME_BUNDLE = re.compile(r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js")


@lru_cache(maxsize=1)
def theme_bundle() -> str:
    import material
    base = Path(material.__file__).parent / "templates" / "base.html"
    found = THEME_BUNDLE.findall(base.read_text(encoding="utf-8"))
    if len(found) != 1:
        raise BuildError(f"{base}: expected the theme to load one script bundle (assets/javascripts/bundle.….min.js), "
                         f"found {len(found)}; generator/overrides/main.html's scripts block loads it on demand")
    return found[0]


def mkdocs_config(lang: Language, languages: list[Language], docs_dir: Path, site_dir: Path,
                  site_url: str = LOCAL_ADDRESS) -> dict:
    nav_titles = lang.strings["nav"]
    not_found = lang.strings.get("not_found")
    if not isinstance(not_found, dict) or not all(isinstance(not_found.get(k), str) for k in NOT_FOUND_KEYS):
        raise BuildError(f"{lang.folder / 'strings.yml'}: not_found must give the 404 page's words as text: "
                         f"{', '.join(NOT_FOUND_KEYS)}")
    return {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "site_name": lang.strings["site_name"],
        "site_description": lang.strings["site_description"],
        # Its path is where the 404 page's links start (it is served at any depth).
        "site_url": f"{site_url}{lang.code}/",
        "docs_dir": str(docs_dir),
        "site_dir": str(site_dir),
        "theme": {"language": lang.code, "custom_dir": str(OVERRIDES), "palette": palette(lang)},
        "plugins": [{"search": {"lang": [lang.search]}}],
        # Table cells apart in the search index; the site's name escaped for the theme's attributes.
        "hooks": [str(Path(__file__).with_name(hook)) for hook in ("search_text.py", "escaped_name.py")],
        "nav": [{nav_titles[p[:-3]]: p} for p in page_order(lang)],
        # Merged into mkdocs.yml's (mapping form, so INHERIT merges it): the heading links' title,
        # and anchors in the language's letters (generator/render/slugs.py).
        "markdown_extensions": {"toc": {"permalink_title": theme_string(lang, "toc.permalink"),
                                        "slugify": LanguageSlugify(lang.code)}},
        "extra": {"alternate": [{"name": other.name, "link": f"/{other.code}/", "lang": other.code}
                                for other in languages],
                  "theme_words": theme_config(lang.theme, lang.code, lang.search),
                  "not_found": not_found,  # the 404 page's words (overrides/404.html)
                  "game_skip": theme_words(lang)["game_skip"],  # the skip link to the game (overrides/main.html)
                  "js_class_script": JS_CLASS_SCRIPT,  # overrides/main.html, at the top of the head
                  "theme_bundle": theme_bundle(),  # overrides/main.html, loaded on demand
                  # The modules a game's or a replay's page preloads (overrides/main.html).
                  "game_modules": module_graph(GAME_MODULE, APP),
                  "replay_modules": module_graph(REPLAY_MODULE, APP),
                  # Each page's title, description, alternates and preview tags (overrides/main.html).
                  "seo": seo.head_config(lang, languages, site_url)},
    }


class LanguageSlugify:
    """The toc extension's slugify for one language, as MkDocs' YAML calls it:
    !!python/object/apply:generator.render.slugs.slugify [nb] (MkDocs' loader builds the function)."""

    def __init__(self, code: str):
        self.code = code


class ConfigDumper(yaml.SafeDumper):
    """yaml.safe_dump, plus LanguageSlugify; nothing else that is not plain data."""


ConfigDumper.add_representer(LanguageSlugify, lambda dumper, value: dumper.represent_sequence(
    "tag:yaml.org,2002:python/object/apply:generator.render.slugs.slugify", [value.code]))


def run_mkdocs(code: str, config: Path, site_dir: Path, docs_dir: Path) -> None:
    """`mkdocs build --strict` of one language's config, in a process of its own; BuildFailed."""
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildFailed(f"mkdocs build --strict failed for {code} ({config}):\n{result.stderr.strip()}")


def write_site(languages: list[Language], default: str, rendered: dict, stage: Path, sources: Path,
               site_url: str = LOCAL_ADDRESS, mkdocs=run_mkdocs, pictures: dict | None = None) -> None:
    """Builds the site into stage; the MkDocs page sources and configs go to sources (this
    build's own folder: two builds at once never share them). mkdocs(code, config, site_dir,
    docs_dir) builds one language (run_mkdocs, or make serve's in-process one: generator/serve/live_build.py).
    pictures: each language's drawings, put in their slots once MkDocs is done (picture_slots.py)."""
    pictures = pictures or {}
    for lang in languages:
        docs_dir = sources / "pages" / lang.code
        if docs_dir.exists():
            shutil.rmtree(docs_dir)
        (docs_dir / "stylesheets").mkdir(parents=True)
        shutil.copy(ASSETS / "site.css", docs_dir / "stylesheets" / "site.css")
        (docs_dir / "javascripts").mkdir()
        shutil.copy(ASSETS / "palette.js", docs_dir / "javascripts" / "palette.js")
        shutil.copy(ASSETS / "theme-on-demand.js", docs_dir / "javascripts" / "theme-on-demand.js")
        (docs_dir / LOGO_FILE).parent.mkdir(parents=True)
        (docs_dir / LOGO_FILE).write_text(logo_svg(), encoding="utf-8")
        for name, text in rendered[lang.code].items():
            (docs_dir / name).write_text(text, encoding="utf-8")
        config = sources / "mkdocs" / f"{lang.code}.yml"
        config.parent.mkdir(parents=True, exist_ok=True)
        # One line per value (no folding): make serve's builder reads its own two paths out of it.
        config.write_text(yaml.dump(mkdocs_config(lang, languages, docs_dir, stage / lang.code, site_url),
                                    Dumper=ConfigDumper, allow_unicode=True, width=float("inf")))
        mkdocs(lang.code, config, stage / lang.code, docs_dir)
        # One sitemap for the whole site, at its root with the alternates (generator/site/seo.py):
        # MkDocs' per-language ones would list each language alone.
        for sitemap in (stage / lang.code).glob("sitemap.xml*"):
            sitemap.unlink()
    copy_game(APP, stage / "assets" / "app")
    (stage / "index.html").write_text(root_page(languages, default, site_url), encoding="utf-8")
    (stage / "404.html").write_text(not_found_page(languages, default, site_url,
                                                   {lang.code: nav_links(lang) for lang in languages}), encoding="utf-8")
    seo.write_files(stage, languages, site_url)  # preview pictures, the FAQ's data, sitemap, robots
    # The scripts we write inline: the root page's language choice, and the "js" class on every
    # page MkDocs made (the 404 page at the root is ours, without the theme's script).
    own_scripts = {stage / "index.html": (language_choice_script(languages),)}
    for page in stage.rglob("*.html"):
        text = picture_slots.fill(page.read_text(encoding="utf-8"), pictures.get(page.relative_to(stage).parts[0], {}), page)
        page.write_text(with_policy(text, own_scripts.get(page, (JS_CLASS_SCRIPT,)), str(page)), encoding="utf-8")
    write_offline(stage, languages, default, site_url)  # last: it hashes the finished files


GAME_FILES = ("*.js", "*.css")


def copy_game(app: Path, dest: Path) -> None:
    """The game's code and style, and nothing else: a stray file in app/ (a page, a picture
    someone dropped there) would reach readers without any check, so it stops the build.
    Its folders (core/, ui/) are kept, so that the modules' relative imports still resolve.
    Beside them, the reserve's picture of the deal face down, drawn from generator/render/svg.py
    (every page that embeds the game, the test harnesses' too, names it: game_embed.py)."""
    refuse_special_folder(app)
    files, folders = [], [app]
    while folders:
        folder = folders.pop(0)
        for entry in sorted(folder.iterdir()):  # a link would publish (and precache) whatever it points at
            if entry.is_symlink() or not entry.is_dir():
                refuse_special(entry)
                files.append(entry)
            else:
                folders.append(entry)
    files.sort()
    published = [p for p in files if any(p.match(pattern) for pattern in GAME_FILES)]
    stray = [p for p in files if p not in published and p.suffix != ".md"]
    if stray:
        raise BuildError(f"{stray[0]}: not part of the game (only {', '.join(GAME_FILES)} files of app/ are "
                         "published); move it out of app/")
    dest.mkdir(parents=True)
    for p in published:
        target = dest / p.relative_to(app)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, target)
    (dest / RESERVE_PICTURE).write_text(reserve_svg(), encoding="utf-8")


def read_facts(docs: Path) -> tuple[dict, Path, dict[str, int]]:
    """docs/facts.yml: its data, its path and the line of each key (for messages)."""
    path = docs / "facts.yml"
    return read_yaml(path), path, _yaml_lines(path)


def contact_address(facts: dict) -> str:
    """docs/facts.yml's contact.email, or '' while it is a placeholder by the one rule of
    generator/publish/addresses.py (the contact page then says there is no address yet)."""
    contact = facts.get("contact")
    email = str((contact.get("email") if isinstance(contact, dict) else contact) or "").strip()
    mail = addresses.MAIL.fullmatch(email)
    return email if mail and not addresses.placeholder_host(mail[1]) else ""


def behind(docs: Path) -> list[str]:
    """One line per language whose translation is behind its source (generator/i18n/translations.py)."""
    from generator.i18n import translations

    return [f"translations not current: {status.totals()}" for status in translations.all_statuses(docs) if status.problems]


def refuse_unpublishable(dest: Path, docs: Path, allow_stale: bool) -> list[str]:
    """Everything that stops a publish, said at once and in seconds, one `error:` line each (the
    command line prefixes the first): DEST, the two addresses, translations behind their source
    unless allowed. Returns the allowances for the version's record (what ALLOW_STALE let through)."""
    try:
        publish.check_destination(dest, True)
        refused = []
    except publish.DestinationError as e:
        refused = [str(e)]
    stale = behind(docs)
    hint = " (make translations lists them; ALLOW_STALE=1 publishes anyway)"
    problems = [*refused, *placeholder_problems(*read_facts(docs)), *([] if allow_stale else [line + hint for line in stale])]
    if problems:
        raise (publish.DestinationError if refused else BuildError)("\nerror: ".join(problems))
    if not allow_stale:
        return []
    return [f"ALLOW_STALE=1 let through: {line}" for line in stale] or ["ALLOW_STALE=1 (nothing was behind)"]


def build(dest: Path, bundle_path: Path = BUNDLE, docs: Path = DOCS, versioned: bool = False,
          mkdocs=run_mkdocs, allow_stale: bool = False) -> Path:
    """Gathers everything, builds and checks the site in this build's own staging folder next
    to dest, then puts it in place (publish.install): a new version behind dest's link when
    `versioned`, else a plain folder. Returns where the site now is. Raises BuildError, or
    publish.DestinationError for a dest that is not ours to replace; dest is then unchanged."""
    allowances = refuse_unpublishable(dest, docs, allow_stale) if versioned else []
    publish.check_destination(dest, versioned)
    for problem in [] if versioned else placeholder_problems(*read_facts(docs)):
        print(in_repository(f"warning: {problem} (fine for `make site`; `make publish` refuses it)"), file=sys.stderr)
    with time_bound():  # generator/guard/limits.py: whatever the inputs ask, the build ends
        g = gather(bundle_path, docs)
    with publish.build_lock(), publish.staging(dest) as stage:
        built = stage / "site"
        with time_bound():
            write_site(g.languages, g.default, g.rendered, built, stage / "sources", g.site_url, mkdocs, g.pictures)
            problems = check_site(built, {lang.code: list(lang.pages) for lang in g.languages},
                                  outside_addresses(g.facts), g.site_url)
        if problems:
            problems = [at_source(problem, built, g.languages) for problem in problems]
            raise BuildFailed("the built site failed its checks:\n  " + "\n  ".join(problems))
        return publish.install(built, dest, versioned, allowances)
