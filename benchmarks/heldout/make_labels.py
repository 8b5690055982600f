"""Compute the labels of the held-out set from the tables and write labels.jsonl.

    .venv/bin/python benchmarks/heldout/make_tables.py   # first, builds tables/
    .venv/bin/python benchmarks/heldout/make_labels.py   # writes labels.jsonl, checks questions.jsonl

One function per question id, in labels_a.py (ids 9001-9024) and labels_b.py (9025-9048);
label_tools.py has the registry, the table reader and the rounding. Each returns a list of (name, value, decimals):
decimals=None means the value is written as it is (a string or an integer), otherwise
the float is written with exactly that many decimals. The script refuses to write a
label whose unrounded value lies within 1e-3 (in units of the last asked digit) of a
rounding half, since half-up and half-even rounding could then disagree.
"""

from __future__ import annotations

import json
import re
import sys

import labels_a  # noqa: F401  (registers its labels)
import labels_b  # noqa: F401
from label_tools import HERE, LABELS, render


def main(verbose: bool = False) -> None:
    questions = {q["id"]: q for q in map(json.loads, (HERE / "questions.jsonl").read_text().splitlines())}
    assert sorted(questions) == sorted(LABELS), "question ids and label functions differ"
    lines = []
    for qid in sorted(LABELS):
        items = LABELS[qid]()
        names = re.findall(r"@(\w+)\[", questions[qid]["format"])
        assert names == [n for n, _, _ in items], (qid, names, [n for n, _, _ in items])
        answers = [[n, render(v, d)] for n, v, d in items]
        if verbose:
            print(qid, [(n, v) for n, v, _ in items], answers)
        lines.append(json.dumps({"id": qid, "common_answers": answers}))
    (HERE / "labels.jsonl").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} labels to {HERE / 'labels.jsonl'}")


if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
