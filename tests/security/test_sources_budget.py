"""What ``sql()`` brings back from a database source is bounded in dsagent's own process
(issue 38, finding 9): the broker fetches in batches and stops at a byte budget (setting
``sql_max_mb``), so a ``select *`` of a wide table cannot make the parent hold the whole result."""

from __future__ import annotations

import tracemalloc
from types import SimpleNamespace

import pytest

from dsagent.sources.broker import open_broker
from dsagent.sources.url import parse_source

CELL = 4_000  # characters of one cell
ROWS = 2_000
COLUMNS = 5  # 2,000 rows x 5 cells x 4,000 characters: 40 MB of text


@pytest.fixture
def wide_duckdb(tmp_path):
    import duckdb

    path = tmp_path / "wide.duckdb"
    con = duckdb.connect(str(path))
    cells = ", ".join(f"repeat(chr(CAST(65 + (i + {c}) % 26 AS INTEGER)), {CELL}) AS c{c}" for c in range(COLUMNS))
    con.execute(f"CREATE TABLE wide AS SELECT i, {cells} FROM range({ROWS}) t(i)")
    con.close()
    return path


def _settings(max_mb: int, max_rows: int = 10_000) -> SimpleNamespace:
    return SimpleNamespace(sql_max_rows=max_rows, sql_max_mb=max_mb, sandbox_wall_s=30.0)


def test_a_select_star_is_cut_at_the_byte_budget_without_holding_the_whole_result(wide_duckdb):
    broker = open_broker(parse_source(str(wide_duckdb)), _settings(max_mb=2))
    try:
        broker.answer({"type": "sql", "query": "select count(*) from wide"})  # imports and parsers, before measuring
        tracemalloc.start()
        reply = broker.answer({"type": "sql", "query": "select * from wide"})
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        broker.close()
    assert reply["error"] is None
    assert reply["truncated"] and reply["truncated_by"] == "bytes" and reply["max_mb"] == 2
    kept = len(reply["rows"])
    assert 0 < kept < ROWS
    assert kept * COLUMNS * CELL <= 2 * 2**20
    # the whole result is 40 MB of text (more as Python objects); the parent held a few budgets at most
    assert peak < 12 * 2**20, f"peak {peak / 2**20:.1f} MB"


def test_a_row_over_the_budget_is_refused_with_the_advice_to_aggregate(wide_duckdb):
    broker = open_broker(parse_source(str(wide_duckdb)), _settings(max_mb=1))
    try:
        reply = broker.answer({"type": "sql", "query": "select string_agg(c0, '') as everything from wide"})
    finally:
        broker.close()
    assert reply["error"] and "sql_max_mb" in reply["error"] and "aggregate" in reply["error"].lower()
    assert "rows" not in reply or not reply["rows"]


def test_the_row_cap_still_applies_and_small_results_are_whole(wide_duckdb):
    broker = open_broker(parse_source(str(wide_duckdb)), _settings(max_mb=64, max_rows=50))
    try:
        cut = broker.answer({"type": "sql", "query": "select i from wide"})
        whole = broker.answer({"type": "sql", "query": "select count(*) as n, max(length(c1)) as w from wide"})
    finally:
        broker.close()
    assert cut["truncated"] and cut["truncated_by"] == "rows" and len(cut["rows"]) == 50
    assert not whole["truncated"] and whole["rows"] == [[ROWS, CELL]]


def test_the_sandbox_says_the_result_was_cut_and_why(make_sandbox, wide_duckdb):
    broker = open_broker(parse_source(str(wide_duckdb)), _settings(max_mb=1))
    try:
        box = make_sandbox(broker=broker)
        run = box.run("r = sql('select * from wide')\nprint(len(r), 'rows')")
    finally:
        broker.close()
    assert run.success, run.error
    assert "sql_max_mb" in run.stdout and "aggregate" in run.stdout.lower()
