"""Before the run: two ways a model builds the answer's dict that fail before anything is computed
(mends of ``BEFORE_RUN``)."""

from __future__ import annotations

import ast

from dsagent.workflows.common.mends._edit import owns_its_lines
from dsagent.workflows.common.mends.facts import MendFacts


def mend_self_reference(code: str, facts: MendFacts | None = None) -> str:
    """A dict literal whose later values read its earlier keys (``result = {'r': …, 'kind': … if
    result['r'] > 0 …}``: a NameError, and shown it the model writes the same literal again) built
    key by key; only when the name is bound nowhere before that statement (then the read would be
    of the earlier value, and the code may be right)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    mends = [node for node in ast.walk(tree) if _reads_itself(node, tree) and owns_its_lines(node, lines)]
    for node in sorted(mends, key=lambda n: n.lineno, reverse=True):
        name = node.targets[0].id
        indent = " " * node.col_offset
        built = [f"{indent}{name} = {{}}\n"]
        built += [f"{indent}{name}[{ast.unparse(k)}] = {ast.unparse(v)}\n" for k, v in zip(node.value.keys, node.value.values)]
        lines[node.lineno - 1:node.end_lineno] = built
    return "".join(lines)


def _reads_itself(node: ast.AST, tree: ast.Module) -> bool:
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Dict) and node.value.keys and None not in node.value.keys):
        return False
    name = node.targets[0].id
    reads = any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
                for v in node.value.values for n in ast.walk(v))
    bound_before = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                       and n.lineno < node.lineno for n in ast.walk(tree))
    return reads and not bound_before


def mend_result_unbound(code: str, facts: MendFacts | None = None) -> str:
    """``result['k'] = …`` at the top level with no ``result`` bound or read before it: the sandbox
    starts every cell without a ``result`` (a NameError, and a check that fails so is no vote),
    so ``result = {}`` is put before the first such line."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    for node in tree.body:
        if any(isinstance(n, ast.Name) and n.id == "result" for n in ast.walk(node)):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
                    and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "result"
                    and not any(isinstance(n, ast.Name) and n.id == "result" for n in ast.walk(node.value))):
                return code
            lines = code.splitlines(keepends=True)
            lines.insert(node.lineno - 1, " " * node.col_offset + "result = {}\n")
            return "".join(lines)
    return code
