"""Tests of generator.render.svg: well-formed, accessible, honest pictures of positions."""

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
import xml.etree.ElementTree as ET

import pytest

from generator.render.svg import STOCK_XY, CardNames, PictureText, card_svg, pyramid_svg, pyramid_xy, reserve_svg

NS = "{http://www.w3.org/2000/svg}"

NB = CardNames(
    ranks=dict(zip("A23456789TJQK",
                   "ess to tre fire fem seks sju åtte ni ti knekt dame konge".split())),
    suits=dict(zip("SHDC", "spar hjerter ruter kløver".split())),
)
DA = CardNames(
    ranks=dict(zip("A23456789TJQK",
                   "es to tre fire fem seks syv otte ni ti knægt dame konge".split())),
    suits=dict(zip("SHDC", "spar hjerter ruder klør".split())),
)
T_NB = PictureText(row="rad", stock="trekkbunke", waste="kastebunke", empty="tom",
                   free="fri", removed="fjernet", cards="kort",
                   just_removed="nettopp fjernet", top="øverst")
T_DA = PictureText(row="række", stock="talon", waste="afkastbunke", empty="tom",
                   free="fri", removed="fjernet", cards="kort",
                   just_removed="lige fjernet", top="øverst")

BASE = [r + s for s in "SHDC" for r in "A23456789TJQK"]
# A fixed permutation of the deck (7 is prime to 52): 52 distinct codes, no randomness.
DECK = [BASE[(7 * i + 3) % 52] for i in range(52)]
assert len(set(DECK)) == 52


def idx(r, c):
    return r * (r - 1) // 2 + c - 1


def opening(pyr_first="7H"):
    deck = list(DECK)
    j = deck.index(pyr_first)
    deck[0], deck[j] = deck[j], deck[0]
    return {"pyramid": deck[:28], "waste": [deck[28]], "stock": deck[29:],
            "turns_left": 2, "points": 0, "moves": 0, "status": "playing"}


def render(pos, *, names=NB, text=T_NB, prefix="p1", **kw):
    return pyramid_svg(pos, names=names, text=text, title=kw.pop("title", "Bilde"),
                       id_prefix=prefix, **kw)


def parse(svg):
    return ET.fromstring(svg)


def classes(el):
    return set(el.get("class", "").split())


def cards(root):
    return [g for g in root.iter(NS + "g") if "card" in classes(g)]


def pyramid_cards(root):
    return {(int(g.get("data-row")), int(g.get("data-col"))): g
            for g in cards(root) if g.get("data-row")}


def removed_places(root):
    return {(int(g.get("data-row")), int(g.get("data-col")))
            for g in root.iter(NS + "g") if {"place", "removed"} <= classes(g)}


def desc_text(root):
    return root.find(NS + "desc").text


def mid_position():
    """Row 7 gone, (6,1) and (6,2) gone: free are (5,1) and (6,3)…(6,6)."""
    pos = opening()
    pyr = list(pos["pyramid"])
    for c in range(1, 8):
        pyr[idx(7, c)] = None
    pyr[idx(6, 1)] = None
    pyr[idx(6, 2)] = None
    return {"pyramid": pyr, "waste": DECK[28:33], "stock": DECK[33:45]}


# --------------------------------------------------------------------------- words


def test_card_names_suit_then_rank():
    assert NB.name("7H") == "hjerter sju"
    assert DA.name("7H") == "hjerter syv"
    assert NB.name("10d") == "ruter ti"
    assert DA.name("jc") == "klør knægt"
    assert NB.label("TD") == "10" and NB.label("QS") == "Q"
    assert CardNames(ranks=NB.ranks, suits=NB.suits, labels={"J": "Kn"}).label("JS") == "Kn"
    with pytest.raises(ValueError):
        NB.name("1H")
    with pytest.raises(ValueError):
        NB.name("7X")


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("names,text,word", [(NB, T_NB, "hjerter sju"),
                                             (DA, T_DA, "hjerter syv")])
def test_accessible_root_in_page_language(names, text, word):
    svg = render(opening(), names=names, text=text, prefix="x1", title="Åpning <1> & 2")
    root = parse(svg)
    assert root.tag == NS + "svg"
    assert root.get("role") == "img"
    assert root.get("viewBox")
    assert root.get("aria-labelledby") == "x1-title x1-desc"
    title = root.find(NS + "title")
    desc = root.find(NS + "desc")
    assert title.get("id") == "x1-title" and title.text == "Åpning <1> & 2"
    assert desc.get("id") == "x1-desc" and desc.text.strip()
    assert word in desc.text
    row = "Rad" if names is NB else "Række"
    for r in range(1, 8):
        assert f"{row} {r}: " in desc.text
    assert f"{text.stock[0].upper() + text.stock[1:]}: 23 kort." in desc.text
    # the first pyramid card is named first in row 1
    assert f"{row} 1: {word}." in desc.text


def test_caller_desc_is_used_and_escaped():
    root = parse(render(opening(), desc="A < B & C"))
    assert desc_text(root) == "A < B & C"


def test_no_external_references():
    mid = mid_position()
    for svg in (render(opening()), render(mid, highlight={mid["pyramid"][idx(6, 3)]})):
        rest = svg.replace('xmlns="http://www.w3.org/2000/svg"', "", 1)
        assert "http" not in rest
        assert "href" not in rest and "<image" not in rest
        assert "@import" not in rest and "url(" not in rest
    # the cards' stylesheet, which the pictures' pages link, loads nothing either: system fonts only
    css = (Path(__file__).resolve().parents[3] / "app" / "ui" / "cards.css").read_text(encoding="utf-8")
    assert "font-family:system-ui,sans-serif" in css
    assert "@import" not in css and "url(" not in css and "http" not in css


def test_ids_unique_and_prefixed():
    a, b = render(opening(), prefix="fig-a"), render(mid_position(), prefix="fig-b")
    ids_a = re.findall(r'\bid="([^"]+)"', a)
    ids_b = re.findall(r'\bid="([^"]+)"', b)
    assert len(ids_a) == len(set(ids_a)) and len(ids_b) == len(set(ids_b))
    assert all(i.startswith("fig-a-") for i in ids_a)
    assert all(i.startswith("fig-b-") for i in ids_b)
    assert not set(ids_a) & set(ids_b)
    with pytest.raises(ValueError):
        render(opening(), prefix='bad"id')


def test_no_style_of_its_own_unless_asked_and_class_based():
    """A picture on a page takes its look from app/ui/cards.css, linked by the page: a <style> of
    its own would come after the game's stylesheet and override it. One made to stand alone
    (the link preview) carries the style it is given."""
    root = parse(render(opening()))
    assert root.find(NS + "style") is None
    assert "pyr" in classes(root)
    alone = parse(render(opening(), style=".pyr .face{fill:#fff} /* a < b */"))
    assert alone.find(NS + "style").text == ".pyr .face{fill:#fff} /* a < b */"


def test_colour_classes_and_red_black():
    root = parse(render(opening()))
    for g in cards(root):
        suit = g.get("data-code")[1]
        assert ("red" in classes(g)) == (suit in "HD")
        assert ("black" in classes(g)) == (suit in "SC")


def test_card_fragment_parses_alone():
    frag = card_svg("TD", 10, 20, free=True, names=NB)
    g = ET.fromstring(frag)
    assert classes(g) == {"card", "red", "free"}
    assert g.get("data-code") == "TD"
    assert any(t.text == "10" for t in g.iter("text"))


# --------------------------------------------------------------------------- content


def test_opening_draws_every_card_and_row7_free():
    pos = opening()
    root = parse(render(pos))
    pc = pyramid_cards(root)
    assert len(pc) == 28 and not removed_places(root)
    for (r, c), g in pc.items():
        assert g.get("data-code") == pos["pyramid"][idx(r, c)]
        assert ("free" in classes(g)) == (r == 7)
    d = desc_text(root)
    assert d.count("(fri)") == 7
    assert d.count("(fri)") == d[d.index("Rad 7"):].count("(fri)")


def test_free_class_exactly_on_free_cards():
    pos = mid_position()
    root = parse(render(pos))
    pc = pyramid_cards(root)
    free = {rc for rc, g in pc.items() if "free" in classes(g)}
    assert free == {(5, 1), (6, 3), (6, 4), (6, 5), (6, 6)}
    assert len(pc) == 28 - 9
    # the waste top is available but not a pyramid "free" card
    waste = [g for g in cards(root) if g.get("data-pile") == "waste"]
    assert len(waste) == 1 and "free" not in classes(waste[0])
    assert waste[0].get("data-code") == pos["waste"][-1]


def test_show_free_false_marks_nothing():
    root = parse(render(mid_position(), show_free=False))
    assert not any("free" in classes(g) for g in cards(root))
    assert "(fri)" not in desc_text(root)


def test_removed_cards_are_empty_places():
    pos = mid_position()
    root = parse(render(pos))
    gone = {(r, c) for r in range(1, 8) for c in range(1, r + 1)
            if pos["pyramid"][idx(r, c)] is None}
    assert removed_places(root) == gone
    assert not gone & set(pyramid_cards(root))
    d = desc_text(root)
    assert "Rad 7: tom." in d
    assert "Rad 6: fjernet, fjernet, " in d


def test_highlight_draws_ghosts_and_uncovers():
    pos = mid_position()
    a, b = pos["pyramid"][idx(6, 3)], pos["pyramid"][idx(6, 4)]
    top = pos["waste"][-1]
    root = parse(render(pos, highlight={a, b, top}))
    pc = pyramid_cards(root)
    ghosts = {g.get("data-code") for g in cards(root) if "ghost" in classes(g)}
    assert ghosts == {a, b, top}
    for rc in [(6, 3), (6, 4)]:
        assert "ghost" in classes(pc[rc]) and "free" not in classes(pc[rc])
    # with (6,3) and (6,4) gone too, (5,2) and (5,3) are uncovered; (5,4) still has (6,5)
    free = {rc for rc, g in pc.items() if "free" in classes(g)}
    assert free == {(5, 1), (5, 2), (5, 3), (6, 5), (6, 6)}
    # the waste now shows the card below the removed top, count one less
    waste = [g for g in cards(root) if g.get("data-pile") == "waste" and "ghost" not in classes(g)]
    assert [g.get("data-code") for g in waste] == [pos["waste"][-2]]
    count = [t for t in root.iter(NS + "text") if "waste-count" in classes(t)]
    assert count[0].text == f"{len(pos['waste']) - 1} kort"
    d = desc_text(root)
    assert f"{NB.name(a)} (nettopp fjernet)" in d and f"{NB.name(b)} (nettopp fjernet)" in d
    assert "nettopp fjernet" in d[d.index("Kastebunke"):]


def test_highlight_in_danish():
    pos = opening()
    root = parse(render(pos, names=DA, text=T_DA, highlight={"7H"}))   # 7H is the apex
    assert "Række 1: hjerter syv (lige fjernet)." in desc_text(root)


def test_highlight_of_missing_card_is_refused():
    pos = mid_position()
    with pytest.raises(ValueError):
        render(pos, highlight={pos["stock"][0]})      # in the stock
    with pytest.raises(ValueError):
        render(pos, highlight={opening()["pyramid"][idx(7, 1)]})   # already removed


@pytest.mark.parametrize("n", [0, 1, 23])
def test_stock_count_equals_len_stock(n):
    pos = opening()
    pos["stock"] = pos["stock"][:n]
    root = parse(render(pos))
    counts = [t for t in root.iter(NS + "text") if "stock-count" in classes(t)]
    stock_places = [g for g in root.iter(NS + "g")
                    if g.get("data-pile") == "stock" and "empty" in classes(g)]
    if n:
        assert len(counts) == 1 and counts[0].text == str(n)
        assert not stock_places
        assert f"Trekkbunke: {n} kort." in desc_text(root)
    else:
        assert not counts and len(stock_places) == 1
        assert "Trekkbunke: tom." in desc_text(root)


def test_empty_waste_is_empty_place():
    pos = opening()
    pos["waste"] = []
    root = parse(render(pos))
    assert not [g for g in cards(root) if g.get("data-pile") == "waste"]
    assert [g for g in root.iter(NS + "g")
            if g.get("data-pile") == "waste" and {"place", "empty"} <= classes(g)]
    assert "Kastebunke: tom." in desc_text(root)


def test_waste_top_named_in_desc():
    pos = opening()
    root = parse(render(pos, names=DA, text=T_DA))
    assert f"Afkastbunke: {DA.name(pos['waste'][-1])} øverst, 1 kort." in desc_text(root)


def test_bad_pyramid_refused():
    with pytest.raises(ValueError):
        render({"pyramid": DECK[:27], "stock": [], "waste": []})


def test_no_sliver_of_a_covered_card_shows_between_two_neighbours():
    """Where two cards of a row lie side by side over a card of the row above, the gap between them
    is filled with the table's colour by rims drawn after that covered card: no strip of its face
    or ink shows through (the pictures and the game's board look alike)."""
    from generator.render.svg import CARD_H, CARD_W
    pos = opening()
    pos["pyramid"][idx(7, 3)] = None  # a removed card: its neighbours still leave no sliver
    root = parse(render(pos))
    order = list(root.iter())
    rims = [(order.index(el), float(el.get("x")), float(el.get("y")), float(el.get("width")), float(el.get("height")))
            for el in order if el.tag == NS + "rect" and {"table", "rim"} <= classes(el)]
    where = {}
    for (r, c), g in pyramid_cards(root).items():
        x, y = map(float, re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform")).groups())
        where[(r, c)] = (order.index(g), x, y)
    checked = 0
    for (r, c), (drawn, x, y) in where.items():
        left, right = where.get((r + 1, c)), where.get((r + 1, c + 1))
        if not (left and right):
            continue
        gap_x0, gap_x1, gap_y0, gap_y1 = left[1] + CARD_W, right[1], left[2], y + CARD_H
        for gx in (gap_x0, (gap_x0 + gap_x1) / 2, gap_x1):
            for gy in (gap_y0 + 4, (gap_y0 + gap_y1) / 2, gap_y1):
                assert any(i > drawn and rx <= gx <= rx + w and ry <= gy <= ry + h for i, rx, ry, w, h in rims), \
                    f"row {r} card {c}: the gap at ({gx}, {gy}) shows it"
        checked += 1
    assert checked == 21 - 2  # every covered card (rows 1–6) but the two over the removed one


def test_the_reserve_is_the_deal_face_down_at_the_boards_places():
    """The picture the game's reserve shows until the board is drawn: a standalone SVG file (it is
    loaded by <img>, so it carries its own style and names no other file), the 28 pyramid cards and
    the stock as backs where the board puts them, and no words (one file for every language)."""
    root = ET.fromstring(reserve_svg())
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("viewBox") == "0 0 752 552"
    assert root.find(f"{ns}style") is not None and "href" not in reserve_svg()
    assert root.find(f".//{ns}text") is None
    backs = [(float(r.get("x")), float(r.get("y"))) for r in root.iter(f"{ns}rect") if r.get("class") == "back-face"]
    places = [STOCK_XY] + [pyramid_xy(r, c) for r in range(1, 8) for c in range(1, r + 1)]
    assert backs == [tuple(map(float, xy)) for xy in places]


# ---------------------------------------------------------------- one drawing, for the pictures and the board

ROOT = Path(__file__).resolve().parents[3]
CODES = ["AS", "TH", "QD", "7C"]  # every suit, a rank index of one letter and of two ("10")


def _leaves(tree, keys=()):
    """Every value of the drawing, with the keys that lead to it."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _leaves(value, keys + (key,))
    else:
        yield keys, tree


def _with(tree, keys, value):
    tree = json.loads(json.dumps(tree))
    inner = tree
    for key in keys[:-1]:
        inner = inner[key]
    inner[keys[-1]] = value
    return tree


def _svg_drawing_from(drawing_file, monkeypatch):
    """A fresh copy of generator/render/svg.py that reads the drawing from drawing_file."""
    import generator.render.svg as real
    from generator.render import card_drawing
    monkeypatch.setattr(card_drawing, "FILE", drawing_file)
    name = f"svg_from_{drawing_file.parent.parent.name}"
    spec = importlib.util.spec_from_file_location(name, real.__file__)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _python_drawings(svg):
    names = CardNames(ranks={}, suits={})
    return ([svg.card_svg(c, 0, 0, names=names, **kw) for c in CODES for kw in ({}, {"free": True}, {"highlight": True})]
            + [svg.place_svg(0, 0, kind="removed"), svg.place_svg(0, 0, kind="empty"), svg.back_svg(0, 0, 24)]
            + [[list(svg.pyramid_xy(r, c)) for r in range(1, 8) for c in range(1, r + 1)]])


def _board_drawings(apps):
    """What app/ui/board.js draws, the same things, in each copy of app/ (one Node process)."""
    from verify.app import find_node
    script = f"""
      const {{ pathToFileURL }} = await import('node:url');
      const out = [];
      for (const app of {json.dumps([str(a) for a in apps])}) {{
        const b = await import(pathToFileURL(app + '/ui/board.js').href);
        const label = (c) => (c[0] === 'T' ? '10' : c[0]);
        out.push([...{json.dumps(CODES)}.flatMap((c) =>
            [b.cardSvg(c, label(c)), b.cardSvg(c, label(c), {{ free: true }}), b.cardSvg(c, label(c), {{ ghost: true }})]),
          b.placeSvg('removed'), b.placeSvg('empty'), b.backSvg(24),
          Array.from({{ length: 28 }}, (_, k) => b.pyramidXY(k))]);
      }}
      console.log(JSON.stringify(out));"""
    out = subprocess.run([find_node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def test_the_pictures_and_the_board_draw_from_the_one_drawing(tmp_path, monkeypatch):
    """The cards' drawing is data in app/core/card-drawing.js, written nowhere else: each of its values,
    changed in a copy of app/, changes both what svg.py draws (the site's pictures) and what
    app/ui/board.js draws (the game's board), alike; unchanged, both draw the same cards."""
    from generator.render import card_drawing
    source = ROOT / "app" / "core" / "card-drawing.js"
    drawing = card_drawing.read(source)
    variants = list(_leaves(drawing))
    assert len(variants) > 20 and all(isinstance(v, (int, str)) for _, v in variants)
    apps = []
    for i, (keys, value) in enumerate(variants):
        app = tmp_path / f"v{i}" / "app"
        shutil.copytree(ROOT / "app", app)
        changed = value + 1 if isinstance(value, int) else value + "M0 0L1 1Z"
        (app / "core" / "card-drawing.js").write_text(
            f"export const CARD_DRAWING = {json.dumps(_with(drawing, keys, changed), indent=2)};\n", encoding="utf-8")
        apps.append(app)
    python = [_python_drawings(_svg_drawing_from(app / "core" / "card-drawing.js", monkeypatch)) for app in apps]
    board = _board_drawings([ROOT / "app"] + apps)
    original = _python_drawings(_svg_drawing_from(source, monkeypatch))
    assert board[0] == original  # the pictures' cards are the board's
    for (keys, _), py, js in zip(variants, python, board[1:]):
        where = ".".join(keys)
        assert py != original, f"{where}: svg.py does not draw from the drawing"
        assert js == py, f"{where}: the board does not draw it as svg.py does"


def test_the_drawing_must_be_strict_json(tmp_path):
    from generator.errors import BuildError
    from generator.render import card_drawing
    bad = tmp_path / "card-drawing.js"
    bad.write_text('// the drawing\nexport const CARD_DRAWING = {\n  "card": {"width": 100,},\n};\n', encoding="utf-8")
    with pytest.raises(BuildError, match=rf"{re.escape(str(bad))}:3: the CARD_DRAWING object must be strict JSON"):
        card_drawing.read(bad)
    bad.write_text("export const CARD_DRAWING = {};\nexport const MORE = 1;\n", encoding="utf-8")
    with pytest.raises(BuildError, match="must end with `export const CARD_DRAWING"):
        card_drawing.read(bad)


def test_the_boards_proportions_in_the_stylesheet_are_the_drawings():
    """game.css sizes the board and the reserve by the pictures' width and height (it cannot read
    app/core/card-drawing.js): every ratio written there is the drawing's VIEW_W / VIEW_H, or a
    card's CARD_W / CARD_H (the win's small cards), so a card design that changes a size is seen here."""
    import re
    from generator.render.svg import CARD_H, CARD_W, VIEW_H, VIEW_W
    css = (Path(__file__).resolve().parents[3] / "app" / "ui" / "game.css").read_text(encoding="utf-8")
    ratios = re.findall(r"(\d+) / (\d+)\)*;", css)
    board = (str(VIEW_W), str(VIEW_H))
    assert ratios.count(board) >= 4 and set(ratios) <= {board, (str(CARD_W), str(CARD_H))}, ratios


def test_the_reserves_card_back_is_the_card_looks(tmp_path):
    """The reserve's picture copies the card back from app/ui/cards.css; a look without those
    two rules stops the build, naming the file."""
    from generator.errors import BuildError
    from generator.render.card_drawing import back_style
    looks = (Path(__file__).resolve().parents[3] / "app" / "ui" / "cards.css").read_text(encoding="utf-8")
    assert ".pyr " + back_style().replace("}.", "}\n.pyr .") in looks
    broken = tmp_path / "cards.css"
    broken.write_text(looks.replace(".pyr .back-inner{", ".pyr .back-lining{"), encoding="utf-8")
    with pytest.raises(BuildError, match="cards.css: the card back"):
        back_style(broken)
