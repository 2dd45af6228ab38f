"""The second implementation of the game, written from ../shared/RULES.md and docs/positions.md
only: the deal (deal.py), the rules (rules.py), an exact solver (solver.py) and a decider of
winnability under the variants (decider.py). It imports nothing from the rest of verify/ (the
app's bridge, the checks, the survey); tests/test_independent_imports.py holds it to that."""
