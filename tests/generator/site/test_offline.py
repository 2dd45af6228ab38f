"""The offline parts of the built site (generator/site/offline.py) and their site check: manifests in
each language with icons that exist, every page linking its manifest and the registration
script, the service worker's file list and hashes, and a new cache name for any changed file."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import strict_yaml

from generator.site import offline
from generator.errors import BuildError
from generator.inputs.languages import load_languages
from generator.site.sitecheck import check_site
from helpers.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
LANGS = LANGUAGES


def worker_build(site: Path) -> dict:
    text = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(text.split("const BUILD = ", 1)[1].split(";\n", 1)[0])


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("lang", LANGS)
def test_manifest_speaks_the_language_and_its_icons_exist(built_site, lang):
    site, _ = built_site
    data = json.loads((site / lang / "manifest.webmanifest").read_text(encoding="utf-8"))
    words = strict_yaml.load(ROOT / "docs" / lang / "strings.yml")["manifest"]
    assert (data["name"], data["short_name"], data["lang"]) == (words["name"], words["short_name"], lang)
    assert data["start_url"] == data["scope"] == "./" and data["theme_color"] == offline.THEME_COLOUR
    found = set()
    for icon in data["icons"]:
        size = png_size(site / lang / icon["src"])
        assert icon["sizes"] == f"{size[0]}x{size[1]}"
        found.add((size[0], icon["purpose"]))
    assert found == {(192, "any"), (512, "any"), (512, "maskable")}


def test_every_page_links_its_manifest_and_registers_the_worker(built_site):
    site, _ = built_site
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.count('rel="manifest"') == 1, page
        assert 'sw-register.js"' in html, page
        if page.name == "404.html":  # sent at any depth: its link starts at the site's path
            folder = "" if page.parent == site else f"{page.parent.name}/"  # the root's 404 page: the root's manifest
            assert f'href="/{folder}manifest.webmanifest"' in html, page
    assert (site / "sw.js").is_file() and (site / "sw-register.js").is_file()


def test_worker_caches_every_page_the_game_and_the_search_with_true_hashes(built_site):
    site, languages = built_site
    build = worker_build(site)
    files = build["files"]
    for lang, names in languages.items():
        for name in names:
            assert (f"{lang}/" if name == "index.md" else f"{lang}/{name[:-3]}/") in files
        assert f"{lang}/search/search_index.json" in files and f"{lang}/404.html" in files
        assert any(f.startswith(f"{lang}/assets/javascripts/workers/search.") for f in files)
        assert f"{lang}/manifest.webmanifest" in files
    assert "" in files  # the root page
    for name in ("ui/game.js", "ui/game.css", "core/worker.js", "core/engine.js", "core/decider.js", "core/hint.js",
                 "core/storage.js", "ui/dom.js", "core/messages.js", "core/judge.js"):
        assert f"assets/app/{name}" in files
    assert not any(f.endswith(".map") or f == "sw.js" or f.startswith(".") for f in files)
    assert not any(f.endswith(("lunr.ja.min.js", "wordcut.js")) for f in files)  # languages we do not have
    for address, digest in files.items():
        path = site / address / "index.html" if address == "" or address.endswith("/") else site / address
        assert offline.file_hash(path) == digest, address
    assert build["cache"] == offline.CACHE_PREFIX + offline.build_hash(files)


def test_a_changed_file_gives_a_new_cache_name_and_an_uncached_one_does_not(built_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site[0], site)
    languages, _ = load_languages()
    first = json.loads(offline.service_worker(site, languages).split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert first == worker_build(built_site[0])  # the same files, the same name
    next(site.glob("nb/assets/javascripts/*.map")).write_text("{}", encoding="utf-8")
    same = json.loads(offline.service_worker(site, languages).split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert same["cache"] == first["cache"]
    (site / "nb" / "variants" / "index.html").write_text("<!doctype html><title>changed</title>", encoding="utf-8")
    changed = json.loads(offline.service_worker(site, languages).split("const BUILD = ", 1)[1].split(";\n", 1)[0])
    assert changed["cache"] != first["cache"] and changed["files"]["nb/variants/"] != first["files"]["nb/variants/"]


def test_a_missing_manifest_block_is_one_error_naming_the_file():
    languages, _ = load_languages()
    lang = languages[0]
    lang.strings = {k: v for k, v in lang.strings.items() if k != "manifest"}
    with pytest.raises(BuildError, match=r"strings\.yml: manifest must give"):
        offline.manifest_words(lang)
    lang.strings["manifest"] = {"name": "Pyramide", "short_name": "  "}
    with pytest.raises(BuildError, match=r"strings\.yml: manifest must give"):
        offline.manifest_words(lang)


def test_maskable_icon_fills_the_square_and_keeps_the_pyramid_inside_the_safe_circle():
    import xml.etree.ElementTree as ET

    root = ET.fromstring(offline.icon_svg(maskable=True))
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert root.find(".//svg:rect[@id='background']", ns).get("rx") == "0"
    scale, middle = offline.MASKABLE_SCALE, 256 * (1 - offline.MASKABLE_SCALE)
    for card in root.findall(".//svg:g[@id='pyramid']/svg:rect", ns):
        x, y, w, h = (float(card.get(k)) for k in ("x", "y", "width", "height"))
        for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            px, py = middle + scale * cx, middle + scale * cy
            assert (px - 256) ** 2 + (py - 256) ** 2 <= (0.4 * 512) ** 2  # the maskable safe zone


@pytest.fixture
def site_copy(built_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site[0], site)
    return site, built_site[1]


def problems_of(site: Path, languages: dict) -> list[str]:
    sources = {s["url"] for s in (strict_yaml.load(ROOT / "docs" / "facts.yml") or {}).get("sources", [])}
    return check_site(site, languages, sources, "http://127.0.0.1:8000/")


def test_site_check_accepts_the_built_site(site_copy):
    assert [p for p in problems_of(*site_copy) if "manifest" in p] == []


def test_site_check_finds_a_page_without_manifest_and_a_missing_icon(site_copy):
    site, languages = site_copy
    page = site / "da" / "contact" / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace('rel="manifest"', 'rel="x-manifest"'), encoding="utf-8")
    (site / "assets" / "icons" / "pyramide-maskable-512.png").unlink()
    problems = problems_of(site, languages)
    assert any(p.startswith(f"{page}: 0 <link rel=manifest>") for p in problems)
    assert any("icon ../assets/icons/pyramide-maskable-512.png is missing" in p for p in problems)


def test_site_check_finds_a_manifest_in_another_language(site_copy):
    site, languages = site_copy
    (site / "da" / "manifest.webmanifest").write_text((site / "nb" / "manifest.webmanifest").read_text(encoding="utf-8"),
                                                       encoding="utf-8")
    problems = problems_of(site, languages)
    assert any("is not in the page's language 'da'" in p for p in problems)
