"""The pyramid pictures are put into the built pages after MkDocs (generator/render/picture_slots.py):
each slot gets its own drawing, a slot nobody filled or one used twice stops the build, and
the built pages hold the drawings where the slots were."""
import re

import pytest

from generator.render import picture_slots
from generator.errors import BuildError
from helpers.cached_builds import shared_site


def test_each_slot_gets_its_own_drawing(tmp_path):
    page = tmp_path / "index.html"
    html = f"<p>a</p>{picture_slots.slot('pic-a-1')}<p>b</p>{picture_slots.slot('pic-b-2')}"
    filled = picture_slots.fill(html, {"pic-a-1": "<svg id='a'/>", "pic-b-2": "<svg id='b'/>", "pic-c-3": "x"}, page)
    assert filled == "<p>a</p><svg id='a'/><p>b</p><svg id='b'/>"


def test_a_slot_no_page_function_filled_stops_the_build_naming_the_page(tmp_path):
    page = tmp_path / "index.html"
    with pytest.raises(BuildError) as e:
        picture_slots.fill(f"<p>{picture_slots.slot('pic-x-9')}</p>", {"pic-a-1": "<svg/>"}, page)
    assert str(e.value) == f"{page}: a picture slot 'pic-x-9' that no page function filled"


def test_a_picture_twice_on_a_page_stops_the_build(tmp_path):
    page = tmp_path / "index.html"
    twice = picture_slots.slot("pic-a-1") * 2
    with pytest.raises(BuildError) as e:
        picture_slots.fill(twice, {"pic-a-1": "<svg/>"}, page)
    assert str(e.value) == f"{page}: the picture 'pic-a-1' is on the page twice"


def test_a_slot_name_is_an_id_prefix():
    for bad in ("", "1pic", "pic a", "pic-->", "pic<"):
        with pytest.raises(ValueError):
            picture_slots.slot(bad)


def test_the_built_pages_hold_every_drawing_and_no_slot():
    site = shared_site()
    pages = sorted(site.rglob("*.html"))
    drawings = figures = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "pyramide-picture" not in html, page
        # Every picture box holds its drawing, right inside it, as the page function wrote it.
        for box in re.finditer(r'<div class="pyramid-picture"[^>]*>(.{0,200})', html, re.S):
            assert box.group(1).startswith('<svg xmlns="http://www.w3.org/2000/svg" class="pyr"'), (page, box.group(1)[:80])
            drawings += 1
        figures += html.count('<figure class="pyramid-figure">')
    assert drawings == figures > 0  # every picture's figure holds its drawing
