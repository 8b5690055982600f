"""Batch R's first solution (pandas and scipy): for each question id, a function of ``read`` (a
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
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_r.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
FLIGHTS, AIRLINES, AIRPORTS = "flights.csv", "airlines.csv", "airports.csv"
PLANES, WEATHER, ORGAN = "planes.csv", "weather.csv", "organ_donations.csv"
QUARTERS = ["Q42010", "Q12011", "Q22011", "Q32011", "Q42011", "Q12012"]  # in time order


def _flights(read) -> pd.DataFrame:
    f = read(FLIGHTS)
    assert len(f) == 336776 and (f["year"] == 2013).all()
    return f


def _planes(read) -> pd.DataFrame:
    p = read(PLANES)
    assert len(p) == 3322 and p["tailnum"].is_unique
    return p


def _weather(read) -> pd.DataFrame:
    w = read(WEATHER)
    assert len(w) == 26115 and not w.duplicated(["origin", "time_hour"]).any()
    return w


def _organ(read) -> pd.DataFrame:
    o = read(ORGAN)
    assert len(o) == 162 and set(o["Quarter"]) == set(QUARTERS) and (o.groupby("State").size() == 6).all()
    return o


def _organ_wide(read) -> pd.DataFrame:
    return _organ(read).pivot(index="State", columns="Quarter", values="Rate")[QUARTERS]


# --- easy -----------------------------------------------------------------------------------------

@label(10221)
def _(read):
    return [("jfk_flights", int((_flights(read)["origin"] == "JFK").sum()), None)]


@label(10222)
def _(read):
    return [("cancelled_flights", int(_flights(read)["dep_time"].isna().sum()), None)]


@label(10223)
def _(read):
    a = read(AIRLINES)
    assert len(a) == 16
    return [("inc_airlines", int(a["name"].str.endswith("Inc.").sum()), None)]


@label(10224)
def _(read):
    w = _weather(read)
    return [("max_temp_lga", w.loc[w["origin"] == "LGA", "temp"].max(), 2)]


@label(10225)
def _(read):
    o = _organ(read)
    return [("california_mean_rate", o.loc[o["State"] == "California", "Rate"].mean(), 4)]


@label(10226)
def _(read):
    f = _flights(read)
    return [("mean_distance_ewr", f.loc[f["origin"] == "EWR", "distance"].mean(), 2)]


@label(10227)
def _(read):
    return [("top_manufacturer", top_index(_planes(read)["manufacturer"].value_counts()), None)]


@label(10228)
def _(read):
    a = read(AIRPORTS)
    assert len(a) == 1458
    return [("chicago_tz_airports", int((a["tzone"] == "America/Chicago").sum()), None)]


@label(10229)
def _(read):
    f = _flights(read)
    return [("lga_destinations", int(f.loc[f["origin"] == "LGA", "dest"].nunique()), None)]


@label(10230)
def _(read):
    w = _weather(read)
    return [("precip_share", pct((w["precip"] > 0).sum(), len(w)), 2)]


# --- medium ---------------------------------------------------------------------------------------

@label(10231)
def _(read):
    d = _flights(read)["arr_delay"].dropna()
    return [("late_share", pct((d > 15).sum(), len(d)), 2)]


@label(10232)
def _(read):
    month = top_index(_flights(read).groupby("month")["dep_delay"].mean())
    return [("worst_month", calendar.month_name[int(month)], None)]


@label(10233)
def _(read):
    f = _flights(read)
    return [("top_carrier_ewr", top_index(f.loc[f["origin"] == "EWR", "carrier"].value_counts()), None)]


@label(10234)
def _(read):
    f = _flights(read)
    return [("median_arr_delay_atl", f.loc[f["dest"] == "ATL", "arr_delay"].dropna().median(), 1)]


@label(10235)
def _(read):
    t = _flights(read)["dep_time"].dropna()
    return [("night_departures", int(((t < 500) | (t == 2400)).sum()), None)]


@label(10236)
def _(read):
    f = _flights(read).dropna(subset=["dep_time", "tailnum"])
    return [("busiest_plane", top_index(f["tailnum"].value_counts()), None)]


@label(10237)
def _(read):
    w = _weather(read)
    return [("jfk_july_temp", w.loc[(w["origin"] == "JFK") & (w["month"] == 7), "temp"].mean(), 2)]


@label(10238)
def _(read):
    o = _organ(read)
    return [("top_state_q1_2012", top_index(o[o["Quarter"] == "Q12012"].set_index("State")["Rate"]), None)]


@label(10239)
def _(read):
    ca = _organ_wide(read).loc["California"]
    return [("california_change", ca["Q12012"] - ca["Q42010"], 4)]


@label(10240)
def _(read):
    a = read(AIRPORTS).dropna(subset=["tzone"])
    return [("highest_tzone", top_index(a.groupby("tzone")["alt"].mean()), None)]


@label(10241)
def _(read):
    f = _flights(read)
    c = f[f["dep_time"].isna()]
    per_day = c.groupby(["year", "month", "day"]).size()
    y, m, d = top_index(per_day)
    return [("worst_cancel_day", f"{y:04d}-{m:02d}-{d:02d}", None)]


@label(10242)
def _(read):
    f = _flights(read).dropna(subset=["arr_delay"])
    g = f.groupby("carrier")["arr_delay"].agg(["size", "mean"])
    return [("best_carrier", top_index(g.loc[g["size"] >= 1000, "mean"], largest=False), None)]


@label(10243)
def _(read):
    return [("seats_p90", _planes(read)["seats"].quantile(0.9), 1)]


@label(10244)
def _(read):
    w = _weather(read)
    e = w[w["origin"] == "EWR"].dropna(subset=["temp", "dewp"])
    return [("temp_dewp_r", stats.pearsonr(e["temp"], e["dewp"])[0], 4)]


@label(10245)
def _(read):
    f = _flights(read)
    share = f["dep_time"].isna().groupby(f["origin"]).mean() * 100
    top = top_index(share)
    return [("worst_origin", top, None), ("cancel_share", share[top], 2)]


@label(10246)
def _(read):
    f = _flights(read)
    d = f[(f["carrier"] == "DL")].dropna(subset=["air_time"])
    return [("dl_mean_speed", (d["distance"] / (d["air_time"] / 60)).mean(), 2)]


# --- hard -----------------------------------------------------------------------------------------

@label(10247)
def _(read):
    w = _weather(read)
    e = w[w["origin"] == "EWR"]
    share = (e["visib"] < 1).groupby(e["month"]).mean() * 100
    month = top_index(share)
    return [("foggiest_month", calendar.month_name[int(month)], None), ("low_visibility_share", share[month], 2)]


@label(10248)
def _(read):
    f = _flights(read)
    dec = f[f["month"] == 12].dropna(subset=["dep_delay"])
    jfk, lga = dec.loc[dec["origin"] == "JFK", "dep_delay"], dec.loc[dec["origin"] == "LGA", "dep_delay"]
    t = stats.ttest_ind(jfk, lga, equal_var=False)
    return [("t_statistic", t.statistic, 2), ("degrees_of_freedom", t.df, 1)]


@label(10249)
def _(read):
    f = _flights(read)
    table = pd.crosstab(f["origin"], f["dep_time"].isna())
    chi2, _, dof, _ = stats.chi2_contingency(table, correction=False)
    assert dof == 2
    return [("chi_square", chi2, 2)]


@label(10250)
def _(read):
    f = _flights(read)
    b = f[f["dest"] == "FLL"].dropna(subset=["arr_delay"])
    groups = [g["arr_delay"].to_numpy() for _, g in b.groupby("origin")]
    assert len(groups) == 3
    res = stats.f_oneway(*groups)
    return [("f_statistic", res.statistic, 3), ("p_value", res.pvalue, 4)]


@label(10251)
def _(read):
    f = _flights(read).dropna(subset=["arr_delay", "dep_delay"])
    coef, r2 = ols(f["arr_delay"], f["dep_delay"])
    return [("slope", coef[1], 4), ("r_squared", r2, 4)]


@label(10252)
def _(read):
    s = _planes(read)["seats"]
    q1, q3 = s.quantile(0.25), s.quantile(0.75)
    iqr = q3 - q1
    return [("seat_outliers", int(((s < q1 - 1.5 * iqr) | (s > q3 + 1.5 * iqr)).sum()), None)]


@label(10253)
def _(read):
    n = _flights(read).groupby("dest")["carrier"].nunique()
    return [("most_carriers", int(n.max()), None), ("destinations_at_most", int((n == n.max()).sum()), None)]


@label(10254)
def _(read):
    o = _organ(read)
    after = o["Quarter"].isin(QUARTERS[3:])
    ca = o["State"] == "California"
    did = (o.loc[ca & after, "Rate"].mean() - o.loc[ca & ~after, "Rate"].mean()) - (
        o.loc[~ca & after, "Rate"].mean() - o.loc[~ca & ~after, "Rate"].mean())
    return [("did_estimate", did, 4)]


@label(10255)
def _(read):
    wide = _organ_wide(read)
    never_fell = (wide.diff(axis=1).iloc[:, 1:] >= 0).all(axis=1)
    return [("never_fell_states", int(never_fell.sum()), None)]


@label(10256)
def _(read):
    w = _weather(read)
    j = w[w["origin"] == "JFK"].dropna(subset=["temp"])
    g = j.groupby(["year", "month", "day"])["temp"]
    y, m, d = top_index(g.max() - g.min())
    return [("widest_swing_day", f"{y:04d}-{m:02d}-{d:02d}", None)]


@label(10257)
def _(read):
    f = _flights(read).dropna(subset=["dep_delay"])
    date = pd.to_datetime(f[["year", "month", "day"]])
    sched = date + pd.to_timedelta(f["sched_dep_time"] // 100 * 60 + f["sched_dep_time"] % 100, unit="min")
    actual = sched + pd.to_timedelta(f["dep_delay"], unit="min")
    return [("next_day_departures", int((actual.dt.normalize() > date).sum()), None)]


@label(10258)
def _(read):
    a = read(AIRPORTS).set_index("faa")
    lat, lon = np.radians(a["lat"]), np.radians(a["lon"])
    lat0, lon0 = lat["JFK"], lon["JFK"]
    h = np.sin((lat - lat0) / 2) ** 2 + np.cos(lat) * np.cos(lat0) * np.sin((lon - lon0) / 2) ** 2
    miles = 2 * 3958.8 * np.arcsin(np.sqrt(h))
    near = int((miles.drop("JFK") < 100).sum())
    return [("jfk_lax_miles", miles["LAX"], 1), ("airports_within_100", near, None)]


@label(10259)
def _(read):
    f = _flights(read).dropna(subset=["dep_delay"])
    half = np.where(f["month"] <= 6, "first", "second")
    m = f.groupby(["carrier", half])["dep_delay"].mean().unstack().dropna()
    rise = m["second"] - m["first"]
    top = top_index(rise)
    return [("carrier", top, None), ("rise_minutes", rise[top], 2)]


@label(10260)
def _(read):
    p = _planes(read).dropna(subset=["year"])
    return [("spearman_rho", stats.spearmanr(p["year"], p["seats"])[0], 4)]
