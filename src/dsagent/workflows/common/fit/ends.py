"""The end of a ranking a question asks for, against the end the code picks: "which carrier had
the lowest average delay" written ``….mean().nlargest(1).index[0]`` (R 10242, seen) states the
highest. A small model keeps the method it wrote last; the words of the question say which end.

Only a question whose first sentence names one end is read ("highest and lowest" names both), and
not one about a change or a rank, where the low end of the numbers can be what is asked ("the
largest drop" is ``diff().idxmin()``; rank 1 is the top). Only the picks named for an end count
(``idxmax``/``nlargest``/``argmax`` against ``idxmin``/``nsmallest``/``argmin``), and only when
the code picks no row at the end asked.
"""

from __future__ import annotations

import ast
import re

from dsagent.workflows.common.wording import first_sentence

_LOW = re.compile(r"\b(lowest|smallest|(?<!at )least|fewest|minimum|shortest|cheapest|slowest|bottom)\b", re.I)
_HIGH = re.compile(r"\b(highest|largest|(?<!at )most|greatest|biggest|maximum|longest|fastest|busiest|top|peak)\b", re.I)
_SIGNED = re.compile(r"\b(?:drop|declin|decreas|fall|fell|los[st]|deficit|negative|rank|change|shrink|reduc|worst|best|"
                     r"below|difference|gap|growth|increase|rise|rose)", re.I)
_PICKS = {"high": ("idxmax", "nlargest", "argmax"), "low": ("idxmin", "nsmallest", "argmin")}
OTHER = {"idxmax": "idxmin", "nlargest": "nsmallest", "argmax": "argmin", "idxmin": "idxmax", "nsmallest": "nlargest",
         "argmin": "argmax"}


def asked_end(question: str) -> str | None:
    """"low" or "high": the one end of a ranking the question's first sentence asks for; None when
    it names both or none, or is about a change or a rank."""
    first = first_sentence(question)
    low, high = _LOW.search(first), _HIGH.search(first)
    if bool(low) == bool(high) or _SIGNED.search(first):
        return None
    return "low" if low else "high"


def wrong_end(question: str, tree: ast.AST) -> tuple[str, list[ast.Attribute]] | None:
    """The end the question asks for and each pick of the code at the other end (``.nlargest`` for
    "the lowest …"), when the code picks none at the end asked; else None."""
    end = asked_end(question)
    if end is None:
        return None
    picks = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr in OTHER]
    wrong = [n for n in picks if n.attr not in _PICKS[end]]
    return (end, wrong) if wrong and len(wrong) == len(picks) else None


def wrong_end_misfit(question: str, tree: ast.AST) -> str | None:
    """A pick at the other end from the one the question asks for, said for the code step."""
    found = wrong_end(question, tree)
    if found is None:
        return None
    end, picks = found
    word = (_LOW if end == "low" else _HIGH).search(question).group(1).lower()  # type: ignore[union-attr]
    attr = picks[0].attr
    return (f"ResultDoesNotFitQuestion: the question asks for the {word}, but `.{attr}()` picks the "
            f"{'highest' if end == 'low' else 'lowest'}. Use `.{OTHER[attr]}()`.")
