"""Labels of held-out batch H: one function per question id (the first solution, pandas/scipy).

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
from heldout_common import label_registry, month_text, pct, render, top_index  # noqa: E402,F401  (render: make_labels)

LABELS, label = label_registry()
COMPANIES = ["IBM", "AAPL", "MSFT", "XRX", "AMZN", "DELL", "GOOGL", "ADBE"]


def _top_k(series: pd.Series, k: int) -> list:
    """Index labels of the k largest values, after checking the cut at k is not tied."""
    ordered = series.dropna().sort_values(ascending=False)
    assert len(ordered) > k and ordered.iloc[k - 1] - ordered.iloc[k] > 1e-9, ordered.head(k + 1)
    assert (ordered.iloc[: k + 1].diff().dropna() < -1e-9).all(), ordered.head(k + 1)
    return list(ordered.index[:k])


def _day(ts) -> str:
    return f"{ts.year:04d}-{ts.month:02d}-{ts.day:02d}"


def _msft(read) -> pd.DataFrame:
    """The trading days, oldest first, with the parsed date in ``day``."""
    m = read("msft.csv")
    m["day"] = pd.to_datetime(m["Date"], format="%d-%b-%y")
    m = m.sort_values("day").reset_index(drop=True)
    assert m["day"].is_unique and len(m) == 65 and m["day"].dt.year.eq(2003).all()
    return m


def _stocks(read) -> pd.DataFrame:
    s = read("monthly_stocks.csv")
    assert list(s.columns)[:2] == ["Date", "IBM"], s.columns  # the header is the second line
    s["Date"] = pd.to_datetime(s["Date"], format="%Y-%m-%d")
    return s


def _first_of_month(read) -> pd.DataFrame:
    s = _stocks(read)
    f = s[s["Date"].dt.day == 1].set_index("Date").sort_index()
    assert f.index.is_unique and len(f) == 390
    return f


def _quarters(read) -> pd.DataFrame:
    e = read("interest_inflation.csv").sort_values(["year", "quarter"]).reset_index(drop=True)
    e["period"] = e["year"].astype(str) + "Q" + e["quarter"].astype(str)
    assert e["period"].is_unique and len(e) == 107
    return e


def _stackloss_fit(read):
    s = read("stackloss.csv")
    X = np.column_stack([np.ones(len(s)), s[["AIRFLOW", "WATERTEMP", "ACIDCONC"]].to_numpy(float)])
    y = s["STACKLOSS"].to_numpy(float)
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    return s, coef, y - X @ coef


# ---------------------------------------------------------------- easy
@label(9701)
def l9701(read):
    c = read("ccard.csv")
    return [("young_renters", int(((c["AGE"] < 25) & (c["OWNRENT"] == 0)).sum()), None)]


@label(9702)
def l9702(read):
    return [("peak_price_year", int(top_index(read("copper.csv").set_index("YEAR")["COPPERPRICE"])), None)]


@label(9703)
def l9703(read):
    m = _msft(read).set_index("day")
    return [("widest_day", _day(top_index(m["High"] - m["Low"])), None)]


@label(9704)
def l9704(read):
    return [("most_bronze", top_index(read("medals.csv").set_index("nation")["bronze"]), None)]


@label(9705)
def l9705(read):
    s = read("stackloss.csv")
    assert len(s) == 21
    return [("mean_stack_loss", s["STACKLOSS"].mean(), 2)]


@label(9706)
def l9706(read):
    s = read("spector.csv")
    return [("psi_improved", int(((s["PSI"] == 1) & (s["GRADE"] == 1)).sum()), None)]


@label(9707)
def l9707(read):
    s = read("strikes.csv")
    assert s["iprod"].dtype == float
    return [("distinct_iprod", int(s["iprod"].nunique()), None)]


@label(9708)
def l9708(read):
    counts = read("carshare.csv")["peak_hour"].value_counts()
    return [("most_common_peak_hour", int(top_index(counts)), None)]


@label(9709)
def l9709(read):
    return [("peak_rate_quarter", top_index(_quarters(read).set_index("period")["R"]), None)]


@label(9710)
def l9710(read):
    s = _stocks(read).set_index("Date")
    return [("peak_month", month_text(top_index(s["^IXIC"])), None)]


# ---------------------------------------------------------------- medium
@label(9711)
def l9711(read):
    means = read("ccard.csv").groupby("OWNRENT")["AVGEXP"].mean()
    return [("owner_minus_renter", means.loc[1] - means.loc[0], 2)]


@label(9712)
def l9712(read):
    spend = read("ccard.csv")["AVGEXP"]
    assert len(spend) == 72
    top = spend.nlargest(11)
    assert top.iloc[9] > top.iloc[10]
    return [("top10_share", pct(top.iloc[:10].sum(), spend.sum()), 2)]


@label(9713)
def l9713(read):
    c = read("copper.csv").set_index("YEAR")["WORLDCONSUMPTION"]
    return [("consumption_growth_pct", 100 * (c.loc[1975] / c.loc[1951] - 1), 2)]


@label(9714)
def l9714(read):
    c = read("copper.csv").sort_values("YEAR")
    assert c["YEAR"].tolist() == list(range(1951, 1976))
    return [("years_down", int((c["WORLDCONSUMPTION"].diff() < 0).sum()), None)]


@label(9715)
def l9715(read):
    e = _quarters(read)
    counts = e.groupby("year")["R"].count()
    annual = e.groupby("year")["R"].mean()[counts == 4]
    assert annual.index.min() == 1973 and annual.index.max() == 1998
    return [("highest_rate_year", int(top_index(annual)), None)]


@label(9716)
def l9716(read):
    e = _quarters(read)
    return [("r_dp_r", e["Dp"].corr(e["R"]), 4)]


@label(9717)
def l9717(read):
    m = _msft(read)
    monthly = m.groupby(m["day"].dt.to_period("M"))["Volume"].mean()
    assert len(monthly) == 4
    return [("quietest_month", str(top_index(monthly, largest=False)), None)]


@label(9718)
def l9718(read):
    m = _msft(read)
    return [("pct_up_days", pct((m["Close"] > m["Open"]).sum(), len(m)), 2)]


@label(9719)
def l9719(read):
    close = _msft(read)["Close"]
    return [("pct_change", 100 * (close.iloc[-1] / close.iloc[0] - 1), 2)]


@label(9720)
def l9720(read):
    means = read("strikes.csv").groupby("iprod")["duration"].mean()
    return [("iprod_value", f"{top_index(means):.5f}", None)]


@label(9721)
def l9721(read):
    s = read("spector.csv")
    return [("mean_gpa_improved", s.loc[s["GRADE"] == 1, "GPA"].mean(), 3)]


@label(9722)
def l9722(read):
    hours = read("carshare.csv")["car_hours"].sort_values(ascending=False)
    assert len(hours) == 249
    share = hours.cumsum() / hours.sum()
    return [("zones_for_half", int((share < 0.5).sum()) + 1, None)]


@label(9723)
def l9723(read):
    c = read("carshare.csv")
    return [("pct_night_peak", pct(c["peak_hour"].between(0, 5).sum(), len(c)), 2)]


@label(9724)
def l9724(read):
    f = _first_of_month(read)
    start, end = f.loc["2012-01-01", COMPANIES], f.loc["2022-01-01", COMPANIES]
    growth = (end / start - 1).dropna()
    return [("top3_tickers", ", ".join(_top_k(growth, 3)), None)]


@label(9725)
def l9725(read):
    s = _stocks(read)
    return [("rows_without_amzn", int((s["^GSPC"].notna() & s["AMZN"].isna()).sum()), None)]


@label(9726)
def l9726(read):
    s = read("stackloss.csv")
    ranks = s["STACKLOSS"].rank(ascending=False, method="min")
    return [("rank_day20", int(ranks.iloc[19]), None)]


# ---------------------------------------------------------------- hard
@label(9727)
def l9727(read):
    s, coef, resid = _stackloss_fit(read)
    y = s["STACKLOSS"]
    r2 = 1 - (resid**2).sum() / ((y - y.mean()) ** 2).sum()
    return [("airflow_coef", coef[1], 4), ("r_squared", r2, 4)]


@label(9728)
def l9728(read):
    _, _, resid = _stackloss_fit(read)
    resid = pd.Series(resid, index=range(1, len(resid) + 1))
    return [("day", int(top_index(resid)), None)]


@label(9729)
def l9729(read):
    s = read("spector.csv")
    table = pd.crosstab(s["PSI"], s["GRADE"])
    assert table.shape == (2, 2)
    chi2, p, dof, _ = stats.chi2_contingency(table, correction=False)
    assert dof == 1
    return [("chi2", chi2, 3), ("p_value", p, 4)]


@label(9730)
def l9730(read):
    c = read("ccard.csv")
    owners, renters = c.loc[c["OWNRENT"] == 1, "AVGEXP"], c.loc[c["OWNRENT"] == 0, "AVGEXP"]
    result = stats.ttest_ind(owners, renters, equal_var=False)
    return [("t_statistic", result.statistic, 3), ("significant", "yes" if result.pvalue < 0.05 else "no", None)]


@label(9731)
def l9731(read):
    c = read("ccard.csv")
    return [("spearman_rho", stats.spearmanr(c["INCOME"], c["AVGEXP"]).statistic, 4)]


@label(9732)
def l9732(read):
    x = read("carshare.csv")["car_hours"]
    q1, q3 = x.quantile(0.25), x.quantile(0.75)
    iqr = q3 - q1
    low, high = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    assert not (((x - low).abs() < 1e-6) | ((x - high).abs() < 1e-6)).any()
    return [("outlier_zones", int(((x < low) | (x > high)).sum()), None)]


@label(9733)
def l9733(read):
    c = read("copper.csv")
    X = np.column_stack([np.ones(len(c)), c[["COPPERPRICE", "INCOMEINDEX", "ALUMPRICE"]].to_numpy(float)])
    coef, *_ = np.linalg.lstsq(X, c["WORLDCONSUMPTION"].to_numpy(float), rcond=None)
    return [("price_coef", coef[1], 2)]


@label(9734)
def l9734(read):
    e = _quarters(read)
    table = e.pivot(index="year", columns="quarter", values="Dp").dropna()
    assert table.index.min() == 1973 and table.index.max() == 1998 and len(table) == 26
    means = table.mean()
    quarter = top_index(means)
    return [("quarter", int(quarter), None), ("mean_dp", means.loc[quarter], 5)]


@label(9735)
def l9735(read):
    e = _quarters(read).set_index("period")
    moving = e["Dp"].rolling(4).mean().dropna()
    assert len(moving) == 104
    return [("lowest_average_quarter", top_index(moving, largest=False), None)]


@label(9736)
def l9736(read):
    m = _msft(read)
    moving = m["Close"].rolling(10).mean()
    valid = moving.notna()
    assert valid.sum() == 56
    assert ((m["Close"] - moving)[valid].abs() > 1e-6).all()
    return [("days_above_average", int((m["Close"] > moving)[valid].sum()), None)]


@label(9737)
def l9737(read):
    m = _msft(read)
    z = (m["Volume"] - m["Volume"].mean()) / m["Volume"].std(ddof=1)
    assert not ((z.abs() - 2).abs() < 1e-6).any()
    return [("unusual_days", ", ".join(_day(d) for d in m.loc[z.abs() > 2, "day"]), None)]


@label(9738)
def l9738(read):
    f = _first_of_month(read)
    returns = f[["AAPL", "MSFT"]].pct_change(fill_method=None).dropna()
    return [("return_correlation", returns["AAPL"].corr(returns["MSFT"]), 4)]


@label(9739)
def l9739(read):
    f = _first_of_month(read)
    jan = f.loc[f.index.month == 1, "^GSPC"]
    jan.index = jan.index.year
    assert jan.index.tolist() == list(range(1990, 2023))
    gain = (jan.shift(-1) / jan - 1).loc[1990:2021]
    return [("best_year", int(top_index(gain)), None)]


@label(9740)
def l9740(read):
    s = read("strikes.csv")
    return [("spearman_rho", stats.spearmanr(s["duration"], s["iprod"]).statistic, 4)]


assert sorted(LABELS) == list(range(9701, 9741)), sorted(LABELS)
