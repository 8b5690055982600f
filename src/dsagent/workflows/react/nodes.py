"""Seed 001's three nodes: ``reason`` (decide: ask, act or finalize), ``code_exec`` (write and run
one step's code), ``report`` (the structured report); the report's assembly is in :mod:`.report`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from dsagent.errors import StructuredOutputError
from dsagent.runtime import RunContext
from dsagent.workflows.common.attempt import Attempt, attempt_code
from dsagent.workflows.common.code import record_figures, write_code
from dsagent.workflows.common.compose import composed_code
from dsagent.workflows.common.grounded import ground_parts
from dsagent.workflows.common.prompting import stable_messages
from dsagent.workflows.common.verify import start_check
from dsagent.workflows.react import prompts
from dsagent.workflows.react.code_policy import ALLOWED_IMPORTS, check_code, expected_outputs
from dsagent.workflows.react.report import build_final_output, check_state, fallback_report, package_of, verification
from dsagent.workflows.react.routing import limit_reached
from dsagent.workflows.react.state import (
    ReactState,
    DataFrameInfo,
    ExecutionResult,
    ExpectedOutput,
    ReasonOutput,
    ReportOutput,
)

Node = Callable[[ReactState], dict[str, Any]]
_NONE = {"", "none", "null", "n/a", "-"}


def history(state: ReactState) -> list[BaseMessage]:
    """The earlier turns: everything before this user message (the last human message)."""
    messages = list(state.messages)
    last = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=len(messages))
    return messages[:last]


def messages_for(state: ReactState, instruction: str) -> list[BaseMessage]:
    """The stable prefix (role + data profile), the earlier turns, then the node's instruction."""
    return stable_messages({"messages": history(state), "data_summary": state.data_summary}, instruction)


def dataframe_info(datasets: Mapping[str, Any]) -> dict[str, DataFrameInfo]:
    """The seed's ``df_info`` for each session dataset (first 5 rows as JSON-safe records)."""
    info = {}
    for ds_id, ds in datasets.items():
        frame = ds.frame
        head = json.loads(frame.head().to_json(orient="records", date_format="iso", force_ascii=False))
        info[ds_id] = DataFrameInfo(shape=ds.shape, columns=[str(c) for c in frame.columns],
                                    dtypes={str(c): str(t) for c, t in frame.dtypes.items()}, head=head)
    return info


def _text(value: str | None) -> str:
    return (value or "").strip() if (value or "").strip().lower() not in _NONE else ""


def make_nodes(ctx: RunContext) -> dict[str, Node]:
    max_loops = ctx.settings.react_max_loops

    def reason_node(state: ReactState) -> dict[str, Any]:
        with ctx.step("reason") as step:
            update: dict[str, Any] = {}
            # Back from code_exec: one loop done (the seed's increment, counted per request).
            loops = state.loop_count + 1 if state.next_action == "act" else state.loop_count
            update["loop_count"] = loops
            if not state.df_info and ctx.datasets:
                update["df_info"] = dataframe_info(ctx.datasets)
            if state.workspace_dir is None:
                update["workspace_dir"] = str(ctx.workspace)
            if not ctx.datasets:
                # The seed's first rule: no data → ask for an upload (no model needed for that).
                question = prompts.UPLOAD[prompts.language(state.question)]
                step["detail"] = "ask: no dataset"
                return {**update, "next_action": "ask", "instruction": None, "messages": [AIMessage(content=question)],
                        "final_output": package_of(state, question, "ask")}
            successes = [r for r in state.execution_results if r.success]
            try:
                decision = ctx.llm_structured(messages_for(state, prompts.reason(state)), ReasonOutput)
            except StructuredOutputError as exc:
                # Not a crash: act on the request while nothing has run, else report what has.
                step["outcome"] = "fallback"
                action = "finalize" if successes else "act"
                decision = ReasonOutput(rationale=f"reason reply was not valid JSON ({str(exc).splitlines()[0][:120]})",
                                        next_action=action, instruction=state.question if action == "act" else None)
            action, instruction, question = decision.next_action, _text(decision.instruction), _text(decision.question)
            if action == "ask" and (not question or _restates(question, state.question)
                                    or not _founded(question, state.question, ctx.datasets)):
                # A question without text, the user's own request asked back, or one about
                # nothing the request or the data names (a prompt's example copied) asks nothing
                # the user could settle: try the request instead.
                action, instruction = "act", instruction or state.question
            if action == "act" and not instruction:
                instruction = state.question
            repeated = action == "act" and _same(instruction, [r.instruction for r in successes])
            if repeated:
                # A step that already succeeded would give the same result again (a small model's
                # loop): its result is what there is to report.
                action = "finalize"
            assumption = _text(decision.assumption)
            if assumption and assumption not in state.assumptions:
                update["assumptions"] = [assumption]
            update.update(next_action=action, instruction=instruction if action == "act" else None)
            if action == "ask":
                # The turn ends with the question: it is this invoke's answer (the seed's ask → END).
                update["messages"] = [AIMessage(content=question)]
                update["final_output"] = package_of(state, question, "ask")
            note = "repeats a step that succeeded → " if repeated else ""
            said = {"act": instruction, "ask": question}.get(action) or decision.rationale
            step["detail"] = f"{note}{action} ({loops}/{max_loops} loops done): {clip_line(said)}"
            return update

    def code_exec_node(state: ReactState) -> dict[str, Any]:
        with ctx.step("code_exec") as step:
            instruction = state.instruction or state.question
            if ctx.settings.verify and not state.execution_results:  # the report's independent check, on the spare lane
                start_check(ctx, check_state(state), "report", warm=True)
            rejected = {r.code for r in state.execution_results if not r.success}
            # The request's first step may be an analysis operation the model chooses (setting
            # operations): code writes it; after it, and after a failure, the model writes the code.
            code = composed_code(ctx, instruction, lambda text: messages_for(state, text), step) if not state.execution_results else None
            if code is not None and check_code(code):  # an operation that needs a library the seed does not allow (scipy)
                step["detail"] = step.get("detail", "") + "its library is not allowed here; "
                code = None
            resampled = False
            if code is None:
                code, resampled = write_code(ctx, messages_for(state, prompts.code(state, instruction)), rejected)
            # The shared code step, under the seed's library allow-list (checked, then enforced by
            # the sandbox); it records only the figures this workflow keeps (_execute).
            # The request's first step is checked against the request itself: a step written as
            # "compute the maximum" for "which country has the highest …" computes a value, not
            # the name asked for (the after-misfit mends can take the name at that row).
            first = not any(r.success for r in state.execution_results)
            tried = attempt_code(ctx, state.question if first else instruction, code, check=check_code,
                                 options={"allowed_imports": ALLOWED_IMPORTS}, record=False)
            step["detail"] = step.get("detail", "") + ("resampled a repeated code; " if resampled else "") + tried.detail
            if tried.refused:
                run = ExecutionResult(success=False, code=tried.code, error=tried.error, instruction=instruction)
                step["outcome"] = "refused"
                step["detail"] += (tried.error or "").split(".")[0]
                return {"execution_results": [run]}
            # This step's run is the last one the loop limit allows: a misfit is kept, as the other
            # workflows keep one at their last attempt; before that it goes back to reason like an error.
            last = state.loop_count + 1 >= max_loops
            run = _execute(ctx, tried, instruction, tried.outcome(last=last) == "success")
            step["outcome"] = "ok" if run.success else ("misfit" if tried.misfit else "failed")
            error = (run.error or "error").strip().splitlines() or ["error"]
            step["detail"] += "success" if run.success else clip_line(error[-1] if not tried.misfit else error[0])
            return {"execution_results": [run]}

    def report_node(state: ReactState) -> dict[str, Any]:
        with ctx.step("report") as step:
            limit = limit_reached(state, max_loops)
            try:
                output = ctx.llm_structured(messages_for(state, prompts.report(state, limit, max_loops)), ReportOutput)
            except StructuredOutputError:
                # Not a crash: the report is built from the execution results without the model.
                step["outcome"] = "fallback"
                output = fallback_report(state)
            output, record = (output, None) if step["outcome"] == "fallback" else _grounded(ctx, state, output)
            final_report, final_output = build_final_output(state, output, limit, max_loops)
            final_output["grounding"] = record
            if state.execution_results:
                final_output.update(verification(ctx, state))
            step["detail"] = ("limit reached; " if limit else "") + f"{len(final_report.sections)} sections"
            if record:
                step["detail"] += f"; grounding: {record['claims_checked']} claims checked, {record['caught']} ungrounded caught"
            return {"final_report": final_report, "final_output": final_output}

    return {"reason": reason_node, "code_exec": code_exec_node, "report": report_node}


def _grounded(ctx: RunContext, state: ReactState, output: ReportOutput) -> tuple[ReportOutput, dict[str, Any] | None]:
    """The report's text sections checked against what the successful steps computed (result,
    printed output, result tables), ungrounded claims mended by code (``common.grounded.ground_parts``).
    When no step succeeded, against what the steps that ran computed all the same (a result that
    did not fit the question is still a computed value the report may quote); when none computed
    anything, against nothing, so every stated value is caught. Without any step (a conceptual
    answer) there is nothing to check against: (report, None)."""
    if not state.execution_results:
        return output, None
    successes = ([r for r in state.execution_results if r.success]
                 or [r for r in state.execution_results if r.result is not None or (r.stdout or "").strip()])
    workspace = Path(state.workspace_dir or ctx.workspace)
    outputs = {"result": [r.result for r in successes], "stdout": [r.stdout for r in successes],
               "tables": [str(workspace / o.file_name) for r in successes for o in r.outputs if o.output_type == "table"]}
    checked = [i for i, s in enumerate(output.sections) if s.section_type == "text" and s.content.strip()]
    texts, grounded = ground_parts(ctx, [output.sections[i].content for i in checked], outputs, state.question,
                                   code=[r.code for r in successes])
    sections = list(output.sections)
    for i, text in zip(checked, texts):
        sections[i] = sections[i].model_copy(update={"content": text})
    return output.model_copy(update={"sections": sections}), grounded.record()


def _restates(asked: str, request: str) -> bool:
    """Whether a clarifying question is the user's request asked back (most of its words again)."""
    def words(text: str) -> set[str]:
        return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2}

    said, request_words = words(asked), words(request)
    return bool(said) and len(said & request_words) >= 0.7 * len(said)


_GENERIC = {"mean", "means", "total", "average", "which", "what", "your", "guess", "like", "want", "would", "should",
            "value", "values", "data", "number", "show", "tell", "about", "this", "that", "with", "from", "each"}


def _founded(asked: str, request: str, datasets: Mapping[str, Any]) -> bool:
    """Whether a clarifying question is about this request: it names a column of the data or a
    word of the request beyond the generic ones."""
    from dsagent.workflows.common.named import column_words

    def words(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3 and w not in _GENERIC}

    known = words(request) | {w for said in column_words(datasets) for w in said.split()}
    return not words(asked) or bool(words(asked) & known)


def _same(instruction: str, done: list[str]) -> bool:
    def norm(text: str) -> str:
        return " ".join(text.lower().split()).rstrip(".!?。")

    return norm(instruction) in {norm(d) for d in done}


def clip_line(text: str | None, limit: int = 100) -> str:
    line = " ".join(str(text or "").split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _execute(ctx: RunContext, tried: Attempt, instruction: str, success: bool) -> ExecutionResult:
    """The step's ExecutionResult of an attempt (``success``: it ran and fits, or is kept). Keeps
    the announced files that exist (dsagent's checked copies), and the charts the sandbox saved
    from open figures unless they are the announced ones again; records the figures kept."""
    run, code = tried.run, tried.code
    workspace = Path(ctx.workspace).resolve()
    outputs: list[ExpectedOutput] = []
    figures: list[str] = []
    for expected in expected_outputs(code, instruction) if success else []:
        # The code's file is copied (no links followed, size-capped) beside dsagent's own files;
        # only the copy is used.
        copy = ctx.sandbox.collect(expected.file_name)
        if copy is not None:
            outputs.append(expected.model_copy(update={"file_name": str(copy.relative_to(workspace))}))
            if expected.output_type == "figure":
                figures.append(str(copy))
    auto = [f for f in run.figures if f.endswith(".png")]
    if figures and len(auto) <= len(figures):
        for path in auto:  # the same open figures, saved a second time after the cell
            Path(path).unlink(missing_ok=True)
    elif success:
        for path in auto:
            outputs.append(ExpectedOutput(file_name=_relative(path, workspace), description=instruction, output_type="figure"))
            figures.append(path)
    for table in run.tables if success else []:
        outputs.append(ExpectedOutput(file_name=_relative(table, workspace), description="result", output_type="table"))
    record_figures(ctx, figures)
    return ExecutionResult(success=success, code=code, stdout=run.stdout or None, error=None if success else tried.error,
                           outputs=outputs, instruction=instruction, result=run.result, figures=figures)


def _relative(path: str, workspace: Path) -> str:
    resolved = Path(path).resolve()
    return str(resolved.relative_to(workspace)) if resolved.is_relative_to(workspace) else str(resolved)
