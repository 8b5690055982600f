"""Labels of held-out batch C (ids 9101-9142), one function per question id.

Each function reads the tables of ``benchmarks/heldout_c/tables`` and returns a list of
(name, value, decimals) in the order the question's format names them; ``decimals=None`` writes
the value as it is. The registry is this module's own (``LABELS``), not batch A/B's, so both sets
can load in one process. ``read`` looks ``TABLES`` up at call time, so a test can point it at a
freshly built folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
LABELS: dict = {}

sys.path.append(str(HERE.parent / "heldout"))
from label_tools import render, yes_no  # noqa: E402,F401  (re-exported for make_labels and the test)


def label(qid):
    def register(fn):
        LABELS[qid] = fn
        return fn

    return register


def read(name: str, **kwargs) -> pd.DataFrame:
    return pd.read_csv(TABLES / name, **kwargs)


def weather() -> pd.DataFrame:
    df = read("seattle_weather.csv")
    df["date"] = pd.to_datetime(df["date"], format="%Y/%m/%d")
    return df


def stocks() -> pd.DataFrame:
    df = read("stock_prices.csv")
    df["date"] = pd.to_datetime(df["date"], format="%b %d %Y")
    return df.sort_values(["symbol", "date"]).reset_index(drop=True)


def iowa() -> pd.DataFrame:
    return read("iowa_electricity.csv").set_index("source")


def employment() -> pd.DataFrame:
    df = read("us_employment.csv")
    df["month"] = pd.to_datetime(df["month"], format="%Y-%m-%d")
    return df.sort_values("month").reset_index(drop=True)


def airports() -> pd.DataFrame:
    return read("airports.csv")  # pandas' default reading: the shipped "NA" is missing


def barley() -> pd.DataFrame:
    return read("barley.csv")


def riots() -> pd.DataFrame:
    return read("la_riots.csv")


def wheat() -> pd.DataFrame:
    return read("wheat.csv")


def only(series: pd.Series, highest: bool = True):
    """The index label of the single highest (or lowest) value; refuses a tie."""
    best = series.max() if highest else series.min()
    winners = series[series == best]
    assert len(winners) == 1, f"tie: {list(winners.index)}"
    return winners.index[0]


# ---- seattle_weather.csv ----------------------------------------------------------------------
@label(9101)
def q9101():
    return [("days", int((weather()["precipitation"] > 20).sum()), None)]


@label(9102)
def q9102():
    means = weather().groupby("weather")["wind"].mean()
    top = only(means)
    return [("weather", top, None), ("mean_wind", means[top], 2)]


@label(9103)
def q9103():
    monthly = weather().set_index("date")["precipitation"].resample("MS").sum()
    top = only(monthly)
    return [("month", top.strftime("%Y-%m"), None), ("total_precipitation", monthly[top], 1)]


@label(9104)
def q9104():
    df = weather()
    yearly = df.groupby(df["date"].dt.year)["temp_max"].mean().sort_index()
    return [("change", yearly.iloc[-1] - yearly.iloc[0], 2), ("warmest_year", int(only(yearly)), None)]


@label(9105)
def q9105():
    wind = weather()["wind"]
    z = (wind - wind.mean()) / wind.std(ddof=1)
    return [("outliers", int((z.abs() > 3).sum()), None)]


@label(9106)
def q9106():
    df = weather()
    return [("r", df["wind"].corr(df["precipitation"]), 3)]


@label(9107)
def q9107():
    from scipy import stats

    df = weather()
    test = stats.ttest_ind(df.loc[df["weather"] == "rain", "wind"], df.loc[df["weather"] == "sun", "wind"], equal_var=False)
    return [("t_statistic", test.statistic, 3), ("significant", yes_no(test.pvalue < 0.05), None)]


# ---- stock_prices.csv -------------------------------------------------------------------------
@label(9108)
def q9108():
    df = stocks()
    picked = df[(df["symbol"] == "IBM") & (df["date"].dt.year == 2005)]
    return [("mean_price", picked["price"].mean(), 2)]


@label(9109)
def q9109():
    amzn = stocks().query("symbol == 'AMZN'")["price"]
    return [("percent_change", (amzn.iloc[-1] / amzn.iloc[0] - 1) * 100, 2)]


@label(9110)
def q9110():
    df = stocks()
    means = df[df["date"].dt.year == 2009].groupby("symbol")["price"].mean().sort_values(ascending=False)
    assert means.is_unique
    return [("first", means.index[0], None), ("second", means.index[1], None), ("third", means.index[2], None)]


@label(9111)
def q9111():
    df = stocks().query("symbol == 'MSFT'")
    yearly = df.groupby(df["date"].dt.year)["price"].mean()
    top = only(yearly)
    return [("year", int(top), None), ("mean_price", yearly[top], 2)]


@label(9112)
def q9112():
    df = stocks()
    df["ret"] = df.groupby("symbol")["price"].pct_change()
    means = df.groupby("symbol")["ret"].mean() * 100
    top = only(means)
    return [("symbol", top, None), ("mean_return_percent", means[top], 3)]


# ---- iowa_electricity.csv (wide: one column per year) -----------------------------------------
@label(9113)
def q9113():
    col = iowa()["2017"]
    top = only(col)
    return [("source", top, None), ("net_generation", int(col[top]), None)]


@label(9114)
def q9114():
    totals = iowa().sum()
    top = only(totals)
    return [("year", int(top), None), ("total", int(totals[top]), None)]


@label(9115)
def q9115():
    row = iowa().loc["Renewables"]
    return [("growth_percent", (row["2017"] / row["2001"] - 1) * 100, 1)]


@label(9116)
def q9116():
    table = iowa()
    share = table.loc["Renewables"] / table.sum() * 100
    first = next(int(year) for year, value in share.items() if value > 20)
    return [("first_year", first, None), ("share_2017", share["2017"], 2)]


@label(9117)
def q9117():
    from scipy import stats

    row = iowa().loc["Renewables"]
    fit = stats.linregress([int(y) for y in row.index], row.to_numpy(dtype=float))
    return [("slope", fit.slope, 2), ("r_squared", fit.rvalue ** 2, 4)]


# ---- us_employment.csv ------------------------------------------------------------------------
@label(9118)
def q9118():
    df = employment()
    return [("mean_change", df.loc[df["month"].dt.year == 2009, "nonfarm_change"].mean(), 2)]


@label(9119)
def q9119():
    return [("months", int((employment()["nonfarm_change"] < 0).sum()), None)]


@label(9120)
def q9120():
    df = employment()
    yearly = df.groupby(df["month"].dt.year)["construction"].mean()
    low = only(yearly, highest=False)
    return [("year", int(low), None), ("average", yearly[low], 1)]


SECTORS = ["construction", "manufacturing", "information", "financial_activities",
           "education_and_health_services", "leisure_and_hospitality", "government"]


@label(9121)
def q9121():
    df = employment()
    growth = (df[SECTORS].iloc[-1] / df[SECTORS].iloc[0] - 1) * 100
    top = only(growth)
    return [("largest_growth", top, None), ("growth_percent", growth[top], 2),
            ("largest_decline", only(growth, highest=False), None)]


@label(9122)
def q9122():
    df = employment().set_index("month")["nonfarm"]
    trough = only(df, highest=False)
    peak = only(df[df.index < trough])
    return [("trough_month", trough.strftime("%Y-%m"), None), ("peak_month", peak.strftime("%Y-%m"), None)]


@label(9123)
def q9123():
    change = employment()["nonfarm_change"]
    return [("median", change.median(), 1), ("p90", change.quantile(0.9), 1)]


# ---- airports.csv -----------------------------------------------------------------------------
@label(9124)
def q9124():
    return [("count", int((airports()["state"] == "TX").sum()), None)]


@label(9125)
def q9125():
    state = airports()["state"]
    return [("states", int(state.nunique()), None), ("missing_state", int(state.isna().sum()), None)]


@label(9126)
def q9126():
    counts = airports()["state"].value_counts()
    assert counts.iloc[:4].is_unique
    return [("first", counts.index[0], None), ("second", counts.index[1], None), ("third", counts.index[2], None)]


@label(9127)
def q9127():
    return [("percent", (airports()["latitude"] > 40).mean() * 100, 2)]


@label(9128)
def q9128():
    df = airports()
    counts = df["state"].value_counts()
    big = counts[counts >= 50].index
    means = df[df["state"].isin(big)].groupby("state")["latitude"].mean()
    low = only(means, highest=False)
    return [("states", len(big), None), ("state", low, None), ("mean_latitude", means[low], 3)]


# ---- barley.csv -------------------------------------------------------------------------------
@label(9129)
def q9129():
    df = barley()
    return [("mean_yield", df.loc[df["year"] == 1932, "yield"].mean(), 3)]


@label(9130)
def q9130():
    means = barley().groupby("site")["yield"].mean()
    top = only(means)
    return [("site", top, None), ("mean_yield", means[top], 3)]


@label(9131)
def q9131():
    from scipy import stats

    wide = barley().pivot(index=["variety", "site"], columns="year", values="yield")
    test = stats.ttest_rel(wide[1931], wide[1932])
    return [("t_statistic", test.statistic, 3), ("p_value", test.pvalue, 5)]


@label(9132)
def q9132():
    means = barley().groupby(["site", "year"])["yield"].mean().unstack()
    diff = means[1932] - means[1931]
    rose = diff[diff > 0]
    top = only(diff)
    return [("sites_increased", len(rose), None), ("site", top, None), ("increase", diff[top], 2)]


# ---- la_riots.csv -----------------------------------------------------------------------------
@label(9133)
def q9133():
    return [("homicides", int((riots()["type"] == "Homicide").sum()), None)]


@label(9134)
def q9134():
    means = riots().groupby("race")["age"].mean()
    top = only(means)
    return [("race", top, None), ("mean_age", means[top], 2)]


@label(9135)
def q9135():
    counts = riots()["death_date"].value_counts()
    top = only(counts)
    return [("date", top, None), ("deaths", int(counts[top]), None)]


@label(9136)
def q9136():
    medians = riots().groupby("gender")["age"].median()
    return [("median_age_female", medians["Female"], 1), ("median_age_male", medians["Male"], 1)]


# ---- wheat.csv --------------------------------------------------------------------------------
@label(9137)
def q9137():
    df = wheat().set_index("year")["wheat"]
    top = only(df)
    return [("year", int(top), None), ("price", df[top], 1)]


@label(9138)
def q9138():
    df = wheat().dropna(subset=["wheat", "wages"])
    return [("r", df["wheat"].corr(df["wages"]), 3)]


@label(9139)
def q9139():
    from scipy import stats

    df = wheat().dropna(subset=["wages"])
    fit = stats.linregress(df["year"], df["wages"])
    return [("slope", fit.slope, 4), ("r_squared", fit.rvalue ** 2, 3)]


# ---- sf_temps.csv -----------------------------------------------------------------------------
@label(9140)
def q9140():
    df = read("sf_temps.csv")
    df["date"] = pd.to_datetime(df["date"], format="%Y/%m/%d %H:%M:%S")
    monthly = df.set_index("date")["temp"].resample("MS").mean()
    warm, cold = only(monthly), only(monthly, highest=False)
    return [("warmest_month", warm.strftime("%Y-%m"), None), ("coldest_month", cold.strftime("%Y-%m"), None),
            ("difference", monthly[warm] - monthly[cold], 2)]


# ---- crimea.csv -------------------------------------------------------------------------------
CAUSES = ["wounds", "other", "disease"]


@label(9141)
def q9141():
    totals = read("crimea.csv")[CAUSES].sum()
    return [("disease_share", totals["disease"] / totals.sum() * 100, 2)]


@label(9142)
def q9142():
    df = read("crimea.csv")
    totals = df.set_index("date")[CAUSES].sum(axis=1)
    top = only(totals)
    return [("month", top[:7], None), ("deaths", int(totals[top]), None)]
