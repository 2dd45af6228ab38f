"""No sentence of running text starts with a digit (generator/guard/sentences.py), and the build stops
on one, naming the page source and line."""
import shutil
from pathlib import Path

import pytest

from generator.errors import BuildError
from generator.guard.sentences import digit_sentences, sentence_problems
from helpers.cached_builds import ROOT, ensure_bundle

FIGURE = """<div class="pyramide-replay" lang="nb"><p class="chapter-title"><strong>Utdelingen</strong></p>
<figure class="pyramid-figure">
<svg xmlns="http://www.w3.org/2000/svg"><style>
.pyr .rank{font-weight:700}
</style><text>7</text></svg>
<figcaption>Utdeling 27: slik ligger kortene</figcaption>
</figure>

<p class="chapter-title"><strong>Et par</strong></p>
<figure><figcaption>12 kort er fjernet</figcaption></figure>
</div>"""


def starts(markdown: str) -> list[tuple[int, str]]:
    """(line, the sentence's first two words) of each sentence found."""
    return [(line, " ".join(text.split()[:2])) for line, text in digit_sentences(markdown)]


# ---------------------------------------------------------------- what is caught, and where
@pytest.mark.parametrize("markdown, found", [
    ("28 kort ligger i pyramiden.", [(1, "28 kort")]),
    ("Pyramiden er full.\nDen har sju rader. 28 kort\nligger der.", [(2, "28 kort")]),
    ("Vent! 3 ganger i alt? 2 igjen.", [(1, "3 ganger"), (1, "2 igjen.")]),
    ("Slik: «Ferdig.» 5 poeng per kort.", [(1, "5 poeng")]),
    ("**28** kort ligger i pyramiden.", [(1, "28 kort")]),
    ("[7 rader](sources.md) har pyramiden.", [(1, "7 rader")]),
    ("Tekst her.\n\n- Første punkt.\n- 24 kort ved siden av.\n  10 poeng for et par.", [(4, "24 kort"), (5, "10 poeng")]),
    ("1. Første steg.\n1. 24 kort ligger igjen.", [(2, "24 kort")]),
    ("- Punkt med\nlat fortsettelse. 9 kort til.", [(2, "9 kort")]),
    ("!!! tip \"Råd\"\n    Et råd.\n\n    13 er summen.", [(4, "13 er")]),
    ("??? question \"Hvor mange?\"\n    3 ganger i alt.", [(2, "3 ganger")]),
    ("Regelen står her. [✓&nbsp;turn.limit](sources.md#rule-turn-limit){ .rule-ref } 3 ganger i alt.",
     [(1, "3 ganger")]),
    ('Regelen står her. [✓](sources.md#rule-turn-limit){: .rule-ref aria-label="Kontrollert regel: vending" '
     'title="Kontrollert regel: vending" } 3 ganger i alt.', [(1, "3 ganger")]),
])
def test_a_sentence_starting_with_a_digit_is_found(markdown, found):
    assert starts(markdown) == found


@pytest.mark.parametrize("markdown", [
    "Pyramiden har 28 kort i 7 rader.",
    "# 28 kort\n\n## 3 gjennomganger\n\nTre gjennomganger\n=================",
    "| Kort | Verdi |\n|---|---|\n| 7 | 7 |",
    "```\n28 kort\n```\n\n~~~\n3 ganger\n~~~",
    "Tekst:\n\n    28 kort i en kodeblokk",
    FIGURE,
    "1. Kortene stokkes.\n2. Pyramiden legges ut.",
    "Undersøkelsen fant ca. 66 % vinnbare. Se nr. 27 og f.eks. 12 andre.",
    "Oppdatert 30. oktober 2026. Tallet 1.520 og 66,5 % står midt i setningen.",
    "Ferdig.\n\n<p>28 kort i rå HTML</p>\n\nSlutt.",
    "Vinner du? Ja. Ellers prøver du igjen!",
])
def test_what_is_not_a_sentence_start_keeps_its_digits(markdown):
    assert digit_sentences(markdown) == []


def test_running_text_after_html_and_tables_is_still_read():
    markdown = FIGURE + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n4 kort igjen."
    assert starts(markdown) == [(len(markdown.splitlines()), "4 kort")]


# ---------------------------------------------------------------- the message
def test_the_problem_names_the_source_line(tmp_path):
    source = tmp_path / "index.md"
    source.write_text("# Pyramiden\n\nPyramiden ligger klar.\n{{ rules.pyramid_cards }} kort ligger i sju rader.\n",
                      encoding="utf-8")
    rendered = "# Pyramiden\n\n<div>\nspill\n</div>\n\nPyramiden ligger klar.\n28 kort ligger i sju rader.\n"
    assert sentence_problems(source, rendered) == [
        f"{source}, line 4: a sentence starts with a digit ('28 kort ligger i sju rader.'); "
        "write the count as a word (`{{ n | spell }}`) or turn the sentence round"]


def test_without_a_matching_source_line_the_rendered_line_is_named(tmp_path):
    source = tmp_path / "index.md"
    source.write_text("{{ text }}\n", encoding="utf-8")
    problems = sentence_problems(source, "Innledning.\n\n12 kort.\n")
    assert problems and problems[0].startswith(f"{source}, line 3 of the rendered page: a sentence starts with a digit")


# ---------------------------------------------------------------- the build stops on it
def test_the_build_stops_on_a_sentence_that_starts_with_a_digit(tmp_path):
    from generator.site.build import gather

    bundle = ensure_bundle()
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    page = docs / "da" / "pages" / "examples.md"
    text = page.read_text(encoding="utf-8").rstrip("\n") + "\n\n{{ rules.rows }} rækker har pyramiden i alt.\n"
    page.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        gather(bundle, docs)
    assert f"{page}, line {len(text.splitlines())}: a sentence starts with a digit ('7 rækker har pyramiden i alt.')" \
        in str(caught.value)
