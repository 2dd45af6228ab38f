"""MkDocs hook (every language's config, generator/site/build.py mkdocs_config): the site's name
escaped once, for every place the theme prints it.

Material prints `config.site_name` with `| e` in some attributes and raw in others (the logo
link's aria-label in header.html and nav.html, the page's <title>), so a `"` in strings.yml's
site_name ended the attribute and the rest became attributes of its own (an inline style).
As Markup the name is escaped text everywhere: raw it prints escaped, and `| e` leaves it as it is.
"""
from __future__ import annotations

from markupsafe import escape


def on_config(config, **_):
    config.site_name = escape(config.site_name)
    return config
