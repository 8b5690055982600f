"""Editing code by its syntax tree while keeping the rest of it (comments, spacing) as written:
the helpers the mends share."""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable


def line_offsets(code: str) -> list[int]:
    """The character offset at which each line of ``code`` starts (index 0 is line 1)."""
    offsets = [0]
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def mend_nodes(code: str, edit: Callable[[ast.AST], tuple[ast.AST, str] | None]) -> str:
    """``code`` with the nodes ``edit`` rewrites (``edit(node)`` → (the node to replace, its new
    source) or None) replaced; unchanged when it does not parse or two rewrites overlap."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    edits = [found for node in ast.walk(tree) if (found := edit(node)) is not None]
    return (replace_nodes(code, edits) if edits else None) or code


def replace_nodes(code: str, edits: list[tuple[ast.AST, str]]) -> str | None:
    """``code`` with each node's source replaced by its text; None when two nodes overlap.
    A node's column is counted in UTF-8 bytes (``ast``): turned into characters on its line, so
    a line with 'Zürich' before the node is cut where it should be."""
    offsets, lines = line_offsets(code), code.splitlines(keepends=True)

    def at(line: int, col: int) -> int:
        return offsets[line - 1] + len(lines[line - 1].encode("utf-8")[:col].decode("utf-8", errors="ignore"))

    spans = sorted((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset), text) for node, text in edits)
    if any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:])):
        return None
    for start, end, text in reversed(spans):
        code = code[:start] + text + code[end:]
    return code


def owns_its_lines(node: ast.stmt, lines: list[str]) -> bool:
    """The statement starts its first line and ends its last (no ``;`` neighbours) to be replaced whole."""
    first, last = lines[node.lineno - 1].encode("utf-8"), lines[node.end_lineno - 1].encode("utf-8")  # ast counts bytes
    rest = last[node.end_col_offset:].decode("utf-8", errors="ignore").strip()
    return not first[:node.col_offset].strip() and (not rest or rest.startswith("#"))


def uses_df(tree: ast.AST) -> bool:
    """The code reads a name ``df`` (the single dataset)."""
    return "df" in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def rename_name(code: str, old: str, new: str) -> str | None:
    """``code`` with every name token ``old`` written ``new`` (strings and comments untouched,
    spacing kept); None when it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    out = []
    for tok in tokens:  # positions stay the original ones: untokenize spaces by them
        out.append(tok._replace(string=new) if tok.type == tokenize.NAME and tok.string == old else tok)
    return tokenize.untokenize(out)


def parsed(code: str) -> ast.Module | None:
    """The syntax tree of ``code``, or None when it does not parse (a mend then leaves it as written)."""
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def parses(code: str) -> bool:
    """Does ``code`` parse (a mend keeps the code as written when its edit would not)?"""
    return parsed(code) is not None
