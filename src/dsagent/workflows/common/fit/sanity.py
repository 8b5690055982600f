"""Results no answer can be (sanity by code, part of ``common.fit.result_misfit``): nothing where one
value was asked (None, NaN, an empty table, no ``result`` at all), the text of a SQL query, and a
share of the rows outside 0–100 %, as a lone number or as a named value, and a count of calendar
periods that the data cannot hold (:func:`period_count_misfit`), and a test's named statistic outside
the range it has (:func:`statistic_out_of_range`: a p-value of 3, a negative chi-square), a test that
compares a thing with itself (:func:`degenerate_test`: a statistic of 0 with p = 1), and a mean of a
column outside the column's values (:func:`mean_outside_range`). A small model states such results
with confidence ("674.3 % of the women", "72 months" of a table of 50 months), and a check written
the same way agrees with it."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from dsagent.workflows.common.fit.units import SCALE_WORD, restated_scale
from dsagent.workflows.common.fit.named import named_values
from dsagent.workflows.common.naming import QUERY, only_literals_in_result
from dsagent.workflows.common.wording import CHANGE, MOMENT_ASKED, SHARE_OF, WHICH

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
    lone = not (_COUNT_ASKED.search(question) or WHICH.search(question) or MOMENT_ASKED.search(question))
    for name, value in _shares(kind, text, lone=lone):
        if not 0 <= value <= 100:
            return (f"ResultOutOfRange: the question asks for a share, but `{name}` is {value:g}; a share of the rows is "
                    "between 0 and 100 %. Count the rows that match and divide by all the rows it is a share of, e.g. "
                    "100 * (df['col'] > value).mean().")
    return None


# A question that asks which one or when ("in which year was the share highest") asks a label or a
# time, not the share: only a value whose key says share is read then.
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


_PERIOD_COUNT = re.compile(r"\b(?:how many|number of)\s+(?:distinct |different |calendar |separate |full |complete |unique |"
                           r"individual |trading |business |whole )?(year|quarter|month|week|day)s\b(?!\s+(?:of|old|long|apart|"
                           r"later|earlier|ago|after|before|between|since|until|to|from|in a row))", re.I)
"""A question that asks a count of calendar periods ("how many months had …"), not a length of time
("how many days between …", "how many years of schooling")."""
_SPAN = re.compile(r"\b((?:average|mean|median|typical)\s+(?:number|count)|between|since|until|elapsed|duration|span|longest|shortest|age|apart|"
                   r"consecutive|in a row|streak|per)\b", re.I)
_PERIOD_WORDS = {
    "year": r"year|%Y|\[:4\]|'(?:Y|YE|YS|A|AS)'",
    "quarter": r"quarter|'(?:Q|QE|QS)'",
    "month": r"month|%m|%b|%B|\[:7\]|'(?:M|ME|MS)'",
    "week": r"week|isocalendar|%W|%U|%V|'W(?:-\w+)?'",
}
"""How code that counts a kind of period names it (besides a resample, a period or a grouper)."""
_BY_PERIOD = re.compile(r"resample|to_period|Grouper|asfreq|PeriodIndex|freq\s*=")


def period_count_misfit(question: str, code: str, kind: str, shown: str, periods: Mapping[str, int]) -> str | None:
    """A count of calendar periods the question asks for ("how many months …") that cannot be
    one: more than the distinct periods the data covers (``periods``: ``MendFacts.periods``, e.g.
    72 "months" of a daily table of 50 months: its rows were counted), or computed by code that
    never names that period on a table whose rows are finer (days counted as months)."""
    asked = _PERIOD_COUNT.search(question or "")
    if not asked or not periods or _SPAN.search(question):
        return None
    unit = asked.group(1).lower()
    if unit not in periods:
        return None
    found = _shares(kind, shown)
    value = found[0][1] if len(found) == 1 else None
    if value is None or value != int(value) or value < 0:
        return None
    covered = periods[unit]
    if value > covered:
        return (f"ResultOutOfRange: the question counts {unit}s, but `{found[0][0]}` is {value:g} and the data covers only "
                f"{covered} calendar {unit}s: the code counted rows. Count the {unit}s that match: reduce the rows to one "
                f"value per {unit} first (e.g. df.resample on the dates, or a groupby on the {unit}), then count those.")
    finer = periods.get("day", 0) > covered
    if unit != "day" and finer and not _BY_PERIOD.search(code) and not re.search(_PERIOD_WORDS[unit], code, re.I):
        return (f"ResultDoesNotFitQuestion: the question counts {unit}s, but the rows are finer than {unit}s and the code "
                f"never groups them by {unit}, so it counted rows. Reduce the rows to one value per {unit} first (a resample "
                f"or a groupby on the {unit} of the dates), then count the {unit}s that match.")
    return None


_WHOLE_SHARE = re.compile(r"\bof all\b|\bof the (?:whole|entire)\b|\bof every\b|\ball (?:the )?rows\b", re.I)


def row_count_of(node: ast.AST) -> str | None:
    """The frame whose rows ``len(x)``, ``x.shape[0]`` or ``len(x.index)`` counts (its source), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
        inner = node.args[0]
        inner = inner.value if isinstance(inner, ast.Attribute) and inner.attr == "index" else inner
        return ast.unparse(inner)
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
            and isinstance(node.slice, ast.Constant) and node.slice.value == 0):
        return ast.unparse(node.value.value)
    return None


def without_factor(node: ast.AST) -> ast.AST:
    """``len(x)`` of ``100 * len(x)`` (a percentage written with its factor first)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        if isinstance(node.left, ast.Constant) and isinstance(node.left.value, (int, float)):
            return node.right
        if isinstance(node.right, ast.Constant) and isinstance(node.right.value, (int, float)):
            return node.left
    return node


def subset_share_division(question: str, tree: ast.AST) -> tuple[ast.BinOp, ast.AST, str] | None:
    """The division of a share among a subset by all the rows (see :func:`subset_share_misfit`):
    (the division, the expression of the counted rows, the name of the whole frame), else None."""
    if not SHARE_OF.search(question or "") and not re.search(r"\b(?:percentage|share|proportion|fraction)\b", question or "", re.I):
        return None
    if _WHOLE_SHARE.search(question or ""):
        return None
    bound = {t.id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    whole = {"df"} | {name for name, value in bound.items() if ast.unparse(value).startswith("datasets[")}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
            continue
        denominator, numerator = row_count_of(node.right), row_count_of(without_factor(node.left))
        if denominator not in whole or numerator is None or numerator in whole:
            continue
        counted = bound.get(numerator) if numerator.isidentifier() else ast.parse(numerator, mode="eval").body
        if counted is not None and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitAnd) for n in ast.walk(counted)):
            return node, counted, denominator
    return None


def subset_share_misfit(question: str, tree: ast.AST) -> str | None:
    """"Of the stays whose codes is 9, what percentage were emergencies?" computed as the rows that
    meet both conditions over all the rows (``len(df)``): a share among a subset is over that
    subset's rows (batch K, seen). Only when the counted rows combine two or more conditions with
    ``&`` and the question does not say the share is of all rows."""
    found = subset_share_division(question, tree)
    if found is None:
        return None
    node, _, denominator = found
    return (f"ResultDoesNotFitQuestion: `{ast.unparse(node)}` divides by all the rows of {denominator}, but the "
            "question asks a share among the rows that meet its first condition. Divide by the count of those rows: "
            "sub = df[first_condition]; 100 * (sub[second_condition]).shape[0] / len(sub).")


_UNUSUAL = re.compile(r"\b(outliers?|unusual(?:ly)?|anomal\w*|abnormal)\b", re.I)
_HOW_MANY = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.I)


def every_row_unusual(question: str, kind: str, shown: str, rows: int | None) -> str | None:
    """A count of the unusual rows (outliers) that is every row of the one table: the rule's
    condition holds for all of them, so it was turned or computed wrong (batch L counted 1,047
    unusual trading days of 1,047)."""
    if not rows or rows < 10 or not (_UNUSUAL.search(question or "") and _HOW_MANY.search(question or "")):
        return None
    counts = [("result", shown.strip())] if kind in NUMBER_KINDS else [
        (key, ast.unparse(value)) for key, value in (named_values(shown) or {}).items()]
    for name, text in counts:
        if text.isdigit() and int(text) == rows:
            return (f"ResultDoesNotFitQuestion: the question counts the unusual rows, but `{name}` is {rows}, every row of "
                    "the table: the rule's condition holds for all of them (a comparison turned the wrong way, or bounds "
                    "that are no bounds). A row is unusual when it lies outside the bounds the question gives: "
                    "((x < low) | (x > high)).sum(), or (z.abs() > k).sum() for a z-score.")
    return None


_DATA_NAMES = {"df", "datasets", "sql"}


def written_out(code: str) -> str | None:
    """Code that never reads the data and puts only literals in ``result`` (``result =
    {'month': '2009-09'}``): an answer typed in, not computed (a retry in batch L wrote the month
    it had not computed, and it ran "successfully")."""
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return None
    if any(isinstance(n, ast.Name) and n.id in _DATA_NAMES for n in ast.walk(tree)):
        return None
    if not only_literals_in_result(tree):
        return None
    return ("ResultNotComputed: `result` is written out as a value, and the code never reads the data (df). Compute the "
            "answer from df with pandas, then put what it computed in `result`.")



_RANGES = (
    (re.compile(r"(?:^|_)p(?:_?val(?:ue)?)?(?:$|_)|pvalue|significance", re.I), 0.0, 1.0, "a p-value is between 0 and 1",
     "res = stats.ttest_ind(a, b); res.pvalue"),
    (re.compile(r"^(?!.*(?:adj|squared|_sq|r2)).*(?:corr(?:el|$|_)|pearson|spearman|kendall|(?:^|_)(?:r|rho|tau)(?:$|_))", re.I),
     -1.0, 1.0, "a correlation is between -1 and 1",
     "df['x'].corr(df['y'])"),
    (re.compile(r"^(?!.*adj).*(?:(?:^|_)(?:r_?2|r_?sq\w*|rsquared)(?:$|_)|determination)", re.I), 0.0, 1.0,
     "an R squared of a least-squares fit is between 0 and 1",
     "smf.ols('y ~ x', data=df).fit().rsquared"),
    (re.compile(r"(?:^|_)chi(?:_?sq\w*|2|_?square\w*)?(?:$|_)|(?:^|_)(?:u|f|h)(?:_?stat(?:istic)?)?$", re.I), 0.0, float("inf"),
     "this test statistic is never negative",
     "chi2, p, dof, expected = stats.chi2_contingency(pd.crosstab(df['a'], df['b']))"),
    (re.compile(r"(?:^|_)dof(?:$|_)|degrees?_?(?:of_?)?freedom|(?:^|_)df(?:$|_)", re.I), 1.0, float("inf"),
     "a test's degrees of freedom are 1 or more (a value below 1 is likely its p-value)",
     "res = stats.ttest_ind(a, b, equal_var=False); res.df"),
)
"""(key pattern, low, high, why, where it comes from): named values of a test or fit whose key says what they are."""


def statistic_out_of_range(kind: str, shown: str) -> str | None:
    """A named value whose key says it is a p-value, a correlation, an R squared, a chi-square, U, F
    or H statistic or degrees of freedom, outside the range that quantity has: the code stored
    another number under that name (the p-value as the degrees of freedom, a sum as a statistic)."""
    values = named_values(shown) if kind == "dict" else None
    for key, node in (values or {}).items():
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError):
            continue
        if type(value) not in (int, float) or value != value:
            continue
        for pattern, low, high, why, source in _RANGES:
            if pattern.search(key):
                if not low <= value <= high:
                    return (f"ResultOutOfRange: `result[{key!r}]` is {value:g}, but {why}. The code stored another number "
                            f"under that name: take each value from the test's or fit's own output, e.g. {source}.")
                break
    return None


_STATISTIC_KEY = re.compile(r"(?:^|_)(?:chi\w*|t|f|h)(?:_?stat(?:istic)?)?$|^(?:test_?)?stat(?:istic)?$", re.I)
"""A named value that is a chi-square, t, F or H statistic (not U, which is 0 whenever two samples do not overlap)."""


_COMPARING = frozenset({"ttest_ind", "ttest_rel", "chisquare", "chi2_contingency", "mannwhitneyu", "ks_2samp", "f_oneway", "kruskal",
                        "wilcoxon", "crosstab", "pearsonr", "spearmanr"})
"""Calls that compare their arguments (or build the table a test compares): one passed twice is a self-comparison."""


def _self_compared(tree: ast.AST) -> str | None:
    """The source of a call that compares an expression with itself (``ttest_ind(a, a)``,
    ``chisquare(f_obs=t, f_exp=t)``, ``pd.crosstab(df['a'], df['a'])``), else None."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) in _COMPARING):
            continue
        given = [ast.dump(a) for a in node.args] + [ast.dump(k.value) for k in node.keywords if k.arg in ("f_obs", "f_exp", "index", "columns")]
        if len(given) != len(set(given)):
            return ast.unparse(node)
    return None


def degenerate_test(kind: str, shown: str, tree: ast.AST | None) -> str | None:
    """A test's named statistic of exactly 0 beside a p-value of exactly 1, where the code compares an
    expression with itself (the observed counts as the expected, one column twice): the result says
    nothing about the question, and a second computation written the same way agrees with it
    (batch O, seen). Not 0 and 1 alone: a 2×2 table under Yates' correction or a paired test of
    equal means gives them honestly."""
    values = named_values(shown) if kind == "dict" and tree is not None else None
    read: dict[str, object] = {}
    for key, node in (values or {}).items():
        try:
            read[key] = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError):
            continue
    p_key = _RANGES[0][0]
    ones = [k for k, v in read.items() if p_key.search(k) and type(v) in (int, float) and v == 1]
    zeros = [k for k, v in read.items() if not p_key.search(k) and _STATISTIC_KEY.search(k) and type(v) in (int, float) and v == 0]
    itself = _self_compared(tree) if ones and zeros else None
    if itself is None:
        return None
    return (f"ResultDegenerate: `result[{zeros[0]!r}]` is 0 and `result[{ones[0]!r}]` is 1 because `{itself}` compares a "
            "thing with itself. Build what the test compares from the question's two columns or two groups, e.g. "
            "stats.chi2_contingency(pd.crosstab(df['a'], df['b'])) or "
            "stats.ttest_ind(df.loc[df['g'] == 'A', 'v'], df.loc[df['g'] == 'B', 'v']).")


_MEAN_OF = r"\b(?:mean|average|median)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){{0,2}}?{column}(?![\w])"
_CHANGED = re.compile(r"percent|%|\bper\b|/|ratio|divid|times|chang|growth|differ|increas|decreas|\bsum\b|total|squar|\blog|z-?score|"
                      r"annual|yearly|monthly|weekly|daily|hourly|quarterly|household|regional|adjust|inflation|"
                      r"\bin\s+(?:fahrenheit|celsius|kelvin|kilo\w*|grams?|pounds?|ounces?|hours?|minutes?|seconds?|days?|weeks?|"
                      r"months?|years?|km|miles?|met(?:er|re)s?|feet|inch\w*|dollars?|euros?|cents?|pence)\b|"
                      r"standardi|scal|normali|index|share|proportion|convert|multipl|thousand|million|billion|\bunits?\b|"
                      r"deviation|absolute|error|residual|variance|spread|range|gap|distance|lag|lead|\brate of\b|cumulative|"
                      r"weights?\b|predict|fitted|forecast|expected", re.I)
"""Words that make the asked value something other than the column's own values averaged."""


def mean_outside_range(question: str, kind: str, shown: str, ranges: Mapping[str, tuple[float, float]]) -> str | None:
    """One number for "what is the mean (average, median) of X", X a number column the question
    names, outside X's smallest and largest values: no mean of X's values, of any of its rows, lies
    there. The code scaled X (×100 for a rate already in percent) or summed it; and a check written
    by the same model can share the slip (batch O, seen: 477.92 for 4.78, marked verified). Not when
    the question changes the values anywhere (a percentage, a ratio, a change, a total, a
    conversion: :data:`_CHANGED`)."""
    if kind not in NUMBER_KINDS or not ranges:
        return None
    try:
        value = float(shown.strip())
    except ValueError:
        return None
    said = SCALE_WORD.sub(" ", question or "") if restated_scale(question, ranges) else question or ""  # the column's own unit
    if value != value or _CHANGED.search(said):
        return None
    for sentence in re.split(r"(?<=[.?!])\s+", question or ""):
        asked = [name for name in ranges
                 if re.search(_MEAN_OF.format(column=re.sub(r"[_\s]+", r"[_\\s]+", re.escape(str(name)).replace("\\ ", " "))),
                              sentence, re.I)]
        if len(asked) != 1:
            continue
        low, high = ranges[asked[0]]
        decimals = len(shown.strip().split(".")[1]) if "." in shown.strip() else 0
        slack = 0.5 * 10 ** -decimals + 1e-9 * max(1.0, abs(value))
        if low - slack <= value <= high + slack:
            return None
        return (f"ResultOutOfRange: the question asks for a mean of {asked[0]!r}, whose values lie between {low:g} and "
                f"{high:g}, but `result` is {value:g}: no mean of them lies outside that range. The code scaled or added "
                f"them up (×100 for a rate already written in percent, a sum): take df[{asked[0]!r}].mean() over the rows "
                "asked, as the column writes it.")
    return None
