"""What a table's rows are, when its columns alone do not say: a line or two under a profile's header.

A small model reads a column list and assumes one row per entity, in time order. Three common shapes break that:
- a **long table**, one row per pair of two keys (a traveller × four travel modes, a firm × twenty
  years): a question "per traveller" must compare that traveller's rows, not pick a row;
- **indicator columns**, one category written as several adjacent 0/1 columns of which at most one
  is 1 on a row (health coded as ``good``, ``fair``, ``poor``; a row with none is the left-out one);
- **period labels** as statistics packages print them ('1960q1', '1972m1'), which pandas does not
  read as dates without being told how (``data.timeline``);
- rows **newest first** (a price history exported latest day on top): "from the first to the last
  day" read off the rows runs backwards;
- **a total row** among the items (a country above its regions, "Total" under the stores): the
  largest region and the sum of the regions both take it in unless it is left out;
- a **wide table** whose periods are its columns (one row per year, one column per month): read as
  if it were long, a "which month" question gets a year or a row number.
All are found by code from the values, never from a name the table is known by. Columns are read
by position, so duplicate names cannot confuse the lookup; the work is bounded (rows, columns).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from dsagent.data.timeline import MONTH_WORDS, PERIOD_PARSE, TIME_NAME, Timeline, timeline

MAX_ROWS = 1_000_000
"""Above this many rows no note is looked for (the profile stays fast)."""
MAX_COLUMNS = 80
"""Above this many columns no note is looked for (a wide table's profile is already a digest)."""
_MAX_KEY_COLUMNS = 12
_MIN_SHARE = 0.01
"""Each indicator is 1 on at least this share of the rows, and the run on ten times that:
rare flags that never meet by chance are not a category."""


def _timelike(column: Any, name: str) -> bool:
    return column.dtype.kind == "M" or bool(TIME_NAME.search(name))


def _grid_keys(frame: Any) -> tuple[str, str, int, int] | None:
    """Two columns whose pairs of values occur once each and cover the full grid (rows = a × b,
    a, b ≥ 2): (entity, other, their counts). The entity is the key that is not a period (a firm
    over years); two periods (a year and a month) are a time series, not a long table: None."""
    rows = len(frame)
    keys = []
    for i in range(frame.shape[1]):
        column = frame.iloc[:, i]
        if column.dtype.kind in "fc":  # measures, not keys (and the costliest to count)
            continue
        try:
            n = int(column.nunique(dropna=False))
        except TypeError:  # unhashable cells (lists): not a key
            continue
        if 2 <= n <= rows // 2 and rows % n == 0:
            keys.append((i, n))
    keys.sort(key=lambda item: item[1])
    for (a, na), (b, nb) in combinations(keys[:_MAX_KEY_COLUMNS], 2):
        if na * nb != rows or frame.iloc[:, [a, b]].duplicated().any():
            continue
        names = [str(frame.columns[a]), str(frame.columns[b])]
        times = [_timelike(frame.iloc[:, a], names[0]), _timelike(frame.iloc[:, b], names[1])]
        if all(times):
            continue
        if times[0] or (not times[1] and na < nb):
            return names[1], names[0], nb, na
        return names[0], names[1], na, nb
    return None


def _binary(column: Any) -> bool:
    """Only 0 and 1, no missing value, some 1: min and max first (cheap), then the values."""
    if column.dtype.kind not in "biuf" or len(column) == 0:
        return False
    low, high = column.min(), column.max()
    return low == 0 and high == 1 and not column.isna().any() and bool(column.isin((0, 1)).all())


def _indicator_runs(frame: Any) -> list[list[str]]:
    """Runs of adjacent columns that hold only 0 and 1, each 1 on some rows, never two of them 1 on
    the same row: three or more, together 1 on a tenth of the rows or more (a category with or
    without a left-out level), or two that are 1 on every row between them."""
    rows = len(frame)
    runs: list[list[str]] = []
    current: list[str] = []
    total = None  # the running sum of the current run's columns, row by row
    for i in range(frame.shape[1] + 1):
        column = frame.iloc[:, i] if i < frame.shape[1] else None
        binary = column is not None and _binary(column) and column.sum() >= _MIN_SHARE * rows
        if binary and current and int((total + column).max()) <= 1:
            current.append(str(frame.columns[i]))
            total = total + column
            continue
        covered = 0 if total is None else int(total.sum())
        if (len(current) >= 3 and covered >= 10 * _MIN_SHARE * rows) or (len(current) == 2 and covered == rows):
            runs.append(current)
        current = [str(frame.columns[i])] if binary else []
        total = column.astype("int64") if binary else None
    return runs


_YEAR_NAME = re.compile(r"[^\d]{0,4}(1[89]\d\d|20\d\d)[^\d]{0,4}")
_QUARTER_NAME = re.compile(r"(?:(?:1[89]|20)\d\d\s*[-_ ]?\s*)?Q[1-4]", re.I)


def period_columns(columns: Iterable[Any]) -> tuple[str, list[str]] | None:
    """("month" | "year" | "quarter", those columns) when a table has one column per period: six or
    more month names (``JAN``, ``February``), three or more year names (``1990``, ``pop_2001``) or
    four or more quarter names (``Q1``, ``2001Q3``); else None."""
    names = [str(c) for c in columns]
    months = [c for c in names if re.fullmatch(MONTH_WORDS, c.strip(), re.I)]
    if len(months) >= 6:
        return "month", months
    years = [c for c in names if _YEAR_NAME.fullmatch(c.strip())]
    if len(years) >= 3:
        return "year", years
    quarters = [c for c in names if _QUARTER_NAME.fullmatch(c.strip())]
    return ("quarter", quarters) if len(quarters) >= 4 else None


def wide_periods(frame: Any) -> str | None:
    """The note for a table with one column per period (:func:`period_columns`), with the pandas
    that reads it as one long series; for months beside a column of years, the dates too."""
    found = period_columns(frame.columns)
    if found is None:
        return None
    kind, columns = found
    others = [str(c) for c in frame.columns if str(c) not in columns]
    years = [c for c in others if frame[c].dtype.kind in "iu" and frame[c].is_unique and len(frame[c])
             and 1700 <= frame[c].min() and frame[c].max() <= 2100]
    ids = years[:1] or [c for c in others if frame[c].dtype.kind == "O"][:1]
    span = f"{columns[0]} … {columns[-1]}" if len(columns) > 2 else " and ".join(columns)
    row = f"one row per {ids[0]}" if ids else "one row per item"
    where = [i for i, c in enumerate(frame.columns) if str(c) in columns]
    if where == list(range(where[0], where[0] + len(where))):
        chosen = f"list(df.columns[{where[0]}:{where[-1] + 1}])"
    else:
        chosen = repr(columns) if len(columns) <= 12 else None
    picked = f", value_vars={chosen}" if chosen and (others != ids) else ""
    melt = f"long = df.melt(id_vars={ids!r}{picked}, var_name={kind!r}, value_name='value')"
    note = (f"a wide table: {row}, one column per {kind} ({span}); a question across {kind}s reads them as one "
            f"series, not a row: {melt}")
    if kind == "month" and years:
        form = "%b" if all(len(c.strip()) == 3 for c in columns) else "%B"
        note += (f"; long['date'] = pd.to_datetime(long[{years[0]!r}].astype(str) + '-' + long['month'], format='%Y-{form}'), "
                 f"then sort by date")
    return note


_TOTAL_LABEL = re.compile(r"^\s*(grand\s+)?(total|all|overall|sum|whole)\b", re.I)
_MAX_TOTALS = 3
_MAX_BLOCKS = 20
_SUM_TOLERANCE = 0.02
"""A total may differ from the sum of its items by their rounding, not more (two items that happen to
be near the sum of the rest in a small table are no total)."""


def _label_column(frame: Any) -> int | None:
    """The position of the first text column that names each row once (no gaps, no repeats), not a date."""
    for i in range(frame.shape[1]):
        column = frame.iloc[:, i]
        try:
            if column.dtype.kind == "O" and not _timelike(column, str(frame.columns[i])) and column.notna().all() and column.is_unique:
                return i
        except TypeError:  # unhashable cells (lists)
            continue
    return None


def total_rows(frame: Any) -> tuple[str, list[Any], list[str]] | None:
    """(label column, the labels of total rows, the columns that show them), or None.

    A row is a total when, in two columns of non-negative numbers or more, it holds the sum of the
    rows below it within 2 % (one column is enough for a row labelled "Total", "All", …). Then a
    row at least as large as a total in each of those columns is a larger whole (a country above a
    province's total above its districts). A row far above the rest that is no sum of them (a rich
    country's income per head) is no total. A long table with no column that names each row once
    (areas × two questions) is read block by block (:func:`_block_totals`)."""
    label = _label_column(frame)
    if label is None:
        return _block_totals(frame)
    found = _totals(frame, label)
    if not found:
        return None
    rows, shown = found
    return str(frame.columns[label]), [frame.iloc[pos, label] for pos in rows], shown


def _totals(frame: Any, label: int) -> tuple[list[int], list[str]] | None:
    """(positions of the total rows and larger wholes, the columns that show them) in ``frame``."""
    measures = [i for i in range(frame.shape[1]) if frame.iloc[:, i].dtype.kind in "iuf"
                and frame.iloc[:, i].nunique() > 2 and frame.iloc[:, i].min() >= 0]
    columns = {i: frame.iloc[:, i].reset_index(drop=True) for i in measures}
    votes: dict[int, list[int]] = {}
    for i, column in columns.items():
        order = column.dropna().sort_values(ascending=False)
        if len(order) < 5:
            continue
        below = order.iloc[::-1].cumsum().iloc[::-1].shift(-1, fill_value=0)  # the sum of the rows under each
        for pos in order.index[:_MAX_TOTALS]:
            if below[pos] > 0 and abs(order[pos] - below[pos]) <= _SUM_TOLERANCE * below[pos]:
                votes.setdefault(int(pos), []).append(i)
    totals = [pos for pos, shown in votes.items()
              if len(shown) >= 2 or _TOTAL_LABEL.match(str(frame.iloc[pos, label]))]
    if not totals:
        return None
    wholes = {pos for t in totals for pos in range(len(frame))
              if pos not in totals and all(columns[i][pos] >= columns[i][t] for i in votes[t])}
    shown = {i for t in totals for i in votes[t]}
    return sorted({*totals, *wholes}), [str(frame.columns[i]) for i in measures if i in shown]


def _block_totals(frame: Any) -> tuple[str, list[Any], list[str]] | None:
    """Total rows of a long table: a text column of a few blocks (two questions of a vote) and a text
    column that names each row once within its block (the areas); a label is a total when it is one
    in every block of five rows or more (each block is read as its own table)."""
    text = [i for i in range(frame.shape[1]) if frame.iloc[:, i].dtype.kind == "O" and frame.iloc[:, i].notna().all()
            and not _timelike(frame.iloc[:, i], str(frame.columns[i]))][:_MAX_KEY_COLUMNS]
    for key in text:
        try:
            blocks = frame.iloc[:, key].nunique()
        except TypeError:  # unhashable cells (lists)
            continue
        if not 2 <= blocks <= _MAX_BLOCKS or blocks * 4 > len(frame):
            continue
        groups = [part.reset_index(drop=True) for _, part in frame.groupby(frame.iloc[:, key], sort=False) if len(part) >= 5]
        for label in (i for i in text if i != key):
            if len(groups) < 2 or not all(part.iloc[:, label].is_unique for part in groups):
                continue
            found = [_totals(part, label) for part in groups]
            if not all(found):
                continue
            labels = set.intersection(*({part.iloc[pos, label] for pos in rows} for part, (rows, _) in zip(groups, found)))
            if labels:
                shown = {name for _, names in found for name in names}
                ordered = [v for v in dict.fromkeys(frame.iloc[:, label]) if v in labels]
                return str(frame.columns[label]), ordered, [str(c) for c in frame.columns if c in shown]
    return None


def newest_first(frame: Any, line: Timeline | None = None) -> str | None:
    """The date column of ``frame`` (``line``, its timeline, when already read) when its rows run
    from the latest date to the earliest: a first or last row, a change from first to last or a
    moving window over the rows then runs backwards in time unless the rows are sorted first."""
    line = timeline(frame) if line is None else line
    return line.column if line is not None and line.newest_first else None


def _listed(names: list[str]) -> str:
    return ", ".join(names) if len(names) <= 6 else f"{names[0]} … {names[-1]} ({len(names)} columns)"


def shape_notes(frame: Any, line: Timeline | None = None) -> list[str]:
    """Lines that say what the rows of ``frame`` are (a long table's two keys, period labels, rows
    newest first, total rows, indicator columns); [] for a table of no such shape, or too big to look at.
    ``line``: the frame's timeline when already read (``Dataset.timeline``)."""
    if frame is None or len(frame) < 8 or len(frame) > MAX_ROWS or frame.shape[1] > MAX_COLUMNS:
        return []
    notes = []
    grid = _grid_keys(frame)
    if grid:
        entity, other, n_entity, n_other = grid
        notes.append(f"a long table: one row per ({entity}, {other}) pair, {n_entity} x {n_other}; a question per {entity} "
                     f"compares its {n_other} rows (df.pivot(index={entity!r}, columns={other!r}, values=...))")
    line = timeline(frame) if line is None else line
    if line is not None and line.labels:
        parse = PERIOD_PARSE[line.labels].format(s=f"df[{line.column!r}]")
        notes.append(f"{line.column} holds {line.labels}s written as text like {frame[line.column].dropna().iloc[0]!r}: {parse}")
    newest = newest_first(frame, line)
    if newest:
        notes.append(f"rows run from the latest {newest} to the earliest: sort by {newest} (as dates) before taking a first "
                     f"or last row, a change over time or a moving window")
    totals = total_rows(frame)
    if totals:
        label, found, columns = totals
        rows = ", ".join(map(repr, found))
        keep = f"df[df[{label!r}] != {found[0]!r}]" if len(found) == 1 else f"df[~df[{label!r}].isin([{rows}])]"
        where = columns[0] + (f" and {len(columns) - 1} more columns" if len(columns) > 2 else f" and {columns[1]}" if len(columns) == 2 else "")
        notes.append(f"{'row' if len(found) == 1 else 'rows'} {rows} of {label}: {'a total' if len(found) == 1 else 'totals'} of "
                     f"the other rows (in {where}), not items: leave {'it' if len(found) == 1 else 'them'} out to rank, "
                     f"count or sum the items, {keep}")
    wide = wide_periods(frame)
    if wide:
        notes.append(wide)
    for run in _indicator_runs(frame):
        notes.append(f"columns {_listed(run)}: 0/1 indicators of one category, at most one is 1 on a row "
                     f"(a row with none is in the category left out)")
    return notes
