"""Compute batch I's labels from its tables and write ``labels.jsonl`` beside ``questions.jsonl``.

    .venv/bin/python benchmarks/heldout_i/make_tables.py   # first: builds tables/
    .venv/bin/python benchmarks/heldout_i/make_labels.py   # add -v to print the values

The label functions live in ``labels_i.py`` (one per question id). Before writing, every question
must have a function and the names it returns must be the ``@name[...]`` items of the question's
format, in order; a value within 1e-3 of a rounding half at its asked precision is refused
(``heldout_common.render``), since half-up and half-even rounding could then disagree; a "which is
highest/lowest" answer that is tied is refused (``heldout_common.top_index``).
Tables are read with pandas' defaults (``make_tables.READ_OPTIONS`` names no option for any table).
The checks, the reading and the writing are ``heldout_common``'s, shared by batches C-J.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

labels_i = heldout_common.load_beside(__file__, "labels_i")
make_tables = heldout_common.load_beside(__file__, "make_tables")


def computed(folder: Path | None = None) -> dict[int, list[list[str]]]:
    """Question id -> [[name, value as written], ...] from the tables in ``folder`` (default tables/)."""
    return heldout_common.labels_from_tables(labels_i, folder, make_tables.READ_OPTIONS)


def main(verbose: bool = False) -> None:
    heldout_common.write_answers(labels_i.HERE / "labels.jsonl", computed(), "labels", verbose)


if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
