"""In the worker: ``pd.read_csv('sales.csv')`` of a file the session loaded returns that dataset.

Generated code often reads the user's file by its name although the data is already loaded
(MODEL-NOTES: 3 of 45 failures; in our runs about half of the first codes). The name does not
exist in the workspace, so the run failed and a model call went on the fix. Here a pandas reader
given a path that does not exist, whose file name is one the session loaded, returns a copy of the
loaded frame — the same table, read with the options dsagent sniffed (encoding, delimiter, sheet).
Options that change which rows or columns come back, or how they are parsed, are applied
(``usecols``, ``nrows``, ``index_col``, ``parse_dates``); any other option is ignored. A path that
exists is read as asked, and an unknown name still fails with the "already loaded" hint.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

READERS = ("read_csv", "read_table", "read_excel", "read_parquet", "read_json")
_PATH_KEYWORDS = ("filepath_or_buffer", "io", "path", "path_or_buf")
"""What the readers call their first parameter, for code that passes the path by keyword."""


def install(pd: Any, datasets: Mapping[str, Any], sources: Sequence[Mapping[str, Any]]) -> None:
    """Wrap pandas' readers; ``sources`` are ``{id, name, sheet}`` of the loaded datasets."""
    by_name: dict[str, list[Mapping[str, Any]]] = {}
    for entry in sources:
        if entry.get("name") and entry["id"] in datasets:
            by_name.setdefault(str(entry["name"]).lower(), []).append(entry)
    if not by_name:
        return
    for reader in READERS:
        original = getattr(pd, reader, None)
        if original is not None and not getattr(original, "_dsagent_loaded", False):
            setattr(pd, reader, _redirect(pd, original, datasets, by_name))


def _redirect(pd: Any, original: Callable[..., Any], datasets: Mapping[str, Any],
              by_name: Mapping[str, list[Mapping[str, Any]]]) -> Callable[..., Any]:
    @functools.wraps(original)
    def reader(*args: Any, **kwargs: Any) -> Any:
        path = args[0] if args else next((kwargs[k] for k in _PATH_KEYWORDS if k in kwargs), None)
        if isinstance(path, (str, os.PathLike)) and not os.path.exists(path):
            entries = by_name.get(os.path.basename(os.fspath(path)).lower())
            if entries:
                found = _pick(entries, kwargs.get("sheet_name", 0))
                if found is not None:
                    refusal = getattr(datasets[found] if isinstance(found, str) else None, "refusal", None)
                    if refusal is not None:  # a file too big for pandas (duck.SqlTable)
                        raise ValueError(refusal(f"pd.{original.__name__}"))
                    if isinstance(found, dict):  # sheet_name=None: every sheet
                        return {sheet: _shape(pd, datasets[i].copy(), kwargs) for sheet, i in found.items()}
                    return _shape(pd, datasets[found].copy(), kwargs)
        return original(*args, **kwargs)

    reader._dsagent_loaded = True  # type: ignore[attr-defined]
    return reader


def _pick(entries: list[Mapping[str, Any]], sheet: Any) -> str | dict[str, str] | None:
    """The dataset id for ``sheet_name`` (a name, a position, or None for all sheets)."""
    if sheet is None:
        return {str(e.get("sheet") or e["id"]): e["id"] for e in entries}
    if isinstance(sheet, int):
        return entries[sheet]["id"] if 0 <= sheet < len(entries) else None
    return next((e["id"] for e in entries if str(e.get("sheet")) == str(sheet)), None)


def _shape(pd: Any, frame: Any, options: Mapping[str, Any]) -> Any:
    usecols = options.get("usecols")
    if isinstance(usecols, (list, tuple)) and usecols:
        frame = frame.iloc[:, list(usecols)] if all(isinstance(c, int) for c in usecols) else frame[list(usecols)]
    parse_dates = options.get("parse_dates")
    if isinstance(parse_dates, (list, tuple)):
        for column in parse_dates:
            name = frame.columns[column] if isinstance(column, int) else column
            if name in frame.columns:
                frame[name] = pd.to_datetime(frame[name], errors="coerce")
    index_col = options.get("index_col")
    if index_col is not None and index_col is not False:
        name = frame.columns[index_col] if isinstance(index_col, int) else index_col
        frame = frame.set_index(name)
    nrows = options.get("nrows")
    if isinstance(nrows, int):
        frame = frame.head(nrows)
    return frame
