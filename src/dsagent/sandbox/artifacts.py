"""Inside the worker: turn a cell's ``result``, ``fig`` and exception into what the agent reads.

Runs after the code, so it may use pandas freely; it never imports matplotlib or plotly itself,
because a cell that did not use them should not pay for loading them.
"""

from __future__ import annotations

import linecache
import re
import sys
import traceback
from numbers import Integral
from pathlib import Path
from typing import Any

from dsagent.atomic import atomic_path, write_atomic
from dsagent.sandbox.api_drift import drift_hint
from dsagent.sandbox.column_names import near_column
from dsagent.sandbox.name_hints import name_hint

RESULT_CHARS = 20_000
_DISPLAY_ROWS = 60
_DISPLAY_COLS = 30
_LIBRARY_FRAMES_KEPT = 3
CELL_PREFIX = "<cell "


_PLAIN_ITEMS = 1000  # a longer container is shown as it is (and truncated)


def cell_filename(n: int) -> str:
    return f"{CELL_PREFIX}{n}>"


def register_source(n: int, code: str) -> None:
    """Let tracebacks quote the cell's lines, also for functions a later cell calls."""
    lines = code.splitlines(keepends=True)
    linecache.cache[cell_filename(n)] = (len(code), None, lines, cell_filename(n))


def describe_result(value: Any) -> tuple[str, str]:
    """``str(result)`` capped, with pandas objects shown as a bounded table."""
    type_name = type(value).__name__
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(value, pd.DataFrame):
        text = value.to_string(max_rows=_DISPLAY_ROWS, max_cols=_DISPLAY_COLS)
        if len(value) > _DISPLAY_ROWS:  # a long table is said to be one: the reader sees only its ends
            text += f"\n[{len(value):,} rows x {value.shape[1]} columns]"
    elif pd is not None and isinstance(value, pd.Series):
        text = value.to_string(max_rows=_DISPLAY_ROWS)
        if value.name is not None:
            text += f"\nName: {value.name}, dtype: {value.dtype}"
        if len(value) > _DISPLAY_ROWS:
            text += f"\nLength: {len(value):,}"
    else:
        try:
            text = str(_plain(value))
        except Exception:  # noqa: BLE001 - showing it plainly is a nicety: never fail a run for it
            text = str(value)
    if len(text) > RESULT_CHARS:
        text = text[:RESULT_CHARS] + f"\n… [truncated: {len(text):,} characters in total]"
    return text, type_name


def _plain(value: Any, depth: int = 0) -> Any:
    """NumPy scalars as the Python values they hold, also inside (small) plain dicts, lists and
    tuples: ``{'r': 0.13, 'significant': False}``, not ``{'r': np.float64(0.13), 'significant':
    np.False_}`` — fewer tokens for the model, and nothing to copy wrongly into an answer
    (``False_``). Other containers (a scipy test's result, a namedtuple) are shown as they are;
    dates keep their type (``.item()`` would make nanoseconds an int); a float32 keeps its short
    form (``0.1``, not ``0.10000000149011612``). A pandas Period or Timestamp inside a container is
    shown as the text it stands for (``'2015-12'``, ``'2010-11-15'``), not its constructor
    (``Period('2015-12', 'M')``), which an answer would otherwise quote."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if np is None or depth > 3:
        return value
    if depth and pd is not None and isinstance(value, (pd.Period, pd.Timestamp)):
        return _period_text(value, pd)
    if isinstance(value, np.generic) and not isinstance(value, (np.datetime64, np.timedelta64)):
        if isinstance(value, np.floating) and value.itemsize < 8:
            return float(str(value))
        return value.item()
    if type(value) in (dict, list, tuple) and len(value) <= _PLAIN_ITEMS:
        if type(value) is dict:
            return {_plain(k, depth + 1): _plain(v, depth + 1) for k, v in value.items()}
        return type(value)(_plain(v, depth + 1) for v in value)
    return value


def _period_text(value: Any, pd: Any) -> str:
    """A Period as written (``2015-12``); a Timestamp as its date when it has no time of day."""
    if isinstance(value, pd.Timestamp) and value.tz is None and value == value.normalize():
        return value.strftime("%Y-%m-%d")
    return str(value)


def is_plotly_figure(value: Any) -> bool:
    return type(value).__module__.startswith("plotly") and hasattr(value, "to_json")


def figure_data(fig: Any) -> Any:
    """The numbers a Plotly chart shows, as a DataFrame (x, y and the trace name when several):
    code that stores the chart itself in ``result`` still gives the explanation numbers to quote."""
    pd = sys.modules["pandas"]
    layout = fig.layout
    x_name = (layout.xaxis.title.text if layout.xaxis and layout.xaxis.title else None) or "x"
    y_name = (layout.yaxis.title.text if layout.yaxis and layout.yaxis.title else None) or "y"
    frames = []
    for k, trace in enumerate(fig.data):
        x, y = getattr(trace, "x", None), getattr(trace, "y", None)
        if x is None and y is None:
            continue
        part = pd.DataFrame({x_name: list(x) if x is not None else None, y_name: list(y) if y is not None else None})
        if len(fig.data) > 1:
            part.insert(0, "trace", trace.name or f"trace {k}")
        frames.append(part)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def save_table(value: Any, workspace: Path, n: int) -> list[str]:
    pd = sys.modules.get("pandas")
    if pd is None or not isinstance(value, (pd.DataFrame, pd.Series)):
        return []
    path = workspace / "tables" / f"cell_{n}_result.csv"
    path.parent.mkdir(exist_ok=True)
    with atomic_path(path) as temp:
        value.to_csv(temp)
    return [str(path)]


def loaded(name: str) -> Any:
    """The module if it is fully imported; the warm-up thread may be halfway through it."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        return None
    return module


def save_figures(fig: Any, has_fig: bool, workspace: Path, n: int) -> list[str]:
    """Plotly → JSON; matplotlib (``fig`` or any open pyplot figure) → PNG; pyplot is then closed."""
    out_dir = workspace / "figures"
    saved: list[str] = []
    mpl_figures: list[Any] = []
    if has_fig and fig is not None:
        if type(fig).__module__.startswith("plotly") and hasattr(fig, "to_json"):
            out_dir.mkdir(exist_ok=True)
            path = out_dir / f"cell_{n}.json"
            write_atomic(path, fig.to_json())
            saved.append(str(path))
        else:
            # seaborn hands back Axes or a FacetGrid; both know their matplotlib figure.
            candidate = fig if hasattr(fig, "savefig") and hasattr(fig, "axes") else getattr(fig, "figure", None)
            if candidate is not None and hasattr(candidate, "savefig"):
                mpl_figures.append(candidate)
    plt = loaded("matplotlib.pyplot")
    if plt is not None:
        for num in plt.get_fignums():
            figure = plt.figure(num)
            if figure not in mpl_figures and figure.axes:
                mpl_figures.append(figure)
    for k, figure in enumerate(mpl_figures, start=1):
        out_dir.mkdir(exist_ok=True)
        path = out_dir / f"cell_{n}_{k}.png"
        with atomic_path(path) as temp:
            figure.savefig(temp, dpi=100, bbox_inches="tight")
        saved.append(str(path))
    if plt is not None:
        plt.close("all")
    return saved


def format_error(exc: BaseException, namespace: dict[str, Any]) -> str:
    """The traceback from the first cell frame on (no worker frames), plus a hint when useful."""
    frames = traceback.extract_tb(exc.__traceback__)
    start = next((i for i, f in enumerate(frames) if f.filename.startswith(CELL_PREFIX)), len(frames))
    frames = frames[start:]
    last_cell = max((i for i, f in enumerate(frames) if f.filename.startswith(CELL_PREFIX)), default=-1)
    library = frames[last_cell + 1 :]
    lines = []
    if frames:
        lines.append("Traceback (most recent call last):\n")
        lines.extend(traceback.format_list(frames[: last_cell + 1]))
        if len(library) > _LIBRARY_FRAMES_KEPT:
            lines.append(f"  … {len(library) - _LIBRARY_FRAMES_KEPT} library frames omitted …\n")
            library = library[-_LIBRARY_FRAMES_KEPT:]
        lines.extend(traceback.format_list(library))
    lines.extend(traceback.format_exception_only(type(exc), exc))
    text = "".join(lines).rstrip()
    cell_line = frames[last_cell].line or "" if last_cell >= 0 else ""
    hint = _hint(exc, namespace, cell_line)
    return f"{text}\n{hint}" if hint else text


def _computed(exc: KeyError, namespace: dict[str, Any]) -> str | None:
    """A hint for a column looked up by the name of a variable the code computed (a Series or an
    array, in the failing cell's innermost frame or the namespace), which it never added to the frame."""
    key = exc.args[0]
    frame_locals: dict[str, Any] = {}
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(CELL_PREFIX):
            frame_locals = tb.tb_frame.f_locals
        tb = tb.tb_next
    value = frame_locals.get(key, namespace.get(key)) if key.isidentifier() else None
    if not getattr(value, "shape", ()):  # a Series or a frame the code computed, not a scalar or None
        return None
    return (f"Hint: {key!r} is no column: it is a variable this code computed. Use the variable ({key}), or add it to "
            f"the frame before taking subsets of it: frame[{key!r}] = {key}.")


def _hint(exc: BaseException, namespace: dict[str, Any], cell_line: str = "") -> str:
    datasets = namespace.get("datasets") or {}
    if isinstance(exc, FileNotFoundError):
        ids = ", ".join(map(repr, datasets)) or "none"
        return (
            "Hint: the data is already loaded: use df or datasets['<id>'] "
            f"(ids: {ids}) instead of reading files."
        )
    if isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], Integral) and not isinstance(exc.args[0], bool):
        n = exc.args[0]
        year = 1800 <= n <= 2099
        named = year and next((k for k, v in datasets.items() if str(n) in getattr(v, "columns", ())), None)
        if named:  # a wide table's year columns are named by text
            return f"Hint: the column's name is the text '{n}', not the number {n}: write df['{n}']."
        holder = _value_column(n, _frames(namespace), numbers=True) if year else None
        if holder is not None:  # a year used as a row label: the row is the one whose year column holds it
            name, column = holder
            return (f"Hint: {n} is a value of the column {column!r} of {name}, not a row label: select the row by it, "
                    f"{name}.loc[{name}[{column!r}] == {n}, 'other_col'].iloc[0].")
        if _raised_by_frame_getitem(exc):
            return (f"Hint: df[{n}] looks up a COLUMN named {n}; this label is a row's. For a row use "
                    f"df.loc[label] (e.g. df.loc[df['col'].idxmax(), 'other_col']), for a position df.iloc[{n}].")
        return (f"Hint: [{n}] looks up the index label {n}, not position {n}: this index holds other labels. "
                f"Use .iloc[{n}] for a position (e.g. s.sort_values().iloc[-1]), or .idxmax()/.idxmin() for the label of the largest/smallest.")
    if isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], str):
        owner = next((k for k, v in datasets.items() if exc.args[0] in getattr(v, "columns", ())), None)
        if owner is not None:
            frame = "df" if "df" in namespace else f"datasets[{owner!r}]"
            if "datasets" not in cell_line:
                # A column of the loaded table, missing from the frame the failing line used.
                return (
                    f"Hint: {exc.args[0]!r} is a column of {frame}, but not of the frame this line uses: an "
                    "earlier step dropped it (select_dtypes('number') keeps only numeric columns, a column "
                    f"selection keeps only those listed). Use a frame that still has {exc.args[0]!r}."
                )
            # The key is a column: the code indexed the datasets dict instead of a DataFrame.
            return (
                f"Hint: {exc.args[0]!r} is a column of {frame}, not a dataset: `datasets` is a dict of "
                f"DataFrames. Write {frame}[{exc.args[0]!r}], e.g. {frame}[{frame}[{exc.args[0]!r}] == value]."
            )
        computed = _computed(exc, namespace)
        if computed is not None:
            return computed
        frames = _frames(namespace)
        for name, frame in frames:
            near = near_column(exc.args[0], getattr(frame, "columns", []))
            if near is not None:  # ' WINDSPEED' asked as 'WINDSPEED': the listing alone does not make the model see it
                return (f"Hint: the column is named {near!r}, not {exc.args[0]!r} (spaces, case, _ and spelling matter): "
                        f"write {name}[{near!r}].")
        holder = _value_column(exc.args[0], frames)
        if holder is not None:
            name, column = holder
            return (f"Hint: {exc.args[0]!r} is a value of the column {column!r} of {name}, not a column or a row label: "
                    f"select its rows with {name}[{name}[{column!r}] == {exc.args[0]!r}] (one cell: "
                    f"{name}.loc[{name}[{column!r}] == {exc.args[0]!r}, 'other_col'].iloc[0]).")
        listed = []
        for name, frame in frames[:5]:
            columns = [str(c) for c in getattr(frame, "columns", [])]
            if columns and exc.args[0] not in columns:
                shown = ", ".join(map(repr, columns[:60])) + (" …" if len(columns) > 60 else "")
                listed.append(f"Columns of {name} are: {shown}")
        return "Hint: " + "\n".join(listed) if listed else ""
    label = _GROUP_NAME.search(str(exc)) if isinstance(exc, ValueError) else None
    holder = _value_column(label.group(1), _frames(namespace)) if label else None
    if holder is not None:  # stats.kruskal(*['a', 'b']): the groups' names passed where their numbers go
        name, column = holder
        return (f"Hint: {label.group(1)!r} is a value of the column {column!r} of {name} (a group's name), not a number: "
                f"pass each group's numbers, e.g. groups = [g['value_col'].dropna() for _, g in {name}.groupby({column!r})], "
                f"then stats.kruskal(*groups) (or {name}.loc[{name}[{column!r}] == {label.group(1)!r}, 'value_col'] for one group).")
    return drift_hint(str(exc)) or name_hint(exc)  # a moved API's own fix first (np.float: builtin float)


_GROUP_NAME = re.compile(r"could not convert string to float: (?:np\.str_\()?'([^']+)'")


def _frames(namespace: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name to write, frame) of the data a cell sees: ``df`` when it is bound, else each of ``datasets``."""
    if "df" in namespace:
        return [("df", namespace["df"])]
    return [(f"datasets[{k!r}]", v) for k, v in (namespace.get("datasets") or {}).items()]


def _value_column(key: Any, frames: list[tuple[str, Any]], numbers: bool = False) -> tuple[str, Any] | None:
    """(frame name, column label) of the first text column (of an integer column, with
    ``numbers``) that holds ``key`` as a value: a wide table's row (``'Renewables'`` of
    ``source``) looked up as if it were a column, or a year used as a row label. Never raises: a
    hint is a nicety."""
    kinds = "iu" if numbers else "OSU"
    try:
        for name, frame in frames[:5]:
            for column in list(getattr(frame, "columns", []))[:60]:
                values = frame[column]
                text = getattr(values, "ndim", 2) == 1 and (values.dtype.kind in kinds or (
                    not numbers and str(values.dtype) in ("string", "str", "category")))
                if text and bool(values.eq(key).any()):
                    return name, column
    except Exception:  # noqa: BLE001 - an odd object bound to df (a Styler) must not break the error report
        return None
    return None


def _raised_by_frame_getitem(exc: BaseException) -> bool:
    """The error came from ``DataFrame.__getitem__`` (``df[key]``: a column lookup)."""
    import pandas as pd

    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "__getitem__" and isinstance(tb.tb_frame.f_locals.get("self"), pd.DataFrame):
            return True
        tb = tb.tb_next
    return False
