"""Where a library name lives, for an import from the wrong module, a name used unimported or looked
up in the wrong module.

The small model imports ``KNeighborsClassifier`` from ``sklearn.preprocessing``, and shown
``ImportError: cannot import name ... from 'sklearn.preprocessing'`` it tries another wrong module
or drops the import (``NameError``) — a whole run spent on it. The libraries can say where the name
is: the hint names the module and the import line. Looked up only after such an error, in the
worker, among the modules data-analysis code imports from, without importing any (see _home_of).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from dsagent.sandbox.aliases import alias_of

_MODULES = (
    "sklearn.linear_model", "sklearn.ensemble", "sklearn.tree", "sklearn.neighbors", "sklearn.svm",
    "sklearn.naive_bayes", "sklearn.cluster", "sklearn.decomposition", "sklearn.preprocessing",
    "sklearn.impute", "sklearn.model_selection", "sklearn.metrics", "sklearn.feature_selection",
    "sklearn.pipeline", "sklearn.compose", "sklearn.neural_network", "sklearn.mixture", "scipy.stats",
    "statsmodels.api", "numpy", "pandas",
)
_IMPORT = re.compile(r"cannot import name '(\w+)' from '([\w.]+)'")
_ATTRIBUTE = re.compile(r"module '([\w.]+)' has no attribute '([a-z]\w+)'", re.IGNORECASE)
# A NameError's name is often a variable the code forgot to set ('X', 't'): look up only names
# shaped like a library's classes and functions.
_LIBRARY_SHAPED = re.compile(r"[A-Z](?=\w*[a-z])\w*[A-Z]\w*|[a-z][a-z0-9]*_[a-z0-9_]+")


def name_hint(exc: BaseException) -> str:
    """'Hint: …' naming the module that has the name an ImportError, NameError or a module's
    AttributeError is about, or ''."""
    if isinstance(exc, ImportError):
        match = _IMPORT.search(str(exc))
        name, wrong = (match.group(1), match.group(2)) if match else (None, None)
    elif isinstance(exc, AttributeError):  # stats.r2_score, scipy.pearsonr, sklearn.LinearRegression
        match = _ATTRIBUTE.search(str(exc))
        wrong, name = (match.group(1), match.group(2)) if match else (None, None)
    elif isinstance(exc, NameError) and getattr(exc, "name", None) and _LIBRARY_SHAPED.fullmatch(exc.name):
        name, wrong = exc.name, None
    else:
        return ""
    home = _home_of(name) if name else None
    if home is None or home == wrong:
        return ""
    alias = alias_of(home)
    if alias:
        return f"Hint: {name} is in {home}, bound as {alias}: write {alias}.{name}(...) (no import needed)."
    return f"Hint: {name} is in {home}: from {home} import {name}"


def _home_of(name: str) -> str | None:
    """The first module that has ``name``: an imported one is asked; one not yet imported is not
    imported (seconds of the run's time limit) — its ``__init__.py`` is read for the name, which
    scikit-learn's subpackages list in ``__all__`` and scipy.stats in its docstring's listing."""
    # Listed, not just mentioned: in __all__ ("LinearRegression"), an import line, or scipy's
    # autosummary (a line that starts with the name) — a docstring's prose ("linear models") is not.
    n = re.escape(name)
    quoted = re.compile(rf"""["']{n}["']|^[ \t]+{n}(?:[ \t]|$)|^\s*(?:from\s+\S+\s+)?import\s[^\n]*(?<![\w.]){n}\b""", re.M)
    for module in _MODULES:
        loaded = sys.modules.get(module)
        if loaded is not None:
            if hasattr(loaded, name):
                return module
            continue
        init = _init_file(module)
        try:
            if init is not None and quoted.search(init.read_text(encoding="utf-8", errors="ignore")):
                return module
        except OSError:
            continue
    return None


def _init_file(module: str) -> Path | None:
    """``module``'s ``__init__.py``, found from its top package's location (find_spec of a
    submodule would import the package)."""
    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    init = Path(spec.origin).parent.joinpath(*rest, "__init__.py")
    return init if init.is_file() else None
