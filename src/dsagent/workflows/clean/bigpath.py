"""Cleaning a file above ``big_file_mb``: findings on a sample, the cleaner applied chunk by chunk.

The pandas path loads the table, finds its problems and runs ``data_cleaner`` on it whole. A big
file (``Dataset.big``) is never loaded whole, here or in the sandbox:

1. :func:`raw_table` reads it once in chunks in dsagent's process (pandas, as the pandas path
   reads it, so the values and types are the same): the exact row count, the exact missing values
   per column as read, the column types pandas gives the whole file, and a uniform random sample of
   ``clean_sample_rows`` rows (with those types) that the findings and the review's preview run on.
2. :func:`execute_big` runs the reviewed steps in the sandbox in passes over chunks of
   ``clean_chunk_rows`` rows (bigcell.py). A step that needs a figure of the whole table (the
   missing share of ``drop_sparse_columns``, the mean or most frequent value of ``impute``, the
   quartiles of ``drop_outliers``) ends a pass; DuckDB computes the figure over that pass's output
   and the next pass gets it as a literal (snippets ``drop_columns`` / ``impute_values`` /
   ``drop_outliers_bounds``). ``drop_duplicates`` keeps the first row of each group of equal rows
   over the whole table (DuckDB), so a row repeated in another chunk is dropped too. The last pass
   appends each chunk to the cleaned CSV; DuckDB writes the Parquet from its parts.
3. bigcheck.py compares and verifies by DuckDB aggregates over the cleaned Parquet.

So a small file sent down this path gives the same cleaned table as the pandas path
(tests/workflows/clean/test_bigpath.py), up to the last bits of an imputed mean.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from dsagent.errors import UserError
from dsagent.workflows.clean import bigcell, snippets

STATS_KINDS = {"drop_sparse_columns": "missing_share", "impute": "impute", "drop_outliers": "outliers"}
"""Steps that need a figure of the whole table, and the DuckDB figure (bigcell ``_b_stats``)."""
SQL_ABLE = {"drop_columns", "drop_missing_rows"}
"""Pending steps DuckDB applies itself when it computes the next figure (no pass needed for them)."""
OUTPUT_FACTOR = 4
"""The sandbox's folder may hold this many times the input while cleaning it (two passes' parts,
the cleaned CSV and Parquet, DuckDB's spill files); the copies taken out need 1.5 times more."""
CELL_SECONDS = 20.0
"""Each work cell of a pass stops after this long, so progress is shown and no cell runs long."""


@dataclass
class RawTable:
    """What dsagent knows of a big file after one read in chunks."""

    sample: pd.DataFrame
    rows: int
    dtypes: dict[str, str]
    missing: dict[str, int]
    source: dict[str, Any]
    """How the sandbox reads it: ``{kind: csv|parquet, path, kwargs, dtypes}``."""
    padded: dict[str, int] = field(default_factory=dict)
    """Per text column, values with spaces around them in the whole file (exact)."""
    placeholders: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per text column, the written-out missing values in the whole file and how often (exact)."""


_CACHE: dict[tuple, RawTable] = {}


READ_TYPES = ("int64", "float64", "bool", "object", "str")
"""The types pandas gives a column of a text file (``str``: pandas 3's text columns)."""


def _combine(a: str | None, b: str) -> str:
    """The type pandas gives a whole column whose chunks it read as ``a`` and ``b``."""
    if a is None or a == b:
        return b
    if {a, b} <= {"int64", "float64"}:
        return "float64"
    return "object" if "object" in (a, b) or "str" not in (a, b) else "str"


def raw_table(ds: Any, sample_rows: int, chunk_rows: int, progress: Callable[[str], None] = lambda _m: None) -> RawTable:
    """Read a big dataset's file once in chunks: exact rows and missing values, the whole file's
    column types, and a uniform random sample (seeded: the same sample every time)."""
    path = Path(ds.source_path).resolve()
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size, sample_rows, chunk_rows)
    if key in _CACHE:
        return _CACHE[key]
    fmt = ds.big.scan.format
    if fmt not in ("csv", "parquet"):
        raise UserError(f"{ds.name}: cleaning a {fmt.upper()} file above big_file_mb is not supported; write it as "
                        "Parquet first (duckdb -c \"COPY (SELECT * FROM 'file.json') TO 'file.parquet'\") and clean that.")
    expected = max(int(ds.big.rows or 1), 1)
    share = min(1.0, sample_rows / expected)
    rng = np.random.default_rng(0)
    kwargs: dict[str, Any] = {}
    if fmt == "csv":
        from dsagent.data.loaders import detect_encoding, sniff_delimiter

        with path.open("rb") as fh:
            head = fh.read(1 << 20)
        encoding = detect_encoding(path.name, head)
        sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else sniff_delimiter(head.decode(encoding, errors="ignore"))
        kwargs = {"sep": sep, "encoding": encoding, "encoding_errors": "strict", "low_memory": False}
    dtypes: dict[str, str | None] = {}
    missing: dict[str, int] = {}
    padded: dict[str, int] = {}
    marks: dict[str, dict[str, int]] = {}
    picked: list[pd.DataFrame] = []
    rows = 0
    for chunk in _chunks(path, fmt, kwargs, chunk_rows, None):
        for c in chunk.columns:
            dtypes[str(c)] = _combine(dtypes.get(str(c)), str(chunk[c].dtype))
            missing[str(c)] = missing.get(str(c), 0) + int(chunk[c].isna().sum())
        _tally_text(chunk, padded, marks)
        mask = rng.random(len(chunk)) < share if share < 1 else np.ones(len(chunk), bool)
        picked.append(chunk[mask].set_axis(np.arange(rows, rows + len(chunk))[mask]))
        rows += len(chunk)
        if rows // 1_000_000 != (rows - len(chunk)) // 1_000_000 or len(chunk) < chunk_rows:
            progress(f"{ds.name}: read {rows:,} rows (exact counts, the file's types, the sample)")
    final = {c: (t if t in READ_TYPES else "object") for c, t in dtypes.items()} if fmt == "csv" else {}
    sample = pd.concat(picked) if picked else pd.DataFrame()
    if fmt == "csv" and any(str(p[c].dtype) != final[str(c)] for p in picked for c in p.columns):
        wanted = set(int(i) for i in sample.index)  # some chunk read a column another way: read the sample again with the file's types
        sample = pd.read_csv(path, dtype=final, skiprows=lambda i: i > 0 and (i - 1) not in wanted, **kwargs)
        sample.index = pd.Index(sorted(wanted))
    source = {"kind": fmt, "path": str(path), "kwargs": kwargs, "dtypes": final}
    table = RawTable(sample, rows, {c: str(t) for c, t in dtypes.items()}, missing, source, padded, marks)
    _CACHE.clear()
    _CACHE[key] = table
    return table


def _tally_text(chunk: pd.DataFrame, padded: dict[str, int], marks: dict[str, dict[str, int]]) -> None:
    """Count, in each text column of a chunk, the values with spaces around them and the placeholders."""
    from dsagent.workflows.clean.textvalues import PLACEHOLDERS

    for c in chunk.columns:
        s = chunk[c]
        if not (s.dtype == object or pd.api.types.is_string_dtype(s)):
            continue
        s = s.dropna() if pd.api.types.is_string_dtype(s) and s.dtype != object else s[s.map(lambda v: isinstance(v, str))]
        if s.empty:
            continue
        stripped = s.str.strip()
        padded[str(c)] = padded.get(str(c), 0) + int((stripped != s).sum())
        found = stripped[stripped.str.lower().isin(PLACEHOLDERS) | (stripped == "")]
        for value, n in found.value_counts().items():
            marks.setdefault(str(c), {})[str(value)] = marks.setdefault(str(c), {}).get(str(value), 0) + int(n)


def complete_findings(findings: list[dict[str, Any]], table: RawTable) -> list[dict[str, Any]]:
    """The sample's findings with what the whole file shows exactly: every column with values padded
    by spaces, and every placeholder of the file (a text column gets only those that cannot be a category)."""
    from dsagent.workflows.clean.detect import column_kinds
    from dsagent.workflows.clean.textvalues import TEXT_PLACEHOLDERS

    out = [dict(f, params=dict(f["params"])) for f in findings]
    kinds = column_kinds(out, table.sample)
    by = {(f["kind"], f["column"]): f for f in out}

    def add(kind: str, column: str, count: int, detail: str, **params: Any) -> None:
        out.append({"id": max([f["id"] for f in out], default=0) + 1, "kind": kind, "column": column, "count": count, "detail": detail, "params": params})

    for col, n in table.padded.items():
        if not n or col not in table.sample.columns:
            continue
        if ("whitespace", col) in by:
            by[("whitespace", col)].update(count=n, detail=f"{n} values with spaces around them (in the whole file)")
        else:
            add("whitespace", col, n, f"{n} values with spaces around them (in the whole file)")
    for col, values in table.placeholders.items():
        if col not in table.sample.columns:
            continue
        allowed = {v: k for v, k in values.items() if kinds.get(col) != "text" or v.strip().lower() in TEXT_PLACEHOLDERS or not v.strip()}
        if not allowed:
            continue
        shown = sorted(allowed)
        total = sum(allowed.values())
        detail = f"{total} placeholders for a missing value in the whole file: {', '.join(map(repr, shown[:6]))}"
        if ("placeholder", col) in by:
            f = by[("placeholder", col)]
            f["params"]["values"] = sorted(set(f["params"].get("values", [])) | set(shown))
            f.update(count=total, detail=detail)
        else:
            add("placeholder", col, total, detail, values=shown)
    return out


def _chunks(path: Path, fmt: str, kwargs: dict[str, Any], size: int, dtypes: dict[str, str] | None) -> Any:
    if fmt == "csv":
        yield from pd.read_csv(path, chunksize=size, dtype=dtypes, **kwargs)
        return
    import pyarrow.parquet as pq

    for batch in pq.ParquetFile(path).iter_batches(batch_size=size):
        yield batch.to_pandas()


def sample_note(name: str, table: RawTable) -> str:
    if len(table.sample) >= table.rows:
        return f"{name}: a file above big_file_mb, cleaned in chunks; findings from all {table.rows:,} rows."
    return (f"{name}: a file above big_file_mb, cleaned in chunks; findings (and the preview) from a random sample of "
            f"{len(table.sample):,} of its {table.rows:,} rows; rows and missing values per column as read are exact.")


def big_limits(settings: Any, paths: list[Any]) -> Any:
    """The settings a clean run on big files runs with: the sandbox may write files (and keep a
    folder) sized from the inputs, its memory limit unchanged; a UserError when the disk cannot hold them."""
    from dsagent.data.bigfile import is_big

    big_mb = sum(Path(p).stat().st_size / 2**20 for p in paths if isinstance(p, (str, Path)) and is_big(Path(p), settings.big_file_mb))
    if not big_mb:
        return settings
    workspace_mb = int(OUTPUT_FACTOR * big_mb) + 1024
    root = Path(settings.workspace_root).expanduser()
    probe = root if root.exists() else next((p for p in root.parents if p.exists()), Path("."))
    free_mb = shutil.disk_usage(probe).free / 2**20
    need_mb = workspace_mb + 1.5 * big_mb
    if free_mb < need_mb:
        raise UserError(f"cleaning {big_mb:,.0f} MB of files above big_file_mb needs about {need_mb / 1024:,.1f} GB free under "
                        f"{root.resolve()} (cleaned CSV and Parquet, the passes' files), and {free_mb / 1024:,.1f} GB is free: "
                        "free some space, or set workspace_root (DSAGENT_WORKSPACE_ROOT) to a larger disk.")
    return settings.model_copy(update={
        "sandbox_file_mb": max(settings.sandbox_file_mb, int(2 * big_mb) + 64),
        "sandbox_workspace_mb": max(settings.sandbox_workspace_mb, workspace_mb),
        "sandbox_wall_s": max(settings.sandbox_wall_s, 600.0)})


class BigRun:
    """The passes of one big table in the sandbox, driven from here one short cell at a time."""

    def __init__(self, ctx: Any, ds_id: str, name: str, table: RawTable, stem: str, say: Callable[[str], None]) -> None:
        self.ctx, self.ds_id, self.name, self.table, self.stem, self.say = ctx, ds_id, name, table, stem, say
        self.folder = f".clean_big/{ds_id}"
        self.passes = 0
        self.constants: dict[str, Any] = {}

    def _run(self, call: str) -> dict[str, Any]:
        run = self.ctx.sandbox.run(bigcell.cell(call))
        out = bigcell.parse(run.stdout) if run.success else None
        if out is None:
            raise _Failed(run.error or "a step of the chunked cleaner printed no result")
        return out

    def execute(self, steps: list[dict[str, Any]], custom: str | None, keep_cols: list[str], function: str | None = None) -> dict[str, Any]:
        setup = self.ctx.sandbox.run(bigcell.SOURCE)  # defines the helpers in the worker (kept between cells)
        if not setup.success:
            raise _Failed(setup.error or "the chunked cleaner's helpers did not load")
        src: dict[str, Any] = dict(self.table.source)
        if function is not None:
            steps = []
        pending: list[dict[str, Any]] = []
        view: dict[str, Any] = {}  # what DuckDB applies to the parts before a figure: the repeated rows to drop
        trace: list[dict[str, Any]] = []
        rows = self.table.rows
        for step in steps:
            kind = step["kind"]
            if kind == "drop_duplicates" or kind in STATS_KINDS:
                if src["kind"] != "parts" or any(s["kind"] not in SQL_ABLE for s in pending) or (kind == "drop_duplicates" and pending):
                    done = self._pass(src, pending, view.get("drop_rows"), final=False)
                    trace += done["trace"]
                    rows = done["rows_out"]
                    src, pending, view = {"kind": "parts", "parts": done["parts"]}, [], {}
                query = {"parts": src["parts"], "drop": [c for s in pending if s["kind"] == "drop_columns" for c in s["params"]["columns"]],
                         "drop_rows": view.get("drop_rows"), "dropna": any(s["kind"] == "drop_missing_rows" for s in pending)}
                if kind == "drop_duplicates":
                    query["save"] = f"{self.folder}/repeats_{step['n']}.npy"
                    out = self._run(f"_b_stats('repeats', {query!r})")
                    trace.append({"step": step["n"], "rows": out["kept"], "rows_dropped": rows - out["kept"], "columns_dropped": [], "cells_changed": 0})
                    view["drop_rows"], rows = query["save"], out["kept"]
                    continue
                never = list(keep_cols) + [c for c in step["params"].get("keep", []) if c not in keep_cols]  # and code columns: never imputed
                out = self._run(f"_b_stats({STATS_KINDS[kind]!r}, {query!r}, {never!r}, {float(step['params'].get('threshold', 0.4))!r})")
                pending.append(self._fixed(step, out))
                continue
            pending.append(step)
        done = self._pass(src, pending, view.get("drop_rows"), final=True, custom=custom, function=function)
        trace += done["trace"]
        parquet = f"{self.stem}_cleaned.parquet"
        self._run(f"_b_finish({done['parts']!r}, {parquet!r}, [{self.folder!r}])")
        return {**done, "trace": sorted(trace, key=lambda t: t["step"]), "csv": f"{self.stem}_cleaned.csv", "parquet": parquet,
                "passes": self.passes, "constants": self.constants}

    def _fixed(self, step: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
        """The step with the whole table's figure written in as a literal."""
        kind, fixed = step["kind"], dict(step)
        if kind == "drop_sparse_columns":
            fixed.update(kind="drop_columns", params={"columns": out["sparse"]})
            self.constants[f"step {step['n']}: columns over the missing share"] = out["sparse"]
        elif kind == "impute":
            fixed.update(kind="impute_values", params={"values": out["values"]})
            self.constants[f"step {step['n']}: values imputed"] = out["values"]
        else:
            fixed.update(kind="drop_outliers_bounds", params={"bounds": {c: tuple(b) for c, b in out["bounds"].items()}})
            self.constants[f"step {step['n']}: bounds kept"] = out["bounds"]
        return fixed

    def _pass(self, src: dict[str, Any], steps: list[dict[str, Any]], drop_rows: str | None, final: bool, custom: str | None = None,
              function: str | None = None) -> dict[str, Any]:
        self.passes += 1
        source = function or snippets.build_function(steps, custom if final else None, trace=True)
        spec = {"function": source, "source": src, "drop_rows": drop_rows, "chunk_rows": self.ctx.settings.clean_chunk_rows,
                "out_dir": f"{self.folder}/pass_{self.passes}", "csv": f"{self.stem}_cleaned.csv" if final else None}
        self._run(f"globals().__setitem__('_b_pass', _BigPass({spec!r})) or {{}}")
        while True:
            status = self._run(f"_b_pass.work({CELL_SECONDS!r})")
            self.say(f"{self.name}: pass {self.passes}: {status['rows_in']:,} of {self.table.rows:,} rows cleaned")
            if status["done"]:
                break
        done = self._run("_b_pass.result()")
        if src["kind"] == "parts" and src["parts"]:  # the previous pass's parts are no longer needed
            self._run(f"_bshutil.rmtree({str(Path(src['parts'][0]).parent)!r}, ignore_errors=True) or {{}}")
        return done


class _Failed(Exception):
    pass


def clean_table(ctx: Any, ds_id: str, name: str, table: RawTable, plain: list[dict[str, Any]], steps: list[dict[str, Any]],
                custom: str | None, keep_cols: list[str], stem: str, duplicates: int, function: str | None,
                say: Callable[[str], None]) -> tuple[dict[str, Any] | None, list[str], list[str], str | None]:
    """Clean a big table in the sandbox, take its files out and check them by DuckDB:
    (the cleaned table's entry, guard problems, check lines, None) or (None, [], [], the error).
    ``function``: a data_cleaner the fix node rewrote, run as it is on each chunk in one pass."""
    from dsagent.workflows.clean import bigcheck, execute

    run = BigRun(ctx, ds_id, name, table, stem, say)
    try:
        info = run.execute(plain, custom, keep_cols, function)
    except _Failed as exc:
        return None, [], [], str(exc).strip()
    paths = execute.collect(ctx.sandbox, {"csv": info["csv"], "parquet": info["parquet"]}, ctx.settings.sandbox_file_mb * 2**20)
    ctx.sandbox.run(bigcell.cell(f"[_bos.remove(p) for p in {[info['csv'], info['parquet']]!r} if _bos.path.exists(p)]"))  # the disk they took
    if "csv" not in paths or "parquet" not in paths:
        return None, [], [], "the cleaned CSV or Parquet could not be taken from the sandbox (missing, a link, or too large)"
    say(f"{name}: checking the cleaned table by DuckDB")
    checked = bigcheck.CleanedTable(paths["parquet"], ctx.workspace / ".clean" / "duckdb", ctx.settings.duckdb_threads)
    try:
        comparison = bigcheck.compare(checked, list(table.dtypes), table.missing, table.dtypes, table.rows, info["dtypes"])
        ok, failed = bigcheck.verify(checked, plain)
    finally:
        checked.close()
    problems = execute.guards(comparison, steps, info["trace"], ctx.settings.clean_max_drop_share, duplicates) + [f"check failed: {f}" for f in failed]
    out = {"csv": paths["csv"], "parquet": paths["parquet"], "rows": comparison["rows_cleaned"], "columns": comparison["columns_cleaned"],
           "dtypes": info["dtypes"], "trace": info["trace"], "comparison": comparison, "parquet_error": info["parquet_error"],
           "big": {"rows_raw": table.rows, "sample_rows": len(table.sample), "chunk_rows": ctx.settings.clean_chunk_rows,
                   "passes": info["passes"], "constants": info["constants"]}}
    return out, problems, ok + failed, None
