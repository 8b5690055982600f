"""Which column a question's words or a named value's key name, and where code takes idxmax's
row label: the readings of names that the fit checks (``common.fit``) and the mends share."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from dsagent.data.shape import TIME_NAME
from dsagent.workflows.common.wording import MOMENT_ASKED

QUERY = re.compile(r"(?:SELECT|select)\s+[\w*(][\s\S]*\b(?:FROM|from)\s+\w|(?:WITH|with)\s+\w+\s+(?:AS|as)\s*\(")
"""A query as SQL is written (in capitals or all lower case), not a sentence that starts "Select …" or "With …"."""

FIGURE_MAKERS = re.compile(r"^(px\.\w+|go\.Figure|make_subplots|plt\.figure|plt\.subplots|sns\.\w+|\w+\.plot)$")
"""The calls that make a chart (``px.bar``, ``go.Figure``, ``df.plot``)."""
FIGURE_NAMES = {"fig", "figure", "chart", "plot"}
_POSITION_CALLS = {"idxmax", "idxmin", "argmax", "argmin"}
REDUCTIONS = {"sum", "mean", "median", "count", "max", "min", "std", "var", "nunique"}
"""The calls that reduce a column (or each group) to one number, without arguments."""
_AGGREGATES = REDUCTIONS | {"size", "agg", "aggregate", "first", "last", "prod"}
GROUPING = {"groupby", "resample", "pivot_table", "crosstab", "value_counts"}
"""The calls that turn rows into groups (``pd.crosstab`` and ``df.groupby`` alike)."""
LABEL_CHAINS = GROUPING | _AGGREGATES | {"set_index", "pivot", "T", "transpose", "stack", "unstack", "describe"}
"""Calls after which a frame's or series' labels are names (groups, an index set), not row numbers."""


def position_call(tree: ast.AST) -> str | None:
    """The source of an idxmax/idxmin that gives a row number (:func:`row_number_call`), else None.

    Not one whose row label is then looked up (``df.loc[df['x'].idxmax(), 'year']``, or a name
    assigned from it that a subscript uses and ``result`` is not): that code takes the value at the row."""
    looked_up = {id(n) for s in ast.walk(tree) if isinstance(s, ast.Subscript) for n in ast.walk(s.slice)}
    indexes = {n.id for n in ast.walk(tree) if id(n) in looked_up and isinstance(n, ast.Name)} - _result_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) and t.id in indexes for t in node.targets):
            looked_up.update(id(n) for n in ast.walk(node.value))
    for node in ast.walk(tree):
        if id(node) not in looked_up and row_number_call(node, tree):
            return ast.unparse(node)
    return None


def row_number_call(node: ast.AST, tree: ast.AST) -> bool:
    """Is ``node`` an idxmax/idxmin whose answer is a row number: on a column of rows that keep the
    table's row numbers (``df['x']``, ``df[df['y'] > 0]['x']``, a name bound to such rows), not on
    grouped or aggregated values or a frame whose index was set (``set_index``, ``groupby``,
    ``read_csv(index_col=…)``), whose labels are names already."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _POSITION_CALLS):
        return False
    return not _labelled(node.func.value, tree)


def _labelled(expr: ast.AST, tree: ast.AST, depth: int = 0) -> bool:
    """Does ``expr`` (or a name it reads, as the code binds it) carry labels rather than row numbers?"""
    for n in ast.walk(expr):
        if isinstance(n, ast.Attribute) and n.attr in LABEL_CHAINS:
            return True
        if isinstance(n, ast.keyword) and n.arg == "index_col":
            return True
    if depth >= 3:
        return False
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            if _labelled(node.value, tree, depth + 1):
                return True
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr in LABEL_CHAINS and isinstance(node.value.func.value, ast.Name)
                and node.value.func.value.id in names
                and any(k.arg == "inplace" for k in node.value.keywords)):  # df.set_index('year', inplace=True), not a bare df.describe()
            return True
    return False


def drop_labels(call: ast.Call) -> list[object] | None:
    """The constant row labels a ``drop`` call removes (positional, ``index=`` or ``labels=``):
    ``[0, 1]`` for ``df.drop([0, 1])``, ``['A']`` for ``df.drop(index='A')``. None when it drops
    columns (``columns=``, ``axis=``, ``level=``) or a label is not a constant. The callers read
    ints as row positions and strings as names."""
    if any(k.arg in ("columns", "axis", "level") for k in call.keywords):
        return None
    given = call.args[0] if len(call.args) == 1 else next((k.value for k in call.keywords if k.arg in ("index", "labels")), None)
    items = given.elts if isinstance(given, (ast.List, ast.Tuple)) else [given] if given is not None else []
    labels = [i.value for i in items if isinstance(i, ast.Constant)]
    return labels if labels and len(labels) == len(items) else None


def _result_names(tree: ast.AST) -> set[str]:
    """The names assigned to ``result`` as they are (``result = i``)."""
    return {node.value.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
            and any(isinstance(t, ast.Name) and t.id == "result" for t in node.targets)}


_AFTER_WHICH = re.compile(r"\b(?:which|who)\s+(\w+)(?:\s+(\w+))?", re.I)


def name_column(question: str, text_columns: Iterable[str]) -> str | None:
    """The text column a "which <word>" question asks for: one of the two words after which/who
    ("which Asian country", "which two stations"), else the first text column the question names."""
    words = (w for pair in _AFTER_WHICH.findall(question or "") for w in pair)
    found = column_among(words, text_columns)
    if found:
        return found
    columns = {str(c).lower(): str(c) for c in text_columns}
    asked = (question or "").lower()
    return next((name for low, name in columns.items() if re.search(rf"(?<!\w){re.escape(low)}(?!\w)", asked)), None)


_NOT_COLUMNS = frozenset({"str", "dt", "cat", "loc", "iloc", "at", "iat", "values", "index", "columns", "T", "shape", "size"})
"""Attributes of a frame or Series that are no column (``s.str``, ``df.loc``, ``s.values``)."""


def column_read(node: ast.AST, attribute_frames: Iterable[str] | None = None) -> str | None:
    """The column ``node`` reads: ``x['a']`` and ``x.loc[m, 'a']`` (any frame expression ``x``), and
    ``x.a`` (when ``attribute_frames`` is given, only for a frame named in it); else None."""
    if isinstance(node, ast.Subscript):
        key = node.slice.elts[-1] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value
        return None
    if not isinstance(node, ast.Attribute) or node.attr in _NOT_COLUMNS:
        return None
    if attribute_frames is not None and not (isinstance(node.value, ast.Name) and node.value.id in attribute_frames):
        return None
    return node.attr


def called_name(call: ast.Call) -> str | None:
    """``f`` of ``f(...)`` or ``m.f(...)``; None for another callee (``fs[0](...)``)."""
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)




def time_column(question: str, text_columns: Iterable[str]) -> str | None:
    """The one text column whose name says it holds dates or times, when the question asks which
    moment ("in which month …", "what day …", not "which day of the week"): the name that a row
    number from idxmax stands for. None when no such column, or more than one, is there."""
    if not MOMENT_ASKED.search(question or ""):
        return None
    dated = [str(c) for c in text_columns if TIME_NAME.search(str(c))]
    return dated[0] if len(dated) == 1 else None


def which_column(question: str, text_columns: Iterable[str]) -> str | None:
    """The text column "which" / "who" names in its next two words ("which Asian country" → country),
    else None."""
    words = _AFTER_WHICH.search(question or "")
    return column_among(words.groups(), text_columns) if words else None


def named_after_which(question: str, text_columns: Iterable[str]) -> bool:
    """Does "which" / "who" name a text column in its next two words ("which Asian country")? Then a
    whole number is no answer to it (one for "which year" or "which class" may be)."""
    return which_column(question, text_columns) is not None


def column_among(words: Iterable[str | None], text_columns: Iterable[str]) -> str | None:
    """The first text column one of ``words`` names, as written or in the singular."""
    columns = {str(c).lower(): str(c) for c in text_columns}
    for word in filter(None, words):
        for candidate in singulars(word.lower()):
            if candidate in columns:
                return columns[candidate]
    return None


def singulars(word: str) -> tuple[str, ...]:
    """A word and its singular forms, in that order ("countries" → country, "stations" → station)."""
    return tuple(dict.fromkeys((word, word.rstrip("s"), word[:-3] + "y" if word.endswith("ies") else word)))


def key_column(key: str, columns: Iterable[str], whole: bool = False) -> str | None:
    """The column a named value's key names: as written, with spaces for underscores, or (unless
    ``whole``) its last word in the singular too ("model_year" → "year", "top_countries" →
    "country"). ``whole`` for a rule that must not read "avg_gas_per_region" as a region. None
    when none does."""
    if whole:
        names = {str(c).lower(): str(c) for c in columns}
        return next((names[c.lower()] for c in (key, key.replace("_", " ")) if c.lower() in names), None)
    words = [w for w in re.split(r"[_\W]+", key) if w]
    return column_among([key, key.replace("_", " "), words[-1] if words else None], list(columns))


_WHERE_WORDS = frozenset({"index", "idx", "row", "number", "num", "position", "pos", "value", "result", "answer",
                          "max", "min", "top", "count", "total", "id"})
"""Last words of a key that say where or what a value is, not which column holds it."""


def key_word_column(key: str, text_columns: Iterable[str]) -> str | None:
    """The one text column that has the key's last word (or its singular) as one word of its name
    ("condition" → "error_condition"): the names a row number from idxmax stands for when the key
    names no column as a whole (:func:`key_column`). None when no text column or more than one has
    it, or the word says where or what the value is ("row_number", "max_value")."""
    words = [w.lower() for w in re.split(r"[_\W]+", key) if w]
    if not words or words[-1] in _WHERE_WORDS:
        return None
    wanted = set(singulars(words[-1]))
    hits = [str(c) for c in text_columns if wanted & {w.lower() for w in re.split(r"[_\W]+", str(c)) if w}]
    return hits[0] if len(hits) == 1 else None


def group_label_as_row(tree: ast.AST) -> str | None:
    """The first ``frame.loc[…]`` of :func:`group_labels_as_rows`, as written; None when there is none."""
    return next((ast.unparse(node) for node in group_labels_as_rows(tree)), None)


def group_labels_as_rows(tree: ast.AST) -> Iterator[ast.Subscript]:
    """Each ``frame.loc[…]`` that looks a row up by the label ``.idxmax()`` gives over grouped and
    aggregated values (``df.loc[s.groupby(m).mean().idxmax(), 'DATE']``, ``value_counts().idxmax()``):
    that label is a group's (a month, a name), not a row's, so the lookup reads an unrelated row.
    Not when the frame looked in is the grouped table itself, or the idxmax is a groupby's own
    (each group's row label, ``df.groupby('g')['x'].idxmax()``)."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr in ("loc", "at")
                and isinstance(node.value.value, ast.Name)):
            continue
        key = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
        if not (isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute) and key.func.attr in ("idxmax", "idxmin")):
            continue
        source = key.func.value
        if (_aggregated(source) or assigned_from(source, tree, _aggregated)) and not assigned_from(node.value.value, tree, _grouped):
            yield node


def group_label(loc: str) -> str:
    """The ``….idxmax()`` inside a ``frame.loc[…]`` that :func:`group_label_as_row` found."""
    key = ast.parse(loc, mode="eval").body.slice  # type: ignore[attr-defined]
    return ast.unparse(key.elts[0] if isinstance(key, ast.Tuple) else key)


def _aggregated(expr: ast.AST) -> bool:
    """Is ``expr`` values aggregated per group (``….groupby(…)….mean()``) or counted (``value_counts()``)?"""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)):
        return False
    if expr.func.attr == "value_counts":
        return True
    return expr.func.attr in _AGGREGATES and _grouped(expr.func.value)


def _grouped(expr: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in GROUPING for n in ast.walk(expr))


def groups_rows(code: str) -> bool:
    """Does ``code`` group its rows anywhere (:data:`GROUPING`)? False for code that does not parse."""
    try:
        return _grouped(ast.parse(code or ""))
    except SyntaxError:
        return False


def assigned_from(expr: ast.AST, tree: ast.AST, test: object) -> bool:
    """Is ``expr`` a name the code binds to a value that passes ``test``?"""
    if not isinstance(expr, ast.Name):
        return False
    return any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)
               and test(n.value) for n in ast.walk(tree))  # type: ignore[operator]


def label_ranked(tree: ast.AST, text_columns: Iterable[str]) -> tuple[str, str] | None:
    """The ``df['label'].idxmax()`` / ``idxmin()`` taken of a text column itself, and that column: it
    ranks the labels' text and gives a row number, where "which label has the lowest value" means the
    group whose value is lowest (``df.groupby('label')['value'].mean().idxmin()``). None when there is none."""
    texts = {str(c) for c in text_columns}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("idxmax", "idxmin")):
            continue
        column = node.func.value
        name = (column.slice.value if isinstance(column, ast.Subscript) and isinstance(column.slice, ast.Constant)
                else column.attr if isinstance(column, ast.Attribute) else None)
        if isinstance(name, str) and name in texts and isinstance(getattr(column, "value", None), ast.Name):
            return ast.unparse(node), name
    return None


def values_put_in_result(tree: ast.AST) -> list[ast.expr | None]:
    """Every expression assigned to ``result``, stored into it by key, or passed to one of its methods."""
    def is_result(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == "result"

    values: list[ast.expr | None] = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in n.targets if isinstance(n, ast.Assign) else [n.target]:
                if is_result(target) or (isinstance(target, ast.Subscript) and is_result(target.value)):
                    values.append(n.value)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and is_result(n.func.value):
            values.extend([*n.args, *(k.value for k in n.keywords)] or [None])
    return values


def only_literals_in_result(tree: ast.AST) -> bool:
    """Is every value put into ``result`` a literal (``result = {'month': '2009-09'}``)? False when
    none is put in, or one is passed to a method with no argument."""
    values = values_put_in_result(tree)
    if not values or any(v is None for v in values):
        return False
    for value in values:
        try:
            ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False
    return True

