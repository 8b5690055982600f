"""A question's first code composed from an analysis operation the model chooses (``dsagent.ops``).

Used by a code step before it asks the model to write code: when the run has one pandas table (or
a database source's tables) and the ``operations`` setting is on, and the question asks for at most
one named value, the model chooses an operation and its arguments, typed by the table (over a
database: by every table's columns, named ``table.column``), and code writes the pandas (over a
database: one SQL query that follows the join path between the tables, :mod:`dsagent.ops.sqlcompile`). ``None`` means "write code as usual": no single table, the
model chose ``code``, its choice had problems (the reason is in the step's detail), the question
names a column the operation does not read (it asks for more than this operation), or the reply
was not valid JSON. A composed code that then fails or misfits is not fixed: the next attempt
writes free code (:func:`dsagent.ops.compile.composed` tells a composed code by its first line).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

    from dsagent.runtime import RunContext


def one_table(ctx: "RunContext") -> Any:
    """The run's one pandas table (not a database table or a file too big for pandas), else None."""
    if len(ctx.datasets) != 1:
        return None
    ds = next(iter(ctx.datasets.values()))
    if getattr(ds, "big", None) is not None or getattr(ds, "table", None) is not None:
        return None
    return getattr(ds, "frame", None)


def composed_code(ctx: "RunContext", question: str, messages_for: Callable[[str], list["BaseMessage"]],
                  step: dict[str, Any], enabled: bool | None = None) -> str | None:
    """The compiled code of the operation the model chose for ``question``, or None (see the module).
    ``messages_for(instruction)`` puts the workflow's stable prefix before each instruction.
    ``enabled``: whether operations are used (default: the setting ``operations``; the check of
    :mod:`~dsagent.workflows.common.verify` uses them as its own route whatever the setting)."""
    from dsagent.errors import StructuredOutputError
    from dsagent.ops import table_schema
    from dsagent.ops.choose import choose
    from dsagent.ops.dbschema import split
    from dsagent.workflows.common.named import names_data
    from dsagent.workflows.common.wording import requested_keys

    if not (ctx.settings.operations if enabled is None else enabled) or len(requested_keys(question)) > 1:  # several named values: more than one operation
        return None
    frame, database = one_table(ctx), None
    if frame is None:
        try:
            database = database_tables(ctx)
        except Exception as exc:  # noqa: BLE001 - the catalog or a values query failed: the operations are optional, free code answers
            step["detail"] = step.get("detail", "") + f"no operation (the database's schema could not be read: {type(exc).__name__}); "
            return None
        if database is None:
            return None
    ask = lambda text, model: ctx.llm_structured(messages_for(text), model)  # noqa: E731
    try:
        if database is not None:
            chosen = _choose_in_database(ctx, ask, question, database)
        else:
            chosen = choose(ask, question, table_schema(frame))
    except StructuredOutputError as exc:
        step["detail"] = step.get("detail", "") + f"no operation (reply not valid JSON: {str(exc).splitlines()[0][:80]}); "
        return None
    if not chosen.code:
        step["detail"] = step.get("detail", "") + f"no operation ({chosen.why_not}); "
        return None
    columns = set(frame.columns) if frame is not None else {split(c.name)[1] for c in database.columns}
    chosen_columns = chosen.choice.columns() if frame is not None else {split(c)[1] for c in chosen.choice.columns()}
    unused = [c for c in names_data(question, ctx.datasets) if c in columns and c not in chosen_columns]
    if unused:  # the question works with a column the operation ignores: more than this operation
        step["detail"] = step.get("detail", "") + f"no operation ({chosen.choice.op} does not use {', '.join(unused[:3])}); "
        return None
    step["detail"] = step.get("detail", "") + f"operation {chosen.choice.op}; "
    return chosen.code


def database_tables(ctx: "RunContext") -> Any:
    """The schema of the run's database tables (:mod:`dsagent.ops.dbschema`) when every dataset is
    one, else None. Category values are read with one small query each unless data_sharing is schema;
    the schema is built once per connection (the broker) and tables, as the profile is described once
    per session: a session's later questions, and the check beside the answer, reuse it."""
    datasets = list(ctx.datasets.values())
    broker = getattr(ctx.sandbox, "broker", None)
    if not datasets or broker is None or any(getattr(ds, "table", None) is None for ds in datasets):
        return None
    from dsagent.ops.dbschema import database_schema

    key = (ctx.settings.data_sharing, tuple(sorted(ds.id for ds in datasets)))
    kept = _SCHEMAS.get(broker)
    if kept is not None and kept[0] == key:
        return kept[1]
    engine = broker.engine
    values = None if ctx.settings.data_sharing == "schema" or not hasattr(engine, "run") else _values_reader(engine)
    schema = database_schema(datasets, values)  # joins from the keys the tables were described with (sources.tables)
    _SCHEMAS[broker] = (key, schema)
    return schema


_SCHEMAS: "WeakKeyDictionary[Any, tuple[Any, Any]]" = WeakKeyDictionary()
"""The database schema built for a broker (a session's connection), with what it was built for."""


def _values_reader(engine: Any) -> Callable[[str, str], list[str]]:
    from dsagent.data.table_profile import quoted
    from dsagent.ops.schema import MAX_CATEGORY_VALUES
    from dsagent.sources.guard import translate

    def values(table: str, column: str) -> list[str]:
        query = (f"SELECT {quoted(column)} AS v, COUNT(*) AS n FROM {quoted(table)} WHERE {quoted(column)} IS NOT NULL "
                 f"GROUP BY 1 ORDER BY 2 DESC LIMIT {MAX_CATEGORY_VALUES + 1}")
        frame, _ = engine.run(translate(query, engine.dialect), MAX_CATEGORY_VALUES + 1)
        return list(frame["v"])

    return values


def _choose_in_database(ctx: "RunContext", ask: Any, question: str, schema: Any) -> Any:
    from dsagent.ops.choose import choose
    from dsagent.ops.sqlcompile import SQL_OPERATIONS, compile_sql

    dialect = ctx.sandbox.broker.dialect
    return choose(ask, question, schema, compiler=lambda choice: compile_sql(choice, schema, dialect), offered=SQL_OPERATIONS)
