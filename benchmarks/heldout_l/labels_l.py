"""Labels of held-out batch L: one function per question id (the first solution, pandas/scipy).

Each function takes ``read`` (table file name -> DataFrame, read from the folder being labelled)
and returns ``[(name, value, decimals), ...]`` in the order of the format's ``@name[...]`` items;
``decimals`` is None for a value written as it is (a count, a label, a year, a date). The
registry, the writing of a value (``render``: a value within 1e-3 of a rounding half is refused)
and the tie-checked "which is highest" (``top_index``) are ``heldout_common``'s. ``make_labels.py``
renders and checks them. Do not read this file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
# render is not called here: make_labels writes the values with it (``labels_l.render``)
from heldout_common import label_registry, month_text, ols, pct, render, top_index  # noqa: E402,F401

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
LABELS, label = label_registry()

SMR = "Standardised mortality ratio (UK=100) (SMR)<2>"
DENSITY = "Persons per sq km"
TOTAL = "Population (thousands) Total"
CHANGE = "Total population percentage change 1981-1996"


def _councils(read) -> pd.DataFrame:
    """The 32 council areas: the United Kingdom and Scotland rows left out."""
    s = read("scotland_councils.csv")
    assert len(s) == 34 and s["Region"].is_unique
    councils = s[~s["Region"].isin(["United Kingdom", "Scotland"])].set_index("Region")
    assert len(councils) == 32
    return councils


def _wpi(read) -> pd.DataFrame:
    w = read("wholesale_prices.csv")
    w["period"] = pd.PeriodIndex(w["t"].str.upper(), freq="Q")
    assert len(w) == 124 and (w["period"].diff().iloc[1:].map(lambda d: d.n) == 1).all()
    w["year"] = w["period"].dt.year
    return w


def _goog(read) -> pd.DataFrame:
    g = read("goog_daily.csv")
    g["date"] = pd.to_datetime(g["date"], format="%Y-%m-%d")
    assert len(g) == 1047 and g["date"].is_monotonic_increasing and g["date"].is_unique
    g["month"] = g["date"].map(month_text)
    return g


def _silver(read) -> tuple[np.ndarray, np.ndarray]:
    s = read("silver_atomic_weight.csv")
    one, two = (s.loc[s["Instrument"] == k, "AgWt"].to_numpy() for k in (1, 2))
    assert len(one) == len(two) == 24
    return one, two


def _ozone_fit(read) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients (intercept, slope) of y on x and the residuals."""
    o = read("ozone_calibration.csv")
    assert len(o) == 36
    coef, _ = ols(o["y"], o["x"])
    return coef, o["y"].to_numpy() - (coef[0] + coef[1] * o["x"].to_numpy())


# ---------------------------------------------------------------- easy
@label(9981)
def l9981(read):
    return [("respondents_with_affairs", int((read("marriage_survey.csv")["naffairs"] > 0).sum()), None)]


@label(9982)
def l9982(read):
    return [("high_gpa_students", int((read("grad_school_plans.csv")["gpa"] >= 3.5).sum()), None)]


@label(9983)
def l9983(read):
    c = read("cancer_drug_trial.csv")
    return [("median_placebo_months", c.loc[c["drug"] == 1, "studytime"].median(), 1)]


@label(9984)
def l9984(read):
    return [("total_cases", int(read("county_cancer_cases.csv")["cancer"].sum()), None)]


@label(9985)
def l9985(read):
    return [("largest_council", top_index(_councils(read)["Area (sq km)"]), None)]


@label(9986)
def l9986(read):
    k = read("kidney_hospital_days.csv")
    assert len(k) == 60
    return [("mean_days_substantial_gain", k.loc[k["Weight"] == 3, "Days"].mean(), 2)]


@label(9987)
def l9987(read):
    w = _wpi(read)
    return [("first_quarter_at_100", w.loc[w["wpi"] >= 100, "t"].iloc[0], None)]


@label(9988)
def l9988(read):
    s = read("silver_atomic_weight.csv")
    return [("heavy_readings", int((s["AgWt"] > 107.86815).sum()), None)]


@label(9989)
def l9989(read):
    o = read("ozone_calibration.csv")
    return [("readings_above_reference", int((o["y"] > o["x"]).sum()), None)]


@label(9990)
def l9990(read):
    g = _goog(read)
    return [("busiest_day", g.loc[top_index(g["volume"]), "date"].strftime("%Y-%m-%d"), None)]


# ---------------------------------------------------------------- medium
@label(9991)
def l9991(read):
    m = read("marriage_survey.csv")
    low = m[m["rate_marriage"] <= 3]
    return [("pct_low_rating_with_affairs", pct((low["naffairs"] > 0).sum(), len(low)), 2)]


@label(9992)
def l9992(read):
    m = read("marriage_survey.csv")
    groups = m.groupby("occupation")["rate_marriage"].agg(["mean", "size"])
    return [("happiest_occupation", int(top_index(groups.loc[groups["size"] >= 40, "mean"])), None)]


@label(9993)
def l9993(read):
    m = read("marriage_survey.csv")
    return [("mean_years_married_42_plus", m.loc[m["age"] >= 42, "nmarried"].mean(), 3)]


@label(9994)
def l9994(read):
    g = read("grad_school_plans.csv")
    graduate_parent = g[g["pared"] == 1]
    return [("pct_very_likely", pct((graduate_parent["apply"] == "very likely").sum(), len(graduate_parent)), 2)]


@label(9995)
def l9995(read):
    g = read("grad_school_plans.csv")
    assert set(g["apply"]) == {"unlikely", "somewhat likely", "very likely"}
    return [("most_public_category", top_index(g.groupby("apply")["public"].mean()), None)]


@label(9996)
def l9996(read):
    g = read("grad_school_plans.csv")
    return [("gpa_std_somewhat_likely", g.loc[g["apply"] == "somewhat likely", "gpa"].std(ddof=1), 4)]


@label(9997)
def l9997(read):
    c = read("cancer_drug_trial.csv")
    return [("longest_surviving_group", int(top_index(c.groupby("drug")["studytime"].mean())), None)]


@label(9998)
def l9998(read):
    c = read("county_cancer_cases.csv")
    return [("cases_per_100k", 100_000 * c["cancer"].sum() / c["population"].sum(), 2)]


@label(9999)
def l9999(read):
    c = read("county_cancer_cases.csv")
    return [("median_cases_large_counties", c.loc[c["population"] >= 10_000, "cancer"].median(), 1)]


@label(10000)
def l10000(read):
    total = _councils(read)[TOTAL]
    return [("pct_in_three_largest", pct(total.nlargest(3).sum(), total.sum()), 2)]


@label(10001)
def l10001(read):
    c = _councils(read)
    return [("density_smr_correlation", c[DENSITY].corr(c[SMR]), 4)]


@label(10002)
def l10002(read):
    k = read("kidney_hospital_days.csv")
    table = k.pivot_table(index="Weight", columns="Duration", values="Days", aggfunc="mean")
    return [("weight_level_largest_gap", int(top_index(table[1] - table[2])), None)]


@label(10003)
def l10003(read):
    w = _wpi(read)
    return [("pct_change_1960_1990", pct(w["wpi"].iloc[-1] - w["wpi"].iloc[0], w["wpi"].iloc[0]), 2)]


@label(10004)
def l10004(read):
    g = _goog(read)
    return [("busiest_month", top_index(g.groupby("month")["volume"].sum()), None)]


@label(10005)
def l10005(read):
    one, two = _silver(read)
    return [("mean_difference_e7", (one.mean() - two.mean()) * 1e7, 1)]


@label(10006)
def l10006(read):
    coef, _ = _ozone_fit(read)
    return [("slope", coef[1], 6), ("intercept", coef[0], 4)]


# ---------------------------------------------------------------- hard
@label(10007)
def l10007(read):
    m = read("marriage_survey.csv")
    observed = pd.crosstab(m["nchildren"], m["naffairs"] > 0)
    assert observed.shape == (2, 2)
    chi2, p, _, _ = stats.chi2_contingency(observed, correction=False)
    return [("chi_square", chi2, 4), ("p_value", p, 4)]


@label(10008)
def l10008(read):
    m = read("marriage_survey.csv")
    coef, _ = ols(m["naffairs"], m["rate_marriage"], m["age"], m["nmarried"], m["religious"])
    return [("rate_marriage_coefficient", coef[1], 4)]


@label(10009)
def l10009(read):
    g = read("grad_school_plans.csv")
    public, private = (g.loc[g["public"] == k, "gpa"] for k in (1, 0))
    res = stats.mannwhitneyu(public, private, alternative="two-sided", method="asymptotic", use_continuity=True)
    return [("u_public", res.statistic, 1), ("p_value", res.pvalue, 6)]


@label(10010)
def l10010(read):
    g = read("grad_school_plans.csv")
    coef, _ = ols(g["gpa"], g["pared"], g["public"])
    return [("pared_coefficient", coef[1], 4)]


@label(10011)
def l10011(read):
    c = read("cancer_drug_trial.csv")
    groups = [c.loc[c["drug"] == k, "studytime"] for k in (1, 2, 3)]
    return [("kruskal_h", stats.kruskal(*groups).statistic, 4)]


@label(10012)
def l10012(read):
    c = read("county_cancer_cases.csv")
    rate = 1000 * c["cancer"] / c["population"]
    z = (rate - rate.mean()) / rate.std(ddof=1)
    return [("rate_outlier_counties", int((z.abs() > 3).sum()), None)]


@label(10013)
def l10013(read):
    c = _councils(read)
    coef, _ = ols(c[SMR], c[DENSITY], c[CHANGE])
    return [("change_coefficient", coef[2], 4)]


@label(10014)
def l10014(read):
    k = read("kidney_hospital_days.csv")
    return [("f_statistic", stats.f_oneway(*[k.loc[k["Weight"] == w, "Days"] for w in (1, 2, 3)]).statistic, 4)]


@label(10015)
def l10015(read):
    w = _wpi(read)
    rising = w["wpi"].diff() > 0  # the first quarter has no previous one: not a rise
    run_id = (~rising).cumsum()
    runs = w[rising].groupby(run_id[rising]).agg(length=("t", "size"), start=("t", "first"))
    longest = runs.set_index("start")["length"]
    start = top_index(longest)
    return [("longest_rise_quarters", int(longest[start]), None), ("rise_start", start, None)]


@label(10016)
def l10016(read):
    w = _wpi(read)
    assert (w.groupby("year").size() == 4).all()
    growth = 100 * w.groupby("year")["wpi"].mean().pct_change()
    year = top_index(growth)
    return [("fastest_inflation_year", int(year), None), ("pct_increase", growth[year], 2)]


@label(10017)
def l10017(read):
    g = _goog(read)
    change = g.groupby("month")["close"].mean().pct_change()
    return [("steepest_fall_month", top_index(change, largest=False), None)]


@label(10018)
def l10018(read):
    g = _goog(read)
    year = g["date"].dt.year
    q1 = g.groupby(year)["volume"].transform(lambda v: v.quantile(0.25))
    q3 = g.groupby(year)["volume"].transform(lambda v: v.quantile(0.75))
    fence = 1.5 * (q3 - q1)
    return [("volume_outlier_days", int(((g["volume"] < q1 - fence) | (g["volume"] > q3 + fence)).sum()), None)]


@label(10019)
def l10019(read):
    one, two = _silver(read)
    return [("t_statistic", stats.ttest_ind(one, two, equal_var=True).statistic, 4)]


@label(10020)
def l10020(read):
    _, resid = _ozone_fit(read)
    se = np.sqrt((resid @ resid) / (len(resid) - 2))
    return [("large_residuals", int((np.abs(resid) > 2 * se).sum()), None)]
