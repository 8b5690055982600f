"""Seed 001's pydantic models and ``ReactState``, as the seed writes them, with the differences
marked: the frames stay in the sandbox, ``df_info`` covers every dataset, and the few fields a
dsagent workflow shares with the others (question, datasets, data_summary, final_output).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field, field_validator

Action = Literal["ask", "act", "finalize"]


# --- Artifacts ---------------------------------------------------------------------------------

class ExpectedOutput(BaseModel):
    """An output the code was written to create (a file in the workspace)."""

    file_name: str  # e.g. "region_sales.png"
    description: str  # e.g. "Sales by region, bar chart"
    output_type: Literal["figure", "table"]


class CodeGenOutput(BaseModel):
    """code_exec's code and the outputs it announces.

    The model writes plain code (no JSON: escaping code in a JSON string costs a small model
    accuracy and time); ``expected_outputs`` are read off the code's ``savefig``/``to_csv`` calls.
    """

    code: str
    expected_outputs: list[ExpectedOutput]


def _choice(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


class ReasonOutput(BaseModel):
    """reason's structured output. ``rationale`` comes first (a small model decides better after
    it has said why; with the local model's JSON-schema grammar keys come in this order)."""

    rationale: str  # why this action (for debugging; kept in the run log)
    next_action: Action
    instruction: str | None = None  # next_action == "act": the analysis instruction
    question: str | None = None  # next_action == "ask": the question to the user
    assumption: str | None = None  # an assumption made, if any

    @field_validator("next_action", mode="before")
    @classmethod
    def normalize_action(cls, value: Any) -> Any:
        return _choice(value)


# --- Inputs and results ------------------------------------------------------------------------

class DataFrameInfo(BaseModel):
    """What a DataFrame looks like (for prompts and checks); built from the session's datasets."""

    shape: tuple[int, int]
    columns: list[str]
    dtypes: dict[str, str]
    head: list[dict[str, Any]]  # the first 5 rows


class ExecutionResult(BaseModel):
    """One code_exec run."""

    success: bool
    code: str  # the code that ran
    stdout: str | None = None  # printed output
    error: str | None = None  # the error, if it failed
    outputs: list[ExpectedOutput] = Field(default_factory=list)  # outputs that exist after the run
    # Extras, not in the seed: what the run left besides files.
    instruction: str = ""
    """The instruction the code was written for."""
    result: str | None = None
    """str() of the code's ``result`` variable, capped by the sandbox."""
    figures: list[str] = Field(default_factory=list)
    """Absolute paths of the PNG charts of this run."""


# --- Report ------------------------------------------------------------------------------------

class ReportSection(BaseModel):
    """One section of the report."""

    section_type: Literal["text", "image", "table"]
    content: str  # text: Markdown / image: file path / table: JSON
    description: str | None = None  # caption of an image or table

    @field_validator("section_type", mode="before")
    @classmethod
    def normalize_type(cls, value: Any) -> Any:
        return _choice(value)


class ReportOutput(BaseModel):
    """report's structured output."""

    title: str
    sections: list[ReportSection]
    suggestions: list[str] | None = None  # further analyses the user may want


# --- State -------------------------------------------------------------------------------------

class ReactState(BaseModel):
    """Seed 001's ``AgentState`` (named ``ReactState`` here): the LangGraph state of one ``graph.invoke()``: one user message.

    The seed's ``df`` is left out on purpose: the frames live in the sandbox worker (generated code
    never runs in the agent's process), and nodes that need them read ``ctx.datasets``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    messages: Annotated[list[BaseMessage], add_messages]
    """Earlier turns (kept by the caller, e.g. Session.history), this user message, and the
    question of an ``ask``."""

    question: str = ""
    """Extra: this user message (the last human message), shared with the other workflows."""
    datasets: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Extra: {dataset_id: {name, rows, columns}}, as in the other workflows."""
    data_summary: str = ""
    """Extra: the data profile, the stable system message every prompt starts with."""

    df_info: dict[str, DataFrameInfo] = Field(default_factory=dict)
    """Per dataset id (the seed has one DataFrame); empty when no data was uploaded."""

    # ReAct loop
    next_action: Action | None = None
    """reason's latest decision."""
    loop_count: int = 0
    """Completed reason → code_exec loops in this request (the limit is ``react_max_loops``)."""

    # reason -> code_exec
    instruction: str | None = None
    """The natural-language analysis instruction for code_exec."""

    # code_exec -> reason (every run of this request)
    execution_results: Annotated[list[ExecutionResult], operator.add] = Field(default_factory=list)
    """Every code_exec run of this request, in order (appended by the reducer)."""

    assumptions: Annotated[list[str], operator.add] = Field(default_factory=list)
    """Assumptions reason made; the report lists them as caveats."""

    workspace_dir: str | None = None
    """The session workspace ``./workspace/<yyyymmddhhmmss>/``: charts and tables are saved there."""

    final_report: ReportOutput | None = None
    """report's output."""
    final_output: dict[str, Any] | None = None
    """Extra: the package every workflow returns (explanation, code, figures, result_str,
    output_type, failed_attempts, and ``report``: the shared Report as a dict)."""


def initial_state(question: str, datasets: dict[str, dict[str, Any]], data_summary: str, messages: list | None = None) -> dict[str, Any]:
    """The state of one invoke: the caller's history, then this message."""
    history = [m for m in (messages or []) if isinstance(m, BaseMessage)]
    return {
        "messages": [*history, HumanMessage(content=question)], "question": question,
        "datasets": datasets, "data_summary": data_summary, "loop_count": 0, "next_action": None,
        "instruction": None, "execution_results": [], "assumptions": [], "final_report": None, "final_output": None,
    }
