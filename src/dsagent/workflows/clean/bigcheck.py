"""The checks of a big cleaned table by DuckDB aggregates over its Parquet: never loaded into pandas.

:func:`compare` gives what ``execute.compare`` gives (rows and columns kept, missing values per
column before → after, types), except the values changed per column, which the report then takes
from the steps' trace (cells changed per step, summed over the chunks). :func:`verify` checks each
finding the plan fixes on the whole cleaned table, as ``execute.verify`` does on a frame.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dsagent.sandbox.duck import connect, quote_name
from dsagent.workflows.clean import textvalues as tv

MEMORY_MB = 512
"""DuckDB's memory limit in dsagent's own process while it checks a cleaned table."""
_NUMERIC = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE", "DECIMAL")


def _lit(value: Any) -> str:
    return "'" + str(value).replace("'", "''") + "'"


class CleanedTable:
    """A DuckDB view ``t`` over the cleaned Parquet (read where it lies)."""

    def __init__(self, parquet: str, temp_dir: Path, threads: int = 0) -> None:
        temp_dir.parent.mkdir(parents=True, exist_ok=True)  # DuckDB makes only the last folder of its spill path
        self.con = connect(MEMORY_MB, threads, temp_dir, 4096)
        self.con.execute(f"create view t as select * from read_parquet({_lit(parquet)})")
        self.types = {r[0]: r[1] for r in self.con.execute("describe t").fetchall()}

    def one(self, sql: str) -> Any:
        return self.con.execute(sql).fetchone()[0]

    def close(self) -> None:
        self.con.close()


def compare(table: CleanedTable, raw_columns: list[str], raw_missing: dict[str, int], raw_dtypes: dict[str, str],
            rows_raw: int, dtypes: dict[str, str]) -> dict[str, Any]:
    raw_cols = [str(c).strip() for c in raw_columns]
    stripped_missing = {str(c).strip(): n for c, n in raw_missing.items()}
    stripped_types = {str(c).strip(): t for c, t in raw_dtypes.items()}
    cols = list(table.types)
    counts = table.con.execute("select count(*)" + "".join(f", count(*) - count({quote_name(c)})" for c in cols) + " from t").fetchone()
    out: dict[str, Any] = {"rows_raw": rows_raw, "rows_cleaned": int(counts[0]), "columns_raw": raw_cols, "columns_cleaned": cols,
                           "columns_dropped": [c for c in raw_cols if c not in cols], "columns_added": [c for c in cols if c not in raw_cols],
                           "changed": {}, "missing": {}, "big": True}
    for c, n in zip(cols, counts[1:]):
        out["missing"][c] = [stripped_missing.get(c), int(n)]
    out["types"] = {c: [stripped_types.get(c, ""), dtypes.get(c) or table.types[c]] for c in cols}
    return out


def verify(table: CleanedTable, steps: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Each finding the plan fixes, checked by SQL on the whole cleaned table: (passed, failed)."""
    ok, failed = [], []
    for step in steps:
        col, kind, params = step.get("column"), step["kind"], step.get("params") or {}
        if col is not None and col not in table.types:
            continue
        q = quote_name(col) if col is not None else ""
        kind_of = table.types.get(col, "") if col is not None else ""
        text = kind_of == "VARCHAR"
        problem = None
        if kind == "whitespace":
            n = table.one(f"select count(*) from t where regexp_matches({q}, '^\\s|\\s$')") if text else 0
            problem = f"{n} values still have spaces around them" if n else None
        elif kind == "placeholder":
            marks = ", ".join(_lit(v) for v in tv.PLACEHOLDERS)
            n = table.one(f"select count(*) from t where lower(trim({q})) in ({marks}) or trim({q}) = ''") if text else 0
            problem = f"{n} placeholders remain" if n else None
        elif kind == "number_text":
            problem = None if kind_of.startswith(_NUMERIC) else f"is {kind_of}, not numbers"
        elif kind == "date_text":
            iso = text and table.one(f"select count(*) from t where {q} is not null and not regexp_full_match({q}, '\\d{{4}}-\\d{{2}}-\\d{{2}}( 00:00:00)?')") == 0
            problem = None if kind_of.startswith(("TIMESTAMP", "DATE")) or iso else f"is {kind_of}, not dates"
        elif kind == "impossible" and kind_of.startswith(_NUMERIC):
            rule = params.get("rule")
            values = ", ".join(repr(float(v)) for v in params.get("values", [])) or "null"
            cond = f"{q} < 0" if rule == "negative" else f"{q} in ({values})" if rule == "codes" else f"{q} > 100"
            n = table.one(f"select count(*) from t where {cond}")
            problem = f"{n} impossible values remain" if n else None
        elif kind == "spelling":
            keys = ", ".join(_lit(k) for k in params.get("mapping", {})) or "null"
            n = table.one(f"select count(*) from t where {q} in ({keys})") if text else 0
            problem = f"{n} variant spellings remain" if n else None
        elif kind == "drop_duplicates":
            cols = ", ".join(quote_name(c) for c in table.types)
            n = table.one(f"select count(*) - (select count(*) from (select distinct {cols} from t)) from t")
            problem = f"{n} duplicate rows remain" if n else None
        else:
            continue
        line = f"step {step['n']} ({kind}{', ' + repr(col) if col else ''})"
        (failed if problem else ok).append(f"{line}: {problem}" if problem else f"{line}: verified (by SQL over every row)")
    return ok, failed
