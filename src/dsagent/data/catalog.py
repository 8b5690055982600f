"""The datasets of one run: each user file (or Excel sheet, or DataFrame) gets a stable code id."""

from __future__ import annotations

import keyword
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from dsagent.data.loaders import read_file
from dsagent.errors import UserError

if TYPE_CHECKING:
    from dsagent.data.bigfile import BigFile
    from dsagent.data.timeline import Timeline

DatasetInput = str | PathLike | pd.DataFrame


@dataclass
class Dataset:
    """One table the generated code can use as ``datasets[id]``."""

    id: str
    """Identifier-like slug, unique within a run: ``sales_2023``, ``book_sheet1``."""
    name: str
    """What the user calls it: ``sales.csv``, ``book.xlsx[Sheet1]``."""
    source_path: Path | None
    """The file it was read from (never written); None for a DataFrame passed in."""
    frame: pd.DataFrame
    """The table; for a file above ``big_file_mb`` only its first rows (see ``big``)."""
    sheet: str | None = None
    read_options: dict = field(default_factory=dict)
    """How the file was read (encoding, delimiter, sheet), so code can re-read it the same way."""
    table: Any = None
    """A database (or Spark) table (dsagent.sources.tables.TableInfo): then ``frame`` holds only its
    first rows, the sandbox does not get it, and code reads the table with ``sql()``."""
    big: BigFile | None = None
    """Set for a file above ``big_file_mb``: not loaded into pandas; the sandbox's DuckDB scans it."""

    @property
    def rows(self) -> int:
        """Rows of the data: the table's count for a database table, the scan's for a big file, else the frame's."""
        if self.table is not None and self.table.rows is not None:
            return int(self.table.rows)
        return self.big.rows if self.big is not None else len(self.frame)

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.frame.shape[1]

    @cached_property
    def timeline(self) -> "Timeline | None":
        """The table's date column and what its dates say (``data.timeline``), read once: the
        profile, the mends and the sanity checks all ask. None for a database table or a big file
        (``frame`` holds only their first rows) and for a table without dates."""
        if self.table is not None or self.big is not None:
            return None
        from dsagent.data.timeline import timeline

        return timeline(self.frame)


def slugify(text: str, fallback: str = "data") -> str:
    """``"Sales 2023 (final)"`` -> ``sales_2023_final``; always a valid, non-keyword identifier."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^0-9a-zA-Z]+", "_", ascii_text).strip("_").lower()
    if not slug:
        slug = fallback
    if slug[0].isdigit():
        slug = f"{fallback}_{slug}"
    if keyword.iskeyword(slug):
        slug = f"{slug}_"
    return slug


def load_datasets(inputs: Iterable[DatasetInput] | Mapping[str, DatasetInput] | DatasetInput,
                  big_file_mb: float | None = None, threads: int | None = None) -> dict[str, Dataset]:
    """Load every input (paths and/or DataFrames, or a mapping name -> either) keyed by dataset id.

    Each file is one dataset, except Excel workbooks: one per non-empty sheet. A CSV, Parquet or
    JSON file above ``big_file_mb`` (default: the setting) is not loaded: DuckDB describes it
    (``Dataset.big``). Raises :class:`UserError` naming the file and the fix when one cannot be read.
    """
    if big_file_mb is None or threads is None:
        from dsagent.config import load_settings

        settings = load_settings()
        big_file_mb = settings.big_file_mb if big_file_mb is None else big_file_mb
        threads = settings.duckdb_threads if threads is None else threads
    if isinstance(inputs, (str, PathLike, pd.DataFrame)):
        inputs = [inputs]
    if isinstance(inputs, Mapping):
        items = [(str(key), value) for key, value in inputs.items()]
    else:
        items = [(None, value) for value in inputs]
    if not items:
        raise UserError("No data files given. Pass at least one CSV, Excel, Parquet or JSON file.")

    datasets: dict[str, Dataset] = {}
    for label, value in items:
        if isinstance(value, pd.DataFrame):
            slug = _unique(datasets, slugify(label or "df", "df"))
            _add(datasets, Dataset(slug, label or slug, None, value))
            continue
        if not isinstance(value, (str, PathLike)):
            raise UserError(f"Cannot load {type(value).__name__} as data: pass a file path or a pandas DataFrame.")
        path = Path(value).expanduser()
        from dsagent.data.bigfile import is_big, open_big

        if is_big(path, big_file_mb):
            sample, big = open_big(path, threads)
            slug = _unique(datasets, slugify(label or path.stem))
            _add(datasets, Dataset(slug, label or path.name, path, sample, big=big, read_options=big.read_options))
            continue
        loaded = read_file(path)
        base = label or path.stem
        for part in loaded:
            multi = part.sheet is not None and (label is None or len(loaded) > 1)
            slug = slugify(f"{base}_{part.sheet}" if multi else base)
            display = label or path.name
            if part.sheet is not None:
                display = f"{display}[{part.sheet}]"
            ds = Dataset(_unique(datasets, slug), display, path, part.frame, part.sheet, part.read_options)
            _add(datasets, ds)
    return datasets


def _unique(taken: Mapping[str, Dataset], slug: str) -> str:
    if slug not in taken:
        return slug
    n = 2
    while f"{slug}_{n}" in taken:
        n += 1
    return f"{slug}_{n}"


def _add(datasets: dict[str, Dataset], ds: Dataset) -> None:
    # Column labels must be strings for the profile and for code like df["col"].
    if not all(isinstance(c, str) for c in ds.frame.columns):
        ds.frame = ds.frame.rename(columns=lambda c: str(c))
    datasets[ds.id] = ds
