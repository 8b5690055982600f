"""After a misfit: a setting the question states, given to the code that did otherwise. Each is an
after-misfit mend (``mend(question, code, tree, execution_result, facts)``, registered in
``after_misfit.AFTER_MISFIT``) on what a fit check found, so the check and the mend read the
question the same way:

- the ddof of a standard deviation (``fit.stats.ddof_calls``);
- the continuity correction of a chi-square test (``fit.stats.continuity_calls``);
- a unit the question only restates for a column, taken as the column writes it (``fit.units.rescaled``);
- a month's number where the question asks its name, written as the name (``fit.cycle.month_numbers``);
- a pick at the other end of a ranking from the one the question asks for (``fit.ends.wrong_end``);
- a share over every row where the question keeps the rows whose column is present, and a group
  with the most rows where the question ranks groups by their share of such rows (``fit.shares``).
"""

from __future__ import annotations

import ast

from dsagent.workflows.common.fit.cycle import month_names, month_numbers
from dsagent.workflows.common.fit.ends import OTHER, wrong_end
from dsagent.workflows.common.fit.shares import all_rows_share, counted_for_share
from dsagent.workflows.common.fit.stats import continuity_calls, ddof_calls
from dsagent.workflows.common.fit.units import rescaled, unscaled
from dsagent.workflows.common.mends._edit import parses, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts


def _with_keyword(code: str, call: ast.Call, name: str, value: object, position: int | None = None) -> str:
    """``call`` written again with ``name=value``, replacing that keyword if it was there (and the
    positional argument at ``position``, where the function takes it so)."""
    args = ([ast.get_source_segment(code, a) or ast.unparse(a) for a in call.args[:position]]
            + [ast.get_source_segment(code, k) or ast.unparse(k) for k in call.keywords if k.arg != name] + [f"{name}={value}"])
    return f"{ast.get_source_segment(code, call.func) or ast.unparse(call.func)}({', '.join(args)})"


def _mended(code: str, edits: list[tuple[ast.AST, str]]) -> str | None:
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None


def _given(code: str, found: tuple[object, list[ast.Call]] | None, keyword: str, position: int | None = None) -> str | None:
    """Each call a check found (``(value asked, calls)``) written with ``keyword=value``."""
    if found is None:
        return None
    wanted, calls = found
    return _mended(code, [(call, _with_keyword(code, call, keyword, wanted, position)) for call in calls])


def ddof_as_asked(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A sample standard deviation computed with ddof 0 (``stats.zscore``, ``np.std``), or a
    population one with pandas' ddof 1: each such call given the ddof the question asks."""
    return _given(code, ddof_calls(question, tree), "ddof")


def correction_as_asked(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """Each ``chi2_contingency`` call given the continuity correction the question names."""
    return _given(code, continuity_calls(question, tree), "correction", position=1)  # chi2_contingency(observed, correction)


def unit_as_written(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``x / 1000`` (``x * 1000``) where the question says the column is in thousands and asks
    thousands: ``x``, bracketed."""
    _, nodes = rescaled(question, tree, facts.columns)
    return _mended(code, [(node, f"({ast.get_source_segment(code, unscaled(node)) or ast.unparse(unscaled(node))})")
                          for node in nodes])


def month_named(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A month's number (``7``) where the question asks the month's name: the code, then each such
    value of ``result`` written as its name (``calendar.month_name[int(result['month'])]``), so the
    code shown computes what is stated."""
    keys = month_numbers(question, str(er.get("result_type") or ""), str(er.get("result_str") or ""))
    if not keys:
        return None
    names = month_names(question)
    lines = [f"{target} = {names}[int({target})]" for target in ("result" if key is None else f"result[{key!r}]" for key in keys)]
    return code.rstrip("\n") + "\nimport calendar\n" + "\n".join(lines) + "\n"


def end_as_asked(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``.nlargest`` (``idxmax``, ``argmax``) where the question asks for the lowest: each such pick
    at the other end, as its twin at the end asked."""
    found = wrong_end(question, tree)
    if found is None:
        return None
    edits = []
    for node in found[1]:
        source = ast.get_source_segment(code, node) or ast.unparse(node)
        edits.append((node, source[: -len(node.attr)] + OTHER[node.attr]))
    return _mended(code, edits)


def present_rows(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``… / df.shape[0]`` (``len(df)``) for a share of the rows where a column is present, when the
    counted rows are those of a comparison on that column (a missing value compares False, so they
    are already among the present rows): divided by ``df['col'].notna().sum()``."""
    found = all_rows_share(question, tree, facts.columns)
    if found is None:
        return None
    column, node = found
    compared = [n for n in ast.walk(node.left) if isinstance(n, ast.Compare)]
    if not compared or not all(any(isinstance(m, ast.Constant) and m.value == column for m in ast.walk(c)) for c in compared):
        return None
    return _mended(code, [(node.right, f"df[{column!r}].notna().sum()")])


def share_per_group(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``F.loc[cond, 'X'].value_counts().idxmax()`` where the question ranks the groups by a share:
    each group's count over all its rows, ``(… / F['X'].value_counts()).idxmax()``."""
    edits = [(call, f"({ast.get_source_segment(code, call) or ast.unparse(call)} / {frame}[{column!r}].value_counts())")
             for call, frame, column in counted_for_share(question, tree)]
    return _mended(code, edits)
