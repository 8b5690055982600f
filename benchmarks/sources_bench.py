"""Measure the database and Spark sources on this machine: profile time, an aggregate pushed down,
and a capped 10,000-row result carried into the sandbox. Generates its own data in a temp folder.

    .venv/bin/python benchmarks/sources_bench.py --rows 2000000 [--spark] [--postgres URL]

``--postgres URL``: a PostgreSQL database the benchmark may write (it replaces table ``sales`` there
with the generated rows, by COPY), then measures it through the read-only broker like the others.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

AGG = "select region, count(*) as n, sum(units * price) as revenue from sales group by region order by revenue desc"


def make_data(folder: Path, rows: int) -> dict[str, Path]:
    import duckdb

    con = duckdb.connect()
    con.execute(f"""create table sales as select ['North','South','East','West'][(i % 4) + 1] as region,
                   '2024-' || lpad(((i % 12) + 1)::varchar, 2, '0') as month, (i * 7) % 50 + 1 as units,
                   round(((i * 13) % 1900) / 100.0 + 1, 2)::double as price from range({rows}) t(i)""")
    paths = {"duckdb": folder / "shop.duckdb", "sqlite": folder / "shop.sqlite", "parquet": folder / "sales.parquet", "csv": folder / "sales.csv"}
    con.execute(f"copy sales to '{paths['parquet']}' (format parquet)")
    con.execute(f"copy sales to '{paths['csv']}' (header)")
    con.execute(f"attach '{paths['duckdb']}' as f; create table f.sales as select * from sales; detach f")
    lite = sqlite3.connect(paths["sqlite"])
    lite.execute("create table sales (region text, month text, units integer, price real)")
    lite.executemany("insert into sales values (?, ?, ?, ?)", con.execute("select * from sales").fetchall())
    lite.commit()
    lite.close()
    return paths


def load_postgres(url: str, csv: Path) -> None:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as con:
        con.execute("DROP TABLE IF EXISTS sales")
        con.execute("CREATE TABLE sales (region text, month text, units integer, price double precision)")
        with con.cursor().copy("COPY sales FROM STDIN WITH (FORMAT csv, HEADER true)") as copy, open(csv, "rb") as fh:
            while chunk := fh.read(1 << 20):
                copy.write(chunk)
        con.execute("ANALYZE sales")


def measure(name: str, spec, files=None) -> None:
    from dsagent.sources.attach import table_datasets
    from dsagent.sources.broker import open_broker

    settings = SimpleNamespace(sql_max_rows=10_000, sandbox_wall_s=600)
    t = time.perf_counter()
    broker = open_broker(spec, settings, files)
    opened = time.perf_counter() - t
    t = time.perf_counter()
    table_datasets(broker, "full")
    profiled = time.perf_counter() - t
    t = time.perf_counter()
    reply = broker.answer({"query": AGG})
    aggregated = time.perf_counter() - t
    assert reply["error"] is None, reply["error"]
    t = time.perf_counter()
    capped = broker.answer({"query": "select * from sales"})
    fetched = time.perf_counter() - t
    print(f"| {name} | {opened:.1f} | {profiled:.1f} | {aggregated:.2f} | {fetched:.2f} ({len(capped['rows']):,} rows, cut: {capped['truncated']}) |", flush=True)
    broker.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--spark", action="store_true")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL database the benchmark may write (table sales is replaced)")
    args = parser.parse_args()
    from dsagent.sources.url import SourceSpec, parse_source

    folder = Path(tempfile.mkdtemp(prefix="dsagent-bench-"))
    t = time.perf_counter()
    paths = make_data(folder, args.rows)
    print(f"{args.rows:,} rows generated in {time.perf_counter() - t:.0f} s; csv {paths['csv'].stat().st_size / 1e6:.0f} MB, "
          f"parquet {paths['parquet'].stat().st_size / 1e6:.0f} MB")
    print("| source | open s | profile s | aggregate s | `select *` capped s |\n|---|---|---|---|---|")
    measure("SQLite file", parse_source(paths["sqlite"]))
    measure("DuckDB file", parse_source(paths["duckdb"]))
    if args.postgres:
        load_postgres(args.postgres, paths["csv"])
        measure("PostgreSQL 15 (loopback)", parse_source(args.postgres))
    if args.spark:
        measure("Spark local[2], Parquet", SourceSpec("spark", "local[2]", "local[2]"), {"sales": paths["parquet"]})
        measure("Spark local[2], CSV", SourceSpec("spark", "local[2]", "local[2]"), {"sales": paths["csv"]})


if __name__ == "__main__":
    main()
