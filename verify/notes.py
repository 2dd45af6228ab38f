"""What a worked example's note says about the game, checked against the position of its move.

A note is prose in each language. The checker finds in it the words of that language's
glossary (`note_words` in docs/<lang>/glossary.yml) and checks each claim they make:

- a card named in full («ruter dame», «ruterkongen») must be one the move plays (for a draw,
  the card drawn), or the note must say where it lies, and truly;
- a place said after a card («fra kastebunken», «i nederste rad», «på toppen») must be where
  that card lies; a rank alone («knekten», «en toer») must have a card of that rank in play,
  in the place said when one is;
- «fri» / «dekket» after (or before) a card must be true of it;
- an action word («går alene», «tar», «trekkes», «vendes tilbake») must be what the move does;
- a count («ingen vendinger igjen», «begge de frie kongene», «trekkbunken er tom») must be
  the count.

Tense: every claim is about the position the move is made in — before it, as the player sees
the cards when choosing the move — except what speaks of the result: the phrases marked `when:
after` in the glossary («spillet er vunnet», «ingen vei tilbake») and the place «er fjernet»
(a card the move removes is removed after it), checked in the position after it.

A place or «fri» belongs to the nearest card named before it in the same sentence (ended by
. ! ? : or ;) that has none yet; «fri» may also come before its card («den frie kongen»). A
place with no card before it in its sentence («det øverste kortet på kastebunken») is about no
card in particular and is not checked. Words the glossary does not list are not read: a card
name spelt otherwise is not seen, so keep to the glossary's words.

The input is a list of examples.NoteText (file, line, language, move, text, and the example
file whose game it is on) and each example file's positions: a note is written in its
language's docs/<lang>/examples/<id>.yml, and an error names that file and line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import strict_yaml

from .errors import InputError
from .independent import rules
from .independent.deal import RANKS, SUITS
from .settings import ROOT

PLACES = ("waste_top", "waste_under", "stock", "removed", "pyramid") + tuple(f"row_{r}" for r in range(1, 8))
ACTIONS = ("king", "pair", "draw", "turn")
COUNTS = ("turns_left", "turns_used", "stock", "waste", "pyramid", "beside", "status")
SENTENCE_END = re.compile(r"[.!?:;]")
NUMBER = "{n}"
PLACE_SAID = {"waste_top": "on the waste", "waste_under": "in the waste under another card",
              "stock": "in the stock", "removed": "removed", "pyramid": "in the pyramid",
              **{f"row_{r}": f"in row {r}" for r in range(1, 8)}}
ACTION_SAID = {"king": "removes a king alone", "pair": "removes a pair", "draw": "draws a card",
               "turn": "turns the waste back"}
COUNT_SAID = {"turns_left": "{} turns left", "turns_used": "{} turns made before", "stock": "{} cards in the stock",
              "waste": "{} cards on the waste", "pyramid": "{} pyramid cards left",
              "beside": "{} cards beside the pyramid", "status": "the game is {}"}


def glossary_path(language: str) -> Path:
    return ROOT / "docs" / language / "glossary.yml"


@dataclass(frozen=True)
class CountPhrase:
    count: str
    value: int | str | None  # None: the number the phrase holds ({n})
    at_least: int | None
    after: bool
    action: str | None


@dataclass(frozen=True)
class NoteWords:
    """One language's note words, as patterns: (compiled pattern, what a match means)."""
    path: Path
    card_names: dict[str, str]  # code → the card's name in the language («ruter dame»)
    rank_names: dict[str, str]  # rank → its name («dame»)
    patterns: tuple[tuple[re.Pattern, tuple], ...]


def _phrase(text: str) -> str:
    """A whole-word, case-insensitive regex for a phrase; spaces match any run of spaces."""
    return r"\s+".join(re.escape(word) for word in text.split())


def _whole(regex: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + regex + r"(?!\w)", re.IGNORECASE)


def load_note_words(path: Path) -> NoteWords:
    """The `note_words` of a glossary; InputError naming the file and line of anything missing or wrong."""
    try:
        data, node = strict_yaml.load_tree(path)
    except OSError as e:
        raise InputError(f"{path}: cannot be read ({e.strerror})") from None
    except strict_yaml.YAMLFileError as e:
        raise InputError(str(e)) from None
    lines = strict_yaml.line_map(node)

    def refuse(key: str, problem: str):
        line = lines.get(key)
        raise InputError(f"{path}{f', line {line}' if line else ''}: {problem} (the words example notes are checked by; "
                         "see the comment above note_words in docs/nb/glossary.yml)")

    words = data.get("note_words") if isinstance(data, dict) else None
    if not isinstance(words, dict):
        refuse("note_words", "no `note_words:`")

    def need(key, kind, inside=words, where="note_words"):
        value = inside.get(key) if isinstance(inside, dict) else None
        if not isinstance(value, kind):
            refuse(f"{where}.{key}" if f"{where}.{key}" in lines else where,
                   f"`{where}.{key}` must be {'a mapping' if kind is dict else 'a list' if kind is list else 'text'}")
        return value

    def texts(value, where) -> list[str]:
        if not isinstance(value, list) or not value or not all(isinstance(w, str) and w.strip() for w in value):
            refuse(where, f"`{where}` must be a list of words")
        return value

    suits = need("suits", dict)
    ranks = need("ranks", dict)
    if set(suits) != set(SUITS):
        refuse("note_words.suits", f"`note_words.suits` must name each of {', '.join(SUITS)}")
    if {str(k) for k in ranks} != set(RANKS):
        refuse("note_words.ranks", f"`note_words.ranks` must name each of {', '.join(RANKS)}")
    patterns: list[tuple[re.Pattern, tuple]] = []
    card_names, rank_names, plurals = {}, {}, {}
    for rank_key, entry in ranks.items():
        rank = str(rank_key)
        where = f"note_words.ranks.{rank_key}"
        name = need("name", str, entry, where)
        forms = texts(entry.get("forms"), f"{where}.forms")
        plural = texts(entry.get("plural"), f"{where}.plural")
        rank_names[rank] = name
        for suit in SUITS:
            code = rank + suit
            card_names[code] = f"{suits[suit]} {name}"
            joined = "|".join([_phrase(f"{suits[suit]} {name}")] + [re.escape(suits[suit] + f) for f in forms])
            patterns.append((_whole(f"(?:{joined})"), ("card", code)))
        patterns.append((_whole("(?:" + "|".join(_phrase(f) for f in forms) + ")"), ("rank", rank)))
        plurals[rank] = plural
    numbers = need("numbers", dict)
    number_words = {}
    for value, said in numbers.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            refuse(f"note_words.numbers.{value}", "`note_words.numbers` maps whole numbers to their words")
        for word in texts(said, f"note_words.numbers.{value}"):
            number_words[word.lower()] = value
    number_regex = "(?P<n>" + "|".join(_phrase(w) for w in sorted(number_words, key=len, reverse=True)) + ")"
    article = need("plural_article", str)
    free = texts(words.get("free"), "note_words.free")
    covered = texts(words.get("covered"), "note_words.covered")
    free_regex = "|".join(_phrase(w) for w in free)
    for rank, plural in plurals.items():
        plural_regex = "|".join(_phrase(w) for w in plural)
        patterns.append((_whole(rf"{number_regex}\s+(?:{_phrase(article)}\s+)?(?P<free>(?:{free_regex})\s+)?(?:{plural_regex})"),
                         ("rank_count", rank, number_words)))
    for word in free:
        patterns.append((_whole(_phrase(word)), ("free", True)))
    for word in covered:
        patterns.append((_whole(_phrase(word)), ("free", False)))
    places = need("places", dict)
    for place in PLACES:
        for phrase in texts(places.get(place), f"note_words.places.{place}"):
            patterns.append((_whole(_phrase(phrase)), ("place", place)))
    actions = need("actions", dict)
    for action in ACTIONS:
        for phrase in texts(actions.get(action), f"note_words.actions.{action}"):
            patterns.append((_whole(_phrase(phrase)), ("action", action)))
    for i, entry in enumerate(need("counts", list)):
        where = f"note_words.counts.{i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("say"), str) or entry.get("count") not in COUNTS \
                or (entry.get("action") is not None and entry.get("action") not in ACTIONS) \
                or entry.get("when", "before") not in ("before", "after"):
            refuse(where, f"`{where}` must be {{say: phrase, count: one of {', '.join(COUNTS)}, "
                          "is: value or at_least: number (or {n} in the phrase), when: before|after, action: …}")
        say = entry["say"]
        has_number = NUMBER in say
        if has_number == ("is" in entry or "at_least" in entry):
            refuse(where, f"`{where}` needs either {{n}} in its phrase or `is:`/`at_least:`, not both")
        regex = r"\s+".join(number_regex if word == NUMBER else re.escape(word) for word in say.split())
        phrase = CountPhrase(entry["count"], entry.get("is"), entry.get("at_least"),
                             entry.get("when") == "after", entry.get("action"))
        patterns.append((_whole(regex), ("count", phrase, number_words)))
    return NoteWords(path, card_names, rank_names, tuple(patterns))


# ---- reading a note ----

@dataclass
class Said:
    """One thing a note says: `kind` (card, rank, rank_count, place, free, action, count), what it
    means, the words as written, its sentence, and for a card, the place and freedom said of it."""
    kind: str
    meaning: tuple
    words: str
    start: int
    sentence: int
    place: str | None = None
    free: bool | None = None


def read_note(text: str, words: NoteWords) -> list[Said]:
    """What the note says, in its order: at each point the longest phrase the glossary knows;
    places and «fri» attached to their cards."""
    found = []
    for pattern, meaning in words.patterns:
        for m in pattern.finditer(text):
            found.append((m.start(), -(m.end() - m.start()), m, meaning))
    found.sort(key=lambda item: (item[0], item[1]))
    taken, end = [], -1
    for start, _, m, meaning in found:
        if start < end:
            continue  # inside a longer phrase already read
        end = m.end()
        sentence = len(SENTENCE_END.findall(text, 0, start))
        kind = meaning[0]
        if kind == "rank_count":
            value = meaning[2][" ".join(m.group("n").lower().split())]
            meaning = ("rank_count", meaning[1], value, bool(m.group("free")))
        elif kind == "count":
            phrase = meaning[1]
            value = meaning[2][" ".join(m.group("n").lower().split())] if phrase.value is None and phrase.at_least is None else None
            meaning = ("count", phrase, value)
        taken.append(Said(kind, meaning, " ".join(m.group(0).split()), start, sentence))
    cards = [s for s in taken if s.kind in ("card", "rank")]
    for said in taken:
        if said.kind not in ("place", "free"):
            continue
        attr = "place" if said.kind == "place" else "free"
        before = [c for c in cards if c.sentence == said.sentence and c.start < said.start and getattr(c, attr) is None]
        after = [c for c in cards if c.sentence == said.sentence and c.start > said.start and getattr(c, attr) is None]
        target = before[-1] if before else (after[0] if after and attr == "free" else None)
        if target is not None:
            setattr(target, attr, said.meaning[1])
    return taken


# ---- checking it ----

def where_is(pos: rules.Position, card: str) -> str:
    """The place of `card` in the terms of PLACES (a pyramid card by its row)."""
    if card in pos.pyramid:
        return f"row_{rules.ROW_OF[pos.pyramid.index(card)]}"
    if pos.waste and pos.waste[-1] == card:
        return "waste_top"
    if card in pos.waste:
        return "waste_under"
    if card in pos.stock:
        return "stock"
    return "removed"


def _in_place(place: str, actual: str) -> bool:
    return place == actual or (place == "pyramid" and actual.startswith("row_"))


def _count(pos: rules.Position, count: str):
    return {"turns_left": lambda: pos.turns_left, "turns_used": lambda: rules.MAX_TURNS - pos.turns_left,
            "stock": lambda: len(pos.stock), "waste": lambda: len(pos.waste),
            "pyramid": lambda: 28 - rules.pyramid_removed(pos), "beside": lambda: len(pos.stock) + len(pos.waste),
            "status": lambda: rules.status(pos)}[count]()


def _free(pos: rules.Position, card: str) -> bool:
    return card in rules.available_cards(pos)


def _covering(pos: rules.Position, card: str) -> list[str]:
    k = pos.pyramid.index(card)
    return [pos.pyramid[j] for j in rules.COVERED_BY[k] if pos.pyramid[j] is not None]


def _in_play(pos: rules.Position) -> list[str]:
    return [c for c in pos.pyramid if c is not None] + list(pos.waste) + list(pos.stock)


def note_problem(text: str, words: NoteWords, before: rules.Position, after: rules.Position, move: str) -> str | None:
    """What the note says that is false of its move (`move` in notation, played from `before`
    to `after`), as "says …; …" — or None when every claim it makes is true."""
    played = rules.parse_move(move)
    involved = set(played.cards)
    if played.kind == "draw":
        involved.add(after.waste[-1])
    name = words.card_names.__getitem__

    def where(card: str) -> str:
        return PLACE_SAID[where_is(before, card)]

    def lies(card: str, place: str) -> bool:
        # "removed" is the move's result when the move removes it: read after the move.
        return _in_place(place, where_is(after if place == "removed" else before, card))

    for said in read_note(text, words):
        if said.kind == "card":
            card = said.meaning[1]
            actual = where_is(before, card)
            if said.place is not None and not lies(card, said.place):
                truth = PLACE_SAID[where_is(after, card)] + " after the move" if said.place == "removed" else where(card)
                return f"says {name(card)} is {PLACE_SAID[said.place]}; it is {truth}"
            if said.place is None and card not in involved:
                return f"names {name(card)}, which the move does not play, and not where it lies; it is {where(card)}"
            if said.free is not None and said.free != _free(before, card):
                if said.free and actual.startswith("row_"):
                    covering = " and ".join(name(c) for c in _covering(before, card))
                    return f"says {name(card)} is free; it is covered by {covering}"
                return f"says {name(card)} is {'free' if said.free else 'not free'}; it is {'free' if not said.free else where(card)}"
        elif said.kind == "rank":
            rank = said.meaning[1]
            cards = [c for c in _in_play(before) if c[0] == rank]
            every = [rank + suit for suit in SUITS]
            fitting = [c for c in (every if said.place == "removed" else cards)
                       if (said.place is None or lies(c, said.place)) and (said.free is None or said.free == _free(before, c))]
            if not fitting:
                claim = " ".join(filter(None, [PLACE_SAID.get(said.place), {True: "free", False: "not free"}.get(said.free)]))
                truth = "; ".join(f"{name(c)} is {where(c)}{', free' if _free(before, c) else ''}" for c in cards)
                return (f"says a {words.rank_names[rank]} («{said.words}») is {claim or 'in play'}; "
                        + (truth if truth else f"every {words.rank_names[rank]} is removed"))
        elif said.kind == "rank_count":
            _, rank, value, free = said.meaning
            cards = [c for c in _in_play(before) if c[0] == rank and (not free or _free(before, c))]
            if len(cards) != value:
                kind = f"{'free ' if free else ''}{words.rank_names[rank]}"
                listed = f": {', '.join(name(c) for c in cards)}" if cards else ""
                return f"says there are {value} {kind} («{said.words}»); before the move there are {len(cards)}{listed}"
        elif said.kind == "action":
            if said.meaning[1] != played.kind:
                return f"says the move {ACTION_SAID[said.meaning[1]]} («{said.words}»); it is '{move}'"
        elif said.kind == "count":
            _, phrase, number = said.meaning
            if phrase.action is not None and phrase.action != played.kind:
                return f"says the move {ACTION_SAID[phrase.action]} («{said.words}»); it is '{move}'"
            pos = after if phrase.after else before
            actual = _count(pos, phrase.count)
            when = "after the move" if phrase.after else "before the move"
            truth = f"{when} {'it is' if phrase.count == 'status' else 'there are'} {actual}"
            if phrase.at_least is not None:
                if actual < phrase.at_least:
                    claim = COUNT_SAID[phrase.count].format(f"at least {phrase.at_least}")
                    return f"says {claim} («{said.words}»); {truth}"
            else:
                claimed = number if phrase.value is None else phrase.value
                if actual != claimed:
                    return f"says {COUNT_SAID[phrase.count].format(claimed)} («{said.words}»); {truth}"
    return None
