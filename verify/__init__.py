"""Independent Python engine of Pyramide: the deal shuffle and the rules, written from docs/ (docs/rules.md, docs/shuffle.md, docs/positions.md)."""
