"""A before-run mend (registered in :data:`~.before_run.BEFORE_RUN`): imports that can only fail.

Told that pd, px, go, stats … are ready, small models import them anyway, from a module that does
not hold them (``from plotly.graph_objects import go``), or from a module that does not exist
(``from plotly.template import plotly_white``, for a template that is named as a string): each an
ImportError and a fix round before the code's first real line runs.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from dsagent.workflows.common.mends._edit import owns_its_lines

if TYPE_CHECKING:
    from dsagent.workflows.common.mends.facts import MendFacts


def mend_imports(code: str, facts: "MendFacts | None" = None) -> str:
    """``code`` without the imports that can only fail, whose names nothing else needs.

    A name the sandbox binds already (``sandbox.aliases``) imported from the wrong place is
    dropped; so is an import from a module not installed, when the code uses none of its names.
    Module names are looked up on disk, never imported here (an import runs the package's code).
    """
    from dsagent.sandbox.aliases import BOUND, FUNCTIONS

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}  # ``m`` of ``m.f()`` too
    edits: list[tuple[ast.stmt, str]] = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom | ast.Import) or not owns_its_lines(node, lines):
            continue
        kept = [a for a in node.names if not _failing_import(node, a, BOUND, FUNCTIONS, used)]
        if len(kept) < len(node.names):
            node.names = kept
            edits.append((node, ast.unparse(node) + "\n" if kept else ""))
    for node, text in sorted(edits, key=lambda e: e[0].lineno, reverse=True):
        lines[node.lineno - 1:node.end_lineno] = [text] if text else []
    return "".join(lines)


def _failing_import(node: ast.Import | ast.ImportFrom, alias: ast.alias, bound: dict[str, str], functions: tuple[str, ...],
                    used: set[str]) -> bool:
    if isinstance(node, ast.ImportFrom):
        if node.level or node.module is None or alias.name == "*":
            return False
        name, module = alias.asname or alias.name, node.module
        if name in bound:  # bound by the sandbox already: wrong unless it is the same thing
            function = name in functions and (module, alias.name) == (bound[name], name)  # from plotly.subplots import make_subplots
            return f"{module}.{alias.name}" != bound[name] and not function
        return not _installed(module) and name not in used
    name = alias.asname or alias.name.split(".")[0]
    return not _installed(alias.name) and name not in used


def _installed(module: str) -> bool:
    """Whether ``module`` (dotted) is on disk, found without importing anything."""
    import importlib.machinery
    import sys

    parts = module.split(".")
    if parts[0] in sys.builtin_module_names:
        return len(parts) == 1
    try:
        spec = importlib.machinery.PathFinder.find_spec(parts[0])
    except (ImportError, ValueError):
        return False
    for part in parts[1:]:
        if spec is None or not spec.submodule_search_locations:
            return False
        spec = importlib.machinery.PathFinder.find_spec(part, list(spec.submodule_search_locations))
    return spec is not None
