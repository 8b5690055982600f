"""Compute batch K's labels from its tables and write ``labels.jsonl`` beside ``questions.jsonl``.

    .venv/bin/python benchmarks/heldout_k/make_tables.py   # first: builds tables/
    .venv/bin/python benchmarks/heldout_k/make_labels.py   # add -v to print the values

The label functions live in ``labels_k.py`` (one per question id). ``heldout_common.label_commands``
does the rest, as for batch L: each question must have a function whose names are the
``@name[...]`` items of its format, in order; a value within 1e-3 of a rounding half at its asked
precision is refused (``heldout_common.render``); a tied "which is highest/lowest" answer is refused
(``heldout_common.top_index``, in the label functions). Tables are read with pandas' defaults.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

labels_k, make_tables, computed, main = heldout_common.label_commands(__file__, "labels_k")

if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
