"""Translation: a language's text as segments, their status, PO files and new languages.

Takes docs/<lang>/ (page sources, strings, example texts). Gives the segments a translator
translates (`segments`), which are missing, untranslated or stale (`translations`), gettext PO
files out and in (`po`), and a new language copied from an existing one (`new_language`).
"""
