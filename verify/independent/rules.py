"""The rules of docs/rules.md as executable Python, written from the documents only.

Positions, notation, rule ids and the order in which an illegal move's broken rule is
reported follow docs/positions.md. Comments cite the rule ids.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from . import illegal
from .deal import (ALL_CARDS, CARD_INDEX, NOT_PLAIN, RANKS, WHITESPACE, CardCodeError, card_value, deal,
                   is_plain_text, parse_card, shown)

MAX_TURNS = 2  # turn.limit: 2 turns, 3 passes through the stock
MAX_MOVE_TEXT = 64  # characters of one move ('pair 10H 3S' is 11); longer text is refused unread
BESIDE = len(ALL_CARDS) - 28  # 24: cards beside the pyramid at most (waste + stock)
MAX_COUNTER = 1_000_000  # points and moves of a position: far above any game, exact in JavaScript

# Pyramid index k = r(r-1)/2 + c - 1 for row r, place c (both 1-based).
ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * (r - 1) // 2 + c - 1 for c in range(1, r + 1)) for r in range(1, 8))
ROW_OF = {k: r for r, row in enumerate(ROWS, 1) for k in row}
# (r, c) is covered by (r+1, c) and (r+1, c+1): in index terms k + r and k + r + 1. Row 7 is uncovered.
COVERED_BY: dict[int, tuple[int, ...]] = {
    k: ((k + r, k + r + 1) if r < 7 else ()) for k, r in ROW_OF.items()}


class IllegalMove(illegal.IllegalMove):
    """A refused move; .rule is the id of the first rule it breaks (or 'notation')."""

    def __init__(self, rule: str, message: str, move: Optional[str] = None):
        self.rule, self.move, self.detail = rule, move, message
        super().__init__(f"{move + ': ' if move else ''}{message} (rule {rule})")


# ---------------------------------------------------------------- moves

KINDS = {"pair": 2, "king": 1, "draw": 0, "turn": 0}


@dataclass(frozen=True)
class Move:
    kind: str  # 'pair' | 'king' | 'draw' | 'turn'
    cards: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS or len(self.cards) != KINDS[self.kind]:
            want = KINDS.get(self.kind)
            raise IllegalMove("notation", f"'{self.kind}' names {want} card(s), got {len(self.cards)}"
                              if want is not None else f"unknown move kind {self.kind!r}")
        try:
            cards = tuple(parse_card(c) for c in self.cards)
        except CardCodeError as e:
            raise IllegalMove("notation", str(e)) from None
        if len(set(cards)) != len(cards):
            raise IllegalMove("notation", f"the same card {cards[0]} is named twice")
        # Canonical pair: higher value first (ties, which can never be legal, by base order).
        cards = tuple(sorted(cards, key=lambda c: (-card_value(c), CARD_INDEX[c])))
        object.__setattr__(self, "cards", cards)

    def __str__(self):
        return format_move(self)


def parse_move(text) -> Move:
    """'pair 7H 6S' (either order), 'king KD', 'draw', 'turn'; case-insensitive, '10' for 'T'.

    Words are split on ASCII whitespace only, as app/core/engine.js parseMove does."""
    if isinstance(text, Move):
        return text
    if not isinstance(text, str):
        raise IllegalMove("notation", f"a move must be text like 'pair 7H 6S', got {shown(text)}")
    return _parse_move_text(text)


@lru_cache(maxsize=4096)  # a replayed game names the same few hundred moves again and again
def _parse_move_text(text: str) -> Move:
    if len(text) > MAX_MOVE_TEXT:
        raise IllegalMove("notation", f"cannot read move {shown(text)}: longer than {MAX_MOVE_TEXT} characters")
    if not is_plain_text(text):
        raise IllegalMove("notation", f"cannot read move {shown(text)}: {NOT_PLAIN}")
    words = [w for w in re.split(f"[{WHITESPACE}]+", text) if w]
    if not words or words[0].lower() not in KINDS:
        raise IllegalMove("notation", f"cannot read move {shown(text)}: expected 'pair XX YY', 'king KX', 'draw' or 'turn'")
    try:
        return Move(words[0].lower(), tuple(words[1:]))
    except IllegalMove as e:
        raise IllegalMove("notation", f"cannot read move {shown(text)}: {e.detail}") from None


def format_move(move: Move) -> str:
    return " ".join((move.kind, *move.cards))


# ---------------------------------------------------------------- positions

@dataclass(frozen=True)
class Position:
    pyramid: tuple[Optional[str], ...]  # 28 codes, None once removed
    stock: tuple[str, ...]  # next drawn first
    waste: tuple[str, ...]  # top last
    turns_left: int = MAX_TURNS
    points: int = 0
    moves: int = 0


def opening(n) -> Position:
    lay = deal(n)
    return Position(pyramid=lay.pyramid, stock=lay.stock, waste=lay.waste)


def pyramid_removed(pos: Position) -> int:
    return pos.pyramid.count(None)


def free_indices(pos: Position) -> list[int]:
    # free.covered: still there and both cards covering it gone (a removed card is None).
    pyramid = pos.pyramid
    return [k for k, c in enumerate(pyramid) if c is not None and not any(map(pyramid.__getitem__, COVERED_BY[k]))]


def available_cards(pos: Position) -> list[str]:
    # free.covered: the free pyramid cards and the waste top; never the stock or under the top.
    cards = [pos.pyramid[k] for k in free_indices(pos)]
    return cards + list(pos.waste[-1:])


def legal_moves(pos: Position) -> list[Move]:
    return list(_legal_moves(pos))


@lru_cache(maxsize=4096)  # the 2,000 or so different moves there are: each is made and checked once
def _move(kind: str, cards: tuple[str, ...] = ()) -> Move:
    return Move(kind, cards)


@lru_cache(maxsize=1024)  # status() and to_json() ask again for the position just played
def _legal_moves(pos: Position) -> tuple[Move, ...]:
    if pyramid_removed(pos) == 28:  # end.win: no move after the win
        return ()
    avail = [(c, card_value(c)) for c in available_cards(pos)]
    moves = [_move("king", (c,)) for c, v in avail if v == 13]  # king.alone
    moves += [_move("pair", (a, b)) for i, (a, va) in enumerate(avail) for b, vb in avail[i + 1:]
              if va + vb == 13]  # pair.thirteen; only one waste card is ever available
    if pos.stock:
        moves.append(_move("draw"))  # draw.nonempty
    elif pos.waste and pos.turns_left > 0:
        moves.append(_move("turn"))  # turn.when, turn.limit
    return tuple(moves)


def status(pos: Position) -> str:
    if pyramid_removed(pos) == 28:
        return "won"  # end.win
    return "playing" if legal_moves(pos) else "stuck"  # end.stuck


def _where(pos: Position, card: str) -> Optional[str]:
    if card in pos.pyramid:
        return "pyramid"
    if card in pos.stock:
        return "stock"
    if card in pos.waste:
        return "waste"
    return None


def _why_not_available(pos: Position, card: str) -> Optional[str]:
    place = _where(pos, card)
    if place == "stock":
        return f"{card} is in the stock"
    if place == "waste":
        return None if pos.waste[-1] == card else f"{card} is in the waste under {pos.waste[-1]}"
    k = pos.pyramid.index(card)
    over = [pos.pyramid[j] for j in COVERED_BY[k] if pos.pyramid[j] is not None]
    return f"{card} is covered by {' and '.join(over)}" if over else None


def apply(pos: Position, move) -> Position:
    """The position after `move` (a Move or its text); IllegalMove names the first rule broken."""
    if pyramid_removed(pos) == 28:  # 1. end.win
        raise IllegalMove("end.win", "the game is already won; no move after the win",
                          format_move(move) if isinstance(move, Move) else str(move))
    m = parse_move(move)  # 2. notation
    name = format_move(m)
    if m.kind == "draw":
        if not pos.stock:  # 8. draw.nonempty
            raise IllegalMove("draw.nonempty", "the stock is empty", name)
        return Position(pos.pyramid, pos.stock[1:], pos.waste + pos.stock[:1], pos.turns_left, pos.points, pos.moves + 1)
    if m.kind == "turn":
        if pos.stock or not pos.waste:  # 9. turn.when
            raise IllegalMove("turn.when", "a turn needs an empty stock and a non-empty waste", name)
        if pos.turns_left <= 0:  # 9. turn.limit
            raise IllegalMove("turn.limit", f"no turns left (at most {MAX_TURNS} per game)", name)
        # turn.order: the waste, bottom first, becomes the stock in the same draw order.
        return Position(pos.pyramid, pos.waste, (), pos.turns_left - 1, pos.points, pos.moves + 1)

    for c in m.cards:  # 3. removed.gone
        if _where(pos, c) is None:
            raise IllegalMove("removed.gone", f"{c} is not in the pyramid, stock or waste (already removed)", name)
    if len(m.cards) == 2 and all(_where(pos, c) == "waste" for c in m.cards):  # 4. pair.one-waste
        raise IllegalMove("pair.one-waste", "at most one card of a pair may come from the waste", name)
    for c in m.cards:  # 5. free.covered
        why = _why_not_available(pos, c)
        if why:
            raise IllegalMove("free.covered", why, name)
    values = [card_value(c) for c in m.cards]
    if m.kind == "king" and values[0] != 13:  # 6. king.alone
        raise IllegalMove("king.alone", f"{m.cards[0]} is not a king; only a king is removed alone", name)
    if m.kind == "pair" and 13 in values:
        raise IllegalMove("king.alone", f"{m.cards[values.index(13)]} is a king and is removed alone, not in a pair", name)
    if m.kind == "pair" and sum(values) != 13:  # 7. pair.thirteen
        raise IllegalMove("pair.thirteen", f"{values[0]} + {values[1]} = {sum(values)}, not 13", name)

    # Remove the cards (removed.gone: they never come back) and score (points.table).
    pyramid, waste, emptied = list(pos.pyramid), pos.waste, set()
    for c in m.cards:
        if c in pyramid:
            k = pyramid.index(c)
            pyramid[k] = None
            emptied.add(ROW_OF[k])
        else:
            waste = waste[:-1]  # only the waste top can get here
    points = 5 * len(m.cards)
    # A row is cleared by this move when it held one of its cards and now holds none.
    points += 25 * sum(1 for r in emptied if all(pyramid[k] is None for k in ROWS[r - 1]))
    if pyramid.count(None) == 28:  # end.win: 100 plus 50 per unused turn
        points += 100 + 50 * pos.turns_left
    return Position(tuple(pyramid), pos.stock, waste, pos.turns_left, pos.points + points, pos.moves + 1)


# ---------------------------------------------------------------- JSON

def to_json(pos: Position) -> dict:
    return {"pyramid": list(pos.pyramid), "stock": list(pos.stock), "waste": list(pos.waste),
            "turns_left": pos.turns_left, "points": pos.points, "moves": pos.moves, "status": status(pos)}


REQUIRED_KEYS = ("pyramid", "stock", "waste", "turns_left", "points", "moves")
IGNORED_KEYS = ("status", "deal")  # status is derived; deal is informative


def from_json(d) -> Position:
    """A Position from the JSON of docs/positions.md, validated; ValueError says what is wrong.

    Sizes are checked before any card is read (28 pyramid entries, at most 24 cards beside), so a
    huge list costs nothing. Hand-made positions (rule checks, tests) may leave cards out;
    check_deck refuses that in a position typed in by a user."""
    if not isinstance(d, dict):
        raise ValueError(f"a position must be a JSON object, got {type(d).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in d]
    extra = [shown(k) for k in d if k not in REQUIRED_KEYS + IGNORED_KEYS]
    if missing or extra:
        raise ValueError(f"position keys: missing {missing}, unknown [{', '.join(extra[:5])}]")
    if not all(isinstance(d[k], list) for k in ("pyramid", "stock", "waste")):
        raise ValueError("pyramid, stock and waste must each be a list of card codes")
    if len(d["pyramid"]) != 28:
        raise ValueError(f"pyramid must have 28 entries (null once removed), got {len(d['pyramid'])}")
    if len(d["stock"]) + len(d["waste"]) > BESIDE:  # deal.layout: 52 - 28 cards beside the pyramid
        raise ValueError(f"at most {BESIDE} cards can lie beside the pyramid (stock + waste), "
                         f"got {len(d['stock']) + len(d['waste'])}")

    def codes(key, allow_none=False):
        out = []
        for i, c in enumerate(d[key]):
            try:
                out.append(None if (c is None and allow_none) else parse_card(c))
            except CardCodeError as e:
                raise ValueError(f"{key}[{i}]: {e}") from None
        return tuple(out)

    pyramid, stock, waste = codes("pyramid", allow_none=True), codes("stock"), codes("waste")
    counts = Counter(c for c in pyramid + stock + waste if c is not None)
    dupes = sorted((c for c, k in counts.items() if k > 1), key=CARD_INDEX.get)
    if dupes:
        raise ValueError(f"cards in two places or twice: {', '.join(dupes)}")
    for key in ("turns_left", "points", "moves"):
        v = d[key]
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_COUNTER:
            raise ValueError(f"{key} must be a whole number from 0 to {MAX_COUNTER:,}, got {shown(v)}")
    if d["turns_left"] > MAX_TURNS:
        raise ValueError(f"turns_left must be 0, 1 or 2, got {d['turns_left']}")
    return Position(pyramid, stock, waste, d["turns_left"], d["points"], d["moves"])


def check_deck(pos: Position) -> None:
    """ValueError unless pos holds the 52 cards of a deal (deal.layout) with every missing one
    removed by the rules: the missing cards must be kings and pairs adding up to 13 (king.alone,
    pair.thirteen). So a card that simply vanished (51 cards, none removable alone) is refused."""
    present = {c for c in pos.pyramid + pos.stock + pos.waste if c is not None}
    removed = Counter(card_value(c) for c in ALL_CARDS if c not in present)
    for v in range(1, 7):
        if removed[v] != removed[13 - v]:
            gone = [c for c in ALL_CARDS if c not in present and card_value(c) in (v, 13 - v)]
            raise ValueError(
                f"the position holds {len(present)} of the 52 cards, and the missing ones cannot all have been "
                f"removed: {removed[v]} card(s) of rank {RANKS[v - 1]} but {removed[13 - v]} of rank {RANKS[12 - v]} "
                f"are gone ({', '.join(gone)}); cards go in pairs adding up to 13, kings alone "
                "(rules pair.thirteen, king.alone)")


# ---------------------------------------------------------------- a game with undo

class Game:
    def __init__(self, n=None, *, position: Optional[Position] = None):
        if position is None:
            position = opening(n)
        self.history: list[Position] = [position]  # opening first, current last

    @classmethod
    def from_position(cls, pos: Position) -> "Game":
        return cls(position=pos)

    @property
    def position(self) -> Position:
        return self.history[-1]

    def play(self, move) -> Position:
        self.history.append(apply(self.position, move))
        return self.position

    def undo(self) -> Position:
        # moves.undo: the last move goes back with its points and move count.
        if len(self.history) == 1:
            raise IllegalMove("moves.undo", "there is no move to undo")
        self.history.pop()
        return self.position

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.position)

    def status(self) -> str:
        return status(self.position)
