"""What counts as a vote among the computations of one answer (``common.verify``): codes are
compared as syntax trees, so a check that repeats another's code, or a greedy check that repeats
the answer's own, is one computation run twice, not a second opinion."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from dsagent.workflows.common.agreement import results_agree


def same_code(a: str, b: str) -> bool:
    """The same computation: the same syntax tree but for comments, spacing and imports (the
    sandbox has the libraries bound already); codes that do not parse compare line by line."""
    try:
        return _computation(a) == _computation(b)
    except SyntaxError:
        return _lines(a) == _lines(b)


def _computation(code: str) -> str:
    tree = ast.parse(code)
    tree.body = [node for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))]
    return ast.dump(tree)


def _lines(code: str) -> list[str]:
    return [line.strip() for line in code.splitlines() if line.strip()]


def echoes(check: Mapping[str, Any], codes: Sequence[str | None]) -> bool:
    """Whether ``check`` is a greedy check whose code is the same computation as one of ``codes`` (the
    answer's own): the question asked again led the model to the answer's very code, so the two
    results are one computation run twice, not a second opinion. A check sampled warm (``warm``)
    that lands on the same code is no echo: the model kept its computation under sampling, the
    stability the mark asks for (docs/benchmarks.md, "A check that copies the answer")."""
    return not check.get("warm") and any(code and same_code(check.get("code") or "", code) for code in codes)


def votes_with(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two checks agree as two votes: the same result from different codes (a check that copied
    another's code, from the same prompt, is one computation run twice)."""
    return bool(results_agree(a["result_str"], b["result_str"])) and not same_code(a["code"], b["code"])
