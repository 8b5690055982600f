"""Write held-out batch E's ``labels.jsonl`` from the first solution (``solve_pandas.py``).

    .venv/bin/python benchmarks/heldout_e/make_labels.py [-v] [clinic.sqlite]

The labels are the pandas solution's answers. They are written only when the second, independent
solution (``solve_sql.py``) renders the same value for every question, when every question's answer
names are exactly the ``@name[...]`` names its format asks for, and when the pandas solution met no
tie and no rounding half (it raises ``Ambiguous`` for those). ``-v`` prints the values.
"""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DB = HERE / "tables" / "clinic.sqlite"
QUESTIONS = HERE / "questions.jsonl"
LABELS = HERE / "labels.jsonl"


def _solution(name: str):
    # run_path, not import: nothing is written beside the scripts (no __pycache__)
    return runpy.run_path(str(HERE / name))["answers"]


def computed(db: Path = DB) -> dict[int, list[list[str]]]:
    """Question id -> common_answers, after checking that both solutions agree."""
    first = _solution("solve_pandas.py")(db)
    second = _solution("solve_sql.py")(db)
    questions = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    assert sorted(first) == sorted(second) == sorted(q["id"] for q in questions)
    disagree = {qid: (first[qid], second[qid]) for qid in first if first[qid] != second[qid]}
    assert not disagree, f"the two solutions disagree: {disagree}"
    for q in questions:
        names = list(dict.fromkeys(re.findall(r"@(\w+)\[", q["format"])))
        assert names == [name for name, _ in first[q["id"]]], q["id"]
        assert all(isinstance(v, str) and v for _, v in first[q["id"]]), q["id"]
    return {q["id"]: first[q["id"]] for q in questions}


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    paths = [a for a in argv if a != "-v"]
    labels = computed(Path(paths[0]) if paths else DB)
    LABELS.write_text("".join(json.dumps({"id": qid, "common_answers": answer}) + "\n" for qid, answer in labels.items()))
    print(f"wrote {LABELS} ({len(labels)} questions; pandas and SQL agree on all)")
    if verbose:
        for qid, answer in labels.items():
            print(qid, " ".join(f"@{name}[{value}]" for name, value in answer))


if __name__ == "__main__":
    main(sys.argv[1:])
