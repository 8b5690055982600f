"""Prompts of the clean workflow (seed 003), beside their nodes; snapshot-tested.

The seed's recommend prompt is kept in substance (default steps, custom steps, the user's
instructions that add, remove or change steps, the previous steps, the summaries), but a small
model is not asked to find the problems: code has found them, and the model decides which default
steps the instructions switch off and says why, in a JSON object.
"""

from __future__ import annotations

RECOMMEND = """You are a Data Cleaning Expert. Code has examined the data and found the problems listed below; \
each will be fixed by a tested code step. Decide, from the user's instructions, which of the general steps to \
keep, and explain briefly.

General steps (the defaults; the user's instructions may add, remove or change them):
* drop_sparse_columns: Removing columns if more than 40 percent of the data is missing
* impute_missing: Imputing missing values with the mean (numeric) or the mode (categorical)
* fix_types: Converting columns to the correct data type
* drop_duplicates: Removing duplicate rows
* drop_missing_rows: Removing rows with missing values
* drop_outliers: Removing rows with extreme outliers (3X the interquartile range)

User instructions:
{user_instructions}

Previously recommended steps (if any):
{recommended_steps}

Problems found by code in the data:
{findings}

Answer with one JSON object:
- "reasoning": one or two sentences: what the data needs and why, mentioning the user's instructions.
- one true/false per general step (drop_sparse_columns, impute_missing, fix_types, drop_duplicates, \
drop_missing_rows, drop_outliers): false only when the user's instructions remove or forbid that step.
- "skip_findings": numbers of found problems the user asked to leave as they are (usually []).
- "extra_steps": cleaning steps the user asked for that none of the above covers, each one short \
sentence (usually []). Do not repeat the general steps or the found problems here. No steps to save files."""

CUSTOM_CODE = """You are a Data Cleaning Agent. Tested code already does the numbered steps below. Write the \
Python function `custom_steps(df)` that does only these additional steps on the DataFrame `df` and returns it:

{extra_steps}

Columns and types after the tested steps: {columns}

Rules: imports (pandas as pd, numpy as np) inside the function; do not drop rows or columns unless a step says \
so; do not read or write files. Return only the function in one ```python block."""

CREATE_CODE = """You are a Data Cleaning Agent. Write the Python function `data_cleaner(data_raw)` that takes a \
pandas DataFrame `data_raw`, does the numbered steps below on a copy, and returns the cleaned DataFrame.

Steps (reviewed by the user):
{steps}

Columns (name and type as read): {columns}

First rows (CSV):
{sample}

Rules: imports (pandas as pd, numpy as np) inside the function; never impute a code or an identifier (zip, phone, \
id) with a statistic, never turn a code into a number; do not drop rows or columns unless a step says so; do not \
read or write files. Return only the function in one ```python block."""

FIX = """You are a Data Cleaning Agent. Your job is to fix the function {function_name}() below. It is currently \
broken or its result failed a check, and it needs to be fixed.

Make sure to only return the function definition for {function_name}(), in one ```python block, with all imports \
inside the function.

This is the broken code (please fix):
```python
{code_snippet}
```

Last known error:
{error}"""

FINDINGS_NONE = "(no problem found by code)"
NO_INSTRUCTIONS = "(none: use the general steps)"
