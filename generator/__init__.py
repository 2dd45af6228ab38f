"""The site generator: the verified bundle and the page sources in, the built site out.

Takes build/verified.json (only what passed `verify check`) and docs/; gives site/ (or a
published version), through its stages, each a package that says what it takes and gives:
inputs → guard → render → site → publish, with serve (make serve) and i18n (translators)
beside them. `cli` is `python -m generator`; docs/dev/README.md draws the whole pipeline.
"""
