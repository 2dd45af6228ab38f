"""Inline SVG pictures of Pyramid positions (pure functions, no I/O).

Every function returns a string. Nothing is fetched: no fonts, no images, no links; the
only URL in the output is the SVG namespace. All words come from the caller
(:class:`CardNames`, :class:`PictureText`), so the same code draws nb and da pictures.

Main entry points
-----------------
* :func:`pyramid_svg` - a whole position (JSON format of ``docs/positions.md``) as one
  accessible ``<svg role="img">`` with ``<title>``/``<desc>``.
* :func:`card_svg`, :func:`place_svg`, :func:`back_svg` - single ``<g>`` fragments,
  drawn in card coordinates ``0..CARD_W`` x ``0..CARD_H`` and moved with ``transform``.

Highlight ("the pair just removed")
-----------------------------------
Pass the position from *before* the move and the codes of the removed cards in
``highlight``. Those cards are then drawn as ghosts and treated as gone (so the cards they
uncovered are shown free, the waste shows the card below, counts drop). A highlighted
code that is not in the position raises ``ValueError``.

The look (``app/ui/cards.css``, shared with the JS board)
------------------------------------------------------
The root ``<svg>`` has class ``pyr``; the rules of ``app/ui/cards.css`` are scoped under ``.pyr``
so they do not leak into the page. The pictures carry no ``<style>``: the page links that one
file (so a later copy can never override the game's own rules), and a board built in JS gets
the same look by putting ``class="pyr"`` on its container and emitting the same structure:

``g.card``          one face-up card (``data-code="7H"``; pyramid cards also
                    ``data-row``/``data-col``, 1-based; waste card ``data-pile="waste"``)
``g.card.red``      hearts/diamonds: red ink and a pale rose card face (so red and black
                    also differ in greyscale); ``g.card.black``: spades/clubs
``g.card.free``     a free pyramid card: thick blue border + round check badge
                    (``circle.badge`` + ``path.badge-mark``) at the bottom right
``g.card.ghost``    a card just removed: faded, dashed outline, cross badge
                    (``circle.badge`` + ``path.badge-mark``) at the bottom right
``rect.face``       the card body; ``text.rank`` the big rank index top left;
                    ``path.pip`` the suit symbols (``.pip.corner`` beside the rank,
                    ``.pip.centre`` big in the middle)
``g.place``         an empty place: ``g.place.removed`` (pyramid card gone),
                    ``g.place.empty`` (empty stock/waste); ``rect.outline`` faint dashed
``g.back``          the face-down stock (``data-pile="stock"``): ``rect.back-face``,
                    ``rect.back-inner``, ``text.count.stock-count`` (cards left)
``rect.table``      the pale green background of the whole picture (first child)
``text.label``      pile names under stock/waste; ``text.count.waste-count``: waste count

Suits are drawn as paths (``SUIT_PATHS``, a 100x100 box), not font glyphs, so they never
turn into emoji and look the same everywhere.

The drawing (sizes, corner radius, where rank, suits and badges go, the pyramid's spacing, the
suit paths) is not written here: it is data in ``app/core/card-drawing.js``, the module the game's
board (``app/ui/board.js``) imports, read here as JSON (``card_drawing.py``). One source, so the
pictures and the board draw the same card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable
from xml.sax.saxutils import escape, quoteattr

from generator.render import card_drawing

__all__ = [
    "CARD_W",
    "CARD_H",
    "COL_STEP",
    "ROW_STEP",
    "SUIT_PATHS",
    "CardNames",
    "PictureText",
    "back_svg",
    "card_svg",
    "free_places",
    "parse_code",
    "place_svg",
    "pyramid_index",
    "pyramid_svg",
    "pyramid_xy",
    "reserve_svg",
]

# The card notation (docs/positions.md), once in the generator: the site check and the
# link previews read it here.
RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
DEFAULT_LABELS = {r: ("10" if r == "T" else r) for r in RANKS}

# Geometry (SVG user units) and suit shapes, from app/core/card-drawing.js (the board's too).
# The picture is 752 units wide: 7 cards + 6 gaps + padding.
DRAWING = card_drawing.read()
CARD_W = DRAWING["card"]["width"]
CARD_H = DRAWING["card"]["height"]
RADIUS = DRAWING["card"]["radius"]
GAP = DRAWING["pyramid"]["gap"]
COL_STEP = CARD_W + GAP      # horizontal distance between neighbours in a row
ROW_STEP = DRAWING["pyramid"]["row_step"]  # vertical distance between rows (the cards overlap)
PAD = DRAWING["pyramid"]["pad"]
VIEW_W = 2 * PAD + 7 * CARD_W + 6 * GAP
VIEW_H = 2 * PAD + 6 * ROW_STEP + CARD_H

# Suit symbols in a 100 x 100 box.
SUIT_PATHS: dict[str, str] = DRAWING["suits"]

# Badge marks (drawn in a 24 x 24 box centred on 0,0).
_CHECK = DRAWING["badge"]["check"]
_CROSS = DRAWING["badge"]["cross"]

# The look is not here: app/ui/cards.css is its one source, linked by every page that shows a
# picture (generator/overrides/main.html); a picture made to stand alone (the link preview)
# passes that file's text as ``style``.


# --------------------------------------------------------------------------- words


def parse_code(code: str) -> tuple[str, str]:
    """Return (rank letter, suit letter) of a card code; accepts lower case and ``10``."""
    if not isinstance(code, str):
        raise ValueError(f"not a card code: {code!r}")
    c = code.strip().upper()
    if c.startswith("10"):
        c = "T" + c[2:]
    if len(c) != 2 or c[0] not in RANKS or c[1] not in SUITS:
        raise ValueError(f"not a card code: {code!r}")
    return c[0], c[1]


def _canon(code: str) -> str:
    r, s = parse_code(code)
    return r + s


@dataclass(frozen=True)
class CardNames:
    """Card words of one language.

    ``ranks``: rank letter (A 2 … 9 T J Q K) -> word; ``suits``: S H D C -> word.
    ``labels`` (optional): rank letter -> short index printed on the card; missing
    letters fall back to ``A 2 … 9 10 J Q K``.
    """

    ranks: dict[str, str]
    suits: dict[str, str]
    labels: dict[str, str] = field(default_factory=dict)

    def name(self, code: str) -> str:
        """Spoken name, suit first: ``7H`` -> "hjerter sju" (nb), "hjerter syv" (da)."""
        r, s = parse_code(code)
        return f"{self.suits[s]} {self.ranks[r]}"

    def label(self, code: str) -> str:
        """Short rank index printed on the card ("10" for T unless overridden)."""
        r, _ = parse_code(code)
        return self.labels.get(r, DEFAULT_LABELS[r])


@dataclass(frozen=True)
class PictureText:
    """Words of the page's language used in generated titles and descriptions.

    Example nb: row="rad", stock="trekkbunke", waste="kastebunke", empty="tom",
    free="fri", removed="fjernet", cards="kort", just_removed="nettopp fjernet",
    top="øverst".  da: "række", "talon", "afkastbunke", "tom", "fri", "fjernet",
    "kort", "lige fjernet", "øverst".
    """

    row: str
    stock: str
    waste: str
    empty: str
    free: str
    removed: str
    cards: str
    just_removed: str
    top: str = ""
    card: str = ""          # singular of ``cards`` ("kort" in both); falls back to ``cards``

    def count(self, n: int) -> str:
        word = (self.card or self.cards) if n == 1 else self.cards
        return f"{n} {word}"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _num(v: float) -> str:
    return f"{v:g}"


# --------------------------------------------------------------------------- geometry


def pyramid_index(r: int, c: int) -> int:
    """0-based list index of pyramid row r, place c (both 1-based)."""
    if not (1 <= r <= 7 and 1 <= c <= r):
        raise ValueError(f"no pyramid place ({r}, {c})")
    return r * (r - 1) // 2 + c - 1


def pyramid_xy(r: int, c: int) -> tuple[float, float]:
    """Top-left corner of card (r, c): centred under the gap of the row above."""
    pyramid_index(r, c)
    x = PAD + (7 - r) * COL_STEP / 2 + (c - 1) * COL_STEP
    y = PAD + (r - 1) * ROW_STEP
    return x, y


STOCK_XY = (PAD, PAD)
WASTE_XY = (VIEW_W - PAD - CARD_W, PAD)
WASTE_GHOST_XY = (WASTE_XY[0] - COL_STEP, PAD)


def free_places(pyramid: list) -> list[bool]:
    """For each of the 28 places: is the card there and both covering cards gone?"""
    out = []
    for r in range(1, 8):
        for c in range(1, r + 1):
            here = pyramid[pyramid_index(r, c)] is not None
            if r == 7:
                out.append(here)
            else:
                out.append(here and pyramid[pyramid_index(r + 1, c)] is None
                           and pyramid[pyramid_index(r + 1, c + 1)] is None)
    return out


# --------------------------------------------------------------------------- fragments


def _pip(suit: str, x: float, y: float, size: float, cls: str) -> str:
    k = size / 100
    return (f'<path class="pip {cls}" transform="translate({_num(x)} {_num(y)}) '
            f'scale({_num(k)})" d="{SUIT_PATHS[suit]}"/>')


def _badge(mark: str) -> str:
    badge = DRAWING["badge"]
    cx, cy = CARD_W - badge["inset"], CARD_H - badge["inset"]
    return (f'<circle class="badge" cx="{cx}" cy="{cy}" r="{badge["r"]}"/>'
            f'<path class="badge-mark" transform="translate({cx} {cy})" d="{mark}"/>')


def _attrs(extra: dict[str, str | int] | None) -> str:
    if not extra:
        return ""
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in extra.items())


def card_svg(code: str, x: float, y: float, *, free: bool = False,
             highlight: bool = False, names: CardNames,
             attrs: dict[str, str | int] | None = None) -> str:
    """One face-up card as ``<g class="card red|black [free] [ghost]">`` at (x, y).

    ``highlight`` draws the card as a ghost (just removed); a ghost is never free.
    ``attrs`` adds data attributes (values are escaped).
    """
    r, s = parse_code(code)
    colour = "red" if s in RED_SUITS else "black"
    classes = ["card", colour]
    if highlight:
        classes.append("ghost")
    elif free:
        classes.append("free")
    label = names.label(code)
    at, corner, centre = DRAWING["rank"], DRAWING["corner_pip"], DRAWING["centre_pip"]
    long = len(label) > 1
    if long:
        rank = f'<text class="rank long" x="{at["long_x"]}" y="{at["y"]}">{escape(label)}</text>'
        corner_x = corner["long_x"]
    else:
        rank = f'<text class="rank" x="{at["short_x"]}" y="{at["y"]}" text-anchor="middle">{escape(label)}</text>'
        corner_x = corner["short_x"]
    parts = [
        f'<g class="{" ".join(classes)}" data-code="{r}{s}"{_attrs(attrs)} '
        f'transform="translate({_num(x)} {_num(y)})">',
        f'<rect class="face" width="{CARD_W}" height="{CARD_H}" rx="{RADIUS}"/>',
        rank,
        _pip(s, corner_x, corner["y"], corner["size"], "corner"),
        _pip(s, centre["x"], centre["y"], centre["size"], "centre"),
    ]
    if highlight:
        parts.append(_badge(_CROSS))
    elif free:
        parts.append(_badge(_CHECK))
    parts.append("</g>")
    return "".join(parts)


def place_svg(x: float, y: float, *, kind: str = "removed",
              attrs: dict[str, str | int] | None = None) -> str:
    """An empty place: a faint dashed outline. ``kind`` is "removed" or "empty"."""
    if kind not in ("removed", "empty"):
        raise ValueError(f"unknown place kind {kind!r}")
    i = DRAWING["place"]["inset"]
    return (f'<g class="place {kind}"{_attrs(attrs)} transform="translate({_num(x)} {_num(y)})">'
            f'<rect class="outline" x="{i}" y="{i}" width="{CARD_W - 2 * i}" height="{CARD_H - 2 * i}" '
            f'rx="{RADIUS}"/></g>')


def back_svg(x: float, y: float, count: int,
             attrs: dict[str, str | int] | None = None) -> str:
    """The face-down stock with the number of cards left written on it."""
    back = DRAWING["back"]
    i = back["inset"]
    return (f'<g class="back"{_attrs(attrs)} transform="translate({_num(x)} {_num(y)})">'
            f'<rect class="back-face" width="{CARD_W}" height="{CARD_H}" rx="{RADIUS}"/>'
            f'<rect class="back-inner" x="{i}" y="{i}" width="{CARD_W - 2 * i}" '
            f'height="{CARD_H - 2 * i}" rx="{back["inner_radius"]}"/>'
            f'<text class="count stock-count" x="{CARD_W / 2:g}" y="{CARD_H / 2 + back["count_dy"]:g}" '
            f'text-anchor="middle">{int(count)}</text></g>')


# --------------------------------------------------------------------------- picture


def _check_prefix(id_prefix: str) -> None:
    ok = id_prefix and id_prefix[0].isalpha() and all(
        ch.isalnum() or ch in "-_" for ch in id_prefix)
    if not ok:
        raise ValueError(f"id_prefix must start with a letter and hold only "
                         f"letters, digits, - and _: {id_prefix!r}")


def _rim(x: float, y: float) -> str:
    """The table's colour round a pyramid card, half the gap wide, drawn just under it: no sliver
    of the covered card above shows between two neighbours (the game's board has the same rim,
    app/ui/game.css)."""
    h = GAP / 2
    return (f'<rect class="table rim" x="{_num(x - h)}" y="{_num(y - h)}" width="{_num(CARD_W + GAP)}" '
            f'height="{_num(CARD_H + GAP)}" rx="{_num(h)}"/>')  # square enough to fill the notch of two round corners


def pyramid_svg(position: dict, *, names: CardNames, text: PictureText, title: str,
                desc: str | None = None, highlight: Iterable[str] = frozenset(),
                show_free: bool = True, id_prefix: str, style: str | None = None) -> str:
    """The whole position as an accessible inline ``<svg>``.

    ``position``: the JSON position (``pyramid`` 28 entries, ``stock`` next drawn first,
    ``waste`` top last). ``highlight``: codes of cards just removed, drawn as ghosts and
    treated as gone (pass the position from before the move). ``desc=None`` builds a
    description row by row in the page's language from ``names`` and ``text``.
    """
    _check_prefix(id_prefix)
    pyramid = [None if v is None else _canon(v) for v in position.get("pyramid", [])]
    if len(pyramid) != 28:
        raise ValueError(f"pyramid must have 28 entries, not {len(pyramid)}")
    stock = [_canon(v) for v in position.get("stock", [])]
    waste = [_canon(v) for v in position.get("waste", [])]
    ghosts = {_canon(h) for h in highlight}

    # Highlighted cards must be in the pyramid or be the waste top.
    waste_ghost = None
    if waste and waste[-1] in ghosts:
        waste_ghost = waste[-1]
        waste = waste[:-1]
    for g in ghosts - {waste_ghost}:
        if g not in pyramid:
            raise ValueError(f"highlighted card {g} is neither in the pyramid nor the "
                             f"waste top (pass the position from before the move)")
    live = [None if v in ghosts else v for v in pyramid]
    free = free_places(live)

    places: list[str] = []   # empty places go underneath every card
    body: list[str] = []
    descr_rows: list[str] = []
    for r in range(1, 8):
        spoken = []
        for c in range(1, r + 1):
            k = pyramid_index(r, c)
            x, y = pyramid_xy(r, c)
            code = pyramid[k]
            pos = {"data-row": r, "data-col": c}
            if code is None:
                places.append(place_svg(x, y, kind="removed", attrs=pos))
                spoken.append(text.removed)
            elif code in ghosts:
                body.append(_rim(x, y))
                body.append(card_svg(code, x, y, highlight=True, names=names, attrs=pos))
                spoken.append(f"{names.name(code)} ({text.just_removed})")
            else:
                is_free = show_free and free[k]
                body.append(_rim(x, y))
                body.append(card_svg(code, x, y, free=is_free, names=names, attrs=pos))
                spoken.append(f"{names.name(code)} ({text.free})" if is_free
                              else names.name(code))
        if all(pyramid[pyramid_index(r, c)] is None for c in range(1, r + 1)):
            spoken = [text.empty]
        descr_rows.append(f"{_cap(text.row)} {r}: {', '.join(spoken)}.")

    # Stock (left of the apex) and waste (right of the apex).
    sx, sy = STOCK_XY
    wx, wy = WASTE_XY
    label_y = PAD + CARD_H + 34
    if stock:
        body.append(back_svg(sx, sy, len(stock), attrs={"data-pile": "stock"}))
        descr_stock = f"{_cap(text.stock)}: {text.count(len(stock))}."
    else:
        body.append(place_svg(sx, sy, kind="empty", attrs={"data-pile": "stock"}))
        descr_stock = f"{_cap(text.stock)}: {text.empty}."
    body.append(f'<text class="label" x="{sx}" y="{label_y}">{escape(text.stock)}</text>')

    if waste:
        body.append(card_svg(waste[-1], wx, wy, names=names, attrs={"data-pile": "waste"}))
        top = f"{names.name(waste[-1])} {text.top}".rstrip()
        descr_waste = f"{_cap(text.waste)}: {top}, {text.count(len(waste))}."
    else:
        body.append(place_svg(wx, wy, kind="empty", attrs={"data-pile": "waste"}))
        descr_waste = f"{_cap(text.waste)}: {text.empty}."
    if waste_ghost:
        gx, gy = WASTE_GHOST_XY
        body.append(card_svg(waste_ghost, gx, gy, highlight=True, names=names,
                             attrs={"data-pile": "waste"}))
        descr_waste += f" {_cap(names.name(waste_ghost))} ({text.just_removed})."
    right = VIEW_W - PAD
    body.append(f'<text class="label" x="{right}" y="{label_y}" text-anchor="end">'
                f'{escape(text.waste)}</text>')
    body.append(f'<text class="count waste-count" x="{right}" y="{label_y + 34}" '
                f'text-anchor="end">{escape(text.count(len(waste)))}</text>')

    if desc is None:
        desc = " ".join(descr_rows + [descr_stock, descr_waste])
    tid, did = f"{id_prefix}-title", f"{id_prefix}-desc"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pyr" role="img" '
        f'aria-labelledby="{tid} {did}" viewBox="0 0 {VIEW_W} {VIEW_H}" width="100%">'
        f'<title id="{tid}">{escape(title)}</title>'
        f'<desc id="{did}">{escape(desc)}</desc>'
        + (f'<style>{escape(style)}</style>' if style is not None else "") +
        f'<rect class="table" width="{VIEW_W}" height="{VIEW_H}" rx="14"/>'
        + "".join(places + body)
        + "</svg>"
    )


# --------------------------------------------------------------------------- the game's reserve

def reserve_svg() -> str:
    """The deal face down, where the game's board will be: the 28 cards of the pyramid and the
    stock as card backs, at the board's own places, with no words (one file serves every
    language). The page shows it from its first paint until game.js has drawn the board, so a
    reader sees the pyramid at once instead of an empty table; a standalone file, since it is
    loaded by <img>, it carries the light scheme's card back from app/ui/cards.css itself. No
    felt rims: the table under it is the reserve's own background, and backs may show between
    backs. Decorative: the game's own board is what assistive technology reads."""
    i, inner_radius = DRAWING["back"]["inset"], DRAWING["back"]["inner_radius"]

    def back(x: float, y: float) -> str:
        return (f'<rect class="back-face" x="{_num(x)}" y="{_num(y)}" width="{CARD_W}" height="{CARD_H}" rx="{RADIUS}"/>'
                f'<rect class="back-inner" x="{_num(x + i)}" y="{_num(y + i)}" width="{CARD_W - 2 * i}" '
                f'height="{CARD_H - 2 * i}" rx="{inner_radius}"/>')
    body = [back(*STOCK_XY)]
    for r in range(1, 8):
        for c in range(1, r + 1):
            body.append(back(*pyramid_xy(r, c)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {VIEW_W} {VIEW_H}" '
            f'width="{VIEW_W}" height="{VIEW_H}"><style>{card_drawing.back_style()}</style>' + "".join(body) + "</svg>\n")
