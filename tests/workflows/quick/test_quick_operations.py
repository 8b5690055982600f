"""quick's code step composes a question's first code from an operation the model chooses
(setting ``operations``), with the scripted model, a real sandbox and a real run log."""

from __future__ import annotations

import pandas as pd

from dsagent.session import Session
from dsagent.store import RunLog
from dsagent.config import load_settings

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}


def steps(run_id: str) -> list[dict]:
    return RunLog(load_settings().db_url).steps(run_id)


def ask(spec: str, files, question: str, **settings):
    with Session(files, model=spec, **settings) as session:
        return session.ask(question, workflow="quick")


def test_the_first_code_is_the_chosen_operation(script_file, sales_csv, monkeypatch):
    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    spec = script_file([PLAN, {"operation": "extreme_group"},
                        {"group_column": "region", "value_column": "units", "agg": "mean", "direction": "lowest"},
                        "The lowest is the answer."])
    result = ask(spec, [sales_csv], "Which region sells the fewest units on average?")
    frame = pd.read_csv(sales_csv)
    lowest = frame.groupby("region")["units"].mean().idxmin()
    assert result.code.startswith("# operation: extreme_group") and "idxmin" in result.code
    assert lowest in result.result_str
    code = [s for s in steps(result.run_id) if s["node"] == "code"][0]
    assert "operation extreme_group" in code["detail"]


def test_a_failing_choice_falls_back_to_free_code(script_file, sales_csv, monkeypatch):
    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    spec = script_file([PLAN, {"operation": "count_rows"},
                        {"filters": [{"column": "region", "op": "==", "value": "Atlantis"}]},
                        "result = len(df)", "There are that many rows."])
    result = ask(spec, [sales_csv], "How many orders are there?")
    assert result.code.strip() == "result = len(df)"
    code = [s for s in steps(result.run_id) if s["node"] == "code"][0]
    assert "no operation ('Atlantis' is not a value of 'region'" in code["detail"]


def test_off_by_default_the_model_writes_the_code(script_file, sales_csv):
    spec = script_file([PLAN, "result = df['units'].sum()", "The total."])
    result = ask(spec, [sales_csv], "What is the total number of units?")
    assert result.code.strip() == "result = df['units'].sum()"


def test_a_column_the_question_names_but_the_operation_ignores_means_free_code(script_file, sales_csv, monkeypatch):
    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    spec = script_file([PLAN, {"operation": "aggregate"}, {"value_column": "units", "agg": "mean"},
                        "result = (df['units'] * df['price']).mean()", "The mean revenue."])
    result = ask(spec, [sales_csv], "What is the mean of units times price?")
    assert result.code.strip() == "result = (df['units'] * df['price']).mean()"
    code = [s for s in steps(result.run_id) if s["node"] == "code"][0]
    assert "aggregate does not use price" in code["detail"]


def test_several_named_values_are_not_one_operation(script_file, sales_csv, monkeypatch):
    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    spec = script_file([PLAN, "result = {'low': df['units'].min(), 'high': df['units'].max()}", "Low and high."])
    result = ask(spec, [sales_csv], "Give the answer as a dict with the keys low, high: the fewest and most units.")
    assert result.code.strip().startswith("result = {'low'")


def test_over_a_database_the_chosen_operation_is_one_query_across_the_joined_tables(script_file, tmp_path, monkeypatch):
    """quick over a SQLite file with four tables: the model names columns as table.column, code
    writes the joins; the query runs through the sandbox's sql() on the read-only connection."""
    from tests.ops.test_database_operations import joined, make_db

    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    spec = script_file([PLAN, {"operation": "group_aggregate"},
                        {"group_column": "products.category", "value_column": "order_items.quantity", "agg": "sum"},
                        "Books sold the most units."])
    result = ask(spec, [str(make_db(tmp_path / "shop.sqlite"))], "How many units were sold per product category?")
    assert result.code.startswith("# operation: group_aggregate") and 'sql("""' in result.code
    assert "JOIN" in result.code and '"order_items"' in result.code
    for category, units in joined().groupby("category")["quantity"].sum().items():
        assert category in result.result_str and str(units) in result.result_str
    code = [s for s in steps(result.run_id) if s["node"] == "code"][0]
    assert "operation group_aggregate" in code["detail"]


def test_a_database_schema_that_cannot_be_read_means_free_code(script_file, tmp_path, monkeypatch):
    """A category's values query failing is no crash: the model writes the code. (A catalog that
    will not give its keys was already met when the tables were described: no keys, no crash.)"""
    from dsagent.sources.engines import SqlAlchemySource
    from dsagent.workflows.common import compose
    from tests.ops.test_database_operations import make_db

    def refused(*_):
        raise RuntimeError("catalog unavailable")

    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    monkeypatch.setattr(SqlAlchemySource, "constraints", refused)
    monkeypatch.setattr(compose, "_values_reader", lambda engine: refused)
    spec = script_file([PLAN, "result = int(sql('select count(*) as n from orders').iloc[0, 0])", "There are 5 orders."])
    result = ask(spec, [str(make_db(tmp_path / "shop.sqlite"))], "How many orders are there?")
    assert result.result_str.strip() == "5"
    code = [s for s in steps(result.run_id) if s["node"] == "code"][0]
    assert "no operation (the database's schema could not be read: RuntimeError)" in code["detail"]


def test_a_sessions_later_questions_reuse_the_database_schema(script_file, tmp_path, monkeypatch):
    """The schema (one values query per category column) is built once per connection, not per question."""
    from dsagent.workflows.common import compose
    from tests.ops.test_database_operations import make_db

    reads = []
    reader = compose._values_reader

    def counting(engine):
        values = reader(engine)
        return lambda table, column: reads.append((table, column)) or values(table, column)

    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    monkeypatch.setattr(compose, "_values_reader", counting)
    choice = [{"operation": "count_rows"}, {"rows_of": "orders", "filters": []}]
    spec = script_file([PLAN, *choice, "There are 5 orders.", PLAN, *choice, "Still 5."])
    with Session([str(make_db(tmp_path / "shop.sqlite"))], model=spec) as session:
        first = session.ask("How many orders are there?", workflow="quick")
        once = len(reads)
        second = session.ask("How many orders are there now?", workflow="quick")
    assert first.result_str.strip() == second.result_str.strip() == "5"
    assert once > 0 and len(reads) == once
