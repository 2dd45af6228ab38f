"""Independent Python engine of Pyramide: the deal shuffle and the rules, written from docs/ and RULES.md."""
