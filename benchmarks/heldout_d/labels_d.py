"""Labels of held-out batch D: one function per question id (the first solution, pandas/scipy).

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
from heldout_common import label_registry, render  # noqa: E402,F401  (render: make_labels)

LABELS, label = label_registry()


def _hourly(read) -> pd.Series:
    df = read("seattle_temps.csv")
    df["date"] = pd.to_datetime(df["date"], format="%Y/%m/%d %H:%M")
    return df.set_index("date")["temp"]


def _co2(read) -> pd.DataFrame:
    df = read("co2_weekly.csv")
    df["date"] = pd.to_datetime(df["date"].astype(str), format="%Y%m%d")
    df["year"] = df["date"].dt.year
    df["month"] = df["date"].dt.month
    return df


# ---------------------------------------------------------------- easy
@label(9301)
def l9301(read):
    c = read("cars.csv")
    return [("eight_cylinder_cars", int((c["Cylinders"] == 8).sum()), None)]


@label(9302)
def l9302(read):
    c = read("cars.csv")
    return [("mean_horsepower_japan", c.loc[c["Origin"] == "Japan", "Horsepower"].mean(), 2)]


@label(9303)
def l9303(read):
    return [("distinct_names", int(read("cars.csv")["Name"].nunique()), None)]


@label(9304)
def l9304(read):
    i = read("iris.csv")
    return [("median_petal_length", i.loc[i["species"] == "versicolor", "petalLength"].median(), 2)]


@label(9305)
def l9305(read):
    d = read("driving.csv")
    top = d[d["gas"] == d["gas"].max()]
    assert len(top) == 1
    return [("year", int(top["year"].iloc[0]), None)]


@label(9306)
def l9306(read):
    b = read("burtin.csv")
    return [("gram_positive", int((b["Gram_Staining"] == "positive").sum()), None)]


@label(9307)
def l9307(read):
    o = read("ohlc.csv")
    return [("up_days", int((o["close"] > o["open"]).sum()), None)]


@label(9308)
def l9308(read):
    return [("max_temp", read("seattle_temps.csv")["temp"].max(), 1)]


@label(9309)
def l9309(read):
    a = read("anscombe.csv")
    return [("mean_y_iv", a.loc[a["Series"] == "IV", "Y"].mean(), 2)]


@label(9310)
def l9310(read):
    return [("missing_weeks", int(read("co2_weekly.csv")["co2"].isna().sum()), None)]


# ---------------------------------------------------------------- medium
def _argmax_label(series: pd.Series):
    top = series[series == series.max()]
    assert len(top) == 1, top
    return top.index[0]


@label(9311)
def l9311(read):
    c = read("cars.csv")
    return [("origin", _argmax_label(c.groupby("Origin")["Miles_per_Gallon"].mean()), None)]


@label(9312)
def l9312(read):
    c = read("cars.csv")
    four = c[c["Cylinders"] == 4]
    return [("japan_share_pct", 100 * (four["Origin"] == "Japan").mean(), 2)]


@label(9313)
def l9313(read):
    return [("weight_p90", read("cars.csv")["Weight_in_lbs"].quantile(0.9), 2)]


@label(9314)
def l9314(read):
    i = read("iris.csv")
    return [("r", i["sepalLength"].corr(i["petalLength"]), 4)]


@label(9315)
def l9315(read):
    i = read("iris.csv")
    return [("species", _argmax_label(i.groupby("species")["sepalWidth"].mean()), None)]


@label(9316)
def l9316(read):
    h = _hourly(read)
    h = h[h.index.year == 2010]
    return [("month", int(_argmax_label(h.groupby(h.index.month).mean())), None)]


@label(9317)
def l9317(read):
    h = _hourly(read)
    highs = h.loc["2010-07"].resample("D").max()
    assert len(highs) == 31 and highs.notna().all()
    return [("mean_daily_high", highs.mean(), 2)]


@label(9318)
def l9318(read):
    co = _co2(read)
    return [("mean_co2_1990", co.loc[co["year"] == 1990, "co2"].mean(), 2)]


@label(9319)
def l9319(read):
    d = read("driving.csv").sort_values("year")
    first, last = d["miles"].iloc[0], d["miles"].iloc[-1]
    assert d["year"].iloc[0] == 1956 and d["year"].iloc[-1] == 2010
    return [("growth_pct", 100 * (last - first) / first, 2)]


@label(9320)
def l9320(read):
    d = read("driving.csv")
    nineties = d.loc[d["year"].between(1990, 1999), "miles"].sum()
    return [("share_1990s_pct", 100 * nineties / d["miles"].sum(), 2)]


@label(9321)
def l9321(read):
    o = read("ohlc.csv")
    return [("mean_ret_short", o.loc[o["signal"] == "short", "ret"].mean(), 4)]


@label(9322)
def l9322(read):
    b = read("burtin.csv")
    return [("median_penicillin", b.loc[b["Gram_Staining"] == "negative", "Penicillin"].median(), 3)]


@label(9323)
def l9323(read):
    f = read("fertility.csv").set_index("Country Name")
    return [("country", _argmax_label(f["2011"].dropna()), None)]


@label(9324)
def l9324(read):
    f = read("fertility.csv")
    return [("below_replacement", int((f["2011"] < 2.1).sum()), None)]


@label(9325)
def l9325(read):
    a = read("anscombe.csv")
    s = a[a["Series"] == "I"]
    return [("slope", stats.linregress(s["X"], s["Y"]).slope, 4)]


@label(9326)
def l9326(read):
    w = read("iris.csv")["sepalWidth"]
    q1, q3 = w.quantile(0.25), w.quantile(0.75)
    iqr = q3 - q1
    return [("outliers", int(((w < q1 - 1.5 * iqr) | (w > q3 + 1.5 * iqr)).sum()), None)]


# ---------------------------------------------------------------- hard
@label(9327)
def l9327(read):
    c = read("cars.csv").dropna(subset=["Miles_per_Gallon"])
    c["make"] = c["Name"].str.split().str[0]
    g = c.groupby("make")["Miles_per_Gallon"].agg(["mean", "size"])
    ranked = g[g["size"] >= 10].sort_values("mean", ascending=False)
    assert ranked["mean"].iloc[:4].is_unique
    top = list(ranked.index[:3])
    return [("first_make", top[0], None), ("second_make", top[1], None), ("third_make", top[2], None)]


@label(9328)
def l9328(read):
    c = read("cars.csv")
    four = c[c["Cylinders"] == 4]
    europe = four.loc[four["Origin"] == "Europe", "Miles_per_Gallon"].dropna()
    japan = four.loc[four["Origin"] == "Japan", "Miles_per_Gallon"].dropna()
    res = stats.ttest_ind(europe, japan, equal_var=False)
    return [("t_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


@label(9329)
def l9329(read):
    c = read("cars.csv")
    table = pd.crosstab(c["Origin"], c["Cylinders"])
    assert table.shape == (3, 5)
    res = stats.chi2_contingency(table, correction=False)
    return [("chi2", res.statistic, 2), ("dof", int(res.dof), None)]


@label(9330)
def l9330(read):
    c = read("cars.csv")
    c["model_year"] = pd.to_datetime(c["Year"], format="%Y-%m-%d").dt.year
    means = c.groupby("model_year")["Miles_per_Gallon"].mean().sort_index()
    fall = -means.diff()  # previous present year minus this year
    return [("model_year", int(_argmax_label(fall.dropna())), None)]


@label(9331)
def l9331(read):
    c = read("cars.csv").dropna(subset=["Horsepower"])
    by = c.groupby("Origin")["Horsepower"]
    z = (c["Horsepower"] - by.transform("mean")) / by.transform(lambda s: s.std(ddof=1))
    return [("outliers", int((z.abs() > 2.5).sum()), None)]


@label(9332)
def l9332(read):
    daily = _hourly(read).resample("D").mean()
    assert daily.notna().all()
    drop = daily.shift(1) - daily
    return [("day", _argmax_label(drop.dropna()).strftime("%Y-%m-%d"), None)]


@label(9333)
def l9333(read):
    co = _co2(read)
    yearly = co[co["year"].between(1959, 2001)].groupby("year")["co2"].mean()
    assert len(yearly) == 43
    return [("trend_ppm_per_year", stats.linregress(yearly.index.to_numpy(float), yearly.to_numpy()).slope, 4)]


@label(9334)
def l9334(read):
    co = _co2(read).dropna(subset=["co2"])
    co = co[co["year"].between(1959, 2001)]
    annual = co.groupby("year")["co2"].mean()
    monthly = co.groupby(["year", "month"])["co2"].mean().reset_index()
    monthly["dev"] = monthly["co2"] - monthly["year"].map(annual)
    cycle = monthly.groupby("month")["dev"].mean()
    assert len(cycle) == 12
    return [("peak_month", int(_argmax_label(cycle)), None), ("amplitude", cycle.max() - cycle.min(), 2)]


@label(9335)
def l9335(read):
    f = read("fertility.csv").dropna(subset=["1960", "2011"]).set_index("Country Name")
    change = 100 * (f["2011"] - f["1960"]) / f["1960"]
    return [("country", _argmax_label(-change), None)]


@label(9336)
def l9336(read):
    f = read("fertility.csv")
    return [("sd_1960", f["1960"].std(ddof=1), 3), ("sd_2011", f["2011"].std(ddof=1), 3)]


@label(9337)
def l9337(read):
    i = read("iris.csv")
    res = stats.ttest_ind(
        i.loc[i["species"] == "versicolor", "sepalLength"], i.loc[i["species"] == "virginica", "sepalLength"], equal_var=True
    )
    return [("t_statistic", res.statistic, 4), ("significant", "yes" if res.pvalue < 0.01 else "no", None)]


@label(9338)
def l9338(read):
    o = read("ohlc.csv")
    o["date"] = pd.to_datetime(o["date"], format="%Y-%m-%d")
    weekly = o.sort_values("date").set_index("date")["close"].resample("W-FRI").last().dropna()
    return [("up_weeks", int((weekly.diff() > 0).sum()), None)]


@label(9339)
def l9339(read):
    a = read("anscombe.csv")
    s = a[a["Series"] == "III"]
    fit = stats.linregress(s["X"], s["Y"])
    resid = (s["Y"] - (fit.intercept + fit.slope * s["X"])).abs()
    assert (resid == resid.max()).sum() == 1
    kept = s.drop(resid.idxmax())
    return [("slope_without_outlier", stats.linregress(kept["X"], kept["Y"]).slope, 4)]


@label(9340)
def l9340(read):
    b = read("burtin.csv")
    return [("r_log", np.log10(b["Penicillin"]).corr(np.log10(b["Neomycin"])), 4)]
