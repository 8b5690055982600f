"""The model's choice of an operation, typed by the table it runs on.

:class:`Choice` is the generic shape (the operation, the columns it reads, an aggregate, filters).
The model fills one operation's own fields (:func:`args_model`), typed by the table: column names
are enums of the columns of the right kind, so under the embedded model's JSON grammar a column
that does not exist (or a text column where numbers are needed) cannot be written, and a hosted
model's reply is refused by validation; :func:`choice_of` maps them onto :class:`Choice`. :func:`problems` then checks by code what a schema cannot say (a mean of a
text column, a filter value that is not a value of its column), each problem a sentence the model
can act on.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, Field, create_model

from dsagent.ops.schema import TableSchema

OPERATIONS: dict[str, str] = {
    # name -> the shape of question it answers (what the model reads to choose)
    "aggregate": "one number over the rows: mean, median, total, min, max, std or count of a numeric column (or of two multiplied: units times price)",
    "extreme_group": "which group (a category) has the highest or lowest average, total or count of a numeric column (or of two multiplied)",
    "group_aggregate": "a table of a value per group (per …, by …, for each …), sorted; or the top N groups",
    "extreme_row": "which row (item, name, date) has the highest or lowest value of a numeric column",
    "count_rows": "how many rows meet one or more conditions",
    "share": "what percentage (share, proportion) of the rows meet a condition",
    "distinct_count": "how many different values a column has",
    "correlation": "the correlation between two numeric columns",
    "change": "how much a value changed or grew between the first and the last period",
    "quantile": "a percentile or quantile of a numeric column",
    "outliers": "how many outliers a numeric column has (1.5 IQR rule)",
    "compare_groups": "whether two groups differ in a numeric column (t-test, p-value)",
    "regression": "the linear trend of one numeric column on another (slope, intercept, r squared)",
    "resample": "a value per day, week, month, quarter or year, from a date column",
}
AGGREGATES = ("mean", "median", "sum", "min", "max", "std", "count", "nunique")
COMPARISONS = ("==", "!=", ">", ">=", "<", "<=")
FREQUENCIES = ("day", "week", "month", "quarter", "year")


class Filter(BaseModel):
    column: str
    op: Literal["==", "!=", ">", ">=", "<", "<="] = "=="
    value: str | float


class Choice(BaseModel):
    op: str = Field(description="the operation")
    column: Optional[str] = Field(None, description="the column whose values are computed")
    by: Optional[str] = Field(None, description="the grouping, label, period or date column")
    other: Optional[str] = Field(None, description="a second column (correlation, regression x)")
    agg: Optional[str] = None
    direction: Optional[Literal["highest", "lowest"]] = None
    filters: list[Filter] = Field(default_factory=list, description="rows to keep first")
    condition: list[Filter] = Field(default_factory=list, description="share: the rows counted")
    groups: list[str] = Field(default_factory=list, description="compare_groups: the two groups")
    q: Optional[float] = None
    top: Optional[int] = None
    freq: Optional[str] = None
    table: Optional[str] = Field(None, description="over a database: the table whose rows are counted (count_rows, share)")
    times: Optional[str] = Field(None, description="a second numeric column the value column is multiplied by, row by row (units × price)")

    def columns(self) -> set[str]:
        """Every column the operation reads (its roles, its filters and condition)."""
        used = {c for c in (self.column, self.by, self.other, self.times) if c}
        return used | {f.column for f in [*self.filters, *self.condition]}


_ARGS: dict[str, dict[str, str]] = {
    # operation -> its fields (as the model writes them) -> the field of Choice each fills
    "aggregate": {"value_column": "column", "multiplied_by": "times", "agg": "agg"},
    "group_aggregate": {"group_column": "by", "value_column": "column", "multiplied_by": "times", "agg": "agg", "order": "direction", "top": "top"},
    "extreme_group": {"group_column": "by", "value_column": "column", "multiplied_by": "times", "agg": "agg", "direction": "direction"},
    "extreme_row": {"value_column": "column", "label_column": "by", "direction": "direction"},
    "count_rows": {},
    "share": {"condition": "condition"},
    "distinct_count": {"column": "column"},
    "correlation": {"column_a": "column", "column_b": "other"},
    "change": {"value_column": "column", "period_column": "by", "agg": "agg", "period": "freq"},
    "quantile": {"value_column": "column", "q": "q"},
    "outliers": {"value_column": "column"},
    "compare_groups": {"value_column": "column", "group_column": "by", "group_a": "groups", "group_b": "groups"},
    "regression": {"y_column": "column", "x_column": "other"},
    "resample": {"date_column": "by", "value_column": "column", "freq": "freq", "agg": "agg"},
}


def _enum(names: list[str]) -> Any:
    return Literal[tuple(names)] if names else str  # type: ignore[valid-type]


def args_model(op: str, schema: TableSchema) -> type[BaseModel]:
    """The fields the model fills for ``op`` on this table, each typed by what it may name:
    numbers for a value column, a category or label column for a group, dates for a date column."""
    numeric = schema.numeric()
    groups = [c.name for c in schema.columns if c.kind in {"category", "text", "id"} or c.values]
    labels = [c.name for c in schema.columns if c.kind in {"category", "text", "id"} or c.name not in numeric]
    periods = [c.name for c in schema.columns if c.kind == "date" or (c.values and c.numeric)]
    dates = schema.names("date")
    names = schema.names()
    table_filter = create_model("RowFilter", column=(_enum(names), ...), op=(Literal[COMPARISONS], ...),  # type: ignore[valid-type]
                                value=(str | float, ...))
    field_types: dict[str, Any] = {
        "value_column": (_enum(numeric), ...), "group_column": (_enum(groups), ...), "label_column": (_enum(labels), ...),
        "period_column": (_enum(periods), ...), "date_column": (_enum(dates), ...), "column": (_enum(names), ...),
        "column_a": (_enum(numeric), ...), "column_b": (_enum(numeric), ...), "y_column": (_enum(numeric), ...),
        "x_column": (_enum(numeric), ...), "agg": (Literal[AGGREGATES], "mean"), "direction": (Literal["highest", "lowest"], ...),
        "order": (Literal["highest", "lowest"], "highest"), "top": (Optional[int], None), "q": (float, ...),
        "freq": (Literal[FREQUENCIES], ...), "period": (Optional[Literal[FREQUENCIES]], None), "group_a": (str, ...), "group_b": (str, ...),
        "condition": (list[table_filter], ...),  # type: ignore[valid-type]
        "multiplied_by": (Optional[_enum(numeric)], None),  # type: ignore[valid-type]
    }
    fields = {name: field_types[name] for name in _ARGS[op]}
    tables = sorted(getattr(schema, "table_rows", None) or ())
    if tables and op in _COUNTED:  # over a database: which table's rows are counted is the question's
        fields["rows_of"] = (_enum(tables), ...)
    fields["filters"] = (list[table_filter], Field(default_factory=list))  # type: ignore[valid-type]
    return create_model(f"{op.title().replace('_', '')}Args", **fields)


def available(schema: TableSchema) -> list[str]:
    """The operations this table can answer (e.g. no resample without a date column)."""
    numeric, dates = schema.numeric(), schema.names("date")
    out = []
    for op in OPERATIONS:
        if op == "resample" and not dates:
            continue
        if op in {"correlation", "regression"} and len(numeric) < 2:
            continue
        if op not in {"count_rows", "share", "distinct_count"} and not numeric:
            continue
        out.append(op)
    return out


def choice_of(op: str, args: BaseModel) -> Choice:
    """The operation's fields, as the model wrote them, in :class:`Choice`'s terms."""
    values = args.model_dump()
    out: dict[str, Any] = {"op": op, "filters": values.get("filters", []), "table": values.get("rows_of")}
    for name, target in _ARGS[op].items():
        value = values.get(name)
        if target == "groups":
            out.setdefault("groups", []).append(str(value))
        elif value is not None:
            out[target] = value
    # A share's condition copied into its filters would count only rows that meet it (100 %): a
    # small model repeats the condition there; the filter that is the condition itself is dropped.
    out["filters"] = [f for f in out["filters"] if f not in (out.get("condition") or [])]
    return Choice.model_validate(out)


_COUNTED = {"count_rows", "share"}
"""Operations that count rows: over several tables, the model names the table counted (``rows_of``)."""
_NEEDS: dict[str, tuple[str, ...]] = {
    "aggregate": ("column",), "group_aggregate": ("by",), "extreme_group": ("by",),
    "extreme_row": ("column",), "count_rows": (), "share": ("condition",), "distinct_count": ("column",),
    "correlation": ("column", "other"), "change": ("column", "by"), "quantile": ("column", "q"),
    "outliers": ("column",), "compare_groups": ("column", "by", "groups"), "regression": ("column", "other"),
    "resample": ("column", "by", "freq"),
}
_NUMERIC_COLUMN = {"correlation", "quantile", "outliers", "compare_groups", "regression", "extreme_row", "change"}


def matched_value(value: Any, values: tuple[str, ...]) -> str | None:
    """``value`` as it is written in the column (case and spacing aside), or None."""
    text = " ".join(str(value).split()).casefold()
    if isinstance(value, float) and value.is_integer():
        text = str(int(value))
    return next((v for v in values if " ".join(v.split()).casefold() == text), None)


def _is_number(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def problems(choice: Choice, schema: TableSchema) -> list[str]:
    """What makes this choice unable to answer on this table, in sentences (empty: it can run)."""
    found: list[str] = []
    if choice.op not in OPERATIONS:
        return [f"unknown operation {choice.op!r}"]
    for need in _NEEDS[choice.op]:
        if getattr(choice, need) in (None, [], ""):
            found.append(f"{choice.op} needs {need}")
    for role in ("column", "by", "other"):
        name = getattr(choice, role)
        if name is not None and schema.column(name) is None:
            found.append(f"{role} {name!r} is not a column")
    numeric = set(schema.numeric())
    agg = choice.agg or ("mean" if choice.op in {"aggregate", "group_aggregate", "extreme_group", "change", "resample"} else None)
    counts = agg in {"count", "nunique"}
    if choice.column and schema.column(choice.column) and choice.column not in numeric:
        if choice.op in _NUMERIC_COLUMN or (agg and not counts and choice.op in {"aggregate", "group_aggregate", "extreme_group", "resample"}):
            found.append(f"column {choice.column!r} is not numeric: {agg or choice.op} needs numbers")
    if choice.op in {"correlation", "regression"} and choice.other and choice.other not in numeric:
        found.append(f"other {choice.other!r} is not numeric")
    if choice.times is not None and choice.times not in numeric:
        found.append(f"multiplied_by {choice.times!r} is not a numeric column")
    if choice.times is not None and (choice.column is None or counts):
        found.append(f"multiplied_by needs a numeric value column and a sum, mean, min or max ({agg} was chosen)")
    if choice.op == "resample" and choice.by and (col := schema.column(choice.by)) and col.kind != "date":
        found.append(f"by {choice.by!r} is not a date column")
    if choice.op == "compare_groups" and len(choice.groups) != 2:
        found.append("compare_groups needs exactly two groups")
    if choice.op == "compare_groups" and choice.by and (col := schema.column(choice.by)) and col.values:
        found += [f"group {g!r} is not a value of {choice.by!r}" for g in choice.groups if matched_value(g, col.values) is None]
    if choice.op == "quantile" and choice.q is not None and not 0 <= (choice.q if choice.q <= 1 else choice.q / 100) <= 1:
        found.append("q must be between 0 and 1")
    for f in [*choice.filters, *choice.condition]:
        col = schema.column(f.column)
        if col is None:
            found.append(f"filter column {f.column!r} is not a column")
        elif col.kind == "category" and f.op in {"==", "!="} and matched_value(f.value, col.values) is None:
            found.append(f"{f.value!r} is not a value of {f.column!r} (values: {', '.join(col.values[:8])})")
        elif f.op not in {"==", "!="} and col.kind not in {"number", "date"} and not col.numeric:
            found.append(f"{f.column!r} is not numeric: it cannot be compared with {f.op}")
        elif (col.numeric or col.kind == "number") and not _is_number(f.value) and matched_value(f.value, col.values) is None:
            found.append(f"{f.value!r} is not a number, and {f.column!r} holds numbers")
    return found
