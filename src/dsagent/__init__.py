"""dsagent: an AI data scientist. ``from dsagent import analyze`` (questions), ``from dsagent import clean`` (cleaning).

Heavy libraries are imported lazily so that ``import dsagent`` and ``dsagent --help`` stay fast.
In a notebook, ``df.dsagent.ask("…")`` and ``dsagent.ask(question, df, …)`` answer with a rich
display, and ``%load_ext dsagent`` adds the ``%%dsagent`` cell magic (docs/doors.md).
"""

from __future__ import annotations

from typing import Any

from dsagent.doors import pandas_hook

__version__ = "0.1.0"
__all__ = ["AnalysisResult", "CleanOutcome", "Session", "analyze", "ask", "clean", "load_datasets", "profile_dataset", "__version__"]

pandas_hook.install()  # df.dsagent, registered when pandas is (or already was) imported


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
    if name == "ask":
        from dsagent.doors.notebook import ask

        return ask
    raise AttributeError(name)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext dsagent``: the ``%%dsagent`` cell magic."""
    from dsagent.doors.notebook import load_ipython_extension as load

    load(ipython)
