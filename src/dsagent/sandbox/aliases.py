"""The names a cell finds bound before it runs: alias → the module it stands for.

One table for the worker (which binds them, ``pd``/``np`` at once and the rest in the background),
the error hints (``stats.pearsonr``, not an import) and the notebook export (the import lines that
make a cell run outside the sandbox). A leaf module: it imports nothing.
"""

from __future__ import annotations

# Most used first: the worker imports the lazy ones in the background in this order.
BOUND = {
    "pd": "pandas",
    "np": "numpy",
    "plt": "matplotlib.pyplot",
    "px": "plotly.express",
    "go": "plotly.graph_objects",
    "make_subplots": "plotly.subplots",
    "sns": "seaborn",
    "scipy": "scipy",
    "stats": "scipy.stats",
    "sm": "statsmodels.api",
    "smf": "statsmodels.formula.api",
    "sklearn": "sklearn",
}
EAGER = ("pd", "np")
FUNCTIONS = ("make_subplots",)  # bound to the function of that name in its module, not the module
LAZY = {alias: module for alias, module in BOUND.items() if alias not in EAGER and alias not in FUNCTIONS}


def import_line(alias: str) -> str:
    """The statement that binds ``alias`` as the sandbox does: ``import scipy.stats as stats``."""
    module = BOUND[alias]
    if alias in FUNCTIONS:
        return f"from {module} import {alias}"
    return f"import {module}" if module == alias else f"import {module} as {alias}"


def alias_of(module: str) -> str | None:
    """The name ``module`` is bound as in the sandbox (``scipy.stats`` → ``stats``), or None."""
    return next((alias for alias, bound in BOUND.items() if bound == module and alias not in FUNCTIONS), None)
