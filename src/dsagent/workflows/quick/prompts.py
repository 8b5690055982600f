"""Seed 000's prompts, adapted to our sandbox contract and to a small, slow local model.

Every call shares one stable prefix — :data:`CONTEXT` with the data profile as the system message
— so llama.cpp re-reads only the node's own instructions (prompt tokens cost ~20 ms each locally).
The seed's per-node system prompts therefore open the user message instead. Snapshot-tested.
"""

from __future__ import annotations

from dsagent.workflows.common.prompting import BRIEF_ANSWER, CODE_RULES, CONTEXT, ERROR_PATTERNS  # noqa: F401 (the shared prefix)

PLAN = """You are a data analysis planning assistant. Decide which steps are needed to answer the question.

Steps:
- CODE: write Python code to analyze data or create visualizations
- EVALUATION: examine code results and interpret findings
- EXPLANATION: give a high-level answer to the user

RULES:
- EVALUATION can only run if CODE runs
- EXPLANATION should almost always run
- For conceptual questions, skip code and evaluation
- For data questions, use code to get actual results (never guess)

EXAMPLES:
"What is correlation?" -> needs_code=false, needs_evaluation=false (conceptual)
"Show me a histogram of ages" -> needs_code=true, needs_evaluation=false (the chart speaks)
"Does the data have collinearity issues?" -> needs_code=true, needs_evaluation=true
"What's the average salary?" -> needs_code=true, needs_evaluation=false
"Calculate the mean and tell me if it's unusually high" -> needs_code=true, needs_evaluation=true

Question: {question}

Return JSON: {{"reasoning": "brief explanation", "needs_code": true/false, "needs_evaluation": true/false, "needs_explanation": true/false}}"""

GENERATE_CODE = """You are an expert data analyst who writes Python code to answer questions with pandas, numpy and Plotly.

{rules}

Question: {question}
Plan: {plan}

Return ONLY the Python code, no explanations or markdown."""

FRESH_APPROACH = """
Earlier attempts failed ({error}). Write a new, simpler solution from scratch."""

FIX_CODE = """This code failed.
Error:
{error}
""" + ERROR_PATTERNS + """
Fix the specific issue and keep the intent. Return ONLY the FIXED Python code, no explanations or markdown."""
"""The turn after the failed code (``common.code.follow_up``: the question and rules are above it)."""

EVALUATE = """You are a data analysis expert who evaluates code results and interprets findings.
Examine the actual output, identify patterns, insights or issues, and be specific with numbers.
ONLY discuss what you see in the output; NEVER make up data. Keep it concise and factual.

Question: {question}

Code:
```python
{code}
```
Output:
{output}"""

EXPLAIN = """You are a data science communicator who explains findings to business users.
Give a clear, high-level answer to the question in plain language, concise but thorough.
The analysis has already run and drawn any chart: say what its output shows, not how it was made.
{grounding}
Question: {question}{brief}"""
"""Explain from the context (no code, or the model's cache no longer holds the code's conversation);
else :data:`EXPLAIN_AFTER_CODE`."""

EXPLAIN_GROUNDING_RESULT = """Base the answer ONLY on this output of the analysis code (quote its numbers exactly):
{output}
{evaluation}"""

EXPLAIN_GROUNDING_NONE = "This is a conceptual question: no data analysis was needed."

CONCISE = "Be concise but thorough."

EXPLAIN_AFTER_CODE = """The code ran. Base the answer ONLY on its output (quote its numbers exactly):
{output}
{evaluation}
Now, as a data science communicator for business users, answer the question above in plain language.
{length} Say what the output shows, not how the code made it; write no code."""
"""Explain, as the turn after the code (``common.code.follow_up``): the model's cache still holds
the profile, the question and the code, so only the output and this turn are read."""

ERROR_MESSAGE = "Code execution failed after {attempts} attempts. Final error: {error}"
