"""`make example DEAL=N`: a new example file from the solvers' shortest game, figures filled in.

The file builds as it is (the examples page of every language shows it at the next `make site`);
a person may add notes, titles and a summary. `make verify` checks it like any other.
It is written only inside --dir, under an id that matches the example id pattern, and never
over an existing file unless --force is given.
"""
from __future__ import annotations

from pathlib import Path

import yaml

import strict_yaml

from .app import AppEngine
from .checks.example_checks import final_figures
from .compare import deal_number, opening_layout, play_both
from .errors import InputError
from .examples import ID_PATTERN, ID_RULE, language_codes
from .solving import solve_both


def example_yaml(example_id: str, n: int, answer: dict, final: dict, opening: dict,
                 languages: tuple[str, ...] = ("nb", "da"), order: int | None = None) -> str:
    """The example file's text: fields in a fixed order, one move per line. It builds as it is:
    the pages show it under the languages' default title, without notes."""
    kind = "can be won" if answer["winnable"] else "cannot be won"
    head = [
        f"# Deal {n} {kind}. Written by `make example DEAL={n}` from the exact solvers' shortest game.",
        f"# Its title, summary and notes go in each language's docs/<lang>/examples/{example_id}.yml:",
        '#   title: "…"  summary: "…"  notes: {3: "…"}  (a note on move 3, in every language)',
        "# draft: true (verified, not shown yet); order is its place on the examples page (lower first).",
    ]
    body = {
        "id": example_id,
        "deal": n,
        **({"order": order} if order is not None else {}),
        "opening": {k: len(opening[k]) for k in ("pyramid", "stock", "waste")},
        "game": answer["game"],
        "final": final,
        "search": {k: answer[k] for k in ("max_removed", "shortest", "winnable")},
    }
    return "\n".join(head) + "\n" + yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)


def example_path(folder: Path, example_id: str) -> Path:
    """folder/<id>.yaml; raises InputError for an id that is not a plain name inside folder."""

    if not ID_PATTERN.fullmatch(example_id):
        raise InputError(f"--id {strict_yaml.shown(example_id)}: an example id is {ID_RULE}")
    path = folder / f"{example_id}.yaml"
    if path.resolve().parent != folder.resolve():  # the pattern already rules this out; kept as the promise
        raise InputError(f"--id {strict_yaml.shown(example_id)}: {path} is not inside {folder}")
    return path


def examples_in(folder: Path) -> dict[Path, dict]:
    """The deal and order of every example file already in folder (read leniently: a broken file
    is make verify's to report, not a reason to refuse a new one)."""
    found = {}
    for p in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            data = strict_yaml.load(p)
        except (OSError, strict_yaml.YAMLFileError):
            continue
        if isinstance(data, dict):
            found[p] = {"deal": data.get("deal"), "order": data.get("order")}
    return found


def next_order(existing: dict[Path, dict], path: Path) -> int:
    """The first place after every example on the page (examples without an order count by position)."""
    others = [e for p, e in existing.items() if p.resolve() != path.resolve()]
    places = [e["order"] if isinstance(e["order"], int) and not isinstance(e["order"], bool) else i + 1
              for i, e in enumerate(others)]
    return max(places, default=0) + 1


def run(args, app: AppEngine) -> int:

    n = deal_number(args.number)
    folder = Path(args.dir)
    path = example_path(folder, f"deal-{n}" if args.id is None else args.id)  # --id "" is refused, not defaulted
    example_id = path.stem
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--dir {folder}: not a folder")
    if path.exists() and not args.force:
        raise InputError(f"{path} already exists; choose another ID=… (--id) or add FORCE=1 (--force)")
    existing = examples_in(folder)
    same_deal = [p for p, e in existing.items() if e["deal"] == n and p.resolve() != path.resolve()]
    if same_deal:
        raise InputError(f"deal {n} already has an example: {same_deal[0]}; edit that file instead")
    layout = opening_layout(app, n)
    start = app.opening(n)
    answer = solve_both(app, start)
    end = play_both(app, start, answer["game"])
    languages = language_codes()
    order = next_order(existing, path)
    text = example_yaml(example_id, n, answer, final_figures(start, end), layout, languages, order)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # "x" refuses a file that appeared while the solvers ran: only --force replaces one.
        with path.open("w" if args.force else "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise InputError(f"{path} already exists; choose another ID=… (--id) or add FORCE=1 (--force)") from None
    except OSError as e:
        raise InputError(f"{path}: cannot be written ({e.strerror})") from None
    print(f"Wrote {path}: deal {n}, {answer['max_removed']} pyramid cards in {answer['shortest']} moves "
          f"({'won' if answer['winnable'] else 'cannot be won'}).")
    print(next_steps(path, languages))
    return 0


def next_steps(path: Path, languages: tuple[str, ...]) -> str:
    """What to do with the new file; it is on the site at the next `make site` even if nothing is done."""
    codes = ", ".join(languages)
    return "\n".join([
        "Next steps (all optional; the file builds as it is):",
        f"  1. Its words, in each language ({codes}), in docs/<lang>/examples/<id>.yml (<id>: the file's id):",
        '     title: "…", summary: "…" and notes: {3: "…"} (a note on move 3, in every language); without a',
        f"     title the heading is the language's word for the deal and its number. In {path}:",
        "     order: N places it; draft: true hides it for now.",
        "  2. make site — every language's examples page shows it, with a link that opens the game at the deal.",
    ])
