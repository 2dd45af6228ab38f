"""Bad input stops the build with a message naming file and line, and the site stays as it was."""
import hashlib
import json
import shutil
import subprocess
from html.parser import HTMLParser
import sys
from pathlib import Path

import pytest
import yaml

from helpers.cached_builds import ROOT, build_site, ensure_bundle


@pytest.fixture
def docs(tmp_path):
    ensure_bundle()
    copy = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", copy)
    return copy


def append_line(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.append(text)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def test_a_bare_number_is_refused_with_file_line_and_column(docs, tmp_path):
    page = docs / "nb" / "pages" / "index.md"
    line = append_line(page, "Det finnes 52 kort.")
    r = build_site(tmp_path / "site", docs=docs)
    assert r.returncode != 0
    assert f"{page}, line {line}, column 12: a number typed by hand" in r.stderr
    assert not (tmp_path / "site").exists()


def test_an_unknown_variable_is_refused_with_file_and_line(docs, tmp_path):
    page = docs / "da" / "pages" / "examples.md"
    line = append_line(page, "Se {{ rules.no_such_value }} her.")
    r = build_site(tmp_path / "site", docs=docs)
    assert r.returncode != 0
    assert f"{page}, line {line}: unknown name in the template" in r.stderr
    assert "no_such_value" in r.stderr


def test_a_missing_translation_is_refused(docs, tmp_path):
    strings = docs / "da" / "strings.yml"
    data = yaml.safe_load(strings.read_text(encoding="utf-8"))
    del data["nav"]["examples"]
    strings.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    (docs / "da" / "pages" / "variants.md").unlink()
    r = build_site(tmp_path / "site", docs=docs)
    assert r.returncode != 0
    assert f"{strings}: missing string 'nav.examples' (present in nb)" in r.stderr
    assert f"{docs / 'da' / 'pages' / 'variants.md'}: missing page (present in nb)" in r.stderr


@pytest.mark.parametrize("damage, message", [
    (lambda b: b["checks"][0].update(passed=False), "records failed checks (examples.read)"),
    (lambda b: b["inputs"].update({"app/core/engine.js": "0" * 64}), "app/core/engine.js has changed since the bundle was made"),
    (lambda b: b.update(schema=0), "bundle schema 0"),
])
def test_a_failed_or_stale_bundle_is_refused(tmp_path, damage, message):
    bundle = json.loads(ensure_bundle().read_text())
    damage(bundle)
    path = tmp_path / "verified.json"
    path.write_text(json.dumps(bundle))
    r = build_site(tmp_path / "site", bundle=path)
    assert r.returncode != 0 and message in r.stderr
    r = build_site(tmp_path / "site", bundle=tmp_path / "missing.json")
    assert r.returncode != 0 and "the verified data bundle is missing" in r.stderr


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def set_contact(docs: Path, email: str) -> None:
    facts = docs / "facts.yml"
    text = facts.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("contact:"))
    # A publishable site also needs its address (publish refuses the local default).
    facts.write_text(text.replace(old, f'contact: {{email: "{email}"}}\nsite_url: "https://pyramide.no/"'),
                     encoding="utf-8")


@pytest.mark.parametrize("email", ["pyramide@example.org", "post@EXAMPLE.com", ""])
def test_publish_refuses_a_placeholder_contact_address(docs, tmp_path, email):
    set_contact(docs, email)
    r = build_site(tmp_path / "published", docs=docs, command="publish")
    assert r.returncode == 2
    line = next(n for n, text in enumerate((docs / "facts.yml").read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("contact:"))
    assert f"facts.yml:{line}: contact.email is" in r.stderr and "a placeholder" in r.stderr
    assert not (tmp_path / "published").exists()


def test_make_site_builds_with_a_placeholder_and_warns(docs, tmp_path):
    r = build_site(tmp_path / "site", docs=docs)
    assert r.returncode == 0, r.stderr
    assert "warning:" in r.stderr and "contact.email is 'pyramide@example.org', a placeholder" in r.stderr


def test_publish_leaves_the_old_copy_untouched_on_failure(docs, tmp_path):
    dest = tmp_path / "published"
    set_contact(docs, "post@pyramide.no")
    r = build_site(dest, docs=docs, command="publish")
    assert r.returncode == 0, r.stderr
    before = tree_digest(dest)
    append_line(docs / "nb" / "pages" / "sources.md", "{{ broken")
    r = build_site(dest, docs=docs, command="publish")  # refused before the build: da is now behind nb
    assert r.returncode == 2 and "translations not current: da" in r.stderr and tree_digest(dest) == before
    r = subprocess.run([sys.executable, "-m", "generator", "publish", str(dest), "--docs", str(docs), "--allow-stale",
                        "--bundle", str(ensure_bundle())], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode != 0 and "template syntax error" in r.stderr
    assert tree_digest(dest) == before
    # No staging left behind; the published versions sit beside the link.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "published", "published.versions"]


def test_a_quote_in_the_site_name_stays_inside_its_attributes(docs, tmp_path):
    """Issue 40: a `"` in site_name broke out of the logo link's aria-label (the theme prints it raw) to hide it."""
    name = 'Pyramide" style="display:none'  # an inline style passes the text rules; a handler would not
    for lang in ("nb", "da"):
        strings = docs / lang / "strings.yml"
        data = yaml.safe_load(strings.read_text(encoding="utf-8"))
        data["site_name"] = name
        strings.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    r = build_site(tmp_path / "site", docs=docs)
    assert r.returncode == 0, r.stderr
    labels = LogoLabels()
    labels.feed((tmp_path / "site" / "nb" / "index.html").read_text(encoding="utf-8"))
    assert labels.found and all(attrs.get("aria-label") == name and "style" not in attrs
                                for attrs in labels.found)


class LogoLabels(HTMLParser):
    """The attributes of every logo link (class md-logo) on a page."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "md-logo" in (attrs.get("class") or ""):
            self.found.append(attrs)


def test_a_new_page_without_a_nav_title_is_one_error_line(docs, tmp_path):
    """Issue 40: a page with no title under strings.yml's nav stopped the build with a 20-line traceback."""
    for lang in ("nb", "da"):
        (docs / lang / "pages" / "historie.md").write_text("# Historie\n\nKabalen er gammel.\n", encoding="utf-8")
    r = build_site(tmp_path / "site", docs=docs)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    for lang in ("nb", "da"):
        assert (f"{docs / lang / 'pages' / 'historie.md'}: no title in the navigation; add `historie: <title>` "
                f"under nav: in {docs / lang / 'strings.yml'}") in r.stderr
    assert not (tmp_path / "site").exists()
