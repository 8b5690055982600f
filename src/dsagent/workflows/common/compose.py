"""A question's first code composed from an analysis operation the model chooses (``dsagent.ops``).

Used by a code step before it asks the model to write code: when the run has one pandas table and
the ``operations`` setting is on, and the question asks for at most one named value, the model chooses an operation and its arguments, typed by the
table, and code writes the pandas. ``None`` means "write code as usual": no single table, the
model chose ``code``, its choice had problems (the reason is in the step's detail), the question
names a column the operation does not read (it asks for more than this operation), or the reply
was not valid JSON. A composed code that then fails or misfits is not fixed: the next attempt
writes free code (:func:`dsagent.ops.compile.composed` tells a composed code by its first line).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
                  step: dict[str, Any]) -> str | None:
    """The compiled code of the operation the model chose for ``question``, or None (see the module).
    ``messages_for(instruction)`` puts the workflow's stable prefix before each instruction."""
    from dsagent.errors import StructuredOutputError
    from dsagent.ops import table_schema
    from dsagent.ops.choose import choose
    from dsagent.workflows.common.named import names_data
    from dsagent.workflows.common.prompting import requested_keys

    frame = one_table(ctx) if ctx.settings.operations else None
    if frame is None or len(requested_keys(question)) > 1:  # several named values: more than one operation
        return None
    try:
        chosen = choose(lambda text, model: ctx.llm_structured(messages_for(text), model), question, table_schema(frame))
    except StructuredOutputError as exc:
        step["detail"] = step.get("detail", "") + f"no operation (reply not valid JSON: {str(exc).splitlines()[0][:80]}); "
        return None
    if not chosen.code:
        step["detail"] = step.get("detail", "") + f"no operation ({chosen.why_not}); "
        return None
    unused = [c for c in names_data(question, ctx.datasets) if c in frame.columns and c not in chosen.choice.columns()]
    if unused:  # the question works with a column the operation ignores: more than this operation
        step["detail"] = step.get("detail", "") + f"no operation ({chosen.choice.op} does not use {', '.join(unused[:3])}); "
        return None
    step["detail"] = step.get("detail", "") + f"operation {chosen.choice.op}; "
    return chosen.code
