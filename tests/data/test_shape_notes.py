"""What a table's rows are (data/shape.py): a long table's two keys and indicator columns are
named under the profile's header; an ordinary table gets no note."""

import numpy as np
import pandas as pd

from dsagent.data import Dataset
from dsagent.data.profile import profile_dataset
from dsagent.data.shape import shape_notes


def _long() -> pd.DataFrame:
    people, options = range(1, 31), ["bus", "car", "rail"]
    rng = np.random.default_rng(0)
    rows = [(p, o, float(rng.integers(5, 90))) for p in people for o in options]
    return pd.DataFrame(rows, columns=["person", "option", "minutes"])


def test_a_long_table_is_named_by_its_two_keys():
    notes = shape_notes(_long())
    assert len(notes) == 1 and "(person, option) pair, 30 x 3" in notes[0] and "pivot(index='person'" in notes[0]
    broken = _long().drop(index=[4])  # one pair missing: not a full grid
    assert shape_notes(broken) == []
    repeated = pd.concat([_long(), _long().head(3)], ignore_index=True)  # a pair twice
    assert shape_notes(repeated) == []


def test_indicator_columns_are_named_as_one_category():
    level = np.array(["a", "b", "c", "d"] * 5)
    frame = pd.DataFrame({"id": range(20), "good": (level == "b").astype(int), "fair": (level == "c").astype(int),
                          "poor": (level == "d").astype(float), "cost": np.arange(20.0)})
    notes = shape_notes(frame)
    assert notes == ["columns good, fair, poor: 0/1 indicators of one category, at most one is 1 on a row "
                     "(a row with none is in the category left out)"]
    frame.loc[3, "fair"] = 1  # now two are 1 on one row: not one category
    assert not any("indicators" in n for n in shape_notes(frame))
    flags = pd.DataFrame({"late": [1, 0, 0, 0, 0, 0, 0, 0, 1, 0], "lost": [0, 1, 0, 0, 0, 0, 0, 0, 0, 0], "x": range(10)})
    assert shape_notes(flags) == []  # two rare flags apart by chance
    pair = pd.DataFrame({"male": [1, 0] * 5, "female": [0, 1] * 5, "x": range(10)})
    assert "columns male, female" in shape_notes(pair)[0]


def test_an_ordinary_table_gets_no_note_and_the_profile_shows_the_notes():
    rng = np.random.default_rng(1)
    plain = pd.DataFrame({"city": [f"c{i}" for i in range(50)], "sales": rng.normal(size=50), "units": rng.integers(0, 9, 50)})
    assert shape_notes(plain) == [] and shape_notes(plain.head(5)) == []
    text = profile_dataset(Dataset("trips", "trips.csv", None, _long())).text
    lines = text.splitlines()
    assert lines[0].startswith("datasets['trips'] = trips.csv: 90 rows x 3 cols") and lines[1].startswith("rows: one per (person, option)")
    assert "rows: one per" not in profile_dataset(Dataset("p", "p.csv", None, plain)).text
