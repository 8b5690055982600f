"""Compute batch J's labels from its tables and write ``labels.jsonl`` beside ``questions.jsonl``.

    .venv/bin/python benchmarks/heldout_j/make_tables.py   # first: builds tables/
    .venv/bin/python benchmarks/heldout_j/make_labels.py   # add -v to print the values

The label functions live in ``labels_j.py`` (one per question id). Before writing, every question
must have a function and the names it returns must be the ``@name[...]`` items of the question's
format, in order; a value within 1e-3 of a rounding half at its asked precision is refused
(``labels_j.render``), since half-up and half-even rounding could then disagree; a "which is
highest/lowest" answer that is tied is refused (``labels_j._top``).
Tables are read with pandas' defaults (``make_tables.READ_OPTIONS`` names no option for any table).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pandas as pd


def _load(name: str):
    """A module beside this file, loaded without touching sys.path."""
    spec = importlib.util.spec_from_file_location(f"heldout_j_{name}", Path(__file__).resolve().parent / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


labels_j = _load("labels_j")
make_tables = _load("make_tables")

QUESTIONS = labels_j.HERE / "questions.jsonl"
LABELS_FILE = labels_j.HERE / "labels.jsonl"


def computed(folder: Path | None = None) -> dict[int, list[list[str]]]:
    """Question id -> [[name, value as written], ...] from the tables in ``folder`` (default tables/)."""
    folder = Path(folder) if folder is not None else labels_j.TABLES

    def read(name: str) -> pd.DataFrame:
        return pd.read_csv(folder / name, **make_tables.READ_OPTIONS.get(name, {}))

    questions = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    formats = {q["id"]: q["format"] for q in questions}
    missing = set(formats) ^ set(labels_j.LABELS)
    assert not missing, f"questions and label functions differ: {sorted(missing)}"
    answers = {}
    for qid in sorted(formats):
        items = labels_j.LABELS[qid](read)
        asked = re.findall(r"@(\w+)\[", formats[qid])
        given = [name for name, _, _ in items]
        assert asked == given, (qid, asked, given)
        answers[qid] = [[name, labels_j.render(value, places)] for name, value, places in items]
    return answers


def main(verbose: bool = False) -> None:
    answers = computed()
    if verbose:
        for qid, items in answers.items():
            print(qid, items)
    lines = [json.dumps({"id": qid, "common_answers": items}) for qid, items in answers.items()]
    LABELS_FILE.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} labels to {LABELS_FILE}")


if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
