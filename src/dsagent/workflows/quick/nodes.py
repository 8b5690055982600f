"""Seed 000's five nodes: plan, code, evaluate, explain, error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

from dsagent.errors import StructuredOutputError
from dsagent.llm.structured import Bound
from dsagent.ops.compile import composed
from dsagent.runtime import RunContext
from dsagent.sandbox.base import error_line
from dsagent.workflows.common.attempt import attempt_code
from dsagent.workflows.common.code import RESAMPLE_TEMPERATURE, CODE_MAX_TOKENS, describe_output, execution_result, extract_code, follow_up, held, record_figures, write_code
from dsagent.workflows.common.compose import composed_code
from dsagent.workflows.common.fit import asks_one_value, ranked_note
from dsagent.workflows.common.grounded import ground_in_run, regenerate_with, run_misfit
from dsagent.workflows.common.named import names_data
from dsagent.workflows.common.prompting import BRIEF_MAX_TOKENS, brief_answer, code_rules, quote_data, stable_messages
from dsagent.workflows.common.verify import Verification, not_checked, rescue, start_check, unsure_note, verify, verify_rescued
from dsagent.workflows.quick import prompts
from dsagent.workflows.quick.state import QuickState

Node = Callable[[QuickState], dict[str, Any]]


class Plan(BaseModel):
    """plan_node's structured output (seed 000)."""

    # reasoning comes first: a small model decides better after it has said why (the JSON keys
    # are the seed's; only their order differs).
    reasoning: Annotated[str, Bound(160)] = Field("", description="Why this approach, one short sentence")
    needs_code: bool = Field(description="Write and run code?")
    needs_evaluation: bool = Field(description="Critically evaluate the code's results?")
    needs_explanation: bool = Field(True, description="Explain the answer to the user?")


def _messages(state: QuickState, instruction: str) -> list[BaseMessage]:
    """The stable prefix (context + data profile), the earlier turns, then this node's task."""
    return stable_messages(state, instruction)


def _code_rules(state: QuickState) -> str:
    return code_rules(state["datasets"], state["question"])


def _generate(state: QuickState) -> str:
    """The code step's first prompt: the explanation continues its conversation too."""
    return prompts.GENERATE_CODE.format(rules=_code_rules(state), question=state["question"], plan=state["plan"].get("reasoning", ""))


def explain_messages(state: QuickState, brief: bool, first: list[BaseMessage] | None) -> list[BaseMessage]:
    """The explain step's prompt. ``first``, the code step's first prompt, when the run's last call
    was the conversation that wrote the code, so the model's cache holds it (``common.code.held``):
    the next turn of that conversation, which reads only the output and the instruction, not the
    question and rules again (~100 tokens, ~2 s less). Else, as the seed has it, from the context."""
    result = state.get("execution_result")
    output = describe_output(result) + ranked_note(state["question"], result) if result is not None else ""
    if result is not None and state.get("code") and first is not None:
        evaluation = f"Evaluation: {state['evaluation']}\n" if state.get("evaluation") else ""
        turn = prompts.EXPLAIN_AFTER_CODE.format(output=output, evaluation=evaluation, length=prompts.BRIEF_ANSWER if brief else prompts.CONCISE)
        return follow_up(first, state["code"], turn)
    if result is not None:
        evaluation = f"Evaluation: {state['evaluation']}" if state.get("evaluation") else ""
        grounding = prompts.EXPLAIN_GROUNDING_RESULT.format(output=output, evaluation=evaluation)
    else:
        grounding = prompts.EXPLAIN_GROUNDING_NONE
    return _messages(state, prompts.EXPLAIN.format(grounding=grounding, question=state["question"],
                                                   brief=f"\n{prompts.BRIEF_ANSWER}" if brief else ""))


def code_prompt(state: QuickState) -> list[BaseMessage]:
    """The code step's first prompt (its fixes and the explanation continue this conversation)."""
    return _messages(state, _generate(state))


def make_nodes(ctx: RunContext) -> dict[str, Node]:
    max_attempts = ctx.settings.max_code_attempts

    def plan_node(state: QuickState) -> dict[str, Any]:
        with ctx.step("plan") as step:
            named = names_data(state["question"], ctx.datasets) if ctx.settings.decide_by_code else []
            if named and brief_answer(state["question"]):
                # One value asked about a column of the data: code, no evaluation (the seed's own
                # example: "What's the average salary?" -> needs_code=true, needs_evaluation=false).
                step["detail"] = f"needs_code=True needs_evaluation=False; decided by code: one value about {', '.join(named[:3])}"
                return {"plan": {"reasoning": "", "needs_code": True, "needs_evaluation": False, "needs_explanation": True}}
            instruction = prompts.PLAN.format(question=state["question"])
            try:
                plan = ctx.llm_structured(_messages(state, instruction), Plan).model_dump()
            except StructuredOutputError as exc:
                # Model output that is not valid JSON is data, not a crash: fall back to the
                # safe default for a data tool (compute, don't guess) and say so.
                plan = {"needs_code": bool(state["datasets"]), "needs_evaluation": False, "needs_explanation": True,
                        "reasoning": f"planner reply was not valid JSON ({exc}); defaulted to running code"}
                step["outcome"] = "fallback"
            if not state["datasets"]:
                plan["needs_code"] = plan["needs_evaluation"] = False
            step["detail"] = f"needs_code={plan['needs_code']} needs_evaluation={plan['needs_evaluation']}"
            return {"plan": plan}

    def code_node(state: QuickState) -> dict[str, Any]:
        attempt = state["attempts"] + 1
        with ctx.step("code") as step:
            rules = _code_rules(state)
            generate = _generate(state)
            fresh = None
            rejected = {f["code"] for f in state["failed_attempts"]}
            first = state["attempts"] == 0 or not state.get("code")
            if state["attempts"] == 0 and ctx.settings.verify:
                start_check(ctx, state, "explain", warm=True)  # the independent code explain compares with, on the spare lane
            code = composed_code(ctx, state["question"], lambda text: _messages(state, text), step) if first else None
            if code is not None:  # an operation the model chose, written by code (dsagent.ops)
                resampled = False
            elif first or composed(state.get("code")):  # a composed code that failed is not fixed: free code
                code, resampled = write_code(ctx, _messages(state, generate), rejected)
            elif attempt == max_attempts and len(state["failed_attempts"]) >= 2:
                # Repeated failure: a second, different approach — a fresh generation that does not
                # see the broken code (fixing it again tends to repeat it), warm, told only what failed.
                plan = state["plan"].get("reasoning", "") + prompts.FRESH_APPROACH.format(error=quote_data(error_line(state["error"]), 300))
                instruction = prompts.GENERATE_CODE.format(rules=rules, question=state["question"], plan=plan)
                code = extract_code(ctx.llm(_messages(state, instruction), max_tokens=CODE_MAX_TOKENS, temperature=RESAMPLE_TEMPERATURE))
                resampled = False
                step["detail"] = "fresh approach; "
            else:
                # The fix is the next turn of the conversation that wrote the code: the model's
                # cache still holds the prompt and the code, so only the error is read.
                fresh = _messages(state, generate)  # asked only if the fix keeps repeating a failed code
                fix = follow_up(fresh, state["code"], prompts.FIX_CODE.format(error=quote_data(state["error"], 1200)))
                code, resampled = write_code(ctx, fix, rejected, fresh)
            if resampled:
                step["detail"] = "resampled a repeated code; "
            tried = attempt_code(ctx, state["question"], code, fresh=attempt > 1)  # a retry: the data as loaded
            code, run, misfit = tried.code, tried.run, tried.misfit
            step["detail"] = step.get("detail", "") + tried.detail
            update: dict[str, Any] = {"code": code, "attempts": attempt, "execution_success": run.success}
            outcome = tried.outcome(last=attempt >= max_attempts)
            if outcome == "misfit":
                # Ran, but does not answer the question: back to the code step, like an exception.
                update.update(execution_success=False, error=misfit)
                update["failed_attempts"] = [*state["failed_attempts"], {"attempt": attempt, "code": code, "error": misfit}]
                step["outcome"] = "misfit"
                step["detail"] += f"attempt {attempt}/{max_attempts}: {misfit.split(':')[0]}"
            elif outcome == "success":
                update["error"] = None
                update["execution_result"] = tried.execution_result
                step["detail"] += f"attempt {attempt}: success" + (f" (kept at the last attempt: {misfit.split('.')[0]})" if misfit else "")
            else:
                update["error"] = run.error or "unknown error"
                update["failed_attempts"] = [*state["failed_attempts"], {"attempt": attempt, "code": code, "error": run.error}]
                step["outcome"] = "failed"
                step["detail"] += f"attempt {attempt}/{max_attempts}: {error_line(run.error)}"
            if not update["execution_success"] and attempt >= max_attempts and ctx.settings.verify:
                rescued = rescue(ctx, state)  # every attempt failed: the independent computation answers, if it could
                if rescued is not None:
                    check, check_run = rescued
                    record_figures(ctx, check_run)
                    update.update(code=check["code"], execution_success=True, error=None, execution_result=execution_result(check_run), rescued=check)
                    step["outcome"] = "ok"
                    step["detail"] += "; every attempt failed: an independent computation of the question answers"
            return update

    def evaluate_node(state: QuickState) -> dict[str, Any]:
        with ctx.step("evaluate") as step:
            if ctx.settings.decide_by_code and asks_one_value(state["question"]) and not run_misfit(
                    ctx, state["question"], state["code"], state["execution_result"]):
                # One value that fits the question (checked by code): nothing to interpret that the
                # explanation will not say; the model is not asked (decide_by_code).
                step["detail"] = "decided by code: one value that fits the question"
                return {"evaluation": None}
            output = describe_output(state["execution_result"]) + ranked_note(state["question"], state["execution_result"])
            instruction = prompts.EVALUATE.format(question=state["question"], code=state["code"], output=output)
            return {"evaluation": ctx.llm(_messages(state, instruction), max_tokens=300).strip()}

    def explained(state: QuickState, first: list[BaseMessage] | None) -> tuple[str, dict[str, Any] | None, str]:
        """The explanation, grounded in the run's outputs: (text, grounding record, detail)."""
        result = state.get("execution_result")
        brief = result is not None and brief_answer(state["question"])  # a length that fits the question
        messages = explain_messages(state, brief, first)
        length = BRIEF_MAX_TOKENS if brief else 400
        explanation = ctx.llm(messages, max_tokens=length).strip()
        if result is None:
            return explanation, None, ""
        # every number and label it states must be one the code computed
        grounded = ground_in_run(ctx, explanation, result, state["question"], regenerate_with(ctx, messages, explanation, length), code=state.get("code"))
        return grounded.text, grounded.record(), grounded.detail()

    def explain_node(state: QuickState) -> dict[str, Any]:
        with ctx.step("explain") as step:
            # Written first, while the independent check (on the spare lane) finishes; it is written
            # again only when two checks replace the result.
            explanation, record, detail = explained(state, held(ctx, code_prompt(state)))
            mark = verified(state) if state.get("execution_result") is not None else not_checked("no result")
            if mark.adopted:  # two independent codes agree against the code step's result: theirs is explained
                record_figures(ctx, mark.adopted["execution_result"]["figures"])
                state = {**state, "code": mark.adopted["code"], "execution_result": mark.adopted["execution_result"], "evaluation": None}
                explanation, record, detail = explained(state, None)
            step["detail"] = f"{mark.verification[:120]}; {detail}"
            note = unsure_note(mark)
            if note:
                explanation += "\n\n" + note
            result = state.get("execution_result")
            final_output = {
                **mark.record(),
                "explanation": explanation,
                "evaluation": state.get("evaluation"),
                "code": state.get("code"),
                "plan": state.get("plan"),
                "output_type": (result or {}).get("type"),
                "figures": (result or {}).get("figures", []),
                "result_str": (result or {}).get("result_str"),
                "failed_attempts": state["failed_attempts"],
                "grounding": record,
            }
            return {"explanation": explanation, "final_output": final_output}

    def error_node(state: QuickState) -> dict[str, Any]:
        with ctx.step("error") as step:
            message = prompts.ERROR_MESSAGE.format(attempts=state["attempts"], error=(state["error"] or "").strip())
            step["outcome"] = "error"
            final_output = {
                **not_checked("the run ended in an error").record(),
                "explanation": message,
                "evaluation": None,
                "code": state.get("code"),
                "plan": state.get("plan"),
                "output_type": "error",
                "error": state["error"],
                "figures": [],
                "result_str": None,
                "failed_attempts": state["failed_attempts"],
            }
            return {"explanation": message, "final_output": final_output}

    def verified(state: QuickState) -> Verification:
        """The answer's mark (common.verify; "not checked" when the setting verify is off)."""
        if state.get("rescued"):
            return verify_rescued(ctx, state, state["rescued"])
        misfit = run_misfit(ctx, state["question"], state.get("code") or "", state["execution_result"])  # kept at the last attempt
        return verify(ctx, state, state["execution_result"].get("result_str"), codes=(state.get("code"),), misfit=misfit)

    return {"plan": plan_node, "code": code_node, "evaluate": evaluate_node, "explain": explain_node, "error": error_node}
