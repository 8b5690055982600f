"""Smart samples show every common value shape, so a minority format is seen, not only flagged."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dsagent.data import load_datasets, profile_dataset
from dsagent.data.stats import value_shapes


def samples_of(values) -> str:
    prof = profile_dataset(load_datasets({"t": pd.DataFrame({"v": values})})["t"])
    line = prof.text.splitlines()[1]
    return line.split(" eg ", 1)[1].split(" ! ")[0]


def test_value_shapes():
    assert value_shapes(["2021-03-04", "04/03/2021", "Mar 4, 2021", "1,200", "cust_12"]) == ["9-9-9", "9/9/9", "a 9, 9", "9,9", "a_9"]


def test_a_minority_date_format_away_from_head_middle_and_tail_is_sampled():
    days = pd.date_range("2021-01-01", periods=400, freq="D")
    rows = np.arange(400)
    # 5% of the rows, in one block that neither the head, the middle nor the tail window reaches
    values = np.where((rows >= 100) & (rows < 120), days.strftime("%d/%m/%Y"), days.strftime("%Y-%m-%d"))
    shown = samples_of(values)
    assert '"2021-01-01"' in shown  # the head is still first
    assert any(f'"{v}"' in shown for v in values[100:120]), shown
    assert len(shown.split(", ")) <= 4


def test_one_shape_keeps_head_middle_tail_rare_order():
    values = [f"free text {i}" for i in range(400)]
    assert samples_of(values).split(", ")[:3] == ['"free text 0"', '"free text 200"', '"free text 399"']


def test_a_shape_under_one_percent_is_left_to_the_rare_pick():
    values = [f"item-{i}" for i in range(1000)]
    values[300] = "item 300"
    assert samples_of(values).split(", ") == ['"item-0"', '"item-500"', '"item-999"']
