"""Labels of held-out batch I: one function per question id (the first solution, pandas/scipy).

Each is registered with ``@label(id)``; what a function takes and returns, the writing of values and
the helpers the batches share are ``heldout_common``'s (``label_registry``). ``make_labels.py``
renders and checks them. Do not read this file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
sys.path.append(str(HERE.parent))  # benchmarks/, for heldout_common
from heldout_common import label_registry, ols, pct, render, top_index  # noqa: E402,F401  (render: make_labels)

LABELS, label = label_registry()
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def _housing(read) -> pd.DataFrame:
    h = read("housing_starts.csv")
    h["DATE"] = pd.to_datetime(h["DATE"], format="%Y-%m-%d")
    assert h["DATE"].is_monotonic_increasing and h["DATE"].dt.day.eq(1).all() and len(h) == 714
    return h


def _annual(read) -> pd.Series:
    h = _housing(read)
    h = h[h["DATE"].dt.year.between(1959, 2017)]
    counts = h.groupby(h["DATE"].dt.year).size()
    assert counts.eq(12).all() and len(counts) == 59
    return h.groupby(h["DATE"].dt.year)["HOUSTNSA"].sum()


def _elec(read) -> pd.DataFrame:
    e = read("elec_vic.csv")
    e["ds"] = pd.to_datetime(e["ds"], format="%Y-%m-%d %H:%M:%S")
    assert e["ds"].is_unique and len(e) == 3600
    return e


def _daily(read) -> pd.Series:
    e = _elec(read)
    g = e.groupby(e["ds"].dt.date)["y"]
    assert g.size().eq(24).all() and len(g.size()) == 150
    return g.mean()


def _macro(read) -> pd.DataFrame:
    m = read("us_macro.csv")
    m["Date"] = pd.to_datetime(m["Date"], format="%m/%d/%y")
    assert m["Date"].is_monotonic_increasing and m["Date"].dt.year.between(1985, 2016).all()
    return m


def _epil_totals(read) -> pd.DataFrame:
    e = read("epil.csv")
    assert e.groupby("subject").size().eq(4).all()
    return e.groupby(["subject", "trt"], as_index=False)["y"].agg(["sum", "mean"])


# ---------------------------------------------------------------- easy
@label(9801)
def l9801(read):
    b = read("lbw.csv")
    return [("smoking_low_births", int(((b["smoke"] == 1) & (b["low"] == 1)).sum()), None)]


@label(9802)
def l9802(read):
    return [("most_common_make", top_index(read("autos.csv")["make"].value_counts()), None)]


@label(9803)
def l9803(read):
    h = _housing(read).set_index("DATE")
    return [("busiest_month", top_index(h["HOUSTNSA"]).strftime("%Y-%m"), None)]


@label(9804)
def l9804(read):
    return [("mean_food_expenditure", read("engel.csv")["foodexp"].mean(), 2)]


@label(9805)
def l9805(read):
    f = read("framing.csv")
    return [("very_anxious_women", int(((f["gender"] == "female") & (f["anx"] == "very anxious")).sum()), None)]


@label(9806)
def l9806(read):
    e = _elec(read).set_index("ds")
    return [("peak_demand_hour", top_index(e["y"]).strftime("%Y-%m-%d %H:%M"), None)]


@label(9807)
def l9807(read):
    d = read("dietox.csv")
    return [("heavy_pigs", int((d.loc[d["Time"] == 12, "Weight"] > 100).sum()), None)]


@label(9808)
def l9808(read):
    e = read("epil.csv")
    return [("progabide_patients", int(e.loc[e["trt"] == "progabide", "subject"].nunique()), None)]


@label(9809)
def l9809(read):
    a = read("autos.csv")
    return [("median_diesel_price", a.loc[a["fuel"] == "diesel", "price"].dropna().median(), 1)]


@label(9810)
def l9810(read):
    return [("high_unemployment_months", int((_macro(read)["UNRATE"] >= 8.0).sum()), None)]


# ---------------------------------------------------------------- medium
@label(9811)
def l9811(read):
    b = read("lbw.csv")
    m = b.groupby("smoke")["bwt"].mean()
    return [("weight_gap_grams", m[0] - m[1], 1)]


@label(9812)
def l9812(read):
    a = read("autos.csv").dropna(subset=["price"])
    g = a.groupby("style")["price"]
    med = g.median()[g.size() >= 10]
    return [("priciest_style", top_index(med), None)]


@label(9813)
def l9813(read):
    return [("peak_year", int(top_index(_annual(read))), None)]


@label(9814)
def l9814(read):
    return [("lowest_demand_day", str(top_index(_daily(read), largest=False)), None)]


@label(9815)
def l9815(read):
    e = read("engel.csv")
    return [("income_food_correlation", e["income"].corr(e["foodexp"]), 4)]


@label(9816)
def l9816(read):
    d = read("dietox.csv")
    return [("heaviest_cu_group", int(top_index(d[d["Time"] == 12].groupby("Cu")["Weight"].mean())), None)]


@label(9817)
def l9817(read):
    m = _epil_totals(read).groupby("trt")["sum"].mean()
    return [("extra_seizures", m["placebo"] - m["progabide"], 2)]


@label(9818)
def l9818(read):
    f = read("framing.csv")
    s = f[f["english"] == "Strongly Oppose"]
    return [("degree_share_pct", pct((s["educ"] == "bachelor's degree or higher").sum(), len(s)), 2)]


@label(9819)
def l9819(read):
    m = _macro(read).set_index("Date")["CPIAUCSL"]
    return [("cpi_inflation_pct", 100 * (m[pd.Timestamp("2016-05-01")] / m[pd.Timestamp("2015-05-01")] - 1), 2)]


@label(9820)
def l9820(read):
    a = read("autos.csv")
    assert len(a) == 205
    diesel = a["fuel"] == "diesel"
    return [("diesel_makes", int(a.loc[diesel, "make"].nunique()), None),
            ("diesel_share_pct", pct(diesel.sum(), len(a)), 2)]


@label(9821)
def l9821(read):
    rate = read("lbw.csv").groupby("race")["low"].mean() * 100
    race = top_index(rate)
    return [("riskiest_race", race, None), ("low_weight_pct", rate[race], 2)]


@label(9822)
def l9822(read):
    h = _housing(read)
    h = h[h["DATE"].dt.year.between(1959, 2017)]
    month = int(top_index(h.groupby(h["DATE"].dt.month)["HOUSTNSA"].mean()))
    return [("peak_calendar_month", MONTHS[month - 1], None)]


@label(9823)
def l9823(read):
    e = _elec(read)
    return [("peak_hour_of_day", int(top_index(e.groupby(e["ds"].dt.hour)["y"].mean())), None)]


@label(9824)
def l9824(read):
    d = read("dietox.csv").sort_values(["Pig", "Time"])
    g = d.groupby("Pig")
    assert g.ngroups == 72 and g["Time"].min().eq(1).all()
    return [("mean_weight_gain", (g["Weight"].last() - g["Weight"].first()).mean(), 2)]


@label(9825)
def l9825(read):
    w = read("epil.csv").pivot(index="subject", columns="period", values="y")
    assert len(w) == 59
    return [("worse_at_end", int((w[4] > w[1]).sum()), None)]


@label(9826)
def l9826(read):
    by_condition = read("framing.csv").groupby("cond")["emo"].mean()
    return [("calmest_condition", int(top_index(by_condition, largest=False)), None)]


# ---------------------------------------------------------------- hard
@label(9827)
def l9827(read):
    a = read("autos.csv").dropna(subset=["price", "hp"])
    coef, _ = ols(a["price"], a["hp"], a["weight"])
    return [("hp_coefficient", coef[1], 3)]


@label(9828)
def l9828(read):
    b = read("lbw.csv")
    table = pd.crosstab(b["race"], b["low"])
    assert table.shape == (3, 2)
    chi2, _, _, _ = stats.chi2_contingency(table, correction=False)
    return [("chi_square", chi2, 4)]


@label(9829)
def l9829(read):
    change = (_annual(read).pct_change() * 100).dropna()
    return [("steepest_drop_year", int(top_index(change, largest=False)), None)]


@label(9830)
def l9830(read):
    d = _daily(read)
    q1, q3 = d.quantile(0.25), d.quantile(0.75)
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    assert ((d - lo).abs().min() > 1e-6) and ((d - hi).abs().min() > 1e-6)
    return [("outlier_days", int(((d < lo) | (d > hi)).sum()), None)]


@label(9831)
def l9831(read):
    e = read("engel.csv")
    coef, _ = ols(np.log(e["foodexp"]), np.log(e["income"]))
    return [("income_elasticity", coef[1], 4)]


@label(9832)
def l9832(read):
    d = read("dietox.csv")
    slopes = d.groupby("Pig").apply(lambda g: ols(g["Weight"], g["Time"])[0][1], include_groups=False)
    return [("fastest_pig", int(top_index(slopes)), None)]


@label(9833)
def l9833(read):
    t = _epil_totals(read)
    res = stats.ttest_ind(t.loc[t["trt"] == "placebo", "mean"], t.loc[t["trt"] == "progabide", "mean"], equal_var=False)
    return [("t_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


@label(9834)
def l9834(read):
    f = read("framing.csv")
    return [("spearman_rho", stats.spearmanr(f["income"], f["p_harm"]).statistic, 4)]


@label(9835)
def l9835(read):
    m = _macro(read).dropna(subset=["GDPC1"]).set_index("Date")["GDPC1"]
    assert m.index.month.isin([3, 6, 9, 12]).all()
    change = (m.pct_change() * 100).dropna()
    worst = top_index(change, largest=False)
    return [("worst_quarter", f"{worst.year}Q{worst.month // 3}", None)]


@label(9836)
def l9836(read):
    m = _macro(read)
    du = m["UNRATE"].diff()
    dp = (m["PAYEMS"] / m["PAYEMS"].shift(1) - 1) * 100
    ok = du.notna() & dp.notna()
    return [("change_correlation", du[ok].corr(dp[ok]), 4)]


@label(9837)
def l9837(read):
    p = read("autos.csv")["price"].dropna()
    z = (p - p.mean()) / p.std(ddof=1)
    assert (z.abs() - 3).abs().min() > 1e-6
    return [("price_outliers", int((z.abs() > 3).sum()), None)]


@label(9838)
def l9838(read):
    b = read("lbw.csv")
    _, r2 = ols(b["bwt"], b["lwt"], b["age"], b["smoke"])
    return [("r_squared", r2, 4)]


@label(9839)
def l9839(read):
    h = _housing(read).set_index("DATE")
    ma = h["HOUSTNSA"].rolling(12).mean()
    peak = top_index(ma)
    return [("peak_month", peak.strftime("%Y-%m"), None), ("peak_average", ma[peak], 2)]


@label(9840)
def l9840(read):
    e = _elec(read)
    weekend = e["ds"].dt.day_of_week >= 5
    return [("weekday_excess_pct", 100 * (e.loc[~weekend, "y"].mean() / e.loc[weekend, "y"].mean() - 1), 2)]
