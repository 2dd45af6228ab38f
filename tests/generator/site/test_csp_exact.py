"""The Content-Security-Policy (generator/site/csp.py) held to its exact promise: the whole policy a
page gets, the hash of each known inline script and of no other, which scripts count as
executed, the theme's scripts known with their one variable part only, the refusal's whole
message, and the policy's place in <head>."""
import base64
import hashlib
import re
from pathlib import Path

import material
import pytest

from generator.site import csp
from generator.site.csp import UnknownScript, known_script, policy_for, policy_of, with_policy

BASE = ("default-src 'self'; script-src 'self'{hashes}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'")


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def theme_script(name: str, scope: str = "") -> str:
    """The theme's first inline script in partials/javascripts/<name>, its {{ … }} filled with scope."""
    text = (Path(material.__file__).parent / "templates" / "partials" / "javascripts" / name).read_text(encoding="utf-8")
    return re.sub(r"\{\{.*?\}\}", scope, re.findall(r"<script>(.*?)</script>", text, re.S)[0])


def test_a_page_without_inline_scripts_gets_the_whole_base_policy():
    assert policy_for("<html><head></head><body><p>x</p></body></html>") == BASE.format(hashes="")


def test_each_known_inline_script_is_allowed_by_its_hash_once_and_in_order():
    a, b = "var a=1;", "var b=2;"
    html = f"<script>{b}</script><p>x</p><script>{a}</script><script>{b}</script>"
    assert policy_for(html, own_scripts=(a, b)) == BASE.format(hashes=" " + " ".join(sorted([sha(a), sha(b)])))
    assert csp.inline_script_hash(a) == sha(a)[1:-1]


@pytest.mark.parametrize("attributes", [' src="/x.js"', " SRC = 'x.js'", ' type="application/json"',
                                        " type=application/ld+json", ' type="text/plain"'])
def test_a_script_that_does_not_run_here_needs_no_hash(attributes):
    assert policy_for(f"<script{attributes}>alert(1)</script>") == BASE.format(hashes="")


@pytest.mark.parametrize("attributes", ["", ' type="module"', " type='text/javascript'", " TYPE=Application/JavaScript",
                                        ' defer'])
def test_a_script_that_runs_is_refused_unless_known(attributes):
    with pytest.raises(UnknownScript) as e:
        policy_for(f"<p>a</p>\n<p>b</p>\n<SCRIPT{attributes}>\n  alert('a script from nowhere, longer than forty letters')</script>",
                   where="nb/index.html")
    assert str(e.value) == ("nb/index.html, line 3: an inline script that neither the theme nor the generator wrote "
                            "('alert('a script from nowhere, longer tha'); it gets no place in the policy")


def test_the_refusal_names_a_page_when_told_no_file():
    with pytest.raises(UnknownScript) as e:
        policy_for("<script>x()</script>")
    assert str(e.value).startswith("a page, line 1: ")


@pytest.mark.parametrize("scope", [".", "..", "../..", "/", "/pyramide/nb/", "/a_b-9/"])
def test_the_themes_settings_script_is_known_for_each_scope_a_page_has(scope):
    script = theme_script("base.html", scope)
    assert known_script(script)
    assert policy_for(f"<script>{script}</script>") == BASE.format(hashes=" " + sha(script))


@pytest.mark.parametrize("scope", ["", "...", "./x", "https://evil.test/", "/a b/", '")+alert(1)+("'])
def test_the_themes_settings_script_with_any_other_scope_is_refused(scope):
    assert not known_script(theme_script("base.html", scope))


@pytest.mark.parametrize("name", ["content.html", "palette.html"])
def test_the_themes_fixed_scripts_are_known_exactly(name):
    script = theme_script(name)
    assert known_script(script)
    assert not known_script(script + ";alert(1)") and not known_script("alert(1);" + script)


def test_the_generators_own_script_is_known_only_where_it_is_passed():
    assert known_script("go()", own_scripts=("go()",)) and not known_script("go()")
    assert not known_script("go();", own_scripts=("go()",))


def test_the_policy_comes_first_in_head_after_the_charset():
    html = '<html><head><meta charset="utf-8"><title>t</title></head><body></body></html>'
    assert with_policy(html) == ('<html><head><meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" '
                                 f'content="{BASE.format(hashes="")}"><title>t</title></head><body></body></html>')
    bare = '<html><HEAD lang="nb"><title>t</title></HEAD></html>'
    assert with_policy(bare) == ('<html><HEAD lang="nb">\n<meta http-equiv="Content-Security-Policy" '
                                 f'content="{BASE.format(hashes="")}"><title>t</title></HEAD></html>')


def test_a_page_without_head_is_refused():
    with pytest.raises(ValueError, match=r"^a page without <head>$"):
        with_policy("<html><body></body></html>")


def test_a_policys_text_is_read_directive_by_directive():
    assert policy_of("Script-Src 'self' 'sha256-x'; ; img-src data:;object-src 'none'; script-src *") == {
        "script-src": ["'self'", "'sha256-x'"], "img-src": ["data:"], "object-src": ["'none'"]}
    assert policy_of(BASE.format(hashes="")) == csp.BASE_POLICY


def test_a_script_that_runs_after_one_that_does_not_is_still_refused():
    with pytest.raises(UnknownScript):
        policy_for('<script type="application/json">{}</script><script src="/a.js"></script><script>alert(1)</script>')
    assert policy_for('<script type="application/json">{}</script><script>go()</script>', own_scripts=("go()",)) == \
        BASE.format(hashes=" " + sha("go()"))


def test_the_pages_refusal_names_a_page_and_the_scripts_line_when_told_no_file():
    html = "\n<html><head></head><body><script>x()</script></body></html>"
    with pytest.raises(UnknownScript) as e:
        with_policy(html)
    assert str(e.value) == ("a page, line 2: an inline script that neither the theme nor the generator wrote ('x()'); "
                            "it gets no place in the policy")
