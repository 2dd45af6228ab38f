"""Hypothesis properties of the app's engine (through the bridge): the 52 cards are always all
accounted for and never in two places; undo restores exactly; points and moves follow the table."""
from hypothesis import given, settings, strategies as st

ALL = {r + s for s in "SHDC" for r in "A23456789TJQK"}
# points.table of docs/rules.md ("Points"), as written there (not read from the app, which it checks).
PER_CARD, ROW_CLEARED, WIN, PER_UNUSED_TURN = 5, 25, 100, 50
ROWS = [range(r * (r - 1) // 2, r * (r + 1) // 2) for r in range(1, 8)]  # pyramid indices of rows 1 … 7


def table_points(before: dict, after: dict, move: str) -> int:
    """What points.table gives for `move` from `before` to `after`: 5 per card, 25 per row it
    empties, and on the win 100 plus 50 per turn left."""
    cleared = sum(1 for row in ROWS if any(before["pyramid"][k] for k in row) and not any(after["pyramid"][k] for k in row))
    won = not any(after["pyramid"])
    return PER_CARD * len(move.split()[1:]) + ROW_CLEARED * cleared + (WIN + PER_UNUSED_TURN * after["turns_left"]) * won


def accounted(position, removed):
    cards = [c for c in position["pyramid"] if c] + position["stock"] + position["waste"]
    return len(cards) == len(set(cards)) and set(cards) | removed == ALL and not (set(cards) & removed)


@settings(max_examples=150, deadline=None)
@given(deal=st.integers(1, 4294967295), choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=120))
def test_cards_accounted_for_and_undo_exact(app, deal, choices):
    history = [app.opening(deal)]
    moves = []
    removed: set[str] = set()
    for choice in choices:
        position = history[-1]
        legal = app.legal_moves(position)
        if not legal:
            break
        move = legal[choice % len(legal)]
        after = app.apply(position, move)
        gone = set(move.split()[1:])
        removed = removed | gone
        assert accounted(after, removed), f"deal {deal}, after {move}"
        assert after["moves"] == position["moves"] + 1
        assert after["points"] == position["points"] + table_points(position, after, move), f"deal {deal}, {move}"
        history.append(after)
        moves.append(move)
    # Undo every move through the app's own game: each step gives back the position before it.
    if moves:
        undone = app.replay(deal, moves + ["undo"] * len(moves), trace=True)["steps"]
        for k in range(len(moves)):
            assert undone[len(moves) + k]["position"] == history[len(moves) - k - 1]


def test_points_follow_the_table_through_a_won_game(app):
    """Random play seldom wins; a solver's winning game ends on the win bonus (deal 27: won with
    a turn unused, so the bonus per unused turn counts too)."""
    start = app.opening(27)
    game = app.solve(start)["game"]
    steps = [start] + [step["position"] for step in app.replay(27, game, trace=True)["steps"]]
    assert not any(steps[-1]["pyramid"]) and steps[-1]["turns_left"] > 0
    for before, after, move in zip(steps, steps[1:], game):
        assert after["points"] == before["points"] + table_points(before, after, move), move
