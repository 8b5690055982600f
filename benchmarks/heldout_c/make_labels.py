"""Compute batch C's labels from its tables and write ``labels.jsonl`` beside ``questions.jsonl``.

    .venv/bin/python benchmarks/heldout_c/make_tables.py   # first: builds tables/
    .venv/bin/python benchmarks/heldout_c/make_labels.py   # add -v to print the values

The label functions live in ``labels_c.py`` (one per question id). Before writing, every question
must have a function and the names it returns must be the ``@name[...]`` items of the question's
format, in order; a value within 1e-3 of a rounding half at its asked precision is refused
(``render``, shared with batches A/B), since half-up and half-even rounding could then disagree.
"""

from __future__ import annotations

import json
import re
import sys

import labels_c


def computed() -> dict[int, list[list[str]]]:
    """Question id -> [[name, value as written], ...], checked against the question's format."""
    questions = [json.loads(line) for line in (labels_c.HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    formats = {q["id"]: q["format"] for q in questions}
    missing = set(formats) ^ set(labels_c.LABELS)
    assert not missing, f"questions and label functions differ: {sorted(missing)}"
    answers = {}
    for qid in sorted(formats):
        items = labels_c.LABELS[qid]()
        asked = re.findall(r"@(\w+)\[", formats[qid])
        given = [name for name, _, _ in items]
        assert asked == given, (qid, asked, given)
        answers[qid] = [[name, labels_c.render(value, places)] for name, value, places in items]
    return answers


def main(verbose: bool = False) -> None:
    answers = computed()
    if verbose:
        for qid, items in answers.items():
            print(qid, items)
    lines = [json.dumps({"id": qid, "common_answers": items}) for qid, items in answers.items()]
    (labels_c.HERE / "labels.jsonl").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} labels to {labels_c.HERE / 'labels.jsonl'}")


if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
