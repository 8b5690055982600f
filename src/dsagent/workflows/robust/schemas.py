"""The JSON replies of seed 002's nodes as pydantic models, and the one way nodes ask for them.

Each model keeps the seed's key names; ``reasoning`` comes first because a small model decides
better after it has said why (with the local model's JSON-schema grammar, keys come in this order),
except in node 1B's requirements, whose reasoning no node reads (there it is last, as in the seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, field_validator

from dsagent.errors import StructuredOutputError
from dsagent.llm.structured import Bound
from dsagent.runtime import RunContext
from dsagent.workflows.common.prompting import stable_messages

T = TypeVar("T", bound=BaseModel)


def _choice(value: Any) -> Any:
    # "Proceed with caveats" and "rewrite-code" mean the seed's snake_case choices.
    return value.strip().lower().replace(" ", "_").replace("-", "_") if isinstance(value, str) else value


class QuestionUnderstanding(BaseModel):
    """Node 0."""

    reasoning: Annotated[str, Bound(120)] = Field("", description="Why, one short sentence")
    needs_data_work: bool = Field(description="Does answering need the data?")


class Requirements(BaseModel):
    """Node 1B, in the seed's key order: ``reasoning`` last and short. No later node reads it (the
    code and checks read the other four), and first it cost ~40 generated tokens (~2.5 s) a call."""

    variables_needed: Annotated[list[str], Bound(80, items=12)] = Field(default_factory=list, description="Exact column names required")
    constraints: Annotated[list[str], Bound(100, items=3)] = Field(default_factory=list, description="Data quality needed")
    analysis_type: Annotated[str, Bound(40)] = Field("descriptive", description="descriptive, visualization, correlation, regression, ...")
    success_criteria: Annotated[str, Bound(160)] = Field("", description="What the output should contain")
    reasoning: Annotated[str, Bound(60)] = Field("", description="Why this approach, a few words")


class ColumnSelection(BaseModel):
    """Node 2, wide tables: the columns to profile in detail."""

    reasoning: Annotated[str, Bound(120)] = Field("", description="Why these columns")
    columns: list[str] = Field(default_factory=list, description="Exact column names")


class DataProfile(BaseModel):
    """Node 2."""

    reasoning: Annotated[str, Bound(160)] = Field("", description="Short summary")
    available_columns: list[str] = Field(default_factory=list, description="Required columns that exist")
    missing_columns: list[str] = Field(default_factory=list, description="Required columns that do not exist")
    data_quality: dict[str, str] = Field(default_factory=dict, description="Column -> a few words on its quality")
    limitations: Annotated[list[str], Bound(120, items=3)] = Field(default_factory=list, description="What is missing or problematic")
    is_suitable: bool = Field(description="Can the data support the analysis?")


class AlignmentCheck(BaseModel):
    """Node 3."""

    reasoning: Annotated[str, Bound(160)] = Field("", description="Why this recommendation")
    aligned: bool = Field(description="Does the data satisfy the requirements?")
    gaps: Annotated[list[str], Bound(120, items=3)] = Field(default_factory=list, description="What is missing or misaligned")
    caveats: Annotated[list[str], Bound(120, items=3)] = Field(default_factory=list, description="Issues to tell the user; not blocking")
    recommendation: Literal["proceed", "proceed_with_caveats", "revise_requirements", "revise_data_understanding", "cannot_proceed"]

    @field_validator("recommendation", mode="before")
    @classmethod
    def normalize_choice(cls, value: Any) -> Any:
        return _choice(value)


class Evaluation(BaseModel):
    """Node 5."""

    reasoning: Annotated[str, Bound(160)] = Field("", description="Why")
    is_valid: bool = Field(description="Are the results correct and sensible?")
    issues_found: Annotated[list[str], Bound(160, items=3)] = Field(default_factory=list, description="Errors, red flags, concerns")
    confidence: float = Field(0.5, description="0.0-1.0")
    recommendation: Literal["accept", "code_error", "wrong_approach", "data_issue"] = "accept"

    @field_validator("recommendation", mode="before")
    @classmethod
    def normalize_choice(cls, value: Any) -> Any:
        return _choice(value)

    @field_validator("confidence", mode="before")
    @classmethod
    def unit_interval(cls, value: Any) -> Any:
        # "85" means 85%: rescale rather than fail the whole evaluation over it.
        if isinstance(value, (int, float)):
            value = value / 100 if 1 < value <= 100 else value
            return min(1.0, max(0.0, float(value)))
        return value


class RemediationPlan(BaseModel):
    """Node 5a."""

    reasoning: Annotated[str, Bound(160)] = Field("", description="Why")
    root_cause: Annotated[str, Bound(200)] = Field("", description="The fundamental problem")
    action: Literal["rewrite_code", "revise_requirements", "reexamine_data"]
    guidance: Annotated[str, Bound(300)] = Field("", description="Specific instructions for the next step")

    @field_validator("action", mode="before")
    @classmethod
    def normalize_choice(cls, value: Any) -> Any:
        return _choice(value)



def code_verdict(valid: bool, reason: str, confidence: float) -> dict[str, Any]:
    """Node 5's :class:`Evaluation` when code decided it (no model call): accept, or a code_error with ``reason``."""
    return {"reasoning": reason, "is_valid": valid, "issues_found": [] if valid else [reason], "confidence": confidence,
            "recommendation": "accept" if valid else "code_error"}

def ask_structured(ctx: RunContext, state: Mapping[str, Any], instruction: str, schema: type[T],
                   fallback: dict[str, Any], step: dict[str, str]) -> dict[str, Any]:
    """The node's JSON reply as a dict; a reply that is not valid JSON (even after the one repair)
    is not a crash: ``fallback`` is used instead, its reasoning says why, and the step is marked."""
    try:
        return ctx.llm_structured(stable_messages(state, instruction), schema).model_dump()
    except StructuredOutputError as exc:
        step["outcome"] = "fallback"
        reason = f"model reply was not valid {schema.__name__} JSON ({str(exc).splitlines()[0][:160]}); used a safe default"
        return schema.model_validate({**fallback, "reasoning": reason}).model_dump()
