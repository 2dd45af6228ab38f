"""The drawing of one card, read from its one source: ``app/core/card-drawing.js``.

The card's sizes and corner radius, where its rank and suit symbols go, the badges, the card
back, the pyramid's spacing and the four suit shapes are data in that file, a JavaScript module
of one object (``export const CARD_DRAWING = {…};``): the game's board (``app/ui/board.js``)
imports it, and the site's pictures (``svg.py``) read the same object here, as JSON. Nothing is
generated and nothing is copied by hand, so the pictures and the board cannot drift apart.

The object must therefore be strict JSON (double quotes, no comments inside it, no trailing
comma) and the file must end with it; anything else stops the build with a message that says so.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from generator.errors import BuildError
from generator.settings import APP

FILE = APP / "core" / "card-drawing.js"
_OBJECT = re.compile(r"^export const CARD_DRAWING = (\{.*\});\s*\Z", re.S | re.M)


def read(path: Path | None = None) -> dict:
    """The drawing as a dict (``path`` defaults to ``FILE``, looked up at each call)."""
    path = FILE if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise BuildError(f"{path}: the cards' drawing cannot be read ({e.strerror})") from None
    found = _OBJECT.search(text)
    if not found:
        raise BuildError(f"{path}: the file must end with `export const CARD_DRAWING = {{…}};` "
                         "(the cards' drawing, read by the site's pictures too)")
    try:
        return json.loads(found.group(1))
    except json.JSONDecodeError as e:
        line = text.count("\n", 0, found.start(1) + e.pos) + 1
        raise BuildError(f"{path}:{line}: the CARD_DRAWING object must be strict JSON, which the site's "
                         f"pictures read too (double quotes, no comments, no trailing comma): {e.msg}") from None


LOOK = APP / "ui" / "cards.css"
_BACK_RULES = re.compile(r"^\.pyr (\.back-(?:face|inner)\{[^}\n]*\})", re.M)


def back_style(path: Path | None = None) -> str:
    """The light scheme's card back, as app/ui/cards.css writes it (`.pyr .back-face{…}` and
    `.pyr .back-inner{…}`), for a picture that cannot see the page's stylesheets (the reserve,
    shown by <img>): the same rules, without the `.pyr` scope."""
    path = LOOK if path is None else path
    try:
        rules = _BACK_RULES.findall(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise BuildError(f"{path}: the cards' look cannot be read ({e.strerror})") from None
    if len(rules) != 2:
        raise BuildError(f"{path}: the card back must be one `.pyr .back-face{{…}}` and one `.pyr .back-inner{{…}}` "
                         "rule, each on one line (the reserve's picture copies them)")
    return "".join(rules)

