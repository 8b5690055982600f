"""The run log (SQLAlchemy): runs, steps, LLM calls, artifacts."""

from dsagent.store.db import RunLog

__all__ = ["RunLog"]
