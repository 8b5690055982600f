"""Labels of held-out batch K: one function per question id (the first solution, pandas/scipy).

Each function takes ``read`` (table file name -> DataFrame, read from the folder being labelled)
and returns ``[(name, value, decimals), ...]`` in the order of the format's ``@name[...]`` items;
``decimals`` is None for a value written as it is (a count, a label, a year). ``make_labels.py``
renders them (``heldout_common.render``) and checks them. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import ols, pct, render, top_index  # noqa: E402,F401  (render: make_labels)

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"


def _ships_present(read) -> pd.DataFrame:
    s = read("ships.csv")
    assert len(s) == 40
    return s.dropna(subset=["service", "accident"])


def _rates(read) -> pd.DataFrame:
    r = read("german_interest_rates.csv")
    r["period"] = pd.PeriodIndex(r["month"], freq="M")
    assert len(r) == 336 and (r["period"].diff().iloc[1:].map(lambda d: d.n) == 1).all()
    r["year"] = r["period"].dt.year
    return r


def _quarters(read, name: str, count: int) -> pd.DataFrame:
    d = read(name)
    d["period"] = pd.PeriodIndex(d["quarter"], freq="Q")
    assert len(d) == count and (d["period"].diff().iloc[1:].map(lambda x: x.n) == 1).all()
    d["year"], d["qoy"] = d["period"].dt.year, d["period"].dt.quarter
    return d


# ---------------------------------------------------------------- easy
def l9941(read):
    return [("total_incidents", int(read("ships.csv")["accident"].sum()), None)]


def l9942(read):
    return [("long_stays", int((read("medicare_stays.csv")["los"] > 30).sum()), None)]


def l9943(read):
    m = read("medicare_stays.csv")
    return [("median_emergency_stay", m.loc[m["admitype"] == "type3", "los"].median(), 1)]


def l9944(read):
    v = read("vasoconstriction.csv")
    return [("fast_constrictions", int(((v["diagnosis"] == "constrict") & (v["rate"] >= 2.0)).sum()), None)]


def l9945(read):
    me = read("methylation.csv")
    return [("women", int(me.loc[me["gender"] == "F", "id"].nunique()), None)]


def l9946(read):
    f = read("food_expenditure.csv")
    return [("mean_food_large_households", f.loc[f["persons"] >= 4, "food"].mean(), 3)]


def l9947(read):
    mc = read("motorcycle.csv")
    return [("time_of_lowest_accel", mc.loc[top_index(mc["accel"], largest=False), "times"], 1)]


def l9948(read):
    w = read("wind.csv")
    return [("most_frequent_direction", top_index(w.groupby("direction")["frequency"].sum()), None)]


def l9949(read):
    r = read("german_interest_rates.csv").set_index("month")
    return [("peak_short_rate_month", top_index(r["i_short"]), None)]


def l9950(read):
    return [("quarters_above_10pct", int((read("us_money_gnp.csv")["rb"] > 0.10).sum()), None)]


# ---------------------------------------------------------------- medium
def l9951(read):
    totals = _ships_present(read).groupby("ship")[["accident", "service"]].sum()
    rate = 1000 * totals["accident"] / totals["service"]
    best = top_index(rate)
    return [("ship_type", int(best), None), ("incidents_per_1000_months", rate[best], 2)]


def l9952(read):
    s = read("ships.csv")
    assert (s[["co_65_69", "co_70_74", "co_75_79"]].sum(axis=1) <= 1).all()
    period = np.select([s["co_65_69"] == 1, s["co_70_74"] == 1, s["co_75_79"] == 1],
                       ["1965-69", "1970-74", "1975-79"], "1960-64")
    assert (pd.Series(period).map({"1960-64": 1, "1965-69": 2, "1970-74": 3, "1975-79": 4}) == s["yr_con"]).all()
    return [("busiest_construction_period", top_index(s.groupby(period)["accident"].sum()), None)]


def l9953(read):
    m = read("medicare_stays.csv")
    nine = m[m["codes"] == 9]
    return [("emergency_pct", pct((nine["admitype"] == "type3").sum(), len(nine)), 2)]


def l9954(read):
    g = read("medicare_stays.csv").groupby("codes")["los"].agg(["mean", "size"])
    return [("shortest_stay_codes", int(top_index(g.loc[g["size"] >= 50, "mean"], largest=False)), None)]


def l9955(read):
    v = read("vasoconstriction.csv")
    res = stats.ttest_ind(v.loc[v["diagnosis"] == "constrict", "volumne"],
                          v.loc[v["diagnosis"] == "no_constrict", "volumne"], equal_var=False)
    return [("t_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


def l9956(read):
    wide = read("methylation.csv").pivot(index="id", columns="CpG", values="methylation")
    assert wide.shape == (12, 3)
    return [("largest_rise_person", top_index(wide["CpG_2"] - wide["CpG_0"]), None)]


def l9957(read):
    me = read("methylation.csv")
    site = me[me["CpG"] == "CpG_1"]
    assert len(site) == 12
    return [("age_methylation_r", site["age"].corr(site["methylation"]), 4)]


def l9958(read):
    f = read("food_expenditure.csv")
    return [("median_food_share_pct", (100 * f["food"] / f["income"]).median(), 2)]


def l9959(read):
    a = read("motorcycle.csv")["accel"]
    z = (a - a.mean()) / a.std(ddof=1)
    return [("z_outliers", int((z.abs() > 2).sum()), None)]


def l9960(read):
    return [("most_common_strength", top_index(read("wind.csv").groupby("strength")["frequency"].sum()), None)]


def l9961(read):
    r = _rates(read)
    assert (r.groupby("year").size() == 12).all()
    return [("highest_rate_year", int(top_index(r.groupby("year")["i_short"].mean())), None)]


def l9962(read):
    r = read("german_interest_rates.csv")
    return [("inverted_months", int((r["i_short"] > r["i_long"]).sum()), None)]


def l9963(read):
    r = _rates(read)
    seventies = r[(r["year"] >= 1970) & (r["year"] <= 1979)]
    assert len(seventies) == 120
    return [("long_rate_sd_1970s", seventies["i_long"].std(ddof=1), 4)]


def l9964(read):
    yearly = _quarters(read, "us_money_gnp.csv", 136).groupby("year")["gnp"].mean()
    return [("gnp_change_pct", 100 * (yearly[1982] / yearly[1981] - 1), 2)]


def l9965(read):
    gnp = _quarters(read, "us_money_gnp.csv", 136)["gnp"]
    return [("falling_quarters", int((gnp.diff() < 0).sum()), None)]


def l9966(read):
    d = _quarters(read, "german_income.csv", 112)
    ratio = (d["cons"] / d["inc"]).groupby(d["qoy"]).mean()
    return [("peak_spending_quarter", int(top_index(ratio)), None)]


# ---------------------------------------------------------------- hard
def l9967(read):
    totals = _ships_present(read).groupby("yr_op")[["accident", "service"]].sum()
    rate = totals["accident"] / totals["service"]
    return [("rate_change_pct", 100 * (rate[2] / rate[1] - 1), 2)]


def l9968(read):
    m = read("medicare_stays.csv")
    first = m.loc[m["admitype"] == "type3", "los"].to_numpy(float)
    second = m.loc[m["admitype"] == "type1|2", "los"].to_numpy(float)
    res = stats.mannwhitneyu(first, second, alternative="two-sided", method="asymptotic")
    n1, n2 = len(first), len(second)
    n = n1 + n2
    ties = pd.Series(np.concatenate([first, second])).value_counts().to_numpy(float)
    sd = math.sqrt(n1 * n2 / 12 * ((n + 1) - (ties**3 - ties).sum() / (n * (n - 1))))
    return [("u_statistic", res.statistic, 1), ("z_statistic", (res.statistic - n1 * n2 / 2) / sd, 4)]


def l9969(read):
    count = 0
    for _, group in read("medicare_stays.csv").groupby("admitype"):
        q1, q3 = group["los"].quantile([0.25, 0.75])
        iqr = q3 - q1
        count += int(((group["los"] < q1 - 1.5 * iqr) | (group["los"] > q3 + 1.5 * iqr)).sum())
    return [("iqr_outliers", count, None)]


def l9970(read):
    m = read("medicare_stays.csv")
    table = pd.crosstab(m["admitype"], m["codes"] == 9)
    assert table.shape == (2, 2)
    return [("chi_square", stats.chi2_contingency(table, correction=False)[0], 4)]


def l9971(read):
    v = read("vasoconstriction.csv")
    no = v[v["diagnosis"] == "no_constrict"]
    return [("log_log_slope", ols(no["log_volumne"], no["log_rate"])[0][1], 4)]


def l9972(read):
    me = read("methylation.csv")
    assert (me.groupby("id")["gender"].nunique() == 1).all()
    person = me.groupby("id").agg(gender=("gender", "first"), mean=("methylation", "mean"))
    res = stats.ttest_ind(person.loc[person["gender"] == "F", "mean"], person.loc[person["gender"] == "M", "mean"],
                          equal_var=False)
    return [("t_statistic", res.statistic, 4)]


def l9973(read):
    f = read("food_expenditure.csv")
    return [("persons_coefficient", ols(f["food"], f["income"], f["persons"])[0][2], 4)]


def l9974(read):
    mc = read("motorcycle.csv")
    window = (np.floor(mc["times"] / 10) * 10).astype(int)
    return [("most_variable_window", int(top_index(mc.groupby(window)["accel"].std(ddof=1))), None)]


def l9975(read):
    wide = read("wind.csv").pivot(index="direction", columns="strength", values="frequency")
    assert wide.shape == (16, 8) and wide.notna().all().all()
    share = 100 * (wide["0-1"] + wide["1-2"]) / wide.sum(axis=1)
    return [("lightest_wind_direction", top_index(share), None)]


def l9976(read):
    r = _rates(read)
    return [("change_correlation", r["i_short"].diff().corr(r["i_long"].diff()), 4)]


def l9977(read):
    r = _rates(read)
    inverted = r["i_short"] > r["i_long"]
    run_id = (inverted != inverted.shift()).cumsum()
    runs = r[inverted].groupby(run_id[inverted])["month"].agg(["first", "size"])
    best = top_index(runs["size"])
    return [("longest_inversion_months", int(runs.loc[best, "size"]), None),
            ("inversion_start", runs.loc[best, "first"], None)]


def l9978(read):
    u = read("us_money_gnp.csv")
    return [("income_elasticity", ols(np.log(u["M1"]), np.log(u["gnp"]), u["rb"])[0][1], 4)]


def l9979(read):
    d = _quarters(read, "german_income.csv", 112).set_index("quarter")
    growth = 100 * (d["inc"] / d["inc"].shift(4) - 1)
    best = top_index(growth)
    return [("fastest_growth_quarter", best, None), ("growth_pct", growth[best], 2)]


def l9980(read):
    d = _quarters(read, "german_income.csv", 112)
    ratio = d["cons"] / d["inc"]
    groups = [ratio[d["qoy"] == k] for k in (1, 2, 3, 4)]
    assert all(len(g) == 28 for g in groups)
    return [("f_statistic", stats.f_oneway(*groups).statistic, 4)]


LABELS = {int(name[1:]): fn for name, fn in dict(globals()).items() if name[0] == "l" and name[1:].isdigit()}
