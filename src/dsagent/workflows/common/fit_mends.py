"""Mend by code a result that does not fit the question, when what the code meant is unambiguous.

Shown a misfit (:func:`fit.result_misfit`), the 1.5B model tends to write the same code again: a
Series of per-row values for "what is the mean …", the year the question names left out, one group's
total for "which group … more", the first row taken with ``.iloc[0]``. Each mend below is a rule
about pandas and the question's wording, never about a dataset; the workflow runs the mended code
and keeps it only if the result then fits (``mend_chain``). Before a run, ``mend_yes_no`` turns the
sum or mean of a Yes/No text column (a string concatenation, then a TypeError) into a count of Yes.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dsagent.workflows.common.fit import asks_one_value, name_at_label
from dsagent.workflows.common.wording import WHICH, YEAR

_AGGREGATES = {"mean": "mean", "average": "mean", "median": "median", "total": "sum", "sum": "sum",
               "standard deviation": "std", "variance": "var"}
_AGG_WORD = re.compile(r"\b(mean|average|median|total|sum|standard deviation|variance)\b", re.I)
_GROUPING = {"groupby", "value_counts", "pivot", "pivot_table", "crosstab", "resample", "rolling", "expanding", "unstack"}
_RANGE_BEFORE = re.compile(r"\b(since|after|before|between|from|until|to|and|through|up to|prior to)\s+$", re.I)
_MORE = re.compile(r"\b(more|most|highest|largest|biggest|greatest|maximum|higher|larger|bigger|best)\b", re.I)
_LESS = re.compile(r"\b(less|least|fewer|fewest|lowest|smallest|minimum|lower|smaller|worst)\b", re.I)
_YES = {"yes", "y", "true", "t"}
_NO = {"no", "n", "false", "f"}


@dataclass
class MendFacts:
    """What the mends need to know of the data (from the run's datasets, computed once)."""

    text_columns: list[str] = field(default_factory=list)
    year_columns: list[str] = field(default_factory=list)
    """Integer columns that hold years (a name with "year", values between 1800 and 2100)."""
    yes_no: dict[str, str] = field(default_factory=dict)
    """Text columns of exactly two values, yes and no in some spelling: column -> its yes value."""
    single_frame: bool = True
    columns: list[str] = field(default_factory=list)
    """Every column name of the (single) dataset."""


def mend_facts(datasets: Mapping[str, Any]) -> MendFacts:
    facts = MendFacts(single_frame=len(datasets) == 1)
    for ds in datasets.values():
        frame = getattr(ds, "frame", ds)
        facts.columns += [str(c) for c in getattr(frame, "columns", [])]
        for name, dtype in getattr(frame, "dtypes", {}).items():
            column, kind = frame[name], str(dtype)
            if kind in ("object", "category") or kind.startswith("str"):
                facts.text_columns.append(str(name))
                values = {str(v) for v in column.dropna().unique()[:3]}
                if len(values) == 2:
                    low = {v.strip().lower(): v for v in values}
                    yes = next((low[v] for v in low if v in _YES), None)
                    if yes is not None and any(v in _NO for v in low):
                        facts.yes_no[str(name)] = yes
            elif kind.startswith(("int", "Int")) and "year" in str(name).lower() and len(column):
                if 1800 <= column.min() and column.max() <= 2100:
                    facts.year_columns.append(str(name))
    return facts


def run_facts(ctx: Any) -> MendFacts:
    """:func:`mend_facts` of a run context's datasets, computed once per run context."""
    cached = getattr(ctx, "_mend_facts", None)
    if cached is None:
        cached = mend_facts(ctx.datasets or {})
        ctx._mend_facts = cached
    return cached


def mend_yes_no(code: str, facts: MendFacts) -> str:
    """``df['smoker'].sum()`` / ``.mean()`` of a Yes/No text column -> ``(df['smoker'] == 'Yes').sum()``;
    not when the code names the yes value itself or assigns the column (a mapped column's sum is right)."""
    for column, yes in facts.yes_no.items():
        if re.search(rf"['\"]{re.escape(yes)}['\"]", code) or re.search(rf"\[['\"]{re.escape(column)}['\"]\]\s*=[^=]", code):
            continue  # the code already maps or compares the values, or rewrites the column: its sum may be right
        pattern = re.compile(rf"((?:\b\w+)(?:\[[^\[\]]*\]|\.loc\[[^\[\]]*\])*\[(['\"]){re.escape(column)}\2\])\.(sum|mean)\(\)")
        code = pattern.sub(lambda m: f"({m.group(1)} == {yes!r}).{m.group(3)}()", code)
    return code


def _asked_aggregate(question: str) -> str | None:
    first = re.split(r"(?<=[?.!])\s", (question or "").strip())[0]
    match = _AGG_WORD.search(first)
    return _AGGREGATES[match.group(1).lower()] if match and asks_one_value(question) else None


def _numeric_series(shown: str) -> bool:
    """A printed Series whose values are numbers (each row's last field)."""
    if re.search(r"dtype: (object|str|category|bool)", shown):
        return False
    rows = [line for line in shown.splitlines() if line.strip() and line.strip() != "..."
            and not line.startswith(("Name:", "Length:", "dtype:"))]
    return bool(rows) and all(re.fullmatch(r"-?\d[\d,]*(\.\d+)?(e[+-]?\d+)?|nan", line.split()[-1], re.I) for line in rows)


def _calls(tree: ast.AST) -> set[str]:
    return {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}


def _uses_df(tree: ast.AST) -> bool:
    return "df" in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def _aggregate_series(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A per-row numeric Series for "what is the mean …": that aggregate of it."""
    agg = _asked_aggregate(question)
    if not agg or er.get("result_type") != "Series" or not _numeric_series(er.get("result_str") or ""):
        return None
    if _calls(tree) & _GROUPING:
        return None
    return code.rstrip("\n") + f"\nresult = result.{agg}()\n"


def _year_filter(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """"… in 1977" with no 1977 in the code: keep that year's rows first (one year column, "in/of/for <year>")."""
    if len(facts.year_columns) != 1 or not facts.single_frame or not _uses_df(tree):
        return None
    lowered = code.lower()
    for match in YEAR.finditer(question or ""):
        year = match.group(1)
        if year in lowered or _RANGE_BEFORE.search(question[: match.start()]):
            continue
        line = f"df = df[df[{facts.year_columns[0]!r}] == {year}]"
        body = getattr(tree, "body", [])
        loads = [s for s in body if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "df" for t in s.targets)]
        lines = code.splitlines()
        at = loads[-1].end_lineno if loads else 0
        return "\n".join([*lines[:at], line, *lines[at:]]) + "\n"
    return None


def _one_group(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """"Which sex left more …" answered with one group's total: compare every group by code."""
    if not WHICH.search(question or ""):  # WHICH holds the question that opens with which / who
        return None
    if er.get("result_type") not in ("float", "float64", "int", "int64") or not _uses_df(tree):
        return None
    pick = "idxmin" if _LESS.search(question) else "idxmax" if _MORE.search(question) else None
    if pick is None:
        return None
    filtered = {n.comparators[0].value: ast.unparse(n.left) for n in ast.walk(tree)
                if isinstance(n, ast.Compare) and len(n.comparators) == 1 and isinstance(n.ops[0], ast.Eq)
                and isinstance(n.comparators[0], ast.Constant) and isinstance(n.comparators[0].value, str)}
    columns = [c for left in filtered.values() for c in facts.text_columns if re.fullmatch(rf"df\[['\"]{re.escape(c)}['\"]\]", left)]
    aggs = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("sum", "mean", "median", "count", "max", "min") and not n.args
            and isinstance(n.func.value, ast.Subscript) and isinstance(n.func.value.slice, ast.Constant)]
    if len(set(columns)) != 1 or len(aggs) != 1:
        return None
    value = aggs[0].func.value.slice.value
    return f"result = df.groupby({columns[0]!r})[{value!r}].{aggs[0].func.attr}().{pick}()\n"


def _named_columns(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """"Which column has the highest mean: A, B or C?" answered with one column's mean: compare the
    columns the question names."""
    if not re.match(r"^\W*(which|who)\b", question or "", re.I) or er.get("result_type") not in ("float", "float64", "int", "int64"):
        return None
    pick = "idxmin" if _LESS.search(question) else "idxmax" if _MORE.search(question) else None
    named = [c for c in facts.columns if re.search(rf"(?<!\w){re.escape(c)}(?!\w)", question)]
    aggs = [n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("sum", "mean", "median", "max", "min", "std", "var") and not n.args]
    if pick is None or len(named) < 2 or len(set(aggs)) != 1 or not facts.single_frame or not _uses_df(tree):
        return None
    return f"result = df[{named!r}].{aggs[0]}().{pick}()\n"


def _precedence(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``df['a'] / df['b'].mean()`` for "the mean ratio of a to b": the aggregate of the per-row values
    (``(df['a'] / df['b']).mean()``), and a following ``result = result.iloc[0]`` dropped."""
    agg = _asked_aggregate(question)
    if not agg:
        return None
    changed = False

    class Fix(ast.NodeTransformer):
        def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
            nonlocal changed
            self.generic_visit(node)
            right = node.right
            if (isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute) and right.func.attr == agg and not right.args
                    and isinstance(right.func.value, ast.Subscript) and isinstance(node.left, ast.Subscript)
                    and isinstance(node.op, (ast.Div, ast.Mult, ast.Sub, ast.Add))):
                changed = True
                return ast.Call(func=ast.Attribute(value=ast.BinOp(left=node.left, op=node.op, right=right.func.value), attr=agg,
                                                   ctx=ast.Load()), args=[], keywords=[])
            return node

    mended = Fix().visit(ast.parse(code))
    if not changed:
        return None
    mended.body = [s for s in mended.body if not (isinstance(s, ast.Assign) and re.fullmatch(
        r"result = result\.(iloc|values)\[0\]|result = result\[0\]", ast.unparse(s)))]
    return ast.unparse(ast.fix_missing_locations(mended)) + "\n"


def _name_at_label(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    return name_at_label(question, code, er, facts.text_columns) if facts.single_frame else None


MENDS: list[tuple[str, Callable[..., str | None]]] = [
    ("year filter added", _year_filter),
    ("row label → name", _name_at_label),
    ("aggregate of the per-row values", _precedence),  # before the next: a / b.mean() is no per-row value
    ("aggregate of the per-row values", _aggregate_series),
    ("every group compared", _one_group),
    ("the named columns compared", _named_columns),
]


def mend_misfit(question: str, code: str, execution_result: dict | None, facts: MendFacts) -> tuple[str, str] | None:
    """The first mend that applies: (mended code, what it did), else None."""
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return None
    for label, mend in MENDS:
        mended = mend(question, code, tree, execution_result or {}, facts)
        if mended and mended.strip() != code.strip():
            return mended, label
    return None


def mend_chain(question: str, code: str, execution_result: dict | None, facts: MendFacts,
               run: Callable[[str], tuple[Any, dict | None]], misfit: Callable[[str, dict | None], str | None],
               steps: int = 3) -> tuple[str, Any, dict | None, list[str]] | None:
    """Mend, run and check up to ``steps`` times (a year filter, then the name at idxmax's row);
    (code, run, result, labels) once the result fits, else None (the model's own code is kept)."""
    labels: list[str] = []
    for _ in range(steps):
        found = mend_misfit(question, code, execution_result, facts)
        if found is None:
            return None
        code, label = found
        labels.append(label)
        outcome, execution_result = run(code)
        if not outcome.success:
            return None
        if misfit(code, execution_result) is None:
            return code, outcome, execution_result, labels
    return None
