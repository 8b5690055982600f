"""A file above big_file_mb: never loaded into pandas, profiled by DuckDB, answered by sql()."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dsagent.data import bigfile, load_datasets
from dsagent.data.profile import profile_dataset
from dsagent.session import Session
from dsagent.workflows.common.prompting import code_rules, context

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "sum per region"}


@pytest.fixture
def no_pandas_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """dsagent's pandas loader, or a pandas reader given a path to an orders/events file, fails the test."""
    import os

    import dsagent.data.catalog as catalog

    def loader(*args, **kwargs):
        raise AssertionError(f"dsagent's pandas loader read {args[:1]}")

    monkeypatch.setattr(catalog, "read_file", loader)
    for name in ("read_csv", "read_parquet", "read_json", "read_table"):
        original = getattr(pd, name)

        def reader(*args, _original=original, **kwargs):
            source = args[0] if args else None
            if isinstance(source, (str, os.PathLike)) and Path(source).stem in ("orders", "events") and Path(source).exists():
                raise AssertionError(f"pandas read the big file {source}")
            return _original(*args, **kwargs)

        monkeypatch.setattr(pd, name, reader)


def test_a_big_csv_is_not_read_by_pandas_and_keeps_only_a_sample(orders_csv: Path, no_pandas_reader, monkeypatch) -> None:
    monkeypatch.setattr(bigfile, "SAMPLE_ROWS", 300)
    ds = load_datasets([orders_csv], big_file_mb=0.001, threads=1)["orders"]
    assert ds.big is not None and ds.big.scan.format == "csv"
    assert len(ds.frame) == 300  # the sample, not the file
    assert ds.rows == 2000 and ds.shape == (2000, 4)  # DuckDB's exact count


def test_under_the_threshold_the_file_is_loaded_into_pandas(orders_csv: Path) -> None:
    ds = load_datasets([orders_csv], big_file_mb=100, threads=1)["orders"]
    assert ds.big is None and len(ds.frame) == 2000


def test_the_profile_of_a_big_parquet_comes_from_duckdb(tmp_path: Path, monkeypatch) -> None:
    import duckdb

    path = tmp_path / "events.parquet"
    duckdb.connect().execute(f"""copy (select i as id, case when i % 10 = 0 then null else i * 2 end as score
                                       from range(5000) t(i)) to '{path}' (format parquet, row_group_size 1000)""")
    monkeypatch.setattr(bigfile, "SAMPLE_ROWS", 100)
    ds = load_datasets([path], big_file_mb=0.0001, threads=1)["events"]
    text = profile_dataset(ds).text
    header, *lines = text.splitlines()
    assert "5000 rows" in header and "NOT loaded into pandas" in header and "DuckDB SQL table" in header
    assert "rows, min, max and missing exact" in header and "100-row sample" in header
    score = next(line for line in lines if line.startswith('- "score"'))
    assert "max=9998" in score  # exact: the sample's first 100 rows stop far below it
    assert "miss=10%" in score  # exact: 500 of 5000
    assert "u=~" in score  # unique counts of a sample say they are approximate


def test_the_profile_of_a_big_csv_says_its_figures_are_sampled(orders_csv: Path, monkeypatch) -> None:
    monkeypatch.setattr(bigfile, "SAMPLE_ROWS", 300)
    ds = load_datasets([orders_csv], big_file_mb=0.001, threads=1)["orders"]
    header = profile_dataset(ds).text.splitlines()[0]
    assert "2000 rows" in header and "rows exact (a counting scan)" in header and "300-row sample" in header


def test_code_rules_and_context_tell_the_model_to_aggregate_in_sql(orders_csv: Path) -> None:
    datasets = load_datasets([orders_csv], big_file_mb=0.001, threads=1)
    rules = code_rules(datasets, "How many orders?")
    assert "SQL table `orders`" in rules and "Aggregate in SQL first" in rules and "sql(" in rules
    meta_rules = code_rules({"orders": {"name": "orders.csv", "sql_table": True}}, "q")
    assert "Aggregate in SQL first" in meta_rules
    assert "Aggregate in SQL" not in code_rules({"orders": {"name": "orders.csv"}}, "q")
    summary = profile_dataset(datasets["orders"]).text
    assert "query those with sql()" in context(summary)
    assert "query those with sql()" not in context("datasets['x'] = x.csv: 3 rows x 1 cols")


def test_a_question_about_a_big_file_is_answered_by_duckdb_in_the_sandbox(orders_csv: Path, script_file, no_pandas_reader) -> None:
    code = ("r = sql('select region, sum(amount) as total from orders group by region order by total desc')\n"
            "result = r.set_index('region')['total']")
    spec = script_file([PLAN, f"```python\n{code}\n```", "West has the largest total."])
    with Session([orders_csv], model=spec, big_file_mb=0.001) as session:
        assert session.datasets["orders"].big is not None
        result = session.ask("What is the total amount per region?")
        kind = session.sandbox.run("result = f'{type(df).__name__} {len(df)}'")
        failed = session.sandbox.run("df.groupby('region')")
        reader = session.sandbox.run("pd.read_csv('orders.csv')")
    assert result.error is None, result.error
    amounts = {r: sum(i * 0.5 for i in range(2000) if i % 4 == k) for k, r in enumerate(["North", "South", "East", "West"])}
    for region, total in amounts.items():
        assert region in result.result_str and f"{total:.1f}".rstrip("0").rstrip(".") in result.result_str.replace(",", "")
    assert kind.result.strip("'\"") == "SqlTable 2000"
    assert not failed.success and "not loaded into pandas" in failed.error and "sql(" in failed.error
    assert not reader.success and "pd.read_csv" in reader.error and "not loaded into pandas" in reader.error


def test_dsagent_clean_on_a_big_file_works_end_to_end(orders_csv: Path, script_file, monkeypatch) -> None:
    """`dsagent clean FILE --yes --json` on a file above big_file_mb: cleaned chunk by chunk, the files are right."""
    import json
    import os
    import subprocess
    import sys

    import duckdb

    from tests.workflows.clean.conftest import decision

    lines = orders_csv.read_text().splitlines()
    dirty = orders_csv.with_name("orders_dirty.csv")  # a stray space, a placeholder, two repeated rows far apart
    lines[5] = lines[5].replace("North", " North ")
    lines[9] = ",".join(lines[9].split(",")[:3] + ["n/a"])
    dirty.write_text("\n".join(lines + [lines[3], lines[1500]]) + "\n")
    before = dirty.read_bytes()
    env = dict(os.environ, DSAGENT_BIG_FILE_MB="0.001", DSAGENT_CLEAN_CHUNK_ROWS="300", DSAGENT_CLEAN_SAMPLE_ROWS="500")
    exe = Path(sys.executable).with_name("dsagent")
    run = subprocess.run([str(exe), "clean", str(dirty), "keep order_id", "--yes", "--json", "--model", script_file([decision()])],
                         capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "done", out["error"]
    assert "random sample of" in out["recommended_steps"] and "2,002 rows" in out["recommended_steps"]
    csv, parquet = out["cleaned_files"]
    con = duckdb.connect()
    rows, ids, spaced = con.execute(f"select count(*), count(distinct order_id), count(*) filter (where region <> trim(region)) "
                                    f"from read_parquet('{parquet}')").fetchone()
    assert (rows, ids, spaced) == (2000, 2000, 0)  # every order once, the spaces gone
    assert con.execute(f"select count(*) from read_csv('{csv}')").fetchone()[0] == 2000
    assert dirty.read_bytes() == before  # the user's file is never written
    assert "Big file" in Path(out["report_path"]).read_text() or "chunks" in Path(out["report_path"]).read_text()


def test_above_count_max_mb_the_rows_are_estimated_and_said_to_be(orders_csv: Path, monkeypatch) -> None:
    monkeypatch.setattr(bigfile, "SAMPLE_ROWS", 300)
    monkeypatch.setattr(bigfile, "COUNT_MAX_MB", 0.001)
    ds = load_datasets([orders_csv], big_file_mb=0.001, threads=1)["orders"]
    assert not ds.big.rows_exact and ds.big.scan.rows is None  # the sandbox counts it when asked
    assert 1900 <= ds.rows <= 2100  # lines of equal-ish length: close to the 2,000 rows (+ header)
    header = profile_dataset(ds).text.splitlines()[0]
    assert f"~{ds.rows} rows" in header and "rows estimated" in header


def test_a_big_files_numbers_written_as_text_are_read_as_numbers_as_pandas_reads_them(tmp_path: Path, monkeypatch) -> None:
    """"4,749", "57.3 %" and ".." for missing (data.textnumbers) are numbers in the profile's sample
    and in the sandbox's SQL view alike; a column whose shape breaks after the sample stays text, so
    no value of it becomes NULL unseen."""
    from dsagent.sandbox.duck import connect, scan_sql
    rows = ["area,people,share,rate,code,homes"]
    code = ['"1,234"'] * 250 + ["n/a"] * 50
    rows += [f"A{i},\"{1000 + i:,}\",{i % 90}.5 %,{'..' if i % 7 == 0 else i / 10},{code[i]},{2000 + i:,}".rsplit(",", 1)[0] + f" {i:03d}"
             for i in range(300)]  # homes: "2 000" … "2 299", digits grouped by a blank
    path = tmp_path / "areas.csv"
    path.write_text("\n".join(rows) + "\n")
    monkeypatch.setattr(bigfile, "SAMPLE_ROWS", 200)
    ds = load_datasets([path], big_file_mb=0.000001, threads=1)["areas"]
    assert ds.big is not None and ds.big.scan.numbers == {"people": "thousands", "share": "percent", "rate": "number", "homes": "spaced"}
    assert ds.frame["people"].iloc[1] == 1001 and ds.frame["share"].iloc[1] == 1.5 and pd.isna(ds.frame["rate"].iloc[0])
    assert ds.frame["code"].iloc[0] == "1,234"  # "n/a" from row 250 on: text, as pandas would leave it
    assert ds.read_options["missing_marks"] == {"rate": ".."} and ds.read_options["numbers_from_text"]["people"] == "1,000"
    con = connect(64, 1)
    try:
        total, missing, top, homes = con.execute(f"select sum(people), count(*) - count(rate), max(share), sum(homes) "
                                                 f"from {scan_sql(ds.big.scan)}").fetchall()[0]
    finally:
        con.close()
    assert total == sum(1000 + i for i in range(300)) and missing == len(range(0, 300, 7)) and top == 89.5
    assert homes == sum(2000 + i for i in range(300)) and ds.frame["homes"].iloc[1] == 2001
    assert "for missing, read as missing" in profile_dataset(ds).text


def test_the_sandbox_strips_the_blanks_the_loader_reads_as_digit_groups() -> None:
    """The sandbox may not import the data layer, so ``duck`` writes the blanks that group digits
    again: it must be the same set as ``data.textnumbers.BLANKS``, or a big file's column read as a
    number in pandas fails its cast in DuckDB."""
    from dsagent.data.textnumbers import BLANKS
    from dsagent.sandbox import duck

    assert duck._BLANKS == BLANKS
