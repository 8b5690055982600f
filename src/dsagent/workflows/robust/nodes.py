"""Seed 002's nodes 0–3: understand the question, explain, set requirements, profile, align.

Nodes 4–6 are in :mod:`dsagent.workflows.robust.nodes_analysis`; :func:`make_nodes` joins them.
Where a node is entered again by a loop, it reads *why* from the state the router left behind
(see :func:`alignment_passed`), so the seed's schema needs no "came from" field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dsagent.data.catalog import Dataset
from dsagent.data.profile import SUMMARY_A_BUDGET, TOKEN_BUDGET, WIDE_COLUMNS, budget_share, profile_dataset
from dsagent.runtime import RunContext
from dsagent.workflows.common.prompting import quote_data, stable_messages
from dsagent.workflows.robust import by_code, prompts
from dsagent.workflows.robust.cross_check import start_ahead
from dsagent.workflows.robust.nodes_analysis import make_analysis_nodes
from dsagent.workflows.robust.routing import route_from_node_3
from dsagent.workflows.robust.schemas import (
    AlignmentCheck,
    ColumnSelection,
    DataProfile,
    QuestionUnderstanding,
    Requirements,
    ask_structured,
)
from dsagent.workflows.robust.state import RobustState

Node = Callable[[RobustState], dict[str, Any]]
MAX_SELECTED = 40
"""Seed 002: the model picks at most 40 columns of a wide table for the detailed profile."""
DETAIL_BUDGET = 1500
"""Prompt tokens for the selected columns' detailed lines (about 30 columns; Summary A is extra)."""


def alignment_passed(state: Mapping[str, Any]) -> bool:
    """Did the latest alignment check send us on to code? (route_from_node_3's first branch.)

    Nodes 1B and 2 use it to tell a loop from node 3 (the check did not pass) from a loop from
    node 5a (it did: code ran since); node 3 uses it to start a new round of iterations.
    """
    return state.get("alignment_check") is not None and route_from_node_3(state) == "node_4_code"  # type: ignore[arg-type]


def _check_feedback(check: Mapping[str, Any]) -> str:
    return "; ".join([*(check.get("gaps") or []), check.get("reasoning") or ""]).strip("; ")


def _plan_feedback(plan: Mapping[str, Any]) -> str:
    return " ".join(p for p in (plan.get("root_cause"), plan.get("guidance")) if p)


def requirements_feedback(state: Mapping[str, Any]) -> str | None:
    """Why node 1B runs again: node 3's gaps, or node 5a's diagnosis; None on the first pass."""
    if state.get("requirements") is None or state.get("alignment_check") is None:
        return None
    if not alignment_passed(state):
        return _check_feedback(state["alignment_check"])
    plan = state.get("remediation_plan") or {}
    return _plan_feedback(plan) if plan.get("action") == "revise_requirements" else None


def profiling_reason(state: Mapping[str, Any]) -> tuple[bool, str | None]:
    """(profile again?, what to look at). Seed 002: after ``revise_requirements`` the existing
    profile is reused; ``revise_data_understanding`` (node 3) and ``reexamine_data`` (node 5a)
    profile again."""
    if state.get("data_profile") is None or state.get("alignment_check") is None:
        return True, None
    if not alignment_passed(state):
        check = state["alignment_check"]
        if check.get("recommendation") == "revise_data_understanding":
            return True, _check_feedback(check)
        return False, None
    plan = state.get("remediation_plan") or {}
    if plan.get("action") == "reexamine_data":
        return True, _plan_feedback(plan)
    return False, None


def make_nodes(ctx: RunContext) -> dict[str, Node]:
    max_iterations = ctx.settings.robust_max_alignment_iterations
    decide = ctx.settings.decide_by_code  # nodes 0, 2, 3 answer by code when code knows (by_code.py)

    def understand_node(state: RobustState) -> dict[str, Any]:
        with ctx.step("node_0_understand") as step:
            reply = by_code.understand(state["question"], ctx.datasets) if decide else None
            # Fallback: a data tool computes rather than guesses.
            reply = reply or ask_structured(ctx, state, prompts.understand(state), QuestionUnderstanding,
                                            {"needs_data_work": bool(state["datasets"])}, step)
            needs = reply["needs_data_work"] and bool(state["datasets"])
            step["detail"] = f"needs_data_work={needs}" + _by_code(reply)
            return {"needs_data_work": needs}

    def explain_node(state: RobustState) -> dict[str, Any]:
        with ctx.step("node_1a_explain") as step:
            # From node 0 there is no alignment check; from node 3 it is the one that failed.
            limitation = state.get("alignment_check")
            step["detail"] = "explains a limitation" if limitation else "explains a concept"
            instruction = prompts.explain_concept(state, limitation)
            explanation = ctx.llm(stable_messages(state, instruction), max_tokens=400).strip()
            final_output = {
                "explanation": explanation, "evaluation": None, "code": None,
                "requirements": state.get("requirements"), "alignment_caveats": state.get("alignment_caveats") or [],
                "output_type": "explanation", "figures": [], "result_str": None, "failed_attempts": [],
            }
            return {"explanation": explanation, "final_output": final_output}

    def requirements_node(state: RobustState) -> dict[str, Any]:
        with ctx.step("node_1b_requirements") as step:
            start_ahead(ctx, state, only_if_read=True)  # node 5's first independent code, beside this node and node 4
            feedback = requirements_feedback(state)
            fallback = state.get("requirements") or {"success_criteria": f"an answer to: {state['question']}"}
            requirements = ask_structured(ctx, state, prompts.requirements(state, feedback), Requirements, fallback, step)
            step["detail"] = ("revised: " if feedback else "") + f"{requirements['analysis_type']} of {', '.join(requirements['variables_needed']) or '?'}"
            return {"requirements": requirements}

    def select_columns(state: RobustState, ds: Dataset, summary_a: str, step: dict[str, str]) -> list[str]:
        needed = (state.get("requirements") or {}).get("variables_needed") or []
        instruction = prompts.select_columns(state, ds.id, ds.frame.shape[1], summary_a, MAX_SELECTED)
        reply = ask_structured(ctx, state, instruction, ColumnSelection, {"columns": needed}, step)
        by_name = {str(c).lower(): str(c) for c in ds.frame.columns}
        # Only columns that exist; the required ones first, as the detailed profile is cut to a
        # token budget from the end.
        found = (by_name.get(str(name).strip().lower()) for name in [*needed, *reply["columns"]])
        return list(dict.fromkeys(name for name in found if name))[:MAX_SELECTED]

    def summaries(state: RobustState, step: dict[str, str]) -> str:
        """What the profiling prompt needs beyond DATA: the stable prefix already holds Summary B
        of every small table and Summary A of every wide one, so only new text is added."""
        data_summary = state.get("data_summary") or ""
        if ctx.settings.data_sharing == "schema":  # the schema in DATA is all the model may see of the data
            return prompts.SUMMARY_IN_DATA.format(ids=", ".join(ctx.datasets))
        in_data, parts, notes = [], [], []
        for ds in ctx.datasets.values():
            if ds.frame.shape[1] <= WIDE_COLUMNS:
                text = profile_dataset(ds, state["question"]).text
                if text in data_summary:
                    in_data.append(ds.id)
                else:
                    parts.append(prompts.SUMMARY_HERE.format(text=quote_data(text)))
                continue
            share = budget_share(len(ctx.datasets))  # the tables share the prompt, as in DATA
            overview = profile_dataset(ds, state["question"], max_detailed=0, token_budget=share)
            selected = select_columns(state, ds, overview.summary_a or "", step)
            # Summary B of the selected columns only (any 40 by the foundation's ranking if none exist).
            detailed = profile_dataset(ds, state["question"], relevant_columns=selected,
                                       max_detailed=len(selected) or MAX_SELECTED, token_budget=overview.tokens + DETAIL_BUDGET * share // TOKEN_BUDGET,
                                       summary_a_budget=SUMMARY_A_BUDGET * share // TOKEN_BUDGET)
            notes.append(f"{ds.id}: {len(detailed.detailed_columns)} of {ds.frame.shape[1]} columns detailed")
            if overview.summary_a and overview.summary_a in data_summary:
                lines = [line for line in detailed.summary_b.splitlines()[1:] if line not in data_summary]
                parts.append(prompts.SUMMARY_WIDE.format(
                    dataset_id=ds.id, columns=quote_data(", ".join(detailed.detailed_columns)),
                    lines=quote_data("\n".join(lines)) if lines else "(all of them are detailed in DATA above)"))
            else:
                parts.append(prompts.SUMMARY_HERE.format(text=quote_data(detailed.text)))
        if in_data:
            parts.insert(0, prompts.SUMMARY_IN_DATA.format(ids=", ".join(in_data)))
        step["detail"] = "; ".join(notes)
        return "\n".join(parts)

    def data_node(state: RobustState) -> dict[str, Any]:
        with ctx.step("node_2_data") as step:
            again, feedback = profiling_reason(state)
            if not again:
                step["outcome"] = "reused"
                step["detail"] = "requirements revised; the data profile still holds"
                return {"data_profile": state["data_profile"]}
            # A loop that asks to look again (feedback) always asks the model, as the seed does.
            profile = by_code.profile(state.get("requirements"), ctx.datasets) if decide and feedback is None else None
            if profile is None:
                text = summaries(state, step)
                profile = ask_structured(ctx, state, prompts.profile(state, text, feedback), DataProfile,
                                         _fallback_profile(ctx.datasets, state), step)
            missing = profile["missing_columns"]
            step["detail"] = "; ".join(filter(None, [step.get("detail"), f"suitable={profile['is_suitable']}", missing and f"missing: {', '.join(missing)}"])) + _by_code(profile)
            return {"data_profile": profile}

    def alignment_node(state: RobustState) -> dict[str, Any]:
        # The alignment loop (3 ↔ 1B/2) is limited per round: a check that follows a passed one
        # (node 5a sent us back after code ran) starts a new round; only remediations count globally.
        iterations = 1 if state.get("alignment_check") is None or alignment_passed(state) else state["alignment_iterations"] + 1
        with ctx.step("node_3_alignment") as step:
            profile = state.get("data_profile") or {}
            # Fallback: let the code run and the evaluation judge, telling the user what is known.
            fallback = {"aligned": False, "recommendation": "proceed_with_caveats",
                        "gaps": profile.get("missing_columns") or [], "caveats": profile.get("limitations") or []}
            check = by_code.alignment(profile, state.get("requirements"), ctx.datasets) if decide else None
            check = check or ask_structured(ctx, state, prompts.alignment(state), AlignmentCheck, fallback, step)
            if check["recommendation"] == "proceed":
                check["aligned"] = True  # "proceed" means fully aligned; never loop on a mislabel
            step["detail"] = f"{check['recommendation']} (iteration {iterations}/{max_iterations})" + _by_code(check)
            return {"alignment_check": check, "alignment_iterations": iterations, "alignment_caveats": check["caveats"]}

    return {
        "node_0_understand": understand_node,
        "node_1a_explain": explain_node,
        "node_1b_requirements": requirements_node,
        "node_2_data": data_node,
        "node_3_alignment": alignment_node,
        **make_analysis_nodes(ctx),
    }


def _by_code(reply: Mapping[str, Any]) -> str:
    """The run log's note that a node decided by code (no model call)."""
    reason = str(reply.get("reasoning") or "")
    return f"; {reason}" if reason.startswith("decided by code") else ""


def _fallback_profile(datasets: Mapping[str, Dataset], state: Mapping[str, Any]) -> dict[str, Any]:
    """Without the model's profile: which required columns exist, read off the frames themselves."""
    columns = {str(c) for ds in datasets.values() for c in ds.frame.columns}
    needed = (state.get("requirements") or {}).get("variables_needed") or []
    missing = [name for name in needed if name not in columns]
    return {"available_columns": [name for name in needed if name in columns], "missing_columns": missing,
            "data_quality": {}, "limitations": [], "is_suitable": not missing}
