"""Seed 003's ``GraphState``, field for field, plus what the guards and the report need.

Every field is JSON-able (the state is checkpointed in SQLite and served by a LangGraph server):
the tables themselves stay in the files and the sandbox; ``data_raw`` and ``data_cleaned`` hold
where they are and their shape, not the rows.
"""

from __future__ import annotations

from typing import Optional, TypedDict


class CleanState(TypedDict, total=False):
    # --- the seed's fields
    messages: list
    """Messages to the user: the report node adds the agent's outputs (seed: report_agent_outputs)."""
    user_instructions: str
    """The user's instructions, plus every change asked for in review ("Added instructions: …")."""
    recommended_steps: str
    """The numbered steps the reviewer reads (what each does and why, with counts)."""
    data_raw: dict
    """{dataset_id: {name, path, rows, columns}} of the raw tables (the frames stay in the sandbox)."""
    data_cleaned: Optional[dict]
    """{dataset_id: {csv, parquet, rows, columns, dtypes, missing}} of the cleaned tables (a file above
    big_file_mb also has ``big``: its sample, passes and the whole table's figures the steps used)."""
    all_datasets_summary: str
    """The profile of every raw table (dsagent.data.summarize_datasets) plus the findings by code."""
    data_cleaner_function: Optional[str]
    """The source of ``data_cleaner(data_raw)``, imports inside."""
    data_cleaner_function_path: Optional[str]
    """Where the function is written in the workspace (the seed's function logging)."""
    data_cleaner_file_name: str
    """File name of the logged function (default data_cleaner.py)."""
    data_cleaner_function_name: str
    """Name of the function (data_cleaner)."""
    data_cleaner_error: Optional[str]
    """The last execution error or guard finding; None when the cleaner ran and passed the guards."""
    max_retries: int
    """Fix attempts allowed (setting clean_max_retries)."""
    retry_count: int
    """Fix attempts made so far."""

    # --- dsagent's additions
    findings: dict
    """{dataset_id: [finding, ...]}: problems found by code (detect.py), numbered per table."""
    plan: dict
    """{dataset_id: [step, ...]}: the steps the function is built from (plan.py)."""
    policy: dict
    """The seed's default-policy switches after the user's instructions."""
    model_note: str
    """What the model said about the steps (its reasoning), shown with them."""
    extra_steps: list
    """Steps the model added from the instructions that no vetted snippet covers (custom_steps)."""
    custom_code: Optional[str]
    """The model-written ``custom_steps(df)`` for ``extra_steps``, or None."""
    guard_findings: list
    """What the guards found after the last run (one line each); empty when all passed."""
    verification: dict
    """{dataset_id: [line, ...]}: each finding checked by code against the cleaned table."""
    review_rounds: int
    """How many times the steps were sent back by the reviewer."""
    functions: dict
    """{dataset_id: data_cleaner source}: one function per table (data_cleaner_function is the first)."""
    function_origin: dict
    """{dataset_id: "snippets" | "model"}: built from the plan, or rewritten by the fix node."""
    approved_functions: dict
    """{dataset_id: source}: the code the reviewer approved (or --yes accepted): the only code the
    execute node runs and saves as data_cleaner.py; empty until the review's "yes"."""
    workspace: str
    """The run's workspace, recorded by the nodes from their context (a Session's, or a served
    thread's under workspace_root); never read back to choose where to write."""
    flags: dict
    """The graph's flags (human_in_the_loop, bypass_recommended_steps, bypass_explain_code), to resume with the same graph."""
    report_path: Optional[str]
    """The before/after report (report.md; report.html beside it)."""


class CleanInput(TypedDict, total=False):
    """What a client of the served graph (LangGraph server) sends: the files and the instructions.
    Everything else (workspace, plan, code) comes from the operator's settings and the nodes."""

    data_raw: dict
    """{dataset_id: {"path": "file.csv"}}: files under the setting allowed_roots."""
    user_instructions: str
    max_retries: int


def initial_state(user_instructions: str, data_raw: dict, summary: str, max_retries: int) -> CleanState:
    return CleanState(
        messages=[], user_instructions=user_instructions, recommended_steps="", data_raw=data_raw, data_cleaned=None,
        all_datasets_summary=summary, data_cleaner_function=None, data_cleaner_function_path=None,
        data_cleaner_file_name="data_cleaner.py", data_cleaner_function_name="data_cleaner", data_cleaner_error=None,
        max_retries=max_retries, retry_count=0, findings={}, plan={}, policy={}, model_note="", extra_steps=[],
        custom_code=None, guard_findings=[], verification={}, review_rounds=0, functions={}, function_origin={}, approved_functions={},
        report_path=None,
    )
