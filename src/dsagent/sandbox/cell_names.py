"""The names a cell sees in the worker: the session's own, a cell's own copy (``apart``), the
data as loaded again (``fresh_data``), and the session's helpers given back (``helpers_back``).
Runs inside the sandbox worker."""

from __future__ import annotations

from typing import Any


def own(value: Any) -> Any:
    """A DataFrame as a shallow copy (pandas' copy-on-write keeps the original as it was)."""
    import pandas as pd

    return value.copy(deep=False) if isinstance(value, pd.DataFrame) else value


def apart(namespace: dict[str, Any]) -> dict[str, Any]:
    """A cell's namespace of its own: the session's names, each DataFrame a shallow copy, so what
    the cell binds, adds or drops stays its own."""
    names = dict(namespace)
    names["datasets"] = {k: own(v) for k, v in namespace.get("datasets", {}).items()}
    if "df" in namespace:
        names["df"] = own(namespace["df"])
    return names


def fresh_data(namespace: dict[str, Any], loaded: dict[str, Any]) -> None:
    """``df`` and ``datasets`` as loaded, whatever earlier cells bound to them: a new question's
    code reads the data its profile describes (an earlier question's ``df = df[...]`` would
    silently answer this one on a subset). The session's other names stay."""
    namespace["datasets"] = {k: own(v) for k, v in loaded.items()}
    if len(loaded) == 1:
        namespace["df"] = own(next(iter(loaded.values())))


HELPERS = ("sql", "make_subplots", "pd", "np")
"""The names the session provides that code calls (``sql()``) or uses as modules (``pd``)."""


def helpers_back(namespace: dict[str, Any], helpers: dict[str, Any]) -> None:
    """Each helper an earlier cell bound to a plain value (``sql = "SELECT …"``) bound to the
    helper again: otherwise every later cell's ``sql(…)`` fails with "'str' object is not
    callable", an error the model cannot trace to an earlier cell. A function or a module the
    code bound on purpose stays."""
    import types

    for name, helper in helpers.items():
        value = namespace.get(name, helper)
        if value is not helper and not callable(value) and not isinstance(value, types.ModuleType):
            namespace[name] = helper
