"""Seed 002's prompts, adapted to our sandbox contract and to a small, slow local model.

Every call opens with the same system message (``common.prompting.CONTEXT`` + the data profile),
so llama.cpp reuses its cache and re-reads only the node's instruction: the seed's role lines open
the human message instead. Each node is fed only what it needs, as one-line JSON (prompt tokens
cost ~20 ms each locally). The builders below are what the nodes call; all are snapshot-tested.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dsagent.workflows.common.code import describe_output
from dsagent.workflows.common.fit import ranked_note
from dsagent.workflows.common.verify import check_instruction
from dsagent.workflows.common.prompting import BRIEF_ANSWER, ERROR_PATTERNS, brief_answer, code_rules, compact_json, quote_data

UNDERSTAND = """Decide if the question needs data analysis or only a conceptual explanation.

Examples:
"What is a p-value?" -> needs_data_work=false
"What's the average age?" -> needs_data_work=true
"Show me age distribution" -> needs_data_work=true
"Explain what correlation means" -> needs_data_work=false

Question: {question}

Return JSON: {{"reasoning": "brief", "needs_data_work": true/false}}"""

EXPLAIN_CONCEPT = """You are a data science educator explaining concepts to business users.
Answer clearly and concisely in plain language, with a concrete example when it helps and practical context for business decisions.
{limitation}
Question: {question}"""

LIMITATION = """
The available data cannot answer this question as asked.
Requirements: {requirements}
Gaps: {gaps}
Why: {reasoning}
Clearly state what is missing and suggest alternatives if possible.
"""

REQUIREMENTS = """You are a data scientist planning an analysis. Define the requirements to answer the question with the data in DATA.

Question: {question}
{revision}
Specify:
1. variables_needed: the exact column names required
2. constraints: the data quality needed (e.g. no missing values in X, Y must be numeric)
3. analysis_type: descriptive, visualization, correlation, regression, classification, ...
4. success_criteria: what output would answer the question

Return JSON: {{"variables_needed": ["col1", ...], "constraints": ["..."], "analysis_type": "...", "success_criteria": "...", "reasoning": "why this approach, a few words"}}"""

REVISION = """Previous requirements: {requirements}
Revise them: {feedback}
"""

SELECT_COLUMNS = """Dataset {dataset_id} has {columns} columns; {overview}
Pick at most {limit} columns to profile in detail: the required columns, columns needed to join, filter or group (IDs, keys, dates), and those with missing data the analysis uses.

Question: {question}
Requirements: {requirements}

Return JSON: {{"reasoning": "brief", "columns": ["exact column name", ...]}}"""

OVERVIEW_IN_DATA = "the compact overview of all of them is in DATA above."
OVERVIEW_HERE = "their compact overview:\n{summary_a}\n"

PROFILE = """You are examining the dataset(s) to profile what is available for this analysis.
{summaries}
Question: {question}
Requirements: {requirements}
{feedback}
Profile the data:
1. AVAILABLE COLUMNS: which required columns exist? Check ALL datasets.
2. DATA QUALITY: missing values, data types, value ranges, format issues. Use the sample values (eg ...) and flags (! ...) to spot inconsistent formats such as mixed date formats; use the statistics to spot outliers or suspicious values.
3. LIMITATIONS: what is missing or problematic?
4. SUITABILITY: can this data support the required analysis?

Return JSON (data_quality: the required columns only, a few words each): {{"reasoning": "brief", "available_columns": ["col1", ...], "missing_columns": [...], "data_quality": {{"col1": "..."}}, "limitations": [...], "is_suitable": true/false}}"""

SUMMARY_IN_DATA = "The detailed profile of every column of {ids} is in DATA above."
SUMMARY_WIDE = """DATA above has a compact overview of ALL columns of {dataset_id}. Selected for this analysis:
{columns}
DETAILED PROFILE of those not already detailed in DATA:
{lines}
Use the compact overview for the full scope, the detailed profile to assess quality."""
SUMMARY_HERE = "Dataset summary:\n{text}"
"""``text`` is quoted as data by the caller (``quote_data``)."""

ALIGNMENT = """Check if the available data can satisfy the analysis requirements.

Requirements: {requirements}
Data profile: {profile}

Determine:
1. aligned: does the data satisfy the requirements?
2. gaps: what is missing or misaligned?
3. caveats: issues that do not block the analysis but should be noted (e.g. "20% missing values - using complete cases")
4. recommendation:
- "proceed": fully aligned, no issues
- "proceed_with_caveats": the analysis is possible but has limitations. Use this when a human data scientist would proceed with warnings rather than refuse.
- "revise_requirements": the requirements are too strict or wrong
- "revise_data_understanding": we need to look at the data differently
- "cannot_proceed": fundamentally incompatible (e.g. a required column does not exist, >50% missing)
Prefer "proceed_with_caveats" over "cannot_proceed" when missing data is <30% (complete cases or imputation), date formats are inconsistent (they can be parsed), data types need conversion (text to numbers, Yes/No to 1/0) or there are outliers (they can be handled in code).

Return JSON: {{"reasoning": "brief", "aligned": true/false, "gaps": [...], "caveats": [...], "recommendation": "proceed/proceed_with_caveats/revise_requirements/revise_data_understanding/cannot_proceed"}}"""

GENERATE_CODE = """You are an expert data analyst writing Python code with pandas, numpy and Plotly to answer this question.

{rules}

Question: {question}
Approach: {requirements}
{notes}Round the numbers in `result` as the question asks (e.g. round(x, 2)).
Return ONLY the Python code, no explanations or markdown."""

FIX_CODE = """Fix the code above.
{problem}{patterns}
Analyze the problem and write CORRECTED code that keeps the intent. Return ONLY the fixed Python code, no explanations or markdown."""

CHECK_EVIDENCE = """
An independent computation of the same question (separate code) gave:
{check}
The two results disagree: decide which is right. If the independent one is, these results are not valid.
"""

CHECK_HINT = "An independent computation of the question gave:\n{check}\n"

EVALUATE = """Evaluate the analysis results for correctness and sensibility.

Question: {question}
Requirements: {requirements}
Code:
```python
{code}
```
Execution success: {success}
Results:
{output}
{error}{check}
Validate:
1. PLAUSIBILITY: are the numbers reasonable? Any impossible values (e.g. correlation > 1, negative counts)?
2. METHODOLOGY: was the approach appropriate for the question?
3. COMPLETENESS: did this actually answer the question?
4. ISSUES: any errors, red flags or concerns?

Return JSON: {{"reasoning": "brief", "is_valid": true/false, "issues_found": [...], "confidence": 0.0-1.0, "recommendation": "accept/code_error/wrong_approach/data_issue"}}"""

REMEDIATE = """Determine the root cause of the issue and plan remediation.

Question: {question}
Evaluation: {evaluation}
Code:
```python
{code}
```
{error}
Diagnose:
1. ROOT CAUSE: what is the fundamental problem?
2. ACTION:
- "rewrite_code": the code has bugs or a wrong implementation
- "revise_requirements": we are approaching the problem wrong
- "reexamine_data": we misunderstood the data structure or quality

Return JSON: {{"reasoning": "brief", "root_cause": "...", "action": "rewrite_code/revise_requirements/reexamine_data", "guidance": "specific instructions for the next step"}}"""

EXPLAIN_RESULTS = """Explain the analysis results to a business user in plain language, concise but thorough.

Question: {question}
Results (quote numbers exactly):
{output}
Evaluation: {evaluation}
{caveats}{gave_up}
{provide}"""

EXPLAIN_AFTER_CODE = """The code ran. Results (quote numbers exactly):
{output}
Evaluation: {evaluation}
{caveats}Now explain the analysis results to a business user in plain language, concise but thorough: answer
the question above, say what the results show, not how the code made them, and write no code.
{provide}"""
"""Node 6 after a valid result, as the turn after node 4's code (``common.code.follow_up``): the
model's cache still holds the profile, the question, the rules and the code."""

PROVIDE = """Provide, in one short sentence each:
1. DIRECT ANSWER: a clear answer to the question (or what went wrong)
2. KEY FINDINGS: the main insights (if successful)
3. CONTEXT: what the numbers mean in practical terms
4. CAVEATS: limitations or concerns"""
BRIEF_CAVEATS = " Then state the caveats above in one sentence."

CAVEATS = """Data quality caveats (you MUST state these prominently):
{items}
"""

GAVE_UP = """We could not get a valid result after {attempts} remediation attempts.
What we tried: {tried}
Last problem: {problem}
Explain clearly what went wrong and what we tried, and suggest how the user can help (e.g. clarify the question, check the data).
"""


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def understand(state: Mapping[str, Any]) -> str:
    return UNDERSTAND.format(question=state["question"])


def explain_concept(state: Mapping[str, Any], limitation: Mapping[str, Any] | None = None) -> str:
    """Node 1A; ``limitation`` is the alignment check when node 3 could not align."""
    text = ""
    if limitation is not None:
        text = LIMITATION.format(
            requirements=compact_json(state.get("requirements") or {}),
            gaps="; ".join(limitation.get("gaps") or []) or "(none listed)",
            reasoning=limitation.get("reasoning") or "(none given)",
        )
    return EXPLAIN_CONCEPT.format(limitation=text, question=state["question"])


def requirements(state: Mapping[str, Any], feedback: str | None = None) -> str:
    """Node 1B; ``feedback`` says why node 3 or node 5a sent the requirements back."""
    revision = ""
    if feedback and state.get("requirements"):
        revision = REVISION.format(requirements=compact_json(state["requirements"]), feedback=feedback)
    return REQUIREMENTS.format(question=state["question"], revision=revision)


def select_columns(state: Mapping[str, Any], dataset_id: str, columns: int, summary_a: str, limit: int) -> str:
    overview = OVERVIEW_IN_DATA if summary_a in (state.get("data_summary") or "") else OVERVIEW_HERE.format(summary_a=summary_a)
    return SELECT_COLUMNS.format(dataset_id=dataset_id, columns=columns, overview=overview, limit=limit,
                                 question=state["question"], requirements=compact_json(state.get("requirements") or {}))


def profile(state: Mapping[str, Any], summaries: str, feedback: str | None = None) -> str:
    """Node 2's final step; ``summaries`` is what DATA does not already hold (see nodes.py)."""
    return PROFILE.format(summaries=summaries, question=state["question"],
                          requirements=compact_json(state.get("requirements") or {}),
                          feedback=f"Look again: {feedback}\n" if feedback else "")


def alignment(state: Mapping[str, Any]) -> str:
    return ALIGNMENT.format(requirements=compact_json(state.get("requirements") or {}),
                            profile=compact_json(state.get("data_profile") or {}))


def requirements_text(requirements: Mapping[str, Any]) -> str:
    """Node 1B's requirements as one line of prose: shown as JSON, small models copy the JSON into `result`."""
    parts = []
    if requirements.get("analysis_type"):
        parts.append(f"{requirements['analysis_type']} analysis")
    if requirements.get("variables_needed"):
        parts.append("using " + ", ".join(map(str, requirements["variables_needed"])))
    text = " ".join(parts) or "answer the question"
    if requirements.get("constraints"):
        text += "; constraints: " + "; ".join(map(str, requirements["constraints"]))
    if requirements.get("success_criteria"):
        text += f"; done when: {requirements['success_criteria']}"
    return text


def _code_context(state: Mapping[str, Any]) -> dict[str, str]:
    return {"rules": code_rules(state["datasets"], state["question"]), "question": state["question"],
            "requirements": requirements_text(state.get("requirements") or {})}


def generate_code(state: Mapping[str, Any]) -> str:
    """Node 4, first attempt of a round: the data notes of the profile and node 3's caveats."""
    profile = state.get("data_profile") or {}
    quality = profile.get("data_quality") or {}
    notes_list = [f"{k}: {v}" for k, v in quality.items()] if isinstance(quality, dict) else [str(quality)]
    notes_list += [str(x) for x in profile.get("limitations") or []]
    notes = f"Data notes: {'; '.join(notes_list)}\n" if notes_list else ""
    if state.get("alignment_caveats"):
        notes += f"Handle these caveats: {'; '.join(state['alignment_caveats'])}\n"
    return GENERATE_CODE.format(notes=notes, **_code_context(state))


def fix_code(state: Mapping[str, Any], guidance: str | None = None) -> str:
    """Node 4, a retry after an error, or a rewrite after node 5a (evaluation issues + guidance):
    the turn after the code (``common.code.follow_up``; the question, rules and code are above it)."""
    if state.get("error") and not state.get("execution_success"):
        problem, patterns = f"Error:\n{quote_data(state['error'], 1200)}\n", ERROR_PATTERNS
    else:
        issues = (state.get("evaluation") or {}).get("issues_found") or ["the results were judged wrong"]
        problem, patterns = f"It ran, but the evaluation found:\n{_bullets(issues)}\n", ""
    if guidance:
        problem += f"Remediation guidance: {guidance}\n"
    check = (state.get("cross_check") or {}).get("reference")
    if check and state.get("execution_success"):
        problem += CHECK_HINT.format(check=quote_data(f"result = {check}", 300))
    return FIX_CODE.format(patterns=patterns, problem=problem)


cross_check = check_instruction
"""Node 5's independent computation (``common.verify``): the question and the code rules only."""


def _output(state: Mapping[str, Any]) -> str:
    """The execution's output, with the top/bottom label picked by code for a "which … highest" question."""
    return describe_output(state.get("execution_result")) + ranked_note(state["question"], state.get("execution_result"))


def evaluate(state: Mapping[str, Any], disagreeing_check: str | None = None) -> str:
    """Node 5's model call; ``disagreeing_check`` is the independent result when the two differ."""
    success = bool(state.get("execution_success"))
    error = "" if success else f"Error:\n{quote_data(state.get('error'), 800)}\n"
    check = CHECK_EVIDENCE.format(check=quote_data(f"result = {disagreeing_check}", 600)) if disagreeing_check else ""
    return EVALUATE.format(question=state["question"], requirements=compact_json(state.get("requirements") or {}),
                           code=(state.get("code") or "").strip(), success=success,
                           output=_output(state), error=error, check=check)


def remediate(state: Mapping[str, Any]) -> str:
    error = "" if state.get("execution_success") else f"Error:\n{quote_data(state.get('error'), 800)}\n"
    return REMEDIATE.format(question=state["question"], evaluation=compact_json(state.get("evaluation") or {}),
                            code=(state.get("code") or "").strip(), error=error)


def explain_results(state: Mapping[str, Any], gave_up: bool, after_code: bool = False) -> str:
    """Node 6; ``gave_up`` when node 5a reached the remediation limit; ``after_code``: the turn
    after node 4's code (:data:`EXPLAIN_AFTER_CODE`), for a valid result."""
    caveats = CAVEATS.format(items=_bullets(state["alignment_caveats"])) if state.get("alignment_caveats") else ""
    tail = ""
    if gave_up:
        tried = "; ".join(f"{r['action']} ({r['root_cause']})" if r.get("root_cause") else r["action"]
                          for r in state.get("remediation_history") or []) or "(nothing)"
        if state.get("execution_success"):
            problem = "; ".join((state.get("evaluation") or {}).get("issues_found") or []) or "the results were judged wrong"
        else:
            problem = quote_data(state.get("error"), 600) if state.get("error") else "the code failed"
        tail = GAVE_UP.format(attempts=state.get("total_remediations", 0), tried=tried, problem=problem)
    evaluation = compact_json(state.get("evaluation") or {}, drop=("reasoning", "recommendation"))
    provide = PROVIDE
    if brief_answer(state["question"]) and not gave_up:  # a length that fits the question
        provide = BRIEF_ANSWER + (BRIEF_CAVEATS if caveats else "")
    if after_code:
        return EXPLAIN_AFTER_CODE.format(output=_output(state), evaluation=evaluation, caveats=caveats, provide=provide)
    return EXPLAIN_RESULTS.format(question=state["question"], output=_output(state),
                                  evaluation=evaluation, caveats=caveats, gave_up=tail, provide=provide)
