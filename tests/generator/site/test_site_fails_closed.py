"""Hostile text never reaches a reader: a note is text, the site check allows only what it
knows to be safe, and every page carries a Content-Security-Policy covering its scripts."""
import json
import re

import pytest

from generator.site.csp import SCRIPT, inline_script_hash, policy_of, with_policy
from generator.site.sitecheck import check_site
from helpers.cached_builds import ROOT, build_site, ensure_bundle

# No digits: a note with a number is refused before escaping matters (tested below).
HOSTILE_NOTES = [
    "<script>alert(document.domain)</script>",
    "<img src=x onerror=alert(document.domain)>",
    "<svg onload=alert(document.domain)>",
    '<iframe srcdoc="<script>alert(document.domain)</script>">',
    "[klikk](javascript:alert(document.domain))",
    "![bilde](https://evil.example/x.png)",
    "<style>body{display:none}</style>",
    "<a href='JaVaScRiPt:alert(document.domain)'>x</a>",
]


def page(body: str, head: str = "", policy: bool = True) -> str:
    html = f'<!doctype html><html lang="nb"><head><meta charset="utf-8">{head}</head><body>{body}</body></html>'
    # These pages test the site check, not the policy: each inline script in them counts as ours
    # (how the build refuses scripts nobody known wrote: tests/generator/guard/test_content_sandbox.py).
    own = tuple(m.group(2) for m in SCRIPT.finditer(html))
    return with_policy(html, own_scripts=own) if policy else html


def problems_of(tmp_path, body: str, head: str = "", policy: bool = True, css: str | None = None) -> list[str]:
    site = tmp_path / "site"
    (site / "nb").mkdir(parents=True)
    (site / "nb" / "index.html").write_text(page(body, head, policy), encoding="utf-8")
    if css is not None:
        (site / "nb" / "x.css").write_text(css, encoding="utf-8")
    return check_site(site, {"nb": ["index.md"]}, {"https://cited.example/rules"})


def test_a_clean_page_passes(tmp_path):
    problems = problems_of(tmp_path, '<a href="https://cited.example/rules">kilde</a><img src="a.png">'
                                     '<script src="x.js"></script>')
    # This bare page has no web app manifest; the manifest's own checks are in tests/generator/site/test_offline.py.
    assert [p for p in problems if "manifest" not in p] == []


@pytest.mark.parametrize("body, expected", [
    ('<a href="javascript:alert(1)">x</a>', "scheme 'javascript:'"),
    ('<a href="JaVaScRiPt:alert(1)">x</a>', "scheme 'javascript:'"),
    ('<a href="java\tscript:alert(1)">x</a>', "scheme 'javascript:'"),
    ('<a href=" vbscript:x">x</a>', "scheme 'vbscript:'"),
    ('<iframe src="data:text/html,<script>alert(1)</script>"></iframe>', "scheme 'data:'"),
    ('<img srcset="a.png 1x, https://evil.example/b.png 2x">', "loads https://evil.example/b.png"),
    ('<div style="background:url(https://evil.example/x.png)"></div>', "CSS loads https://evil.example/x.png"),
    ("<style>@import 'https://evil.example/x.css';</style>", "CSS @import"),
    ('<svg><image href="https://evil.example/x.png"/></svg>', "loads https://evil.example/x.png"),
    ('<svg><image xlink:href="//evil.example/x.png"/></svg>', "loads //evil.example/x.png"),
    ('<input type="image" src="a.png">', "<input type=image>"),
    ('<video poster="https://evil.example/p.png"></video>', "loads https://evil.example/p.png"),
    ('<form action="https://evil.example/steal"><button>x</button></form>', "<form> that sends somewhere"),
    ('<button formaction="https://evil.example/">x</button>', "loads https://evil.example/"),
    ('<img src="a.png" onerror="alert(1)">', "inline event handler"),
    ('<svg onload="alert(1)"></svg>', "inline event handler"),
    ('<base href="https://evil.example/">', "<base>"),
    ('<a href="https://uncited.example/">x</a>', "not a cited source"),
    ('<a href="mailto:someone@evil.example">x</a>', "mails mailto:someone@evil.example, which is not the contact address"),  # issue 40
    ('<a href="/nb/">x</a>', "starts at the server's root"),
    ('<link rel="stylesheet" href="https://evil.example/x.css">', "loads https://evil.example/x.css"),
])
def test_every_way_out_is_refused(tmp_path, body, expected):
    problems = problems_of(tmp_path, body)
    assert any(expected in p for p in problems), problems


def test_an_inline_script_the_policy_does_not_name_is_refused(tmp_path):
    html = page("<p>x</p>", head="<script>var ok = 1;</script>")
    smuggled = html.replace("</body>", "<script>alert(1)</script></body>")
    site = tmp_path / "site"
    (site / "nb").mkdir(parents=True)
    (site / "nb" / "index.html").write_text(smuggled, encoding="utf-8")
    problems = check_site(site, {"nb": ["index.md"]}, set())
    assert any("inline script the Content-Security-Policy does not allow: 'alert(1)'" in p for p in problems), problems
    assert not any("var ok" in p for p in problems)


def test_a_page_without_a_policy_is_refused(tmp_path):
    assert any("no Content-Security-Policy" in p for p in problems_of(tmp_path, "<p>x</p>", policy=False))


def test_stylesheets_of_the_site_may_not_load_from_elsewhere(tmp_path):
    problems = problems_of(tmp_path, "<p>x</p>", css="@font-face{src:url('https://fonts.example/f.woff2')}")
    assert any("x.css: CSS loads https://fonts.example/f.woff2" in p for p in problems), problems


def test_the_policy_names_each_inline_script_and_nothing_unsafe():
    html = with_policy(page("<p>x</p>", head="<script>var a=1;</script>", policy=False), own_scripts=("var a=1;",))
    policy = policy_of(re.search(r'Content-Security-Policy" content="([^"]*)"', html).group(1))
    assert policy["default-src"] == ["'self'"]
    assert f"'{inline_script_hash('var a=1;')}'" in policy["script-src"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert html.index("Content-Security-Policy") < html.index("<script>")


# -- end to end: a bundle carrying hostile notes builds a site in which they are only text

@pytest.fixture(scope="module")
def bundle_with(tmp_path_factory):
    original = json.loads(ensure_bundle().read_text(encoding="utf-8"))

    def make(notes: dict) -> "Path":
        bundle = json.loads(json.dumps(original))
        bundle["examples"][0]["steps"][1]["notes"] = notes
        # The gate recounts the notes the note check read: keep the count true, so that what is
        # tested is the generator's handling of the note, not the gate.
        for check in bundle["checks"]:
            if check["id"] == "notes.true":
                check["counts"]["notes"] = sum(len(step.get("notes") or {}) for ex in bundle["examples"]
                                               for step in ex["steps"])
        path = tmp_path_factory.mktemp("bundle") / "verified.json"
        path.write_text(json.dumps(bundle, ensure_ascii=False), encoding="utf-8")
        return path
    return make


def test_hostile_notes_reach_the_page_as_text(bundle_with, tmp_path):
    note = " ".join(HOSTILE_NOTES)
    r = build_site(tmp_path / "site", bundle=bundle_with({"nb": note, "da": note}))
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "site" / "nb" / "examples" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(document.domain)&lt;/script&gt;" in html
    assert "<script>alert" not in html and "<img src=x" not in html and "<svg onload" not in html
    assert "<iframe" not in html and "<style>body{display:none}" not in html
    assert 'href="javascript:' not in html.lower() and '<img alt="bilde"' not in html
    assert "[klikk](javascript:alert(document.domain))" in html  # Markdown in a note stays text


def test_a_number_in_a_note_stops_the_build(bundle_with, tmp_path):
    r = build_site(tmp_path / "site", bundle=bundle_with({"nb": "99 % vinner", "da": "Godt træk"}))
    assert r.returncode != 0
    assert "the nb note contains a number typed by hand ('99 % vinner')" in r.stderr
    assert re.search(r"examples/\S+\.yaml, line \d+, move 2", r.stderr), r.stderr
    assert not (tmp_path / "site").exists()


def test_a_note_in_one_language_only_stops_the_build(bundle_with, tmp_path):
    r = build_site(tmp_path / "site", bundle=bundle_with({"nb": "Et godt trekk."}))
    assert r.returncode != 0
    assert "the note has no da text" in r.stderr


def test_a_stray_file_in_app_is_not_published(tmp_path, monkeypatch):
    from generator.site import build as site
    from generator.errors import BuildError

    app = tmp_path / "app"
    app.mkdir()
    (app / "game.js").write_text("export {};")
    (app / "evil.html").write_text("<script>alert(1)</script>")
    with pytest.raises(BuildError, match=r"evil.html: not part of the game"):
        site.copy_game(app, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_apps_folders_are_copied_as_they_are_and_checked_alike(tmp_path):
    """app/core/ and app/ui/ keep their places (a module's relative imports resolve in the site as
    in app/); a stray file in one of them stops the build like one at the top."""
    from generator.site import build as site
    from generator.errors import BuildError

    app = tmp_path / "app"
    (app / "core").mkdir(parents=True)
    (app / "ui").mkdir()
    (app / "core" / "engine.js").write_text("export {};")
    (app / "ui" / "game.js").write_text("import {} from '../core/engine.js';")
    (app / "ui" / "game.css").write_text("a{}")
    site.copy_game(app, tmp_path / "out")
    assert sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*") if p.is_file()) == [
        "core/engine.js", site.RESERVE_PICTURE, "ui/game.css", "ui/game.js"]
    (app / "ui" / "evil.html").write_text("<script>alert(1)</script>")
    with pytest.raises(BuildError, match=r"ui/evil.html: not part of the game"):
        site.copy_game(app, tmp_path / "again")
    assert not (tmp_path / "again").exists()
