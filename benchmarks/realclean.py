"""Measure the clean workflow on real dirty tables with cell-level truth (dirty.csv / clean.csv pairs).

    .venv/bin/python benchmarks/realclean.py --data DIR [--tables flights,movies_1,tax] [--model local]
        [--out benchmarks/results/realclean-local.json] [--score-only CLEANED.csv --tables NAME] [--no-model]

DIR holds one folder per table with ``dirty.csv`` and ``clean.csv`` (same rows in the same order,
same columns in the same order; the clean file's header may name them differently). The set used in
docs/clean.md is the Raha benchmark's ``flights``, ``movies_1`` and ``tax`` (github BigDaMa/raha,
``datasets/``); the data is not in this repository (see docs/clean.md for how to get it).

For each table it runs what a user would, in a new process: ``dsagent clean dirty.csv
"<INSTRUCTION>" --yes --json --model M``, then scores the cleaned CSV cell by cell against clean.csv:

- an **error** is a cell whose dirty value differs from the clean one in substance; a change of form
  only is no error and no repair: spaces around, one empty-value token for another (``''``, ``nan``,
  ``NULL``…), and numbers equal as numbers (``'12.0'`` and ``'12'``, ``'1,234'`` and ``'1234'``,
  ``'01907'`` and ``'1907'``);
- a **changed** cell is one whose cleaned value differs in substance from the dirty one;
- precision = changed cells now equal to clean / changed cells; recall = errors now equal to clean /
  errors; F1 their harmonic mean. Records lost: dirty rows absent from the output (rows are matched
  by position when the row count is kept, otherwise by the first column when it is a unique key).
  Cells flagged: the report's count of cells left as they were for want of evidence.

``--ceiling`` measures what the table itself allows, with no cleaning run: per column, the errors
whose true value occurs among the column's dirty values, and the others whose true value is a rewrite
of the cell's own text (``difflib`` ratio ≥ 0.8: a format fix, a slip). A repair that neither picks
a value the table holds nor rewrites the cell must bring knowledge from outside the table, so these
give the recall and F1 ceilings printed (at precision 1) for cleaning from the table alone; with ``--key COLUMN`` the
errors whose true value is the single most frequent value of the rows with the same key (what a
vote within the key's rows can fix).

``--no-model`` is the baseline beside the model's figures: the same findings and snippets run in this
process with the default steps switched by the instruction's plain words only (no model call, no
sandbox); it also prints the share of flagged cells that are errors.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cleanbench import run_clean  # noqa: E402 - the same unattended run as cleanbench

INSTRUCTION = ("Clean this table for analysis: fix typos, inconsistent spellings and formats, wrong data types and "
               "placeholder missing values; keep every record.")
TABLES = ("flights", "movies_1", "tax")
EMPTY = {"", "nan", "none", "null", "na", "n/a", "nat", "<na>"}
REWRITE = 0.8
"""``--ceiling``: the least ``difflib`` ratio between a dirty cell and its true value for the truth to
count as a rewrite of the cell's own text."""
_GROUPED = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")


def norm(value: object) -> object:
    """The substance of a cell: None for an empty value, a float for a number, else the stripped text."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    text = str(value).strip()
    if text.lower() in EMPTY:
        return None
    body = text.replace(",", "") if _GROUPED.match(text) else text
    try:
        number = float(body)
    except ValueError:
        return text
    return number if number == number else None


def _same(a: pd.Series, b: pd.Series) -> pd.Series:
    """Cell by cell: equal in substance (two empty values are equal)."""
    return pd.Series([x == y or (norm(x) is None and norm(y) is None) for x, y in zip(a, b)], index=a.index)


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def score_frames(dirty: pd.DataFrame, clean: pd.DataFrame, cleaned: pd.DataFrame) -> dict:
    """Cell-level precision / recall / F1 of ``cleaned`` (columns by name of dirty, else by position)."""
    clean = clean.copy()
    clean.columns = dirty.columns
    lost = 0
    if len(cleaned) != len(dirty):
        key = dirty.columns[0]
        if key in cleaned.columns and dirty[key].is_unique:
            pos = pd.Series(range(len(dirty)), index=dirty[key].map(norm))
            idx = cleaned[key].map(norm).map(pos)
            lost = len(dirty) - int(idx.notna().sum())
            cleaned = cleaned[idx.notna().values].copy()
            cleaned.index = idx.dropna().astype(int).values
        else:
            lost = max(0, len(dirty) - len(cleaned))
            cleaned = cleaned.iloc[: len(dirty)].copy()
            cleaned.index = range(len(cleaned))
    else:
        cleaned = cleaned.copy()
        cleaned.index = range(len(cleaned))
    rows = cleaned.index
    errors = changed = right_changes = fixed = 0
    by_column: dict[str, dict] = {}
    for col in dirty.columns:
        d = dirty[col].map(norm)
        c = clean[col].map(norm)
        err = ~_same(d, c)
        out = cleaned[col].map(norm) if col in cleaned.columns else pd.Series([None] * len(rows), index=rows)
        d, c, errk = d.loc[rows], c.loc[rows], err.loc[rows]
        chg = ~_same(out, d)
        ok = _same(out, c)
        n_err, n_chg, n_right, n_fixed = int(err.sum()), int(chg.sum()), int((chg & ok).sum()), int((errk & ok).sum())
        errors, changed, right_changes, fixed = errors + n_err, changed + n_chg, right_changes + n_right, fixed + n_fixed
        if n_err or n_chg:
            by_column[col] = {"errors": n_err, "changed": n_chg, "right": n_right, "fixed": n_fixed}
    p = right_changes / changed if changed else 1.0
    r = fixed / errors if errors else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4), "errors": errors, "changed": changed,
            "records_lost": lost, "by_column": by_column}


def ceiling(dirty: pd.DataFrame, clean: pd.DataFrame, key: str | None = None) -> dict:
    """What the table allows (see the module): per column the errors, those whose true value occurs in
    the column (``in_column``) and, with ``key``, those whose true value is the key group's single most
    frequent value (``by_vote``); with the recall and F1 ceilings of a repair that picks seen values."""
    clean = clean.set_axis(dirty.columns, axis=1)
    by_column: dict[str, dict] = {}
    for col in dirty.columns:
        d, c = dirty[col].map(norm), clean[col].map(norm)
        err = ~_same(d, c)
        if not err.any():
            continue
        seen = set(d.dropna())
        figures = {"errors": int(err.sum()), "in_column": int(sum(t in seen for t in c[err])),
                   "rewrite": int(sum(t not in seen and _rewrite(v, t) for v, t in zip(d[err], c[err])))}
        if key and key != col:
            votes = pd.DataFrame({"k": dirty[key].map(norm), "v": d}).dropna().groupby("k")["v"].agg(_single_mode)
            figures["by_vote"] = int(sum(t is not None and votes.get(k) == t for k, t in zip(dirty[key].map(norm)[err], c[err])))
        by_column[col] = figures
    errors = sum(f["errors"] for f in by_column.values())
    found = sum(f["in_column"] + f["rewrite"] for f in by_column.values())
    recall = found / errors if errors else 1.0
    out = {"errors": errors, "in_column": sum(f["in_column"] for f in by_column.values()),
           "rewrite": sum(f["rewrite"] for f in by_column.values()), "recall_ceiling": round(recall, 4),
           "f1_ceiling": round(2 * recall / (1 + recall), 4), "by_column": by_column}
    if key:
        out["by_vote"] = sum(f.get("by_vote", 0) for f in by_column.values())
    return out


def _rewrite(dirty: object, true: object) -> bool:
    """The true value is a small rewrite of the dirty cell's text (a format fix, a slip)."""
    import difflib

    if dirty is None or true is None:
        return False
    return difflib.SequenceMatcher(None, str(dirty), str(true)).ratio() >= REWRITE


def _single_mode(values: pd.Series) -> object:
    """The one most frequent value, or None when two tie."""
    counts = values.value_counts()
    return counts.index[0] if len(counts) == 1 or counts.iloc[0] > counts.iloc[1] else None


def _flagged(report: Path | None) -> int | None:
    if not report or not report.exists():
        return None
    m = re.search(r"(\d[\d,]*) cells? flagged", report.read_text(errors="replace"))
    return int(m.group(1).replace(",", "")) if m else 0


def no_model(table: Path, instruction: str, work: Path) -> tuple[dict, Path]:
    """The baseline without a model: the same findings and snippets, the default steps switched by the
    instruction's plain words only, run in this process; flagged cells are returned whole (``cells``)."""
    import time

    from dsagent.workflows.clean import detect as clean_detect
    from dsagent.workflows.clean import snippets
    from dsagent.workflows.clean.decide import grounded
    from dsagent.workflows.clean.plan import make_plan

    started = time.perf_counter()
    raw = pd.read_csv(table / "dirty.csv", low_memory=False)
    sample, clean_detect.FLAG_SAMPLE = clean_detect.FLAG_SAMPLE, 10**9
    try:
        findings = clean_detect.detect(raw)
    finally:
        clean_detect.FLAG_SAMPLE = sample
    policy, skipped, _, _ = grounded(None, instruction, findings)
    scope: dict = {}
    exec(snippets.build_function(make_plan(findings, policy, skipped)), scope)  # noqa: S102 - dsagent's own vetted snippets
    out = work / f"{table.name}_no_model.csv"
    scope["data_cleaner"](raw).to_csv(out, index=False)
    flagged = next((f["params"]["cells"] for f in findings if f["kind"] == "flagged"), [])
    return {"status": "no model", "seconds": round(time.perf_counter() - started, 1), "llm_calls": 0,
            "flagged": len({(c["row"], c["column"]) for c in flagged}), "cells": flagged}, out


def flag_precision(dirty: pd.DataFrame, clean: pd.DataFrame, cells: list[dict]) -> float | None:
    """The share of flagged cells that are errors (their dirty value differs in substance from clean.csv)."""
    where = {(c["row"], c["column"]) for c in cells if c["column"] in dirty.columns}
    if not where:
        return None
    clean = clean.set_axis(dirty.columns, axis=1)
    wrong = sum(not _same(pd.Series([norm(dirty.at[r, c])]), pd.Series([norm(clean.at[r, c])])).iloc[0] for r, c in where)
    return round(wrong / len(where), 4)


def run_table(table: Path, model: str, instruction: str, work: Path) -> tuple[dict, Path | None]:
    outcome, seconds = run_clean(table / "dirty.csv", instruction, model, work)
    row = {"status": outcome.get("status"), "seconds": seconds, "llm_calls": outcome.get("llm_calls"), "error": outcome.get("error")}
    cleaned = Path(outcome["cleaned_files"][0]) if outcome.get("cleaned_files") else None
    report = Path(outcome["report_path"]) if outcome.get("report_path") else None
    row["flagged"] = _flagged(report)
    row["report"] = str(report) if report else None
    return row, cleaned


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="folder with <table>/dirty.csv and clean.csv")
    parser.add_argument("--tables", default=",".join(TABLES))
    parser.add_argument("--model", default="local")
    parser.add_argument("--instruction", default=INSTRUCTION)
    parser.add_argument("--score-only", type=Path, help="score this cleaned CSV (one table) instead of running dsagent")
    parser.add_argument("--no-model", action="store_true", help="the baseline: findings and snippets in this process, no model call; "
                        "also prints the share of flagged cells that are errors")
    parser.add_argument("--ceiling", action="store_true", help="no cleaning run: the errors whose true value the table holds "
                        "(the recall and F1 ceilings of a repair that picks seen values)")
    parser.add_argument("--key", help="with --ceiling: also the errors a vote within this column's groups would fix")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--columns", action="store_true", help="print the figures per column too")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="realclean-"))
    rows = []
    for name in args.tables.split(","):
        table = args.data / name
        dirty, clean = _read(table / "dirty.csv"), _read(table / "clean.csv")
        if args.ceiling:
            row = {"table": name, **ceiling(dirty, clean, args.key)}
            rows.append(row)
            print(f"{name:9} errors {row['errors']:>5}  true value in the column {row['in_column']:>5}  "
                  f"a rewrite of the cell {row['rewrite']:>5}  "
                  f"recall ceiling {row['recall_ceiling']}  F1 ceiling {row['f1_ceiling']}"
                  + (f"  fixed by a vote within {args.key!r} {row['by_vote']}" if args.key else ""), flush=True)
            for col, figures in row["by_column"].items() if args.columns else ():
                print(f"          {col:20} {figures}")
            continue
        if args.score_only:
            row, cleaned = {"status": "scored", "seconds": None, "flagged": None}, args.score_only
        elif args.no_model:
            row, cleaned = no_model(table, args.instruction, work)
            row["flagged_errors"] = flag_precision(dirty, clean, row.pop("cells"))
        else:
            row, cleaned = run_table(table, args.model, args.instruction, work)
        row["table"] = name
        if cleaned is not None:
            row.update(score_frames(dirty, clean, _read(cleaned)))
        rows.append(row)
        print(f"{name:9} P {row.get('precision', '-'):>6}  R {row.get('recall', '-'):>6}  F1 {row.get('f1', '-'):>6}  "
              f"errors {row.get('errors', '-'):>5}  changed {row.get('changed', '-'):>5}  flagged {row.get('flagged')}  "
              f"lost {row.get('records_lost', '-')}  {row.get('seconds')}s  {row.get('llm_calls')} LLM calls  {row.get('status')}"
              + (f"  flagged that are errors {row['flagged_errors']}" if row.get("flagged_errors") is not None else ""), flush=True)
        if row.get("error"):
            print(f"          error: {row['error']}", flush=True)
        if args.columns:
            for col, figures in row.get("by_column", {}).items():
                print(f"          {col:20} {figures}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"model": args.model, "instruction": args.instruction, "tables": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
