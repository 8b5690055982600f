from __future__ import annotations

import json
from pathlib import Path

import pytest

DECISION = {"reasoning": "Fix the types and spellings found; keep every record as asked.", "drop_sparse_columns": True, "impute_missing": True,
            "fix_types": True, "drop_duplicates": True, "drop_missing_rows": True, "drop_outliers": True, "skip_findings": [], "extra_steps": []}


def decision(**changes) -> str:
    return json.dumps({**DECISION, **changes})


@pytest.fixture
def dirty_csv(tmp_path: Path) -> Path:
    rows = ["id,shop,city,price,units"]
    cities = ["Lisbon", "Porto", "Braga"]
    for i in range(60):
        price = f"{3.5 + i % 7:.2f}"
        rows.append(f"{i + 1},S{i % 12:02d},{cities[i % 3]},{price},{1 + i % 5}")
    rows[5] = "5,S04,  porto ,\"$1,004.50\",2"
    rows[9] = "9,S08,Lisbin,n.a.,-1"
    rows.append(rows[12])
    path = tmp_path / "shops.csv"
    path.write_text("\n".join(rows) + "\n")
    return path
