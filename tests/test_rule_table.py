"""The sources page's rule table in plain words (language review 2, nb #32/#35, da #36/#39):
each rule under its name from strings.yml, never its code id, and small counts as words."""
import re
from html import unescape

import pytest
import yaml

from site_build import ROOT


def strings(lang):
    return yaml.safe_load((ROOT / "docs" / lang / "strings.yml").read_text(encoding="utf-8"))


def rows(site, lang):
    html = (site / lang / "sources" / "index.html").read_text(encoding="utf-8")
    table = html[html.index('<table class="rule-checks">'):]
    table = table[:table.index("</table>")]
    return {m.group(1): [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td>(.*?)</td>", m.group(2))]
            for m in re.finditer(r'<tr id="rule-([a-z-]+)">(.*?)</tr>', table, re.S)}


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_each_rule_is_named_in_words_not_by_its_id(built_site, lang):
    site, _ = built_site
    names = strings(lang)["rule_names"]
    table = rows(site, lang)
    assert len(table) == len(names)
    for rule_id, name in names.items():
        first = table[rule_id.replace(".", "-")][0]
        assert first == name.replace("{target_sum}", "13") and rule_id not in first
        assert "<code>" not in first


@pytest.mark.parametrize("lang, limit, points", [
    ("nb", "høyst to ganger per spill, altså tre gjennomganger", "Hvert fjernet kort gir fem poeng"),
    ("da", "højst føres tilbage to gange i et spil, altså tre gennemgange", "Hvert fjernet kort giver fem point"),
])
def test_small_counts_in_the_rule_sentences_are_words(built_site, lang, limit, points):
    site, _ = built_site
    table = rows(site, lang)
    assert limit in table["turn-limit"][1]
    assert table["points-table"][1].startswith(points)
