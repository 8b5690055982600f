"""Each operation on a small hand-made table whose answers are known by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from dsagent.ops import Choice, NotCompilable, args_model, available, choice_of, compile_choice, problems, run_choice, table_schema


@pytest.fixture()
def shop() -> pd.DataFrame:
    # 12 orders: three shops, two channels, over four months of one year.
    return pd.DataFrame({
        "order_id": range(1, 13),
        "shop": ["North", "North", "South", "South", "East", "East", "North", "South", "East", "North", "South", "East"],
        "channel": ["web", "store", "web", "web", "store", "web", "web", "store", "store", "web", "web", "store"],
        "month": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
        "day": pd.date_range("2024-01-05", periods=12, freq="10D").strftime("%Y-%m-%d"),
        "amount": [10.0, 20.0, 30.0, 40.0, 5.0, 15.0, 25.0, 35.0, 45.0, 12.0, 8.0, 100.0],
        "items": [1, 2, 3, 4, 1, 2, 3, 4, 5, 1, 1, 9],
    })


def ask(frame: pd.DataFrame, **kw) -> object:
    return run_choice(Choice(**kw), frame)


def test_schema_kinds(shop):
    s = table_schema(shop)
    kinds = {c.name: c.kind for c in s.columns}
    # twelve distinct integers are too few to call an identifier: a number
    assert kinds == {"order_id": "number", "shop": "category", "channel": "category", "month": "category",
                     "day": "date", "amount": "number", "items": "number"}
    assert set(s.column("shop").values) == {"North", "South", "East"}
    assert s.column("month").numeric


def test_aggregate_with_filter(shop):
    assert ask(shop, op="aggregate", column="amount", agg="mean",
               filters=[{"column": "shop", "op": "==", "value": "north"}]) == pytest.approx((10 + 20 + 25 + 12) / 4)


def test_group_aggregate_sorted_and_top(shop):
    result = ask(shop, op="group_aggregate", by="shop", column="amount", agg="sum", top=2)
    assert list(result.index) == ["East", "South"] and result.iloc[0] == 165


def test_extreme_group_is_by_the_aggregate_not_by_frequency(shop):
    # every shop has four orders; means: North 16.75, South 28.25, East 41.25
    result = ask(shop, op="extreme_group", by="shop", column="amount", agg="mean", direction="lowest")
    assert result["shop"] == "North" and result["mean of amount"] == pytest.approx(16.75)


def test_extreme_row_names_the_label(shop):
    result = ask(shop, op="extreme_row", column="amount", by="order_id", direction="highest")
    assert result == {"order_id": 12, "amount": 100.0}


def test_count_and_share(shop):
    assert ask(shop, op="count_rows", filters=[{"column": "channel", "op": "==", "value": "web"}]) == 7
    share = ask(shop, op="share", condition=[{"column": "amount", "op": ">", "value": 20}])
    assert share == pytest.approx(100 * 6 / 12)
    within = ask(shop, op="share", filters=[{"column": "shop", "op": "==", "value": "East"}],
                 condition=[{"column": "channel", "op": "==", "value": "store"}])
    assert within == pytest.approx(75.0)


def test_distinct_correlation_quantile(shop):
    assert ask(shop, op="distinct_count", column="channel") == 2
    assert ask(shop, op="correlation", column="amount", other="items") == pytest.approx(shop.amount.corr(shop["items"]))
    assert ask(shop, op="quantile", column="amount", q=50) == pytest.approx(shop.amount.median())


def test_change_between_first_and_last_period(shop):
    result = ask(shop, op="change", column="amount", by="month")
    # several orders a month: the month's total (sum) is what changes
    assert result["first"] == 60 and result["last"] == 120 and result["percent change"] == pytest.approx(100.0)


def test_outliers_by_iqr(shop):
    assert ask(shop, op="outliers", column="amount") == 1


def test_compare_groups_and_regression(shop):
    result = ask(shop, op="compare_groups", column="amount", by="channel", groups=["web", "STORE"])
    assert 0 < result["p value"] < 1 and not math.isnan(result["t statistic"])
    fit = ask(shop, op="regression", column="amount", other="items")
    assert 0 < fit["r squared"] <= 1 and fit["slope"] > 0


def test_resample_by_month(shop):
    result = ask(shop, op="resample", column="amount", by="day", freq="month", agg="sum")
    assert result.sum() == pytest.approx(shop.amount.sum()) and len(result) == 4


def test_date_filter(shop):
    assert ask(shop, op="count_rows", filters=[{"column": "day", "op": ">=", "value": "2024-03-01"}]) == 6


def test_problems_say_what_to_fix(shop):
    s = table_schema(shop)
    assert problems(Choice(op="aggregate", column="shop", agg="mean"), s) == ["column 'shop' is not numeric: mean needs numbers"]
    assert "'West' is not a value of 'shop'" in problems(Choice(op="count_rows", filters=[{"column": "shop", "value": "West"}]), s)[0]
    assert problems(Choice(op="correlation", column="amount"), s) == ["correlation needs other"]
    with pytest.raises(NotCompilable):
        compile_choice(Choice(op="aggregate", column="nope"), s)


def test_the_typed_fields_admit_only_columns_of_the_right_kind(shop):
    model = args_model("extreme_group", table_schema(shop))
    args = model.model_validate({"group_column": "shop", "value_column": "amount", "direction": "lowest"})
    assert choice_of("extreme_group", args).by == "shop"
    with pytest.raises(Exception):
        model.model_validate({"group_column": "shop", "value_column": "price", "direction": "lowest"})
    with pytest.raises(Exception):  # a text column is no value column
        model.model_validate({"group_column": "shop", "value_column": "channel", "direction": "lowest"})
    pair = choice_of("compare_groups", args_model("compare_groups", table_schema(shop)).model_validate(
        {"value_column": "amount", "group_column": "channel", "group_a": "web", "group_b": "store"}))
    assert pair.groups == ["web", "store"]


def test_only_operations_the_table_can_answer_are_offered(shop):
    assert "resample" in available(table_schema(shop))
    assert "resample" not in available(table_schema(shop.drop(columns="day")))


def test_the_code_is_plain_pandas_and_leaves_the_frame_alone(shop):
    before = shop.copy()
    code = compile_choice(Choice(op="group_aggregate", by="shop", column="amount"), table_schema(shop))
    assert "dsagent" not in code and code.strip().splitlines()[-1].startswith("result =")
    ask(shop, op="group_aggregate", by="shop", column="amount")
    pd.testing.assert_frame_equal(shop, before)


def test_choose_compiles_a_valid_choice_and_falls_back_otherwise(shop):
    from dsagent.ops.choose import choose

    s = table_schema(shop)
    asked = []

    def script(*replies):
        def ask(text, model):
            asked.append(text)
            return model.model_validate(replies[len(asked) - 1])
        return ask

    chosen = choose(script({"operation": "extreme_group"},
                           {"group_column": "shop", "value_column": "amount", "agg": "mean", "direction": "lowest"}),
                    "Which shop has the lowest average order amount?", s)
    assert "groupby('shop')['amount'].mean()" in chosen.code and "idxmin" in chosen.code
    assert "shop (category: North" in asked[1] and "- resample:" in asked[0]

    asked.clear()
    escape = choose(script({"operation": "code"}), "Draw a chart", s)
    assert escape.code == "" and escape.choice is None and len(asked) == 1
    asked.clear()
    wrong = choose(script({"operation": "count_rows"}, {"filters": [{"column": "shop", "op": "==", "value": "West"}]}), "How many West?", s)
    assert wrong.code == "" and "not a value of 'shop'" in wrong.why_not


def test_change_over_periods_of_a_date_column(shop):
    result = ask(shop, op="change", column="amount", by="day", freq="month", agg="sum")
    monthly = shop.set_index(pd.to_datetime(shop.day))["amount"].resample("MS").sum()
    assert result["first"] == monthly.iloc[0] and result["last"] == monthly.iloc[-1]


def test_a_period_named_in_words_is_read_by_code(shop):
    from dsagent.ops.choose import choose

    replies = iter([{"operation": "change"}, {"value_column": "amount", "period_column": "day", "agg": "sum"}])
    chosen = choose(lambda t, m: m.model_validate(next(replies)), "How did the monthly total amount change?", table_schema(shop))
    assert chosen.choice.freq == "month" and "resample('MS')" in chosen.code


def test_a_value_multiplied_by_a_second_column_row_by_row(shop):
    revenue = shop["amount"] * shop["items"]
    assert ask(shop, op="aggregate", column="amount", times="items", agg="sum") == pytest.approx(revenue.sum())
    top = ask(shop, op="extreme_group", by="shop", column="amount", times="items", agg="sum", direction="highest")
    assert top["shop"] == revenue.groupby(shop["shop"]).sum().idxmax()
    per_channel = ask(shop, op="group_aggregate", by="channel", column="amount", times="items", agg="mean")
    assert per_channel.to_dict() == pytest.approx(revenue.groupby(shop["channel"]).mean().to_dict())


def test_a_product_needs_numbers_and_an_aggregate_of_values(shop):
    s = table_schema(shop)
    assert "multiplied_by 'channel' is not a numeric column" in problems(Choice(op="aggregate", column="amount", times="channel", agg="sum"), s)
    assert any("multiplied_by needs" in p for p in problems(Choice(op="aggregate", column="amount", times="items", agg="count"), s))


def test_a_year_or_a_month_filters_the_whole_period(shop):
    days = pd.to_datetime(shop.day)
    count = lambda op, value: ask(shop, op="count_rows", filters=[{"column": "day", "op": op, "value": value}])  # noqa: E731
    assert count("==", "2024") == 12 and count("==", 2024.0) == 12 and count("==", "2023") == 0
    assert count("==", "2024-02") == int((days.dt.month == 2).sum())
    assert count(">", "2024-02") == int((days.dt.month > 2).sum())
    assert count("<=", "2024-02") == int((days.dt.month <= 2).sum())
    assert count("!=", "2024-02") == int((days.dt.month != 2).sum())
    assert count(">=", "2024-03-01") == 6  # a full date compares as written
    assert ask(shop, op="aggregate", column="amount", agg="sum",
               filters=[{"column": "day", "op": "==", "value": "2024-03"}]) == shop.amount[days.dt.month == 3].sum()
