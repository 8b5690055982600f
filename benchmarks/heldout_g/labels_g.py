"""Labels of held-out batch G: one function per question id (the first solution, pandas/scipy).

Each is registered with ``@label(id)``; what a function takes and returns, the writing of values and
the helpers the batches share are ``heldout_common``'s (``label_registry``). ``make_labels.py``
renders and checks them. Do not read this file before a measurement of the batch.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
sys.path.append(str(HERE.parent))  # benchmarks/, for heldout_common
from heldout_common import label_registry, month_text, pct, render, top_index  # noqa: E402,F401  (render: make_labels)

LABELS, label = label_registry()
INDEX = "STS.M.I7.W.TOVT.NS0016.4.000"


def _elec(read) -> pd.Series:
    e = read("elec_equip.csv")
    e["date"] = pd.to_datetime(e["DATE"], format="%b-%d-%Y")
    series = e.set_index("date")[INDEX].sort_index()
    assert series.index.is_unique and len(series) == 257
    return series


def _star_pct(read) -> pd.DataFrame:
    s = read("star98.csv")
    s["pct_above"] = 100 * s["PR50M"] / s["MATHTOT"]
    return s


def _danish(read) -> pd.DataFrame:
    d = read("danish_data.csv")
    assert list(d.columns)[0] == "period", d.columns  # pandas drops the byte order mark
    d["year"] = d["period"].str[:4].astype(int)
    d["quarter"] = d["period"].str[-1].astype(int)
    return d


def _choices(read) -> pd.DataFrame:
    """One row per traveller: the chosen mode."""
    m = read("modechoice.csv")
    chosen = m[m["choice"] == 1]
    assert chosen["individual"].is_unique and len(chosen) == 210
    return chosen


# ---------------------------------------------------------------- easy
@label(9601)
def l9601(read):
    c = read("cpunish.csv")
    return [("south_executions", int(c.loc[c["SOUTH"] == 1, "EXECUTIONS"].sum()), None)]


@label(9602)
def l9602(read):
    c = read("committee.csv").set_index("COMMITTEE")
    return [("busiest_committee", top_index(c["BILLS104"]), None)]


@label(9603)
def l9603(read):
    return [("districts_over_60", int((read("scotvote.csv")["YES"] > 60).sum()), None)]


@label(9604)
def l9604(read):
    return [("mean_visits", read("randhie.csv")["mdvis"].mean(), 2)]


@label(9605)
def l9605(read):
    lo = read("longley.csv").set_index("YEAR")["UNEMP"]
    return [("lowest_unemployment_year", int(top_index(lo, largest=False)), None)]


@label(9606)
def l9606(read):
    return [("crowded_districts", int((read("star98.csv")["PTRATIO"] > 25).sum()), None)]


@label(9607)
def l9607(read):
    return [("peak_month", month_text(top_index(_elec(read))), None)]


@label(9608)
def l9608(read):
    m = read("modechoice.csv")
    return [("train_travellers", int(((m["mode"] == 2) & (m["choice"] == 1)).sum()), None)]


@label(9609)
def l9609(read):
    d = _danish(read).set_index("period")
    return [("peak_bond_quarter", top_index(d["ibo"]), None)]


@label(9610)
def l9610(read):
    r = read("randhie.csv")
    return [("pct_poor_health", pct((r["hlthp"] == 1).sum(), len(r)), 2)]


# ---------------------------------------------------------------- medium
@label(9611)
def l9611(read):
    means = read("cpunish.csv").groupby("SOUTH")["INCOME"].mean()
    return [("income_gap", means.loc[0] - means.loc[1], 2)]


@label(9612)
def l9612(read):
    c = read("committee.csv")
    assert len(c) == 20
    return [("pct_change", 100 * (c["BILLS104"].sum() / c["BILLS103"].sum() - 1), 2)]


@label(9613)
def l9613(read):
    c = read("committee.csv")
    return [("committees_up", int((c["BILLS104"] > c["BILLS103"]).sum()), None)]


@label(9614)
def l9614(read):
    s = read("scotvote.csv")
    return [("r_yes_coutax", s["YES"].corr(s["COUTAX"]), 4)]


@label(9615)
def l9615(read):
    top = read("scotvote.csv").set_index("COUNCILDIST")["UNEMPF"].sort_values(ascending=False)
    assert top.iloc[2] - top.iloc[3] > 1e-9 and top.iloc[0] != top.iloc[1] != top.iloc[2]
    return [("top3_districts", ", ".join(top.index[:3]), None)]


@label(9616)
def l9616(read):
    s = read("star98.csv")
    return [("pct_above_median", pct(s["PR50M"].sum(), s["MATHTOT"].sum()), 2)]


@label(9617)
def l9617(read):
    s = read("star98.csv")
    return [("median_spending", s.loc[s["PCTCHRT"] > 0, "PERSPENK"].median(), 3)]


@label(9618)
def l9618(read):
    r = read("randhie.csv")
    excellent = (r["hlthg"] == 0) & (r["hlthf"] == 0) & (r["hlthp"] == 0)
    assert ((r["hlthg"] + r["hlthf"] + r["hlthp"]) <= 1).all()
    return [("visit_ratio", r.loc[r["hlthp"] == 1, "mdvis"].mean() / r.loc[excellent, "mdvis"].mean(), 3)]


@label(9619)
def l9619(read):
    return [("coinsurance_levels", int(read("randhie.csv")["lncoins"].nunique()), None)]


@label(9620)
def l9620(read):
    chosen = _choices(read)
    return [("mean_income_air", chosen.loc[chosen["mode"] == 1, "hinc"].mean(), 2)]


@label(9621)
def l9621(read):
    bills = read("committee.csv")["BILLS104"].sort_values(ascending=False)
    share = bills.cumsum() / bills.sum()
    return [("committees_for_80pct", int((share < 0.8).sum()) + 1, None)]


@label(9622)
def l9622(read):
    gnp = read("longley.csv").set_index("YEAR")["GNP"]
    return [("gnp_growth_pct", 100 * (gnp.loc[1962] / gnp.loc[1947] - 1), 2)]


@label(9623)
def l9623(read):
    emp = read("longley.csv").set_index("YEAR")["TOTEMP"].sort_index()
    return [("best_year", int(top_index(emp.diff())), None)]


@label(9624)
def l9624(read):
    s = _elec(read)
    by_year = s.groupby(s.index.year)
    means = by_year.mean()[by_year.count() == 12]
    assert means.index.min() == 1995 and means.index.max() == 2015
    return [("strongest_year", int(top_index(means)), None)]


@label(9625)
def l9625(read):
    lrm = _danish(read)["lrm"]
    return [("falling_quarters", int((lrm.diff() < 0).sum()), None)]


@label(9626)
def l9626(read):
    c = read("cpunish.csv").set_index("STATE")
    ranks = c["VC100k96"].rank(ascending=False, method="min")
    assert c["VC100k96"].is_unique
    return [("texas_rank", int(ranks.loc["Texas"]), None)]


# ---------------------------------------------------------------- hard
@label(9627)
def l9627(read):
    s = _star_pct(read)
    fit = stats.linregress(s["LOWINC"], s["pct_above"])
    return [("slope", fit.slope, 4), ("r_squared", fit.rvalue**2, 4)]


@label(9628)
def l9628(read):
    s = _star_pct(read)
    year_round = s["PCTYRRND"] > 0
    result = stats.ttest_ind(s.loc[year_round, "pct_above"], s.loc[~year_round, "pct_above"], equal_var=False)
    return [("t_statistic", result.statistic, 3), ("significant", "yes" if result.pvalue < 0.05 else "no", None)]


@label(9629)
def l9629(read):
    r = read("randhie.csv")
    r = r[r["physlm"].isin([0, 1])]
    assert len(r) == 19138
    table = pd.crosstab(r["physlm"], r["mdvis"] > 0)
    assert table.shape == (2, 2)
    chi2, _, _, _ = stats.chi2_contingency(table, correction=False)
    return [("chi2", chi2, 2)]


@label(9630)
def l9630(read):
    x = read("randhie.csv")["mdvis"]
    q1, q3 = x.quantile(0.25), x.quantile(0.75)
    iqr = q3 - q1
    return [("visit_outliers", int(((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)).sum()), None)]


@label(9631)
def l9631(read):
    m = read("modechoice.csv")
    assert (m.groupby("individual").size() == 4).all()
    cheapest = m.groupby("individual")["gc"].min()
    chosen = _choices(read).set_index("individual")["gc"]
    return [("pct_cheapest", pct((chosen == cheapest.loc[chosen.index]).sum(), len(chosen)), 2)]


@label(9632)
def l9632(read):
    m = read("modechoice.csv")
    flyers = _choices(read).query("mode == 1")["individual"]
    invt = m.pivot(index="individual", columns="mode", values="invt").loc[flyers]
    return [("minutes_saved", (invt[4] - invt[1]).mean(), 2)]


@label(9633)
def l9633(read):
    s = _elec(read)
    growth = 100 * (s / s.shift(12, freq="MS").reindex(s.index) - 1)
    month = top_index(growth)
    return [("month", month_text(month), None), ("yoy_growth_pct", growth.loc[month], 2)]


@label(9634)
def l9634(read):
    moving = _elec(read).rolling(12).mean().dropna()
    assert len(moving) == 246
    return [("peak_average_month", month_text(top_index(moving)), None)]


@label(9635)
def l9635(read):
    d = _danish(read)
    X = np.column_stack([np.ones(len(d)), d["lry"], d["ibo"]])
    coef, *_ = np.linalg.lstsq(X, d["lrm"].to_numpy(), rcond=None)
    return [("coef_lry", coef[1], 4), ("coef_ibo", coef[2], 4)]


@label(9636)
def l9636(read):
    d = _danish(read)
    counts = d.groupby("year")["ibo"].count()
    annual = d.groupby("year")["ibo"].mean()[counts == 4]
    assert annual.index.min() == 1974 and annual.index.max() == 1986
    return [("year", int(top_index(annual.diff(), largest=False)), None)]


@label(9637)
def l9637(read):
    s = read("scotvote.csv")
    z = (s["MOR"] - s["MOR"].mean()) / s["MOR"].std(ddof=1)
    assert not ((z.abs() - 2).abs() < 1e-6).any()
    return [("unusual_districts", ", ".join(sorted(s.loc[z.abs() > 2, "COUNCILDIST"])), None)]


@label(9638)
def l9638(read):
    c = read("committee.csv")
    fit = stats.linregress(c["BILLS103"], c["BILLS104"])
    return [("predicted_bills", fit.intercept + fit.slope * 100, 2)]


@label(9639)
def l9639(read):
    c = read("cpunish.csv")
    return [("spearman_rho", stats.spearmanr(c["VC100k96"], c["EXECUTIONS"]).statistic, 4)]


@label(9640)
def l9640(read):
    cols = ["TOTEMP", "GNPDEFL", "GNP", "UNEMP", "ARMED", "POP"]
    corr = read("longley.csv")[cols].corr().abs()
    pairs = pd.Series({f"{a}-{b}": corr.loc[a, b] for a, b in itertools.combinations(cols, 2)})
    return [("pair", top_index(pairs), None)]


assert sorted(LABELS) == list(range(9601, 9641)), sorted(LABELS)
