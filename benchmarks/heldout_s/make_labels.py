"""Batch S's labels, written to ``labels.jsonl``: the functions of ``labels_s.py`` run over the
tables ``make_tables.py`` built into ``tables/``; ``-v`` prints each value as well.

    .venv/bin/python benchmarks/heldout_s/make_labels.py [-v]

The checks are ``heldout_common.label_commands``' (the format's names in order, no value on a
rounding half, no tied "which is highest" answer); see the README.
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import label_commands  # noqa: E402

labels_s, make_tables, computed, main = label_commands(__file__, "labels_s")
if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
