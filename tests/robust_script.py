"""The scripted replies and run-log readers the robust workflow's flow tests share."""

from __future__ import annotations

from dsagent.config import load_settings
from dsagent.session import Session
from dsagent.store import RunLog

DATA_WORK = {"reasoning": "needs the data", "needs_data_work": True}
CONCEPT = {"reasoning": "a concept", "needs_data_work": False}
REQ_UNITS = {"reasoning": "a mean", "variables_needed": ["units"], "constraints": ["units is numeric"],
             "analysis_type": "descriptive", "success_criteria": "the mean of units"}
PROFILE_OK = {"reasoning": "clean", "available_columns": ["units"], "missing_columns": [],
              "data_quality": {"units": "int, no missing"}, "limitations": [], "is_suitable": True}
ALIGNED = {"reasoning": "all there", "aligned": True, "gaps": [], "caveats": [], "recommendation": "proceed"}
VALID = {"reasoning": "plausible", "is_valid": True, "issues_found": [], "confidence": 0.9, "recommendation": "accept"}


def route(run_id: str) -> list[tuple[str, str]]:
    return [(s["node"], s["outcome"]) for s in RunLog(load_settings().db_url).steps(run_id)]


def ask(spec: str, files, question: str, **overrides):
    with Session(files, model=spec, workflow="robust", **overrides) as session:
        return session.ask(question), session


def prompt(session: Session, call: int) -> str:
    """The node instruction (last message) of the model's call number ``call`` (0-based)."""
    return str(session.model.history[call][-1].content)


def ok(*nodes: str) -> list[tuple[str, str]]:
    return [(node, "ok") for node in nodes]


PREFIX = ok("node_0_understand", "node_1b_requirements", "node_2_data", "node_3_alignment")


IMPOSSIBLE = "result = df['units'].corr(df['price']) * 0 + 1.2"
CORR = "result = df['units'].corr(df['price'])"
INVALID = {"reasoning": "impossible", "is_valid": False, "issues_found": ["a correlation of 1.2 is impossible (> 1)"],
           "confidence": 0.95, "recommendation": "code_error"}
REWRITE = {"reasoning": "arithmetic", "root_cause": "calculation error", "action": "rewrite_code",
           "guidance": "use Series.corr instead of the hand-made formula"}


def node_5_notes(run_id: str) -> list[str]:
    return [s["detail"].partition("; ")[2] for s in RunLog(load_settings().db_url).steps(run_id) if s["node"] == "node_5_evaluate"]
