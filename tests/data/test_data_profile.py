"""Profile tiers, budget, relevance, format flags and token counts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dsagent.data import Dataset, load_datasets, profile_dataset, summarize_datasets
from dsagent.data.rendering import approx, num
from dsagent.data.tokens import count_tokens, estimate_tokens, set_token_counter

ROWS = 400


def frame_with(columns: dict[str, object]) -> Dataset:
    return load_datasets({"t": pd.DataFrame(columns)})["t"]


def small_frame(rows: int = ROWS) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    days = pd.date_range("2023-01-01", periods=rows, freq="D")
    return pd.DataFrame(
        {
            "Order ID": np.arange(rows),
            "Order Date": np.where(np.arange(rows) % 4 == 0, days.strftime("%d/%m/%Y"), days.strftime("%Y-%m-%d")),
            "region": rng.choice(["North", "South", "East"], rows),
            "amount": rng.gamma(2.0, 50.0, rows).round(2),
            "customer": [f"cust_{i % 97}" for i in range(rows)],
            "price_text": [f"${x:,.0f}" for x in rng.integers(500, 50_000, rows)],
            "Qty": np.where(np.arange(rows) % 10 == 0, np.nan, rng.integers(1, 5, rows)),
            "active": rng.random(rows) < 0.5,
            "signup": pd.date_range("2020-01-01", periods=rows, freq="D"),
            "notes": [f"free text {i}" for i in range(rows)],
        }
    )


def test_small_table_is_tier_b_with_every_column() -> None:
    ds = load_datasets({"sales": small_frame()})["sales"]
    prof = profile_dataset(ds)
    assert prof.tier == "B" and prof.summary_a is None
    assert prof.detailed_columns == list(ds.frame.columns)
    header, *lines = prof.text.splitlines()
    assert header == "datasets['sales'] = sales: 400 rows x 10 cols"
    assert len(lines) == 10
    by_name = {line.split('"')[1]: line for line in lines}
    assert set(by_name) == set(ds.frame.columns)  # exact names, spaces and case kept, quoted
    assert "int64" in by_name["Order ID"] and "u=all" in by_name["Order ID"]
    assert "min=0 max=399" in by_name["Order ID"]
    assert "miss=10%" in by_name["Qty"]
    assert 'top: "' in by_name["region"] and '"North"' in by_name["region"]
    assert "min=2020-01-01 max=2021-02-03" in by_name["signup"]
    assert "eg " in by_name["notes"]
    assert "numbers stored as text" in by_name["price_text"]
    assert 10 * 25 <= prof.tokens <= 10 * 70, prof.tokens
    assert prof.tokens == count_tokens(prof.text)


def test_mixed_date_formats_are_flagged() -> None:
    prof = profile_dataset(load_datasets({"s": small_frame()})["s"])
    line = next(line for line in prof.text.splitlines() if '"Order Date"' in line)
    assert "mixed date formats" in line
    assert "75%" in line and "25%" in line and "(day first)" in line


def test_one_date_format_is_not_flagged_as_mixed() -> None:
    days = pd.date_range("2023-01-01", periods=100).strftime("%Y-%m-%d")
    prof = profile_dataset(frame_with({"d": days}))
    assert "mixed" not in prof.text


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["12", "7", "unknown", "30", "8", "41"] * 20, 'non-numeric: "unknown"'),
        (["1,200", "35", "12,400", "7"] * 20, "thousand separators"),
        (["12 kg", "3 kg", "40 kg", "5 kg"] * 20, "units"),
        (["North", "north", "South", "South "] * 20, "case/space variants"),
        (["7:13 PM", "19:13", "8:02 AM", "21:40"] * 20, "mixed formats"),
    ],
)
def test_text_format_flags(values: list[str], expected: str) -> None:
    prof = profile_dataset(frame_with({"v": values}))
    assert expected in prof.text, prof.text


def test_clean_text_has_no_flag() -> None:
    prof = profile_dataset(
        frame_with({"city": ["Paris", "Rome", "Oslo", "Lima"] * 30, "segment": ["b2b", "retail", "b2c"] * 40,
                    "admitted": ["type1|2", "type3", "type1|2"] * 40})  # three labels, all shown: no format mix
    )
    assert "!" not in prof.text, prof.text


def wide_frame(rows: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    topics = ["revenue", "cost", "visits", "clicks", "refunds", "tax", "shipping", "discount", "rating", "age"]
    columns: dict[str, object] = {"customer_id": np.arange(rows)}
    for i in range(99):
        name = f"{topics[i % 10]}_{['q1', 'q2', 'q3', 'q4', 'jan', 'feb', 'mar', 'apr', 'may', 'jun'][i // 10]}"
        if i % 3 == 0:
            columns[name] = rng.normal(100, 20, rows).round(2)
        elif i % 3 == 1:
            columns[name] = rng.integers(0, 50, rows)
        else:
            columns[name] = rng.choice(["low", "mid", "high"], rows)
    columns["Customer Segment"] = rng.choice(["retail", "b2b"], rows)
    return pd.DataFrame(columns)


def test_wide_table_is_tier_a_plus_b_within_budget() -> None:
    ds = load_datasets({"wide": wide_frame()})["wide"]
    assert ds.frame.shape[1] == 101
    prof = profile_dataset(ds, "What is the average shipping_mar per customer segment?")
    assert prof.tier == "A+B"
    assert prof.tokens <= 2000, prof.tokens
    assert len(prof.summary_a.splitlines()) == 1 + 101  # a compact line for every column
    assert "shipping_mar" in prof.detailed_columns and "Customer Segment" in prof.detailed_columns
    assert "customer_id" in prof.detailed_columns  # key column comes next
    assert 5 <= len(prof.detailed_columns) <= 40
    assert prof.text == "\n".join([prof.text.splitlines()[0], prof.summary_a, prof.summary_b])
    compact = next(line for line in prof.summary_a.splitlines() if line.startswith("revenue_q1:"))
    assert compact.startswith("revenue_q1: float u=") and "mean=" in compact
    assert count_tokens(compact) <= 16


def test_relevant_columns_come_first_and_max_detailed_caps() -> None:
    ds = load_datasets({"wide": wide_frame()})["wide"]
    prof = profile_dataset(ds, relevant_columns=["tax_may", "rating q1"], max_detailed=3)
    assert set(prof.detailed_columns) >= {"tax_may", "rating_q1"}
    assert len(prof.detailed_columns) == 3


def test_question_word_overlap_prefers_rare_words() -> None:
    ds = load_datasets({"wide": wide_frame()})["wide"]
    prof = profile_dataset(ds, "how did refunds change over time?", max_detailed=12)
    refunds = [c for c in ds.frame.columns if c.startswith("refunds_")]
    assert set(refunds) <= set(prof.detailed_columns)


def test_large_table_uses_a_sample_and_says_so() -> None:
    rows = 120_000
    frame = pd.DataFrame({"x": np.arange(rows), "label": np.where(np.arange(rows) % 2, "a", "b")})
    prof = profile_dataset(load_datasets({"big": frame})["big"])
    assert "sample" in prof.text.splitlines()[0]
    assert '"a" 60000' in prof.text  # low cardinality: exact counts, not sampled


def test_summarize_datasets_joins_every_profile(tmp_path: Path) -> None:
    path = tmp_path / "orders.csv"
    path.write_text("id,total\n1,9.5\n2,3\n")
    datasets = load_datasets([path, small_frame()])
    text = summarize_datasets(datasets, "total per region")
    assert "datasets['orders'] = orders.csv: 2 rows x 2 cols" in text
    assert "datasets['df'] = df: 400 rows x 10 cols" in text


def test_token_counter_hook() -> None:
    ds = frame_with({"a": [1, 2, 3]})
    try:
        set_token_counter(lambda text: 7)
        assert profile_dataset(ds).tokens == 7
    finally:
        set_token_counter(None)
    assert profile_dataset(ds).tokens == estimate_tokens(profile_dataset(ds).text) > 7


def test_token_estimate_is_sane() -> None:
    prose = (
        "The quick brown fox jumps over the lazy dog. Profiling a table should take a few "
        "seconds on two cores, which is fine for an interactive tool."
    )
    assert 0.8 * len(prose) / 4.5 <= count_tokens(prose) <= 1.3 * len(prose) / 4
    assert count_tokens("1234567") == 7  # Qwen: one token per digit
    assert count_tokens("") == 0
    assert count_tokens("datasets['sales_2023']") >= 6
    assert count_tokens("東京") == 2


def test_number_formatting_is_short() -> None:
    assert [num(x) for x in (999.5, 1234567, 12.3456, 0.000012345, 3.0)] == ["1000", "1.23e6", "12.3", "1.23e-5", "3"]
    assert [approx(x) for x in (4933, 12345, 49.94, 1.5e6)] == ["4900", "12k", "50", "1.5M"]


def test_a_lone_dataset_is_announced_as_df(tmp_path: Path) -> None:
    path = tmp_path / "orders.csv"
    path.write_text("id,total\n1,9.5\n2,3\n")
    text = summarize_datasets(load_datasets([path]))
    assert text.startswith("df = datasets['orders'] = orders.csv: 2 rows x 2 cols")


def test_true_false_with_gaps_is_shown_as_booleans_not_text(tmp_path: Path) -> None:
    """A CSV column of True/False with empty cells is read as Python bools among NaN (an object
    column): the profile says bool and shows the values unquoted, so the model compares with
    False, not with the text 'False' that no value equals."""
    path = tmp_path / "models.csv"
    path.write_text("model,open\n" + "".join(f"m{i},{'' if i % 5 == 0 else i % 2 == 0}\n" for i in range(40)))
    ds = load_datasets([path])["models"]
    assert ds.frame["open"].dtype == object and (ds.frame["open"] == False).sum() == 16  # noqa: E712
    text = profile_dataset(ds).text
    assert '"open" object bool miss=20%' in text
    assert "top: False 16, True 16" in text and '"False"' not in text
    from dsagent.data.rendering import compact_line as _compact_line
    from dsagent.data.stats import basic_stats
    assert _compact_line(basic_stats("open", ds.frame["open"], ds.frame["open"])) == "open: bool miss=20%"


def test_values_a_filter_copies_are_shown_as_the_frame_holds_them() -> None:
    """What the profile prints is what ``==`` and ``>=`` will meet: a float among the top values
    in full (3.258096, not 3.26), a minimum and a maximum told apart (not 108 and 108), whole
    numbers of an integer column in full (18640101, a date as YYYYMMDD, not 1.86e7), top text
    values long enough to be whole and told apart, a no-break space as ``\\xa0``."""
    rows = 60
    frame = pd.DataFrame({
        "lncoins": [3.258096] * 30 + [4.564348] * 20 + [0.0] * 10,
        "weight": np.linspace(107.8681079, 107.8681903, rows),
        "day": np.arange(18640101, 18640101 + rows),
        "levels": ["none;low;medium;high;xhigh"] * 40 + ["none;low;medium;high;xhigh;max"] * 20,
        "kind": ["Officer-involved shooting"] * 35 + ["Other"] * 25,
        "dates": ["April 19\xa0– 21"] * 30 + ["May 2\xa0– 3"] * 30,
    })
    text = profile_dataset(frame_with(frame.to_dict("list"))).text
    assert "top: 3.258096 30, 4.564348 20, 0 10" in text
    assert "min=107.8681 max=107.8682" in text
    assert "min=18640101 max=18640160" in text
    assert '"none;low;medium;high;xhigh" 40, "none;low;medium;high;xhigh;max" 20' in text
    assert '"Officer-involved shooting" 35' in text
    assert '"April 19\\xa0– 21" 30' in text
    urls = [f"https://cdn.jsdelivr.net/npm/vega-datasets@2/data/t{i}.csv" for i in range(30)]
    text = profile_dataset(frame_with({"url": urls})).text
    shown = text.split(" eg ")[1].split(", ")
    assert len(shown) >= 2 and len(set(shown)) == len(shown) and all("/data/t" in u for u in shown)  # whole, not four alike


def test_values_with_spaces_at_an_end_are_flagged() -> None:
    states = ["Kansas ", "Kentucky ", "Montana "] + [f"State{i}" for i in range(40)]
    text = profile_dataset(frame_with({"state": states, "n": list(range(43))})).text
    assert "spaces at an end" in text and '"Kansas "' in text


def test_two_long_names_that_begin_alike_are_told_apart() -> None:
    head = "Percentage of pupils in last year of compulsory schooling with "
    frame = {head + "no graded results": [1.0, 2.0], head + "5 or more Grades at levels 3-5": [3.0, 4.0]}
    lines = [line for line in profile_dataset(frame_with(frame)).text.splitlines() if "name cut" in line]
    assert len(lines) == 2 and "graded results" in lines[0] and "levels 3-5" in lines[1]
