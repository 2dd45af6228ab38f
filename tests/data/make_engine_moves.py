"""Writes tests/data/engine_moves.json for tests/js/engine_moves.test.mjs: games of random legal
play from a few deals, each step's legal moves and a few refused moves with their rule, all as
the independent engine (verify/independent/rules.py, written from RULES.md) answers. Run again
with `.venv/bin/python tests/data/make_engine_moves.py` if the position format changes."""
import json
import random
from pathlib import Path

from verify.independent import rules
from verify.independent.deal import RANKS, SUITS

OUT = Path(__file__).with_name("engine_moves.json")
DECK = [r + s for s in SUITS for r in RANKS]


def refused(position, rng) -> list[list[str]]:
    """A few moves the engine refuses here, each with its rule."""
    out, tries = [], 0
    texts = ["draw", "turn", "king KS", "king KH", "king 7D"]
    while len(out) < 4 and tries < 200:
        tries += 1
        text = rng.choice(texts) if rng.random() < 0.3 else f"pair {rng.choice(DECK)} {rng.choice(DECK)}"
        try:
            rules.apply(position, text)
        except rules.IllegalMove as e:
            if e.rule != "notation":
                out.append([text, e.rule])
    return out


def game(deal: int, seed: int) -> dict:
    rng = random.Random(seed)
    position = rules.opening(deal)
    start, steps = rules.to_json(position), []
    for _ in range(35):
        legal = sorted(rules.format_move(m) for m in rules.legal_moves(position))
        step = {"legal": legal, "refused": refused(position, rng)}
        if not legal:
            steps.append(step)
            break
        removals = [m for m in legal if m.split()[0] in ("pair", "king")]
        move = rng.choice(removals if removals and rng.random() < 0.8 else legal)
        position = rules.apply(position, move)
        steps.append({**step, "move": move, "after": rules.to_json(position)})
    return {"deal": deal, "start": start, "steps": steps}


if __name__ == "__main__":
    games = [game(deal, seed) for seed, deal in enumerate([1, 2, 7, 20, 25, 31, 42, 100])]
    OUT.write_text(json.dumps({"made_by": "tests/data/make_engine_moves.py (the independent engine)",
                               "games": games}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(games)} games, {sum(len(g['steps']) for g in games)} steps")
