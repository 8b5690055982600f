"""Text columns of numbers ("4,749", "57.3 %") read as numbers only when the whole column agrees."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dsagent.data import load_datasets, profile_dataset
from dsagent.data.textnumbers import numbers_from_text


def test_thousands_and_percent_columns_become_numbers() -> None:
    frame = pd.DataFrame({"votes": ["4,749", "12", "1,000,000"], "share": ["57.3 %", "100%", None],
                          "amount": ["1,234.5", "2", "-3"]})
    assert numbers_from_text(frame) == ({"votes": "4,749", "share": "57.3 %", "amount": "1,234.5"}, {})
    assert frame["votes"].tolist() == [4749, 12, 1_000_000] and frame["votes"].dtype == "int64"
    assert frame["share"].iloc[:2].tolist() == [57.3, 100.0] and frame["share"].isna().iloc[2]
    assert frame["amount"].tolist() == [1234.5, 2.0, -3.0]


def test_digits_grouped_by_spaces_become_numbers() -> None:
    """"1 234 567" (a blank, a no-break or a thin space between groups of three, as European
    exports and the SI write numbers), with the SI's grouped decimals and a power of ten after a
    blank ("6.644 657 3450 e-27")."""
    frame = pd.DataFrame({"people": ["1 234 567", "12", "9\u00a0876"], "mass": ["6.644 657 3450 e-27", "299 792 458", "1.5"],
                          "fine": ["1\u202f000.25", "-2 500", None]})
    assert numbers_from_text(frame) == ({"people": "1 234 567", "mass": "6.644 657 3450 e-27", "fine": "1\u202f000.25"}, {})
    assert frame["people"].tolist() == [1_234_567, 12, 9_876] and frame["people"].dtype == "int64"
    assert frame["mass"].tolist() == [6.6446573450e-27, 299_792_458.0, 1.5]
    assert frame["fine"].iloc[:2].tolist() == [1000.25, -2500.0]


def test_whole_numbers_too_big_for_int64_stay_floats() -> None:
    frame = pd.DataFrame({"mass": ["5.972 168 e24", "1.898 e27", "6.417 e23"], "n": ["12 345 678 901 234 567 890", "1 000", "5"]})
    numbers_from_text(frame)
    assert frame["mass"].tolist() == [5.972168e24, 1.898e27, 6.417e23]
    assert frame["n"].dtype == "float64" and frame["n"].iloc[0] == 1.2345678901234568e19


@pytest.mark.parametrize("values", [
    ["12 34", "1", "2"],          # not groups of three: two numbers, not one
    ["75 001", "0 123", "3"],     # a leading zero group: a code
    ["1 000", "2,000", "3"],      # two kinds of separator in one column
    ["1 000 kg", "2 000", "3"],   # a unit
    ["2020 12 31", "2021 01 01"], # a date written with blanks
    ["+48 601 234 567", "601 234 568"],  # phone numbers
    ["732 829 320", "552 100 554", "418 990 111"],  # identifiers: every value the same nine digits
    ["4.5 5", "0.5 1"],           # two numbers after a point: no groups of three
    ["40.7128 74", "1.5"],
])
def test_blank_grouped_columns_that_do_not_all_agree_stay_text(values: list[str]) -> None:
    frame = pd.DataFrame({"c": values})
    assert numbers_from_text(frame) == ({}, {}) and frame["c"].tolist() == values


@pytest.mark.parametrize("values", [
    ["007,123", "1", "2"],        # a leading zero: a code, not a number
    ["1,2", "3", "4"],            # not groups of three: a list or a decimal comma
    ["x", "1,000", "2"],          # one value is no number
    ["1,000", "5 %", "2"],        # two kinds in one column
    ["$1,000", "2,000", "3"],     # a currency sign: the clean workflow's to judge
    ["10", "20", "30"],           # nothing written as text that pandas did not read already
    ["-", "20", "30"],            # a dash may be zero in some tables: the clean workflow's to judge
    ["..", "x", "30"],            # ".." among text that is no number
    ["..", ".."],                 # nothing but the mark
])
def test_columns_that_do_not_all_agree_stay_text(values: list[str]) -> None:
    frame = pd.DataFrame({"c": values})
    assert numbers_from_text(frame) == ({}, {}) and frame["c"].tolist() == values


def test_the_loader_records_the_columns_and_the_profile_names_them(tmp_path: Path) -> None:
    path = tmp_path / "referendum.csv"
    path.write_text('area,votes,share\nNorth,"4,749",57.3 %\nSouth,"1,200",42.7 %\nEast,980,50 %\n', encoding="utf-8")
    ds = next(iter(load_datasets([path]).values()))
    assert ds.frame["votes"].sum() == 6929 and ds.frame["share"].max() == 57.3
    assert ds.read_options["numbers_from_text"] == {"votes": "4,749", "share": "57.3 %"}
    text = profile_dataset(ds).text
    assert 'read as numbers from text: "votes" (file writes "4,749"), "share" (file writes "57.3 %", a percentage 0-100)' in text
    assert path.read_text(encoding="utf-8").count('"4,749"') == 1  # the user's file is never written


def test_two_dots_for_not_available_is_read_as_missing(tmp_path: Path) -> None:
    """".." is official statistics' "not available": a column of numbers with it is numbers with
    those values missing, so ``notna()`` counts the figures given; the profile and notebook say so."""
    frame = pd.DataFrame({"rate": ["..", "59.0", "1,200.5"], "n": ["..", "3", "4"]})
    assert numbers_from_text(frame) == ({"rate": "1,200.5"}, {"rate": "..", "n": ".."})
    assert frame["rate"].isna().tolist() == [True, False, False] and frame["n"].tolist()[1:] == [3.0, 4.0]
    path = tmp_path / "areas.csv"
    path.write_text("area,training\nUK, ..\nNorth,12.5\nSouth,..\nEast,9\n", encoding="utf-8")
    ds = next(iter(load_datasets([path]).values()))
    assert ds.frame["training"].notna().sum() == 2 and ds.read_options["missing_marks"] == {"training": ".."}
    assert 'file writes ".." for missing, read as missing (NaN) in: "training"' in profile_dataset(ds).text
    from dsagent.reports.notebook import _plain_pandas
    assert eval(_plain_pandas(str(path), None, ds.read_options))["training"].notna().sum() == 2  # noqa: S307 - our own line
