"""``engine = "spark"``: the sandbox's ``sql()`` runs on Apache Spark, from the parent process.

The Spark driver (local mode: ``local[2]``, a cluster master URL) or the Spark Connect client
(``sc://host:15002``) lives in dsagent's process, never in the sandbox; the model's DuckDB SQL is
translated to Spark SQL by sqlglot (guard.py). The session's files become temporary views that Spark
reads where they lie; the tables of Spark's catalog are listed too. Only rows of a result, capped,
cross back to the sandbox.
"""

from __future__ import annotations

from pathlib import Path

from dsagent.errors import UserError
from dsagent.sources.engines import BoundedEngine
from dsagent.sources.fetch import Fetched, fetch_bounded

_FORMATS = {".csv": "csv", ".tsv": "csv", ".tab": "csv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet",
            ".json": "json", ".jsonl": "json", ".ndjson": "json", ".orc": "orc"}


def spark_format(path: Path) -> str | None:
    """The Spark reader for a file, or None when Spark cannot read it (Excel)."""
    return _FORMATS.get(path.suffix.lower())


class SparkEngine(BoundedEngine):
    """A Spark session (local, cluster or Spark Connect) with the session's files as views."""

    dialect = "spark"

    def __init__(self, url: str, files: dict[str, Path], max_bytes: int = 256 * 2**20) -> None:
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            raise UserError('engine = "spark" needs pyspark: install dsagent with the `spark` extra '
                            "(uv sync --extra spark, or pip install 'dsagent[spark]')") from None
        import warnings

        warnings.filterwarnings("ignore", message=".*does not yet fully support pandas", category=FutureWarning)
        builder = SparkSession.builder.appName("dsagent")
        if url.startswith("sc://"):
            builder = builder.remote(url)
            self.label = f"Spark Connect {url.split(';')[0]}"  # ;token=… parameters are not shown
        else:
            builder = (builder.master(url).config("spark.ui.enabled", "false")
                       .config("spark.sql.shuffle.partitions", "4").config("spark.sql.session.timeZone", "UTC")
                       .config("spark.ui.showConsoleProgress", "false"))
            self.label = f"Spark {url}"
        try:
            self.spark = builder.getOrCreate()
        except Exception as exc:  # noqa: BLE001 - no Java, a wrong URL: the user's to fix
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UserError(f"Spark could not start at {self.label} ({first}). Check spark_url and that Java 17+ is installed.") from None
        if not url.startswith("sc://"):
            self.spark.sparkContext.setLogLevel("ERROR")  # the JVM's WARN lines are not the user's business
        self.views: dict[str, Path] = {}
        self.max_bytes = max_bytes
        for name, path in files.items():
            self.add_file(name, path)

    def add_file(self, name: str, path: Path) -> None:
        fmt = spark_format(path)
        if fmt is None:
            raise UserError(f"{path.name}: Spark cannot read this file type; use CSV, Parquet, JSON or ORC with engine = \"spark\"")
        reader = self.spark.read
        if fmt == "csv":
            sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
            reader = reader.option("header", True).option("inferSchema", True).option("sep", sep)
        elif fmt == "json" and path.suffix.lower() == ".json":
            reader = reader.option("multiLine", True)  # a JSON array; .jsonl is one object per line
        reader.format(fmt).load(str(path.resolve())).createOrReplaceTempView(name)
        self.views[name] = path

    def fetch(self, sql: str, max_rows: int) -> Fetched:
        """At most ``max_rows`` rows within the byte budget, brought to the driver a partition at a
        time (``toLocalIterator``), never the whole result."""
        import itertools
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pyspark's own warnings about pandas 3, not the user's
            frame = self.spark.sql(sql).limit(max_rows + 1)
            rows = frame.toLocalIterator()
            return fetch_bounded(lambda n: list(itertools.islice(rows, n)), list(frame.columns), max_rows, self.max_bytes)

    def tables(self) -> list[str]:
        names = [t.name for t in self.spark.catalog.listTables()]
        return sorted(set(names) | set(self.views))

    def columns(self, table: str) -> list[tuple[str, str]]:
        return [(name, dtype) for name, dtype in self.spark.table(table).dtypes]

    def close(self) -> None:
        pass  # the session is shared by the process (getOrCreate); stopping it would break the next one
