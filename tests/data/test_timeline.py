"""A table's timeline: its date column found and parsed once (dates, text dates under a date-like
name, period labels as statistics packages write them), whether its rows run newest first, and how
many distinct calendar periods it covers."""

import numpy as np
import pandas as pd

from dsagent.data.catalog import Dataset
from dsagent.data.timeline import PERIOD_FORMATS, parse_labels, timeline


def test_a_daily_table_counts_its_calendar_periods():
    days = pd.date_range("2003-06-02", "2004-02-27", freq="B")
    frame = pd.DataFrame({"date": days.strftime("%Y-%m-%d"), "close": np.arange(len(days), dtype=float)})
    line = timeline(frame)
    assert line is not None and line.column == "date" and line.labels is None and not line.newest_first
    assert line.periods == {"year": 2, "quarter": 4, "month": 9, "week": days.to_period("W").nunique(), "day": len(days)}


def test_rows_listed_latest_first_are_seen():
    days = pd.date_range("2003-06-02", periods=30, freq="B")
    frame = pd.DataFrame({"Date": days.strftime("%d-%b-%y")[::-1], "Close": np.arange(30.0)})
    assert timeline(frame).newest_first
    assert not timeline(frame.iloc[::-1].reset_index(drop=True)).newest_first
    typed = pd.DataFrame({"when": days[::-1], "v": np.arange(30.0)})
    assert timeline(typed).newest_first


def test_period_labels_are_read_as_the_periods_they_name():
    """'1960q1' and '1972m1' (how Stata and other statistics packages print periods): pandas reads the
    first only with a deprecation warning and fails on the second ("minute must be in 0..59")."""
    quarters = pd.DataFrame({"qtr": [f"{y}q{q}" for y in range(1960, 1963) for q in range(1, 5)], "v": range(12)})
    line = timeline(quarters)
    assert line.column == "qtr" and line.labels == "quarter"
    assert line.periods["year"] == 3 and line.periods["quarter"] == 12 and line.periods["month"] == 12
    months = pd.DataFrame({"when": [f"{y}m{m}" for y in (1972, 1973) for m in range(1, 13)], "v": range(24)})
    line = timeline(months)
    assert line.labels == "month" and line.periods["month"] == 24 and line.periods["year"] == 2
    parsed = parse_labels(months["when"], "month")
    assert parsed.iloc[13] == pd.Timestamp("1973-02-01")
    assert pd.to_datetime(months["when"], format=PERIOD_FORMATS["month"]).equals(parsed)
    assert parse_labels(pd.Series(["1960Q3", "1960-Q4"]), "quarter").tolist() == [pd.Timestamp("1960-07-01"), pd.Timestamp("1960-10-01")]


def test_a_table_without_dates_has_no_timeline_and_a_year_column_counts_years():
    assert timeline(pd.DataFrame({"name": [f"n{i}" for i in range(30)], "v": np.arange(30.0)})) is None
    assert timeline(pd.DataFrame({"code": ["1999m1x"] * 10})) is None
    years = pd.DataFrame({"year": np.repeat(np.arange(1990, 2000), 3), "v": np.arange(30.0)})
    line = timeline(years)
    assert line.column == "year" and line.periods == {"year": 10} and not line.newest_first
    ages = pd.DataFrame({"age": np.arange(30), "v": np.arange(30.0)})  # integers, no year name, no year values
    assert timeline(ages) is None


def test_a_dataset_reads_its_timeline_once():
    days = pd.date_range("2020-01-01", periods=40, freq="D")
    ds = Dataset(id="d", name="d.csv", source_path=None, frame=pd.DataFrame({"day": days, "v": range(40)}))
    assert ds.timeline is ds.timeline and ds.timeline.periods["month"] == 2


def test_rows_of_one_quarter_or_one_month_know_how_many_make_a_year():
    quarters = pd.DataFrame({"q": [f"{y}Q{q}" for y in range(1960, 1965) for q in range(1, 5)], "v": range(20)})
    assert timeline(quarters).per_year == 4
    months = pd.DataFrame({"m": pd.date_range("2000-01-01", periods=30, freq="MS"), "v": range(30)})
    assert timeline(months).per_year == 12
    days = pd.DataFrame({"d": pd.date_range("2000-01-01", periods=60, freq="D"), "v": range(60)})
    assert timeline(days).per_year is None
    twice = pd.DataFrame({"m": list(pd.date_range("2000-01-01", periods=12, freq="MS")) * 2, "v": range(24)})
    assert timeline(twice).per_year is None


def test_dates_with_a_time_zone_are_counted_on_their_own_clock_without_a_warning():
    """Timestamps written with an offset ("2013-01-01T05:00:00Z") parse as dates with a time zone;
    their periods are read on that clock, and loading them warns about nothing."""
    import warnings

    hours = pd.date_range("2013-01-01 05:00", periods=24 * 40, freq="h", tz="UTC")
    frame = pd.DataFrame({"time_hour": hours.strftime("%Y-%m-%dT%H:%M:%SZ"), "temp": np.arange(len(hours), dtype=float)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        line = timeline(frame)
    assert line is not None and line.periods["month"] == 2 and line.periods["day"] == 41
