"""Writes tests/data/decider_positions.json for tests/app/core/decider_prunings.test.mjs: small
positions (a deal's opening with its top rows and the end of its stock left out, and positions
met in random play with 6 to 14 pyramid cards left), each with whether it can be won under each
variant, as the independent engine answers: the independent decider's plain search (every
pruning off, verify/independent/decider.py) and the independent exhaustive solver
(verify/independent/solver.py), which must agree; and, per pruning setting, the card sets the
independent decider enters over all of them. Small, so that the test runs in seconds and
`make mutation MODULE=app-decider` can run it for each mutant. Run again with
`.venv/bin/python tests/data/make_decider_positions.py`."""
import json
import random
from pathlib import Path

from verify.independent import decider, rules, solver
from verify.independent.variants import VARIANTS

OUT = Path(__file__).with_name("decider_positions.json")
PLAIN = dict(king_first=False, dead_cards=False, side_kings=False, forced_pairs=False)


def reduced(deal: int, cut: int, stock: int) -> dict:
    """The opening of a deal without its first `cut` pyramid places and with `stock` stock cards."""
    o = rules.to_json(rules.opening(deal))
    return {"pyramid": [None if k < cut else c for k, c in enumerate(o["pyramid"])], "stock": o["stock"][:stock],
            "waste": o["waste"], "turns_left": 2, "points": 0, "moves": 0}


def played(deal: int, left: int, rng: random.Random) -> dict:
    """Deal `deal` after random legal moves (mostly removals) until `left` pyramid cards remain."""
    position = rules.opening(deal)
    for _ in range(300):
        if 28 - rules.pyramid_removed(position) <= left:
            break
        legal = [rules.format_move(m) for m in rules.legal_moves(position)]
        if not legal:
            break
        removals = [m for m in legal if m.split()[0] in ("pair", "king")]
        position = rules.apply(position, rng.choice(removals if removals and rng.random() < 0.75 else legal))
    out = rules.to_json(position)
    return {**{k: out[k] for k in ("pyramid", "stock", "waste", "turns_left")}, "points": 0, "moves": 0}


def reachable_places(n: int, rng: random.Random) -> list[int]:
    """n pyramid places left by removing free cards one at a time: no card is gone while a card
    covering it is still there, as in any game (the deciders' prunings rely on that)."""
    places = set(range(28))
    while len(places) > n:
        free = [k for k in places if not any(j in places for j in rules.COVERED_BY[k])]
        places.remove(rng.choice(free))
    return sorted(places)


def built(rng: random.Random) -> dict:
    """Cards in pairs adding up to 13 (and a king or two) laid out at random on pyramid
    places a game can leave and beside the pyramid, one of each pair in the pyramid: every card has a partner, so a
    strict game (every card gone) can be won when the layout allows it, and often is not."""
    ranks = "A23456789TJQK"
    deck = [r + s for s in "SHDC" for r in ranks]
    rng.shuffle(deck)
    by_value = {v: [c for c in deck if ranks.index(c[0]) + 1 == v] for v in range(1, 14)}
    in_pyramid, side = [], []
    for _ in range(rng.randint(3, 6)):
        v = rng.randint(1, 12)
        if not by_value[v] or not by_value[13 - v] or (v == 13 - v):
            continue
        a, b = by_value[v].pop(), by_value[13 - v].pop()
        in_pyramid.append(a)
        (in_pyramid if rng.random() < 0.4 else side).append(b)
    kings = by_value[13][:rng.randint(0, 2)]
    in_pyramid += kings[:1]
    side += kings[1:]
    places = reachable_places(len(in_pyramid), rng)
    pyramid = [None] * 28
    for k, c in zip(places, in_pyramid):
        pyramid[k] = c
    rng.shuffle(side)
    waste = rng.randint(0, min(2, len(side)))
    return {"pyramid": pyramid, "stock": side[waste:], "waste": side[:waste], "turns_left": rng.randint(0, 2),
            "points": 0, "moves": 0}


def answer(position: dict, variant: str) -> tuple[str, int]:
    """Won or lost, and the card sets the plain search entered."""
    plain = decider.decide(position, variant, **PLAIN)
    exact = "won" if solver.solve(position, rules=VARIANTS[variant]).winnable else "lost"
    assert plain.result == exact, (position, variant, plain.result, exact)
    return plain.result, plain.nodes


# The pruning settings the test tries, by the app's names (as the test writes them in JSON).
NAMES = {"king_first": "kingFirst", "dead_cards": "deadCards", "side_kings": "sideKings", "forced_pairs": "forcedPairs"}


def settings() -> dict[str, dict]:
    out = {"{}": {}, json.dumps({NAMES[n]: False for n in NAMES}, separators=(",", ":")): PLAIN}
    for name, js in NAMES.items():
        alone = {NAMES[n]: n == name for n in NAMES}
        out[json.dumps(alone, separators=(",", ":"))] = {**PLAIN, name: True}
        out[json.dumps({js: False}, separators=(",", ":"))] = {name: False}
    return out


def card_sets(cases: list[dict]) -> dict[str, int]:
    """The card sets the independent decider enters over every case, per pruning setting."""
    return {key: sum(decider.decide(c["position"], c["variant"], **prune).nodes for c in cases)
            for key, prune in settings().items()}


# A position is kept when the plain search has some work to do on it, but not much: nothing to
# prune teaches nothing, and the test must stay fast.
MIN_NODES, MAX_NODES, POSITIONS = 40, 2500, 100


def main() -> None:
    rng = random.Random(29)
    pool = [reduced(deal, 18, 12) for deal in range(1, 31)]
    pool += [played(deal, rng.randint(6, 14), rng) for deal in range(31, 111)]
    pool += [built(rng) for _ in range(80)]
    rng.shuffle(pool)
    cases = []
    kept = 0
    for position in pool:
        starts = {v: dict(position, turns_left=0) if v == "one-pass" else position for v in VARIANTS}
        answers = {v: answer(starts[v], v) for v in VARIANTS}
        if not MIN_NODES <= sum(nodes for _, nodes in answers.values()) <= MAX_NODES:
            continue
        cases += [{"variant": v, "position": starts[v], "result": answers[v][0]} for v in VARIANTS]
        kept += 1
        if kept == POSITIONS:
            break
    OUT.write_text(json.dumps({"made_by": "tests/data/make_decider_positions.py (the independent decider and solver)",
                               "nodes": card_sets(cases), "cases": cases}, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    won = sum(c["result"] == "won" for c in cases)
    print(f"{OUT}: {len(cases)} cases, {won} won")
    for variant in VARIANTS:
        print(f"  {variant}: {sum(c['result'] == 'won' for c in cases if c['variant'] == variant)} of "
              f"{sum(c['variant'] == variant for c in cases)} won")


if __name__ == "__main__":
    main()
