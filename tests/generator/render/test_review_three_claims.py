"""Two claims of language review 3 that were false and are held here by their words (the
others by the message checks, test_contact_page, test_figures_agree and test_counted_texts):
A7, the sources page said every number on the site is checked, beside figures it says it could
not check; A10, an example note said the waste's top card can always be in a pair, which a king
never is."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

CLAIMS = [  # (file, what it may not say, what it says instead)
    ("docs/nb/pages/sources.md", "hvert tall på nettstedet", "hvert tall vi har regnet ut selv"),
    ("docs/da/pages/sources.md", "hvert tal på webstedet", "hvert tal, vi selv har regnet ud"),
    ("docs/nb/examples/winnable.yml", "kan alltid være med i et par", "kan alltid brukes, også sammen med et fritt pyramidekort"),
    ("docs/da/examples/winnable.yml", "altid være med i et par", "kan altid bruges, også sammen med et frit pyramidekort"),
]


@pytest.mark.parametrize("name, false, true", CLAIMS, ids=[c[0] for c in CLAIMS])
def test_the_false_claim_is_gone_and_the_true_one_said(name, false, true):
    text = " ".join((ROOT / name).read_text(encoding="utf-8").split())  # lines joined as Markdown joins them
    assert false not in text and true in text, name
