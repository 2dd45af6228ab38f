"""One page source through the lint and the sandbox, as `gather` takes each page, without the other
pages (render_one), with the module-scoped fixtures it needs: the verified bundle's path
(bundle_path) and nb's language and context (nb). A test module imports the fixtures it uses."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.site import build as site
from generator.inputs.bundle import load_bundle
from generator.render.context import build_context
from generator.errors import BuildError
from generator.inputs.languages import load_languages
from generator.render.pages import PageFunctions, make_environment, render_page

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bundle_path():
    path = ROOT / "build" / "verified.json"
    if not path.exists():
        from helpers.cached_builds import ensure_bundle
        ensure_bundle()
    return path


@pytest.fixture(scope="module")
def nb(bundle_path):
    """(language, context) of nb, built once."""
    languages, _ = load_languages(ROOT / "docs")
    lang = next(lang for lang in languages if lang.code == "nb")
    facts = site.read_yaml(ROOT / "docs" / "facts.yml")
    context = build_context(load_bundle(bundle_path), lang, facts)
    context["_game_strings"] = lang.game_strings
    return lang, context


def render_one(nb, folder: Path, text: str, name: str = "page.md") -> str:
    """One page source through the lint and the sandbox, as `gather` takes each page."""
    lang, context = nb
    pages = folder / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    source = pages / name
    source.write_text(text, encoding="utf-8")
    problems = site.lint_page(source)
    if problems:
        raise BuildError(problems[0])
    functions = PageFunctions(context, site.assets_url)
    env = make_environment(pages, context, functions, {name: source})
    return render_page(env, functions, source)
