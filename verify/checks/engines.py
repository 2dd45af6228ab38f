"""One face for both engines, so every rule check runs unchanged against each of them."""
from __future__ import annotations

from ..independent import deal as independent_deal
from ..independent import rules
from ..app import AppEngine, AppError
from ..errors import VerifyError


class EngineRefused(VerifyError):
    """One engine refused a move or a deal number while a rule was checked; .rule is the rule id
    it named. (A move a user gave that both engines refuse is errors.MoveRefused.)"""

    def __init__(self, rule: str | None, message: str):
        super().__init__(message)
        self.rule = rule


class AppSide:
    name = "app"

    def __init__(self, app: AppEngine):
        self.app = app

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except AppError as e:
            raise EngineRefused(e.rule, str(e)) from None

    def deal(self, n):
        return self._call(self.app.deal, n)

    def opening(self, n):
        return self._call(self.app.opening, n)

    def legal(self, position):
        return sorted(self._call(self.app.legal_moves, position))

    def apply(self, position, move):
        return self._call(self.app.apply, position, move)

    def status(self, position):
        return self._call(self.app.status, position)

    # Under a variant's rules options (verify/independent/variants.py): the variant rule checks.
    def legal_under(self, position, rules):
        return sorted(self._call(self.app.legal_moves, position, rules))

    def apply_under(self, position, move, rules):
        """The position after the move, with "won" as these rules count a win; EngineRefused when illegal."""
        after = self._call(self.app.apply, position, move, rules)
        return {**after, "won": after["status"] == "won"}

    def positions_of_game(self, n, moves):
        """Positions after each entry of moves ('undo' takes one back), via the app's game."""
        result = self._call(self.app.replay, n, moves, True)
        return [step["position"] for step in result["steps"]]


class IndependentSide:
    name = "independent"

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except rules.IllegalMove as e:
            raise EngineRefused(e.rule, str(e)) from None
        except independent_deal.DealNumberError as e:
            raise EngineRefused("deal.layout", str(e)) from None

    def deal(self, n):
        return self._call(lambda: independent_deal.layout_json(independent_deal.deal(n), n))

    def opening(self, n):
        return self._call(lambda: rules.to_json(rules.opening(n)))

    def legal(self, position):
        return sorted(rules.format_move(m) for m in rules.legal_moves(rules.from_json(position)))

    def apply(self, position, move):
        return self._call(lambda: rules.to_json(rules.apply(rules.from_json(position), move)))

    def status(self, position):
        return rules.status(rules.from_json(position))

    # Under a variant's rules options: the independent decider's rule-text replay (one move)
    # and the independent solver's move generation, each written from the variants' rule text.
    # Neither reads a position's card codes or bounds, so the position is read first, as the
    # app's checkPosition reads it: a malformed hand-made case is refused, never played.
    def legal_under(self, position, options):
        from ..independent.solver import legal_moves  # numba: only when a variant is checked
        self._check_position(position)
        return sorted(legal_moves(position, options))

    def apply_under(self, position, move, options):
        from ..independent.decider import IllegalVariantMove, replay
        self._check_position(position)
        try:
            return replay(position, [move], options)
        except IllegalVariantMove as e:
            raise EngineRefused("variant", str(e)) from None

    @staticmethod
    def _check_position(position):
        try:
            rules.from_json(position)
        except ValueError as e:
            raise EngineRefused("notation", f"invalid position: {e}") from None

    def positions_of_game(self, n, moves):
        game = rules.Game(n)
        out = []
        for move in moves:
            self._call(game.undo if move == "undo" else (lambda m=move: game.play(m)))
            out.append(rules.to_json(game.position))
        return out
