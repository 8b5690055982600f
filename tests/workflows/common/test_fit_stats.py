"""The statistic in the code against the one the question names (common/fit/stats.py): a rank
correlation computed as Pearson's, a column paired with itself for "the most correlated pair"; the
after-misfit mend that gives .corr() its method; the recipes those questions get."""

import ast

import numpy as np
import pandas as pd

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit.stats import named_rank_method, rank_method_misfit, self_pair_misfit
from dsagent.workflows.common.mends import MendFacts, mend_misfit
from dsagent.workflows.common.prompting import recipes_for

SPEARMAN = "What is the Spearman correlation between price and rating?"
FLOAT = {"result_type": "float64", "result_str": "0.8123"}


def _misfit(question: str, code: str) -> str | None:
    return rank_method_misfit(question, ast.parse(code))


def test_the_named_rank_method_is_read_from_the_question():
    assert named_rank_method(SPEARMAN) == "spearman"
    assert named_rank_method("Kendall's tau between a and b?") == "kendall"
    assert named_rank_method("What is the rank correlation of a and b?") == "spearman"
    assert named_rank_method("What is the correlation of a and b?") is None
    assert named_rank_method("Compare the Pearson and Spearman correlations of a and b.") is None
    assert named_rank_method("Spearman and Kendall coefficients of a and b?") is None
    assert named_rank_method("What is the Kendall rank correlation of a and b?") == "kendall"  # the named one wins
    assert named_rank_method("What is the correlation of sales and heat at the Kendall store?") is None  # a place


def test_pearson_code_for_a_named_rank_correlation_is_sent_back():
    for code in ("result = df['price'].corr(df['rating'])",
                 "result = df[['price', 'rating']].corr().iloc[0, 1]",
                 "r, p = stats.pearsonr(df['price'], df['rating'])\nresult = r",
                 "result = np.corrcoef(df['price'], df['rating'])[0, 1]",
                 "result = df['price'].corr(df['rating'], method='pearson')"):
        found = _misfit(SPEARMAN, code)
        assert found and "Spearman" in found and "method='spearman'" in found, code
    assert "kendalltau" in _misfit("Kendall's tau of a and b?", "result = df['a'].corr(df['b'])")
    assert result_misfit(SPEARMAN, "result = df['price'].corr(df['rating'])", FLOAT)


def test_code_that_computes_the_named_method_is_left_alone():
    for code in ("result = df['price'].corr(df['rating'], method='spearman')",
                 "result = stats.spearmanr(df['price'], df['rating']).statistic",
                 "result = df['price'].rank().corr(df['rating'].rank())",
                 "result = df['price'].corr(df['rating'], 'spearman')",
                 "result = np.corrcoef(stats.rankdata(df['price']), stats.rankdata(df['rating']))[0, 1]",
                 "m = 'spearman'\nresult = df['price'].corr(df['rating'], method=m)",
                 "result = df['price'].mean()"):
        assert _misfit(SPEARMAN, code) is None, code
    assert _misfit("What is the correlation between price and rating?", "result = df['price'].corr(df['rating'])") is None
    assert result_misfit("What is the correlation between price and rating?", "result = df['price'].corr(df['rating'])", FLOAT) is None


def test_the_mend_gives_corr_its_method_and_pearsonr_its_twin():
    frame = pd.DataFrame({"price": [1, 2, 3, 4, 50], "rating": [2, 1, 4, 3, 5]})
    code = "result = df['price'].corr(df['rating'])"
    mended, label = mend_misfit(SPEARMAN, code, FLOAT, MendFacts())
    assert label == "rank correlation named" and "method='spearman'" in mended
    scope = {"df": frame, "stats": __import__("scipy").stats, "np": np, "pd": pd}
    exec(mended, scope)
    assert abs(scope["result"] - frame["price"].corr(frame["rating"], method="spearman")) < 1e-12
    tested = "r, p = stats.pearsonr(df['price'], df['rating'])\nresult = r"
    mended, _ = mend_misfit(SPEARMAN, tested, FLOAT, MendFacts())
    assert "stats.spearmanr(df['price'], df['rating'])" in mended
    exec(mended, scope)
    assert abs(scope["result"] - frame["price"].corr(frame["rating"], method="spearman")) < 1e-12
    assert mend_misfit("What is the correlation?", code, FLOAT, MendFacts()) is None
    bare = "from scipy.stats import pearsonr\nr, p = pearsonr(df['price'], df['rating'])\nresult = r"
    mended, _ = mend_misfit(SPEARMAN, bare, FLOAT, MendFacts())
    exec(mended, scope)  # the sandbox binds stats; the bare name would be unbound
    assert abs(scope["result"] - frame["price"].corr(frame["rating"], method="spearman")) < 1e-12
    named = "result = df['price'].corr(df['rating'], method='pearson')"
    mended, _ = mend_misfit(SPEARMAN, named, FLOAT, MendFacts())
    assert mended.strip() == "result = df['price'].corr(df['rating'], method='spearman')"


def test_the_most_correlated_pair_is_not_a_column_with_itself():
    question = "Which pair of columns is most strongly correlated?"
    matrix = ast.parse("c = df.corr()\nresult = c.abs().unstack().idxmax()")

    def misfit(q, kind, shown, tree=matrix):
        return self_pair_misfit(q, tree, kind, shown)

    assert misfit(question, "tuple", "('age', 'age')")
    assert misfit(question, "float64", "1.0")
    assert misfit(question, "dict", "{'pair': 'a and a', 'correlation': 1.0}")
    assert misfit("Which two variables are the most correlated, and how strongly?", "float64", "1")
    assert misfit("Which columns are most correlated with each other?", "float64", "1.0")
    assert misfit(question, "tuple", "('age', 'fare')") is None
    assert misfit(question, "float64", "0.93") is None
    assert misfit(question, "dict", "{'pair': 'a and b', 'correlation': 0.91}") is None
    assert misfit(question, "dict", "{'pair': ('a', 'b'), 'rank': 1}") is None
    assert misfit("Which two columns are most negatively correlated?", "float64", "-1.0") is None  # never the diagonal
    assert misfit("Is there a pair of columns whose correlation is at least 0.9? Answer 1 or 0.", "int", "1") is None
    assert misfit(question, "float64", "1.0", ast.parse("result = 1.0")) is None  # no correlation matrix in the code
    assert misfit("What is the correlation of a and b?", "float64", "1.0") is None  # a real 1 is possible
    assert misfit("Which pair of stores sold most?", "float64", "1.0") is None


def test_recipes_are_said_only_for_their_words():
    assert "method='spearman'" in recipes_for(SPEARMAN)
    assert "np.eye" in recipes_for("Which two columns are most correlated with each other?")
    assert "cumsum" in recipes_for("What is the fewest number of products that account for 80% of revenue?")
    assert "cumsum" not in recipes_for("How many customers reach the gold tier?")
    assert "cumsum" not in recipes_for("How many products make up more than 5% of total revenue each?")
    assert "rolling" not in recipes_for("What is the running total of sales?")
    assert "pct_change(12)" in recipes_for("Which month had the largest year-on-year growth?")
    assert "rolling" in recipes_for("What is the highest 12-month moving average?")
    assert "1.5 * iqr" in recipes_for("How many outliers are there by the IQR rule?")
    assert "1.5 * iqr" in recipes_for("How many values are outliers under the box-plot rule?")
    assert "np.eye" in recipes_for("Which two of these series move together most closely?")
    plain = recipes_for("What is the mean price of the red cars?")
    assert not any(word in plain for word in ("spearman", "np.eye", "cumsum", "pct_change(12)", "rolling", "iqr"))


def test_a_span_that_ends_a_sentence_asks_for_no_filter():
    """"… one row per year, 1951-1975." : the full stop after a span's last year does not hide the span
    (the check had demanded a filter on 1951, and the model then answered 1951)."""
    question = "Which year saw the highest price? There is one row per year, 1951-1975. Give the year."
    code = "result = df.loc[df['price'].idxmax(), 'YEAR']"
    assert result_misfit(question, code, {"result_type": "int64", "result_str": "1970"}, columns=["YEAR", "price"]) is None
    assert result_misfit("What was the price in 1960?", code, {"result_type": "int64", "result_str": "7"}, columns=["YEAR", "price"])


def test_a_named_test_the_code_never_runs_is_sent_back():
    """"Run a one-way ANOVA" answered with a ratio of two spreads written by hand (batch J, seen); a
    Welch's test run as Student's. The test's own call, or a chi-square named only as a p-value's
    distribution, is left alone."""
    import ast

    from dsagent.workflows.common.fit.stats import named_test_misfit

    def check(question: str, code: str) -> str | None:
        return named_test_misfit(question, ast.parse(code))

    by_hand = "m = df.groupby('batch')['strength'].mean()\nresult = m.var() / df['strength'].var()\n"
    found = check("Does the strength differ between batches? Run a one-way ANOVA.", by_hand)
    assert found and "one-way ANOVA" in found and "stats.f_oneway" in found
    assert check("Run a one-way ANOVA.", "result = stats.f_oneway(*[g['s'] for _, g in df.groupby('b')]).statistic\n") is None
    assert check("Compare the groups with a Kruskal-Wallis test; the p-value comes from the chi-square distribution.",
                 "result = stats.kruskal(*groups)\n") is None
    student = "result = stats.ttest_ind(a, b).statistic\n"
    assert "equal_var=False" in (check("Use Welch's t-test to compare a and b.", student) or "")
    assert check("Use Welch's t-test to compare a and b.", "result = stats.ttest_ind(a, b, equal_var=False).statistic\n") is None
    assert check("Use a t-test to compare a and b.", student) is None
    assert "chi-square test" in (check("Run a chi-square test of independence of a and b.", "result = 1\n") or "")
    assert check("What is the mean of x?", by_hand) is None


def test_a_median_or_standard_deviation_the_code_never_computes_is_sent_back():
    """"The median of the per-household shares" computed as a ratio of two totals (batch K, seen)."""
    import ast

    from dsagent.workflows.common.fit.stats import asked_statistic_misfit

    question = "What share of its income does the typical household spend on food? Take the median of the shares."
    totals = "result = round(df['food'].sum() / df['income'].sum() * 100, 2)\n"
    assert "asks for a median" in (asked_statistic_misfit(question, ast.parse(totals)) or "")
    for fine in ("result = (100 * df['food'] / df['income']).median()\n", "result = df['x'].agg('median')\n",
                 "result = np.percentile(df['x'], 50)\n"):
        assert asked_statistic_misfit(question, ast.parse(fine)) is None, fine
    assert "standard deviation" in (asked_statistic_misfit("What is the standard deviation of x?", ast.parse(totals)) or "")
    assert asked_statistic_misfit("What is the mean of x?", ast.parse(totals)) is None
    # a median or a spread that names a quantity or a reference, not what is asked (audit of correct code, seen batches)
    mean = "result = df.groupby('SOUTH')['INCOME'].mean().diff().iloc[-1]\n"
    for question in ("How much higher is the average median per-capita income of the north?",
                     "What percentage of the pupils scored above the national median?",
                     "Do year-round districts have a different share above the national maths median?"):
        assert asked_statistic_misfit(question, ast.parse(mean)) is None, question
    paired = "res = stats.ttest_rel(per['a'], per['b'])\nresult = res.statistic\n"
    assert asked_statistic_misfit("Paired t-test: t = mean difference / (sample standard deviation of the differences / sqrt(8)).",
                                  ast.parse(paired)) is None  # the test computes the spread its formula names


def test_a_test_on_values_repeated_per_group_is_sent_back():
    """``df['m'] = df.groupby('ID')['x'].transform('mean')`` and then a t-test on ``df['m']``: three
    rows a person counted as three people (batch K, seen: verified wrong)."""
    import ast

    from dsagent.workflows.common.fit.stats import repeated_group_values

    code = ("df['m'] = df.groupby('ID')['x'].transform('mean')\n"
            "t, p = stats.ttest_ind(df[df['g'] == 'F']['m'], df[df['g'] == 'M']['m'], equal_var=False)\nresult = t\n")
    assert repeated_group_values(ast.parse(code)) == ("m", "ttest_ind")
    fine = ("g = df.groupby('ID').agg(m=('x', 'mean'), g=('g', 'first'))\n"
            "result = stats.ttest_ind(g.loc[g['g'] == 'F', 'm'], g.loc[g['g'] == 'M', 'm'], equal_var=False).statistic\n")
    assert repeated_group_values(ast.parse(fine)) is None
    z = "df['z'] = df.groupby('g')['x'].transform(lambda s: (s - s.mean()) / s.std())\nresult = (df['z'].abs() > 3).sum()\n"
    assert repeated_group_values(ast.parse(z)) is None  # a per-row value, no test


def test_the_column_the_others_are_correlated_with_is_no_answer():
    question = "Which oxide's content is most strongly correlated with the refractive index of the glass, in either direction?"
    code = "c = df.corr()['Refractive_Index'].abs()\nresult = {'strongest_oxide': c.idxmax()}"
    columns = ["Refractive_Index", "Calcium", "Sodium"]
    misfit = result_misfit(question, code, {"result_type": "dict", "result_str": "{'strongest_oxide': 'Refractive_Index'}"},
                           columns=columns)
    assert misfit and "'Refractive_Index' is the column the question correlates" in misfit and ".drop('Refractive_Index')" in misfit
    assert result_misfit(question, code, {"result_type": "str", "result_str": "Refractive_Index"}, columns=columns)
    assert result_misfit(question, code, {"result_type": "dict", "result_str": "{'strongest_oxide': 'Calcium'}"}, columns=columns) is None
    associated = "Which of the other measures is most strongly associated with the refractive index?"
    assert result_misfit(associated, code, {"result_type": "str", "result_str": "Refractive_Index"}, columns=columns)
    plain = "What is the correlation of the refractive index with calcium?"  # not a pick among columns
    assert result_misfit(plain, code, {"result_type": "str", "result_str": "Refractive_Index"}, columns=columns) is None


def test_a_test_statistic_outside_its_range_is_sent_back():
    code = "res = stats.ttest_ind(a, b, equal_var=False)\nresult = {'welch_t': res.statistic, 'degrees_of_freedom': res.pvalue}"
    question = "Do the two groups differ? Use Welch's t-test and give t and its degrees of freedom."
    sent = result_misfit(question, code, {"result_type": "dict", "result_str": "{'welch_t': 2.752, 'degrees_of_freedom': 0.01}"})
    assert sent and sent.startswith("ResultOutOfRange: `result['degrees_of_freedom']` is 0.01") and "res.df" in sent
    for shown in ("{'chi_square': -118336.0}", "{'p_value': 3.2}", "{'pearson_r': 1.7}", "{'r_squared': -0.2}"):
        assert result_misfit("Run the test.", "result = stats.x(df)", {"result_type": "dict", "result_str": shown}), shown
    for shown in ("{'welch_t': -13.1, 'degrees_of_freedom': 135.69}", "{'chi_square': 299.55, 'p_value': 0.0}",
                  "{'restaurant_count': 50, 'children_change': -5, 'correct_answers': 12}", "{'adj_r2': -0.05, 'r': -0.4}"):
        assert result_misfit("Run the test.", "result = stats.x(df)", {"result_type": "dict", "result_str": shown}) is None, shown


def test_a_test_that_compares_a_thing_with_itself_is_sent_back():
    question = "Is there an association? Give the chi-square statistic and its p-value."
    degenerate = "{'chi_square': 0.0, 'p_value': 1.0}"
    for code in ("t = pd.crosstab(df['a'], df['a'])\nchi2, p, dof, exp = stats.chi2_contingency(t)\nresult = {'chi_square': chi2, 'p_value': p}",
                 "s, p = stats.chisquare(f_obs=obs, f_exp=obs)\nresult = {'chi_square': s, 'p_value': p}",
                 "t, p = stats.ttest_ind(a, a)\nresult = {'t_statistic': t, 'p_value': p}"):
        sent = result_misfit(question, code, {"result_type": "dict", "result_str": degenerate})
        assert sent and sent.startswith("ResultDegenerate:") and "crosstab(df['a'], df['b'])" in sent, code
    honest = "t = pd.crosstab(df['a'], df['b'])\nchi2, p, dof, exp = stats.chi2_contingency(t)\nresult = {'chi_square': chi2, 'p_value': p}"
    assert result_misfit(question, honest, {"result_type": "dict", "result_str": degenerate}) is None  # Yates on a 2x2 may give 0 and 1
    selfish = "t = pd.crosstab(df['a'], df['a'])\nchi2, p, dof, exp = stats.chi2_contingency(t)\nresult = {'chi_square': chi2, 'p_value': p}"
    for shown in ("{'chi_square': 12.5, 'p_value': 0.002}", "{'u_statistic': 0.0, 'p_value': 1.0}"):
        assert result_misfit(question, selfish, {"result_type": "dict", "result_str": shown}) is None, shown


def test_the_longest_run_recipe_is_given_and_its_code_counts_the_earliest_longest_run():
    recipe = recipes_for("What was the longest stretch of consecutive months with a rate below 4, and when did it begin?")
    assert "ids = (~m).cumsum()[m]" in recipe
    assert recipes_for("How many months had a rate below 4?") == ""
    frame = pd.DataFrame({"date": pd.date_range("2000-01", periods=12, freq="MS"),
                          "v": [5, 1, 2, 3, 9, 1, 1, 1, 8, 1, 2, 2]})
    ns = {"df": frame, "m": frame["v"] < 4}
    code = recipe.split("m = condition; ", 1)[1].split("; its first row is ")
    exec(code[0], ns)  # noqa: S102 - the recipe's code over a test frame
    first = eval(code[1].split(" (the earliest")[0], ns)  # noqa: S307
    assert ns["longest"] == 3 and first["date"] == pd.Timestamp("2000-02-01")  # three runs of 3: the first


def test_a_fit_holding_others_fixed_and_an_elasticity_get_their_recipes():
    held = recipes_for("Holding age and years married fixed, how does the number of affairs change with the rating?")
    assert "smf.ols('y ~ x + z1 + z2'" in held and "np.log" not in held
    assert "np.log(x)" in recipes_for("What is the income elasticity of money demand?")
    assert recipes_for("How many rows hold a fixed rate?") == ""
    frame = pd.DataFrame({"x": [1.0, 2, 3, 4, 5, 6], "z": [0.0, 1, 0, 1, 0, 2]})
    frame["y"] = np.exp(0.5 * np.log(frame["x"]) + 1.0)
    import statsmodels.formula.api as smf
    slope = smf.ols("np.log(y) ~ np.log(x)", data=frame).fit().params["np.log(x)"]  # the recipe's formula runs
    assert abs(slope - 0.5) < 1e-9


def test_a_mean_of_a_named_column_outside_its_values_is_sent_back():
    from dsagent.workflows.common.fit.sanity import mean_outside_range
    from dsagent.workflows.common.mends.facts import mend_facts
    ranges = mend_facts({"t": pd.DataFrame({"unemployment_rate": [3.9, 4.8, 10.8], "gdp": [1.0, 2.0, 3.0]})}).ranges
    assert ranges == {"unemployment_rate": (3.9, 10.8), "gdp": (1.0, 3.0)}
    question = "What is the mean unemployment rate over the quarters of 1950, to 2 decimals?"
    sent = mean_outside_range(question, "float", "477.92", ranges)
    assert sent and sent.startswith("ResultOutOfRange:") and "'unemployment_rate'" in sent
    assert mean_outside_range(question, "float", "4.78", ranges) is None
    assert mean_outside_range(question, "int", "11", ranges) is None  # 10.8 rounded to a whole number
    for other in ("What is the mean unemployment rate as a percentage of its 1950 value?",  # changed values
                  "What is the mean of gdp and unemployment rate?",  # two columns
                  "What is the total unemployment rate?",  # no mean asked
                  "What is the mean unemployment rate? Give it per 1,000 people.",
                  "What is the average annual unemployment rate?", "What is the mean unemployment rate in thousands?"):
        assert mean_outside_range(other, "float", "477.92", ranges) is None, other
    assert mean_outside_range(question, "str", "477.92", ranges) is None


def test_column_ranges_skip_what_has_no_order_of_numbers():
    from dsagent.workflows.common.mends.facts import mend_facts
    frame = pd.DataFrame({"flag": [True, False], "span": pd.arrays.IntervalArray.from_breaks([0, 1, 2]),
                          "n": pd.array([1, None], dtype="Int64"), "empty": [float("nan")] * 2})
    assert mend_facts({"t": frame}).ranges == {"n": (1.0, 1.0)}
    twice = pd.DataFrame([[1, 2]], columns=["a", "a"])
    assert "a" not in mend_facts({"t": twice}).ranges  # a name two columns share: no one range


def test_a_chi_square_follows_the_continuity_correction_the_question_names():
    """scipy's chi2_contingency applies Yates' correction to a 2 x 2 table unless told not to: a
    question that says which it wants is sent back when the call does the other; silent questions
    and calls that match are left alone."""
    from dsagent.workflows.common.fit.stats import continuity_misfit

    default = "chi2, p, dof, exp = stats.chi2_contingency(pd.crosstab(df['a'], df['b']))\nresult = chi2"
    off = "chi2, p, dof, exp = stats.chi2_contingency(pd.crosstab(df['a'], df['b']), correction=False)\nresult = chi2"
    for question in ("Run a chi-square test of independence of a and b without a continuity correction.",
                     "Chi-square statistic of a and b (no Yates continuity correction)?",
                     "Test a against b with a chi-square test; do not apply the continuity correction.",
                     "Is a independent of b? Use an uncorrected chi-square test (continuity correction off).",
                     "Run Pearson's chi-square test of independence on it without any continuity correction.",
                     "Chi-square of a and b; Yates' correction is not applied."):
        found = continuity_misfit(question, ast.parse(default))
        assert found and "correction=False" in found, question
        assert continuity_misfit(question, ast.parse(off)) is None, question
    for question in ("Chi-square of a by b; the continuity correction should not be applied.",
                     "Chi-square of a by b; Yates’ correction is not applied.",
                     "scipy applies the Yates continuity correction by default on 2 x 2 tables; report the statistic without it.",
                     "Is care continuity associated with b? Chi-square without continuity correction."):
        assert "correction=False" in (continuity_misfit(question, ast.parse(default)) or ""), question
    for question in ("Report the statistic with Yates' continuity correction, not the uncorrected one.",
                     "Test whether there is no association of a and b using Yates' continuity correction.",
                     "Use the continuity correction; none of the cells is below 5."):
        assert continuity_misfit(question, ast.parse(default)) is None, question
        assert "correction=True" in (continuity_misfit(question, ast.parse(off)) or ""), question
    positional = default.replace("['b']))", "['b']), False)")  # chi2_contingency(observed, correction)
    assert continuity_misfit("Chi-square of a by b without continuity correction.", ast.parse(positional)) is None
    from dsagent.workflows.common.mends.as_asked import correction_as_asked

    mended = correction_as_asked("Chi-square of a by b with Yates' continuity correction.", positional, ast.parse(positional), {},
                                 None)
    assert mended and "['b']), correction=True)" in mended and "False" not in mended
    wanted = "Chi-square test of a and b with Yates' continuity correction: what is the statistic?"
    assert "correction=True" in (continuity_misfit(wanted, ast.parse(off)) or "")
    assert continuity_misfit(wanted, ast.parse(default)) is None
    assert continuity_misfit("Is a independent of b (chi-square test)?", ast.parse(off)) is None
    assert continuity_misfit("Is a independent of b (chi-square test)?", ast.parse(default)) is None
    through = result_misfit("Chi-square of a and b, without continuity correction?", default, FLOAT, columns=["a", "b"])
    assert through and "correction=False" in through
