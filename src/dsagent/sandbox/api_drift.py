"""Hints for errors that come from library APIs that moved (pandas 3, NumPy 2, scikit-learn 1.2+).

Small models learned older APIs, and the fix they reach for after the error is often a different
computation. One line saying what the current API is keeps the intent. A few pandas, NumPy and
scikit-learn errors whose message does not say the fix get a hint too (the model's retry tends to
repeat the failing line). Matched on the error's own text, for any question; nothing here knows
about a dataset. This is the "on an error" moment of the code step: a hint for the model, never a
rewrite. A mistake a mend rewrites before the run (``workflows.common.mends.before_run``: the
removed ``squared=`` of scikit-learn's metrics, ``OneHotEncoder(sparse=...)``) has no hint here:
each mistake is handled in one place.
"""

from __future__ import annotations

import re

_DRIFT: list[tuple[str, str]] = [
    (r"(Regression|Ridge|Lasso|Net|Lars)\w*\.__init__\(\) got an unexpected keyword argument 'normalize'",
     "scikit-learn removed normalize=: scale the features first (StandardScaler)."),
    (r"fillna\(\) got an unexpected keyword argument 'method'", "pandas removed fillna(method=...): use .ffill() or .bfill()."),
    (r"unexpected keyword argument 'infer_datetime_format'", "pandas removed infer_datetime_format=: drop it (or give format=...)."),
    (r"object has no attribute 'append'", "pandas removed DataFrame/Series.append: use pd.concat([a, b], ignore_index=True)."),
    (r"Cannot subset columns with a tuple", "pandas 2 selects several columns of a groupby with a list: df.groupby('k')[['a', 'b']]."),
    (r"object has no attribute 'iteritems'", "pandas renamed it: .items()."),
    (r"object has no attribute 'applymap'", "pandas renamed it: DataFrame.map(func)."),
    (r"object has no attribute 'mad'", "pandas removed .mad(): use (s - s.mean()).abs().mean()."),
    (r"object has no attribute 'is_monotonic'", "pandas renamed it: .is_monotonic_increasing."),
    (r"object has no attribute 'weekday_name'", "pandas removed it: .dt.day_name() gives 'Monday' …, .dt.weekday gives 0 for Monday."),
    (r"module 'numpy' has no attribute '(float|int|bool|object|str)'", "NumPy removed that alias: use the builtin (float, int, bool, object, str)."),
    (r"module 'numpy' has no attribute 'product'", "NumPy removed it: np.prod."),
    (r"module 'numpy' has no attribute 'trapz'", "NumPy renamed it: np.trapezoid."),
    (r"could not convert string to float: (np\.str_\()?'(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4})|DateTime64DType",
     "those are dates: pd.to_datetime(df['col']) turns text into dates, and a model or a correlation needs "
     "a number from them: .dt.year, .dt.month, .dt.dayofyear, or days since the first, (d - d.min()).dt.days."),
    (r"could not convert string to float: (np\.str_\()?'\d+:\d\d",
     "those are durations or clock times written as text ('00:01:30'): convert them first, "
     "pd.to_timedelta(df['col']).dt.total_seconds() gives seconds as numbers."),
    # A word, not a number written as text: a category a model or a correlation cannot take as it is.
    (r"could not convert string to float: '[A-Za-z][^'\d]*'",
     "a column holds text categories. For statistics of the whole table select the numeric columns "
     "first (df.select_dtypes('number'), or numeric_only=True in mean/corr); for a model encode the "
     "categories as numbers (df['col'] = df['col'].map({'a': 0, 'b': 1}), or "
     "pd.get_dummies(df, columns=['col'], drop_first=True) and then the new columns' names) or leave "
     "the column out of X."),
    (r"(does not support operation|Cannot perform reduction) '\w+'|could not convert string to float",
     "text cannot be averaged or correlated: select the numeric columns first (df.select_dtypes('number'), "
     "or numeric_only=True in mean/median/std/corr), or turn numbers stored as text into numbers "
     "(pd.to_numeric(s, errors='coerce'))."),
    # Not a moved API, but a message that does not say the fix, and the retry repeats the code.
    (r"Can only use \.dt accessor with datetimelike values",
     "the column holds text or numbers, not dates (a CSV or a database gives dates as text): convert text "
     "first, pd.to_datetime(df['col']).dt.year; a column that already holds years is used as it is."),
    (r"Cannot set a DataFrame with multiple columns to the single column",
     "the right side has several columns (str.extract with two groups, or a DataFrame) and one column "
     "cannot hold them: assign each column separately (parts = s.str.extract(...); df['a'] = parts[0]), "
     "or for dates use pd.to_datetime(df['col']).dt.month / .dt.year."),
    (r"Input (X|y) contains NaN",
     "scikit-learn models do not take missing values: drop the rows with a missing value in any column "
     "used, X and y together (d = df.dropna(subset=x_columns + [y_column]); X, y = d[x_columns], d[y_column]), "
     "before fitting."),
    # Where any function lives is name_hints' answer; this one's hint also says how its result unpacks.
    (r"module '(?!scipy\.stats')[\w.]+' has no attribute 'chi2_contingency'",
     "that test is in scipy.stats, bound as stats: stats.chi2_contingency(pd.crosstab(df['a'], df['b'])) "
     "returns (chi2, p, dof, expected)."),
    (r"invalid index to scalar variable",
     "that value is already a single number (.mean(), .skew(), .corr() of two columns and a test's "
     ".pvalue return one): drop the [..] after it."),
    (r"SVD did not converge in Linear Least Squares|array must not contain infs or NaNs",
     "the values hold NaN (the first row of shift/diff/pct_change, or a missing value), and a fit takes none: "
     "keep the rows where x and y are both present, m = x.notna() & y.notna(); np.polyfit(x[m], y[m], 1)."),
    (r"1-dimensional array given\. Array must be two-dimensional",
     "np.linalg.lstsq takes a 2-D design matrix; for a straight line use slope, intercept = np.polyfit(x, y, 1) "
     "(rows with NaN dropped first)."),
    (r"single positional indexer is out-of-bounds|positional indexers are out-of-bounds",
     "iloc takes row positions (0 to len(df) - 1), not a year or a label: select rows by their value, "
     "df.loc[df['year'] == 2009, 'col'], or the first / last row with .iloc[0] / .iloc[-1]."),
    (r"Cannot use method 'n(largest|smallest)' with dtype",
     "nlargest/nsmallest rank numbers, not names: rank the frame by the number column and take the names, "
     "df.nlargest(3, 'value_col')['name_col']."),
    (r"(module 'pandas'|'DataFrame' object|'Series' object) has no attribute '(ols|OLS|regress|regression|linregress)'",
     "pandas fits no regression: sm.OLS(df['y'], sm.add_constant(df[['x1', 'x2']])).fit() (sm is bound; .params, "
     ".rsquared), or stats.linregress(df['x'], df['y']) for one predictor."),
    (r"'(DataFrame|Series)' object has no attribute 'chi2(_contingency)?'",
     "the test is in scipy.stats, bound as stats: chi2, p, dof, expected = stats.chi2_contingency(table)."),
    (r"No module named 'lifelines'",
     "lifelines is not installed here, and nothing can be installed: statsmodels has Kaplan-Meier, "
     "sf = sm.SurvfuncRight(df['time'], df['event']) (sf.surv_times, sf.surv_prob: the chance to last past each time), "
     "and the log-rank test, chi2, p = sm.duration.survdiff(df['time'], df['event'], df['group'])."),
    (r"No module named '(?!lifelines')[\w.]+'",
     "that library is not installed here, and nothing can be installed: use what is ready, pd, np, stats "
     "(scipy.stats), sm and smf (statsmodels), sklearn."),
    (r"Encountered all NA values|attempt to get arg(max|min) of an empty sequence",
     "nothing was left to pick from: every value was missing or no row passed the filter (a date or number "
     "that did not parse is NaN; shift/diff/pct_change leave NaN at the start). Check the rows left at each "
     "step (len(...)), parse dates with their format, and .dropna() before .idxmax()/.idxmin()."),
    (r"(ttest_\w+|mannwhitneyu|wilcoxon|f_oneway|kruskal|ranksums)\(\) got an unexpected keyword argument 'ddof'",
     "scipy's tests take no ddof=: they already use the sample variance (n - 1); drop it. A paired test is "
     "stats.ttest_rel(a, b) (or stats.ttest_1samp(a - b, 0)); Welch's is stats.ttest_ind(a, b, equal_var=False)."),
    (r"'(OLS|WLS|GLS|Regression|RegressionResults|OLSResults)\w*' object has no attribute",
     "a statsmodels fit's results are .params, .pvalues, .bse, .tvalues, .rsquared, .rsquared_adj, .fvalue, "
     ".f_pvalue, .ssr (residual sum of squares), .ess (explained), .centered_tss (total), .nobs, .df_resid, "
     ".resid, .fittedvalues; read a coefficient by its column name, res.params['x']."),
    (r"Cannot index with multidimensional key",
     "the row selector of .loc is a whole table (a groupby's .count() == 4 compares every column), not one "
     "True/False per row: build one condition per row, e.g. n = df.groupby('key')['x'].transform('count'); "
     "df.loc[n == 4, 'x'], or keep groups with df.groupby('key').filter(lambda g: len(g) == 4)."),
    (r"invalid literal for int\(\) with base 10: '\d*[qQmM]\d",
     "that is part of a period label ('1960q1', '1972m1'), cut in the wrong place: read the whole label, "
     "p = pd.PeriodIndex(df['col'], freq='Q') for quarters (p.year, p.quarter), or "
     "pd.to_datetime(df['col'], format='%Ym%m') for months (.dt.year, .dt.month)."),
    (r"'Series' object has no attribute '((?:add|remove|rename|set|reorder)_categories|categories|codes|as_ordered)'",
     "the categories of a Series are under .cat: s.astype('category').cat.add_categories(['x']), .cat.categories, "
     ".cat.codes (pd.cut already gives a categorical: its .cat works)."),
    (r"PatsyError|numbers besides '0' and '1' are only allowed with \*\*",
     "in a formula a column name with spaces, digits or symbols is written Q('name'): "
     "smf.ols(\"Q('y col') ~ Q('x col')\", data=df).fit(); read its coefficient as res.params[\"Q('x col')\"]."),
    (r"corr\(\) missing 1 required positional argument: 'other'",
     "Series.corr takes the other series: a.corr(b); a series with itself one row later (a lag-1 "
     "autocorrelation) is s.autocorr(1), the same as s.corr(s.shift(1))."),
    (r"'(?:float|int|str|bool|numpy\.\w+)' object has no attribute '(?:shift|diff|pct_change|rolling|cumsum|cummax|expanding)'",
     "that value is one number (a row's value inside apply(axis=1) or a loop), and only a column knows the row before "
     "it: compute over the whole column, df['y'] > df['y'].shift(1) (a rise on each row), df['y'].diff(), "
     "df['y'].pct_change()."),
    (r"The truth value of a (Series|DataFrame) is ambiguous",
     "a condition on a whole column has one True/False per row, so `if`, `and`, `or` and `not` cannot take it: "
     "join conditions with & and | and brackets, (df['a'] > 1) & (df['b'] < 2), and filter with it, df[mask]; "
     "for one answer use (s > 0).any() or .all(); a per-row choice is np.where(cond, x, y)."),
    (r"'str' object has no attribute '(?:strftime|year|month|day|date|weekday|day_name|month_name|isoformat|to_period)'",
     "that value is text (dates a CSV gives are text, and so are the labels value_counts or groupby made from them): "
     "parse it where it is used, pd.to_datetime(value).strftime('%Y-%m-%d'), or the whole column first, "
     "df['col'] = pd.to_datetime(df['col'])."),
    (r"'tuple' object has no attribute '(?:strftime|year|month|day|date|isoformat)'",
     "a label of a groupby over several columns is a tuple, (year, month, day) for groupby(['year', 'month', 'day']): "
     "write the date from its parts, y, m, d = s.idxmax(); f'{y:04d}-{m:02d}-{d:02d}' (or pd.Timestamp(year=y, "
     "month=m, day=d)), or group by one date column made first, pd.to_datetime(df[['year', 'month', 'day']])."),
    (r"Invalid comparison between dtype=(?:str|object) and (?:int|float)",
     "that column holds text, and text has no order against a number: turn numbers written as text into numbers "
     "first (pd.to_numeric(df['col'], errors='coerce')), parse dates with pd.to_datetime, or compare with a text "
     "value; rows where a value is given at all are df['col'].notna()."),
    (r"operation '\w+' not supported for dtype '(?:str|object)'",
     "those columns hold text. Dates written as text are parsed first, (pd.to_datetime(df['end']) - "
     "pd.to_datetime(df['start'])).dt.days; numbers written as text are made numbers before any arithmetic, "
     "pd.to_numeric(df['col'].str.replace(r'[,\\s]', '', regex=True), errors='coerce') (separators and blanks "
     "removed first)."),
    (r"table of expected frequencies has a zero element",
     "chi2_contingency takes a table of counts of two categories, table = pd.crosstab(df['a'], df['b']), not two "
     "columns or one row; a category no row has gives a row or column of zeros: drop it, "
     "table = table.loc[table.sum(axis=1) > 0, table.sum(axis=0) > 0]."),
    (r"time data \"(?:[^\"\d]*\d){5,6}[^\"\d]*\" doesn't match format \"[^\"]*%Y",
     "%Y reads a four-digit year (1998); a two-digit one (98) is %y, format='%m%d%y'. A date stored as a number "
     "that lost its leading zero is padded first: df['col'].astype(str).str.zfill(6)."),
    (r"Cannot mask with non-boolean array containing NA / NaN values",
     "that True/False column has missing values, and a filter needs True or False on every row: "
     "df[df['col'] == True] (missing counts as False), or df[df['col'].fillna(False).astype(bool)]."),
    (r"pattern contains no capture groups",
     "str.extract returns what a group in brackets matches, s.str.extract(r'(\\d+)'); to count the matches in "
     "each value use s.str.count(pattern), to test for one s.str.contains(pattern)."),
    (r"cannot unpack non-iterable (?:numpy\.)?(?:float|int)",
     "the right side is one number, and one number cannot be unpacked into several names: compute each name on its "
     "own line. A scipy test's result unpacks as stat, p = stats.ttest_ind(a, b) (no .pvalue after it); its degrees "
     "of freedom are res.df of res = stats.ttest_ind(a, b, equal_var=False)."),
    (r"expected 1D vector for x",
     "np.polyfit takes 1-D arrays: pass one column, df['x'] (not df[['x']]); for R-squared, sklearn's "
     "LinearRegression takes df[['x']] and model.score(X, y)."),
]
_COMPILED = [(re.compile(pattern), hint) for pattern, hint in _DRIFT]


def drift_hint(message: str) -> str:
    """'Hint: …' for an error message caused by a moved API, or ''."""
    for pattern, hint in _COMPILED:
        if pattern.search(message):
            return f"Hint: {hint}"
    return ""
