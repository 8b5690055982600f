"""Batch Q's first solution (pandas and scipy): for each question id, a function of ``read`` (a
table's file name -> its DataFrame) that returns the answer's items, ``[(name, value, decimals)]``
in the format's order, ``decimals`` None where the value is written as it is (a count, a label, a
month, a year). ``make_labels.py`` writes them with ``heldout_common.render``, which refuses a value
within 1e-3 of a rounding half; ``top_index`` refuses a tied "which is highest". Do not read this
file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import label_registry, month_text, ols, pct, top_index  # noqa: E402
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_q.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
APPLE, BIRTHS, CEO = "apple_survey.csv", "birth_weights.csv", "ceo_salaries.csv"
NCAA, HOUSE, APPROVAL = "ncaa_basketball.csv", "house_races.csv", "presidential_approval.csv"


def _apple(read) -> pd.DataFrame:
    """The survey with the interview date read from its MMDDYY number (zero-padded to six digits)."""
    a = read(APPLE)
    assert len(a) == 660
    a["interview"] = pd.to_datetime(a["date"].astype(int).astype(str).str.zfill(6), format="%m%d%y")
    assert a["interview"].dt.year.isin([1997, 1998]).all()
    return a


def _births(read) -> pd.DataFrame:
    b = read(BIRTHS)
    assert len(b) == 1832
    return b


def _ceo(read) -> pd.DataFrame:
    c = read(CEO)
    assert len(c) == 177
    return c


def _ncaa(read) -> pd.DataFrame:
    n = read(NCAA)
    assert len(n) == 336 and not n.duplicated(["team", "year"]).any()
    return n


def _house(read) -> pd.DataFrame:
    v = read(HOUSE)
    assert len(v) == 173
    return v


def _approval(read) -> pd.DataFrame:
    p = read(APPROVAL)
    assert len(p) == 78
    p["when"] = pd.to_datetime(dict(year=p["year"], month=p["month"], day=1))
    return p.sort_values("when").reset_index(drop=True)


# --- apple_survey.csv ---------------------------------------------------------------------------

@label(10181)
def _(read):
    return [("california_households", int((_apple(read)["state"] == "CA").sum()), None)]


@label(10182)
def _(read):
    counts = _apple(read)["interview"].dt.to_period("M").value_counts()
    return [("busiest_month", month_text(top_index(counts).to_timestamp()), None)]


@label(10183)
def _(read):
    a = _apple(read)
    return [("survey_days", int((a["interview"].max() - a["interview"].min()).days), None)]


@label(10184)
def _(read):
    a = _apple(read)
    counts = a["interview"].dt.day_name().value_counts()
    top = top_index(counts)
    return [("top_weekday", top, None), ("weekday_share", pct(counts[top], len(a)), 2)]


@label(10185)
def _(read):
    a = _apple(read)
    same = a[np.isclose(a["ecoprc"], a["regprc"])]
    return [("no_eco_share", pct((same["ecolbs"] == 0).sum(), len(same)), 2)]


@label(10186)
def _(read):
    a = _apple(read)
    a["premium"] = (a["ecoprc"] - a["regprc"]).round(2)
    groups = [g["ecolbs"] for _, g in a.groupby("premium")]
    assert len(groups) == 3
    return [("f_statistic", stats.f_oneway(*groups).statistic, 3)]


@label(10187)
def _(read):
    a = _apple(read)
    return [("mean_income_65plus", a.loc[a["age"] >= 65, "faminc"].mean(), 2)]


# --- birth_weights.csv --------------------------------------------------------------------------

@label(10188)
def _(read):
    return [("low_weight_births", int((_births(read)["bwght"] < 2500).sum()), None)]


@label(10189)
def _(read):
    b = _births(read)
    return [("mean_girl_weight", b.loc[b["male"] == 0, "bwght"].mean(), 2)]


@label(10190)
def _(read):
    b = _births(read)
    return [("incomplete_records", int((b["cigs"].isna() | b["drink"].isna()).sum()), None)]


@label(10191)
def _(read):
    b = _births(read).dropna(subset=["cigs"])
    test = stats.ttest_ind(b.loc[b["cigs"] > 0, "bwght"], b.loc[b["cigs"] == 0, "bwght"], equal_var=False)
    return [("t_statistic", test.statistic, 3), ("degrees_of_freedom", test.df, 2)]


@label(10192)
def _(read):
    b = _births(read)
    assert ((b["mwhte"] + b["mblck"] + b["moth"]) == 1).all()
    race = np.select([b["mwhte"] == 1, b["mblck"] == 1], ["white", "black"], "other")
    table = pd.crosstab(race, b["bwght"] < 2500)
    assert table.shape == (3, 2)
    return [("chi_square", stats.chi2_contingency(table, correction=False).statistic, 3)]


@label(10193)
def _(read):
    b = _births(read).dropna(subset=["monpre"])
    groups = b.groupby("monpre")["bwght"].agg(["size", "mean"])
    groups = groups[groups["size"] >= 40]
    return [("month", int(top_index(groups["mean"])), None)]


@label(10194)
def _(read):
    w = _births(read)["bwght"]
    q1, q3 = w.quantile(0.25), w.quantile(0.75)
    iqr = q3 - q1
    return [("outlier_births", int(((w < q1 - 1.5 * iqr) | (w > q3 + 1.5 * iqr)).sum()), None)]


@label(10195)
def _(read):
    b = _births(read).dropna(subset=["mage", "fage"])
    return [("age_correlation", b["mage"].corr(b["fage"]), 4)]


# --- ceo_salaries.csv ---------------------------------------------------------------------------

@label(10196)
def _(read):
    return [("loss_making_firms", int((_ceo(read)["profits"] < 0).sum()), None)]


@label(10197)
def _(read):
    return [("median_salary", _ceo(read)["salary"].median(), 1)]


@label(10198)
def _(read):
    c = _ceo(read)
    coef, r2 = ols(np.log(c["salary"]), np.log(c["sales"]))
    return [("elasticity", coef[1], 4), ("r_squared", r2, 4)]


@label(10199)
def _(read):
    c = _ceo(read)
    return [("spearman_rho", c["ceoten"].corr(c["salary"], method="spearman"), 4)]


@label(10200)
def _(read):
    c = _ceo(read)
    ranks = c["salary"].rank(ascending=False, method="min")
    return [("salary_rank", int(ranks[top_index(c["mktval"])]), None)]


@label(10201)
def _(read):
    c = _ceo(read)
    group = pd.cut(c["age"], [-np.inf, 49, 59, np.inf], labels=["under 50", "50-59", "60+"])
    means = c.groupby(group, observed=True)["salary"].mean()
    assert len(means) == 3
    top = top_index(means)
    return [("age_group", top, None), ("mean_salary", means[top], 2)]


@label(10202)
def _(read):
    s = _ceo(read)["salary"]
    cut = s.quantile(0.9)
    return [("top_pay_share", pct(s[s > cut].sum(), s.sum()), 2)]


# --- ncaa_basketball.csv ------------------------------------------------------------------------

@label(10203)
def _(read):
    n = _ncaa(read)
    return [("tournament_teams", int(((n["year"] == "2015-2016") & (n["tourney"] == 1)).sum()), None)]


@label(10204)
def _(read):
    n = _ncaa(read)
    assert np.allclose(n["winperc"], 100 * n["wins"] / (n["wins"] + n["losses"]))
    best = top_index(n["winperc"])
    return [("team", n.loc[best, "team"], None), ("season", n.loc[best, "year"], None)]


@label(10205)
def _(read):
    return [("top_conference", top_index(_ncaa(read).groupby("conference")["wins"].mean()), None)]


@label(10206)
def _(read):
    wide = _ncaa(read).pivot(index="team", columns="year", values="postrpi")[["2012-2013", "2015-2016"]].dropna()
    return [("improved_teams", int((wide["2015-2016"] < wide["2012-2013"]).sum()), None)]


@label(10207)
def _(read):
    test = stats.f_oneway(*[g["winperc"] for _, g in _ncaa(read).groupby("conference")])
    return [("f_statistic", test.statistic, 3), ("p_value", test.pvalue, 4)]


@label(10208)
def _(read):
    n = _ncaa(read)
    seasons = ["2003-2004", "2009-2010", "2012-2013", "2015-2016"]
    assert sorted(n["year"].unique()) == seasons
    made = n[n["tourney"] == 1].groupby("team")["year"].nunique()
    return [("every_season_teams", int((made == 4).sum()), None)]


@label(10209)
def _(read):
    n = _ncaa(read)
    table = pd.crosstab(n["power5"], n["tourney"])
    assert table.shape == (2, 2)
    return [("chi_square", stats.chi2_contingency(table, correction=False).statistic, 3)]


# --- house_races.csv ----------------------------------------------------------------------------

@label(10210)
def _(read):
    return [("races_won_by_a", int((_house(read)["voteA"] > 50).sum()), None)]


@label(10211)
def _(read):
    v = _house(read)
    return [("democrat_a_share", pct((v["democA"] == 1).sum(), len(v)), 2)]


@label(10212)
def _(read):
    groups = _house(read).groupby("state")["voteA"].agg(["size", "mean"])
    return [("top_state", top_index(groups.loc[groups["size"] >= 5, "mean"]), None)]


@label(10213)
def _(read):
    v = _house(read)
    return [("median_total_spending", (v["expendA"] + v["expendB"]).median(), 2)]


@label(10214)
def _(read):
    v = _house(read)
    coef, r2 = ols(v["voteA"], v["shareA"])
    return [("slope", coef[1], 4), ("r_squared", r2, 4)]


@label(10215)
def _(read):
    v = _house(read)
    v = v[(v["voteA"] != 50) & (v["expendA"] != v["expendB"])]
    won = ((v["expendA"] > v["expendB"]) & (v["voteA"] > 50)) | ((v["expendB"] > v["expendA"]) & (v["voteA"] < 50))
    return [("bigger_spender_wins", pct(won.sum(), len(v)), 2)]


# --- presidential_approval.csv ------------------------------------------------------------------

@label(10216)
def _(read):
    p = _approval(read)
    return [("peak_month", month_text(p.loc[top_index(p["approve"]), "when"]), None)]


@label(10217)
def _(read):
    p = _approval(read)
    coef, _ = ols(p["approve"], p["gasprice"], p["unemploy"])
    return [("gas_coefficient", coef[1], 4)]


@label(10218)
def _(read):
    means = _approval(read).groupby("year")["approve"].mean()
    low = top_index(means, largest=False)
    return [("lowest_year", int(low), None), ("mean_approval", means[low], 2)]


@label(10219)
def _(read):
    p = _approval(read)
    return [("correlation", p["gasprice"].corr(p["approve"]), 4)]


@label(10220)
def _(read):
    p = _approval(read)
    assert (p["when"].diff().dropna().dt.days <= 31).all()  # consecutive months, none missing
    change = p["sp500"].pct_change() * 100
    return [("worst_month", month_text(p.loc[top_index(change, largest=False), "when"]), None)]
