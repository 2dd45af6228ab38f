"""Writes tests/data/engine_moves.json for tests/app/core/engine_moves.test.mjs: games of random legal
play from a few deals, each step's legal moves and a few refused moves with their rule, all as
the independent engine (verify/independent/rules.py, written from docs/rules.md) answers; then games
under each variant, as the independent decider's replayer (verify/independent/decider.py)
answers them (see "the variants" below). Run again
with `.venv/bin/python tests/data/make_engine_moves.py` if the position format changes."""
import json
import random
from pathlib import Path

from verify.independent import decider, rules
from verify.independent.deal import RANKS, SUITS
from verify.independent.variants import VARIANTS

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


def game(deal: int, seed: int, position: rules.Position | None = None) -> dict:
    rng = random.Random(seed)
    position = position or rules.opening(deal)
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


# ---------------------------------------------------------------- the variants
# The variants' games come from the independent decider's module (verify/independent/decider.py):
# its replayer, written from the rule text, says whether one move is legal under a variant's
# rules, so the legal moves of a position are every move it accepts among all the moves there
# could be; its search gives a winning game to walk, which reaches what random play rarely does
# (the strict end game with the pyramid gone, a third turn, the cover pairs). The replayer keeps
# no score, so a variant's step has no points (the points table is the standard games' part).
# One pass is the standard rules from a deal with no turn back: its games are standard ones.
# variant: [(deal, the rules whose winning game is walked first, or None for random play)]; the
# strict game walked along a standard win goes on with the pyramid gone and cards beside it.
VARIANT_GAMES = {
    "strict": [(3, "strict"), (14, "strict"), (1, "standard"), (5, None)],
    "unlimited": [(1, "unlimited"), (6, "unlimited"), (8, None)],
    "stock-top": [(1, "stock-top"), (3, "stock-top"), (9, None)],
    "cover-pair": [(1, "cover-pair"), (2, "cover-pair"), (11, None)],
}
ONE_PASS_DEALS = [4, 12]


def candidate_moves() -> list[str]:
    """Every move there could be in any position: draw, turn, each king alone, each pair of
    cards adding up to 13 (higher value first, as both engines write it)."""
    kings = [c for c in DECK if c[0] == "K"]
    pairs = [decider._pair_text(a, b) for a in DECK for b in DECK
             if a < b and decider._value(a) + decider._value(b) == 13]
    return ["draw", "turn"] + [f"king {k}" for k in kings] + sorted(pairs)


CANDIDATES = candidate_moves()


def variant_after(position: dict, move: str, rules: dict) -> dict | None:
    """The position after one move under the rules, as the replayer plays it, or None when it
    refuses the move."""
    try:
        after = decider.replay(position, [move], rules)
    except decider.IllegalVariantMove:
        return None
    return {"pyramid": after["pyramid"], "stock": after["stock"], "waste": after["waste"],
            "turns_left": after["turns_left"], "moves": position["moves"] + 1, "won": after["won"]}


def variant_step(position: dict, rules: dict) -> tuple[list[str], list[str], dict]:
    """The legal moves (sorted), the refused ones, and what each legal move leads to."""
    if decider.replay(position, [], rules, stop_at_win=False)["won"]:
        return [], list(CANDIDATES), {}  # the game is over: no move after the win
    leads = {m: variant_after(position, m, rules) for m in CANDIDATES}
    legal = sorted(m for m, after in leads.items() if after is not None)
    return legal, [m for m in CANDIDATES if leads[m] is None], {m: leads[m] for m in legal}


def with_status(position: dict, rules: dict) -> dict:
    """The position as docs/positions.md writes it (no points: see above), its status from the
    replayer: won, else stuck when it accepts no move, else playing."""
    out = {k: position[k] for k in ("pyramid", "stock", "waste", "turns_left", "moves")}
    legal, _, _ = variant_step(out, rules)
    won = decider.replay(out, [], rules, stop_at_win=False)["won"]
    out["status"] = "won" if won else ("playing" if legal else "stuck")
    return out


def variant_game(variant: str, deal: int, line: list[str], seed: int) -> dict:
    """The game that plays `line`, then goes on at random (mostly removals) for up to 40 moves
    or until no move is legal."""
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    position = {**decider.opening(deal, rules), "moves": 0}
    start, steps = with_status(position, rules), []
    for n in range(len(line) + 40):
        legal, refused_moves, leads = variant_step(position, rules)
        step = {"legal": legal, "refused": rng.sample(refused_moves, min(4, len(refused_moves)))}
        if not legal:
            steps.append(step)
            break
        if n < len(line):
            move = line[n]
        else:
            removals = [m for m in legal if m.split()[0] in ("pair", "king")]
            move = rng.choice(removals if removals and rng.random() < 0.8 else legal)
        assert move in legal, (variant, deal, n, move)
        position = {k: v for k, v in leads[move].items() if k != "won"}
        steps.append({**step, "move": move, "after": with_status(position, rules)})
    return {"deal": deal, "variant": variant, "start": start, "steps": steps}


def variant_games() -> list[dict]:
    games = []
    for variant, plays in VARIANT_GAMES.items():
        for deal, walked in plays:
            line = []
            if walked:
                decision = decider.decide_deal(deal, walked)
                assert decision.result == "won", (walked, deal, decision.result)
                line = decision.line
            games.append(variant_game(variant, deal, line, 100 + len(games)))
    return games


def one_pass_games() -> list[dict]:
    """Standard games from a deal dealt with no turn back (the one-pass variant)."""
    out = []
    for seed, deal in enumerate(ONE_PASS_DEALS, 200):
        start = rules.opening(deal)
        g = game(deal, seed, rules.Position(start.pyramid, start.stock, start.waste, turns_left=0))
        out.append({**g, "variant": "one-pass"})
    return out

if __name__ == "__main__":
    games = [game(deal, seed) for seed, deal in enumerate([1, 2, 7, 20, 25, 31, 42, 100])]
    games += one_pass_games() + variant_games()
    OUT.write_text(json.dumps({"made_by": "tests/data/make_engine_moves.py (the independent engine)",
                               "games": games}, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(games)} games, {sum(len(g['steps']) for g in games)} steps")
