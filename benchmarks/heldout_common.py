"""What the held-out batches C-J share: the label runner behind each ``make_labels.py``, the helpers
the label functions of D-J call (``labels_<x>.py``), and the runner, output and small helpers
behind each ``solve_independent.py``.

Each batch keeps only what is its own: its questions, its label functions (``labels_<x>.py``) and
the readers and checks only they use, its tables and their column types, and its solution's SQL.
The code that was written out again in every batch lives here, once:

- labels: check that every question has a label function and that the names it returns are the
  ``@name[...]`` items of the question's format, in order; render the values with the batch's
  ``render``; write ``labels.jsonl``.
- the label functions: the registry (``label_registry``: ``LABELS`` and ``@label(id)``), the
  writing of a value that refuses a rounding half (``render``), and what several batches' functions
  call: the tie-checked "which is highest" (``top_index``), ``pct``, the least-squares fit
  (``ols``) and a month as ``YYYY-MM`` (``month_text``).
- the independent solution: a DuckDB connection with the query helpers (``SqlTables``), the value
  formatting (``dec``, ``dec_refusing_halves``), the tie check of a "which is highest" answer
  (``only_top``) and the command line (``run_solver``: answers written to
  ``independent_answers.jsonl``, or printed when a tables folder is given).
- from batch L on, also: a table's source file inside an installed package (``package_file``) and
  the shapes a build prints (``report_shapes``); the whole of a ``make_labels.py``
  (``label_commands``); the reading of the CSV files into DuckDB (``SqlTables.read_files``) and the
  solutions' statistics written out by hand (``least_squares``, ``pearson``, ``one_way_f``), which
  live in ``heldout_stats`` with the rest of them (the incomplete beta function and the t and F
  tails, Welch's t, the chi-square statistic, average ranks, a fit's R squared) and are imported
  here under these names.
- from batch M on, also: what a ``make_tables.py`` builds with (``shipped_files``,
  ``table_writers``) and its command line (``build_command``).

A batch script finds this module by putting ``benchmarks/`` at the end of ``sys.path``. Nothing
here keeps state between calls (a registry's dict is its batch's), so one import serves every batch
in a test process. The file helpers serve both sides; the label helpers serve only
``labels_<x>.py`` and ``make_labels.py``, and the solver helpers only ``solve_independent.py``, so
a batch's solution still shares no code with its label functions.
DuckDB and pandas are imported where they are used, so a label run needs no DuckDB and a solver
run no pandas, as before.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

import numpy as np

from heldout_stats import least_squares, one_way_f, pearson  # noqa: F401  (batches import them from here)

Answers = dict[int, list[list[str]]]  # question id -> [[name, value as written], ...]


# --- files ------------------------------------------------------------------------------------


def load_beside(script: str | Path, name: str) -> ModuleType:
    """``name``.py from the folder of ``script``, loaded without touching sys.path.

    The module gets a name unique to its batch (``heldout_h_make_tables``), since batches H-J each
    have a ``make_tables.py`` and the tests load several batches in one process.
    """
    folder = Path(script).resolve().parent
    spec = importlib.util.spec_from_file_location(f"{folder.name}_{name}", folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_jsonl(path: Path) -> list[dict]:
    """The rows of a JSON-lines file; blank lines are skipped."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def format_names(fmt: str) -> list[str]:
    """The ``@name[...]`` items of a question's format, in order: the names its answer must give."""
    return re.findall(r"@(\w+)\[", fmt)


def write_answers(path: Path, answers: Answers, what: str, verbose: bool = False) -> None:
    """Write ``answers`` in the layout of a labels file (one ``{"id", "common_answers"}`` line per
    question, in the order given) and say how many ``what`` were written; ``verbose`` prints each
    id and its items first."""
    if verbose:
        for qid, items in answers.items():
            print(qid, items)
    lines = [json.dumps({"id": qid, "common_answers": items}) for qid, items in answers.items()]
    Path(path).write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} {what} to {path}")


def package_file(package: str, file: str, found_only: bool = False) -> Path:
    """Where the installed ``package`` keeps ``file`` (a path inside the package's folder): the
    source of a table a batch's ``make_tables.py`` builds (batch L on). ``found_only``: the package
    is found without being imported (batch R on), for one whose import is slow or fails (an
    ``__init__`` that reads every table, or that needs ``pkg_resources``, which recent setuptools
    no longer ships)."""
    if not found_only:
        return Path(importlib.import_module(package).__file__).parent / file
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return Path(list(spec.submodule_search_locations)[0]) / file


def shipped_files(sources: dict[str, tuple[str, str]], found_only: bool = False) -> Callable[[str], Path]:
    """``shipped_path(name)`` of a batch's ``make_tables.py`` (batch M on): where the installed
    package keeps the source file of table ``name``, ``sources`` mapping a table to (package, file
    inside the package); ``found_only`` as for ``package_file``."""
    return lambda name: package_file(*sources[name], found_only=found_only)


def table_writers(source: Callable[[str], Path], converters: dict[str, Callable[[str], bytes]],
                  rows: dict[str, int], tables: Iterable[str]) -> tuple[Callable[[str], bytes], Callable[[Path], None]]:
    """What a batch's ``make_tables.py`` builds with (batch M on): ``table_bytes(name)``, the bytes of
    a table (its converter's output, which must hold ``rows[name]`` data lines after the header, or
    else its shipped file ``source(name)`` as it is), and ``build(folder)``, which writes every one of
    ``tables`` into ``folder``."""
    names = list(tables)

    def table_bytes(name: str) -> bytes:
        if name not in converters:
            return Path(source(name)).read_bytes()
        data = converters[name](name)
        assert data.count(b"\n") == rows[name] + 1, name
        return data

    def build(folder: Path) -> None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for name in names:
            (Path(folder) / name).write_bytes(table_bytes(name))

    return table_bytes, build


def build_command(argv: list[str], default: Path, build: Callable[[Path], None], tables: Iterable[str],
                  read_options: dict[str, dict] | None = None) -> None:
    """The command line of a batch's ``make_tables.py [OUT_DIR]`` (batch M on): build into the folder
    given, or ``default``, and print the shapes."""
    target = Path(argv[0]) if argv else default
    build(target)
    report_shapes(target, tables, read_options)


def report_shapes(folder: Path, tables: Iterable[str], read_options: dict[str, dict] | None = None) -> None:
    """Print the rows and columns of each built table in ``folder``, read as the labels read it."""
    import pandas as pd

    for table in tables:
        shape = pd.read_csv(Path(folder) / table, **(read_options or {}).get(table, {})).shape
        print(f"{table}: {shape[0]} rows x {shape[1]} columns")


# --- the label functions (labels_<x>.py, batches D-J) -----------------------------------------


def label_registry() -> tuple[dict[int, Callable], Callable[[int], Callable]]:
    """A batch's own registry of label functions: the dict ``LABELS`` (question id -> function) and
    the decorator ``label(qid)`` that files a function in it.

    A label function takes ``read`` (table file name -> DataFrame, read from the folder being
    labelled) and returns ``[(name, value, decimals), ...]`` in the order of the format's
    ``@name[...]`` items; ``decimals`` is None for a value written as it is (a count, a label, a
    year or date). Each batch gets a dict of its own, since the tests load several batches in one
    process.
    """
    labels: dict[int, Callable] = {}

    def label(qid: int) -> Callable[[Callable], Callable]:
        def register(fn: Callable) -> Callable:
            labels[qid] = fn
            return fn

        return register

    return labels, label


def near_half(value, decimals: int) -> bool:
    """Whether ``value`` is within 1e-3 of a rounding half at ``decimals`` places, where half-up and
    half-even rounding could disagree (and so a label and a right answer)."""
    scaled = float(value) * 10**decimals
    frac = scaled - math.floor(scaled)
    return abs(frac - 0.5) < 1e-3


def render(value, decimals: int | None) -> str:
    """``value`` written with ``decimals`` places, with no "-0.00" (None: as it is); a value
    ``near_half`` is refused with a ValueError.

    The labels' own writing: the independent solutions write theirs with ``dec`` or
    ``dec_refusing_halves`` below, so the two do not share it.
    """
    if decimals is None:
        return str(value)
    if near_half(value, decimals):
        raise ValueError(f"value {value!r} sits on a rounding half at {decimals} decimals")
    text = f"{float(value):.{decimals}f}"
    return text[1:] if float(text) == 0 and text.startswith("-") else text


def top_index(series, largest: bool = True):
    """Index label of the largest (or smallest) value of a pandas Series, missing values left out,
    after checking it is not tied or nearly so (a single value passes): a "which is highest" label
    must not hang on float noise. Batches F-J; D keeps its exact check."""
    ordered = series.dropna().sort_values(ascending=not largest)
    assert len(ordered) == 1 or abs(ordered.iloc[0] - ordered.iloc[1]) > 1e-9, ordered.head(2)
    return ordered.index[0]


def pct(part, whole) -> float:
    """``part`` as a percentage of ``whole``."""
    return 100.0 * float(part) / float(whole)


def ols(y, *columns) -> tuple[np.ndarray, float]:
    """Least-squares coefficients (intercept first) and R squared of ``y`` on ``columns``."""
    X = np.column_stack([np.ones(len(y)), *[np.asarray(c, float) for c in columns]])
    y = np.asarray(y, float)
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    return coef, 1 - (resid @ resid) / ((y - y.mean()) @ (y - y.mean()))


def month_text(ts) -> str:
    """A timestamp's month as ``YYYY-MM``."""
    return f"{ts.year:04d}-{ts.month:02d}"


# --- labels (make_labels.py) ------------------------------------------------------------------


def checked_labels(questions: Path, labels: dict[int, Callable], render: Callable,
                   call: Callable[[Callable], list]) -> Answers:
    """Question id -> [[name, value as written], ...], in id order.

    ``labels`` maps each id to its label function and ``call`` runs one (with whatever the batch's
    functions take); a function returns ``[(name, value, decimals), ...]``, and ``render(value,
    decimals)`` writes a value. Refused: a question without a function or a function without a
    question, and names that are not the format's ``@name[...]`` items in order, since the scorer
    matches answers by those names.
    """
    formats = {q["id"]: q["format"] for q in read_jsonl(questions)}
    missing = set(formats) ^ set(labels)
    assert not missing, f"questions and label functions differ: {sorted(missing)}"
    answers = {}
    for qid in sorted(formats):
        items = call(labels[qid])
        asked = format_names(formats[qid])
        given = [name for name, _, _ in items]
        assert asked == given, (qid, asked, given)
        answers[qid] = [[name, render(value, places)] for name, value, places in items]
    return answers


def labels_from_tables(labels: ModuleType, folder: Path | None = None,
                       read_options: dict[str, dict] | None = None) -> Answers:
    """The labels of a batch D-J, computed from the tables in ``folder`` (default the batch's
    ``tables/``).

    ``labels`` is the batch's ``labels_<x>.py`` (``HERE``, ``TABLES``, ``LABELS``, ``render``); each
    of its functions takes ``read``, table file name -> DataFrame. Tables are read with pandas'
    defaults except the options ``read_options`` names for a file (``make_tables.READ_OPTIONS``).
    """
    import pandas as pd

    folder = Path(folder) if folder is not None else labels.TABLES
    options = read_options or {}

    def read(name: str) -> pd.DataFrame:
        return pd.read_csv(folder / name, **options.get(name, {}))

    return checked_labels(labels.HERE / "questions.jsonl", labels.LABELS, labels.render, lambda fn: fn(read))


def label_commands(script: str | Path, labels_name: str) -> tuple[ModuleType, ModuleType, Callable, Callable]:
    """What a batch's ``make_labels.py`` is (batch L on): its label module ``labels_name`` and its
    ``make_tables`` (both loaded from beside ``script``), ``computed(folder=None)``, the labels from
    the tables in ``folder`` (default the batch's ``tables/``) read with ``make_tables.READ_OPTIONS``,
    and ``main(verbose=False)``, which writes them to the batch's ``labels.jsonl``."""
    labels = load_beside(script, labels_name)
    tables = load_beside(script, "make_tables")

    def computed(folder: Path | None = None) -> Answers:
        return labels_from_tables(labels, folder, tables.READ_OPTIONS)

    def main(verbose: bool = False) -> None:
        write_answers(labels.HERE / "labels.jsonl", computed(), "labels", verbose)

    return labels, tables, computed, main


# --- the independent solution (solve_independent.py) -----------------------------------------


class SqlTables:
    """One DuckDB connection (``con``) and the queries a solution asks of it; a batch's ``Tables``
    subclasses this and creates its tables and views in ``__init__``."""

    def __init__(self) -> None:
        import duckdb

        self.con = duckdb.connect()

    def one(self, sql: str):
        """The single value of a query that must return one row of one column."""
        rows = self.con.execute(sql).fetchall()
        assert len(rows) == 1 and len(rows[0]) == 1, (sql, rows)
        return rows[0][0]

    def rows(self, sql: str) -> list[tuple]:
        return self.con.execute(sql).fetchall()

    def col(self, sql: str) -> np.ndarray:
        """The first column of a query, as floats."""
        return np.array([r[0] for r in self.con.execute(sql).fetchall()], dtype=float)

    def array(self, sql: str) -> np.ndarray:
        """All rows of a query as a float matrix."""
        return np.array(self.rows(sql), dtype=float)

    def read_files(self, folder: str | Path, files: dict[str, tuple[str, list[tuple[str, str]]]]) -> None:
        """A table per CSV file in ``folder`` (batch L on): ``files`` maps a file name to (table name,
        [(column, type), ...]); each file is read without its header line, with those names and
        types, commas between fields, double quotes around quoted ones and empty cells as missing."""
        for file, (table, columns) in files.items():
            self.con.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv('{sql_path(folder, file)}', header=false, skip=1, "
                f"delim=',', quote='\"', nullstr='', columns={column_types(columns)})")


def sql_path(folder: str | Path, file: str) -> str:
    """``folder/file`` as the text of a SQL string literal (quotes doubled)."""
    return str(Path(folder) / file).replace("'", "''")


def column_types(columns: Iterable[tuple[str, str]]) -> str:
    """``read_csv``'s ``columns=`` struct, ``{'name': 'TYPE', ...}``, from (name, type) pairs."""
    return "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns) + "}"


def dec(x, places: int) -> str:
    """``x`` written with ``places`` decimals (no "-0.00"); a value within 1e-6 of a rounding half is
    reported on stderr, since its rounding would hang on float noise (batches D-H)."""
    x = float(x)
    if abs(abs(x) * 10**places % 1 - 0.5) < 1e-6:
        print(f"warning: {x!r} is close to a rounding half at {places} places", file=sys.stderr)
    s = f"{x:.{places}f}"
    return s.lstrip("-") if float(s) == 0 else s


def dec_refusing_halves(value: float, places: int) -> str:
    """``value`` written with ``places`` decimals (no "-0.00"); a value within 1e-3 of a rounding
    half is refused, as the labels refuse it (batches I-J)."""
    scaled = abs(value) * 10**places
    assert abs(scaled - np.floor(scaled) - 0.5) > 1e-3, value
    text = f"{value:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def only_top(rows: list[tuple], tolerance: float | None = 1e-9, runner_up: bool = False):
    """rows sorted best first as (key, score): the key, after checking the top score is not tied.

    Tied means the runner-up's score is within ``tolerance`` (None: equal). With ``runner_up`` a
    single row is refused too, since a "which is highest" over one row means the query lost its
    groups. The batches differ here and keep their own choice: D compares exactly, F-H allow one
    row, I-J want a runner-up.
    """
    if runner_up:
        assert len(rows) >= 2, rows[:2]
    if len(rows) != 1:
        if tolerance is None:
            assert rows[0][1] != rows[1][1], rows[:2]
        else:
            assert abs(rows[0][1] - rows[1][1]) > tolerance, rows[:2]
    return rows[0][0]


def check_names(answers: Answers, questions: Path) -> None:
    """Every question answered, nothing else, each with the format's ``@name[...]`` items in order."""
    rows = read_jsonl(questions)
    assert sorted(answers) == [q["id"] for q in rows]
    for q in rows:
        assert format_names(q["format"]) == [n for n, _ in answers[q["id"]]], q["id"]


def run_solver(argv: list[str], here: Path, solve: Callable[[SqlTables], Answers],
               tables: Callable[[Path], SqlTables]) -> None:
    """The command line of a batch's ``solve_independent.py [TABLES_DIR]``.

    Solves from ``here/tables`` and writes ``here/independent_answers.jsonl``; given a tables folder
    it only prints the answers, so a check on other tables leaves the stored file alone.
    """
    folder = Path(argv[0]) if argv else here / "tables"
    answers = dict(sorted(solve(tables(folder)).items()))
    check_names(answers, here / "questions.jsonl")
    if argv:
        print("\n".join(json.dumps({"id": qid, "common_answers": items}) for qid, items in answers.items()))
    else:
        write_answers(here / "independent_answers.jsonl", answers, "answers")
