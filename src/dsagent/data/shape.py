"""What a table's rows are, when its columns alone do not say: a line or two under a profile's header.

A small model reads a column list and assumes one row per entity. Two common shapes break that:
- a **long table**, one row per pair of two keys (a traveller × four travel modes, a firm × twenty
  years): a question "per traveller" must compare that traveller's rows, not pick a row;
- **indicator columns**, one category written as several adjacent 0/1 columns of which at most one
  is 1 on a row (health coded as ``good``, ``fair``, ``poor``; a row with none is the left-out one).
Both are found by code from the values, never from a name the table is known by.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

MAX_ROWS = 2_000_000
"""Above this many rows no note is looked for (the profile stays fast)."""
_MAX_KEY_COLUMNS = 12


def _grid_keys(frame: Any) -> tuple[str, str, int, int] | None:
    """Two columns whose pairs of values occur once each and cover the full grid (rows = a × b,
    a, b ≥ 2): (first, second, its count, second's count), the first being the one with more values."""
    rows = len(frame)
    counts = {}
    for name in frame.columns:
        try:
            n = int(frame[name].nunique(dropna=False))
        except TypeError:  # unhashable cells (lists): not a key
            continue
        if 2 <= n <= rows // 2:
            counts[str(name)] = (name, n)
    keys = sorted(counts.values(), key=lambda item: -item[1])[:_MAX_KEY_COLUMNS]
    for (a, na), (b, nb) in combinations(keys, 2):
        if na * nb == rows and not frame.duplicated(subset=[a, b]).any():
            return str(a), str(b), na, nb
    return None


def _indicator_runs(frame: Any) -> list[list[str]]:
    """Runs of adjacent columns that hold only 0 and 1, each 1 on some row, never two of them 1 on
    the same row: three or more (a category with or without a left-out level), or two that are 1
    on every row between them (two exclusive flags on some rows only may be chance)."""
    runs: list[list[str]] = []
    current: list[str] = []
    for name in list(frame.columns) + [None]:
        column = frame[name] if name is not None else None
        binary = column is not None and column.dtype.kind in "biuf" and column.notna().all() and set(column.unique()) <= {0, 1} and column.any()
        if binary and current and (frame[current].sum(axis=1) + column).max() <= 1:
            current.append(str(name))
            continue
        if len(current) >= 3 or (len(current) == 2 and frame[current].sum(axis=1).min() == 1):
            runs.append(current)
        current = [str(name)] if binary else []
    return runs


def shape_notes(frame: Any) -> list[str]:
    """Lines that say what the rows of ``frame`` are (a long table's two keys, indicator columns); []
    for a table of no such shape or too big to look at."""
    if frame is None or len(frame) < 8 or len(frame) > MAX_ROWS:
        return []
    notes = []
    grid = _grid_keys(frame)
    if grid:
        a, b, na, nb = grid
        notes.append(f"rows: one per ({a}, {b}) pair, {na} x {nb}: a question per {a} compares its {nb} rows "
                     f"(df.pivot(index={a!r}, columns={b!r}, values=...) gives one row per {a})")
    for run in _indicator_runs(frame):
        names = ", ".join(run)
        notes.append(f"columns {names}: 0/1 indicators of one category, at most one is 1 on a row "
                     f"(a row with none is in the category left out)")
    return notes
