"""Hypothesis properties of the app's engine (through the bridge): the 52 cards are always all
accounted for and never in two places; undo restores exactly; points and moves follow the table."""
from hypothesis import given, settings, strategies as st

ALL = {r + s for s in "SHDC" for r in "A23456789TJQK"}


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
        assert after["points"] >= position["points"] + 5 * len(gone)
        history.append(after)
        moves.append(move)
    # Undo every move through the app's own game: each step gives back the position before it.
    if moves:
        undone = app.replay(deal, moves + ["undo"] * len(moves), trace=True)["steps"]
        for k in range(len(moves)):
            assert undone[len(moves) + k]["position"] == history[len(moves) - k - 1]
