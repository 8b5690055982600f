"""Mend, before it runs, a mistake the small model makes over and over and cannot fix itself.

Asked for a dict of named answers, the 1.5B model writes one literal whose later values read its
earlier keys::

    result = {'r': df['a'].corr(df['b']),
              'kind': 'positive' if result['r'] > 0 else 'negative'}

which fails with ``NameError: name 'result' is not defined`` — and, shown that error, it writes the
same literal again (in the run log: nine failed attempts of this one shape, whole runs given up on
it). What it means is unambiguous, so code builds the dict key by key instead::

    result = {}
    result['r'] = df['a'].corr(df['b'])
    result['kind'] = 'positive' if result['r'] > 0 else 'negative'

Only when the name is bound nowhere before that statement (otherwise the read is of the earlier
value, and the code may be right); the rest of the code, comments included, is kept as written.
"""

from __future__ import annotations

import ast


def mend_self_reference(code: str) -> str:
    """``code`` with each dict literal that reads its own keys built key by key (see the module)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    mends = [node for node in ast.walk(tree) if _reads_itself(node, tree) and _owns_its_lines(node, lines)]
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


def _owns_its_lines(node: ast.Assign, lines: list[str]) -> bool:
    """The statement starts its first line and ends its last (no ``;`` neighbours) to be replaced whole."""
    first, last = lines[node.lineno - 1], lines[node.end_lineno - 1]
    rest = last[node.end_col_offset:].strip()
    return not first[:node.col_offset].strip() and (not rest or rest.startswith("#"))
