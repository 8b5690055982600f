"""The held-out database batch answered in plain SQL, run with sqlite3: one query per question, no
pandas. The second, independent solution beside ``solve_independent.py`` (pandas); ``make_labels.py``
writes a label only where both agree.

    .venv/bin/python benchmarks/heldout_db/solve_sql.py [DB.sqlite]

``answers(db)`` maps a question id to ``[(name, value, places), ...]`` as the pandas solution does.
A "which … highest" query returns its two best rows so that a tie for first place is refused.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

REVENUE = "oi.quantity * p.unit_price * (1 - oi.discount)"
SOLD = "o.status IN ('completed', 'shipped')"

QUERIES: dict[int, tuple[str, list[tuple[str, int | None]]]] = {
    9201: ("SELECT 100.0 * SUM(status = 'cancelled') / COUNT(*) FROM orders", [("cancelled_share", 2)]),
    9202: ("SELECT COUNT(*) FROM orders WHERE order_date BETWEEN '2025-01-01' AND '2025-03-31'", [("orders", None)]),
    9203: ("SELECT category, AVG(unit_price) AS v FROM products GROUP BY category ORDER BY v DESC LIMIT 2",
           [("category", None)]),
    9204: (f"""SELECT SUM({REVENUE}) FROM order_items oi JOIN orders o ON o.order_id = oi.order_id
               JOIN products p ON p.product_id = oi.product_id WHERE o.status = 'completed'""", [("total_revenue", 2)]),
    9205: (f"""SELECT p.category, SUM({REVENUE}) AS v FROM order_items oi JOIN orders o ON o.order_id = oi.order_id
               JOIN products p ON p.product_id = oi.product_id WHERE {SOLD}
               GROUP BY p.category ORDER BY v DESC LIMIT 2""", [("category", None), ("revenue", 2)]),
    9206: ("""SELECT c.country, COUNT(*) AS v FROM orders o JOIN customers c ON c.customer_id = o.customer_id
              GROUP BY c.country ORDER BY v DESC LIMIT 2""", [("country", None)]),
    9207: (f"""WITH order_value AS (
                 SELECT o.order_id, o.customer_id, SUM({REVENUE}) AS value
                 FROM orders o JOIN order_items oi ON oi.order_id = o.order_id JOIN products p ON p.product_id = oi.product_id
                 WHERE o.status = 'completed' GROUP BY o.order_id)
               SELECT c.segment, AVG(v.value) AS v FROM order_value v JOIN customers c ON c.customer_id = v.customer_id
               GROUP BY c.segment ORDER BY v DESC LIMIT 2""", [("segment", None), ("average_order_value", 2)]),
    9208: (f"""WITH units AS (
                 SELECT oi.product_id, SUM(oi.quantity) AS n FROM order_items oi JOIN orders o ON o.order_id = oi.order_id
                 WHERE {SOLD} GROUP BY oi.product_id),
               ranked AS (SELECT n, ROW_NUMBER() OVER (ORDER BY n DESC) AS r FROM units)
               SELECT 100.0 * (SELECT SUM(n) FROM ranked WHERE r <= 3) / (SELECT SUM(n) FROM units),
                      (SELECT n FROM ranked WHERE r = 3) <> (SELECT n FROM ranked WHERE r = 4)""", [("top3_share", 2)]),
    9209: (f"""SELECT COUNT(DISTINCT o.customer_id) FROM order_items oi JOIN orders o ON o.order_id = oi.order_id
               JOIN products p ON p.product_id = oi.product_id WHERE {SOLD} AND p.category = 'Garden'""", [("customers", None)]),
    9210: (f"""WITH monthly AS (
                 SELECT substr(o.order_date, 1, 7) AS month, SUM({REVENUE}) AS revenue
                 FROM order_items oi JOIN orders o ON o.order_id = oi.order_id JOIN products p ON p.product_id = oi.product_id
                 WHERE {SOLD} GROUP BY month)
               SELECT 100.0 * (l.revenue - f.revenue) / f.revenue FROM monthly f, monthly l
               WHERE f.month = '2024-01' AND l.month = '2025-06'
                 AND f.month = (SELECT MIN(month) FROM monthly) AND l.month = (SELECT MAX(month) FROM monthly)""",
           [("revenue_change", 2)]),
    9211: ("""SELECT c.city, AVG(oi.discount) AS v FROM order_items oi JOIN orders o ON o.order_id = oi.order_id
              JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.city ORDER BY v DESC LIMIT 2""", [("city", None)]),
    9212: ("""SELECT COUNT(*) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
              WHERE o.order_id IS NULL""", [("customers", None)]),
    9213: ("""SELECT s.name, AVG(o.status = 'cancelled') AS v FROM orders o JOIN stores s ON s.store_id = o.store_id
              GROUP BY s.store_id ORDER BY v DESC LIMIT 2""", [("store", None)]),
    9214: ("""SELECT AVG(julianday(f.first_order) - julianday(c.signup_date)) FROM customers c
              JOIN (SELECT customer_id, MIN(order_date) AS first_order FROM orders GROUP BY customer_id) f
                ON f.customer_id = c.customer_id""", [("mean_days", 1)]),
}


def answers(db: Path) -> dict[int, list[tuple[str, object, int | None]]]:
    out = {}
    with sqlite3.connect(db) as con:
        for qid, (sql, names) in QUERIES.items():
            rows = con.execute(sql).fetchall()
            assert rows, f"{qid}: no row"
            if len(rows) == 2:  # a "which … highest" query: its best row, and no tie with the second
                assert rows[0][-1] != rows[1][-1], f"{qid}: tie for first {rows}"
                values = rows[0][: len(names)]
            else:
                values = rows[0][: len(names)]
                assert all(rows[0][len(names):]), f"{qid}: a check in the query failed {rows[0]}"
            out[qid] = [(name, value, places) for (name, places), value in zip(names, values)]
    return out


def main() -> None:
    from make_labels import show

    show(answers(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "tables" / "shop.sqlite"))


if __name__ == "__main__":
    main()
