"""The second implementation of the game, written from docs/rules.md, docs/positions.md
and docs/shuffle.md only: the deal (deal.py), the rules (rules.py), an exact solver (solver.py) and a decider of
winnability under the variants (decider.py). It imports nothing from the rest of verify/ (the
app's bridge, the checks, the survey); tests/test_layout.py holds it to that."""
