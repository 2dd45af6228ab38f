"""Once, when merging: moves each example's title, summary and notes out of examples/*.yaml into
docs/<lang>/examples/<id>.yml (the older form, texts per language inside the example file, is
still read, but a translator's work belongs in docs/<lang>/). Run: .venv/bin/python tools/move_example_texts.py
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import strict_yaml  # noqa: E402

languages = strict_yaml.load(ROOT / "docs" / "languages.yml")["languages"]
for path in sorted((ROOT / "examples").glob("*.yaml")):
    data = strict_yaml.load(path)
    for entry in languages:
        code = entry["code"]
        out = [f"# What examples/{path.name} says in {entry['name']}: the section's title, a summary under it,\n"
               "# and notes on moves by their number (1 = the first move of its game).\n"]
        for key in ("title", "summary"):
            if code in (data.get(key) or {}):
                out.append(f"{key}: {json.dumps(data[key][code], ensure_ascii=False)}\n")
        notes = [(i, m["note"][code], m["move"]) for i, m in enumerate(data["game"], 1)
                 if isinstance(m, dict) and code in (m.get("note") or {})]
        if notes:
            out.append("notes:\n")
            out += [f"  {i}: {json.dumps(text, ensure_ascii=False)}  # {move}\n" for i, text, move in notes]
        folder = ROOT / "docs" / code / "examples"
        folder.mkdir(exist_ok=True)
        (folder / f"{data['id']}.yml").write_text("".join(out), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^(title|summary):\n(  .*\n)+", "", text)
    text = re.sub(r"(?m)^- move: (.*)\n  note:\n(    .*\n)+", r"- \1\n", text)
    text = re.sub(r"(?m)^# To annotate a move, write it as:.*\n#\s+note: .*\n",
                  "# Its title, summary and notes are in each language's docs/<lang>/examples/<id>.yml.\n", text)
    path.write_text(text, encoding="utf-8")
    print(f"{path.relative_to(ROOT)}: texts moved to docs/<lang>/examples/{data['id']}.yml")
