"""Labels of held-out batch F: one function per question id (the first solution, pandas/scipy).

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
from heldout_common import label_registry, pct, render, top_index  # noqa: E402,F401  (render: make_labels)

LABELS, label = label_registry()
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _long_elnino(read) -> pd.DataFrame:
    wide = read("elnino.csv")
    long = wide.melt(id_vars="YEAR", value_vars=MONTHS, var_name="month", value_name="temp")
    long["month_no"] = long["month"].map({m: i + 1 for i, m in enumerate(MONTHS)})
    return long


def _annual_complete(read, column: str) -> pd.Series:
    m = read("macrodata.csv")
    counts = m.groupby("year")[column].count()
    means = m.groupby("year")[column].mean()
    return means[counts == 4]


# ---------------------------------------------------------------- easy
@label(9501)
def l9501(read):
    s = read("statecrime.csv")
    return [("states_above_15", int((s["poverty"] > 15).sum()), None)]


@label(9502)
def l9502(read):
    g = read("grunfeld.csv")
    return [("ibm_mean_invest", g.loc[g["firm"] == "IBM", "invest"].mean(), 2)]


@label(9503)
def l9503(read):
    m = read("macrodata.csv")
    row = m.loc[top_index(m["unemp"])]
    return [("peak_quarter", f"{int(row['year'])}Q{int(row['quarter'])}", None)]


@label(9504)
def l9504(read):
    return [("quiet_years", int((read("sunspots.csv")["SUNACTIVITY"] < 10).sum()), None)]


@label(9505)
def l9505(read):
    return [("median_volume", read("nile.csv")["volume"].median(), 1)]


@label(9506)
def l9506(read):
    f = read("fair.csv")
    return [("pct_any_affair", pct((f["affairs"] > 0).sum(), len(f)), 2)]


@label(9507)
def l9507(read):
    return [("dole_voters", int((read("anes96.csv")["vote"] == 1).sum()), None)]


@label(9508)
def l9508(read):
    e = read("elnino.csv").set_index("YEAR")
    return [("coolest_month_1997", top_index(e.loc[1997, MONTHS].astype(float), largest=False), None)]


@label(9509)
def l9509(read):
    c = read("china_smoking.csv")
    return [("total_people", int(c.drop(columns="Location").to_numpy().sum()), None)]


@label(9510)
def l9510(read):
    s = read("statecrime.csv").set_index("state")
    return [("safest_state", top_index(s["violent"], largest=False), None)]


# ---------------------------------------------------------------- medium
@label(9511)
def l9511(read):
    totals = read("grunfeld.csv").groupby("firm")["invest"].sum().sort_values(ascending=False)
    assert totals.iloc[2] - totals.iloc[3] > 1e-9
    return [("top3_firms", ", ".join(totals.index[:3]), None)]


@label(9512)
def l9512(read):
    annual = _annual_complete(read, "unemp")
    assert annual.index.min() == 1959 and annual.index.max() == 2008 and len(annual) == 50
    return [("worst_year", int(top_index(annual)), None)]


@label(9513)
def l9513(read):
    f = read("fair.csv")
    group = f[f["rate_marriage"] == 1]
    return [("pct_affair_very_poor", pct((group["affairs"] > 0).sum(), len(group)), 2)]


@label(9514)
def l9514(read):
    s = read("statecrime.csv")
    return [("r_poverty_murder", s["poverty"].corr(s["murder"]), 4)]


@label(9515)
def l9515(read):
    a = read("anes96.csv")
    group = a[a["PID"] == 6]
    return [("pct_clinton_strong_rep", pct((group["vote"] == 0).sum(), len(group)), 2)]


@label(9516)
def l9516(read):
    s = read("sunspots.csv")
    decades = s.groupby(s["YEAR"] // 10 * 10)["SUNACTIVITY"].mean()
    return [("top_decade", int(top_index(decades)), None)]


@label(9517)
def l9517(read):
    change = read("nile.csv").set_index("year")["volume"].diff()
    return [("year_biggest_drop", int(top_index(change, largest=False)), None)]


@label(9518)
def l9518(read):
    return [("warmest_month", top_index(read("elnino.csv")[MONTHS].mean()), None)]


@label(9519)
def l9519(read):
    m = read("macrodata.csv").set_index(["year", "quarter"])["realgdp"]
    return [("gdp_growth_pct", 100 * (m.loc[(2009, 3)] / m.loc[(1959, 1)] - 1), 2)]


@label(9520)
def l9520(read):
    g = read("grunfeld.csv")
    v = g[g["firm"] == "General Electric"].set_index("year")["value"]
    return [("ge_value_change_pct", 100 * (v.loc[1954] / v.loc[1935] - 1), 2)]


@label(9521)
def l9521(read):
    c = read("china_smoking.csv").set_index("Location")
    share = c["smoking_yes_cancer_yes"] / (c["smoking_yes_cancer_yes"] + c["smoking_no_cancer_yes"])
    return [("city", top_index(share), None)]


@label(9522)
def l9522(read):
    f = read("fair.csv")
    return [("educ_occupation_pairs", int(len(f[["educ", "occupation"]].drop_duplicates())), None)]


@label(9523)
def l9523(read):
    murder = read("statecrime.csv")["murder"]
    z = (murder - murder.mean()) / murder.std(ddof=1)
    return [("murder_outliers", int((z.abs() > 2).sum()), None)]


@label(9524)
def l9524(read):
    gdp = read("macrodata.csv")["realgdp"]
    return [("falling_quarters", int((gdp.diff() < 0).sum()), None)]


@label(9525)
def l9525(read):
    return [("educ_code", int(top_index(read("anes96.csv").groupby("educ")["age"].mean())), None)]


@label(9526)
def l9526(read):
    x = read("sunspots.csv")["SUNACTIVITY"]
    q1, q3 = x.quantile(0.25), x.quantile(0.75)
    iqr = q3 - q1
    return [("iqr_outliers", int(((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)).sum()), None)]


# ---------------------------------------------------------------- hard
@label(9527)
def l9527(read):
    f = read("fair.csv")
    had = f["affairs"] > 0
    result = stats.ttest_ind(f.loc[had, "age"], f.loc[~had, "age"], equal_var=False)
    return [("t_statistic", result.statistic, 4), ("significant", "yes" if result.pvalue < 0.05 else "no", None)]


@label(9528)
def l9528(read):
    f = read("fair.csv")
    table = pd.crosstab(f["religious"], f["affairs"] > 0)
    chi2, _, dof, _ = stats.chi2_contingency(table, correction=False)
    return [("chi2", chi2, 2), ("dof", int(dof), None)]


@label(9529)
def l9529(read):
    c = read("china_smoking.csv")
    a, b = c["smoking_yes_cancer_yes"], c["smoking_yes_cancer_no"]
    cc, d = c["smoking_no_cancer_yes"], c["smoking_no_cancer_no"]
    n = a + b + cc + d
    return [("mh_odds_ratio", (a * d / n).sum() / (b * cc / n).sum(), 4)]


@label(9530)
def l9530(read):
    annual = _annual_complete(read, "realgdp")
    growth = 100 * (annual / annual.shift(1) - 1)
    year = int(top_index(growth))
    return [("year", year, None), ("growth_pct", growth.loc[year], 2)]


@label(9531)
def l9531(read):
    m = read("macrodata.csv")
    x = 100 * (m["realgdp"] / m["realgdp"].shift(1) - 1)
    y = m["unemp"].diff()
    keep = x.notna() & y.notna()
    assert keep.sum() == 202
    fit = stats.linregress(x[keep], y[keep])
    return [("slope", fit.slope, 4), ("intercept", fit.intercept, 4)]


@label(9532)
def l9532(read):
    g = read("grunfeld.csv")
    slopes = pd.Series(
        {firm: stats.linregress(rows["value"], rows["invest"]).slope for firm, rows in g.groupby("firm")}
    )
    return [("firm", top_index(slopes), None)]


@label(9533)
def l9533(read):
    g = read("grunfeld.csv")
    total = g.groupby("year")["invest"].sum()
    gm = g[g["firm"] == "General Motors"].set_index("year")["invest"]
    share = 100 * gm / total
    year = int(top_index(share))
    return [("year", year, None), ("gm_share_pct", share.loc[year], 2)]


@label(9534)
def l9534(read):
    temp = _long_elnino(read)["temp"]
    assert len(temp) == 732
    return [("warm_readings", int((temp > temp.mean() + 2 * temp.std(ddof=1)).sum()), None)]


@label(9535)
def l9535(read):
    long = _long_elnino(read)
    long["anomaly"] = long["temp"] - long.groupby("month")["temp"].transform("mean")
    key = top_index(long.set_index(["YEAR", "month_no"])["anomaly"])
    return [("peak_anomaly", f"{key[0]:04d}-{key[1]:02d}", None)]


@label(9536)
def l9536(read):
    s = read("sunspots.csv").set_index("YEAR")["SUNACTIVITY"]
    moving = s.rolling(11, center=True).mean().dropna()
    assert moving.index.min() == 1705 and moving.index.max() == 2003
    return [("centre_year", int(top_index(moving)), None)]


@label(9537)
def l9537(read):
    n = read("nile.csv")
    early, late = n.loc[n["year"] <= 1897, "volume"], n.loc[n["year"] >= 1898, "volume"]
    assert len(early) == 27 and len(late) == 73
    return [("t_statistic", stats.ttest_ind(early, late, equal_var=True).statistic, 3)]


@label(9538)
def l9538(read):
    s = read("statecrime.csv")
    s = s[s["state"] != "District of Columbia"]
    assert len(s) == 50
    fit = stats.linregress(s["single"], s["violent"])
    return [("slope", fit.slope, 3), ("r_squared", fit.rvalue**2, 4)]


@label(9539)
def l9539(read):
    a = read("anes96.csv")
    closer = (a["selfLR"] - a["DoleLR"]).abs() < (a["selfLR"] - a["ClinLR"]).abs()
    return [("closer_to_dole_vote_clinton", int((closer & (a["vote"] == 0)).sum()), None)]


@label(9540)
def l9540(read):
    f = read("fair.csv")
    share = f.assign(any_affair=f["affairs"] > 0).groupby("occupation")["any_affair"].mean()
    return [("occupation_code", int(top_index(share)), None)]


assert sorted(LABELS) == list(range(9501, 9541)), sorted(LABELS)
