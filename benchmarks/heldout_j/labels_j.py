"""Labels of held-out batch J: one function per question id (the first solution, pandas/scipy).

Each is registered with ``@label(id)``; what a function takes and returns, the writing of values and
the helpers the batches share are ``heldout_common``'s (``label_registry``). ``make_labels.py``
renders and checks them. Do not read this file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from scipy import stats

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
sys.path.append(str(HERE.parent))  # benchmarks/, for heldout_common
from heldout_common import label_registry, ols, pct, render, top_index  # noqa: E402,F401  (render: make_labels)

LABELS, label = label_registry()


def _google(read) -> pd.DataFrame:
    g = read("google_prices.csv")
    g["date"] = pd.to_datetime(g["date"], format="%Y-%m-%d")
    assert g["date"].is_monotonic_increasing and g["date"].is_unique and len(g) == 1047
    return g


def _month_end_close(read) -> pd.Series:
    g = _google(read)
    return g.groupby(g["date"].dt.to_period("M"))["close"].last()


def _manufacturing(read) -> pd.DataFrame:
    m = read("manufacturing.csv")
    parts = m["month"].str.extract(r"^(\d{4})m(\d{1,2})$").astype(int)
    m["year"], m["mon"] = parts[0], parts[1]
    m["period"] = pd.PeriodIndex.from_fields(year=m["year"], month=m["mon"], freq="M")
    assert m["period"].is_monotonic_increasing and m["period"].is_unique and len(m) == 444
    return m


def _german(read) -> pd.DataFrame:
    g = read("german_macro.csv")
    parts = g["qtr"].str.extract(r"^(\d{4})q([1-4])$").astype(int)
    g["year"], g["quarter"] = parts[0], parts[1]
    assert (g["year"] * 4 + g["quarter"]).diff().dropna().eq(1).all() and len(g) == 92
    return g


# ---------------------------------------------------------------- easy
@label(9901)
def l9901(read):
    b = read("births.csv")
    return [("unmarried_teen_births", int(((b["mage"] < 20) & (b["mmarried"] == "notmarried")).sum()), None)]


@label(9902)
def l9902(read):
    return [("median_doctor_visits", read("doctor_visits.csv")["docvis"].median(), 1)]


@label(9903)
def l9903(read):
    b = read("bone_marrow.csv")
    return [("high_risk_events", int(((b["Group"] == "AML-High Risk") & (b["Status"] == 1)).sum()), None)]


@label(9904)
def l9904(read):
    g = _google(read).set_index("date")
    return [("busiest_day", top_index(g["volume"]).strftime("%Y-%m-%d"), None)]


@label(9905)
def l9905(read):
    m = read("manufacturing.csv").set_index("month")
    return [("lowest_utilization_month", top_index(m["caputil"], largest=False), None)]


@label(9906)
def l9906(read):
    w = read("young_men_wages.csv")
    return [("married_pct", pct((w["mrt"] == 1).sum(), len(w)), 2)]


@label(9907)
def l9907(read):
    h = read("heart_transplant.csv")
    assert len(h) == 69
    return [("mean_age", h["age"].mean(), 2)]


@label(9908)
def l9908(read):
    p = read("pastes.csv")
    assert len(p) == 60
    return [("strength_sd", p["strength"].std(ddof=1), 3)]


@label(9909)
def l9909(read):
    g = read("german_macro.csv").set_index("qtr")
    return [("peak_investment_quarter", top_index(g["inv"]), None)]


@label(9910)
def l9910(read):
    b = read("births.csv")
    return [("first_baby_mean_weight", b.loc[b["fbaby"] == "Yes", "bweight"].mean(), 2)]


# ---------------------------------------------------------------- medium
@label(9911)
def l9911(read):
    b = read("births.csv")
    u = b[b["mmarried"] == "notmarried"]
    return [("unmarried_smoker_pct", pct((u["mbsmoke"] == "smoker").sum(), len(u)), 2)]


@label(9912)
def l9912(read):
    b = read("births.csv")
    m = b.groupby("msmoke")["bweight"].mean()
    assert len(m) == 4
    level = top_index(m, largest=False)
    return [("lightest_smoking_level", level, None), ("mean_weight", m[level], 2)]


@label(9913)
def l9913(read):
    d = read("doctor_visits.csv")
    g = d.groupby("totchr")["docvis"]
    means = g.mean()[g.size() >= 100]
    return [("busiest_chronic_count", int(top_index(means)), None)]


@label(9914)
def l9914(read):
    d = read("doctor_visits.csv")
    w = d[d["female"] == 1]
    return [("women_no_visit_pct", pct((w["docvis"] == 0).sum(), len(w)), 2)]


@label(9915)
def l9915(read):
    b = read("bone_marrow.csv")
    med = b[b["Status"] == 1].groupby("Group")["T"].median()
    assert len(med) == 3
    return [("fastest_event_group", top_index(med, largest=False), None)]


@label(9916)
def l9916(read):
    g = _google(read)
    m = g.groupby(g["date"].dt.to_period("M"))["close"].mean()
    return [("peak_month", str(top_index(m)), None)]


@label(9917)
def l9917(read):
    g = _google(read)
    last = g.groupby(g["date"].dt.year)["close"].last()
    return [("growth_2006_pct", 100 * (last[2006] / last[2005] - 1), 2)]


@label(9918)
def l9918(read):
    m = _manufacturing(read)
    assert m.groupby("year").size().eq(12).all() and m["year"].nunique() == 37
    return [("weakest_year", int(top_index(m.groupby("year")["caputil"].mean(), largest=False)), None)]


@label(9919)
def l9919(read):
    m = read("manufacturing.csv")
    return [("hours_utilization_r", m["hours"].corr(m["caputil"]), 4)]


@label(9920)
def l9920(read):
    g = _german(read)
    total = g.groupby("year")["consump"].sum()
    assert g.groupby("year").size().eq(4).all()
    return [("consumption_growth_pct", 100 * (total[1980] / total[1970] - 1), 2)]


@label(9921)
def l9921(read):
    w = read("young_men_wages.csv")
    south = w[w["rns"] == 1]
    return [("left_south_pct", pct((south["rns80"] == 0).sum(), len(south)), 2)]


@label(9922)
def l9922(read):
    w = read("young_men_wages.csv")
    return [("more_schooling", int((w["s80"] > w["s"]).sum()), None)]


@label(9923)
def l9923(read):
    h = read("heart_transplant.csv")
    return [("median_survival_days", h.loc[h["censors"] == 1, "survival"].median(), 1)]


@label(9924)
def l9924(read):
    p = read("pastes.csv")
    wide = p.pivot_table(index="batch", columns="cask", values="strength", aggfunc="mean")
    assert wide.shape == (10, 3) and p.groupby(["batch", "cask"]).size().eq(2).all()
    assert (wide["a"] - wide["c"]).abs().min() > 1e-6
    return [("cask_a_stronger", int((wide["a"] > wide["c"]).sum()), None)]


@label(9925)
def l9925(read):
    g = _google(read)
    high = g[g["close"] > 600]
    return [("months_above_600", int(high["date"].dt.to_period("M").nunique()), None)]


@label(9926)
def l9926(read):
    g = _german(read)
    return [("investment_falls", int((g["inv"].diff() < 0).sum()), None)]


# ---------------------------------------------------------------- hard
@label(9927)
def l9927(read):
    b = read("births.csv")
    table = pd.crosstab(b["msmoke"], b["lbweight"])
    assert table.shape == (4, 2)
    chi2, _, _, _ = stats.chi2_contingency(table, correction=False)
    return [("chi_square", chi2, 2)]


@label(9928)
def l9928(read):
    b = read("births.csv")
    coef, _ = ols(b["bweight"], b["mage"], b["medu"], b["mbsmoke_"])
    return [("smoking_coefficient", coef[3], 2)]


@label(9929)
def l9929(read):
    v = read("doctor_visits.csv")["docvis"]
    q1, q3 = v.quantile(0.25), v.quantile(0.75)
    hi = q3 + 1.5 * (q3 - q1)
    assert (v - hi).abs().min() > 1e-6
    return [("high_visit_outliers", int((v > hi).sum()), None)]


@label(9930)
def l9930(read):
    d = read("doctor_visits.csv")
    res = stats.mannwhitneyu(d.loc[d["female"] == 1, "docvis"], d.loc[d["female"] == 0, "docvis"],
                             alternative="two-sided", use_continuity=True, method="asymptotic")
    return [("u_statistic", res.statistic, 1), ("p_value", res.pvalue, 4)]


@label(9931)
def l9931(read):
    b = read("bone_marrow.csv")
    a = b[b["Group"] == "ALL"]
    surv = 1.0
    for t in sorted(a.loc[(a["Status"] == 1) & (a["T"] <= 365), "T"].unique()):
        events = ((a["T"] == t) & (a["Status"] == 1)).sum()
        at_risk = (a["T"] >= t).sum()
        surv *= 1 - events / at_risk
    return [("one_year_survival", surv, 4)]


@label(9932)
def l9932(read):
    b = read("bone_marrow.csv")
    res = stats.kruskal(*[g["T"].to_numpy() for _, g in b.groupby("Group")])
    return [("h_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


@label(9933)
def l9933(read):
    close = _month_end_close(read)
    ret = (close.pct_change() * 100).dropna()
    worst = top_index(ret, largest=False)
    return [("worst_month", str(worst), None), ("worst_return_pct", ret[worst], 2)]


@label(9934)
def l9934(read):
    g = _google(read)
    r = (g["close"].pct_change() * 100).dropna()
    z = (r - r.mean()) / r.std(ddof=1)
    assert (z.abs() - 3).abs().min() > 1e-6
    return [("return_outliers", int((z.abs() > 3).sum()), None)]


@label(9935)
def l9935(read):
    m = _manufacturing(read).set_index("month")
    change = m["caputil"] - m["caputil"].shift(12)
    return [("steepest_yearly_fall", top_index(change.dropna(), largest=False), None)]


@label(9936)
def l9936(read):
    h = read("heart_transplant.csv")
    res = stats.ttest_ind(h.loc[h["censors"] == 1, "age"], h.loc[h["censors"] == 0, "age"], equal_var=False)
    return [("t_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


@label(9937)
def l9937(read):
    g = _german(read)
    assert g.groupby("year").size().eq(4).all()
    y = g.groupby("year")[["inc", "consump"]].sum()
    return [("peak_saving_year", int(top_index(100 * (1 - y["consump"] / y["inc"]))), None)]


@label(9938)
def l9938(read):
    w = read("young_men_wages.csv")
    coef, _ = ols(w["lw80"], w["s80"], w["expr80"], w["iq"])
    return [("schooling_return", coef[1], 4)]


@label(9939)
def l9939(read):
    w = read("young_men_wages.csv")
    first = w[["s", "lw"]]
    later = w[["s80", "lw80"]].set_axis(["s", "lw"], axis=1)
    long = pd.concat([first, later], ignore_index=True)
    assert len(long) == 1516
    return [("schooling_wage_r", long["s"].corr(long["lw"]), 4)]


@label(9940)
def l9940(read):
    p = read("pastes.csv")
    res = stats.f_oneway(*[g["strength"].to_numpy() for _, g in p.groupby("batch")])
    return [("f_statistic", res.statistic, 4)]
