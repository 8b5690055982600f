"""Results no answer can be (sanity by code, part of ``common.fit.result_misfit``): nothing where one
value was asked (None, NaN, an empty table, no ``result`` at all), the text of a SQL query, and a
share of the rows outside 0–100 %, as a lone number or as a named value. A small model states such
results with confidence ("674.3 % of the women"), and a check written the same way agrees with it."""

from __future__ import annotations

import ast
import re

from dsagent.workflows.common.fit_named import named_values
from dsagent.workflows.common.naming import QUERY
from dsagent.workflows.common.wording import CHANGE, SHARE_OF

NUMBER_KINDS = {"int", "float", "int64", "float64", "int32", "float32"}
"""The result types of one number."""
_EMPTY = re.compile(r"^(None|nan|NaN|NaT|<NA>|Series\(\[\],.*|Empty DataFrame\b.*)$", re.S)


def impossible_result(question: str, kind: str, shown: str, one: bool) -> str | None:
    """A result no answer to the question can be: nothing (None, NaN, an empty table) where one
    value was asked, or a share of the rows outside 0–100 %."""
    text = shown.strip()
    if kind == "str" and QUERY.match(text):
        return ("ResultIsQueryText: `result` is the text of a SQL query, not its answer. Run the query and keep what it "
                "returns: result = sql(query), then reduce that frame to the value the question asks for.")
    if one and not text and not kind:
        return ("ResultIsEmpty: the code stored no `result` (a chart alone, or values only printed). Compute the answer "
                "the question asks for and store it in `result`.")
    if one and _EMPTY.match(text):
        return (f"ResultIsEmpty: `result` is {text.splitlines()[0][:40]}: it was computed from no rows (a filter "
                "value not written as in DATA, or a column with no values there). Check each filter value against DATA's "
                "values, then compute the answer again.")
    if not SHARE_OF.search(question or "") or CHANGE.search(question or ""):
        return None
    for name, value in _shares(kind, text, lone=not _COUNT_ASKED.search(question or "")):
        if not 0 <= value <= 100:
            return (f"ResultOutOfRange: the question asks for a share, but `{name}` is {value:g}; a share of the rows is "
                    "between 0 and 100 %. Count the rows that match and divide by all the rows it is a share of, e.g. "
                    "100 * (df['col'] > value).mean().")
    return None


_COUNT_ASKED = re.compile(r"^\W*(?:how many|what\s+(?:is|was)\s+the\s+(?:\w+\s+)?number of)\b", re.I)
"""A question that opens by asking a count ("What is the smallest number of committees that hold 80
percent of …"): its one value is no share. A count named later ("docvis is the number of visits")
is not the ask."""
_SHARE_KEY = re.compile(r"pct|percent|share|proportion|fraction", re.I)


def _shares(kind: str, text: str, lone: bool = True) -> list[tuple[str, float]]:
    """The numbers of a result that are the share a question asks: a lone number or a dict's one
    named value (unless not ``lone``: the question asks a count too), and the named values whose
    keys say share or percent."""
    if kind in NUMBER_KINDS and lone:
        try:
            return [("result", float(text.replace(",", "")))]
        except ValueError:
            return []
    values = named_values(text) if kind == "dict" else None
    if not values:
        return []
    picked = values if len(values) == 1 and lone else {k: v for k, v in values.items() if len(values) > 1 and _SHARE_KEY.search(k)}
    found = []
    for key, node in picked.items():
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError):
            continue
        if type(value) in (int, float):
            found.append((f"result[{key!r}]", float(value)))
    return found
