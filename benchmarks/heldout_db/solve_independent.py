"""The held-out database batch answered with pandas: each table is read whole with sqlite3 +
``pandas.read_sql_query`` (``SELECT *``, nothing else done in SQL) and merged, filtered and grouped
in pandas. ``solve_sql.py`` answers the same questions in plain SQL; ``make_labels.py`` writes a
label only where both agree.

    .venv/bin/python benchmarks/heldout_db/solve_independent.py [DB.sqlite]

``answers(db)`` maps a question id to ``[(name, value, places), ...]``: ``places`` is the decimals
the question asks for, or None for a name or a count.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
SOLD = ("completed", "shipped")


def tables(db: Path) -> dict[str, pd.DataFrame]:
    with sqlite3.connect(db) as con:
        return {t: pd.read_sql_query(f"SELECT * FROM {t}", con)
                for t in ("stores", "customers", "products", "orders", "order_items")}


def _lines(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every order line with its order, its customer and its product, and its revenue."""
    lines = (t["order_items"].merge(t["orders"], on="order_id", validate="many_to_one")
             .merge(t["products"].rename(columns={"name": "product"}), on="product_id", validate="many_to_one")
             .merge(t["customers"].rename(columns={"name": "customer"}), on="customer_id", validate="many_to_one"))
    lines["revenue"] = lines["quantity"] * lines["unit_price"] * (1 - lines["discount"])
    return lines


def _top(series: pd.Series) -> object:
    """The label of the largest value, refusing a tie for first place."""
    ordered = series.sort_values(ascending=False)
    assert ordered.iloc[0] != ordered.iloc[1], f"tie for first: {ordered.head(2).to_dict()}"
    return ordered.index[0]


def answers(db: Path) -> dict[int, list[tuple[str, object, int | None]]]:
    t = tables(db)
    orders, lines = t["orders"], _lines(t)
    sold = lines[lines["status"].isin(SOLD)]
    out: dict[int, list[tuple[str, object, int | None]]] = {}

    out[9201] = [("cancelled_share", 100 * (orders["status"] == "cancelled").mean(), 2)]
    dates = pd.to_datetime(orders["order_date"])
    out[9202] = [("orders", int(dates.between("2025-01-01", "2025-03-31").sum()), None)]
    out[9203] = [("category", _top(t["products"].groupby("category")["unit_price"].mean()), None)]
    out[9204] = [("total_revenue", lines.loc[lines["status"] == "completed", "revenue"].sum(), 2)]

    by_category = sold.groupby("category")["revenue"].sum()
    best = _top(by_category)
    out[9205] = [("category", best, None), ("revenue", by_category[best], 2)]

    with_country = orders.merge(t["customers"], on="customer_id")
    out[9206] = [("country", _top(with_country.groupby("country")["order_id"].count()), None)]

    completed = lines[lines["status"] == "completed"]
    order_values = completed.groupby(["order_id", "segment"], as_index=False)["revenue"].sum()
    by_segment = order_values.groupby("segment")["revenue"].mean()
    best = _top(by_segment)
    out[9207] = [("segment", best, None), ("average_order_value", by_segment[best], 2)]

    units = sold.groupby("product_id")["quantity"].sum().sort_values(ascending=False)
    assert units.iloc[2] != units.iloc[3], "third and fourth products tie"
    out[9208] = [("top3_share", 100 * units.iloc[:3].sum() / units.sum(), 2)]

    out[9209] = [("customers", int(sold.loc[sold["category"] == "Garden", "customer_id"].nunique()), None)]

    month = pd.to_datetime(sold["order_date"]).dt.to_period("M")
    monthly = sold.groupby(month)["revenue"].sum()
    first, last = monthly[pd.Period("2024-01", "M")], monthly[pd.Period("2025-06", "M")]
    assert monthly.index.min() == pd.Period("2024-01", "M") and monthly.index.max() == pd.Period("2025-06", "M")
    out[9210] = [("revenue_change", 100 * (last - first) / first, 2)]

    out[9211] = [("city", _top(lines.groupby("city")["discount"].mean()), None)]
    out[9212] = [("customers", int((~t["customers"]["customer_id"].isin(orders["customer_id"])).sum()), None)]

    with_store = orders.merge(t["stores"], on="store_id")
    rate = (with_store["status"] == "cancelled").groupby(with_store["name"]).mean()
    out[9213] = [("store", _top(rate), None)]

    first_order = orders.assign(day=dates).groupby("customer_id")["day"].min().rename("first_order").reset_index()
    ordered = t["customers"].merge(first_order, on="customer_id")
    waited = (ordered["first_order"] - pd.to_datetime(ordered["signup_date"])).dt.days
    out[9214] = [("mean_days", waited.mean(), 1)]
    return out


def main() -> None:
    from make_labels import show

    show(answers(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "tables" / "shop.sqlite"))


if __name__ == "__main__":
    main()
