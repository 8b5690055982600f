"""Labels of the first batch (ids 9001-9024, run 2026-11-24): one function per question, each returning
(name, value, decimals) items; decimals=None writes the value as it is."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import accuracy_score, mean_squared_error, r2_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from label_tools import label, read, yes_no  # noqa: F401


# ---------------------------------------------------------------- easy

@label(9001)
def q9001():
    df = read("gapminder.csv")
    d = df[df["year"] == 2007]
    top = d.loc[d["lifeExp"].idxmax()]
    return [("top_country", top["country"], None), ("top_life_expectancy", top["lifeExp"], 2)]


@label(9002)
def q9002():
    df = read("restaurant_tips.csv")
    return [("missing_tips", int(df["tip"].isna().sum()), None),
            ("duplicate_rows", int(df.duplicated().sum()), None)]


@label(9003)
def q9003():
    df = read("wine.csv")
    m = df["magnesium"].mean()
    return [("mean_magnesium", m, 2), ("wines_above_mean", int((df["magnesium"] > m).sum()), None)]


@label(9004)
def q9004():
    df = read("stocks.csv")
    i = df["AAPL"].idxmax()
    assert (df["AAPL"] == df["AAPL"].max()).sum() == 1
    return [("peak_date", df.loc[i, "date"], None), ("peak_value", df.loc[i, "AAPL"], 3)]


@label(9005)
def q9005():
    df = read("experiment.csv")
    g = df.groupby("group")["experiment_1"].mean()
    return [("mean_control", g["control"], 2), ("mean_treatment", g["treatment"], 2)]


@label(9006)
def q9006():
    df = read("diabetes.csv")
    return [("missing_bmi", int(df["bmi"].isna().sum()), None), ("mean_bmi", df["bmi"].mean(), 2)]


@label(9007)
def q9007():
    df = read("gapminder.csv")
    n = df.groupby("continent")["country"].nunique().sort_values(ascending=False)
    assert n.iloc[0] > n.iloc[1]
    return [("continent", n.index[0], None), ("country_count", int(n.iloc[0]), None)]


# ---------------------------------------------------------------- medium

@label(9008)
def q9008():
    df = read("restaurant_tips.csv").drop_duplicates().dropna(subset=["tip"])
    df["tip_pct"] = df["tip"] / df["total_bill"] * 100
    m = df.groupby("day")["tip_pct"].mean().sort_values(ascending=False)
    return [("best_day", m.index[0], None), ("best_day_mean_pct", m.iloc[0], 2)]


@label(9009)
def q9009():
    df = read("gapminder.csv")
    d = df[df["year"] == 2007]
    r_raw = stats.pearsonr(d["gdpPercap"], d["lifeExp"])[0]
    r_log = stats.pearsonr(np.log10(d["gdpPercap"]), d["lifeExp"])[0]
    return [("r_raw", r_raw, 2), ("r_log", r_log, 2)]


@label(9010)
def q9010():
    s = read("wine.csv")["color_intensity"]
    q1, q3 = s.quantile(0.25), s.quantile(0.75)
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    n = int(((s < lo) | (s > hi)).sum())
    return [("lower_bound", lo, 2), ("upper_bound", hi, 2), ("outlier_count", n, None)]


@label(9011)
def q9011():
    s = read("diabetes.csv")["progression"]
    w, p = stats.shapiro(s)
    return [("shapiro_w", w, 3), ("skewness", s.skew(), 2), ("is_normal", yes_no(p >= 0.05), None)]


@label(9012)
def q9012():
    df = read("stocks.csv")
    ret = df.drop(columns="date").pct_change().dropna()
    sd = ret.std(ddof=1).sort_values(ascending=False)
    return [("most_volatile", sd.index[0], None), ("weekly_return_std", sd.iloc[0], 4)]


@label(9013)
def q9013():
    df = read("experiment.csv")
    a = df.loc[df["group"] == "treatment", "experiment_2"]
    b = df.loc[df["group"] == "control", "experiment_2"]
    t, p = stats.ttest_ind(a, b, equal_var=True)
    return [("t_statistic", t, 2), ("p_value", p, 4), ("significant", yes_no(p < 0.05), None)]


@label(9014)
def q9014():
    df = read("restaurant_tips.csv").drop_duplicates()
    table = pd.crosstab(df["smoker"], df["time"])
    chi2, p, dof, _ = stats.chi2_contingency(table, correction=True)
    return [("chi2_statistic", chi2, 2), ("p_value", p, 4), ("independent", yes_no(p >= 0.05), None)]


@label(9015)
def q9015():
    df = read("gapminder.csv")
    m = df[df["year"].isin([1952, 2007])].groupby(["continent", "year"])["lifeExp"].mean().unstack()
    gain = (m[2007] - m[1952]).sort_values(ascending=False)
    return [("largest_gain_continent", gain.index[0], None), ("largest_gain", gain.iloc[0], 2),
            ("smallest_gain_continent", gain.index[-1], None), ("smallest_gain", gain.iloc[-1], 2)]


@label(9016)
def q9016():
    df = read("diabetes.csv")
    med = df["bmi"].median()
    df["bmi"] = df["bmi"].fillna(med)
    g = df.groupby("sex")["bmi"].mean()
    return [("median_bmi", med, 2), ("mean_bmi_sex1", g[1], 2), ("mean_bmi_sex2", g[2], 2)]


# ---------------------------------------------------------------- hard

@label(9017)
def q9017():
    df = read("diabetes.csv").dropna(subset=["bmi"])
    X = df.drop(columns="progression")
    y = df["progression"]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=42)
    pred = LinearRegression().fit(X_tr, y_tr).predict(X_te)
    return [("r2_score", r2_score(y_te, pred), 2), ("rmse", math.sqrt(mean_squared_error(y_te, pred)), 2)]


@label(9018)
def q9018():
    df = read("wine.csv")
    X = df[["alcohol", "flavanoids", "color_intensity"]]
    y = df["cultivar"]
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    sc = StandardScaler().fit(X_tr)
    model = LogisticRegression(max_iter=1000).fit(sc.transform(X_tr), y_tr)
    pred = model.predict(sc.transform(X_te))
    return [("accuracy", accuracy_score(y_te, pred), 2), ("misclassified", int((pred != y_te).sum()), None)]


@label(9019)
def q9019():
    df = read("gapminder.csv")
    w = df.pivot(index="country", columns="year", values="gdpPercap")
    cagr = ((w[2007] / w[1952]) ** (1 / 55) - 1) * 100
    cagr = cagr.sort_values(ascending=False)
    return [("fastest_country", cagr.index[0], None), ("fastest_cagr_pct", cagr.iloc[0], 2),
            ("negative_growth_countries", int((cagr < 0).sum()), None)]


@label(9020)
def q9020():
    df = read("restaurant_tips.csv").drop_duplicates().copy()
    day_median = df.groupby("day")["tip"].median()
    df["tip"] = df["tip"].fillna(df["day"].map(day_median))
    r, p = stats.pearsonr(df["total_bill"], df["tip"])
    return [("mean_tip", df["tip"].mean(), 2), ("correlation", r, 2), ("significant", yes_no(p < 0.01), None)]


@label(9021)
def q9021():
    df = read("stocks.csv")
    c = df.drop(columns="date").pct_change().dropna().corr(method="pearson")
    pairs = {}
    cols = list(c.columns)
    for i, a in enumerate(cols):
        for b in cols[i + 1:]:
            pairs["-".join(sorted([a, b]))] = c.loc[a, b]
    s = pd.Series(pairs).sort_values(ascending=False)
    return [("most_correlated_pair", s.index[0], None), ("highest_r", s.iloc[0], 2),
            ("least_correlated_pair", s.index[-1], None), ("lowest_r", s.iloc[-1], 2)]


@label(9022)
def q9022():
    df = read("experiment.csv")
    s = df["experiment_3"]
    z = (s - s.mean()) / s.std(ddof=1)
    out = z.abs() > 2
    kept = df[~out]
    a = kept.loc[kept["gender"] == "male", "experiment_3"]
    b = kept.loc[kept["gender"] == "female", "experiment_3"]
    t, p = stats.ttest_ind(a, b, equal_var=False)
    return [("outlier_count", int(out.sum()), None), ("t_statistic", t, 2), ("p_value", p, 4)]


@label(9023)
def q9023():
    df = read("diabetes.csv")
    grp = np.where(df["age"] < 40, "young", np.where(df["age"] < 60, "middle", "senior"))
    df["age_group"] = grp
    groups = [df.loc[df["age_group"] == g, "progression"] for g in ("young", "middle", "senior")]
    f, p = stats.f_oneway(*groups)
    means = df.groupby("age_group")["progression"].mean().sort_values(ascending=False)
    return [("f_statistic", f, 2), ("p_value", p, 4), ("senior_count", int((grp == "senior").sum()), None),
            ("highest_mean_group", means.index[0], None)]


@label(9024)
def q9024():
    df = read("wine.csv")
    X = StandardScaler().fit_transform(df.drop(columns="cultivar"))
    ratio = PCA().fit(X).explained_variance_ratio_
    k = int(np.argmax(np.cumsum(ratio) >= 0.80) + 1)
    return [("pc1_variance_pct", ratio[0] * 100, 2), ("pc2_variance_pct", ratio[1] * 100, 2),
            ("components_for_80pct", k, None)]
