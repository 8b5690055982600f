"""The sandbox side of cleaning a file above ``big_file_mb``: vetted source run in the worker.

:data:`SOURCE` defines, in the worker's namespace, :class:`_BigPass` (one pass over the table in
chunks: read a chunk, run a ``data_cleaner`` on it, write the result as one Parquet part, and in
the last pass append it to the cleaned CSV) and the DuckDB helpers that work on the parts without
loading them: the table-wide figures a step needs (missing shares, imputation values, outlier
bounds), the first row of each group of equal rows (for dropping duplicates across chunks), and
the final Parquet. The parent (bigpath.py) sends one short cell per piece of work, so no cell runs
long, and shows the rows done between cells.

Every chunk keeps its raw row numbers (the ``__dsagent_row`` column of the parts), so the order of
the output is the file's, and duplicates are matched across chunk boundaries.
"""

from __future__ import annotations

import json
from typing import Any

ROW = "__dsagent_row"

SOURCE = r'''
import json as _bj, os as _bos, shutil as _bshutil, time as _btime
import numpy as _bnp
import pandas as _bpd

_B_ROW = "__dsagent_row"
_B_NUMERIC = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE")


def _b_connect():
    """The worker's own DuckDB connection (duck.Tables: made before the worker was confined, held to
    its memory limit, spilling into .tmp/duckdb): a connection opened in a cell would meet the
    address-space limit. Not closed here; insertion order is not kept, so outputs sort by row."""
    return sql.__self__.con


def _b_q(name):
    return '"' + str(name).replace('"', '""') + '"'


def _b_parts_sql(parts):
    return "read_parquet([" + ", ".join("'" + p.replace("'", "''") + "'" for p in parts) + "], union_by_name = true)"


def _b_table(con, src):
    """A view ``_b_t`` of the parts as the step sees them: columns dropped, duplicates dropped, rows without missing values."""
    con.execute(f"create or replace temp view _b_all as select * from {_b_parts_sql(src['parts'])}")
    cols = [r[0] for r in con.execute("describe _b_all").fetchall() if r[0] != _B_ROW and r[0] not in src.get("drop", [])]
    where = []
    if src.get("drop_rows"):  # the repeats of earlier rows: few, so the filter is a small hash table
        con.register("_b_drop", _bpd.DataFrame({"r": _bnp.load(src["drop_rows"])}))
        where.append(f"{_B_ROW} not in (select r from _b_drop)")
    if src.get("dropna"):
        where += [f"{_b_q(c)} is not null" for c in cols]
    cond = (" where " + " and ".join(where)) if where else ""
    con.execute(f"create or replace temp view _b_t as select {', '.join([_B_ROW] + [_b_q(c) for c in cols])} from _b_all{cond}")
    return {r[0]: r[1] for r in con.execute("describe _b_t").fetchall() if r[0] != _B_ROW}


def _b_stats(kind, src, keep_cols=(), threshold=0.4):
    """Table-wide figures over the parts, the way the pandas step would compute them on the whole table."""
    con = _b_connect()
    try:
        types = _b_table(con, src)
        out = {"rows": con.execute("select count(*) from _b_t").fetchone()[0]}
        numeric = [c for c, t in types.items() if t in _B_NUMERIC or t.startswith("DECIMAL")]
        if kind == "missing_share":
            rows = max(out["rows"], 1)
            counts = con.execute("select " + ", ".join(f"count({_b_q(c)})" for c in types) + " from _b_t").fetchone() if types else ()
            out["sparse"] = [c for c, n in zip(types, counts) if c not in keep_cols and (out["rows"] - n) / rows > threshold] if out["rows"] else []
        elif kind == "impute":
            values = {}
            for c, t in types.items():
                if c in keep_cols:
                    continue
                present, total = con.execute(f"select count({_b_q(c)}), count(*) from _b_t").fetchone()
                if present == total or present == 0 or t.startswith("TIMESTAMP") or t == "DATE" or t == "BOOLEAN":
                    continue
                if c in numeric:
                    mean, whole = con.execute(f"select favg({_b_q(c)}::double), bool_and({_b_q(c)}::double % 1 = 0) from _b_t").fetchone()
                    values[c] = round(mean) if whole else float(mean)
                else:
                    values[c] = con.execute(f"select {_b_q(c)} from _b_t where {_b_q(c)} is not null group by 1 order by count(*) desc, 1 limit 1").fetchone()[0]
            out["values"] = values
        elif kind == "outliers":
            bounds = {}
            for c in numeric:
                if c in keep_cols:
                    continue
                q1, q3 = con.execute(f"select quantile_cont({_b_q(c)}, 0.25), quantile_cont({_b_q(c)}, 0.75) from _b_t").fetchone()
                if q1 is not None and q3 is not None:
                    bounds[c] = [float(q1) - 3 * (float(q3) - float(q1)), float(q3) + 3 * (float(q3) - float(q1))]
            out["bounds"] = bounds
        elif kind == "repeats":  # rows equal to an earlier row anywhere in the table: drop_duplicates across chunks
            cols = ", ".join(_b_q(c) for c in types)
            # rows whose hash is shared are the only candidates (few); pandas then compares them exactly
            cand = con.execute(f"select {_B_ROW}, {cols} from _b_t where hash({cols}) in "
                               f"(select hash({cols}) from _b_t group by 1 having count(*) > 1) order by {_B_ROW}").df()
            repeats = cand.loc[cand.drop(columns=[_B_ROW]).duplicated(), _B_ROW].to_numpy(dtype="int64")
            _bnp.save(src["save"], _bnp.sort(repeats))
            out["kept"] = int(out["rows"] - len(repeats))
        return out
    finally:
        con.execute("drop view if exists _b_t")
        if src.get("drop_rows"):
            con.unregister("_b_drop")


def _b_write_part(frame, path):
    try:
        frame.to_parquet(path, index=False)
        return None
    except Exception as exc:  # a column of mixed types: written as text, as the pandas path does
        frame.astype({c: str for c in frame.columns if frame[c].dtype == object and c != _B_ROW}).to_parquet(path, index=False)
        return type(exc).__name__ + ": " + str(exc)


class _BigPass:
    """One pass over the table: chunks in, ``data_cleaner`` on each, Parquet parts (and the CSV) out."""

    def __init__(self, spec):
        self.spec = spec
        self.ns = {"_CLEAN_TRACE": []}
        exec(compile(spec["function"], "<data_cleaner>", "exec"), self.ns)
        self.fn = self.ns["data_cleaner"]
        self.drop_rows = _bnp.load(spec["drop_rows"]) if spec.get("drop_rows") else None
        self.reader = self._chunks()
        self.parts, self.trace = [], {}
        self.rows_in = self.rows_out = 0
        self.done, self.aligned, self.parquet_error, self.dtypes, self.columns = False, True, None, {}, None
        _bos.makedirs(spec["out_dir"], exist_ok=True)

    def _chunks(self):
        src, size = self.spec["source"], int(self.spec["chunk_rows"])
        offset = 0
        if src["kind"] == "csv":
            for chunk in _bpd.read_csv(src["path"], chunksize=size, dtype=src["dtypes"], **src["kwargs"]):
                chunk.index = _bpd.RangeIndex(offset, offset + len(chunk))
                offset += len(chunk)
                yield chunk
        elif src["kind"] == "parquet":
            import pyarrow.parquet as _bpq
            for batch in _bpq.ParquetFile(src["path"]).iter_batches(batch_size=size):
                chunk = batch.to_pandas()
                chunk.index = _bpd.RangeIndex(offset, offset + len(chunk))
                offset += len(chunk)
                yield chunk
        else:
            for path in src["parts"]:
                chunk = _bpd.read_parquet(path)
                chunk.index = _bpd.Index(chunk.pop(_B_ROW).to_numpy(dtype="int64"))
                yield chunk

    def work(self, seconds):
        started = _btime.monotonic()
        while not self.done and _btime.monotonic() - started < seconds:
            chunk = next(self.reader, None)
            if chunk is None:
                self.done = True
                break
            self.rows_in += len(chunk)
            if self.drop_rows is not None and len(self.drop_rows):
                chunk = chunk[~_bnp.isin(chunk.index.to_numpy(), self.drop_rows)]
            self.ns["_CLEAN_TRACE"] = []
            out = self.fn(chunk)
            if not isinstance(out, _bpd.DataFrame):
                raise TypeError("data_cleaner must return a pandas DataFrame, got " + type(out).__name__)
            for t in self.ns["_CLEAN_TRACE"]:
                acc = self.trace.setdefault(t["step"], {"step": t["step"], "rows": 0, "rows_dropped": 0, "columns_dropped": [], "cells_changed": 0})
                acc["rows"] += t["rows"]
                acc["rows_dropped"] += t["rows_dropped"]
                acc["cells_changed"] += t["cells_changed"]
                acc["columns_dropped"] = sorted(set(acc["columns_dropped"]) | set(t["columns_dropped"]))
            idx = out.index
            if not (idx.is_unique and _bpd.api.types.is_integer_dtype(idx) and bool(idx.isin(chunk.index).all())):
                self.aligned = False  # custom code renumbered the rows: keep the chunk's order
                idx = _bpd.Index(chunk.index.to_numpy()[:1].repeat(len(out)) if len(chunk) else _bnp.zeros(len(out), "int64"))
            part = out.reset_index(drop=True)
            part[_B_ROW] = idx.to_numpy(dtype="int64")
            path = _bos.path.join(self.spec["out_dir"], f"part_{len(self.parts):06d}.parquet")
            self.parquet_error = _b_write_part(part, path) or self.parquet_error
            self.parts.append(path)
            if self.spec.get("csv"):
                out.to_csv(self.spec["csv"], index=False, mode="a" if self.rows_out or self.columns is not None else "w", header=self.columns is None)
            self.columns = [str(c) for c in out.columns]
            self.dtypes.update({str(c): str(t) for c, t in out.dtypes.items() if out[c].notna().any() or str(c) not in self.dtypes})
            self.rows_out += len(out)
        return {"done": self.done, "rows_in": self.rows_in, "rows_out": self.rows_out}

    def result(self):
        return {"parts": self.parts, "rows_in": self.rows_in, "rows_out": self.rows_out, "trace": sorted(self.trace.values(), key=lambda t: t["step"]),
                "columns": self.columns, "dtypes": self.dtypes, "aligned": self.aligned, "parquet_error": self.parquet_error}


def _b_finish(parts, parquet, remove):
    """The cleaned Parquet from the last pass's parts (in the file's order), then the parts removed."""
    target = "'" + parquet.replace("'", "''") + "'"
    _b_connect().execute(f"copy (select * exclude ({_B_ROW}) from {_b_parts_sql(parts)} order by {_B_ROW}) to {target} (format parquet)")
    for folder in remove:
        _bshutil.rmtree(folder, ignore_errors=True)
    return {"parquet": parquet}
'''


def cell(call: str) -> str:
    """A cell that runs ``call`` (an expression over the names :data:`SOURCE` defines) and prints its JSON."""
    return f"import json as _bj\n_b_out = {call}\nprint('BIG_CLEAN ' + _bj.dumps(_b_out, default=str))\n"


def parse(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith("BIG_CLEAN "):
            return json.loads(line[len("BIG_CLEAN "):])
    return None
