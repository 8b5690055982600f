"""Ask the model which operation answers a question, and its arguments, typed by the table.

Two short structured calls: the operation (an enum of those the table can answer, or ``code`` when
none fits), then that operation's own fields (:func:`~dsagent.ops.choice.args_model`: a value
column can only be a numeric column, a date column only a date, and so on). One flat form with
every field confused a small model (a minimum with a filter for "the lowest average per group");
one operation's few named fields does not. A choice with problems
(:func:`~dsagent.ops.choice.problems`) is not run: the caller falls back to free code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, create_model

from dsagent.ops.choice import OPERATIONS, Choice, args_model, available, choice_of, problems
from dsagent.ops.compile import NotCompilable, compile_choice
from dsagent.ops.schema import TableSchema

ESCAPE = "code"
"""The operation the model names when none fits: free code is written instead."""

PICK = """Which ONE operation computes the answer to the question? Reply with JSON only.
{operations}
- code: anything else: a new column made from others (a sum, ratio or bins), a prediction or model, several steps, a chart
Question: {question}"""

FILL = """Operation {op}: {what}.
Columns: {columns}
Fill its fields for the question. filters: one per condition the question puts on the rows (column, op, value; value exactly as written in the column); [] if it asks about all rows.{extra}
Question: {question}"""

_EXTRA = {
    "share": " condition: the rows whose share is asked (e.g. [{\"column\": \"status\", \"op\": \"==\", \"value\": \"late\"}]).",
    "quantile": " q: between 0 and 1 (the 90th percentile is 0.9).",
    "change": " period_column: the year, month or date column; period: day|week|month|quarter|year when it is a date column; agg: how a period's rows combine.",
    "compare_groups": " group_a, group_b: the two values of group_column compared.",
}

_PERIOD_WORDS = {"day": r"\bdai?ly\b|\bper day\b|\bdays?\b", "week": r"\bweekly\b|\bweeks?\b",
                 "month": r"\bmonthly\b|\bmonths?\b", "quarter": r"\bquarterly\b|\bquarters?\b",
                 "year": r"\byearly\b|\bannual(?:ly)?\b|\byears?\b"}

Ask = Callable[[str, type[BaseModel]], BaseModel]


@dataclass(frozen=True)
class Chosen:
    """An operation the model chose that can run, with its code; or why not (``code`` empty)."""

    choice: Choice | None
    code: str
    why_not: str = ""


def columns_line(schema: TableSchema, values: int = 6) -> str:
    """The columns as the prompt lists them: name (kind: a few values for a category)."""
    parts = []
    for c in schema.columns:
        shown = f": {', '.join(c.values[:values])}{', …' if len(c.values) > values else ''}" if c.values else ""
        parts.append(f"{c.name} ({c.kind}{shown})")
    return "; ".join(parts)


def pick_instruction(question: str, ops: list[str]) -> str:
    return PICK.format(operations="\n".join(f"- {op}: {OPERATIONS[op]}" for op in ops), question=question)


def fill_instruction(op: str, question: str, schema: TableSchema) -> str:
    return FILL.format(op=op, what=OPERATIONS[op], columns=columns_line(schema), extra=_EXTRA.get(op, ""), question=question)


def choose(ask: Ask, question: str, schema: TableSchema, frame: str = "df",
           compiler: Callable[[Choice], str] | None = None, offered: tuple[str, ...] | None = None) -> Chosen:
    """The model's operation for ``question`` and its compiled code. ``ask(instruction, model)``
    makes one structured call (the caller puts its stable prefix before the instruction).
    ``compiler``: writes a choice's code (default: pandas on ``frame``); ``offered``: the operations
    it can compile (default: all the table can answer)."""
    ops = [op for op in available(schema) if offered is None or op in offered]
    picker = create_model("Operation", operation=(Literal[(*ops, ESCAPE)], ...))  # type: ignore[valid-type]
    op = getattr(ask(pick_instruction(question, ops), picker), "operation")
    if op == ESCAPE:
        return Chosen(None, "", "the model chose to write code")
    choice = _periods_named(choice_of(op, ask(fill_instruction(op, question, schema), args_model(op, schema))), question, schema)
    found = problems(choice, schema)
    if found:
        return Chosen(choice, "", "; ".join(found))
    try:
        return Chosen(choice, compiler(choice) if compiler else compile_choice(choice, schema, frame))
    except (NotCompilable, ValueError, TypeError) as exc:  # a value the column cannot hold: free code, never a crash
        return Chosen(choice, "", f"{type(exc).__name__}: {exc}" if not isinstance(exc, NotCompilable) else str(exc))


def _periods_named(choice: Choice, question: str, schema: TableSchema) -> Choice:
    """A period over a date column that the question names in words ("monthly", "per year") but the
    model left out: a small model skips optional fields, and code can read the word."""
    column = schema.column(choice.by or "")
    if choice.op not in {"change", "resample"} or choice.freq or column is None or column.kind != "date":
        return choice
    named = [f for f, words in _PERIOD_WORDS.items() if re.search(words, question, re.I)]
    return choice.model_copy(update={"freq": named[0]}) if len(named) == 1 else choice
