"""Files above ``big_file_mb``: described by DuckDB, never loaded into pandas.

A CSV, Parquet or JSON file larger than the setting is not read into a DataFrame, here or in the
sandbox: the sandbox's DuckDB scans it where it lies (see ``dsagent.sandbox.duck``). What the
profile needs comes from DuckDB, exact where it is cheap and from a sample where it is not:

- rows: exact (Parquet: from its metadata; CSV and JSON: one counting scan, ~7 s for 5.7 GB, up to
  :data:`COUNT_MAX_MB`; a larger file's count is estimated and said to be);
- Parquet min, max and missing counts: exact (DuckDB answers them from the row-group statistics);
- everything else (missing counts of a CSV, unique counts, means, top values, examples): from the
  :data:`SAMPLE_ROWS` rows read first (from the file's first blocks, not a random sample), a DataFrame of that size that the profile reads as usual.

The profile's header says which is which. Excel workbooks stay with pandas whatever their size
(DuckDB does not read them without an extension).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from dsagent.data.loaders import JSON_EXTENSIONS, JSONL_EXTENSIONS, PARQUET_EXTENSIONS, TEXT_EXTENSIONS, detect_encoding, sniff_delimiter
from dsagent.data.textnumbers import MISSING_MARK, numbers_from_text, shapes_of, written_pattern
from dsagent.errors import UserError
from dsagent.sandbox.duck import FileScan, connect, quote_name, scan_sql

SAMPLE_ROWS = 100_000
"""Rows read from the start of a big file for the sampled figures of its profile."""
COUNT_MAX_MB = 20_000
"""A CSV or JSON file up to this size is counted exactly (a scan: ~7 s for 5.7 GB on two cores);
a larger one's row count is estimated from the bytes per line of its first MB, and says so."""
PROFILE_MEMORY_MB = 512
"""DuckDB's memory limit in dsagent's own process while it profiles a big file."""
_LATIN = ("latin-1", "latin_1", "iso-8859-1", "iso8859-1", "cp1252", "windows-1252")


@dataclass
class BigFile:
    """What dsagent knows of a file it does not load: how to scan it and its exact figures."""

    scan: FileScan
    rows: int
    exact: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per column, the figures DuckDB gave exactly (``low``, ``high``, ``missing``)."""
    sample_rows: int = 0
    rows_exact: bool = True
    read_options: dict[str, Any] = field(default_factory=dict)
    """What was read differently from the file's text, as the pandas loader records it
    (``numbers_from_text``, ``missing_marks``): the profile and the reports name it."""


def file_format(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in TEXT_EXTENSIONS:
        return "csv"
    if suffix in PARQUET_EXTENSIONS:
        return "parquet"
    if suffix in JSON_EXTENSIONS or suffix in JSONL_EXTENSIONS:
        return "json"
    return None


def is_big(path: Path, big_file_mb: float) -> bool:
    """A regular file DuckDB reads (CSV, Parquet, JSON) above ``big_file_mb``."""
    try:
        return path.is_file() and file_format(path) is not None and path.stat().st_size > big_file_mb * 1024 * 1024
    except OSError:
        return False


def _csv_options(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        head = fh.read(1 << 20)
    encoding = detect_encoding(path.name, head).lower().replace("_", "-")
    options: dict[str, Any] = {"delim": "\t" if path.suffix.lower() in (".tsv", ".tab") else sniff_delimiter(head.decode(encoding, errors="ignore"))}
    if encoding.replace("-", "_") in {e.replace("-", "_") for e in _LATIN}:
        options["encoding"] = "latin-1"
    elif encoding not in ("utf-8", "utf-8-sig", "ascii"):
        raise UserError(f"{path.name}: a file this large is read by DuckDB, which does not read the {encoding} encoding. "
                        f"Convert it to UTF-8 (iconv -f {encoding} -t utf-8), or raise big_file_mb to load it into pandas.")
    return options


def open_big(path: Path, threads: int = 0) -> tuple[pd.DataFrame, BigFile]:
    """The sample DataFrame and the :class:`BigFile` of ``path``, or :class:`UserError`."""
    import duckdb

    fmt = file_format(path)
    assert fmt is not None
    scan = FileScan(str(path.resolve()), fmt, _csv_options(path) if fmt == "csv" else {}, round(path.stat().st_size / 2**20, 1))
    con = connect(PROFILE_MEMORY_MB, threads)
    try:
        con.execute(f"create view t as select * from {scan_sql(scan)}")
        sample = con.sql(f"select * from t limit {SAMPLE_ROWS}").df()
        numbers, read_options = _text_numbers(con, sample, whole=len(sample) < SAMPLE_ROWS)
        if numbers:
            scan = replace(scan, numbers=numbers)
            con.execute(f"create or replace view t as select * from {scan_sql(scan)}")
        columns = [str(c) for c in sample.columns]
        exact: dict[str, dict[str, Any]] = {}
        if fmt == "parquet":  # min, max and missing counts come from the row-group statistics
            parts = ", ".join(f"min({quote_name(c)}), max({quote_name(c)}), count(*) - count({quote_name(c)})" for c in columns)
            row = con.execute(f"select count(*), {parts} from t").fetchall()[0]
            rows = int(row[0])
            for i, name in enumerate(columns):
                exact[name] = {"low": row[1 + 3 * i], "high": row[2 + 3 * i], "missing": int(row[3 + 3 * i])}
        elif len(sample) < SAMPLE_ROWS:
            rows = len(sample)
        elif path.stat().st_size <= COUNT_MAX_MB * 2**20:
            rows = int(con.execute("select count(*) from t").fetchall()[0][0])
        else:
            rows = None
    except duckdb.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"{path.name}: DuckDB cannot read this {fmt.upper()} file ({first}). Check the file, "
                        "or raise big_file_mb to read it with pandas.") from None
    finally:
        con.close()
    if len(sample) == 0:
        raise UserError(f"{path.name}: the file has no rows (only a header or an empty table).")
    scan = replace(scan, rows=rows)
    if rows is None:
        return sample, BigFile(scan, _estimate_rows(path), exact, len(sample), rows_exact=False, read_options=read_options)
    return sample, BigFile(scan, rows, exact, len(sample), read_options=read_options)


def _text_numbers(con: Any, sample: pd.DataFrame, whole: bool) -> tuple[dict[str, str], dict[str, Any]]:
    """The text columns to read as numbers, as the pandas loader reads them (``data.textnumbers``:
    "4,749", "57.3 %", ".." for missing), converted in ``sample`` in place: column -> shape, and the
    read options that record them. The sample decides which columns may be; when the sample is not
    the whole file, one scan of the view ``t`` keeps only those whose every value has the shape, so
    no value becomes NULL by a shape the sample did not show."""
    trial = sample.copy()
    converted, marked = numbers_from_text(trial)
    shapes = shapes_of(converted, marked)
    if shapes and not whole:
        counts = ", ".join(f"count(*) filter (where {quote_name(name)} is not null and trim({quote_name(name)}) <> '{MISSING_MARK}' "
                           f"and not regexp_full_match(trim({quote_name(name)}), '{written_pattern(shape)}'))"
                           for name, shape in shapes.items())
        others = con.execute(f"select {counts} from t").fetchall()[0]
        shapes = {name: shape for (name, shape), other in zip(shapes.items(), others) if not other}
    for name in shapes:
        sample[name] = trial[name]
    options: dict[str, Any] = {}
    if kept := {name: shown for name, shown in converted.items() if name in shapes}:
        options["numbers_from_text"] = kept
    if kept := {name: mark for name, mark in marked.items() if name in shapes}:
        options["missing_marks"] = kept
    return shapes, options


def _estimate_rows(path: Path) -> int:
    """Lines in the file, from the bytes per line of its first MB."""
    with path.open("rb") as fh:
        head = fh.read(1 << 20)
    lines = max(head.count(b"\n"), 1)
    return int(path.stat().st_size * lines / max(len(head), 1))


def header_note(big: BigFile) -> str:
    """What the profile header says about where its figures come from."""
    where = "Parquet metadata" if big.scan.format == "parquet" else "a counting scan"
    exact = "rows, min, max and missing exact" if big.exact else "rows exact"
    if not big.rows_exact:
        where, exact = "the bytes per line of its first MB", "rows estimated"
    sampled = (f"other figures from a {big.sample_rows:,}-row sample of its first blocks" if big.sample_rows < big.rows
               else "other figures from all rows")
    return (f"a {big.scan.size_mb:,.0f} MB {big.scan.format.upper()} file NOT loaded into pandas, a DuckDB SQL table for sql(); "
            f"{exact} ({where}), {sampled}")
