"""What code_exec's code may use (seed 001: pandas, numpy, sklearn, matplotlib, seaborn), checked
before it runs, and the outputs it announces, read off the code.

The check is the first wall and gives the model an error it can fix without a sandbox round
trip; the sandbox enforces the same list while the code runs (an import guard for that run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from dsagent.sandbox.aliases import BOUND
from dsagent.workflows.react.state import ExpectedOutput

ALLOWED_LIBRARIES = ("pandas", "numpy", "sklearn", "matplotlib", "seaborn")
"""The seed's allowed libraries."""
HARMLESS_STDLIB = ("math", "statistics", "datetime", "re", "json", "collections", "itertools", "functools",
                   "operator", "string", "decimal", "fractions", "random", "calendar", "textwrap", "typing",
                   "warnings", "__future__")
"""Standard modules that neither reach files, processes nor the network."""
ALLOWED_IMPORTS = (*ALLOWED_LIBRARIES, *HARMLESS_STDLIB)

STATS_WITHOUT_SCIPY = (" Without scipy: s.skew(), s.kurt(), s.corr(other, method='pearson'|'spearman'|'kendall'),"
                       " np.polyfit for a line, sklearn.linear_model for regression, math.erfc for a normal tail.")
"""What a refused scipy/statsmodels import is told to use instead (a small model retries scipy otherwise)."""


def _stats_hint(libraries: Iterable[str]) -> str:
    """:data:`STATS_WITHOUT_SCIPY` when a refused library is scipy or statsmodels, else ""."""
    return STATS_WITHOUT_SCIPY if any(lib.partition(".")[0] in ("scipy", "statsmodels") for lib in libraries) else ""

# The sandbox binds these for the other workflows; in this one they are not there (alias → library).
_OTHER_LIBRARY_NAMES = {alias: module.partition(".")[0] for alias, module in BOUND.items()
                        if module.partition(".")[0] not in ALLOWED_LIBRARIES}


def _bound_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).partition(".")[0])
    return names


def check_code(code: str) -> str | None:
    """Why the code may not run in this workflow, as an error the model can act on; None if it may.

    A syntax error is left to the sandbox, whose traceback quotes the line.
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    refused: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            refused += [alias.name for alias in node.names if alias.name.partition(".")[0] not in ALLOWED_IMPORTS]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.partition(".")[0] not in ALLOWED_IMPORTS:
                refused.append(node.module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            refused.append("__import__(...)")
    if refused:
        return (f"ImportError: this workflow does not allow {', '.join(dict.fromkeys(refused))}. "
                f"Use only {', '.join(ALLOWED_LIBRARIES)} (and standard modules such as math, statistics, datetime)."
                + _stats_hint(refused))
    bound = _bound_names(tree)
    missing = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                      and n.id in _OTHER_LIBRARY_NAMES and n.id not in bound})
    if missing:
        names = ", ".join(f"{n} ({_OTHER_LIBRARY_NAMES[n]})" for n in missing)
        return (f"NameError: {names} is not available in this workflow. "
                "Use pandas (pd), numpy (np), sklearn, matplotlib (plt) or seaborn (sns)."
                + _stats_hint(_OTHER_LIBRARY_NAMES[n] for n in missing))
    return None


def _string_arg(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    for keyword in call.keywords:
        if keyword.arg in ("fname", "path_or_buf", "label") and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
            return keyword.value.value
    return None


def expected_outputs(code: str, instruction: str) -> list[ExpectedOutput]:
    """The files the code saves (``savefig('x.png')`` → figure, ``to_csv('x.csv')`` → table), in
    order, each described by the chart title set before it (else the instruction)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)),
                   key=lambda n: (n.lineno, n.col_offset))
    outputs: list[ExpectedOutput] = []
    title = None
    for call in calls:
        name, text = call.func.attr, _string_arg(call)  # type: ignore[union-attr]
        if name in ("title", "set_title", "suptitle") and text:
            title = text
        elif name == "savefig" and text:
            outputs.append(ExpectedOutput(file_name=text, description=title or instruction, output_type="figure"))
            title = None
        elif name == "to_csv" and text:
            outputs.append(ExpectedOutput(file_name=text, description=instruction, output_type="table"))
    return outputs
