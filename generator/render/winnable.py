"""Which surveyed deals can be won, packed for the game's page (pure functions, no I/O).

The survey's per-deal result letters (``survey.results`` in the bundle: ``w`` won, ``l`` lost,
``u`` undecided, one per deal from ``first`` to ``last``) become
``{"first": F, "last": L, "winnable": base64, "undecided": [deal, ...]}``: a bitset with deal n
at bit ``(n - F) % 8`` (least significant first) of byte ``(n - F) // 8``, set when the deal can
be won; 10,000 deals take 1,250 bytes. A clear bit is a lost deal unless the deal is listed as
undecided (the survey could not say), so the page never calls an undecided deal lost.
``app/core/hint.js`` (``KnownDeals``) reads it.
"""
from __future__ import annotations

import base64
import re

from generator.inputs.bundle_schema import RESULT_LETTERS

__all__ = ["winnable_data", "results_of"]

RESULTS = re.compile(f"[{RESULT_LETTERS}]*")


def winnable_data(first: int, results: str) -> dict:
    """The page's data for the deals first … first + len(results) - 1; raises ValueError on
    anything but whole deal numbers and result letters."""
    if not (isinstance(first, int) and first >= 1) or not (isinstance(results, str) and RESULTS.fullmatch(results)):
        raise ValueError("winnable_data needs a first deal number (from 1) and result letters w, l or u")
    bits = bytearray((len(results) + 7) // 8)
    for i, letter in enumerate(results):
        if letter == "w":
            bits[i >> 3] |= 1 << (i & 7)
    return {"first": first, "last": first + len(results) - 1,
            "winnable": base64.b64encode(bytes(bits)).decode("ascii"),
            "undecided": [first + i for i, letter in enumerate(results) if letter == "u"]}


def results_of(data: dict) -> str:
    """The result letters a page's data says (the inverse of winnable_data, for checks)."""
    bits = base64.b64decode(data["winnable"], validate=True)
    count = data["last"] - data["first"] + 1
    if len(bits) != (count + 7) // 8:
        raise ValueError(f"{len(bits)} bytes cannot hold {count} deals")
    undecided = set(data["undecided"])
    return "".join("u" if data["first"] + i in undecided else "w" if bits[i >> 3] >> (i & 7) & 1 else "l"
                   for i in range(count))
