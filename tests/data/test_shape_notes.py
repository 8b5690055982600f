"""What a table's rows are (data/shape.py): a long table's two keys and indicator columns are
named under the profile's header; an ordinary table gets no note."""

import numpy as np
import pandas as pd

from dsagent.data import Dataset
from dsagent.data.profile import profile_dataset
from dsagent.data.shape import shape_notes, total_rows


def _long() -> pd.DataFrame:
    people, options = range(1, 31), ["bus", "car", "rail"]
    rng = np.random.default_rng(0)
    rows = [(p, o, float(rng.integers(5, 90))) for p in people for o in options]
    return pd.DataFrame(rows, columns=["person", "option", "minutes"])


def test_a_long_table_is_named_by_its_two_keys():
    notes = shape_notes(_long())
    assert len(notes) == 1 and "a long table: one row per (person, option) pair, 30 x 3" in notes[0]
    assert "pivot(index='person'" in notes[0]
    measures = _long().assign(**{f"m{i}": np.arange(90) % 50 for i in range(12)})  # many columns with more values
    assert "(person, option) pair" in shape_notes(measures)[0]
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
    rare = pd.DataFrame({"fraud": 0, "chargeback": 0, "dispute": 0, "x": range(1000)})
    rare.iloc[0, 0] = rare.iloc[1, 1] = rare.iloc[2, 2] = 1  # three flags, each 1 once
    assert shape_notes(rare) == []
    pair = pd.DataFrame({"male": [1, 0] * 5, "female": [0, 1] * 5, "x": range(10)})
    assert "columns male, female" in shape_notes(pair)[0]


def test_an_ordinary_table_gets_no_note_and_the_profile_shows_the_notes():
    rng = np.random.default_rng(1)
    plain = pd.DataFrame({"city": [f"c{i}" for i in range(50)], "sales": rng.normal(size=50), "units": rng.integers(0, 9, 50)})
    assert shape_notes(plain) == [] and shape_notes(plain.head(5)) == []
    text = profile_dataset(Dataset("trips", "trips.csv", None, _long())).text
    lines = text.splitlines()
    assert lines[0].startswith("datasets['trips'] = trips.csv: 90 rows x 3 cols") and lines[1].startswith("a long table: one row per (person, option)")
    assert "a long table" not in profile_dataset(Dataset("p", "p.csv", None, plain)).text


def test_a_time_series_is_no_long_table_and_a_panel_is_indexed_by_its_entity():
    monthly = pd.DataFrame({"year": np.repeat([2021, 2022, 2023], 12), "month": list(range(1, 13)) * 3, "sales": np.arange(36.0)})
    assert shape_notes(monthly) == []
    panel = pd.DataFrame({"firm": np.repeat(["a", "b", "c"], 20), "year": list(range(1990, 2010)) * 3, "invest": np.arange(60.0)})
    assert "one row per (firm, year) pair, 3 x 20; a question per firm compares its 20 rows" in shape_notes(panel)[0]


def test_odd_tables_are_profiled_without_a_crash():
    frame = _long()
    frame.columns = ["a", "b", "b"]  # duplicate names
    assert profile_dataset(Dataset("d", "d.csv", None, frame)).text.startswith("datasets['d']")
    numbered = pd.DataFrame({0: [0, 1] * 5, 1: [1, 0] * 5, 2: range(10)})  # int column names
    assert "columns 0, 1" in shape_notes(numbered)[0]
    cells = pd.DataFrame({"x": [[1], [2]] * 5, "y": range(10)})  # unhashable cells
    assert shape_notes(cells) == []
    hot = pd.DataFrame(np.eye(40, dtype=int)[np.arange(400) % 40], columns=[f"c{i}" for i in range(40)])
    assert shape_notes(hot)[0].startswith("columns c0 … c39 (40 columns)")


def test_rows_that_run_newest_first_are_named():
    days = pd.date_range("2003-06-02", periods=30, freq="B")
    prices = pd.DataFrame({"Date": days.strftime("%d-%b-%y")[::-1], "Close": np.arange(30.0)})
    notes = shape_notes(prices)
    assert notes == ["rows run from the latest Date to the earliest: sort by Date (as dates) before taking a first or last row, "
                     "a change over time or a moving window"]
    assert shape_notes(prices.iloc[::-1].reset_index(drop=True)) == []  # oldest first: the usual order
    typed = pd.DataFrame({"when": days[::-1], "v": np.arange(30.0)})
    assert "latest when" in shape_notes(typed)[0]
    labels = pd.DataFrame({"name": [f"n{i}" for i in range(30)], "v": np.arange(30.0)})  # text, no date name
    assert shape_notes(labels) == []


def test_period_labels_are_named_with_how_to_read_them():
    """'1972m1' is how Stata prints a month: pandas cannot read it without the format, so the
    profile says it; the year and quarter of '1960Q1' are read by a PeriodIndex (a model that cuts
    the text took '960Q1' for the quarter; batch K, seen). The ways it gives run."""
    months = pd.DataFrame({"month": [f"{y}m{m}" for y in (1972, 1973) for m in range(1, 13)], "v": np.arange(24.0)})
    notes = shape_notes(months)
    assert notes == ["month holds months written as text like '1972m1': pd.to_datetime(df['month'], format='%Ym%m') reads "
                     "them as dates (.dt.year, .dt.month)"]
    df = months  # noqa: F841 - read by the note's code
    assert eval(notes[0].split(": ", 1)[1].split(" reads")[0])[12] == pd.Timestamp("1973-01-01")  # noqa: S307
    quarters = pd.DataFrame({"qtr": [f"{y}Q{q}" for y in (1960, 1961) for q in range(1, 5)], "v": np.arange(8.0)})
    note = shape_notes(quarters)[0]
    df = quarters  # noqa: F841
    periods = eval(note.split(": ", 1)[1].split(" reads")[0])  # noqa: S307
    assert "quarters written as text like '1960Q1'" in note and list(periods.quarter[:5]) == [1, 2, 3, 4, 1]
    assert periods.to_timestamp()[5] == pd.Timestamp("1961-04-01") and periods.year[5] == 1961


def _regions() -> pd.DataFrame:
    rng = np.random.default_rng(1)
    names = [f"area {i}" for i in range(12)]
    area, people = rng.integers(100, 900, 12).astype(float), rng.integers(10, 500, 12).astype(float)
    return pd.DataFrame({"region": names, "area": area, "people": people, "density": people / area,
                         "change_pct": rng.normal(0, 3, 12)})


def test_a_row_that_holds_the_sum_of_the_others_is_named_as_a_total():
    items = _regions()
    whole = pd.DataFrame({"region": ["Country"], "area": [items.area.sum() * 3], "people": [items.people.sum() * 2.5],
                          "density": [0.5], "change_pct": [1.0]})
    part = pd.DataFrame({"region": ["Province"], "area": [items.area.sum()], "people": [items.people.sum()],
                         "density": [0.4], "change_pct": [0.0]})
    frame = pd.concat([whole, part, items], ignore_index=True)  # a larger whole, then the total of the items
    notes = [n for n in shape_notes(frame) if "total" in n]
    assert len(notes) == 1, shape_notes(frame)
    assert "rows 'Country', 'Province' of region: totals of the other rows (in area and people)" in notes[0]
    assert "df[~df['region'].isin(['Country', 'Province'])]" in notes[0]


def test_a_row_named_total_needs_one_column_and_items_alone_get_no_note():
    items = _regions()
    total = pd.DataFrame({"region": ["Total"], "area": [items.area.sum()], "people": [np.nan], "density": [0.3],
                          "change_pct": [0.1]})
    notes = shape_notes(pd.concat([items, total], ignore_index=True))
    assert "row 'Total' of region: a total of the other rows (in area), not items" in " ".join(notes)
    assert not any("total" in n for n in shape_notes(items))
    big = items.copy()
    big.loc[0, "area"] = items.area.sum() * 2  # one large item in one column: an item, not a total
    assert not any("total" in n for n in shape_notes(big))


def test_two_large_items_near_the_sum_of_the_rest_are_no_total():
    """Eight cities where the second largest is 5 % above the rest in two columns: chance, not a sum."""
    frame = pd.DataFrame({"city": list("ABCDEFGH"), "x": [900, 630, 200, 150, 100, 80, 40, 30],
                          "y": [800, 578, 220, 100, 90, 60, 50, 30], "z": [5, 900, 7, 3, 2, 1, 9, 4]})
    assert total_rows(frame) is None
    frame.loc[1, ["x", "y"]] = [600, 550]  # now exactly the sum of the rows below it
    assert total_rows(frame) == ("city", ["A", "B"], ["x", "y"])


def test_a_total_row_in_each_block_of_a_long_table_is_named():
    """Areas × two questions: no column names each row once, and each question's block has its own
    'All areas' row (the sum of the areas in both vote columns)."""
    areas = ["North", "South", "East", "West", "Centre"]
    blocks = []
    for question, scale in (("first", 1), ("second", 3)):
        yes = [scale * v for v in (400, 250, 120, 90, 60)]
        no = [scale * v for v in (100, 300, 80, 70, 20)]
        blocks.append(pd.DataFrame({"question": question, "area": areas + ["All areas"], "yes": yes + [sum(yes)],
                                    "no": no + [sum(no)], "yes_pct": [round(100 * y / (y + n), 1) for y, n in zip(yes + [sum(yes)], no + [sum(no)])]}))
    frame = pd.concat(blocks, ignore_index=True)
    assert total_rows(frame) == ("area", ["All areas"], ["yes", "no"])
    assert "df[df['area'] != 'All areas']" in " ".join(shape_notes(frame))
    frame.loc[11, "yes"] = 100  # the second block's row is no sum there: not a total in every block
    frame.loc[11, "no"] = 100
    assert total_rows(frame) is None


def test_a_wide_table_of_months_is_named_with_the_pandas_that_reads_it_long():
    months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    frame = pd.DataFrame({"YEAR": range(1990, 2000), **{m: np.arange(10.0) + i for i, m in enumerate(months)}})
    note = next(n for n in shape_notes(frame) if n.startswith("a wide table"))
    assert "one row per YEAR, one column per month (JAN … DEC)" in note
    code = note.split("not a row: ", 1)[1].replace(", then sort by date", "").replace("; ", "\n")
    ns = {"df": frame, "pd": pd}
    exec(code, ns)  # noqa: S102 - the pandas the note offers, run on its table
    long = ns["long"].sort_values("date")
    assert len(long) == 120 and long["date"].iloc[0] == pd.Timestamp("1990-01-01") and long["value"].iloc[-1] == 20.0
    assert not any(n.startswith("a wide table") for n in shape_notes(frame.rename(columns=str.lower).iloc[:, :5]))
