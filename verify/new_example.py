"""`make example DEAL=N`: a new example file from the solvers' shortest game, figures filled in.

The file is ready for a person to add notes; `make verify` checks it like any other.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from . import deal as independent_deal
from .app import AppEngine
from .checks.example_checks import final_figures
from .compare import opening_layout, play_both
from .solving import solve_both


def example_yaml(example_id: str, n: int, answer: dict, final: dict, opening: dict) -> str:
    """The example file's text: fields in a fixed order, one move per line."""
    kind = "can be won" if answer["winnable"] else "cannot be won"
    head = [
        f"# Deal {n} {kind}. Written by `make example DEAL={n}` from the exact solvers' shortest game.",
        "# To annotate a move, write it as:  - move: pair 7H 6S",
        "#                                     note: {nb: \"…\", da: \"…\"}",
    ]
    body = {
        "id": example_id,
        "deal": n,
        "opening": {k: len(opening[k]) for k in ("pyramid", "stock", "waste")},
        "game": answer["game"],
        "final": final,
        "search": {k: answer[k] for k in ("max_removed", "shortest", "winnable")},
    }
    return "\n".join(head) + "\n" + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


def run(args, app: AppEngine) -> int:
    n = independent_deal.parse_deal_number(args.number)
    example_id = args.id or f"deal-{n}"
    path = Path(args.dir) / f"{example_id}.yaml"
    if path.exists() and not args.force:
        from .cli import InputError

        raise InputError(f"{path} already exists; choose another --id or add --force")
    layout = opening_layout(app, n)
    start = app.opening(n)
    answer = solve_both(app, start)
    end = play_both(app, start, answer["game"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(example_yaml(example_id, n, answer, final_figures(start, end), layout), encoding="utf-8")
    print(f"Wrote {path}: deal {n}, {answer['max_removed']} pyramid cards in {answer['shortest']} moves "
          f"({'won' if answer['winnable'] else 'cannot be won'}). Add notes, then run `make verify`.")
    return 0
