"""The rules options as the independent engine's numba kernels take them: one int, `options`, a
bit per flag (verify/independent/variants.py), built by options_of from a variant or a rules
dict (the decider's own search settings, bits above them, are tested with its pieces). And the
card ranks and suits, defined once in verify/ (verify/independent/deal.py)."""
import itertools
import re
from pathlib import Path

import pytest

from verify.independent import deal, decider, solver, variants
from verify.independent.variants import (COVER_PAIR, FLAG_BITS, STOCK_TOP, STRICT_WIN, UNLIMITED_TURNS, VARIANTS,
                                         flags_of, options_of, rules_of)

ROOT = Path(__file__).resolve().parents[3]


def one_bit(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def test_each_rules_flag_is_a_bit_of_its_own():
    assert FLAG_BITS == {"strictWin": STRICT_WIN, "unlimitedTurns": UNLIMITED_TURNS, "stockTop": STOCK_TOP,
                         "coverPair": COVER_PAIR}
    assert all(one_bit(b) for b in FLAG_BITS.values()) and len(set(FLAG_BITS.values())) == len(FLAG_BITS)
    # every rules option but the number of turns (a number: the position's turns_left) is a flag
    assert set(FLAG_BITS) == set(variants.RULE_KEYS) - {"turns"}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_variants_options_round_trip_to_its_flags(variant):
    rules = rules_of(variant)
    options = options_of(variant)
    assert options_of(rules) == options  # by name or by its rules dict alike
    assert flags_of(options) == {key: True for key, value in rules.items() if key in FLAG_BITS and value}
    for key, bit in FLAG_BITS.items():
        assert ((options & bit) != 0) == bool(rules.get(key)), (variant, key)
    assert options & ~sum(FLAG_BITS.values()) == 0


def test_the_variants_options_by_name():
    assert {name: options_of(name) for name in VARIANTS} == {
        "standard": 0, "strict": STRICT_WIN, "one-pass": 0, "unlimited": UNLIMITED_TURNS, "stock-top": STOCK_TOP,
        "cover-pair": COVER_PAIR}
    assert options_of(None) == options_of({}) == 0


def test_each_variant_has_options_of_its_own():
    # one-pass differs from the standard rules only by its turns, which is no flag: it reaches the
    # kernels in the position (turns_left), never in the options
    flagged = [name for name in VARIANTS if flags_of(options_of(name))]
    assert len({options_of(name) for name in flagged}) == len(flagged) == 4
    assert len({(options_of(name), rules_of(name).get("turns")) for name in VARIANTS}) == len(VARIANTS)


def test_every_allowed_set_of_flags_has_its_own_options():
    seen = {}
    for values in itertools.product([False, True], repeat=len(FLAG_BITS)):
        rules = dict(zip(FLAG_BITS, values))
        if rules["strictWin"] and rules["stockTop"]:
            with pytest.raises(ValueError):
                options_of(rules)
            continue
        options = options_of(rules)
        assert flags_of(options) == {key: True for key, value in rules.items() if value}
        assert options not in seen, (rules, seen.get(options))
        seen[options] = rules
    assert len(seen) == 12  # 16 sets of four flags, less the four with both strictWin and stockTop
    assert options_of({"turns": 0, "coverPair": True}) == COVER_PAIR  # the turns set no bit


def test_the_ranks_and_suits_are_defined_once_in_verify():
    assert (deal.RANKS, deal.SUITS) == ("A23456789TJQK", "SHDC")
    assert decider.RANKS is deal.RANKS and solver.RANKS is deal.RANKS and solver.SUITS is deal.SUITS
    defined = re.compile(r"^\s*(RANKS|SUITS)\s*=", re.MULTILINE)
    found = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "verify").rglob("*.py") if defined.search(p.read_text()))
    assert found == ["verify/independent/deal.py"]
