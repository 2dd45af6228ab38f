"""Paths and shared numbers of the generator, in one place.

The generator never imports verify/: it reads only the bundle verify writes. Its copy of the
bundle's path and schema is held equal to verify/settings.py's by tests/test_layout.py.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
DOCS = ROOT / "docs"  # page sources, strings and glossary per language
APP = ROOT / "app"  # the game's files, copied into the site as they are
ASSETS = ROOT / "generator" / "assets"
OVERRIDES = ROOT / "generator" / "overrides"  # the theme's template overrides

# The verified data bundle: the only data the site is made from.
BUNDLE = BUILD / "verified.json"
BUNDLE_SCHEMA = 1
