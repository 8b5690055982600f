"""A column name written with its spaces, case or punctuation off: ``df['persons per sq km']`` for
'Persons per sq km', ``'… (SMR)<2'`` for '… (SMR)<2>'. The worker's KeyError hint names the right
column, yet a small model often writes the name wrong again and spends every attempt on it. The
name is read as :func:`dsagent.sandbox.column_names.loose` reads it, and only where it is used as a
column, never where the code makes a name of its own or compares a value. And a number column
stripped of separators as if it were text (``df['votes'].str.replace(',', '')``, an AttributeError:
the loader reads "4,749" and "57.3 %" as numbers already) read as the column it is."""

from __future__ import annotations

import ast
import re

from dsagent.sandbox.column_names import loose
from dsagent.workflows.common.naming import column_read
from dsagent.workflows.common.mends._edit import parsed, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts

_READ_KEYWORDS = frozenset({"subset", "by", "on", "left_on", "right_on", "id_vars", "value_vars", "values", "x", "y",
                            "hue", "color", "usecols"})
"""Keywords whose value names existing columns (``columns=`` and ``name=`` may make new ones)."""
_READ_METHODS = frozenset({"groupby", "sort_values", "set_index", "drop_duplicates", "get"})


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _reads_a_column(node: ast.Constant, parents: dict[ast.AST, ast.AST]) -> bool:
    """Is this string where code names a column it reads: ``x['a']``, ``x[['a', 'b']]``,
    ``x.loc[m, 'a']``, ``subset=['a']``, ``.groupby('a')``?"""
    holder = parents.get(node)
    for _ in range(2):  # a name inside a list, inside a tuple
        if isinstance(holder, (ast.List, ast.Tuple)):
            node, holder = holder, parents.get(holder)
    if isinstance(holder, ast.Subscript):
        return holder.slice is node and isinstance(holder.ctx, ast.Load)
    if isinstance(holder, ast.keyword):
        return holder.arg in _READ_KEYWORDS
    if isinstance(holder, ast.Call):
        return node in holder.args and isinstance(holder.func, ast.Attribute) and holder.func.attr in _READ_METHODS
    return False


def _renames_columns(tree: ast.AST) -> bool:
    """Does the code rename columns by a rule (``df.columns = df.columns.str.lower()``,
    ``rename(columns=str.strip)``, ``add_prefix``)? Its names then differ from the data's on purpose."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "columns" for t in targets):
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("set_axis", "add_prefix", "add_suffix"):
                return True
            if node.func.attr == "rename" and (node.args or any(k.arg in ("columns", "mapper") and not isinstance(k.value, ast.Dict)
                                                                 for k in node.keywords)):
                return True
    return False


_PANDAS_NAMES = frozenset({"value", "variable", "count", "size", "index", "mean", "sum", "proportion", "level_0", "level_1"})
"""Columns pandas names itself (melt, value_counts, size().reset_index(), agg): no misspelled data column."""


def _dataset_key(node: ast.Constant, parents: dict[ast.AST, ast.AST]) -> bool:
    """Is this string the key of ``datasets[...]`` (a table's id, not a column)?"""
    holder = parents.get(node)
    return isinstance(holder, ast.Subscript) and isinstance(holder.value, ast.Name) and holder.value.id == "datasets"


def mend_column_spelling(code: str, facts: MendFacts | None = None) -> str:
    """Each string the code reads as a column that is no column, but the same letters and digits
    as exactly one (:func:`loose`), written as that column. Left alone wherever the same string is
    also used otherwise (a name the code makes, a value it compares) or is a keyword's name, a
    dataset's id, a value of a column (a pivot's columns) or a name pandas makes (melt's 'value'),
    and in code that renames columns by a rule (lower case, stripped)."""
    tree = parsed(code) if facts is not None and facts.columns else None
    if tree is None or _renames_columns(tree):
        return code
    known = set(facts.columns)
    by_letters: dict[str, set[str]] = {}
    for column in known:
        by_letters.setdefault(loose(column), set()).add(column)
    parents = _parents(tree)
    uses: dict[str, list[tuple[ast.Constant, bool]]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            uses.setdefault(node.value, []).append((node, _reads_a_column(node, parents)))
    made = {n.arg for n in ast.walk(tree) if isinstance(n, ast.keyword) and n.arg} | _PANDAS_NAMES
    values = {str(v) for column_values in facts.values.values() for v in column_values}  # a pivot's columns are values
    edits = []
    for text, found in uses.items():
        meant = by_letters.get(loose(text), set())
        if text in known or text in made or text in values or len(meant) != 1 or not loose(text) or not all(read for _, read in found):
            continue
        if any(_dataset_key(node, parents) for node, _ in found):
            continue
        edits += [(node, repr(next(iter(meant)))) for node, _ in found]
    return (replace_nodes(code, edits) if edits else None) or code


_STRIP_METHODS = frozenset({"replace", "strip", "rstrip", "lstrip"})
_SEPARATORS = frozenset(",%$€£ \u00a0")
_REGEX_PARTS = re.compile(r"\\s|[\[\]|+\\]")
"""What a pattern of separators adds around them (``r'[,\\s%]+'``, ``',|%'``)."""


def _stripped(call: ast.AST) -> ast.AST | None:
    """``x`` of ``x.str.replace(',', '')`` / ``x.str.strip('%')``: a strip of separators only, else None."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _STRIP_METHODS
            and isinstance(call.func.value, ast.Attribute) and call.func.value.attr == "str"):
        return None
    texts = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(texts) != len(call.args) or any(k.arg not in ("regex", None) for k in call.keywords):
        return None
    if call.func.attr == "replace" and (len(texts) != 2 or texts[1] != "" or not texts[0]):
        return None
    if call.func.attr != "replace" and len(texts) > 1:
        return None
    if not set(_REGEX_PARTS.sub("", "".join(texts[:1]))) <= _SEPARATORS:
        return None
    return call.func.value.value


def mend_strip_on_numbers(code: str, facts: MendFacts | None = None) -> str:
    """``x['c'].str.replace(',', '')`` (or ``.str.strip('%')``, chained) where ``c`` is a column of
    numbers in the data: ``x['c']``. Only separators, percent and currency signs and spaces stripped
    to nothing; anything else the ``.str`` call does is kept and left to fail or run as written."""
    tree = parsed(code) if facts is not None and facts.number_columns else None
    if tree is None:
        return code
    numbers, edits, inside = set(facts.number_columns), [], set()
    for node in ast.walk(tree):
        if node in inside:
            continue
        base = _stripped(node)
        while base is not None and _stripped(base) is not None:
            inside.add(base)
            base = _stripped(base)
        if base is not None and column_read(base) in numbers:
            edits.append((node, ast.get_source_segment(code, base) or ast.unparse(base)))
    return (replace_nodes(code, edits) if edits else None) or code
