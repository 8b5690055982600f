from __future__ import annotations

import sys
from pathlib import Path

import pytest


@pytest.fixture
def orders_csv(tmp_path: Path) -> Path:
    """A 2,000-row CSV of orders with known aggregates (written by DuckDB, never read by pandas)."""
    import duckdb

    path = tmp_path / "orders.csv"
    duckdb.connect().execute(f"""
        copy (select i as order_id, ['North', 'South', 'East', 'West'][1 + i % 4] as region,
                     (i % 7) + 1 as quantity, round(i * 0.5, 2) as amount
              from range(2000) t(i)) to '{path}' (header)""")
    return path


@pytest.fixture(autouse=True)
def _linux_only() -> None:
    if sys.platform != "linux":
        pytest.skip("the sandbox tests exercise Linux confinement")
