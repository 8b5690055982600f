"""Measure the clean workflow on the dirty-data set of ../shared/bench/clean (see its README).

    .venv/bin/python benchmarks/cleanbench.py [--model local] [--tables tips,stocks] [--bench DIR]
        [--out benchmarks/results/cleanbench-local.json]

For each table it runs the same unattended command a user would, in a new process:
``dsagent clean dirty.csv "<the README's instruction>" --yes --json --model M``, scores the cleaned
CSV with the set's score.py and prints repaired / damaged / lost_records / dtype_ok, seconds and
LLM calls per table and overall, with the no-model anchor (a ten-line pandas cleaner) beside it.
The bench is built with the set's make.py into a temporary folder unless --bench names one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

_HERE = Path(__file__).resolve()
DEFAULT_SET = next((p / "shared" / "bench" / "clean" for p in _HERE.parents[1:4] if (p / "shared" / "bench" / "clean").exists()),
                   _HERE.parents[2] / "shared" / "bench" / "clean")
TABLES = ("tips", "gapminder", "stocks", "election")
INSTRUCTION = ("Clean this table for analysis: fix data types, inconsistent category spellings, placeholder missing values, "
               "duplicated records and impossible values; keep record_id and every genuine record.")
PLACEHOLDERS = {"-", "--", "?", "missing", "n.a.", "n/a", "na", "unknown", "none", "null", ""}


def anchor(frame: pd.DataFrame) -> pd.DataFrame:
    """The no-model anchor: strip, placeholders to missing, numbers and mixed dates parsed,
    categories folded to their most frequent spelling, duplicates dropped."""
    df = frame.apply(lambda s: s.str.strip() if s.dtype == object or pd.api.types.is_string_dtype(s) else s)
    df = df.apply(lambda s: s.mask(s.astype(str).str.lower().isin(PLACEHOLDERS)) if not pd.api.types.is_numeric_dtype(s) else s)
    for c in df.columns[df.dtypes.map(lambda t: not pd.api.types.is_numeric_dtype(t))]:
        num = pd.to_numeric(df[c].astype(str).str.replace(r"[$,\s]|USD", "", regex=True), errors="coerce")
        dates = pd.to_datetime(df[c], errors="coerce", format="mixed")
        if num.notna().sum() >= 0.8 * df[c].notna().sum():
            df[c] = num
        elif dates.notna().sum() >= 0.8 * df[c].notna().sum():
            df[c] = dates.dt.strftime("%Y-%m-%d")
        else:
            key = df[c].str.lower()
            df[c] = key.map(df[c].groupby(key).agg(lambda g: g.value_counts().index[0]))
    return df.drop_duplicates()


def run_clean(csv: Path, instruction: str, model: str, work: Path) -> tuple[dict, float]:
    """``dsagent clean CSV INSTRUCTION --yes --json --model M`` in a new process: its JSON outcome and seconds."""
    dsagent = Path(sys.executable).with_name("dsagent")
    env = {**os.environ, "DSAGENT_WORKSPACE_ROOT": str(work / "ws")}
    started = time.perf_counter()
    run = subprocess.run([str(dsagent), "clean", str(csv), instruction, "--yes", "--json", "--model", model],
                         capture_output=True, text=True, env=env)
    seconds = round(time.perf_counter() - started, 1)
    try:
        return json.loads(run.stdout.strip().splitlines()[-1]), seconds
    except (IndexError, ValueError):
        return {"status": "error", "error": (run.stderr.strip().splitlines() or ["no output"])[-1], "cleaned_files": []}, seconds


def score(set_dir: Path, table_dir: Path, cleaned: Path) -> dict:
    run = subprocess.run([sys.executable, str(set_dir / "score.py"), str(table_dir), str(cleaned)], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def overall(rows: list[dict]) -> dict:
    fixed = total = 0
    for row in rows:
        for pair in row.get("by_kind", {}).values():
            a, b = map(int, pair.split("/"))
            fixed, total = fixed + a, total + b
    dtype = [tuple(map(int, r["dtype_ok"].split("/"))) for r in rows if "dtype_ok" in r]
    return {"repaired": round(fixed / max(1, total), 4), "damaged_max": max((r.get("damaged", 1.0) for r in rows), default=None),
            "lost_records": sum(r.get("lost_records", 0) for r in rows), "dtype_ok": f"{sum(a for a, _ in dtype)}/{sum(b for _, b in dtype)}"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="local")
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--set", dest="set_dir", type=Path, default=DEFAULT_SET, help="the dirty-data set (make.py, score.py)")
    parser.add_argument("--bench", type=Path, help="a folder make.py already wrote (default: build one in a temporary folder)")
    parser.add_argument("--instruction", default=INSTRUCTION)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    bench = args.bench
    if bench is None:
        bench = Path(tempfile.mkdtemp(prefix="cleanbench-"))
        subprocess.run([sys.executable, str(args.set_dir / "make.py"), str(bench)], check=True, capture_output=True)
    work = Path(tempfile.mkdtemp(prefix="cleanbench-runs-"))
    rows, anchors = [], []
    for name in args.tables.split(","):
        table = bench / name
        base = anchor(pd.read_csv(table / "dirty.csv"))
        base_path = work / f"{name}_anchor.csv"
        base.to_csv(base_path, index=False)
        anchors.append(score(args.set_dir, table, base_path))
        outcome, seconds = run_clean(table / "dirty.csv", args.instruction, args.model, work)
        row = {"table": name, "status": outcome.get("status"), "seconds": seconds, "llm_calls": outcome.get("llm_calls")}
        if outcome.get("cleaned_files"):
            row.update(score(args.set_dir, table, Path(outcome["cleaned_files"][0])))
        else:
            row["error"] = outcome.get("error")
        rows.append(row)
        a = anchors[-1]
        print(f"{name:10} repaired {row.get('repaired', '-'):>6}  damaged {row.get('damaged', '-'):>6}  lost {row.get('lost_records', '-'):>3}  "
              f"dtype_ok {row.get('dtype_ok', '-'):>5}  {seconds:6.1f}s  {row.get('llm_calls')} LLM calls  {row.get('status')}   "
              f"| anchor repaired {a['repaired']} damaged {a['damaged']} lost {a['lost_records']} dtype_ok {a['dtype_ok']}", flush=True)
        if row.get("error"):
            print(f"           error: {row['error']}", flush=True)
    total, base_total = overall(rows), overall(anchors)
    print(f"{'overall':10} repaired {total['repaired']:>6}  damaged ≤ {total['damaged_max']}  lost {total['lost_records']}  dtype_ok {total['dtype_ok']}   "
          f"| anchor repaired {base_total['repaired']} damaged ≤ {base_total['damaged_max']} lost {base_total['lost_records']} dtype_ok {base_total['dtype_ok']}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"model": args.model, "tables": rows, "overall": total, "anchor": {"tables": anchors, "overall": base_total}}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
