"""A least-squares fit whose response is not the one the question names: "a regression of Y on X"
(statistics' wording: Y is the response) written ``smf.ols('X ~ Y + Z')`` and then a coefficient
read off it (Q 10217, seen: the response and a predictor swapped, the response's coefficient
given)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from dsagent.workflows.common.naming import called_name

_OF_ON = re.compile(r"\b(?:regression|regressions|ols|squares|fit|intercept|model|line)\s+of\s+([\w.]+)\s+on\s+([\w.]+)|"
                    r"\bregress(?:es|ing)?\s+([\w.]+)\s+on\s+([\w.]+)", re.I)
"""Statistics' "regression of Y on X" (Y the response): the word before "of" names the fit
("least squares with an intercept of Y on X"), so "the effect(s) of X on Y" is not read as one."""
_FORMULA_FITS = {"ols", "wls", "gls", "logit", "probit", "glm", "poisson", "quantreg", "rlm"}
_ARRAY_FITS = {"OLS", "WLS", "GLS", "Logit", "Probit", "GLM", "Poisson", "QuantReg", "RLM"}


def _column(word: str, columns: list[str]) -> str | None:
    """The column the word names (as written, else the one that matches it ignoring case)."""
    if word in columns:
        return word
    found = [c for c in columns if c.lower() == word.lower()]
    return found[0] if len(found) == 1 else None


def _responses(tree: ast.AST) -> Iterable[tuple[ast.Call, str, str]]:
    """Each fit: (its call, the response as written, the source of the rest)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name, first = called_name(node), node.args[0]
        if (name in _FORMULA_FITS and isinstance(first, ast.Constant) and isinstance(first.value, str)
                and "~" in first.value):
            left, right = first.value.split("~", 1)
            yield node, left.strip(), right
        elif name in _ARRAY_FITS and isinstance(first, ast.Subscript) and isinstance(first.slice, ast.Constant):
            yield node, str(first.slice.value), " ".join(ast.unparse(a) for a in node.args[1:])


def swapped_response(question: str, tree: ast.AST, columns: Iterable[str]) -> str | None:
    """Why the fit's response is not the Y of the question's "regression of Y on X": Y stands among
    the fit's predictors instead. None when the question does not say it that way."""
    names = [str(c) for c in columns]
    said = _OF_ON.search(question or "")
    words = [w for w in (said.groups() if said else ()) if w]
    response = _column(words[0].strip(".,"), names) if words else None
    predictor = _column(words[1].strip(".,"), names) if words else None
    if response is None or predictor is None:
        return None
    for call, left, rest in _responses(tree):
        if left != response and re.search(rf"(?<![\w]){re.escape(response)}(?![\w])", rest):
            return (f"ResultDoesNotFitQuestion: the question fits {response} on {predictor}, so {response} is the response, "
                    f"but `{ast.unparse(call)[:80]}` has {left} as the response. Write smf.ols('{response} ~ {predictor} "
                    f"+ …', data=df).fit() and read the coefficient as params['{predictor}'].")
    return None
