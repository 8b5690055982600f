"""Data bigger than the sandbox's memory: five questions about a >= 5 GB CSV (issue 22, section 1).

    python benchmarks/bigdata.py [--dir ~/.cache/dsagent-bigdata] [--rows 110000000] [--format csv|parquet]
                                 [--model local] [--workflow quick] [--generate-only]

1. Generates ``orders.csv`` (>= 5 GiB at the default row count) and ``orders.parquet`` with the
   same rows under ``--dir`` (default a cache folder outside the repository; never committed), with
   DuckDB, unless they are there already. The values are a deterministic hash of the row number.
2. Computes the five answers itself with DuckDB over the Parquet (``answers.json`` beside the data).
3. Asks the five questions through :class:`dsagent.Session` (the default workflow, the sandbox at
   its default memory limit) and prints per question: right or wrong, seconds, the worker's peak
   resident memory, then the totals.

The file is far above ``big_file_mb``, so dsagent does not load it into pandas: the sandbox scans
it with DuckDB (``sql()``) where it lies.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_DIR = Path.home() / ".cache" / "dsagent-bigdata"
MIN_CSV_BYTES = 5 * 1024**3
REGIONS = "CASE WHEN h % 100 < 22 THEN 'North' WHEN h % 100 < 40 THEN 'South' WHEN h % 100 < 55 THEN 'East' " \
          "WHEN h % 100 < 68 THEN 'West' WHEN h % 100 < 79 THEN 'Central' WHEN h % 100 < 88 THEN 'Northeast' " \
          "WHEN h % 100 < 95 THEN 'Southwest' ELSE 'Northwest' END"
CATEGORIES = ["Electronics", "Furniture", "Grocery", "Clothing", "Toys", "Books",
              "Garden", "Sports", "Beauty", "Automotive", "Music", "Office"]

QUESTIONS: list[dict[str, Any]] = [
    {"question": "How many orders are there in total?",
     "sql": "select count(*) from orders", "kind": "number"},
    {"question": "What is the total amount of all orders?",
     "sql": "select sum(amount) from orders", "kind": "number"},
    {"question": "What is the average amount of the orders in the West region?",
     "sql": "select avg(amount) from orders where region = 'West'", "kind": "number"},
    {"question": "Which category had the highest total amount in 2024?",
     "sql": "select category from orders where year(order_date) = 2024 group by category order by sum(amount) desc limit 1",
     "kind": "labels"},
    {"question": "Which 3 regions have the most orders with a quantity above 10? List them in order.",
     "sql": "select region from orders where quantity > 10 group by region order by count(*) desc limit 3",
     "kind": "labels"},
]
"""Plain analyst questions: a count, a sum, a filtered mean, a filtered group's top, a top-n."""


def _generate_sql(rows: int) -> str:
    categories = "[" + ", ".join(f"'{c}'" for c in CATEGORIES) + "]"
    return f"""
        select i + 1 as order_id,
               date '2021-01-01' + cast(hash(i, 1) % 1461 as integer) as order_date,
               {REGIONS} as region,
               {categories}[1 + cast(hash(i, 2) % {len(CATEGORIES)} as integer)] as category,
               1 + cast(hash(i, 3) % 200000 as integer) as customer_id,
               q as quantity,
               round(q * (5 + (hash(i, 4) % 20000) / 100.0) * (1 - d), 2) as amount,
               d as discount
        from (select i, hash(i, 0) as h, 1 + cast(hash(i, 5) % 20 as integer) as q,
                     (hash(i, 6) % 6) * 0.05 as d
              from range({rows}) t(i))
    """


def generate(folder: Path, rows: int) -> tuple[Path, Path]:
    """``orders.csv`` and ``orders.parquet`` under ``folder``; kept if already there (written to a
    temporary name first, so an interrupted run does not leave a half file that looks done)."""
    import duckdb

    folder.mkdir(parents=True, exist_ok=True)
    csv_path, parquet_path = folder / "orders.csv", folder / "orders.parquet"
    con = duckdb.connect(config={"memory_limit": "2GB", "temp_directory": str(folder / ".tmp")})
    if not parquet_path.exists():
        print(f"generating {parquet_path} ({rows:,} rows) …", flush=True)
        started = time.perf_counter()
        tmp = parquet_path.with_suffix(".parquet.part")
        con.execute(f"copy ({_generate_sql(rows)}) to '{tmp}' (format parquet, row_group_size 1000000)")
        tmp.rename(parquet_path)
        print(f"  {parquet_path.stat().st_size / 1024**3:.2f} GiB in {time.perf_counter() - started:.0f} s", flush=True)
    if not csv_path.exists():
        print(f"generating {csv_path} …", flush=True)
        started = time.perf_counter()
        tmp = csv_path.with_suffix(".csv.part")
        con.execute(f"copy (select * from read_parquet('{parquet_path}') order by order_id) to '{tmp}' (format csv, header)")
        tmp.rename(csv_path)
        print(f"  {csv_path.stat().st_size / 1024**3:.2f} GiB in {time.perf_counter() - started:.0f} s", flush=True)
    size = csv_path.stat().st_size
    if size < MIN_CSV_BYTES and rows >= 110_000_000:
        print(f"warning: {csv_path} is {size / 1024**3:.2f} GiB, under 5 GiB", file=sys.stderr)
    return csv_path, parquet_path


def expected_answers(folder: Path, parquet_path: Path) -> list[Any]:
    """Each question's answer by DuckDB over the Parquet, cached in ``answers.json``."""
    import duckdb

    cache = folder / "answers.json"
    stamp = parquet_path.stat().st_mtime
    if cache.exists():
        saved = json.loads(cache.read_text())
        if saved.get("mtime") == stamp and len(saved.get("answers", [])) == len(QUESTIONS):
            return saved["answers"]
    con = duckdb.connect(config={"memory_limit": "2GB"})
    con.execute(f"create view orders as select * from read_parquet('{parquet_path}')")
    answers = []
    for q in QUESTIONS:
        rows = con.execute(q["sql"]).fetchall()
        answers.append(float(rows[0][0]) if q["kind"] == "number" else [str(r[0]) for r in rows])
    cache.write_text(json.dumps({"mtime": stamp, "answers": answers}))
    return answers


_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?")


def _numbers(text: str) -> list[float]:
    found = []
    for match in _NUMBER.findall(text or ""):
        try:
            found.append(float(match.replace(",", "")))
        except ValueError:
            continue
    return found


def is_right(kind: str, expected: Any, answer_text: str) -> bool:
    """A number within 0.1% (the model may round a sum of billions), or the labels in the order
    asked, all present and in that order, in the answer's text."""
    if kind == "number":
        return any(abs(x - expected) <= max(abs(expected) * 1e-3, 0.01) for x in _numbers(answer_text))
    found = [re.search(rf"\b{re.escape(label)}\b", answer_text) for label in expected]  # North, not Northeast
    positions = [m.start() if m else -1 for m in found]
    return all(p >= 0 for p in positions) and positions == sorted(positions)


def ask_all(data_path: Path, answers: list[Any], model: str | None, workflow: str | None) -> int:
    from dsagent import Session

    peaks: list[float] = []
    cell_seconds: list[float] = []
    with Session([data_path], model=model) as session:
        sandbox = session.sandbox
        run = sandbox.run

        def recording_run(code: str, *args: Any, **kwargs: Any) -> Any:
            result = run(code, *args, **kwargs)
            peaks.append(result.peak_mb)
            cell_seconds.append(result.duration_s)
            return result

        sandbox.run = recording_run  # type: ignore[method-assign]
        limit_mb = session.settings.sandbox_memory_mb
        ds = next(iter(session.datasets.values()))
        print(f"dataset {ds.id}: {data_path.name}, {data_path.stat().st_size / 1024**3:.2f} GiB, "
              f"in pandas: {ds.big is None}; sandbox memory limit {limit_mb} MB", flush=True)
        right, total_s, overall_peak = 0, 0.0, 0.0
        for n, (q, expected) in enumerate(zip(QUESTIONS, answers), start=1):
            peaks.clear()
            cell_seconds.clear()
            started = time.perf_counter()
            result = session.ask(q["question"], workflow=workflow)
            seconds = time.perf_counter() - started
            text = f"{result.result_str or ''}\n{result.explanation or ''}"
            ok = result.error is None and is_right(q["kind"], expected, text)
            peak = max(peaks, default=0.0)
            right += ok
            total_s += seconds
            overall_peak = max(overall_peak, peak)
            shown = (result.result_str or result.error or "").strip().replace("\n", " ")[:120]
            print(f"Q{n} {'RIGHT' if ok else 'WRONG'} {seconds:6.1f} s (sandbox {sum(cell_seconds):5.1f} s)  peak {peak:6.0f} MB  "
                  f"cells {len(peaks)}  "
                  f"{q['question']}\n    expected {expected!r}; got: {shown}", flush=True)
        start_mb = getattr(sandbox, "_baseline_mb", 0.0)  # the worker's resident memory when it was ready
        print(f"\n{right}/{len(QUESTIONS)} right, {total_s:.0f} s in all, worker peak resident memory "
              f"{overall_peak:.0f} MB (whole process: pandas, DuckDB and the libraries included); the limit is "
              f"{limit_mb} MB above its start ({start_mb:.0f} MB), so {overall_peak - start_mb:.0f} MB of {limit_mb} MB used")
        return 0 if right == len(QUESTIONS) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"where the data is kept (default {DEFAULT_DIR})")
    parser.add_argument("--rows", type=int, default=110_000_000, help="rows to generate (default 110M: a 5.3 GiB CSV)")
    parser.add_argument("--format", choices=("csv", "parquet"), default="csv", help="which copy the questions are asked about")
    parser.add_argument("--model", default=None, help="model spec (default: the setting, the local model)")
    parser.add_argument("--workflow", default=None, help="workflow (default: the setting, quick)")
    parser.add_argument("--generate-only", action="store_true", help="generate the data and the answers, ask nothing")
    args = parser.parse_args(argv)
    folder = args.dir.expanduser().resolve()
    csv_path, parquet_path = generate(folder, args.rows)
    answers = expected_answers(folder, parquet_path)
    for q, expected in zip(QUESTIONS, answers):
        print(f"  expected: {q['question']} -> {expected!r}")
    if args.generate_only:
        return 0
    return ask_all(csv_path if args.format == "csv" else parquet_path, answers, args.model, args.workflow)


if __name__ == "__main__":
    sys.exit(main())
