"""The grounding check as a workflow step: one call from every explain step, recorded in the run log.

    grounded = ground_in_run(ctx, explanation, execution_result, state["question"], regenerate)
    final_output["explanation"], final_output["grounding"] = grounded.text, grounded.record()

``regenerate(feedback) -> str`` asks the model once more with the discrepancy named (None: mend by
code at once). A structured answer of several texts (react's report sections) goes through
:func:`ground_parts`, which checks each and returns one merged record. When a claim was caught, a
``grounding`` step row says what and what was done; the report shows it as a caveat
(reports.build.grounding_caveat reads ``final_output["grounding"]``). The rules themselves are in
:mod:`.grounding`; the decimals a question asks for are then applied by :mod:`.precision`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dsagent.workflows.common.grounding import GroundedText, data_facts, data_labels, ground_explanation

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

    from dsagent.runtime import RunContext


def run_labels(ctx: "RunContext") -> list[str]:
    """The text values of the run's datasets, computed once per run context."""
    cached = getattr(ctx, "_grounding_labels", None)
    if cached is None:
        cached = data_labels(ctx.datasets or {})
        ctx._grounding_labels = cached  # type: ignore[attr-defined]
    return cached


def run_misfit(ctx: "RunContext", question: str, code: str, execution_result: dict[str, Any] | None) -> str | None:
    """:func:`fit.result_misfit` with what the run's data gives it (its text values, its text
    columns and every column name, each read once per run context): the one way the code step,
    the independent checks and quick's evaluate ask whether a result fits the question. An answer
    written out by code that never reads the data (``fit.sanity.written_out``) fits no question, nor
    a mean of a column outside the column's values (``fit.sanity.mean_outside_range``)."""
    from dsagent.workflows.common.fit import result_misfit
    from dsagent.workflows.common.fit.sanity import mean_outside_range, written_out
    from dsagent.workflows.common.mends import run_facts

    facts = run_facts(ctx)
    shown = execution_result or {}
    return (result_misfit(question, code, execution_result, run_labels(ctx), facts.text_columns, facts.columns, facts.periods,
                          facts.values, facts.per_year, facts.rows)
            or written_out(code)
            or mean_outside_range(question, str(shown.get("result_type") or ""), str(shown.get("result_str") or ""), facts.ranges))


def mend_to_fit(ctx: "RunContext", question: str, code: str, execution_result: dict[str, Any] | None,
                run: Callable[[str], tuple[Any, dict[str, Any] | None]]) -> tuple[str, Any, dict[str, Any] | None, list[str]] | None:
    """A code whose result misfits ``question``, mended by code (``mends.mend_chain``) and judged by
    :func:`run_misfit`, each try run by ``run``: (code, run, result, mend labels) once it fits, else
    None. The one way the code step and the independent checks mend a misfit."""
    from dsagent.workflows.common.mends import mend_chain, run_facts

    return mend_chain(question, code, execution_result, run_facts(ctx), run,
                      lambda c, result: run_misfit(ctx, question, c, result))


def code_conditions(code: str | list[str] | None) -> str:
    """The text values the code itself wrote (``df['region'] == 'South'``): conditions the analysis
    applied, so an explanation may name them although no output repeats them."""
    import ast

    found: list[str] = []
    for source in [code] if isinstance(code, str) else (code or []):
        try:
            tree = ast.parse(source or "")
        except SyntaxError:
            continue
        found += [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) < 80]
    return "\n".join(found)


def ground_in_run(ctx: "RunContext", text: str, outputs: Any, question: str,
                  regenerate: Callable[[str], str] | None = None, code: str | list[str] | None = None) -> GroundedText:
    """:func:`ground_explanation` with the run's data labels, recorded in the run log when it caught
    something. ``code``: the code that computed ``outputs``; its text values count as stated
    conditions, not findings."""
    grounded = _ground(ctx, text, outputs, question, regenerate, code)
    _log(ctx, grounded)
    return grounded


def ground_parts(ctx: "RunContext", texts: list[str], outputs: Any, question: str,
                 code: str | list[str] | None = None) -> tuple[list[str], GroundedText]:
    """Several texts of one answer (a report's text sections), each checked against the same
    outputs and mended by code (no model call: a structured answer is not asked again). Returns
    the texts as mended and one :class:`GroundedText` for them all (its ``text`` the parts joined),
    recorded in the run log once when it caught something."""
    parts = [_ground(ctx, text, outputs, question, None, code) for text in texts]
    merged = GroundedText(text="\n\n".join(p.text for p in parts), claims_checked=sum(p.claims_checked for p in parts),
                          ungrounded_caught=[c for p in parts for c in p.ungrounded_caught],
                          ungrounded_left=[c for p in parts for c in p.ungrounded_left],
                          actions=[a for p in parts for a in p.actions], rounded=[r for p in parts for r in p.rounded])
    _log(ctx, merged)
    return [p.text for p in parts], merged


def _ground(ctx: "RunContext", text: str, outputs: Any, question: str, regenerate: Callable[[str], str] | None,
            code: str | list[str] | None) -> GroundedText:
    from dsagent.workflows.common.precision import apply_precision

    known = "\n".join(filter(None, [data_facts(ctx.datasets or {}), code_conditions(code)]))
    grounded = ground_explanation(text, outputs, question=question, labels=run_labels(ctx), regenerate=regenerate, known=known)
    grounded.text, grounded.rounded = apply_precision(grounded.text, question, outputs)  # the decimals the question asks for
    return grounded


def _log(ctx: "RunContext", grounded: GroundedText) -> None:
    """A ``grounding`` step row saying what was caught and done, when anything was."""
    if grounded.ungrounded_caught or grounded.actions or grounded.rounded:
        outcome = "left" if grounded.ungrounded_left else ("mended" if any(not a.startswith("regenerated") for a in grounded.actions) else "regenerated")
        step_id = ctx.run_log.start_step(ctx.run_id, "grounding")
        ctx.run_log.finish_step(step_id, outcome, 0.0, grounded.detail())


def regenerate_with(ctx: "RunContext", messages: list["BaseMessage"], first: str, max_tokens: int) -> Callable[[str], str]:
    """A ``regenerate`` that continues the explain call's conversation: its prompt (cached by the
    model), the first answer, then the feedback."""
    from langchain_core.messages import AIMessage, HumanMessage

    def regenerate(feedback: str) -> str:
        return ctx.llm([*messages, AIMessage(content=first), HumanMessage(content=feedback)], max_tokens=max_tokens).strip()

    return regenerate

