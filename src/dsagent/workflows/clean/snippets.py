"""Assemble ``data_cleaner(data_raw)`` from vetted snippets, one per step of the plan.

Every step kind has one snippet, tested on its own (tests/workflows/clean/test_detect_and_snippets.py); the parameters
the findings computed (columns, placeholder lists, spelling maps, group fixes) are written into
the code as literals, so the function is readable, reviewable and re-runnable by a person on the
raw file: ``data_cleaner(pd.read_csv("raw.csv"))``. Steps the model adds arrive as the body of
``custom_steps(df)``, called last before the checks.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from dsagent.workflows.clean.textvalues import HELPERS_SOURCE

FUNCTION_NAME = "data_cleaner"
CUSTOM_MARK = "    # --- steps the model added (custom_steps) ---"

_SNIPPETS: dict[str, str] = {
    "whitespace": """\
df[{col!r}] = df[{col!r}].map(lambda v: v.strip() if isinstance(v, str) else v)""",
    "placeholder": """\
df[{col!r}] = df[{col!r}].map(lambda v: np.nan if isinstance(v, str) and (v.strip().lower() in {lowered!r} or not v.strip()) else v)""",
    # a cell that is not a number is kept as it was (flagged in the report), never turned into a missing value
    "number_text": """\
_parsed = df[{col!r}].map(parse_number)
_kept = df[{col!r}].notna() & _parsed.isna()
df[{col!r}] = pd.to_numeric(_parsed, errors="coerce") if not _kept.any() else _parsed.astype(object).where(~_kept, df[{col!r}])""",
    "date_text": """\
df[{col!r}] = pd.to_datetime(df[{col!r}].map(lambda v: parse_date(v, dayfirst={dayfirst!r})), errors="coerce")""",
    "impossible:negative": """\
df.loc[df[{col!r}] < 0, {col!r}] = np.nan""",
    "impossible:codes": """\
df.loc[df[{col!r}].isin({values!r}), {col!r}] = np.nan""",
    "impossible:over_100": """\
df.loc[df[{col!r}] > 100, {col!r}] = np.nan""",
    "spelling": """\
df[{col!r}] = df[{col!r}].map(lambda v: {mapping!r}.get(v, v) if isinstance(v, str) else v)""",
    # {key value: [the value its rows agree on, [the cell values it replaces; None: a missing cell]]}
    "format": """\
df[{col!r}] = df[{col!r}].map(lambda v: {mapping!r}.get(v, v) if isinstance(v, str) else v)""",
    "group_conflict": """\
_fixes = {fixes!r}
_keys = df[{key!r}].map(lambda v: str(v) if v == v else None)
def _agree(v, k):
    to, wrong = _fixes.get(k, (None, ()))
    if k not in _fixes:
        return v
    if v is None or v != v:
        return to if None in wrong else v
    return to if v in wrong else v
df[{col!r}] = pd.Series([_agree(v, k) for v, k in zip(df[{col!r}].astype(object), _keys)], index=df.index, dtype=object).infer_objects()""",
    # a flag that its row's amount contradicts (evidence.rule_findings): set to the value the rule gives
    "rule_conflict": """\
_amount = pd.to_numeric(df[{other!r}], errors="coerce")
df.loc[(_amount > 0) & df[{col!r}].isin({wrong!r}), {col!r}] = {value!r}""",
    "drop_sparse_columns": """\
_sparse = [c for c in df.columns if c not in {keep!r} and df[c].isna().mean() > {threshold!r}]
df = df.drop(columns=_sparse)""",
    "impute": """\
for _c in df.columns:
    if _c in {keep!r} or not df[_c].isna().any() or df[_c].notna().sum() == 0:
        continue
    if pd.api.types.is_numeric_dtype(df[_c]) and not pd.api.types.is_bool_dtype(df[_c]):
        _whole = bool((df[_c].dropna() % 1 == 0).all())
        _mean = df[_c].mean()
        df[_c] = df[_c].fillna(round(_mean) if _whole else _mean)
    elif pd.api.types.is_datetime64_any_dtype(df[_c]):
        continue
    else:
        df[_c] = df[_c].fillna(df[_c].mode().iloc[0])""",
    "drop_duplicates": """\
df = df.drop_duplicates()""",
    "drop_missing_rows": """\
df = df.dropna()""",
    "drop_outliers": """\
_keep_rows = pd.Series(True, index=df.index)
for _c in df.select_dtypes("number").columns:
    if _c in {keep!r}:
        continue
    _q1, _q3 = df[_c].quantile(0.25), df[_c].quantile(0.75)
    _iqr = _q3 - _q1
    _keep_rows &= df[_c].isna() | df[_c].between(_q1 - 3 * _iqr, _q3 + 3 * _iqr)
df = df[_keep_rows]""",
    # The big-file path (bigpath.py): the table-wide figures of impute / drop_sparse_columns /
    # drop_outliers are computed once over the whole file and written in as literals, so the step
    # gives each chunk what it gives the whole table.
    "drop_columns": """\
df = df.drop(columns=[c for c in {columns!r} if c in df.columns])""",
    "impute_values": """\
for _c, _v in {values!r}.items():
    if _c in df.columns:
        df[_c] = df[_c].fillna(_v)""",
    "drop_outliers_bounds": """\
_keep_rows = pd.Series(True, index=df.index)
for _c, (_lo, _hi) in {bounds!r}.items():
    if _c in df.columns:
        _keep_rows &= df[_c].isna() | df[_c].between(_lo, _hi)
df = df[_keep_rows]""",
}


_TRACE_SOURCE = """
def _trace(n, before, after):
    common = [c for c in after.columns if c in before.columns]
    rows = after.index.intersection(before.index)
    changed, sample = 0, []
    for c in common:
        a, b = before.loc[rows, c], after.loc[rows, c]
        x, y = pd.to_numeric(a, errors="coerce"), pd.to_numeric(b, errors="coerce")
        same = (a.isna() & b.isna()) | (a.astype(str) == b.astype(str)) | (x.notna() & (x == y))
        changed += int((~same).sum())
        for r in same.index[~same.to_numpy()][:max(0, 3 - len(sample))]:
            sample.append(f"{c}: {repr(a[r])[:40]} → {repr(b[r])[:40]}")
    _CLEAN_TRACE.append({"step": n, "rows": len(after), "rows_dropped": len(before.index.difference(after.index)),
                         "columns_dropped": [str(c) for c in before.columns if c not in after.columns], "cells_changed": changed,
                         "sample": sample})"""


def snippet(step: dict[str, Any]) -> str:
    """The code of one plan step (``{kind, column, params}``)."""
    kind, params = step["kind"], dict(step.get("params") or {})
    key = f"impossible:{params.get('rule')}" if kind == "impossible" else kind
    if key not in _SNIPPETS:
        raise KeyError(f"no snippet for step kind {key!r}")
    if kind == "placeholder":
        params["lowered"] = sorted({str(v).strip().lower() for v in params.get("values", [])})
    params.setdefault("keep", [])
    params.setdefault("threshold", 0.4)
    return _SNIPPETS[key].format(col=step.get("column"), **params)


def build_function(steps: list[dict[str, Any]], custom_code: str | None = None, trace: bool = False) -> str:
    """The full ``data_cleaner`` source: imports and helpers inside, one commented block per step.

    ``trace``: after each step, append ``(step, rows kept, columns, cells changed)`` to the global
    list ``_CLEAN_TRACE`` (the sandbox's copy counts what each step did; the saved copy has no trace).
    """
    body = ["import numpy as np", "import pandas as pd", textwrap.dedent(HELPERS_SOURCE).strip(), "",
            "df = data_raw.copy()",
            "df.columns = [str(c).strip() for c in df.columns]"]
    if trace:
        body += [_TRACE_SOURCE, "_prev = df.copy()"]
    for step in steps:
        body.append("")
        body.append(f"# Step {step['n']}: {step['what']}")
        body.append(snippet(step))
        if trace:
            body.append(f"_trace({step['n']}, _prev, df)")
            body.append("_prev = df.copy()")
    if custom_code and custom_code.strip():
        body += ["", CUSTOM_MARK.strip(), textwrap.dedent(custom_code).strip(), "df = custom_steps(df)"]
        if trace:
            body.append(f"_trace({len(steps) + 1}, _prev, df)")
    body += ["", "return df"]
    inner = textwrap.indent("\n".join(body), "    ")
    head = f'def {FUNCTION_NAME}(data_raw):\n    """Clean a raw table the way the reviewed steps say; returns a new DataFrame (the input is not changed)."""\n'
    return head + inner + "\n"


_TRACE_LINE = re.compile(r"^    (_trace\(\d+, _prev, df\)|_prev = df\.copy\(\))\n", re.M)


def untraced(source: str) -> str:
    """``source`` without the trace lines :func:`build_function` adds with ``trace=True``: the code
    that is reviewed and saved. The execute node runs a traced function only when this gives back
    exactly the approved one (dsagent's own lines added, nothing else changed)."""
    block = textwrap.indent(_TRACE_SOURCE, "    ") + "\n"
    return _TRACE_LINE.sub("", source.replace(block, "", 1))


def custom_part(function_source: str) -> str | None:
    """The model-written ``custom_steps`` of a function built here, or None."""
    marker = CUSTOM_MARK.strip()
    if marker not in function_source:
        return None
    tail = function_source.split(marker, 1)[1]
    tail = tail.rsplit("df = custom_steps(df)", 1)[0]
    return textwrap.dedent(tail).strip() + "\n"
