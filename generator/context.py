"""The context of one language: everything the page templates may use, filled before any page
is written (as Pelican's generators fill one context before its writers run).

Game facts come only from the verified bundle; declared facts from docs/facts.yml; words from
the language's strings.
"""
from __future__ import annotations

from datetime import date, datetime

from . import svg
from .errors import BuildError
from .languages import Language

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


class Words:
    """This language's way of naming cards and moves, and of writing numbers and dates."""

    def __init__(self, lang: Language, number_format: dict):
        self.lang = lang
        s = lang.strings
        self.names = svg.CardNames(ranks={str(k): v for k, v in s["cards"]["ranks"].items()},
                                   suits=dict(s["cards"]["suits"]))
        self.picture_text = svg.PictureText(**s["picture"])
        self.thousands = number_format.get("thousands", "\u00a0")
        self.decimal = number_format.get("decimal", ",")

    def card(self, code: str) -> str:
        return self.names.name(code)

    def move(self, notation: str) -> str:
        kind, *cards = notation.split()
        names = [self.card(c) for c in cards]
        return self.lang.strings["moves"][kind].format(a=names[0] if names else "", b=names[1] if len(names) > 1 else "")

    def num(self, value) -> str:
        return f"{int(value):,}".replace(",", self.thousands)

    def decimal_number(self, value: float, places: int = 1) -> str:
        whole, _, frac = f"{value:,.{places}f}".partition(".")
        return whole.replace(",", self.thousands) + (self.decimal + frac if frac else "")

    def pct(self, share: float) -> str:
        return self.decimal_number(100 * share) + "\u00a0%"

    def seconds(self, value: float) -> str:
        return self.decimal_number(value) + "\u00a0s"

    def date(self, value) -> str:
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value)
            except ValueError:
                raise BuildError(f"not a date: {value!r} (write it as YYYY-MM-DD)") from None
        if isinstance(value, datetime):
            value = value.date()
        if not isinstance(value, date):
            raise BuildError(f"not a date: {value!r}")
        return f"{value.day}. {self.lang.strings['months'][value.month - 1]} {value.year}"


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


def example_context(entry: dict, words: Words) -> dict:
    steps = []
    before = entry["opening"]
    for s in entry["steps"]:
        steps.append({**s, "words": words.move(s["move"]), "note": s["notes"].get(words.lang.code, ""), "before": before})
        before = s["position"]
    return {
        "id": entry["id"],
        "deal": entry["deal"],
        "winnable": entry["search"]["winnable"],
        "opening": entry["opening"],
        "steps": steps,
        "final": entry["final"],
        "search": entry["search"],
        "chapters": chapters_of(steps, words, words.lang.strings["chapters"]),
    }


def build_context(bundle: dict, lang: Language, facts: dict, number_format: dict) -> dict:
    words = Words(lang, number_format)
    rules = rule_constants(bundle["rules"])
    ranks = [{"rank": r, "value": v, "name": words.names.ranks[r]} for v, r in enumerate(rules["ranks"], 1)]
    by_value = {r["value"]: r for r in ranks}
    pairs = [{"low": low, "high": rules["target_sum"] - low,
              "low_name": by_value[low]["name"], "high_name": by_value[rules["target_sum"] - low]["name"]}
             for low in range(1, rules["target_sum"])
             if low < rules["target_sum"] - low < rules["king_value"]]
    examples = {e["id"].replace("-", "_"): example_context(e, words) for e in bundle["examples"]}
    return {
        "lang": lang.code,
        "s": lang.strings,
        "rules": rules,
        "pairs": pairs,
        "king": {"value": rules["king_value"], "name": by_value[rules["king_value"]]["name"]},
        "ranks": ranks,
        "examples": examples,
        "checks": bundle["checks"],
        "verified_at": datetime.fromisoformat(bundle["verified_at"]),
        "rule_checks": bundle["rule_checks"],
        "survey": bundle.get("survey"),
        "variants": bundle.get("variants"),
        "facts": facts,
        "_words": words,
        "_pool": (bundle.get("survey") or {}).get("pool_deals", []),
    }
