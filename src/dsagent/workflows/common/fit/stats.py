"""Does a statistic in the code match the one the question names? Checked by code on the code and
its printed result (part of :func:`~dsagent.workflows.common.fit.result_misfit`).

A small model writes the statistic it knows best: Pearson's correlation for "Spearman's rank
correlation", a correlation matrix's largest value (a column with itself, 1.0) for "which two columns
are most correlated", a polyfit coefficient under a name that says R². None of these fails; each
gives a number that looks like an answer, and an independent check written by the same model
tends to make the same slip. Each rule here is about a statistic's name and pandas/scipy calls,
never about a dataset.
"""

from __future__ import annotations

import ast
import re

from dsagent.workflows.common.fit.named import named_values
from dsagent.workflows.common.naming import called_name, column_read
from dsagent.workflows.common.wording import CORRELATED_PAIR, RANK_CORRELATION

_PEARSON = re.compile(r"\bpearson\b", re.I)
_CORRELATION_CALLS = {"corr", "corrwith", "pearsonr", "corrcoef"}
_RANK_CALLS = {"spearmanr", "kendalltau", "rank", "rankdata"}
_MOST = re.compile(r"\b(?<!at )(most|strongest|highest|largest|greatest|least|weakest|lowest|smallest)\b", re.I)
PAIR_PICK = ("the strongest pair is c.abs().stack().idxmax() (the weakest: idxmin; the most positive: c.stack().idxmax(); "
             "the most negative: c.stack().idxmin())")
"""How to pick a pair from a correlation matrix without its diagonal, by what the question asks."""
_CORRELATED_WITH = re.compile(r"\b(?:correlat|associat)\w*\s+(?:with|to)\s+(?:the\s+)?([^,?.;]+)", re.I)
_WORD = re.compile(r"[^\W_]+")
_R2_NAME = re.compile(r"r_?2|r_?sq|rsquared|r_squared|determination", re.I)


def named_rank_method(question: str) -> str | None:
    """The rank correlation the question names, 'spearman' or 'kendall' (a rank correlation alone is
    Spearman's, a named one wins); None when it names none, both, or Pearson's too (then the code
    may compute several)."""
    matches = list(RANK_CORRELATION.finditer(question or ""))
    named = {name for m in matches for name in ("spearman", "kendall") if m.group(name)}
    if _PEARSON.search(question or "") or len(named) > 1 or not matches:
        return None
    return named.pop() if named else "spearman"


def _method(call: ast.Call) -> str | None:
    """The method a ``.corr()`` / ``.corrwith()`` call names (keyword, or a string among its
    arguments: ``s.corr(t, 'spearman')``), lower-case; '?' for one named by a variable; None (Pearson's) else."""
    for kw in call.keywords:
        if kw.arg == "method":
            return kw.value.value.lower() if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str) else "?"
    texts = [a.value.lower() for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return texts[0] if texts else None


def pearson_calls(question: str, tree: ast.AST) -> list[ast.Call]:
    """The correlation calls that compute Pearson's (``.corr()`` without a method or with 'pearson',
    ``pearsonr``, ``corrcoef``) when the question names a rank correlation and nothing in the code
    computes it; [] otherwise. Code that ranks the values itself (``.rank()``, ``rankdata``) or names
    its method by a variable is left alone."""
    method = named_rank_method(question)
    if method is None:
        return []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    if {called_name(c) for c in calls} & _RANK_CALLS:
        return []
    methods = [_method(c) for c in calls if called_name(c) in ("corr", "corrwith")]
    if method in methods or "?" in methods:
        return []
    return [c for c in calls if called_name(c) in _CORRELATION_CALLS and (called_name(c) not in ("corr", "corrwith") or _method(c) in (None, "pearson"))]


def rank_method_misfit(question: str, tree: ast.AST) -> str | None:
    """Pearson's correlation computed for a question that names Spearman's (or Kendall's)."""
    calls = pearson_calls(question, tree)
    if not calls:
        return None
    method = named_rank_method(question)
    scipy = "spearmanr" if method == "spearman" else "kendalltau"
    return (f"ResultDoesNotFitQuestion: the question asks for {method.capitalize()}'s rank correlation, but "
            f"`{ast.unparse(calls[0])}` computes Pearson's. Use .corr(method='{method}') or stats.{scipy}(x, y).statistic.")


_ONE = re.compile(r"1(\.0+)?")
_ONE_UNDER_KEY = re.compile(r"['\"](\w*corr\w*|\w*coef\w*|rho|r|value)['\"]\s*:\s*1(\.0+)?\s*[,}]", re.I)
_SAME_PAIR = re.compile(r"\(\s*'([^']+)'\s*,\s*'\1'\s*\)|\(\s*\"([^\"]+)\"\s*,\s*\"\2\"\s*\)")


def self_pair_misfit(question: str, tree: ast.AST, kind: str, shown: str) -> str | None:
    """"Which two columns are most correlated" answered by a column with itself, from code that takes
    a correlation matrix: a pair of one name twice, or a lone correlation of exactly +1 (the diagonal
    of ``.corr()``, which every column has; -1 is never the diagonal)."""
    if not (CORRELATED_PAIR.search(question or "") and _MOST.search(question or "")):
        return None
    if not any(isinstance(n, ast.Call) and called_name(n) in ("corr", "corrcoef") for n in ast.walk(tree)):
        return None
    text = (shown or "").strip()
    same = _SAME_PAIR.search(text)
    lone_one = kind in ("float", "float64", "int", "int64") and _ONE.fullmatch(text)
    one_in_dict = kind == "dict" and _ONE_UNDER_KEY.search(text)
    if not (same or lone_one or one_in_dict):
        return None
    return ("ResultDoesNotFitQuestion: a correlation of 1 is a column with itself (the diagonal of .corr()). Leave the "
            "diagonal out before picking the pair: c = df[cols].corr(); c = c.where(~np.eye(len(c), dtype=bool)); "
            f"then {PAIR_PICK}.")


_SAMPLE_TESTS = {"ttest_ind", "ttest_rel", "mannwhitneyu", "ranksums", "ks_2samp", "wilcoxon", "levene", "bartlett",
                 "f_oneway", "kruskal", "fligner", "ansari", "mood", "brunnermunzel"}


def _row_of_column(node: ast.AST) -> bool:
    """``df['x'][0]`` or ``df.x[0]``: one row of a column (``samples[0]`` of a list of groups is a sample)."""
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int
            and column_read(node.value, attribute_frames={"df"}) is not None)


def one_value_sample(tree: ast.AST) -> str | None:
    """A test of samples given one value as a sample (``stats.ttest_ind(df['x'][0], df['x'][1])``:
    the first and second rows, not the groups; the test gives NaN): the call's text, else None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and called_name(node) in _SAMPLE_TESTS and node.args:
            if any(_row_of_column(a) for a in node.args):
                return ast.unparse(node)
    return None


def polyfit_as_r_squared(tree: ast.AST) -> str | None:
    """``slope, r_squared = np.polyfit(x, y, 1)`` (or ``r2 = fit[0]`` of a polyfit): a name that says
    R² bound to a coefficient; the statement's text, else None."""
    fits = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and getattr(node.value.func, "attr", "") == "polyfit":
            for target in node.targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                if any(isinstance(n, ast.Name) and _R2_NAME.search(n.id) for n in names):
                    return ast.unparse(node)
                fits |= {n.id for n in names if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and isinstance(node.value.value, ast.Name)
                and node.value.value.id in fits
                and any(isinstance(t, ast.Name) and _R2_NAME.search(t.id) for t in node.targets)):
            return ast.unparse(node)
    return None


_MODELS = {"OLS", "WLS", "GLS", "Logit", "Probit", "GLM", "Poisson", "NegativeBinomial", "QuantReg", "RLM"}
_ORIGIN = re.compile(r"\b(?:no|without(?: an?)?|zero|suppress\w*|drop\w*)\s+(?:intercept|constant)\b|through the origin|"
                     r"intercept\w*\s+(?:of|at|fixed at|set to)\s+(?:0|zero)\b", re.I)


def model_without_intercept(question: str, tree: ast.AST) -> ast.Call | None:
    """``sm.OLS(y, X)`` (any statsmodels model of the array API) whose X has no constant column:
    statsmodels adds none, unlike a formula (``smf.ols``) or scikit-learn, so the slopes are those of
    a fit forced through the origin. None when the code adds a constant anywhere (``add_constant``,
    a 'const' or 'intercept' column) or the question asks for a fit without an intercept."""
    text = ast.unparse(tree)
    if _ORIGIN.search(question or "") or re.search(r"add_constant|['\"](?:const|intercept|Intercept|constant)['\"]", text):
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MODELS
                and isinstance(node.func.value, ast.Name) and node.func.value.id in ("sm", "statsmodels", "api")
                and (len(node.args) >= 2 or any(k.arg == "exog" for k in node.keywords))):
            return node
    return None


_TESTS = [  # (how a question names the test, its name, the calls that run it, how to run it)
    (r"\banova\b|analysis of variance", "one-way ANOVA", {"f_oneway", "anova_lm", "AnovaRM", "anova_oneway"},
     "stats.f_oneway(*[g['value_col'].dropna() for _, g in df.groupby('group_col')])"),
    (r"kruskal", "Kruskal-Wallis test", {"kruskal"},
     "stats.kruskal(*[g['value_col'].dropna() for _, g in df.groupby('group_col')])"),
    (r"mann[- ]?whitney|wilcoxon rank[- ]sum", "Mann-Whitney U test", {"mannwhitneyu", "ranksums"},
     "stats.mannwhitneyu(a, b, alternative='two-sided')"),
    (r"\bt[- ]?test\b|welch|student'?s t\b(?![- ]?distribution)", "t-test", {"ttest_ind", "ttest_rel", "ttest_1samp", "ttest_ind_from_stats"},
     "stats.ttest_ind(a, b) (Welch's: equal_var=False; paired: stats.ttest_rel)"),
    (r"chi[- ]?squared?\s+(?:test|statistic of independence)|test of independence|chi2 test", "chi-square test",
     {"chi2_contingency", "chisquare"}, "stats.chi2_contingency(pd.crosstab(df['a'], df['b'])) returns (chi2, p, dof, expected)"),
    (r"shapiro", "Shapiro-Wilk test", {"shapiro"}, "stats.shapiro(values)"),
    (r"levene", "Levene test", {"levene"}, "stats.levene(*groups)"),
]
_NAMED_TESTS = [(re.compile(pattern, re.I), name, calls, how) for pattern, name, calls, how in _TESTS]


_ASKED_STATISTICS = [  # (how a question names it, the calls that compute it, how)
    (re.compile(r"\bmedians?\b", re.I), "median", {"median", "nanmedian", "quantile", "nanquantile", "percentile", "nanpercentile",
                                                     "describe"}, ".median()"),
    (re.compile(r"\bstandard deviations?\b", re.I), "standard deviation", {"std", "nanstd", "stdev", "pstdev", "describe", "zscore"},
     ".std()"),
]


_NOT_ASKED = re.compile(r"\b(?:average|mean)\s+(?:\w+\s+)?(?=medians?\b)|\b(?:above|below|than|over|under|of)\s+the\s+"
                        r"(?:\w+\s+){0,2}(?=medians?\b)", re.I)
"""A median that names a quantity ("the average median income": its mean is asked) or a reference
("above the national median": a count or a share is asked), not the statistic to compute."""


def asked_statistic_misfit(question: str, tree: ast.AST) -> str | None:
    """The question names a median or a standard deviation that the code never computes (a ratio
    of two totals for "the median of the per-household shares"; batch K, seen). Not a median that
    names a quantity or a reference (:data:`_NOT_ASKED`), nor a standard deviation inside the
    formula of a test the code runs with scipy (a paired t-test's)."""
    called = {called_name(n) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    called |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}  # .agg('median')
    tested = any(str(c).startswith(("ttest", "f_oneway", "linregress", "pearsonr", "zscore")) for c in called)
    asked_text = _NOT_ASKED.sub(" REFERENCE_", question or "")
    for pattern, name, calls, how in _ASKED_STATISTICS:
        if name == "standard deviation" and tested:
            continue
        if pattern.search(asked_text) and not called & calls:
            return (f"ResultDoesNotFitQuestion: the question asks for a {name}, but the code never computes one. Compute the "
                    f"values it is taken over first (one per row or per group, as the question says), then their {how}.")
    return None


def named_test_misfit(question: str, tree: ast.AST) -> str | None:
    """The question names a test (a one-way ANOVA, Kruskal-Wallis, Mann-Whitney, a t-test, a
    chi-square test, Shapiro-Wilk, Levene) that the code never runs: a statistic written by hand
    ("an F statistic" as a ratio of two spreads) is rarely that test's. Welch's test named, a
    ``ttest_ind`` without ``equal_var=False`` is Student's."""
    called = {called_name(n) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for pattern, name, calls, how in _NAMED_TESTS:
        if pattern.search(question or "") and not called & calls:
            return f"ResultDoesNotFitQuestion: the question asks for a {name}, but the code never runs one. Use scipy's: {how}."
    if re.search(r"\bwelch", question or "", re.I):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and called_name(node) == "ttest_ind" and not any(
                    k.arg == "equal_var" and isinstance(k.value, ast.Constant) and k.value.value is False for k in node.keywords):
                return ("ResultDoesNotFitQuestion: the question asks for Welch's t-test, but ttest_ind without equal_var=False "
                        "is Student's (equal variances). Write stats.ttest_ind(a, b, equal_var=False).")
    return None


_CORRECTION = re.compile(r"\b(?:(?:continuity|yates(?:'s|['’]s?)?)\s+(?:continuity\s+)?correction\b|correction\s*=\s*(?:true|false)\b)",
                         re.I)
_NOT_BEFORE = re.compile(r"\b(?:without|no|not\s+(?:use|apply)\w*|uncorrected)\s+(?:any\s+|an?\s+|the\s+|its\s+)?$", re.I)
_NOT_AFTER = re.compile(r"^\s*(?:(?:is|was|are|should|must|will|to)\s+)?(?:(?:not|never)\s+(?:be\s+)?(?:applied|used)|"
                        r"(?:be\s+)?(?:off|disabled))\b", re.I)
_NOT_IT = re.compile(r"\b(?:without|no)\s+(?:it|this|that|one)\b|\bnot\s+(?:use|apply)\s+it\b", re.I)


def _correction_asked(question: str) -> bool | None:
    """Whether the question asks for the continuity correction (True), says not to use it
    (False), or does not name it (None). A mention is negated only next to it: "without (any)
    continuity correction", "Yates' correction is not applied", "correction=False", or "without it"
    later on; mentions that disagree name none."""
    text = question or ""
    readings = set()
    for found in _CORRECTION.finditer(text):
        if "=" in found.group(0):
            readings.add(found.group(0).lower().endswith("true"))
            continue
        negated = bool(_NOT_BEFORE.search(text[max(0, found.start() - 40): found.start()])
                       or _NOT_AFTER.search(text[found.end(): found.end() + 40]) or _NOT_IT.search(text[found.end():]))
        readings.add(not negated)
    return readings.pop() if len(readings) == 1 else None


def continuity_calls(question: str, tree: ast.AST) -> tuple[bool, list[ast.Call]] | None:
    """The continuity correction the question names (True / False) and each ``chi2_contingency``
    call that does the other; None when the question names none or every call follows it."""
    wanted = _correction_asked(question)
    if wanted is None:
        return None
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and called_name(node) == "chi2_contingency":
            given = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "correction"),
                                                                 ast.Constant(True))
            if isinstance(given, ast.Constant) and bool(given.value) != wanted:
                calls.append(node)
    return (wanted, calls) if calls else None


def continuity_misfit(question: str, tree: ast.AST) -> str | None:
    """The question says whether a chi-square test takes the continuity correction and a
    ``chi2_contingency`` call does the other: scipy applies Yates' correction to a 2 x 2 table by
    default, so "without a continuity correction" needs ``correction=False`` (Q 10209, seen)."""
    found = continuity_calls(question, tree)
    if found is None:
        return None
    wanted, calls = found
    said = "no continuity correction" if not wanted else "Yates' continuity correction"
    return (f"ResultDoesNotFitQuestion: the question asks for {said}, but `{ast.unparse(calls[0])[:80]}` "
            f"{'applies it (scipy corrects a 2 x 2 table by default)' if not wanted else 'turns it off'}. "
            f"Pass correction={wanted}.")


_SAMPLE = re.compile(r"\bsample (?:standard deviation|std|variance)|ddof\s*=\s*1\b|\bn\s*-\s*1\b|\bbessel", re.I)
_POPULATION = re.compile(r"\bpopulation (?:standard deviation|std|variance)|ddof\s*=\s*0\b|divided by n\b", re.I)
_NUMPY_SPREAD = {"std", "var", "nanstd", "nanvar"}


def _ddof(call: ast.Call) -> object:
    given = next((k.value for k in call.keywords if k.arg == "ddof"), None)
    return given.value if isinstance(given, ast.Constant) else ("?" if given is not None else None)


def ddof_calls(question: str, tree: ast.AST) -> tuple[int, list[ast.Call]] | None:
    """(the ddof the question asks, the calls that use another) — a sample standard deviation
    (ddof = 1) computed by ``stats.zscore`` or ``np.std`` (ddof 0 by default), or a population one
    (ddof = 0) by a pandas column's ``.std()`` (ddof 1 by default) — else None. A call with a ddof
    given by a name is left alone; when the question names both, nothing is checked."""
    sample, population = bool(_SAMPLE.search(question or "")), bool(_POPULATION.search(question or ""))
    if sample == population:
        return None
    wanted, found = (1 if sample else 0), []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        given, name, owner = _ddof(node), node.func.attr, node.func.value
        if given == "?":
            continue
        numpy = isinstance(owner, ast.Name) and owner.id in ("np", "numpy") and name in _NUMPY_SPREAD
        scipy = name == "zscore"
        column = name in ("std", "var") and isinstance(owner, ast.Subscript) and not numpy
        default = 0 if numpy or scipy else 1 if column else None
        if default is not None and (given if given is not None else default) != wanted:
            found.append(node)
    return (wanted, found) if found else None


_GROUP_AGGREGATE = re.compile(r"\.transform\(\s*(?:['\"](?:mean|median|sum|max|min|count|size|std|var|first|last)['\"]|"
                              r"(?:np|numpy)\.(?:mean|median|sum|max|min|std)\b|len\b)")
"""``transform`` with an aggregate: each group's one value written on every row of the group."""
_TEST_CALLS = {"ttest_ind", "ttest_rel", "mannwhitneyu", "kruskal", "f_oneway", "ranksums", "pearsonr", "spearmanr", "levene"}


def repeated_group_values(tree: ast.AST) -> tuple[str, str] | None:
    """A test run on a column that ``groupby(…).transform(…)`` wrote: each group's value stands on
    every row of the group, so the test counts rows, not groups (a t statistic of per-person means
    taken over three rows a person; batch K, seen, verified so). (column, test), else None."""
    spread = {t.slice.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and _GROUP_AGGREGATE.search(ast.unparse(n.value))
              and "groupby(" in ast.unparse(n.value) for t in n.targets
              if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and called_name(node) in _TEST_CALLS:
            used = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            column = next(iter(sorted(used & spread)), None)
            if column:
                return column, called_name(node) or "the test"
    return None


def stats_misfit(question: str, tree: ast.AST, kind: str, shown: str) -> str | None:
    """Why the statistic in the code is not the one the question names; else None."""
    named = named_test_misfit(question, tree) or asked_statistic_misfit(question, tree) or continuity_misfit(question, tree)
    if named:
        return named
    repeated = repeated_group_values(tree)
    if repeated:
        column, test = repeated
        return (f"ResultDoesNotFitQuestion: `{column}` holds each group's value on every row of the group (transform), so "
                f"{test} counts rows, not groups. Take one row per group first: g = df.groupby('id_col').agg("
                f"value=('x', 'mean'), label=('group_col', 'first')), then compare g['value'] between the labels.")
    spread = ddof_calls(question, tree)
    if spread:
        wanted, calls = spread
        kind_of = "sample" if wanted == 1 else "population"
        return (f"ResultDoesNotFitQuestion: the question asks for the {kind_of} standard deviation (ddof={wanted}), but "
                f"`{ast.unparse(calls[0])[:70]}` uses ddof={1 - wanted} (pandas' .std() divides by n - 1; np.std and "
                f"stats.zscore by n). Pass ddof={wanted}.")
    origin = model_without_intercept(question, tree)
    if origin is not None:
        call = ast.unparse(origin)
        return (f"ResultDoesNotFitQuestion: `{call[:80]}` fits no intercept (statsmodels adds none, so every slope is that "
                "of a line forced through the origin). Add the constant: sm.OLS(y, sm.add_constant(X)), then read the "
                "coefficient by its column name, model.params['x_col'].")
    fitted = polyfit_as_r_squared(tree)
    if fitted:
        return (f"ResultDoesNotFitQuestion: `{fitted}` takes a value of np.polyfit as R², but np.polyfit(x, y, 1) returns "
                "(slope, intercept). R² of a straight line is np.corrcoef(x, y)[0, 1] ** 2 (or stats.linregress(x, y).rvalue ** 2).")
    return rank_method_misfit(question, tree) or self_pair_misfit(question, tree, kind, shown)


def target_as_answer(question: str, kind: str, shown: str, columns: list[str]) -> str | None:
    """"Which column is most strongly correlated (associated) with Y?" answered with Y itself (its correlation
    with itself, 1, tops every list): the answer's one text value is a column whose words are those
    the question puts after "correlated with"."""
    found = _CORRELATED_WITH.search(question or "") if _MOST.search(question or "") else None
    if found is None:
        return None
    target = [w.lower() for w in _WORD.findall(found.group(1))]
    values = named_values(shown) if kind == "dict" else None
    texts = [v.value for v in (values or {}).values() if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if kind == "str":
        texts.append(shown.strip().strip("'\""))
    for text in texts:
        words = [w.lower() for w in _WORD.findall(text)]
        if text in columns and words and any(target[i:i + len(words)] == words for i in range(len(target))):
            return (f"ResultDoesNotFitQuestion: {text!r} is the column the question correlates the others with, and its "
                    f"correlation with itself (1) tops the list. Leave it out before picking: c = df.corr(numeric_only=True)"
                    f"[{text!r}].drop({text!r}); then c.abs().idxmax() (or the end the question asks for).")
    return None
