"""The site's languages as the tests take them: from docs/languages.yml, in its order (the first
is the source language). A test that holds for every language uses these, never a list of its own."""
from pathlib import Path

import strict_yaml

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = tuple(entry["code"] for entry in strict_yaml.load(ROOT / "docs" / "languages.yml")["languages"])
SOURCE = LANGUAGES[0]
