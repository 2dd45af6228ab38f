"""A small bundle the gate accepts (generator/inputs/bundle.py), whose every figure follows from its
detail and whose inputs are this checkout's files, for the tests that damage it value by value."""
import hashlib
import json
from pathlib import Path

from generator.inputs.bundle import wilson
from verify.independent import rules
from verify.settings import BUNDLE_INPUTS

ROOT = Path(__file__).resolve().parents[2]
RULES = {"rows": 7, "pyramid_cards": 28, "deck_size": 52, "waste_cards": 1, "target_sum": 13, "king_value": 13,
         "turns_allowed": 2, "passes": 3, "points": {"perCard": 5, "rowCleared": 25, "win": 100, "perUnusedTurn": 50},
         "min_deal": 1, "max_deal": 4294967295, "ranks": "A23456789TJQK", "suits": "SHDC"}
GAME = ["king KS", "king KD", "draw"]  # deal 7, in the independent engine


def figures(variant: str, first: int, results: str) -> dict:
    won, lost = results.count("w"), results.count("l")
    low, high = wilson(won, won + lost)
    return {"variant": variant, "first": first, "last": first + len(results) - 1, "deals": len(results),
            "won": won, "lost": lost, "undecided": results.count("u"),
            "share": won / (won + lost), "low": low, "high": high, "results": results}


def check(check_id: str, counts: dict) -> dict:
    return {"id": check_id, "title": check_id, "counts": counts, "seconds": 0.5, "passed": True}


def fake_bundle() -> dict:
    """A small bundle whose every figure follows from its detail, fresh against this checkout."""
    position = rules.opening(7)
    opening = rules.to_json(position)
    steps = []
    for number, move in enumerate(GAME, 1):
        position = rules.apply(position, move)
        steps.append({"number": number, "move": move, "line": 10 + number, "notes": {"nb": "x", "da": "y"},
                      "position": rules.to_json(position)})
    last = steps[-1]["position"]
    example = {
        "id": "small", "deal": 7, "file": "examples/small.yaml", "opening": opening, "steps": steps,
        "final": {"pyramid_removed": 2, "cards_removed": 2, "stock": len(last["stock"]), "waste": len(last["waste"]),
                  "points": last["points"], "moves": 3, "status": last["status"]},
        "search": {"max_removed": 2, "shortest": 3, "winnable": False,
                   "solvers": {name: {"max_removed": 2, "shortest": 3, "positions": 40, "seconds": 0.1}
                               for name in ("app", "independent")}},
    }
    results = "wlwllwlwlluw"
    pool = [{"deal": n, "game": ["draw"]} for n in (1, 3, 6)]
    main = {**figures("standard", 1, results), "pool_size": 3, "pool_deals": [1, 3, 6], "pool": pool,
            "replayed": 5, "redecided": 6}
    variants = [figures("standard", 1, results[:6]), figures("strict", 1, "wlllul")]
    rule_checks = {"cards.values": {"app": 3, "independent": 3}, "deal.layout": {"app": 2, "independent": 4}}
    inputs = [p for pattern in BUNDLE_INPUTS for p in sorted(ROOT.glob(pattern))]
    return {
        "schema": 1,
        "verified_at": "2025-01-02T03:04:05+00:00",
        "inputs": {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in inputs},
        "input_patterns": list(BUNDLE_INPUTS),
        "rules": RULES,
        "rule_checks": rule_checks,
        "checks": [
            check("examples.read", {"files": 1, "moves": 3}),
            check("rules.constants", {"constants_compared": 4}),
            check("deal.regenerated", {"examples": 1, "cards": 52}),
            check("game.replayed", {"moves_replayed": 3, "figures_compared": 7}),
            check("search.exact", {"deals_solved": 1, "app_positions": 40, "independent_positions": 40,
                                   "app_seconds": 0.1, "independent_seconds": 0.1}),
            check("rules.checked", {"rules": 2, "cases_app": 5, "cases_independent": 7}),
            check("survey.checked", {"deals": 12, "won": 5, "undecided": 1, "games_replayed": 5 + 1,
                                     "lost_rechecked": 6}),
            check("notes.true", {"notes": 3 * 2}),  # after the others, so their indexes stay
            check("survey.redecided", {"lost_decided_again": 6 + 4}),
        ],
        "examples": [example],
        "survey": main,
        "variants": variants,
    }


def write(tmp_path: Path, bundle) -> Path:
    path = tmp_path / "verified.json"
    path.write_text(json.dumps(bundle))
    return path
