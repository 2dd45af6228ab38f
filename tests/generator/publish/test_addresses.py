"""The placeholder rule for the site's two addresses (generator/publish/addresses.py): every name
reserved by RFC 2606 / RFC 6761 and every name under it is refused for site_url and contact.email
alike, in one `error:` line each naming the file, its line, the value and the rule the README
states; `make publish` says every reason of one run at once."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.publish import addresses
from generator.settings import ROOT
from generator.site import build as site

RESERVED_HOSTS = [f"{prefix}{name}{dot}" for name in ("example", "example.com", "example.net", "example.org", "test",
                                                      "invalid", "localhost")
                  for prefix in ("", "pyramide.", "a.b.") for dot in ("", ".")]
REAL_HOSTS = ["pyramide.no", "exampleco.com", "example.co", "myexample.com", "test.no", "tests", "localhost.no",
              "invalid-name.dk", "example.com.no", "195.88.54.16"]
FACTS = """sources: []
contact: {email: "%s"}
# the address
site_url: "%s"
"""


def facts_problems(tmp_path: Path, email: str, url: str) -> list[str]:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "facts.yml").write_text(FACTS % (email, url), encoding="utf-8")
    return addresses.problems(*site.read_facts(docs))


@pytest.mark.parametrize("host", RESERVED_HOSTS + [h.upper() for h in RESERVED_HOSTS[::5]])
def test_a_reserved_name_is_a_placeholder_for_the_site_and_the_mail_alike(tmp_path, host):
    problems = facts_problems(tmp_path, f"post@{host}", f"https://{host}/pyramide/")
    facts = tmp_path / "docs" / "facts.yml"
    assert problems == [
        f"{facts}:2: contact.email is 'post@{host}', a placeholder: {addresses.RULE}; set the project's real address there",
        f"{facts}:4: site_url is 'https://{host}/pyramide/', a placeholder: {addresses.RULE}; "
        "set the address the site is published at there"]


@pytest.mark.parametrize("host", REAL_HOSTS)
def test_a_name_outside_the_reserved_ones_is_real(tmp_path, host):
    assert facts_problems(tmp_path, f"post@{host}", f"https://{host}/") == []


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/", "http://[::1]/", "http://0.0.0.0/", "http://127.8.9.1/"])
def test_a_loopback_site_url_is_a_placeholder(tmp_path, url):
    assert [p.split(": ", 1)[1] for p in facts_problems(tmp_path, "post@pyramide.no", url)] == [
        f"site_url is {url!r}, a placeholder: {addresses.RULE}; set the address the site is published at there"]


@pytest.mark.parametrize("email, url, says", [
    ("", "https://pyramide.no/", ["contact.email is empty, a placeholder"]),
    ("pyramide.no", "https://pyramide.no/", ["contact.email is 'pyramide.no', not a mail address (name@domain)"]),
    ("post@pyramide.no", "pyramide.no/", ["site_url is 'pyramide.no/', not an http(s) address ending in '/'"]),
    ("post@pyramide.no", "https://pyramide.no", ["site_url is 'https://pyramide.no', not an http(s) address"]),
    ("a@b@example.com", "ftp://pyramide.test/", ["not a mail address", "not an http(s) address"]),
])
def test_a_malformed_address_is_said_with_the_placeholders(tmp_path, email, url, says):
    problems = facts_problems(tmp_path, email, url)
    assert len(problems) == len(says) and all(said in problem for said, problem in zip(says, problems)), problems


def test_a_contact_that_is_no_mapping_is_said_not_raised():
    assert addresses.problems({"contact": "post@pyramide.test", "site_url": "https://pyramide.no/"}, Path("f.yml")) == [
        f"f.yml: contact.email is 'post@pyramide.test', a placeholder: {addresses.RULE}; set the project's real address there"]
    assert addresses.problems({"contact": ["x"], "site_url": "https://pyramide.no/"}, Path("f.yml")) == [
        "f.yml: contact.email is \"['x']\", not a mail address (name@domain); set the project's real address there"]


def test_the_readme_states_the_rule_the_refusal_gives():
    readme = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert addresses.RULE in readme


def test_publish_says_every_reason_of_one_run_at_once(monkeypatch, capsys, tmp_path):
    """A file as DEST, both addresses placeholders and translations behind: four `error:` lines
    from one run, nothing built."""
    dest = tmp_path / "site.html"
    dest.write_text("keep me")
    facts = tmp_path / "facts.yml"
    monkeypatch.setattr(site, "read_facts", lambda docs: (
        {"contact": {"email": "kontakt@pyramide.example.net"}, "site_url": "https://pyramide.test/"}, facts, {}))
    monkeypatch.setattr(site, "behind", lambda docs: ["translations not current: da 2 stale"])
    monkeypatch.setattr(site, "gather", lambda *args: pytest.fail("nothing is gathered when publish is refused"))
    assert main(["publish", str(dest)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[:2] for line in lines] == [
        ["error", str(dest)], ["error", f"{facts}"], ["error", f"{facts}"], ["error", "translations not current"]], lines
    assert "contact.email is 'kontakt@pyramide.example.net', a placeholder" in lines[1]
    assert "site_url is 'https://pyramide.test/', a placeholder" in lines[2]
    assert lines[3] == "error: translations not current: da 2 stale (make translations lists them; ALLOW_STALE=1 publishes anyway)"
    assert dest.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["site.html"]


def test_make_site_builds_with_placeholders_and_warns(monkeypatch, capsys, tmp_path):
    facts = tmp_path / "facts.yml"
    monkeypatch.setattr(site, "read_facts", lambda docs: ({"contact": {"email": "x@test"}}, facts, {}))

    class Gathered(Exception):
        pass

    def gather(*args):
        raise Gathered
    monkeypatch.setattr(site, "gather", gather)
    with pytest.raises(Gathered):  # the build goes on past the placeholders
        site.build(tmp_path / "site")
    err = capsys.readouterr().err
    assert f"warning: {facts}: contact.email is 'x@test', a placeholder" in err
    assert f"warning: {facts}: site_url is not set" in err
