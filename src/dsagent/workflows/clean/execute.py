"""Run ``data_cleaner`` in the sandbox on a raw table, then guard and verify the result by code.

The function runs only in the sandbox (never in dsagent's process): the cell writes the cleaned
CSV and Parquet into its own folder, the cleaned table's row numbers (``.npy``) and prints one
JSON line with the trace of what each step did. dsagent copies those files out as the sandbox
allows (regular files reached without links, size-capped: ``Sandbox.collect``), reads the copied
Parquet and compares it with the raw table (rows and columns kept, values changed per column) and
with the findings.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

from dsagent.workflows.clean import textvalues as tv

ROW_DROP_KINDS = {"drop_duplicates", "drop_missing_rows", "drop_outliers"}

_CELL = '''
import json as _json
import numpy as _np
_CLEAN_TRACE = []
{function}
_raw = {source}
_out = {function_name}(_raw)
if not isinstance(_out, pd.DataFrame):
    raise TypeError("{function_name} must return a pandas DataFrame, got " + type(_out).__name__)
_info = {{"rows": len(_out), "columns": [str(c) for c in _out.columns], "trace": _CLEAN_TRACE,
          "dtypes": {{str(c): str(t) for c, t in _out.dtypes.items()}}, "parquet_error": None, "aligned": False}}
if {write!r}:
    _out.to_csv({csv!r}, index=False)
    try:
        _out.to_parquet({parquet!r}, index=False)
    except Exception as _e:
        _info["parquet_error"] = type(_e).__name__ + ": " + str(_e)
        _out.astype({{c: str for c in _out.columns if _out[c].dtype == object}}).to_parquet({parquet!r}, index=False)
    _idx = _out.index
    if _idx.is_unique and pd.api.types.is_integer_dtype(_idx) and bool(_idx.isin(_raw.index).all()):
        _np.save({index!r}, _idx.to_numpy(dtype="int64"))
        _info["aligned"] = True
print("CLEAN_INFO " + _json.dumps(_info))
'''


def cell(function: str, function_name: str, ds_id: str, stem: str, write: bool = True, source: str | None = None) -> tuple[str, dict[str, str]]:
    """The cell's code, and the names (in the sandbox's own folder) of the files it writes.
    ``source``: the expression of the raw table (default: the dataset; a big file's preview reads its sample)."""
    paths = {"csv": f"{stem}_cleaned.csv", "parquet": f"{stem}_cleaned.parquet", "index": f".{stem}_rows.npy"}
    return _CELL.format(function=function, function_name=function_name, source=source or f"datasets[{ds_id!r}].copy()", write=write, **paths), paths


def collect(sandbox: Any, names: dict[str, str], max_bytes: int) -> dict[str, str]:
    """Copy the cell's files out of the sandbox's folder (``cleaned/`` in the workspace); a file
    missing, planted as a link or too large is left out."""
    copied = {}
    for key, name in names.items():
        path = sandbox.collect(name, ".clean" if key == "index" else "cleaned", max_bytes=max_bytes)
        if path is not None:
            copied[key] = str(path)
    return copied


def parse_info(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith("CLEAN_INFO "):
            return json.loads(line[len("CLEAN_INFO "):])
    return None


def read_cleaned(paths: dict[str, str], info: dict[str, Any]) -> tuple[pd.DataFrame, np.ndarray | None]:
    frame = pd.read_parquet(paths["parquet"])
    index = np.load(paths["index"], allow_pickle=False) if info.get("aligned") and paths.get("index") else None
    if index is not None and len(index) == len(frame):
        frame.index = index
    return frame, index


def compare(raw: pd.DataFrame, cleaned: pd.DataFrame, aligned: bool) -> dict[str, Any]:
    """Rows and columns kept, and values changed per column (rows matched by their raw row number)."""
    raw_cols = [str(c).strip() for c in raw.columns]
    raw = raw.set_axis(raw_cols, axis=1)
    out: dict[str, Any] = {"rows_raw": len(raw), "rows_cleaned": len(cleaned), "columns_raw": raw_cols,
                           "columns_cleaned": [str(c) for c in cleaned.columns],
                           "columns_dropped": [c for c in raw_cols if c not in cleaned.columns],
                           "columns_added": [str(c) for c in cleaned.columns if c not in raw_cols], "changed": {}, "missing": {}}
    for c in cleaned.columns:
        out["missing"][str(c)] = [int(raw[c].isna().sum()) if c in raw.columns else None, int(cleaned[c].isna().sum())]
    if aligned:
        rows = cleaned.index.intersection(raw.index)
        for c in cleaned.columns:
            if c in raw.columns:
                a, b = raw.loc[rows, c], cleaned.loc[rows, c]
                same = (a.isna() & b.isna()) | (a.astype(str).str.strip() == b.astype(str)) | _same_number(a, b)
                out["changed"][str(c)] = int((~same).sum())
    out["types"] = {str(c): [str(raw[c].dtype) if c in raw.columns else "", str(cleaned[c].dtype)] for c in cleaned.columns}
    return out


def _same_number(a: pd.Series, b: pd.Series) -> pd.Series:
    x, y = pd.to_numeric(a, errors="coerce"), pd.to_numeric(b, errors="coerce")
    return (x.notna() & y.notna() & np.isclose(x.fillna(0).astype(float), y.fillna(0).astype(float))).fillna(False)


def guards(comparison: dict[str, Any], steps: list[dict[str, Any]], trace: list[dict[str, Any]], max_share: float,
           duplicates: int) -> list[str]:
    """Drops the steps did not announce: rows beyond ``max_share`` of the table, or any column."""
    problems: list[str] = []
    rows = max(1, comparison["rows_raw"])
    kinds = {s["n"]: s["kind"] for s in steps}
    announced_cols = {c for s in steps if s["kind"] == "drop_sparse_columns" for c in s.get("announced", [])}
    sparse_step = any(s["kind"] == "drop_sparse_columns" for s in steps)
    if trace:
        unannounced = sum(t["rows_dropped"] for t in trace if kinds.get(t["step"]) not in ROW_DROP_KINDS)
        by = [f"step {t['step']} ({kinds.get(t['step'], 'custom')}) dropped {t['rows_dropped']}" for t in trace
              if t["rows_dropped"] and kinds.get(t["step"]) not in ROW_DROP_KINDS]
    else:
        dropped = comparison["rows_raw"] - comparison["rows_cleaned"]
        free = dropped if any(s["kind"] in ROW_DROP_KINDS - {"drop_duplicates"} for s in steps) else duplicates if any(s["kind"] == "drop_duplicates" for s in steps) else 0
        unannounced, by = max(0, dropped - free), []
    if unannounced > max_share * rows:
        problems.append(f"guard: the cleaner dropped {unannounced} of {rows} rows ({unannounced / rows:.1%}) that no step announced"
                        + (f" ({'; '.join(by)})" if by else "") + ": keep every row unless a step says it is dropped")
    lost = [c for c in comparison["columns_dropped"] if c not in announced_cols and not sparse_step]
    if lost:
        problems.append(f"guard: the cleaner dropped column(s) {', '.join(map(repr, lost))} that no step announced: keep them")
    return problems


def _written_number(value: object) -> bool:
    """A number still written as text with currency, units or separators (a plain ``7.9`` read back
    from the CSV of a column that keeps a few cells that are no number is fine)."""
    if not isinstance(value, str) or tv.parse_number(value) is None:
        return False
    try:
        float(value)
        return False
    except ValueError:
        return True


def verify(cleaned: pd.DataFrame, steps: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Each finding the plan fixes, checked on the cleaned table: (passed lines, failed lines)."""
    ok, failed = [], []
    for step in steps:
        col, kind, params = step.get("column"), step["kind"], step.get("params") or {}
        if col is not None and col not in cleaned.columns:
            continue
        s = cleaned[col] if col is not None else None
        problem = None
        if kind == "whitespace":
            texts = s[s.map(lambda v: isinstance(v, str))]
            n = int((texts != texts.str.strip()).sum()) if len(texts) else 0
            problem = f"{n} values still have spaces around them" if n else None
        elif kind == "placeholder":
            n = int(s.map(lambda v: isinstance(v, str) and tv.is_placeholder(v)).sum())
            problem = f"{n} placeholders remain" if n else None
        elif kind == "number_text":
            left = 0 if pd.api.types.is_numeric_dtype(s) else int(s.map(_written_number).sum())
            problem = f"{left} numbers are still written with signs or separators" if left else None  # cells that are no number stay as they were (flagged)
        elif kind == "date_text":
            iso = s.dropna().astype(str).str.fullmatch(r"\d{4}-\d{2}-\d{2}( 00:00:00)?").all()
            problem = None if pd.api.types.is_datetime64_any_dtype(s) or iso else f"is {s.dtype}, not dates"
        elif kind == "impossible" and pd.api.types.is_numeric_dtype(s):
            rule = params.get("rule")
            n = int((s < 0).sum() if rule == "negative" else s.isin(params.get("values", [])).sum() if rule == "codes" else (s > 100).sum())
            problem = f"{n} impossible values remain" if n else None
        elif kind == "spelling":
            n = int(s.isin(list(params.get("mapping", {}))).sum())
            problem = f"{n} variant spellings remain" if n else None
        elif kind == "drop_duplicates":
            n = int(cleaned.duplicated().sum())
            problem = f"{n} duplicate rows remain" if n else None
        else:
            continue
        line = f"step {step['n']} ({kind}{', ' + repr(col) if col else ''})"
        (failed if problem else ok).append(f"{line}: {problem}" if problem else f"{line}: verified")
    return ok, failed
