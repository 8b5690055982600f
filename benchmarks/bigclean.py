"""Benchmark: `dsagent clean` on a dirty CSV larger than `big_file_mb`, with the sandbox at its 1 GB limit.

Generates ``orders_dirty.csv`` (default ~1.6 GiB) from benchmarks/bigdata.py's ``orders.parquet``
(generated first when it is missing): dates in two formats, region spellings that differ in case
and spaces, category typos, quantities with ``n/a`` and rare ``-1``, amounts written as ``$1,234.50``,
a long free-text note, and 0.1 % of the rows repeated further down. Then runs the clean workflow on
it unattended with the embedded model and prints the seconds, the rows in and out, the worker's peak
resident memory, and the checks of the cleaned Parquet by DuckDB (no dirty value left, no duplicate,
every genuine order kept once).

    nice -n 10 .venv/bin/python benchmarks/bigclean.py            # generate (once) and clean
    .venv/bin/python benchmarks/bigclean.py --generate-only

The data is kept under ~/.cache/dsagent-bigdata (never in the repository).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bigdata import DEFAULT_DIR, generate  # noqa: E402

DUPLICATE_EVERY = 1000
"""Every this many orders, one is repeated later in the file (an exact duplicate row)."""


def _dirty_sql(parquet: Path, rows: int) -> str:
    base = f"""
        select order_id, order_date, region, category, customer_id, quantity, amount, discount, hash(order_id, 7) % 1000 as h
        from read_parquet('{parquet}') where order_id <= {rows}"""
    return f"""
        with o as ({base}), d as (
          select order_id,
                 case when order_id % 3 = 0 then strftime(order_date, '%d/%m/%Y') else strftime(order_date, '%Y-%m-%d') end as order_date,
                 case when h % 50 = 0 then lower(region) when h % 50 = 1 then ' ' || region || ' ' else region end as region,
                 case when h % 200 = 3 then 'X' || substring(category, 2) else category end as category,
                 customer_id,
                 case when h % 40 = 5 then 'n/a' when h % 500 = 6 then '-1' else cast(quantity as varchar) end as quantity,
                 case when h % 4 = 0 then '$' || format('{{:,.2f}}', amount) else cast(amount as varchar) end as amount,
                 discount,
                 'customer ' || customer_id || ' ordered ' || quantity || ' item(s) of ' || category || ' in the ' || region
                   || ' region; reference ' || md5(cast(order_id as varchar)) || md5(cast(customer_id as varchar))
                   || md5(cast(order_id * 7 as varchar)) as note,
                 order_id as sort_key
          from o)
        select * exclude (sort_key) from (
          select *, 0 as copy from d
          union all
          select *, 1 as copy from d where order_id % {DUPLICATE_EVERY} = 7)
        order by case when copy = 1 then sort_key + 5000 else sort_key end, copy"""


def generate_dirty(folder: Path, rows: int) -> Path:
    """``orders_dirty.csv`` under ``folder`` (kept if there), written to a temporary name first."""
    import duckdb

    path = folder / "orders_dirty.csv"
    if path.exists():
        return path
    _, parquet = generate(folder, 110_000_000)
    print(f"generating {path} ({rows:,} orders + {rows // DUPLICATE_EVERY:,} repeated) …", flush=True)
    started = time.perf_counter()
    con = duckdb.connect(config={"memory_limit": "2GB", "temp_directory": str(folder / ".tmp")})
    tmp = path.with_suffix(".csv.part")
    con.execute(f"copy ({_dirty_sql(parquet, rows).replace('exclude (sort_key)', 'exclude (sort_key, copy)')}) to '{tmp}' (format csv, header)")
    tmp.rename(path)
    print(f"  {path.stat().st_size / 1024**3:.2f} GiB in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def check(parquet: Path, rows: int) -> dict[str, Any]:
    """The cleaned Parquet checked by DuckDB (no pandas): rows, duplicates, dirty values left."""
    import duckdb

    con = duckdb.connect(config={"memory_limit": "1GB"})
    t = f"read_parquet('{parquet}')"
    out = {
        "rows": con.execute(f"select count(*) from {t}").fetchone()[0],
        "distinct_order_ids": con.execute(f"select count(distinct order_id) from {t}").fetchone()[0],
        "columns": [r[0] + ":" + r[1] for r in con.execute(f"describe select * from {t}").fetchall()],
        "region_values": sorted(r[0] for r in con.execute(f"select distinct region from {t}").fetchall() if r[0] is not None),
        "category_values": con.execute(f"select count(distinct category) from {t}").fetchone()[0],
        "quantity_missing_or_negative": con.execute(f"select count(*) from {t} where quantity is null or quantity < 0").fetchone()[0],
        "amount_missing": con.execute(f"select count(*) from {t} where amount is null").fetchone()[0],
    }
    out["right"] = (out["rows"] == rows and out["distinct_order_ids"] == rows and len(out["region_values"]) == 8
                    and out["category_values"] == 12 and out["quantity_missing_or_negative"] == 0 and out["amount_missing"] == 0)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"where the data is kept (default {DEFAULT_DIR})")
    parser.add_argument("--rows", type=int, default=7_200_000, help="orders to write (default 7.2M: a 1.54 GiB CSV)")
    parser.add_argument("--model", default=None, help="model spec (default: the setting, the local model)")
    parser.add_argument("--generate-only", action="store_true", help="generate the dirty CSV, clean nothing")
    args = parser.parse_args(argv)
    folder = args.dir.expanduser().resolve()
    path = generate_dirty(folder, args.rows)
    if args.generate_only:
        return 0
    from dsagent import Session
    from dsagent.workflows.clean import api

    peaks: list[float] = []
    original = Session.__init__

    def recording_init(self: Any, *a: Any, **k: Any) -> None:
        original(self, *a, **k)
        run = self.sandbox.run

        def recording_run(code: str, *ra: Any, **rk: Any) -> Any:
            result = run(code, *ra, **rk)
            peaks.append(result.peak_mb)
            return result

        self.sandbox.run = recording_run

    Session.__init__ = recording_init  # type: ignore[method-assign]
    started = time.perf_counter()
    out = api.clean([str(path)], "", yes=True, model=args.model,
                    on_progress=lambda e: print(f"  {e.message}", flush=True) if e.kind == "info" and e.message else None)
    seconds = time.perf_counter() - started
    print(f"status {out.status} in {seconds:.0f} s; worker peak resident memory {max(peaks, default=0):.0f} MB over {len(peaks)} cells")
    if out.error:
        print(out.error)
    if out.status != "done":
        return 1
    result = check(Path(out.cleaned_files[1]), args.rows)
    print(result)
    return 0 if result["right"] else 1


if __name__ == "__main__":
    sys.exit(main())
