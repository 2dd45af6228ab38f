"""The theme's words: docs/<lang>/theme.yml, data that translators write (not a template).

mkdocs-material looks its interface words up by key (partials/language.html `t(key)`); the one
partial that answers, generator/overrides/partials/language.html, prints them from the
language's MkDocs config (`extra.theme_words`), escaped. A file must give every key of KEYS as
text (Material would fall back to English for a missing one) and nothing else. The keys that are
settings, not words (the page's language and direction, the search's language, pipeline and
separator), come from the generator: GENERATED.
"""
from __future__ import annotations

from pathlib import Path

from generator.errors import BuildError

KEYS = (
    "action.edit", "action.skip", "action.view", "announce.dismiss", "blog.archive",
    "blog.authors", "blog.categories", "blog.categories.in", "blog.continue", "blog.draft",
    "blog.index", "blog.meta", "blog.references", "clipboard.copy", "clipboard.copied",
    "consent.accept", "consent.manage", "consent.reject", "footer", "footer.next",
    "footer.previous", "header", "meta.comments", "meta.source", "nav", "readtime.one",
    "readtime.other", "rss.created", "rss.updated", "search", "search.placeholder",
    "search.share", "search.reset", "search.result.initializer", "search.result.placeholder",
    "search.result.none", "search.result.one", "search.result.other", "search.result.more.one",
    "search.result.more.other", "search.result.term.missing", "select.language",
    "select.version", "source", "source.file.contributors", "source.file.date.created",
    "source.file.date.updated", "tabs", "toc", "toc.permalink", "top"
)
# `#` in these stands for the number Material fills in; the `.one` forms may hold the digit 1.
ONE_KEYS = tuple(k for k in KEYS if k.endswith(".one"))
SEARCH_PIPELINE = "stopWordFilter"
SEARCH_SEPARATOR = r"[\s\-]+"


def load_theme_words(path: Path, read_yaml) -> dict[str, str]:
    """The words of one theme.yml; BuildError naming the file and key of anything wrong."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise BuildError(f"{path}: must be a mapping of the theme's keys to words (copy docs/nb/theme.yml)")
    for key in KEYS:
        if key not in data:
            raise BuildError(f"{path}: missing the theme's word '{key}' (copy it from docs/nb/theme.yml and translate it)")
    for key, value in data.items():
        if key not in KEYS:
            raise BuildError(f"{path}: unknown key '{key}'; the theme's keys are those of docs/nb/theme.yml")
        if not isinstance(value, str) or not value.strip():
            raise BuildError(f"{path}: '{key}' must be text")
    return dict(data)


def theme_config(words: dict[str, str], code: str, search: str) -> dict[str, str]:
    """Every key Material asks for: the translator's words and the generator's settings."""
    return {**words, "language": code, "direction": "ltr", "search.config.lang": search,
            "search.config.pipeline": SEARCH_PIPELINE, "search.config.separator": SEARCH_SEPARATOR}
