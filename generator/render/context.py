"""The context of one language: everything the page templates may use, filled before any page
is written (as Pelican's generators fill one context before its writers run).

Game facts come only from the verified bundle; declared facts from docs/facts.yml; words from
the language's strings; the way numbers and dates are written from its locale's CLDR data (Babel).
"""
from __future__ import annotations

import copy
import dataclasses
import string
from datetime import date, datetime

from babel.dates import format_date, format_skeleton
from babel.numbers import NumberPattern, format_decimal

from generator.render import svg
from generator.render.slugs import slug
from generator.errors import BuildError
from generator.render.placeholders import fill, format_problem
from generator.inputs.languages import Language, babel_locale

CHAPTER_ORDER = ("deal", "pair", "waste_pair", "king", "draw", "turn", "end")


def rule_constants(bundle_rules: dict) -> dict:
    """The app's constants, plus the few that follow from them and that pages print."""
    r = dict(bundle_rules)
    points = r["points"]
    r["points"] = {"per_card": points["perCard"], "pair": 2 * points["perCard"], "row_cleared": points["rowCleared"],
                   "win": points["win"], "per_unused_turn": points["perUnusedTurn"]}
    r["side_cards"] = r["deck_size"] - r["pyramid_cards"]
    r["stock_cards"] = r["side_cards"] - r["waste_cards"]
    return r


# The words themselves are the language's: docs/<lang>/numbers.yml (counts 0-12, «one» per gender).
SPELLED_UP_TO = 12  # larger counts keep their digits, as careful nb and da writers do
GENDERS = {"c": "common (en rad, én række)", "n": "neuter (ett kort, ét kort)"}




class Words:
    """This language's way of naming cards and moves, and of writing numbers and dates.

    Numbers and dates follow the CLDR data of the language's locale (Babel): the code alone
    decides the separators, so a new language needs no number settings of its own."""

    def __init__(self, lang: Language):
        self.lang = lang
        self.locale = babel_locale(lang.code)
        s = lang.strings
        self.names = svg.CardNames(ranks={str(k): v for k, v in s["cards"]["ranks"].items()},
                                   suits=dict(s["cards"]["suits"]))
        self.picture_text = svg.PictureText(**s["picture"])

    def card(self, code: str) -> str:
        return self.names.name(code)

    def move(self, notation: str) -> str:
        kind, *cards = notation.split()
        names = [self.card(c) for c in cards]
        return fill(self.lang.strings["moves"][kind], a=names[0] if names else "", b=names[1] if len(names) > 1 else "")

    def num(self, value) -> str:
        """A whole number with the locale's grouping: nb «4 294 967 295» (no-break spaces), da «4.294.967.295»."""
        return format_decimal(int(value), locale=self.locale)

    def spell(self, value, gender: str = "c") -> str:
        """A count from 0 to 12 as a word agreeing with its noun («sju rader», «ett kort»); a larger
        count in digits. Raises BuildError for anything but a whole number, or an unknown gender."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise BuildError(f"spell: {value!r} is not a whole number (spell writes counts)")
        if gender not in GENDERS:
            raise BuildError(f"spell: unknown gender {gender!r}; use "
                             + " or ".join(f"'{g}' for {what}" for g, what in GENDERS.items()))
        if not 0 <= value <= SPELLED_UP_TO:
            return self.num(value)
        numbers, where = self.lang.numbers, self.lang.folder / "numbers.yml"
        if value == 1:
            word = (numbers.get("one") or {}).get(gender) if isinstance(numbers.get("one"), dict) else None
        else:
            word = (numbers.get("counts") or {}).get(str(value)) if isinstance(numbers.get("counts"), dict) else None
        if not isinstance(word, str) or not word.strip():
            raise BuildError(f"spell: no number word for {value}{f' ({gender})' if value == 1 else ''} in "
                             f"language '{self.lang.code}'; add it to {where}")
        return word.strip()

    def decimal(self, value: float, places: int = 1) -> str:
        """A number with exactly `places` decimals in the locale's pattern: nb «1 234,5», da «1.234,5»."""
        return self._with_places(self.locale.decimal_formats[None], places).apply(value, self.locale)

    def pct(self, share: float) -> str:
        """A share (0.658) as the locale writes a percentage, one decimal: nb and da «65,8 %» (no-break space)."""
        return self._with_places(self.locale.percent_formats[None], 1).apply(share, self.locale)

    def date(self, value) -> str:
        """A date in the locale's long form: nb and da «30. oktober 2026». Raises BuildError for a non-date."""
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                raise BuildError(f"not a date: {value!r} (write it as YYYY-MM-DD)") from None
        if isinstance(value, datetime):
            value = value.date()
        if not isinstance(value, date):
            raise BuildError(f"not a date: {value!r}")
        return format_date(value, format="long", locale=self.locale)

    def month(self, value) -> str:
        """A month in the locale's words: nb and da «juli 2026», from "2026-07" or a date. Raises
        BuildError for anything else."""
        if isinstance(value, str):
            try:
                value = datetime.strptime(value, "%Y-%m")
            except ValueError:
                raise BuildError(f"not a month: {value!r} (write it as YYYY-MM)") from None
        if isinstance(value, datetime):
            value = value.date()
        if not isinstance(value, date):
            raise BuildError(f"not a month: {value!r}")
        return format_skeleton("yMMMM", value, locale=self.locale)

    @staticmethod
    def _with_places(pattern: NumberPattern, places: int) -> NumberPattern:
        fixed = copy.copy(pattern)
        fixed.frac_prec = (places, places)
        return fixed


def chapters_of(steps: list[dict], words: Words, titles: dict) -> list[dict]:
    """The key moments of a shown game: the deal, the first of each kind of move, and the end."""
    first = {"deal": 0}
    for step in steps:
        kind = step["move"].split()[0]
        if kind == "pair":
            kind = "waste_pair" if takes_waste_top(step) else "pair"
        first.setdefault(kind, step["number"])
    first["end"] = steps[-1]["number"]
    chapters = [{"key": key, "number": first[key], "title": titles[key],
                 "words": steps[first[key] - 1]["words"] if first[key] else ""}
                for key in CHAPTER_ORDER if key in first]
    return sorted(chapters, key=lambda c: c["number"])  # in the order they happen


def takes_waste_top(step: dict) -> bool:
    """A pair that used the waste top: one of its cards was the top before the move."""
    waste = step["before"]["waste"]
    return bool(waste) and waste[-1] in step["move"].split()[1:]


def example_context(entry: dict, words: Words, pyramid_cards: int) -> dict:
    """One example in one language: its steps in words, its title (the file's, or the language's
    default «Utdeling nr. 27») and summary (the file's, or none), its anchor and where it goes,
    and the cards left in the pyramid at its end (a page computes no number itself)."""
    code = words.lang.code
    default_title = fill(words.lang.strings["example_section"]["default_title"], deal=entry["deal"])
    title = entry.get("title", {}).get(code) or default_title
    steps = []
    before = entry["opening"]
    for s in entry["steps"]:
        steps.append({**s, "words": words.move(s["move"]), "note": s["notes"].get(words.lang.code, ""), "before": before})
        before = s["position"]
    return {
        "id": entry["id"],
        # The section's id on the examples page, from its title in the page's language
        # («#utdelingen-som-kan-vinnes»), never the file's English id (see unique_anchors).
        "anchor": slug(title, code),
        "deal": entry["deal"],
        "title": title,
        "summary": entry.get("summary", {}).get(code, ""),
        "order": entry.get("order"),
        "draft": entry.get("draft", False),
        "winnable": entry["search"]["winnable"],
        "opening": entry["opening"],
        "steps": steps,
        "final": {**entry["final"], "pyramid_left": pyramid_cards - entry["final"]["pyramid_removed"]},
        "search": entry["search"],
        "chapters": chapters_of(steps, words, words.lang.strings["chapters"]),
    }


def unique_anchors(examples: list[dict]) -> None:
    """Two examples with the same title would share an anchor: the later ones get their deal
    number added («utdeling-nr-27-27» cannot clash, a title has no number of its own)."""
    seen = set()
    for example in sorted(examples, key=example_order):
        if example["anchor"] in seen:
            example["anchor"] = f"{example['anchor']}-{example['deal']}"
        seen.add(example["anchor"])


def example_order(example: dict) -> tuple:
    """Examples with an `order` first, lowest first; then the rest by deal number; ties by id."""
    return (example["order"] is None, example["order"] or 0, example["deal"], example["id"])


# How near two in three the share must be for the front page to ask «does it mean I win two
# games in three?» (review 2); further off, it asks what the share means.
NEAR_TWO_IN_THREE = 0.05


def survey_context(survey: dict | None) -> dict | None:
    """The survey's figures as the pages read them, with `near_two_in_three` decided here: a page
    source holds no numbers of its own."""
    if survey is None:
        return None
    share = survey.get("share")
    return {**survey, "near_two_in_three": share is not None and abs(share - 2 / 3) < NEAR_TWO_IN_THREE}


def context_string_problems(bundle: dict, lang: Language) -> list[str]:
    """Each string of the language's strings.yml that build_context reads and cannot use: missing,
    or not of its form (by key). Asked when build_context failed (generator/site/build.py), to tell
    a fault of the strings from a bug of the generator's. The pages' own strings are read as
    they render, and a missing one there is named by generator/render/pages.py."""
    problems = []

    def at(key: str, kind: type):
        value, parts = lang.strings, key.split(".")
        for i, part in enumerate(parts):
            if not isinstance(value, dict):
                problems.append(f"'{'.'.join(parts[:i])}' must be a mapping, not {type(value).__name__}")
                return None
            if part not in value:
                problems.append(f"'{key}' is missing")
                return None
            value = value[part]
        if not isinstance(value, kind):
            problems.append(f"'{key}' must be {'text' if kind is str else 'a mapping'}, not {type(value).__name__}")
            return None
        return value

    def template(key: str, names: tuple[str, ...]) -> None:
        text = at(key, str)
        if text is None or format_problem(text):  # the lint names a template's own problems
            return
        unknown = [field for _, field, _, _ in string.Formatter().parse(text) if field is not None and field not in names]
        if unknown:
            problems.append(f"'{key}': {{{unknown[0]}}} is not one of " + ", ".join(f"{{{n}}}" for n in names))

    ranks = at("cards.ranks", dict)
    if ranks is not None:
        missing = [r for r in bundle["rules"]["ranks"] if r not in {str(k) for k in ranks}]
        if missing:
            problems.append(f"'cards.ranks' has no name for {', '.join(missing)}")
    suits = at("cards.suits", dict)
    if suits is not None and set(svg.SUITS) - set(suits):
        problems.append(f"'cards.suits' has no name for {', '.join(s for s in svg.SUITS if s not in suits)}")
    picture = at("picture", dict)
    if picture is not None:
        fields = dataclasses.fields(svg.PictureText)
        needed = [f.name for f in fields if f.default is dataclasses.MISSING]
        unknown = sorted(set(picture) - {f.name for f in fields}, key=str)
        problems += [f"'picture.{name}' is missing" for name in needed if name not in picture]
        problems += [f"'picture.{name}' is not one of the picture's words" for name in unknown]
    template("example_section.default_title", ("deal",))
    kinds = {step["move"].split()[0] for example in bundle["examples"] for step in example["steps"]}
    for kind in sorted(kinds):
        template(f"moves.{kind}", ("a", "b"))
    for key in CHAPTER_ORDER:
        if key in {"deal", "end"} | kinds or (key == "waste_pair" and "pair" in kinds):
            at(f"chapters.{key}", str)
    return list(dict.fromkeys(problems))  # a section missing is said once, not for each of its strings


def build_context(bundle: dict, lang: Language, facts: dict) -> dict:
    words = Words(lang)
    rules = rule_constants(bundle["rules"])
    ranks = [{"rank": r, "value": v, "name": words.names.ranks[r]} for v, r in enumerate(rules["ranks"], 1)]
    by_value = {r["value"]: r for r in ranks}
    pairs = [{"low": low, "high": rules["target_sum"] - low,
              "low_name": by_value[low]["name"], "high_name": by_value[rules["target_sum"] - low]["name"]}
             for low in range(1, rules["target_sum"])
             if low < rules["target_sum"] - low < rules["king_value"]]
    examples = {e["id"].replace("-", "_"): example_context(e, words, rules["pyramid_cards"]) for e in bundle["examples"]}
    unique_anchors(list(examples.values()))
    shown = sorted((e for e in examples.values() if not e["draft"]), key=example_order)
    return {
        "lang": lang.code,
        "s": lang.strings,
        "rules": rules,
        "pairs": pairs,
        "king": {"value": rules["king_value"], "name": by_value[rules["king_value"]]["name"]},
        "ranks": ranks,
        "examples": examples,
        "example_list": shown,  # what the examples page shows, in order; drafts are left out
        "checks": bundle["checks"],
        "verified_at": datetime.fromisoformat(bundle["verified_at"]),
        "rule_checks": bundle["rule_checks"],
        "survey": survey_context(bundle.get("survey")),
        "variants": bundle.get("variants"),
        "facts": facts,
        "_words": words,
        "_pool": (bundle.get("survey") or {}).get("pool_deals", []),
    }
