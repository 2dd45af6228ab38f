"""The rules variants the survey compares, as rules options: the same names as the app's
(app/core/decider.js), so one JSON object serves both deciders. Plain data, so that the command line
can offer the names without loading the decider (numba).

strictWin (all 52 cards must go), turns (turns of a new deal; 0 = one pass), unlimitedTurns,
stockTop (the stock's top card is available too), coverPair (a card may pair with the card
directly covering it when that one is free and is the only card still covering it).
"""
from __future__ import annotations

VARIANTS: dict[str, dict] = {
    "standard": {},
    "strict": {"strictWin": True},
    "one-pass": {"turns": 0},
    "unlimited": {"unlimitedTurns": True},
    "stock-top": {"stockTop": True},
    "cover-pair": {"coverPair": True},
}
RULE_KEYS = ("strictWin", "turns", "unlimitedTurns", "stockTop", "coverPair")

# The rules' flags as one int, the `options` every numba kernel of the solver and the decider
# takes (a kernel reads a flag as `(options & STRICT_WIN) != 0`); `turns` is a number, not a
# flag: it is the opening's turns_left, never passed to a kernel. Bits 8 and up are left to the
# decider's own search settings (decider.py: KING_FIRST …).
STRICT_WIN = 1 << 0
UNLIMITED_TURNS = 1 << 1
STOCK_TOP = 1 << 2
COVER_PAIR = 1 << 3
FLAG_BITS = {"strictWin": STRICT_WIN, "unlimitedTurns": UNLIMITED_TURNS, "stockTop": STOCK_TOP,
             "coverPair": COVER_PAIR}


def rules_of(variant_or_rules) -> dict:
    """The rules options of a variant name, or a rules dict checked for unknown keys."""
    if isinstance(variant_or_rules, str):
        if variant_or_rules not in VARIANTS:
            raise ValueError(f"unknown variant {variant_or_rules!r}: one of {', '.join(VARIANTS)}")
        return dict(VARIANTS[variant_or_rules])
    rules = dict(variant_or_rules or {})
    unknown = set(rules) - set(RULE_KEYS)
    if unknown:
        raise ValueError(f"unknown rules options: {sorted(unknown)}")
    if rules.get("strictWin") and rules.get("stockTop"):
        raise ValueError("strictWin cannot be combined with stockTop")
    return rules


def options_of(variant_or_rules) -> int:
    """The kernels' `options` of a variant name or a rules dict: the bit of each flag set."""
    rules = rules_of(variant_or_rules)
    options = 0
    for key, bit in FLAG_BITS.items():
        if rules.get(key):
            options |= bit
    return options


def flags_of(options: int) -> dict:
    """The rules flags an `options` value holds (the reverse of options_of, flags only)."""
    return {key: True for key, bit in FLAG_BITS.items() if options & bit}
