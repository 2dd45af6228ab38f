"""The sources page's rule table in plain words (language review 2, nb #32/#35, da #36/#39):
each rule under its name from strings.yml, never its code id, and small counts as words."""
import re
from html import unescape

import pytest
import yaml

from generator.render.slugs import slug
from helpers.cached_builds import ROOT
from helpers.languages import LANGUAGES


def strings(lang):
    return yaml.safe_load((ROOT / "docs" / lang / "strings.yml").read_text(encoding="utf-8"))


def rows(site, lang):
    html = (site / lang / "sources" / "index.html").read_text(encoding="utf-8")
    table = html[html.index('<table class="rule-checks">'):]
    table = table[:table.index("</table>")]
    names = {name.format(target_sum=13): rule_id for rule_id, name in strings(lang)["rule_names"].items()}
    found = {}
    for m in re.finditer(r'<tr id="([a-z0-9-]+)">(.*?)</tr>', table, re.S):
        cells = [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td>(.*?)</td>", m.group(2))]
        found[names[cells[0]]] = [m.group(1)] + cells
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_rule_is_named_in_words_not_by_its_id(built_site, lang):
    site, _ = built_site
    names = strings(lang)["rule_names"]
    table = rows(site, lang)
    assert len(table) == len(names)
    word = strings(lang)["tables"]["rule_checks"]["rule"]
    for rule_id, name in names.items():
        anchor, first = table[rule_id][:2]
        assert first == name.replace("{target_sum}", "13") and rule_id not in first
        # the row's anchor, where the page's check marks link, is its name too: «#regel-antall-vendinger»
        assert anchor == slug(f"{word} {first}", lang) and rule_id.replace(".", "-") not in anchor


@pytest.mark.parametrize("lang, limit, points", [
    ("nb", "høyst to ganger per spill, altså tre gjennomganger", "Hvert fjernet kort gir fem poeng"),
    ("da", "højst lægges tilbage to gange i et spil, altså tre gennemgange", "Hvert fjernet kort giver fem point"),
])
def test_small_counts_in_the_rule_sentences_are_words(built_site, lang, limit, points):
    site, _ = built_site
    table = rows(site, lang)
    assert limit in table["turn.limit"][2]
    assert table["points.table"][2].startswith(points)
