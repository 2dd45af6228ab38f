"""Positions written out for people on a terminal."""
from __future__ import annotations

ROWS = 7


def format_position(position: dict) -> str:
    """The pyramid as centred rows ('..' for a removed card), then waste and stock."""
    lines = []
    k = 0
    for r in range(1, ROWS + 1):
        cards = [c or ".." for c in position["pyramid"][k:k + r]]
        k += r
        lines.append(f"  row {r}: " + " " * (2 * (ROWS - r)) + "  ".join(cards))
    waste = position["waste"]
    stock = position["stock"]
    lines.append(f"  waste ({len(waste)}): " + (" ".join(waste) + "  <- top" if waste else "empty"))
    lines.append(f"  stock ({len(stock)}, next drawn first): " + (" ".join(stock) if stock else "empty"))
    return "\n".join(lines)
