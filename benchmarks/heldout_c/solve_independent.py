"""Independent second solution of held-out batch C, written from questions.jsonl and the tables alone.

    .venv/bin/python benchmarks/heldout_c/solve_independent.py

writes ``independent_answers.jsonl`` (layout of a labels file). One function per question id; each
returns the list of ``[name, value]`` pairs in the order of the format's ``@name[...]`` items.
A value within 1e-9 (relative) of a rounding half is reported on stderr, since its rounding would
hang on float noise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
OUT = HERE / "independent_answers.jsonl"

SOLVERS: dict[int, callable] = {}


def solver(qid: int):
    def deco(fn):
        SOLVERS[qid] = fn
        return fn

    return deco


def rnd(x: float, places: int) -> str:
    """``x`` rounded to ``places`` decimals, written with exactly that many decimals."""
    x = float(x)
    scaled = abs(x) * 10**places
    frac = scaled - np.floor(scaled)
    if abs(frac - 0.5) < 1e-9 * max(1.0, scaled):
        print(f"warning: {x!r} is on a rounding half at {places} places", file=sys.stderr)
    text = f"{x:.{places}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text


def integer(x) -> str:
    x = float(x)
    assert x == round(x), x
    return str(int(round(x)))


def load(name: str, **kw) -> pd.DataFrame:
    return pd.read_csv(TABLES / name, **kw)


def seattle() -> pd.DataFrame:
    df = load("seattle_weather.csv")
    df["date"] = pd.to_datetime(df["date"], format="%Y/%m/%d")
    return df


def stocks() -> pd.DataFrame:
    df = load("stock_prices.csv")
    df["date"] = pd.to_datetime(df["date"], format="%b %d %Y")
    return df


def iowa() -> pd.DataFrame:
    df = load("iowa_electricity.csv").set_index("source")
    df.columns = [int(c) for c in df.columns]
    return df


def employment() -> pd.DataFrame:
    df = load("us_employment.csv")
    df["month"] = pd.to_datetime(df["month"], format="%Y-%m-%d")
    return df.sort_values("month").reset_index(drop=True)


def airports() -> pd.DataFrame:
    # The default NA handling turns the text NA (unknown state/city) into a missing value.
    return load("airports.csv")


def ols(x, y) -> tuple[float, float]:
    res = stats.linregress(np.asarray(x, float), np.asarray(y, float))
    return res.slope, res.rvalue**2


# --- seattle_weather --------------------------------------------------------------------------


@solver(9101)
def q9101():
    df = seattle()
    return [["days", str(int((df["precipitation"] > 20).sum()))]]


@solver(9102)
def q9102():
    m = seattle().groupby("weather")["wind"].mean()
    return [["weather", m.idxmax()], ["mean_wind", rnd(m.max(), 2)]]


@solver(9103)
def q9103():
    df = seattle()
    tot = df.groupby(df["date"].dt.to_period("M"))["precipitation"].sum()
    return [["month", str(tot.idxmax())], ["total_precipitation", rnd(tot.max(), 1)]]


@solver(9104)
def q9104():
    df = seattle()
    y = df.groupby(df["date"].dt.year)["temp_max"].mean().sort_index()
    return [["change", rnd(y.iloc[-1] - y.iloc[0], 2)], ["warmest_year", str(int(y.idxmax()))]]


@solver(9105)
def q9105():
    w = seattle()["wind"]
    z = (w - w.mean()) / w.std(ddof=1)
    return [["outliers", str(int((z.abs() > 3).sum()))]]


@solver(9106)
def q9106():
    df = seattle()
    r = stats.pearsonr(df["wind"], df["precipitation"])[0]
    return [["r", rnd(r, 3)]]


@solver(9107)
def q9107():
    df = seattle()
    rain = df.loc[df["weather"] == "rain", "wind"]
    sun = df.loc[df["weather"] == "sun", "wind"]
    res = stats.ttest_ind(rain, sun, equal_var=False)
    return [["t_statistic", rnd(res.statistic, 3)], ["significant", "yes" if res.pvalue < 0.05 else "no"]]


# --- stock_prices -----------------------------------------------------------------------------


@solver(9108)
def q9108():
    df = stocks()
    sel = df[(df["symbol"] == "IBM") & (df["date"].dt.year == 2005)]
    return [["mean_price", rnd(sel["price"].mean(), 2)]]


@solver(9109)
def q9109():
    df = stocks()
    a = df[df["symbol"] == "AMZN"].sort_values("date")
    first = a.loc[a["date"].idxmin(), "price"]
    last = a.loc[a["date"].idxmax(), "price"]
    return [["percent_change", rnd((last / first - 1) * 100, 2)]]


@solver(9110)
def q9110():
    df = stocks()
    m = df[df["date"].dt.year == 2009].groupby("symbol")["price"].mean().sort_values(ascending=False)
    top = list(m.index[:3])
    return [["first", top[0]], ["second", top[1]], ["third", top[2]]]


@solver(9111)
def q9111():
    df = stocks()
    m = df[df["symbol"] == "MSFT"]
    y = m.groupby(m["date"].dt.year)["price"].mean()
    return [["year", str(int(y.idxmax()))], ["mean_price", rnd(y.max(), 2)]]


@solver(9112)
def q9112():
    df = stocks().sort_values(["symbol", "date"])
    df["ret"] = df.groupby("symbol")["price"].pct_change()
    m = df.dropna(subset=["ret"]).groupby("symbol")["ret"].mean() * 100
    return [["symbol", m.idxmax()], ["mean_return_percent", rnd(m.max(), 3)]]


# --- iowa_electricity -------------------------------------------------------------------------


@solver(9113)
def q9113():
    col = iowa()[2017]
    return [["source", col.idxmax()], ["net_generation", integer(col.max())]]


@solver(9114)
def q9114():
    tot = iowa().sum(axis=0)
    return [["year", str(int(tot.idxmax()))], ["total", integer(tot.max())]]


@solver(9115)
def q9115():
    r = iowa().loc["Renewables"]
    return [["growth_percent", rnd((r[2017] / r[2001] - 1) * 100, 1)]]


@solver(9116)
def q9116():
    df = iowa()
    share = df.loc["Renewables"] / df.sum(axis=0) * 100
    first = min(y for y, s in share.items() if s > 20)
    return [["first_year", str(first)], ["share_2017", rnd(share[2017], 2)]]


@solver(9117)
def q9117():
    r = iowa().loc["Renewables"]
    slope, r2 = ols(list(r.index), r.values)
    return [["slope", rnd(slope, 2)], ["r_squared", rnd(r2, 4)]]


# --- us_employment ----------------------------------------------------------------------------


@solver(9118)
def q9118():
    df = employment()
    return [["mean_change", rnd(df.loc[df["month"].dt.year == 2009, "nonfarm_change"].mean(), 2)]]


@solver(9119)
def q9119():
    return [["months", str(int((employment()["nonfarm_change"] < 0).sum()))]]


@solver(9120)
def q9120():
    df = employment()
    y = df.groupby(df["month"].dt.year)["construction"].mean()
    return [["year", str(int(y.idxmin()))], ["average", rnd(y.min(), 1)]]


@solver(9121)
def q9121():
    df = employment()
    cols = ["construction", "manufacturing", "information", "financial_activities",
            "education_and_health_services", "leisure_and_hospitality", "government"]
    g = (df[cols].iloc[-1] / df[cols].iloc[0] - 1) * 100
    return [["largest_growth", g.idxmax()], ["growth_percent", rnd(g.max(), 2)],
            ["largest_decline", g.idxmin()]]


@solver(9122)
def q9122():
    df = employment()
    t = df["nonfarm"].idxmin()
    p = df.loc[: t - 1, "nonfarm"].idxmax()
    fmt = lambda i: df.loc[i, "month"].strftime("%Y-%m")
    return [["trough_month", fmt(t)], ["peak_month", fmt(p)]]


@solver(9123)
def q9123():
    s = employment()["nonfarm_change"]
    return [["median", rnd(s.median(), 1)], ["p90", rnd(s.quantile(0.9), 1)]]


# --- airports ---------------------------------------------------------------------------------


@solver(9124)
def q9124():
    return [["count", str(int((airports()["state"] == "TX").sum()))]]


@solver(9125)
def q9125():
    s = airports()["state"]
    return [["states", str(int(s.nunique(dropna=True)))], ["missing_state", str(int(s.isna().sum()))]]


@solver(9126)
def q9126():
    vc = airports()["state"].dropna().value_counts()
    top = list(vc.index[:3])
    assert vc.iloc[2] > vc.iloc[3]
    return [["first", top[0]], ["second", top[1]], ["third", top[2]]]


@solver(9127)
def q9127():
    df = airports()
    return [["percent", rnd((df["latitude"] > 40).sum() / len(df) * 100, 2)]]


@solver(9128)
def q9128():
    df = airports().dropna(subset=["state"])
    g = df.groupby("state")["latitude"].agg(["size", "mean"])
    kept = g[g["size"] >= 50]
    return [["states", str(len(kept))], ["state", kept["mean"].idxmin()],
            ["mean_latitude", rnd(kept["mean"].min(), 3)]]


# --- barley -----------------------------------------------------------------------------------


@solver(9129)
def q9129():
    df = load("barley.csv")
    return [["mean_yield", rnd(df.loc[df["year"] == 1932, "yield"].mean(), 3)]]


@solver(9130)
def q9130():
    m = load("barley.csv").groupby("site")["yield"].mean()
    return [["site", m.idxmax()], ["mean_yield", rnd(m.max(), 3)]]


@solver(9131)
def q9131():
    df = load("barley.csv")
    w = df.pivot_table(index=["variety", "site"], columns="year", values="yield", aggfunc="size")
    assert (w == 1).all().all() and len(w) == 60
    w = df.pivot(index=["variety", "site"], columns="year", values="yield")
    res = stats.ttest_rel(w[1931], w[1932])
    return [["t_statistic", rnd(res.statistic, 3)], ["p_value", rnd(res.pvalue, 5)]]


@solver(9132)
def q9132():
    m = load("barley.csv").groupby(["site", "year"])["yield"].mean().unstack()
    ch = m[1932] - m[1931]
    return [["sites_increased", str(int((ch > 0).sum()))], ["site", ch.idxmax()],
            ["increase", rnd(ch.max(), 2)]]


# --- la_riots ---------------------------------------------------------------------------------


@solver(9133)
def q9133():
    return [["homicides", str(int((load("la_riots.csv")["type"] == "Homicide").sum()))]]


@solver(9134)
def q9134():
    m = load("la_riots.csv").dropna(subset=["age"]).groupby("race")["age"].mean()
    return [["race", m.idxmax()], ["mean_age", rnd(m.max(), 2)]]


@solver(9135)
def q9135():
    df = load("la_riots.csv")
    d = pd.to_datetime(df["death_date"], format="%Y-%m-%d").dt.strftime("%Y-%m-%d")
    vc = d.value_counts()
    assert vc.iloc[0] > vc.iloc[1]
    return [["date", vc.index[0]], ["deaths", str(int(vc.iloc[0]))]]


@solver(9136)
def q9136():
    m = load("la_riots.csv").dropna(subset=["age"]).groupby("gender")["age"].median()
    return [["median_age_female", rnd(m["Female"], 1)], ["median_age_male", rnd(m["Male"], 1)]]


# --- wheat ------------------------------------------------------------------------------------


@solver(9137)
def q9137():
    df = load("wheat.csv")
    i = df["wheat"].idxmax()
    return [["year", str(int(df.loc[i, "year"]))], ["price", rnd(df.loc[i, "wheat"], 1)]]


@solver(9138)
def q9138():
    df = load("wheat.csv").dropna(subset=["wheat", "wages"])
    return [["r", rnd(stats.pearsonr(df["wheat"], df["wages"])[0], 3)]]


@solver(9139)
def q9139():
    df = load("wheat.csv").dropna(subset=["wages"])
    slope, r2 = ols(df["year"], df["wages"])
    return [["slope", rnd(slope, 4)], ["r_squared", rnd(r2, 3)]]


# --- sf_temps ---------------------------------------------------------------------------------


@solver(9140)
def q9140():
    df = load("sf_temps.csv")
    df["date"] = pd.to_datetime(df["date"], format="%Y/%m/%d %H:%M:%S")
    m = df.groupby(df["date"].dt.to_period("M"))["temp"].mean()
    return [["warmest_month", str(m.idxmax())], ["coldest_month", str(m.idxmin())],
            ["difference", rnd(m.max() - m.min(), 2)]]


# --- crimea -----------------------------------------------------------------------------------


@solver(9141)
def q9141():
    df = load("crimea.csv")
    t = df[["wounds", "other", "disease"]].sum()
    return [["disease_share", rnd(t["disease"] / t.sum() * 100, 2)]]


@solver(9142)
def q9142():
    df = load("crimea.csv")
    tot = df["wounds"] + df["other"] + df["disease"]
    i = tot.idxmax()
    assert (tot == tot.max()).sum() == 1
    month = pd.to_datetime(df.loc[i, "date"], format="%Y-%m-%d").strftime("%Y-%m")
    return [["month", month], ["deaths", integer(tot.max())]]


def main() -> None:
    """Answer every question and write ``independent_answers.jsonl``, after checking that every
    question is answered with its format's names in order (``heldout_common``, shared by batches C-J)."""
    answers = {qid: SOLVERS[qid]() for qid in sorted(SOLVERS)}
    heldout_common.check_names(answers, HERE / "questions.jsonl")
    heldout_common.write_answers(OUT, answers, "answers")


if __name__ == "__main__":
    main()
