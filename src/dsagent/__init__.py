"""dsagent: an AI data scientist. ``from dsagent import analyze`` (questions), ``from dsagent import clean`` (cleaning).

Heavy libraries are imported lazily so that ``import dsagent`` and ``dsagent --help`` stay fast.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["AnalysisResult", "CleanOutcome", "Session", "analyze", "clean", "load_datasets", "profile_dataset", "__version__"]


def __getattr__(name: str) -> Any:
    if name in {"AnalysisResult", "Session", "analyze"}:
        from dsagent import session

        return getattr(session, name)
    if name in {"clean", "CleanOutcome"}:
        from dsagent.workflows.clean import api

        return getattr(api, name)
    if name in {"load_datasets", "profile_dataset"}:
        from dsagent import data

        return getattr(data, name)
    raise AttributeError(name)
