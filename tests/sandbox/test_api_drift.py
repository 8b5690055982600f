"""Errors from APIs that moved get a one-line hint with the current API; the real libraries raise them."""

import numpy as np
import pandas as pd
import pytest

from dsagent.sandbox.api_drift import drift_hint

FRAME = pd.DataFrame({"a": [1.0, None, 3.0], "b": ["x", "y", "x"], "c": ["p", "q", "r"]})


def _error(call) -> str:
    with pytest.raises(Exception) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("call, expected", [
    (lambda: FRAME.append(FRAME), "pd.concat"),
    (lambda: FRAME["a"].iteritems(), ".items()"),
    (lambda: pd.Series(pd.to_datetime(["2024-01-04"])).dt.weekday_name, ".dt.day_name()"),  # P 10161, seen
    (lambda: FRAME.fillna(method="ffill"), ".ffill()"),
    # errors of P's seen misses whose message does not say the fix
    (lambda: pd.Series(["2024-01-04"]).value_counts().index[0].strftime("%Y"), "pd.to_datetime(value).strftime"),
    (lambda: pd.Series(["2024-01-04", None])[pd.Series(["2024-01-04", None]) > 0], ".notna()"),
    (lambda: pd.Series(["6.644 657 e-27"]) / pd.Series(["0.000 021 e-27"]), "pd.to_numeric"),
    (lambda: pd.Series(["2024-01-09"]) - pd.Series(["2024-01-04"]), "pd.to_datetime(df['end'])"),
    (lambda: pd.Series([1, 2])[pd.Series([True, None], dtype=object)], "df[df['col'] == True]"),
    (lambda: __import__("scipy.stats", fromlist=["x"]).chi2_contingency([[3, 0], [4, 0]]), "pd.crosstab(df['a'], df['b'])"),
    (lambda: pd.Series(["a<b>", "c"]).str.extract(r"<\w+>"), ".str.count("),
    (lambda: pd.to_datetime(pd.Series(["010798"]), format="%m%d%Y"), "two-digit one (98) is %y"),  # Q 10182-10184, seen
    (lambda: __import__("sklearn.linear_model", fromlist=["x"]).Ridge(normalize=True), "StandardScaler"),
    (lambda: np.float, "builtin"),
    (lambda: FRAME.groupby("b").mean(), "numeric columns"),
    (lambda: FRAME.corr(), "numeric columns"),
    (lambda: FRAME.median(), "numeric columns"),
    (lambda: np.polyfit(FRAME[["a"]].fillna(0), FRAME["a"].fillna(0), 1), "pass one column"),
    # a fit over values with NaN (shift's first row), a 1-D design matrix, a year used as a row position
    (lambda: np.polyfit(FRAME["a"].shift(1), FRAME["a"].fillna(0), 1), "x.notna() & y.notna()"),
    (lambda: np.linalg.lstsq(FRAME["a"].fillna(0), FRAME["a"].fillna(0), rcond=None), "np.polyfit(x, y, 1)"),
    (lambda: FRAME["a"].iloc[2009 - 1], "not a year or a label"),
    (lambda: FRAME["b"].nlargest(2), "df.nlargest(3, 'value_col')"),
    (lambda: pd.ols, "sm.OLS"),
    (lambda: FRAME.regress, "sm.OLS"),
    (lambda: FRAME.chi2(), "stats.chi2_contingency"),
    (lambda: FRAME.__setitem__("m", FRAME["c"].str.extract(r"(\w)(\w*)")), "assign each column separately"),
    (lambda: __import__("sklearn.linear_model", fromlist=["x"]).LinearRegression().fit(FRAME[["a"]], [1, 2, 3]), "dropna(subset="),
    (lambda: np.float64(FRAME["a"].mean())[0], "drop the [..]"),
    (lambda: __import__("statsmodels.stats.api", fromlist=["x"]).chi2_contingency, "in scipy.stats"),
    (lambda: np.asarray(pd.Series(["00:01:30", "00:00:10"]).to_numpy(), dtype=float), "pd.to_timedelta"),
    (lambda: pd.Series(["00:01:30", "00:00:10"]).astype(float), "pd.to_timedelta"),
    (lambda: pd.Series([np.nan, np.nan]).idxmin(), ".dropna() before"),
    (lambda: pd.Series([], dtype=float).idxmax(), "no row passed the filter"),
    # dates as text, or as dates, in a model's X
    (lambda: __import__("sklearn.linear_model", fromlist=["x"]).LinearRegression().fit(pd.DataFrame({"d": ["2015-01-01", "2015-01-02"]}), [1, 2]), "pd.to_datetime"),
    (lambda: pd.Series(["1/2/2015", "1/3/2015"]).astype(float), ".dt.dayofyear"),
    (lambda: pd.Series(["2024-01-02", "2024-03-04"]).dt.year, "pd.to_datetime(df['col']).dt.year"),
    (lambda: np.corrcoef(pd.to_datetime(pd.Series(["2015-01-01", "2015-01-02"])), [1, 2]), "(d - d.min()).dt.days"),
    # a text category in a model's X: encode it (a number stored as text gets to_numeric instead)
    (lambda: __import__("sklearn.linear_model", fromlist=["x"]).LinearRegression().fit(FRAME[["c"]], [1, 2, 3]), "get_dummies"),
    (lambda: __import__("sklearn.linear_model", fromlist=["x"]).LinearRegression().fit(pd.DataFrame({"n": ["1.5", "2,5", "3"]}), [1, 2, 3]), "pd.to_numeric"),
    # a keyword scipy's tests do not take, and a statsmodels result's attribute that does not exist
    (lambda: __import__("scipy.stats", fromlist=["x"]).ttest_ind([1.0, 2.0, 4.0], [2.0, 3.0, 7.0], ddof=1), "stats.ttest_rel(a, b)"),
    (lambda: __import__("statsmodels.api", fromlist=["x"]).OLS([1.0, 2.0, 4.0], [[1, 1.0], [1, 2.0], [1, 3.5]]).fit().ssr_total,
     ".centered_tss (total)"),
    (lambda: FRAME.loc[FRAME.groupby("b").count() == 2, "a"], "transform('count')"),
    (lambda: pd.Series(["1960q1", "1960q2"]).str[3:].astype(int), "pd.PeriodIndex(df['col'], freq='Q')"),
    (lambda: int("q1"), "p.year, p.quarter"),
    (lambda: FRAME["b"].add_categories(["z"]), ".cat.add_categories"),
    (lambda: __import__("statsmodels.formula.api", fromlist=["x"]).ols("a ~ a + 2", data=FRAME.fillna(0)), "Q('name')"),
    (lambda: FRAME["a"].corr(), "s.autocorr(1)"),
    # a row's value asked for the row before it (apply(axis=1) gives one number per column)
    (lambda: FRAME.fillna(0).apply(lambda row: row["a"] > row["a"].shift(1), axis=1), "df['y'].shift(1)"),
    (lambda: FRAME["a"] > 1 and FRAME["a"] < 3, "(df['a'] > 1) & (df['b'] < 2)"),
    # a groupby over year, month and day gives tuple labels (R 10241, seen: .strftime on one)
    (lambda: FRAME.assign(y=2013, m=2, d=8).groupby(["y", "m", "d"]).size().idxmax().strftime("%Y"), "f'{y:04d}-{m:02d}-{d:02d}'"),
    # one number unpacked into two names (a t statistic written by hand, with its degrees of freedom)
    (lambda: exec("t, dof = np.float64(1.5)", {"np": np}), "compute each name on its own line"),  # noqa: S102
])
def test_moved_apis_get_a_hint(call, expected):
    assert expected in drift_hint(_error(call))


def test_a_library_that_is_not_installed_gets_what_is_ready_instead():
    """lifelines (a model's first reach for Kaplan-Meier; batch J, seen) is not installed: statsmodels'
    own survival functions are named; any other missing library gets the list of what is ready."""
    import statsmodels.api as sm

    hint = drift_hint("ModuleNotFoundError: No module named 'lifelines'")
    assert "sm.SurvfuncRight" in hint and "survdiff" in hint
    sf = sm.SurvfuncRight(np.array([5, 6, 6, 2]), np.array([1, 0, 1, 1]))  # the call the hint names works
    assert len(sf.surv_prob) == len(sf.surv_times) == 3
    assert "sm and smf" in drift_hint("ModuleNotFoundError: No module named 'pingouin'")
    assert "SurvfuncRight" not in drift_hint("ModuleNotFoundError: No module named 'pingouin'")


def test_other_errors_get_none():
    assert drift_hint(_error(lambda: FRAME["nope"])) == ""
    assert drift_hint("AttributeError: module 'scipy.stats' has no attribute 'pearsonr'") == ""  # already there
    # the same keyword refused by another function is not that moved API
    assert drift_hint("TypeError: DataFrame.corr() got an unexpected keyword argument 'method'") == ""
    assert drift_hint("TypeError: scale() got an unexpected keyword argument 'sparse'") == ""
    assert drift_hint("TypeError: Normalizer.fit() got an unexpected keyword argument 'normalize'") == ""
    assert drift_hint("ZeroDivisionError: division by zero") == ""
