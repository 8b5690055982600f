"""Seed 001's three prompts (reason, code_exec, report), lean for a small local model.

Every call starts with the shared stable prefix (``workflows/common/prompting.py``: the role and
the data profile as the system message, then the earlier turns), so llama.cpp re-reads only the
node's own instruction. The seed's ``df_info`` is that profile: it already lists shape, columns,
dtypes and sample values. Snapshot-tested.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dsagent.workflows.common.code import clip
from dsagent.workflows.common.prompting import data_where, named_keys_rule, quote_data
from dsagent.workflows.react.code_policy import ALLOWED_LIBRARIES
from dsagent.workflows.react.state import ReactState, ExecutionResult

REASON = """You are a data analysis assistant who works step by step. Decide the next step for the user's latest message.

User's latest message: {question}

{results}{assumptions}
Choose next_action:
- "act": run one analysis step. instruction: one sentence saying what to compute or plot (columns, filters, chart type); one step should compute everything the message asks for when it can.
- "finalize": the results above answer every part of the message.
- "ask": only when the message is ambiguous and DATA cannot settle it (which column, time grain, metric); never about a column DATA shows. question: ONE short question that states your best guess, e.g. "Do you mean total units per month?"
{hint}
Write the question and the instruction in {language}.

Return JSON: {{"rationale": "one short sentence", "next_action": "act|finalize|ask", "instruction": "...", "question": "...", "assumption": "..."}}"""

HINT_NONE = "Nothing has run yet for this message."
HINT_SUCCEEDED = "The last step succeeded: if the results answer every part of the message, choose finalize; else act for the missing part."
HINT_FAILED = "The last step failed: fix the instruction (right column, simpler method, fewer rows) or ask."

CODE = """You are an expert data analyst who writes Python code for one analysis step.

{rules}

User's request: {question}
Step: {instruction}
{previous}
Return ONLY the Python code, no explanations or markdown."""

CODE_RULES = """CODE REQUIREMENTS:
- The data is ALREADY LOADED {where}. Never read files.
- Use the exact column names shown in DATA (case and spaces matter).
- Only {libraries} may be used; pd, np, plt and sns are ready. No plotly, scipy or statsmodels.
- Store the answer in a variable called `result` (a number, a dict of named values, or a DataFrame), also for a chart: the data it shows. Calculate it; never hardcode results.
- Charts: matplotlib or seaborn, with a title and axis labels in the language of the request; save each with plt.savefig('<short_name>.png') and then plt.close()."""

PREVIOUS_FAILED = """The previous code for this step failed:
```python
{code}
```
Error:
{error}
Write corrected code.
"""

REPORT = """You are a data analyst who writes the final report for the user's request from the analysis results.

User's request: {question}

{results}{assumptions}{limit}
Write in {language}. Quote numbers exactly as in the results; never invent any (without numbers above, state none).
Return JSON: {{"title": "short title", "sections": [{{"section_type": "text", "content": "Markdown: the conclusion first, then the evidence (2-4 sentences)"}}], "suggestions": ["one further analysis"]}}
Charts and result tables are attached for you: write text sections only."""

LIMIT = "The analysis stopped at the limit of {max_loops} steps before it was complete: say so, and present the results so far as intermediate."

NO_RESULTS = "No analysis has run yet for this message.\n"

# Deterministic texts (no model call): Japanese when the user writes Japanese.
UPLOAD = {
    "en": "Please upload a data file (CSV, Excel, Parquet or JSON) first: there is no data to analyze yet.",
    "ja": "分析するデータがまだありません。まずデータファイル（CSV・Excel・Parquet・JSON）をアップロードしてください。",
}
LIMIT_NOTE = {
    "en": "The analysis reached the limit of {max_loops} steps before it was complete; these are the intermediate results.",
    "ja": "分析は上限の{max_loops}ステップに達したため、途中までの結果を示します。",
}
FALLBACK_HEADING = {"en": "## Results", "ja": "## 結果"}
NO_ANALYSIS = {"en": "No analysis could be run for this request.", "ja": "この要求に対して分析を実行できませんでした。"}

LANGUAGE = {"en": "the language of the user's message", "ja": "Japanese (日本語)"}
"""Named outright for Japanese: a small model follows "Japanese" better than "the user's language"."""

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def language(text: str) -> str:
    """"ja" when the text has Japanese characters, else "en" (for the few fixed texts)."""
    return "ja" if _JAPANESE.search(text or "") else "en"


def code_rules(dataset_ids: Iterable[str] | Mapping[str, Any], question: str = "") -> str:
    where, sql_rule = data_where(dataset_ids)
    return CODE_RULES.format(where=where, libraries=", ".join(ALLOWED_LIBRARIES)) + sql_rule + named_keys_rule(question)


def _last_line(error: str | None) -> str:
    lines = [line for line in (error or "").strip().splitlines() if line.strip()]
    hint = next((line for line in lines if line.startswith("Hint:")), "")
    last = next((line for line in reversed(lines) if not line.startswith("Hint:") and not line.startswith(("Columns of", " "))), "error")
    return clip(f"{last} {hint}".strip(), 400)


def describe_step(n: int, run: ExecutionResult, detail: bool) -> str:
    """One execution as the model sees it: its instruction, then its result or its error."""
    head = f"{n}. {run.instruction or 'analysis'}"
    if not run.success:
        return f"{head}\n   FAILED:\n{quote_data(_last_line(run.error))}"
    parts = []
    if run.result is not None:
        parts.append(f"result = {clip(run.result, 1200 if detail else 500)}")
    if run.stdout and run.stdout.strip():
        parts.append(f"printed: {clip(run.stdout.strip(), 600 if detail else 300)}")
    charts = [o.description for o in run.outputs if o.output_type == "figure"]
    if charts:
        parts.append("charts: " + "; ".join(charts))
        if run.result is None and not (run.stdout or "").strip():
            parts.append("(no numbers were stored or printed)")
    if not parts:
        return f"{head}\n   (ran, but set no `result` and printed nothing)"
    return f"{head}\n{quote_data(chr(10).join(parts))}"


def describe_results(results: Sequence[ExecutionResult], detail: bool = False) -> str:
    if not results:
        return NO_RESULTS
    steps = "\n".join(describe_step(n, run, detail) for n, run in enumerate(results, start=1))
    return f"Steps done for this message:\n{steps}\n"


def _assumptions(items: Sequence[str]) -> str:
    return "Assumptions so far: " + "; ".join(items) + "\n" if items else ""


def reason(state: ReactState) -> str:
    results = state.execution_results
    hint = HINT_NONE if not results else HINT_SUCCEEDED if results[-1].success else HINT_FAILED
    return REASON.format(question=state.question, results=describe_results(results) if results else "",
                         assumptions=_assumptions(state.assumptions), hint=hint, language=LANGUAGE[language(state.question)])


def code(state: ReactState, instruction: str) -> str:
    last = state.execution_results[-1] if state.execution_results else None
    previous = ""
    if last is not None and not last.success:
        previous = PREVIOUS_FAILED.format(code=last.code.strip(), error=quote_data(_last_line(last.error)))
    return CODE.format(rules=code_rules(state.datasets, state.question), question=state.question, instruction=instruction, previous=previous)


def report(state: ReactState, limit_reached: bool, max_loops: int) -> str:
    limit = LIMIT.format(max_loops=max_loops) + "\n" if limit_reached else ""
    return REPORT.format(question=state.question, results=describe_results(state.execution_results, detail=True),
                         assumptions=_assumptions(state.assumptions), limit=limit, language=LANGUAGE[language(state.question)])
