"""A chosen operation over a database, written as one SQL query and a line of pandas.

The query aggregates in the database (no table comes into pandas whole, so the broker's row cap
never cuts what is summed) and follows the join path between the tables the choice names
(:func:`dsagent.ops.dbschema.join_path`). It is DuckDB SQL, as every ``sql()`` call is; the broker
translates it to the database's dialect. A join that would repeat the rows being aggregated (from
a key to the rows that refer to it: a customer's age once per order) is refused, as is an aggregate
the dialect has no function for; the caller then writes free code.
"""

from __future__ import annotations

from collections.abc import Callable

from dsagent.ops.choice import Choice, Filter, problems
from dsagent.ops.compile import MARK, NotCompilable, period_bounds, period_terms, typed_value
from dsagent.ops.dbschema import DatabaseSchema, join_path, split

SQL_OPERATIONS = ("aggregate", "group_aggregate", "extreme_group", "extreme_row", "count_rows", "share", "distinct_count")
"""The operations compiled to SQL; the others need a table in pandas and are not offered over a database."""
_SQL_AGG = {"mean": "AVG({})", "sum": "SUM({})", "min": "MIN({})", "max": "MAX({})", "count": "COUNT({})",
            "nunique": "COUNT(DISTINCT {})", "median": "MEDIAN({})", "std": "STDDEV_SAMP({})"}
_PORTABLE = {"mean", "sum", "min", "max", "count", "nunique"}
"""Aggregates every dialect has; median and std only where the database has them."""
_WITH_ALL = {"duckdb", "postgres", "spark", "databricks"}


def _quoted(name: str) -> str:
    """``name`` as a double-quoted DuckDB identifier."""
    from sqlglot import exp

    return exp.to_identifier(name, quoted=True).sql("duckdb")


def _text(value: object) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def _bases(choice: Choice, tables: list[str], schema: DatabaseSchema) -> list[str]:
    """The tables the query may start from, in order. The rows aggregated are the base's: the value
    column's table; for a product of two columns either's (the finer one keeps the other's rows
    once: quantity × a product's price starts from the order lines); for a count the table named; a
    distinct count may start anywhere, a table the choice does not name included (a bridge)."""
    if choice.op == "distinct_count":
        return list(dict.fromkeys([*tables, *sorted(schema.table_rows)]))
    if choice.column:
        return list(dict.fromkeys(split(c)[0] for c in (choice.times, choice.column) if c))
    return [choice.table] if choice.table else tables


class _Query:
    """The FROM clause of a choice (its base table and joins) and its column expressions."""

    def __init__(self, choice: Choice, schema: DatabaseSchema) -> None:
        self.schema = schema
        used = [c for c in (choice.column, choice.times, choice.by, choice.other) if c] + [f.column for f in [*choice.filters, *choice.condition]]
        tables = list(dict.fromkeys([*([choice.table] if choice.table else []), *(split(c)[0] for c in used)]))  # first: the table counted
        if not tables:
            raise NotCompilable("the choice names no column")
        for base in _bases(choice, tables, schema):
            path = join_path(schema, base, tables)
            if path is None:
                continue
            fans = [j for j in path if f"{j.right}.{j.right_column}" not in schema.keys]
            if not fans or choice.op == "distinct_count":  # a distinct count is the same however often a row repeats
                self.base, self.path = base, path
                break
        else:
            first = choice.table or split(choice.column or used[0])[0]
            raise NotCompilable(f"no join path between {', '.join(tables)} that keeps each {first} row once "
                                "(declare a foreign key, or ask about one table)")
        self.alias = {self.base: "t0"}
        for j in self.path:
            self.alias.setdefault(j.right, f"t{len(self.alias)}")

    def col(self, name: str) -> str:
        table, column = split(name)
        return f"{self.alias[table]}.{_quoted(column)}"

    def source(self) -> str:
        lines = [f"FROM {_quoted(self.base)} AS t0"]
        for j in self.path:
            lines.append(f"JOIN {_quoted(j.right)} AS {self.alias[j.right]} "
                         f"ON {self.alias[j.left]}.{_quoted(j.left_column)} = {self.alias[j.right]}.{_quoted(j.right_column)}")
        return "\n".join(lines)

    def condition(self, filters: list[Filter]) -> str:
        parts = []
        for f in filters:
            column = self.schema.column(f.column)
            bounds = period_bounds(f.value, as_text=True) if column is not None and column.kind == "date" else None
            if bounds is not None:  # a year or a month: the whole period, compared as ISO text (compile.period_bounds)
                terms, joined = period_terms(f.op, bounds)
                found = [f"CAST({self.col(f.column)} AS VARCHAR) {op} {_text(bound)}" for op, bound in terms]
                parts.append(found[0] if len(found) == 1 else "(" + f" {joined.upper()} ".join(found) + ")")
                continue
            op = "<>" if f.op == "!=" else ("=" if f.op == "==" else f.op)
            value = typed_value(f.value, column)
            parts.append(f"{self.col(f.column)} {op} {_text(value) if isinstance(value, str) else repr(value)}")
        return " AND ".join(parts)

    def where(self, filters: list[Filter], *extra: str) -> str:
        parts = [p for p in (self.condition(filters), *extra) if p]
        return f"\nWHERE {' AND '.join(parts)}" if parts else ""


def _agg(c: Choice, q: _Query, dialect: str) -> tuple[str, str]:
    """(the aggregate's SQL over the value column, its label)."""
    agg = c.agg or "mean"
    if agg not in _PORTABLE and dialect not in _WITH_ALL:
        raise NotCompilable(f"{agg} has no function in {dialect}")
    if c.column is None:
        return "COUNT(*)", "rows"
    if c.times:  # a product row by row: units × price
        return _SQL_AGG[agg].format(f"{q.col(c.column)} * {q.col(c.times)}"), f"{agg} of {split(c.column)[1]} * {split(c.times)[1]}"
    return _SQL_AGG[agg].format(q.col(c.column)), f"{agg} of {split(c.column)[1]}"


def _call(query: str) -> str:
    return f'sql("""\n{query}\n""")'


def _aggregate(c: Choice, q: _Query, dialect: str) -> list[str]:
    value, label = _agg(c, q, dialect)
    query = f"SELECT {value} AS {_quoted(label)}\n{q.source()}{q.where(c.filters)}"
    return [f"result = {_call(query)}.iloc[0, 0]"]


def _grouped(c: Choice, q: _Query, dialect: str, order: str, limit: int | None) -> tuple[str, str, str]:
    value, label = _agg(c, q, dialect)
    group = q.col(c.by or "")
    by = split(c.by or "")[1]
    query = (f"SELECT {group} AS {_quoted(by)}, {value} AS {_quoted(label)}\n{q.source()}"
             f"{q.where(c.filters, f'{group} IS NOT NULL')}\nGROUP BY 1\nORDER BY 2 {order} NULLS LAST"
             + (f"\nLIMIT {int(limit)}" if limit else ""))
    return query, by, label


def _group_aggregate(c: Choice, q: _Query, dialect: str) -> list[str]:
    query, by, label = _grouped(c, q, dialect, "ASC" if c.direction == "lowest" else "DESC", c.top)
    return [f"result = {_call(query)}.set_index({by!r})[{label!r}]"]


def _extreme_group(c: Choice, q: _Query, dialect: str) -> list[str]:
    query, by, label = _grouped(c, q, dialect, "ASC" if c.direction == "lowest" else "DESC", 1)
    return [f"top = {_call(query)}.iloc[0]", f"result = {{{by!r}: top[{by!r}], {label!r}: top[{label!r}]}}"]


def _extreme_row(c: Choice, q: _Query, dialect: str) -> list[str]:
    column, value = q.col(c.column or ""), split(c.column or "")[1]
    label = c.by or c.other
    picked = [f"{q.col(label)} AS {_quoted(split(label)[1])}"] if label else []
    order = "ASC" if c.direction == "lowest" else "DESC"
    query = (f"SELECT {', '.join([*picked, f'{column} AS {_quoted(value)}'])}\n{q.source()}"
             f"{q.where(c.filters, f'{column} IS NOT NULL')}\nORDER BY {len(picked) + 1} {order}\nLIMIT 1")
    if label:
        return [f"row = {_call(query)}.iloc[0]", f"result = {{{split(label)[1]!r}: row[{split(label)[1]!r}], {value!r}: row[{value!r}]}}"]
    return [f"result = {_call(query)}.iloc[0, 0]"]


def _count_rows(c: Choice, q: _Query, dialect: str) -> list[str]:
    query = f"SELECT COUNT(*) AS n\n{q.source()}{q.where(c.filters)}"
    return [f"result = int({_call(query)}.iloc[0, 0])"]


def _share(c: Choice, q: _Query, dialect: str) -> list[str]:
    query = (f"SELECT 100.0 * AVG(CASE WHEN {q.condition(c.condition)} THEN 1 ELSE 0 END) AS {_quoted('percent')}\n"
             f"{q.source()}{q.where(c.filters)}")
    return [f"result = float({_call(query)}.iloc[0, 0])  # percent of the rows"]


def _distinct_count(c: Choice, q: _Query, dialect: str) -> list[str]:
    query = f"SELECT COUNT(DISTINCT {q.col(c.column or '')}) AS n\n{q.source()}{q.where(c.filters)}"
    return [f"result = int({_call(query)}.iloc[0, 0])"]


_WRITERS: dict[str, Callable[[Choice, _Query, str], list[str]]] = {
    "aggregate": _aggregate, "group_aggregate": _group_aggregate, "extreme_group": _extreme_group,
    "extreme_row": _extreme_row, "count_rows": _count_rows, "share": _share, "distinct_count": _distinct_count,
}


def compile_sql(choice: Choice, schema: DatabaseSchema, dialect: str = "duckdb") -> str:
    """The code for ``choice`` over the database: one ``sql()`` query and the pandas that shapes its
    rows like the pandas operation's result (raises :class:`NotCompilable`)."""
    if choice.op not in _WRITERS:
        raise NotCompilable(f"{choice.op} is not computed in SQL")
    found = problems(choice, schema)
    if found:
        raise NotCompilable("; ".join(found))
    return "\n".join([f"{MARK}{choice.op}", *_WRITERS[choice.op](choice, _Query(choice, schema), dialect)]) + "\n"
