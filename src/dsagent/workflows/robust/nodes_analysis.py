"""Seed 002's nodes 4–6: generate and run code, evaluate, plan remediation, explain results."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dsagent.runtime import RunContext
from dsagent.sandbox.base import error_line
from dsagent.ops.compile import composed
from dsagent.workflows.common.attempt import attempt_code
from dsagent.workflows.common.compose import composed_code
from dsagent.workflows.common.code import follow_up, held, unchecked_result, write_code
from dsagent.workflows.common.grounded import ground_in_run, regenerate_with
from dsagent.workflows.common.prompting import BRIEF_MAX_TOKENS, brief_answer, same_prompt, stable_messages
from dsagent.workflows.common.verify import unsure_note
from dsagent.workflows.robust import prompts
from dsagent.workflows.robust.cross_check import agreed, check_result, checking_ahead, evidence, start_ahead, verification
from dsagent.workflows.robust.routing import route_from_node_4
from dsagent.workflows.robust.schemas import Evaluation, RemediationPlan, ask_structured, code_verdict
from dsagent.workflows.robust.state import RobustState

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

Node = Callable[[RobustState], dict[str, Any]]
EXPLAIN_AHEAD = "robust_explain"
"""The key of node 6's explanation when node 5 started it while waiting for its check."""
# Node 5a's fallback follows node 5's own verdict.
_ACTION_FOR = {"code_error": "rewrite_code", "wrong_approach": "revise_requirements", "data_issue": "reexamine_data"}


def explain_messages(state: RobustState, gave_up: bool, first: list["BaseMessage"] | None) -> list["BaseMessage"]:
    """Node 6's prompt. A valid result, when the run's last call was node 4's conversation
    (``first``, node 4's first prompt: the model's cache holds it and the code,
    ``common.code.held``), is explained as the next turn of it, reading only the results and the
    instruction. Else (node 5 asked the model in between, a failure, a give-up) from the context,
    as the seed has it."""
    if gave_up or not state.get("execution_success") or not state.get("code") or first is None:
        return stable_messages(state, prompts.explain_results(state, gave_up))
    return follow_up(first, state["code"], prompts.explain_results(state, gave_up, after_code=True))


def explain_length(state: RobustState, gave_up: bool) -> int:
    return BRIEF_MAX_TOKENS if brief_answer(state["question"]) and not gave_up else 500


def explain_while_checking(ctx: RunContext, state: RobustState) -> None:
    """Node 6 written while node 5 waits for the check started ahead (our addition, for speed).

    The run's own lane would only wait, and most checks agree: then node 6's prompt is known
    already (node 4's result, accepted by agreement). So it is written now, on the run's own lane
    (it continues node 4's conversation, which that lane's cache holds); node 6 takes it only if
    its prompt is exactly the one node 6 sends (:func:`taken_ahead`), else writes its own."""
    if not checking_ahead(ctx):
        return
    first = held(ctx, code_prompt(state))
    assumed: RobustState = {**state, "evaluation": agreed()}  # type: ignore[typeddict-item]
    messages, length = explain_messages(assumed, False, first), explain_length(state, False)
    ctx.ahead(EXPLAIN_AHEAD, "node_6_explain", lambda: (first, messages, length, ctx.llm(messages, max_tokens=length)), own=True)


def taken_ahead(ctx: RunContext, state: RobustState, gave_up: bool) -> tuple[list["BaseMessage"], str] | None:
    """Node 5's explanation written ahead, with its prompt, if it is the one node 6 asks for now."""
    future = ctx.take_ahead(EXPLAIN_AHEAD)
    if future is None:
        return None
    try:
        first, messages, length, text = future.result()
    except Exception:  # noqa: BLE001 — node 6 asks again
        return None
    same = same_prompt(explain_messages(state, gave_up, first), messages)
    return (messages, text) if same and length == explain_length(state, gave_up) else None


def code_prompt(state: RobustState) -> list["BaseMessage"]:
    """Node 4's first prompt of a round (its fixes and node 6 continue this conversation)."""
    return stable_messages(state, prompts.generate_code(state))


def make_analysis_nodes(ctx: RunContext) -> dict[str, Node]:
    max_attempts = ctx.settings.robust_max_code_attempts
    max_remediations = ctx.settings.robust_max_remediations

    def code_node(state: RobustState) -> dict[str, Any]:
        # code_attempts counts the attempts of one round ("Code attempts < 2", per remediation
        # round): we are on the retry edge exactly when route_from_node_4 would send us back here;
        # coming from node 3 or node 5a starts a new round at attempt 1.
        retry = state["code_attempts"] > 0 and route_from_node_4(state, max_attempts) == "node_4_code"
        attempt = (state["code_attempts"] if retry else 0) + 1
        plan = state.get("remediation_plan") or {}
        # Only node 5a's "rewrite_code" brings us here with a plan about code (any other action
        # passes node 3 first and replaces the plan); its guidance holds for the whole round.
        rewrite = plan.get("action") == "rewrite_code" and bool(state.get("code"))
        guidance = (plan.get("guidance") or None) if rewrite else None
        with ctx.step("node_4_code") as step:
            start_ahead(ctx, state)  # node 5's first independent code, written beside this one
            first = code_prompt(state)
            # The run's first code may be an operation the model chooses, written by code (setting
            # operations, common.compose); a composed code that failed or was judged wrong is not
            # fixed: free code is written from the first prompt.
            code = composed_code(ctx, state["question"], lambda text: stable_messages(state, text), step) \
                if not (retry or rewrite or state.get("code")) else None
            again = (retry or rewrite) and not composed(state.get("code"))
            # A fix is the next turn of the conversation that wrote the code (seed: "Fix the code
            # that failed with this error"): the model's cache still holds the rest.
            messages = follow_up(first, state["code"], prompts.fix_code(state, guidance)) if again else first
            rejected = {f["code"] for f in state.get("failed_attempts") or []}
            if rewrite and not retry:
                rejected.add(state["code"])  # node 5 judged its results wrong
            resampled = False
            if code is None:
                code, resampled = write_code(ctx, messages, rejected, first if again else None)
            if resampled:
                step["detail"] = step.get("detail", "") + "resampled a repeated code; "
            tried = attempt_code(ctx, state["question"], code, fresh=bool(retry or rewrite))  # a retry: the data as loaded
            code = tried.code
            step["detail"] += tried.detail
            success = tried.outcome(last=attempt >= max_attempts) == "success"
            update: dict[str, Any] = {"code": code, "code_attempts": attempt, "execution_success": success}
            if success:
                update["error"] = None
                update["execution_result"] = tried.execution_result
                step["detail"] += f"attempt {attempt}/{max_attempts}: success"
            else:  # failed, or ran but does not answer the question: back, like an exception
                update["error"] = tried.error or "unknown error"
                update["execution_result"] = None
                update["failed_attempts"] = [*(state.get("failed_attempts") or []), {
                    "attempt": attempt, "remediation": state["total_remediations"], "code": code, "error": tried.error}]
                step["outcome"] = "failed"
                step["detail"] += f"attempt {attempt}/{max_attempts}: {error_line(tried.error)}"
            return update

    def evaluate_node(state: RobustState) -> dict[str, Any]:
        with ctx.step("node_5_evaluate") as step:
            success = bool(state["execution_success"])
            update: dict[str, Any] = {}
            result_str = (state.get("execution_result") or {}).get("result_str") if success else None
            problem = unchecked_result(state.get("code") or "", state.get("execution_result")) if success else None
            evaluation, note = None, ""
            if problem:  # verified by code: no model call needed to reject it
                evaluation = code_verdict(False, problem, 1.0)
            elif ctx.settings.robust_cross_check and (result_str is not None or not success):
                if success and state.get("cross_check") is None:
                    explain_while_checking(ctx, state)
                verdict = check_result(ctx, state, result_str)
                evaluation, update["cross_check"], note = verdict.evaluation, verdict.check, verdict.note
                if verdict.adopted:  # a check's result replaces node 4's (see cross_check.py)
                    update.update(code=verdict.adopted["code"], execution_result=verdict.adopted["execution_result"],
                                  execution_success=True, error=None)
                    success, result_str = True, verdict.adopted["execution_result"]["result_str"]
            if evaluation is None and not success:
                # A run that failed has no results to accept: decided by code, node 5a plans the fix.
                evaluation = code_verdict(False, f"the code failed to run: {error_line(state.get('error'))}", 1.0)
            if evaluation is None:  # the seed's evaluation call, shown the independent result when it differs
                fallback = {"is_valid": True, "confidence": 0.0, "recommendation": "accept", "issues_found": []}
                judged = {**state, **update}
                shown = evidence(judged.get("cross_check"), result_str)
                evaluation = ask_structured(ctx, judged, prompts.evaluate(judged, shown), Evaluation, fallback, step)
            if not (evaluation["is_valid"] and evaluation["confidence"] == 1.0 and "code" not in update):
                ctx.cancel_ahead(EXPLAIN_AHEAD)  # node 6 will not take the explanation written meanwhile
            if not evaluation["is_valid"] and step["outcome"] == "ok":
                step["outcome"] = "rejected"
            step["detail"] = f"valid={evaluation['is_valid']} {evaluation['recommendation']} confidence={evaluation['confidence']:.2f}"
            step["detail"] += f"; {note}" if note else ""
            return {**update, "evaluation": evaluation}

    def remediation_node(state: RobustState) -> dict[str, Any]:
        total = state["total_remediations"] + 1
        with ctx.step("node_5a_remediation") as step:
            verdict = (state.get("evaluation") or {}).get("recommendation", "code_error")
            fallback = {"action": _ACTION_FOR.get(verdict, "rewrite_code"),
                        "root_cause": "; ".join((state.get("evaluation") or {}).get("issues_found") or [])}
            plan = ask_structured(ctx, state, prompts.remediate(state), RemediationPlan, fallback, step)
            history = [*(state.get("remediation_history") or []), {"action": plan["action"], "root_cause": plan["root_cause"]}]
            step["detail"] = f"remediation {total}/{max_remediations}: {plan['action']}"
            if total >= max_remediations:
                step["detail"] += " — limit reached, explaining what went wrong"
            return {"remediation_plan": plan, "total_remediations": total, "remediation_history": history}

    def explain_node(state: RobustState) -> dict[str, Any]:
        with ctx.step("node_6_explain") as step:
            # Node 6 follows node 5 (valid) or node 5a at its limit (gave up).
            gave_up = not (state.get("evaluation") or {}).get("is_valid", False)
            if gave_up:
                step["outcome"] = "gave_up"
                step["detail"] = f"after {state['total_remediations']} remediations"
            result = state.get("execution_result") or {}
            failed = not state.get("execution_success")
            length = explain_length(state, gave_up)
            ready = taken_ahead(ctx, state, gave_up)
            if ready:
                messages, explanation = ready[0], ready[1].strip()
                step["detail"] = "written while node 5 waited for its check"
            else:
                messages = explain_messages(state, gave_up, held(ctx, code_prompt(state)))
                explanation = ctx.llm(messages, max_tokens=length).strip()
            record = None
            if not failed and result:  # every number and label it states must be one the code computed
                grounded = ground_in_run(ctx, explanation, result, state["question"], regenerate_with(ctx, messages, explanation, length), code=state.get("code"))
                explanation, record = grounded.text, grounded.record()
                step["detail"] = (step.get("detail", "") + "; " if step.get("detail") else "") + grounded.detail()
            mark = verification(state.get("cross_check"), None if failed else result.get("result_str"), state.get("code"),
                                state["question"])
            note = "" if failed else unsure_note(mark)
            if note:
                explanation += "\n\n" + note
            final_output = {
                **mark.record(),
                "explanation": explanation,
                "evaluation": state.get("evaluation"),
                "code": state.get("code"),
                "requirements": state.get("requirements"),
                "alignment_caveats": state.get("alignment_caveats") or [],
                "output_type": "error" if failed else result.get("type"),
                "figures": result.get("figures", []),
                "result_str": result.get("result_str"),
                "failed_attempts": state.get("failed_attempts") or [],
                "cross_check": state.get("cross_check"),
                "grounding": record,
            }
            if failed:
                final_output["error"] = state.get("error")
            return {"explanation": explanation, "final_output": final_output}

    return {
        "node_4_code": code_node,
        "node_5_evaluate": evaluate_node,
        "node_5a_remediation": remediation_node,
        "node_6_explain": explain_node,
    }
