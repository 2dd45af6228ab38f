"""What the PO tests share: a copy of docs/ (and examples/, which the notes' lint reads) to
export from and import into, a snapshot of a folder's files, and the `po` command on a copy."""
import shutil
from pathlib import Path

from generator import cli

ROOT = Path(__file__).resolve().parents[2]


def copy_docs(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    return tmp_path / "docs"


def snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def po_cli(docs: Path, *args) -> int:
    return cli.main(["po", *args, "--docs", str(docs)])
