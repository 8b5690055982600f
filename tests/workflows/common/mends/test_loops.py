"""The before-run mend of ``for row in df.iterrows()`` read as rows (it yields (index, row) pairs)."""

from __future__ import annotations

import pandas as pd
import pytest

from dsagent.workflows.common.mends.before_run import mend_before_run
from dsagent.workflows.common.mends.loops import mend_iterrows_pair

FRAME = pd.DataFrame({"Year": [1809, 1810, 1811], "Jan": [0.0, 12.5, 3.0]})


@pytest.mark.parametrize("code, value", [
    ("result = [(row['Year'], row['Jan']) for row in df.iterrows() if row['Jan'] < 10]", [(1809, 0.0), (1811, 3.0)]),
    ("result = 0\nfor row in df.iterrows():\n    result += row.Jan", 15.5),
])
def test_a_pair_read_as_a_row_is_unpacked(code, value):
    with pytest.raises((TypeError, AttributeError)):
        exec(code, {"df": FRAME})  # noqa: S102 - test code over a test frame
    mended, labels = mend_before_run(code)
    ns = {"df": FRAME}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == value and labels == ["iterrows read as (index, row)"]


@pytest.mark.parametrize("code", [
    "for row in df.iterrows():\n    print(row[0])",                  # the pair used as a pair
    "for i, row in df.iterrows():\n    print(row['Jan'])",          # already unpacked
    "for row in df.iterrows():\n    x = row['Jan']\nrow = 5",       # the name is assigned again
    "for row in df.iterrows():\n    keep.append(row)",              # used whole
])
def test_other_loops_are_left_alone(code):
    assert mend_iterrows_pair(code) == code
