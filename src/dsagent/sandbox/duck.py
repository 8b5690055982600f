"""DuckDB in the sandbox: every dataset is also a SQL table, and ``sql(query) -> DataFrame``.

The worker registers each pandas dataset with an in-memory DuckDB connection under its dataset id
(and ``df`` when there is one dataset: the same names the code sees as variables). A file above
the setting ``big_file_mb`` never reaches pandas: the parent hands the worker a :class:`FileScan`
(path, format, reader options) and the worker makes it a view over ``read_csv`` / ``read_parquet``
/ ``read_json``, so DuckDB scans the user's file where it lies (Landlock lets the worker read the
session's source files and nothing else of the user's, and only read them). Its variable in the
namespace is a :class:`SqlTable`, which answers ``len``, ``columns``, ``dtypes``, ``shape`` and
``head`` by SQL and says "use sql()" for anything else a DataFrame has.

DuckDB is held well under the sandbox's memory limit (``memory_limit``), uses the ``threads`` of
the settings, and spills to ``.tmp/duckdb`` inside the code's own directory (the parent's
workspace limit counts it, so ``max_temp_directory_size`` keeps below that). The configuration is
locked after set-up: code cannot raise the memory limit.

This module is imported by the parent too (:class:`FileScan`, :func:`scan_sql`); duckdb itself is
imported only in the functions that need it.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

SQL_HINT = ("aggregate in SQL first (GROUP BY, WHERE, ORDER BY … LIMIT) with sql('select … from {name}') and "
            "bring only the small result into pandas")


@dataclass(frozen=True)
class FileScan:
    """A file DuckDB reads where it lies instead of a DataFrame (a dataset above ``big_file_mb``)."""

    path: str
    """Absolute path of the user's file (read-only; never copied)."""
    format: str
    """csv, parquet or json."""
    options: dict[str, Any] = field(default_factory=dict)
    """Reader options (``delim``, ``encoding`` for CSV), as dsagent sniffed them."""
    size_mb: float = 0.0
    rows: int | None = None
    """Row count when known (Parquet metadata), else None."""
    numbers: dict[str, str] = field(default_factory=dict)
    """Text columns read as numbers (``data.textnumbers``: every value in the file has the shape):
    column -> "thousands" ("4,749"), "percent" ("57.3 %") or "number" (numbers with ".." for missing)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


def scan_sql(scan: FileScan | dict[str, Any]) -> str:
    """The table function that reads the file: ``read_csv('/p/orders.csv', delim=',', …)``."""
    data = scan.to_json() if isinstance(scan, FileScan) else scan
    reader = {"csv": "read_csv", "parquet": "read_parquet", "json": "read_json_auto"}[data["format"]]
    options = "".join(f", {key}={_literal(value)}" for key, value in sorted((data.get("options") or {}).items()))
    read = f"{reader}({_literal(data['path'])}{options})"
    numbers = data.get("numbers") or {}
    if not numbers:
        return read
    replaced = ", ".join(f"{number_sql(name, shape)} as {quote_name(name)}" for name, shape in numbers.items())
    return f"(select * replace ({replaced}) from {read})"


_BLANKS = "[ \u00a0\u202f\u2009]"  # data.textnumbers.BLANKS (the sandbox may not import data; a test keeps them equal). RE2 knows no Unicode \s


def number_sql(name: str, shape: str) -> str:
    """The SQL that reads a text column of one number shape as DOUBLE: separators (commas, blanks)
    and the percent sign stripped, ".." (not available) as NULL. A plain CAST: a value of another shape fails
    loudly rather than becoming NULL (the shape was checked over the whole file first)."""
    text = f"trim({quote_name(name)})"
    bare = {"thousands": f"replace({text}, ',', '')", "percent": f"regexp_replace({text}, '[,%\\s]', '', 'g')",
            "spaced": f"regexp_replace({text}, '{_BLANKS}', '', 'g')"}.get(shape, text)
    return f"cast(nullif({bare}, '..') as double)"


def options_from_settings(settings: Any) -> dict[str, Any]:
    """The worker's DuckDB limits: memory ``duckdb_memory_mb`` (0: 40% of the sandbox's memory
    limit, leaving the rest to Python, pandas and the results), ``duckdb_threads``, spill files up
    to half the workspace limit but no more than one file may grow to, and ``duckdb_max_rows``."""
    memory_mb = settings.duckdb_memory_mb or max(settings.sandbox_memory_mb * 2 // 5, 64)
    return {"memory_mb": min(memory_mb, settings.sandbox_memory_mb), "threads": settings.duckdb_threads,
            "temp_mb": min(settings.sandbox_workspace_mb // 2, settings.sandbox_file_mb),
            "max_rows": settings.duckdb_max_rows}


def quote_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def connect(memory_mb: int, threads: int, temp_dir: Path | None = None, temp_mb: int | None = None) -> Any:
    """An in-memory DuckDB connection held to ``memory_mb`` and ``threads`` (0: DuckDB's default,
    all cores), spilling into ``temp_dir`` (at most ``temp_mb``)."""
    import duckdb

    config: dict[str, Any] = {"memory_limit": f"{max(int(memory_mb), 16)}MB",
                              "autoinstall_known_extensions": False}
    # Always set: left unset, DuckDB reads the cgroup's CPU quota, which a confined worker may not.
    config["threads"] = int(threads) or os.cpu_count() or 1
    if temp_dir is not None:  # made by DuckDB when it first spills (as the worker's own uid)
        config["temp_directory"] = str(temp_dir)
        if temp_mb:
            config["max_temp_directory_size"] = f"{max(int(temp_mb), 1)}MB"
    config["preserve_insertion_order"] = False  # lets big scans stream instead of buffering for order
    con = duckdb.connect(":memory:", config=config)
    con.execute("set enable_progress_bar = false")
    return con


class SqlTable:
    """What the code sees for a dataset too big for pandas: a name for :func:`sql`, with the few
    DataFrame attributes that SQL answers cheaply. Anything else raises with the way to do it."""

    def __init__(self, name: str, tables: "Tables", scan: dict[str, Any]) -> None:
        self._name, self._tables, self._scan = name, tables, scan
        self._rows: int | None = scan.get("rows")

    def _relation(self) -> Any:
        return self._tables.con.sql(f"select * from {quote_name(self._name)}")

    @property
    def columns(self) -> Any:
        import pandas as pd

        return pd.Index(self._relation().columns)

    @property
    def dtypes(self) -> Any:
        import pandas as pd

        relation = self._relation()
        return pd.Series([str(t) for t in relation.types], index=relation.columns)

    def __len__(self) -> int:
        if self._rows is None:
            self._rows = int(self._tables.con.execute(f"select count(*) from {quote_name(self._name)}").fetchall()[0][0])
        return self._rows

    @property
    def shape(self) -> tuple[int, int]:
        return len(self), len(self.columns)

    def head(self, n: int = 5) -> Any:
        return self._relation().limit(int(n)).df()

    def __getitem__(self, key: Any) -> Any:
        raise TypeError(self.refusal(f"{self._name}[...]"))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(self.refusal(f".{name}"))

    def refusal(self, what: str) -> str:
        """Why ``what`` (a DataFrame method, a pandas reader) does not work here, and what does."""
        size = self._scan.get("size_mb") or 0
        return (f"'{self._name}' is a {size:,.0f} MB file that is not loaded into pandas, so {what} is not available: "
                + SQL_HINT.format(name=self._name) + ".")

    def __repr__(self) -> str:
        return f"<SQL table {self._name}: {self._scan.get('path')}; query it with sql()>"


class Tables:
    """The worker's DuckDB connection over the session's datasets. Made at start (before the
    worker is confined) when a big file needs it, else on the first :meth:`sql`: a session that
    never queries SQL does not pay for DuckDB."""

    def __init__(self, datasets: dict[str, Any], scans: dict[str, dict[str, Any]], options: dict[str, Any],
                 temp_dir: Path) -> None:
        self._datasets, self._scans, self._options, self._temp_dir = datasets, scans, options, temp_dir
        self._con: Any = None
        self.max_rows = int(options.get("max_rows", 1_000_000))
        self.big = {name: SqlTable(name, self, scan) for name, scan in scans.items()}
        """The namespace values of the big files, keyed by dataset id."""

    @property
    def con(self) -> Any:
        if self._con is None:
            options = self._options
            con = connect(options.get("memory_mb", 256), options.get("threads", 0), self._temp_dir, options.get("temp_mb"))
            for name, frame in self._datasets.items():
                con.register(name, frame)
            for name, scan in self._scans.items():
                con.execute(f"create view {quote_name(name)} as select * from {scan_sql(scan)}")
            names = [*self._datasets, *self._scans]
            if len(names) == 1 and names[0] != "df":  # the code's `df` is a table name too
                con.execute(f"create view df as select * from {quote_name(names[0])}")
            con.execute("set lock_configuration = true")
            self._con = con
        return self._con

    def sql(self, query: str) -> pd.DataFrame:
        """Run DuckDB SQL over the session's datasets (table names: the dataset ids, and ``df``
        for a lone dataset); returns a pandas DataFrame (empty for a statement without rows).
        A result of more than ``max_rows`` rows is refused: aggregate in SQL first."""
        import pandas as pd

        relation = self.con.sql(query)
        if relation is None:
            return pd.DataFrame()
        frame = relation.limit(self.max_rows + 1).df()
        if len(frame) > self.max_rows:
            raise ValueError(f"sql(): the result has more than {self.max_rows:,} rows, too many to bring into "
                             f"pandas; {SQL_HINT.format(name='<table>')}.")
        return frame
