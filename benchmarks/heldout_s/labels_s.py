"""Batch S's first solution (pandas and scipy): for each question id, a function of ``read`` (a
table's file name -> its DataFrame) that returns the answer's items, ``[(name, value, decimals)]``
in the format's order, ``decimals`` None where the value is written as it is (a count, a label, a
date). ``make_labels.py`` writes them with ``heldout_common.render``, which refuses a value within
1e-3 of a rounding half; ``top_index`` refuses a tied "which is highest". Do not read this file
before a measurement of the batch.
"""

from __future__ import annotations

import calendar
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import label_registry, ols, pct, top_index  # noqa: E402
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_s.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
GAP, TX, ECON, SLEEP = "gapminder.csv", "txhousing.csv", "economics.csv", "msleep.csv"
MIDWEST, MPG, MEAT, PRES = "midwest.csv", "mpg.csv", "meat.csv", "presidential.csv"


def _gap(read) -> pd.DataFrame:
    g = read(GAP)
    assert len(g) == 1704 and not g.duplicated(["country", "year"]).any()
    return g


def _gap_year(read, year: int) -> pd.DataFrame:
    g = _gap(read)
    g = g[g["year"] == year]
    assert len(g) == 142
    return g


def _tx(read) -> pd.DataFrame:
    t = read(TX)
    assert len(t) == 8602 and not t.duplicated(["city", "year", "month"]).any()
    return t


def _econ(read) -> pd.DataFrame:
    e = read(ECON)
    assert len(e) == 574 and e["date"].is_unique
    e["when"] = pd.to_datetime(e["date"])
    return e


def _sleep(read) -> pd.DataFrame:
    s = read(SLEEP)
    assert len(s) == 83 and s["name"].is_unique
    return s


def _midwest(read) -> pd.DataFrame:
    m = read(MIDWEST)
    assert len(m) == 437 and not m.duplicated(["county", "state"]).any()
    return m


def _mpg(read) -> pd.DataFrame:
    m = read(MPG)
    assert len(m) == 234
    return m


def _meat(read) -> pd.DataFrame:
    m = read(MEAT)
    assert len(m) == 960 and m["date"].is_unique
    m["year"] = m["date"].str[:4].astype(int)
    return m


def _pres(read) -> pd.DataFrame:
    p = read(PRES)
    assert len(p) == 11
    p["days"] = (pd.to_datetime(p["end"]) - pd.to_datetime(p["start"])).dt.days
    return p


# --- easy -----------------------------------------------------------------------------------------

@label(10261)
def _(read):
    g = _gap(read)
    return [("african_countries", int(g.loc[g["continent"] == "Africa", "country"].nunique()), None)]


@label(10262)
def _(read):
    return [("missing_brainwt", int(_sleep(read)["brainwt"].isna().sum()), None)]


@label(10263)
def _(read):
    m = _mpg(read)
    return [("mean_hwy_4cyl", m.loc[m["cyl"] == 4, "hwy"].mean(), 2)]


@label(10264)
def _(read):
    m = _midwest(read)
    return [("big_wi_counties", int(((m["state"] == "WI") & (m["poptotal"] > 100000)).sum()), None)]


@label(10265)
def _(read):
    e = _econ(read)
    return [("peak_unemployment_month", e.loc[top_index(e["unemploy"]), "date"], None)]


@label(10266)
def _(read):
    t = _tx(read)
    s = t.loc[(t["city"] == "Austin") & (t["year"] == 2014), "sales"]
    assert len(s) == 12 and s.notna().all()
    return [("austin_sales_2014", int(s.sum()), None)]


@label(10267)
def _(read):
    m = _meat(read)
    b = m.loc[m["year"] == 2000, "beef"]
    assert len(b) == 12
    return [("mean_beef_2000", b.mean(), 2)]


@label(10268)
def _(read):
    return [("republican_presidencies", int((_pres(read)["party"] == "Republican").sum()), None)]


@label(10269)
def _(read):
    m = _mpg(read)
    return [("manual_share", pct(m["trans"].str.startswith("manual").sum(), len(m)), 2)]


@label(10270)
def _(read):
    return [("median_life_2007", _gap_year(read, 2007)["lifeExp"].median(), 2)]


# --- medium ---------------------------------------------------------------------------------------

@label(10271)
def _(read):
    g = _gap_year(read, 2007).set_index("country")
    return [("lowest_life_country", top_index(g["lifeExp"], largest=False), None)]


@label(10272)
def _(read):
    g = _gap_year(read, 2007)
    a = g[g["continent"] == "Africa"]
    return [("africa_weighted_life", np.average(a["lifeExp"], weights=a["pop"]), 2)]


@label(10273)
def _(read):
    t = _tx(read)
    m = t[t["year"] == 2015].groupby("city")["median"].mean()
    return [("priciest_city_2015", top_index(m), None)]


@label(10274)
def _(read):
    t = _tx(read)
    return [("most_missing_listings", top_index(t["listings"].isna().groupby(t["city"]).sum()), None)]


@label(10275)
def _(read):
    e = _econ(read)
    x = e.loc[e["when"].dt.year == 2009, "uempmed"]
    assert len(x) == 12
    return [("mean_uempmed_2009", x.mean(), 3)]


@label(10276)
def _(read):
    e = _econ(read)
    return [("lowest_saving_month", e.loc[top_index(e["psavert"], largest=False), "date"], None)]


@label(10277)
def _(read):
    s = _sleep(read).dropna(subset=["vore"])
    g = s.groupby("vore")["sleep_total"].agg(["size", "mean"])
    return [("sleepiest_diet", top_index(g.loc[g["size"] >= 10, "mean"]), None)]


@label(10278)
def _(read):
    c = _sleep(read)["conservation"].dropna()
    return [("domesticated_share", pct((c == "domesticated").sum(), len(c)), 2)]


@label(10279)
def _(read):
    m = _midwest(read)
    share = m.groupby("state")["inmetro"].mean() * 100
    top = top_index(share)
    return [("most_metro_state", top, None), ("metro_county_share", share[top], 2)]


@label(10280)
def _(read):
    m = _midwest(read)
    il = m[m["state"] == "IL"]
    return [("cook_share", pct(il.loc[il["county"] == "COOK", "poptotal"].sum(), il["poptotal"].sum()), 2)]


@label(10281)
def _(read):
    g = _mpg(read).groupby("manufacturer")["cty"].agg(["size", "mean"])
    return [("best_city_maker", top_index(g.loc[g["size"] >= 10, "mean"]), None)]


@label(10282)
def _(read):
    return [("most_models_maker", top_index(_mpg(read).groupby("manufacturer")["model"].nunique()), None)]


@label(10283)
def _(read):
    m = _meat(read).dropna(subset=["turkey"])
    full = m.groupby("year")["turkey"].agg(["size", "sum"])
    return [("top_turkey_year", int(top_index(full.loc[full["size"] == 12, "sum"])), None)]


@label(10284)
def _(read):
    p = _pres(read)
    return [("republican_days", int(p.loc[p["party"] == "Republican", "days"].sum()), None)]


@label(10285)
def _(read):
    t = _tx(read)
    return [("median_price_p90_2015", t.loc[t["year"] == 2015, "median"].dropna().quantile(0.9), 0)]


@label(10286)
def _(read):
    e = _econ(read)
    return [("unemploy_duration_r", stats.pearsonr(e["unemploy"], e["uempmed"])[0], 4)]


# --- hard -----------------------------------------------------------------------------------------

@label(10287)
def _(read):
    wide = _gap(read).pivot(index="country", columns="year", values="lifeExp").sort_index(axis=1)
    change = wide.diff(axis=1).iloc[:, 1:]
    fell = int((change < 0).any(axis=1).sum())
    return [("countries_with_a_fall", fell, None), ("largest_drop_country", top_index(change.min(axis=1), largest=False), None)]


@label(10288)
def _(read):
    c = _gap(read).set_index(["country", "year"])["gdpPercap"]
    return [("china_gdp_cagr", ((c[("China", 2007)] / c[("China", 1952)]) ** (1 / 55) - 1) * 100, 2)]


@label(10289)
def _(read):
    g = _gap_year(read, 2007)
    coef, r2 = ols(g["lifeExp"], np.log10(g["gdpPercap"]))
    return [("slope", coef[1], 3), ("r_squared", r2, 4)]


@label(10290)
def _(read):
    g = _gap_year(read, 2007)
    t = stats.ttest_ind(g.loc[g["continent"] == "Europe", "lifeExp"], g.loc[g["continent"] == "Americas", "lifeExp"],
                        equal_var=False)
    return [("t_statistic", t.statistic, 3), ("p_value", t.pvalue, 6)]


@label(10291)
def _(read):
    t = _tx(read)
    y = t[t["year"].isin([2013, 2014])].dropna(subset=["sales"])
    g = y.groupby(["city", "year"])["sales"].agg(["size", "sum"]).unstack()
    full = g[(g[("size", 2013)] == 12) & (g[("size", 2014)] == 12)]
    growth = (full[("sum", 2014)] / full[("sum", 2013)] - 1) * 100
    top = top_index(growth)
    return [("fastest_growing_city", top, None), ("sales_growth_pct", growth[top], 2)]


@label(10292)
def _(read):
    t = _tx(read)
    t = t[t["year"] <= 2014]
    statewide = t.groupby(["year", "month"])["sales"].sum()
    assert len(statewide) == 15 * 12
    by_month = statewide.groupby(level="month").mean()
    return [("busiest_month", calendar.month_name[int(top_index(by_month))], None)]


@label(10293)
def _(read):
    e = _econ(read).sort_values("when").set_index("date")
    rise = e["unemploy"] - e["unemploy"].shift(12)
    top = top_index(rise)
    return [("month", top, None), ("increase_thousands", int(rise[top]), None)]


@label(10294)
def _(read):
    e = _econ(read)
    y = e["when"].dt.year
    seventies = e.loc[y.between(1970, 1979), "psavert"]
    noughties = e.loc[y.between(2000, 2009), "psavert"]
    assert len(seventies) == len(noughties) == 120
    return [("saving_rate_fall", seventies.mean() - noughties.mean(), 2)]


@label(10295)
def _(read):
    w = _sleep(read)["bodywt"]
    q1, q3 = w.quantile(0.25), w.quantile(0.75)
    iqr = q3 - q1
    return [("bodywt_outliers", int(((w < q1 - 1.5 * iqr) | (w > q3 + 1.5 * iqr)).sum()), None)]


@label(10296)
def _(read):
    s = _sleep(read).dropna(subset=["vore"])
    groups = [g["sleep_total"].to_numpy() for _, g in s.groupby("vore")]
    assert len(groups) == 4
    res = stats.f_oneway(*groups)
    return [("f_statistic", res.statistic, 3), ("p_value", res.pvalue, 4)]


@label(10297)
def _(read):
    m = _midwest(read)
    chi2, p, dof, _ = stats.chi2_contingency(pd.crosstab(m["state"], m["inmetro"]), correction=False)
    assert dof == 4
    return [("chi_square", chi2, 3), ("p_value", p, 4)]


@label(10298)
def _(read):
    m = _mpg(read).groupby(["manufacturer", "model", "year"])["hwy"].mean().unstack().dropna()
    return [("models_improved", int((m[2008] > m[1999]).sum()), None)]


@label(10299)
def _(read):
    m = _meat(read)
    annual = m.groupby("year")[["beef", "broilers"]].agg(["sum", "count"])
    full = annual[(annual[("beef", "count")] == 12) & (annual[("broilers", "count")] == 12)]
    ahead = full.index[full[("broilers", "sum")] > full[("beef", "sum")]]
    return [("first_broiler_year", int(ahead.min()), None)]


@label(10300)
def _(read):
    s = _sleep(read).dropna(subset=["brainwt"])
    return [("spearman_rho", stats.spearmanr(s["brainwt"], s["sleep_total"])[0], 4)]
