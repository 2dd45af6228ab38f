"""The contact page never shows a placeholder address as if it were real (language review 3, A6):
while docs/facts.yml holds one, the page says there is no address yet; a real one is a mailto link."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.site.build import contact_address, placeholder_problems
from helpers.page_sandbox import ROOT, bundle_path, nb, render_one  # noqa: F401 (fixtures)

LANGS = ("nb", "da")


@pytest.mark.parametrize("email, shown", [
    ("pyramide@example.org", ""), ("post@example.com", ""), ("a@example.net", ""), ("b@invalid", ""),
    ("", ""), ("  post@pyramide.no ", "post@pyramide.no"), ("hei@pyramidekabal.dk", "hei@pyramidekabal.dk"),
])
def test_a_placeholder_address_is_no_address_and_publish_still_refuses_it(email, shown):
    facts = {"contact": {"email": email}, "site_url": "https://pyramide.no/"}
    assert contact_address(facts) == shown
    assert bool(placeholder_problems(facts, Path("docs/facts.yml"))) == (not shown)


@pytest.mark.parametrize("code", LANGS)
def test_the_built_contact_page_shows_no_placeholder_address(built_site, code):
    site, _ = built_site
    placeholder = (ROOT / "docs" / "facts.yml").read_text(encoding="utf-8")
    assert "pyramide@example.org" in placeholder  # what the repository holds today
    html = (site / code / "contact" / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article"):html.index("</article>")]
    assert "example.org" not in article and "mailto:" not in article


@pytest.mark.parametrize("email", ["post@pyramide.no", ""])
def test_the_page_links_a_real_address_and_says_so_when_there_is_none(nb, tmp_path, email):
    lang, context = nb
    source = (ROOT / "docs" / "nb" / "pages" / "contact.md").read_text(encoding="utf-8")
    page = render_one((lang, {**context, "facts": {**context["facts"], "contact": {"email": email}}}), tmp_path, source)
    if email:
        assert f"[{email}](mailto:{email})" in page and "ennå" not in page
    else:
        assert "mailto:" not in page and "e-postadresse ennå" in page
    assert "kontrollert det på nytt" in page  # the closing paragraph stands either way
