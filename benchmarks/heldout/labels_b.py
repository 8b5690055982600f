"""Labels of the second batch (ids 9025-9048, kept unrun for measuring later changes): one function per question, each returning
(name, value, decimals) items; decimals=None writes the value as it is."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import accuracy_score, mean_squared_error, r2_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from label_tools import label, read, yes_no  # noqa: F401


# ---------------------------------------------------------------- easy (batch b)

@label(9025)
def q9025():
    df = read("election.csv")
    wins = df["winner"].value_counts()
    assert wins.iloc[0] > wins.iloc[1]
    return [("majority_districts", int((df["result"] == "majority").sum()), None),
            ("most_districts_won", wins.index[0], None),
            ("districts_won", int(wins.iloc[0]), None)]


@label(9026)
def q9026():
    df = read("gapminder.csv")
    d = df[(df["continent"] == "Europe") & (df["year"] == 1982)]
    return [("median_life_expectancy", d["lifeExp"].median(), 2),
            ("countries_above_73", int((d["lifeExp"] > 73).sum()), None)]


@label(9027)
def q9027():
    df = read("experiment.csv")
    d = df[(df["group"] == "treatment") & (df["gender"] == "female")]
    return [("n_rows", len(d), None),
            ("mean_experiment_2", d["experiment_2"].mean(), 2),
            ("std_experiment_2", d["experiment_2"].std(ddof=1), 2)]


@label(9028)
def q9028():
    df = read("diabetes.csv")
    d = df[(df["sex"] == 2) & (df["age"] >= 50)]
    return [("percent_patients", 100 * len(d) / len(df), 2),
            ("mean_progression", d["progression"].mean(), 2)]


@label(9029)
def q9029():
    df = read("stocks.csv")
    last = df.sort_values("date").iloc[-1]
    vals = last[["GOOG", "AAPL", "AMZN", "FB", "NFLX", "MSFT"]].astype(float)
    s = vals.sort_values()
    assert s.iloc[-1] > s.iloc[-2] and s.iloc[0] < s.iloc[1]
    return [("last_date", last["date"], None),
            ("best_ticker", s.index[-1], None), ("best_value", s.iloc[-1], 3),
            ("worst_ticker", s.index[0], None)]


@label(9030)
def q9030():
    df = read("breast_cancer.csv")
    m = df[df["diagnosis"] == "malignant"]
    return [("malignant_count", len(m), None),
            ("mean_radius_malignant", m["mean_radius"].mean(), 3),
            ("max_area_malignant", m["mean_area"].max(), 1)]


@label(9031)
def q9031():
    df = read("restaurant_tips.csv").drop_duplicates(keep="first")
    d = df[df["day"] == "Sat"]
    return [("saturday_rows", len(d), None),
            ("saturday_mean_party_size", d["size"].mean(), 3)]


# ---------------------------------------------------------------- medium (batch b)

@label(9032)
def q9032():
    df = read("wine.csv")
    r = stats.pearsonr(df["flavanoids"], df["total_phenols"])[0]
    rho = stats.spearmanr(df["proline"], df["alcohol"])[0]
    return [("pearson_flavanoids_phenols", r, 3), ("spearman_proline_alcohol", rho, 3)]


@label(9033)
def q9033():
    df = read("restaurant_tips.csv").dropna(subset=["tip"])
    df = df.assign(tip_pct=100 * df["tip"] / df["total_bill"])
    g = df.groupby("smoker")["tip_pct"].mean()
    return [("smoker_mean_tip_pct", g["Yes"], 2), ("nonsmoker_mean_tip_pct", g["No"], 2),
            ("higher_group", "smokers" if g["Yes"] > g["No"] else "non-smokers", None)]


@label(9034)
def q9034():
    df = read("gapminder.csv")
    x = df.loc[df["year"] == 2007, "gdpPercap"]
    q1, q3 = x.quantile(0.25), x.quantile(0.75)
    upper = q3 + 1.5 * (q3 - q1)
    return [("upper_fence", upper, 2), ("high_outliers", int((x > upper).sum()), None)]


@label(9035)
def q9035():
    df = read("diabetes.csv")
    df["bmi"] = df["bmi"].fillna(df["bmi"].median())
    return [("mean_bmi", df["bmi"].mean(), 3),
            ("pearson_bmi_progression", stats.pearsonr(df["bmi"], df["progression"])[0], 4)]


@label(9036)
def q9036():
    df = read("election.csv")
    share = 100 * df["Joly"] / df["total"]
    coderre = 100 * df["Coderre"] / df["total"]
    i = share.idxmax()
    assert (share == share.max()).sum() == 1
    return [("mean_coderre_share", coderre.mean(), 2),
            ("top_joly_district", df.loc[i, "district"], None),
            ("top_joly_share", share.max(), 2)]


@label(9037)
def q9037():
    df = read("breast_cancer.csv")
    a = df.loc[df["diagnosis"] == "malignant", "mean_smoothness"]
    b = df.loc[df["diagnosis"] == "benign", "mean_smoothness"]
    t, p = stats.ttest_ind(a, b, equal_var=False)
    return [("t_statistic", t, 3), ("significant", yes_no(p < 0.01), None)]


@label(9038)
def q9038():
    df = read("stocks.csv").sort_values("date")
    r = df[["GOOG", "NFLX"]].pct_change().iloc[1:]
    return [("nflx_return_std", r["NFLX"].std(ddof=1), 4),
            ("goog_big_drops", int((r["GOOG"] < -0.05).sum()), None)]


@label(9039)
def q9039():
    df = read("experiment.csv")
    a = df.loc[df["group"] == "control", "experiment_3"]
    b = df.loc[df["group"] == "treatment", "experiment_3"]
    t, p = stats.ttest_ind(a, b, equal_var=True)
    return [("t_statistic", t, 3), ("p_value", p, 4), ("reject_null", yes_no(p < 0.05), None)]


@label(9040)
def q9040():
    df = read("wine.csv")
    x = df["color_intensity"]
    z = (x - x.mean()) / x.std(ddof=0)
    out = df[z.abs() > 2.5]
    return [("outlier_count", len(out), None),
            ("outlier_cultivar", int(out["cultivar"].mode().iloc[0]), None),
            ("max_abs_z", z.abs().max(), 3)]


# ---------------------------------------------------------------- hard (batch b)

@label(9041)
def q9041():
    df = read("diabetes.csv").dropna(subset=["bmi"])
    X, y = df[["bmi", "bp", "s5"]], df["progression"]
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=7)
    model = LinearRegression().fit(Xtr, ytr)
    pred = model.predict(Xte)
    return [("test_r2", r2_score(yte, pred), 4),
            ("test_rmse", float(np.sqrt(mean_squared_error(yte, pred))), 2),
            ("bmi_coefficient", model.coef_[0], 3)]


@label(9042)
def q9042():
    df = read("breast_cancer.csv")
    df["mean_texture"] = df["mean_texture"].fillna(df["mean_texture"].mean())
    X = df[["mean_radius", "mean_texture", "mean_smoothness"]]
    y = (df["diagnosis"] == "malignant").astype(int)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    sc = StandardScaler().fit(Xtr)
    model = LogisticRegression(max_iter=1000).fit(sc.transform(Xtr), ytr)
    pred = model.predict(sc.transform(Xte))
    return [("test_accuracy", accuracy_score(yte, pred), 4),
            ("predicted_malignant", int(pred.sum()), None)]


@label(9043)
def q9043():
    df = read("wine.csv")
    X = StandardScaler().fit_transform(df.drop(columns="cultivar"))
    pca = PCA().fit(X)
    ratio = 100 * pca.explained_variance_ratio_
    cum = np.cumsum(ratio)
    return [("pc1_percent", ratio[0], 2), ("pc2_percent", ratio[1], 2),
            ("components_for_80", int(np.argmax(cum >= 80) + 1), None)]


@label(9044)
def q9044():
    df = read("gapminder.csv")
    w = df.pivot(index="country", columns="year", values="lifeExp")
    gain = (w[2007] - w[1952]).rename("gain")
    cont = df.drop_duplicates("country").set_index("country")["continent"]
    g = pd.concat([gain, cont], axis=1).groupby("continent")["gain"].mean().sort_values()
    assert g.iloc[-1] > g.iloc[-2] and (gain == gain.max()).sum() == 1
    return [("top_continent", g.index[-1], None), ("top_continent_mean_gain", g.iloc[-1], 2),
            ("top_country", gain.idxmax(), None)]


@label(9045)
def q9045():
    df = read("restaurant_tips.csv").drop_duplicates(keep="first").dropna(subset=["tip"])
    table = pd.crosstab(df["smoker"], df["time"])
    chi2, p, dof, _ = stats.chi2_contingency(table, correction=False)
    return [("rows_used", len(df), None), ("chi2_statistic", chi2, 3),
            ("p_value", p, 4), ("dependent", yes_no(p < 0.05), None)]


@label(9046)
def q9046():
    df = read("election.csv")
    v = np.sort(df[["Coderre", "Bergeron", "Joly"]].to_numpy(), axis=1)
    margin = pd.Series(100 * (v[:, 2] - v[:, 1]) / df["total"].to_numpy())
    return [("median_margin", margin.median(), 3),
            ("close_districts", int((margin < 5).sum()), None),
            ("pearson_margin_total", stats.pearsonr(margin, df["total"])[0], 3)]


@label(9047)
def q9047():
    df = read("stocks.csv").sort_values("date")
    tick = ["GOOG", "AAPL", "AMZN", "FB", "NFLX", "MSFT"]
    r = df[tick].pct_change().iloc[1:]
    c = r.corr(method="pearson")
    pairs = {"-".join(sorted((a, b))): c.loc[a, b] for i, a in enumerate(tick) for b in tick[i + 1:]}
    s = pd.Series(pairs).sort_values()
    assert s.iloc[-1] > s.iloc[-2]
    dd = 100 * (1 - df["FB"] / df["FB"].cummax())
    return [("most_correlated_pair", s.index[-1], None), ("pair_correlation", s.iloc[-1], 3),
            ("fb_max_drawdown_percent", dd.max(), 2)]


@label(9048)
def q9048():
    df = read("diabetes.csv")
    bins = [0, 40, 50, 60, 200]
    labels = ["under40", "40-49", "50-59", "60plus"]
    df["age_group"] = pd.cut(df["age"], bins=bins, labels=labels, right=False)
    groups = [df.loc[df["age_group"] == g, "progression"] for g in labels]
    f, p = stats.f_oneway(*groups)
    means = df.groupby("age_group", observed=True)["progression"].mean().sort_values()
    assert means.iloc[-1] > means.iloc[-2]
    return [("f_statistic", f, 3), ("p_value", p, 4),
            ("highest_mean_group", str(means.index[-1]), None)]
