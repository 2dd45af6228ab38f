"""Stage 4, site: the whole site built by MkDocs and Material, then checked before it is kept.

Takes the rendered pages of every language (generator.render). Gives a complete site folder:
the MkDocs build per language (`build`), the root chooser and 404 pages (`root_pages`), what
search engines read (`seo`), the offline app (`offline`), the Content-Security-Policy
(`csp`), and the check of the built site (`sitecheck`) that must pass before it replaces
the one before.
"""
