"""The rule checks pass on both engines, and catch an engine that breaks a rule."""
import pytest

from verify.checks.engines import AppSide, EngineRefused, IndependentSide
from verify.checks.rule_checks import RULE_CHECKS, Checker, run_rule_checks
from verify.errors import CheckFailed


def test_every_rule_check_passes_on_both_engines(app):
    results = run_rule_checks([AppSide(app), IndependentSide()])
    assert set(results) == set(RULE_CHECKS)
    for rule, counts in results.items():
        assert counts["app"] == counts["independent"] > 0, rule


class Lenient(IndependentSide):
    """An engine with one bug: it accepts a pair worth 14 (a 7 with a 7)."""

    name = "lenient"

    def apply(self, position, move):
        words = move.split()
        if words[0] == "pair" and {w[0] for w in words[1:]} == {"7"}:
            return position
        return super().apply(position, move)


class NoTurnLimit(IndependentSide):
    name = "no-turn-limit"

    def apply(self, position, move):
        if move == "turn" and position["turns_left"] == 0 and not position["stock"] and position["waste"]:
            return {**position, "stock": position["waste"], "waste": []}
        return super().apply(position, move)


@pytest.mark.parametrize("engine, rule", [(Lenient(), "pair.thirteen"), (NoTurnLimit(), "turn.limit")])
def test_a_broken_engine_is_caught(engine, rule):
    with pytest.raises(CheckFailed) as failure:
        RULE_CHECKS[rule](Checker(rule, engine))
    assert failure.value.rule == rule


def test_refusal_for_the_wrong_rule_is_caught():
    class WrongRule(IndependentSide):
        name = "wrong-rule"

        def apply(self, position, move):
            try:
                return super().apply(position, move)
            except EngineRefused as e:
                raise EngineRefused("pair.thirteen" if e.rule == "free.covered" else e.rule, str(e)) from None

    with pytest.raises(CheckFailed, match="refused for pair.thirteen, expected free.covered"):
        RULE_CHECKS["free.covered"](Checker("free.covered", WrongRule()))


class NoCoverPair(IndependentSide):
    """An engine that plays cover-pair games by the standard rules."""

    name = "no-cover-pair"

    def legal_under(self, position, options):
        return super().legal_under(position, {k: v for k, v in options.items() if k != "coverPair"})


class CountsStrictTurns(IndependentSide):
    """An engine whose unlimited turns are counted down after all."""

    name = "counted-turns"

    def apply_under(self, position, move, options):
        after = super().apply_under(position, move, options)
        if move == "turn" and options.get("unlimitedTurns"):
            after = {**after, "turns_left": max(0, after["turns_left"] - 1)}
        return after


@pytest.mark.parametrize("engine, rule", [(NoCoverPair(), "variant.cover-pair"), (CountsStrictTurns(), "variant.unlimited")])
def test_a_variant_played_by_the_wrong_rules_is_caught(engine, rule):
    with pytest.raises(CheckFailed) as failure:
        RULE_CHECKS[rule](Checker(rule, engine))
    assert failure.value.rule == rule
