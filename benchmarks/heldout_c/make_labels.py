"""Compute batch C's labels from its tables and write ``labels.jsonl`` beside ``questions.jsonl``.

    .venv/bin/python benchmarks/heldout_c/make_tables.py   # first: builds tables/
    .venv/bin/python benchmarks/heldout_c/make_labels.py   # add -v to print the values

The label functions live in ``labels_c.py`` (one per question id). Before writing, every question
must have a function and the names it returns must be the ``@name[...]`` items of the question's
format, in order; a value within 1e-3 of a rounding half at its asked precision is refused
(``render``, shared with batches A/B), since half-up and half-even rounding could then disagree.
The checks and the writing are ``heldout_common``'s, shared by batches C-J.
"""

from __future__ import annotations

import sys
from pathlib import Path

import labels_c

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402


def computed() -> dict[int, list[list[str]]]:
    """Question id -> [[name, value as written], ...], checked against the question's format.

    Batch C's label functions take no argument: they read the tables from ``labels_c.TABLES``.
    """
    return heldout_common.checked_labels(labels_c.HERE / "questions.jsonl", labels_c.LABELS, labels_c.render,
                                         lambda fn: fn())


def main(verbose: bool = False) -> None:
    heldout_common.write_answers(labels_c.HERE / "labels.jsonl", computed(), "labels", verbose)


if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
