"""The game's words as the page says them, for tests that compare what it says (docs/<lang>/game.json)."""
import re


def fill(template: str, **values) -> str:
    """{name} placeholders filled in; an unknown one stays as written."""
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def card(s: dict, code: str) -> str:
    """A card in words: suit, then rank ('ruter åtte')."""
    return f"{s['suits'][code[1]]} {s['ranks'][code[0]]}"
