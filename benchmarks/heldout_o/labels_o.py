"""Batch O's first solution (pandas and scipy): for each question id, a function of ``read`` (a
table's file name -> its DataFrame) that returns the answer's items, ``[(name, value, decimals)]``
in the format's order, ``decimals`` None where the value is written as it is (a count, a label, a
quarter, a year, a date). ``make_labels.py`` writes them with ``heldout_common.render``, which
refuses a value within 1e-3 of a rounding half; ``top_index`` refuses a tied "which is highest". Do
not read this file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import label_registry, ols, pct, top_index  # noqa: E402
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_o.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
TOTAL_AREAS = ("United Kingdom", "Scotland")
HOUSING = ["Area", "private", "social", "dwellings", "households", "rent", "council_tax"]
LABOUR = ["Area", "active", "employed", "manufacturing", "ilo", "claimants", "female", "long_term", "earnings"]
CITIES = ["Aberdeen City", "Dundee City", "Edinburgh, City of", "Glasgow City"]


def _councils(read, name: str, columns: list[str]) -> pd.DataFrame:
    """The 32 council areas of a Regional Trends table (the UK and Scotland rows left out), indexed
    by area, ``..`` (not available) read as missing."""
    d = read(name)
    assert len(d.columns) == len(columns)
    d.columns = columns
    d = d[~d["Area"].isin(TOTAL_AREAS)].set_index("Area")
    assert len(d) == 32
    return d.replace("..", np.nan).apply(pd.to_numeric)


def _housing(read) -> pd.DataFrame:
    return _councils(read, "scotland_housing.csv", HOUSING)


def _labour(read) -> pd.DataFrame:
    return _councils(read, "scotland_labour_market.csv", LABOUR)


def _quarters(read) -> pd.DataFrame:
    """The quarterly series with the year, GDP growth (percent on the quarter before) and the change
    in the unemployment rate; the 1947 rates (written 0: not available) set missing."""
    g = read("us_gdp_unemployment_quarterly.csv")
    assert len(g) == 195 and g["quarter"].iloc[0] == "1947Q1" and g["quarter"].iloc[-1] == "1995Q3"
    g["year"] = g["quarter"].str[:4].astype(int)
    assert (g.loc[g["year"] == 1947, "unemployment_rate"] == 0).all() and (g.loc[g["year"] > 1947, "unemployment_rate"] > 0).all()
    g["rate"] = g["unemployment_rate"].where(g["year"] > 1947)
    g["growth"] = 100 * g["real_gdp"].pct_change()
    g["change"] = g["rate"].diff()
    return g


def _zones(read) -> pd.DataFrame:
    """The zones with latitude and longitude in decimal degrees."""
    t = read("time_zones.csv")
    assert len(t) == 418 and t["country_code"].notna().all()

    def degrees(text: str, width: int) -> float:
        whole = text[1:]
        value = int(whole[:width]) + int(whole[width:width + 2]) / 60 + (int(whole[width + 2:]) if len(whole) > width + 2 else 0) / 3600
        return -value if text[0] == "-" else value

    parts = t["coordinates"].str.extract(r"^([+-]\d+)([+-]\d+)$")
    assert parts.notna().all().all()
    t["lat"] = parts[0].map(lambda s: degrees(s, 2))
    t["lon"] = parts[1].map(lambda s: degrees(s, 3))
    return t


def _leaps(read) -> pd.DataFrame:
    s = read("leap_seconds.csv")
    assert len(s) == 27
    s["date"] = pd.to_datetime(s["year"].astype(str) + "-" + s["month"] + "-" + s["day"].astype(str), format="%Y-%b-%d")
    assert s["date"].is_monotonic_increasing
    return s


def _certificates(read) -> pd.DataFrame:
    c = read("root_certificates.csv")
    assert len(c) == 117
    c["start"] = pd.to_datetime(c["not_before"])
    c["end"] = pd.to_datetime(c["not_after"])
    c["days"] = (c["end"] - c["start"]).dt.total_seconds() / 86400
    return c


# ---------------------------------------------------------------- easy
@label(10101)
def l10101(read):
    return [("councils_over_1000", int((_housing(read)["private"] > 1000).sum()), None)]


@label(10102)
def l10102(read):
    return [("areas_with_ilo_rate", int(_labour(read)["ilo"].notna().sum()), None)]


@label(10103)
def l10103(read):
    return [("peak_unemployment_quarter", top_index(_quarters(read).set_index("quarter")["unemployment_rate"]), None)]


@label(10104)
def l10104(read):
    return [("quarters_gdp_fell", int((_quarters(read)["real_gdp"].diff() < 0).sum()), None)]


@label(10105)
def l10105(read):
    return [("brazil_zones", int((_zones(read)["country_code"] == "BR").sum()), None)]


@label(10106)
def l10106(read):
    t = _zones(read)
    return [("pct_with_comment", pct(t["comments"].notna().sum(), len(t)), 2)]


@label(10107)
def l10107(read):
    return [("december_leap_seconds", int((_leaps(read)["month"] == "Dec").sum()), None)]


@label(10108)
def l10108(read):
    return [("ec_certificates", int((_certificates(read)["key_type"] == "EC").sum()), None)]


@label(10109)
def l10109(read):
    c = _certificates(read)
    return [("expiring_before_2030", int((c["end"] < pd.Timestamp("2030-01-01")).sum()), None)]


@label(10110)
def l10110(read):
    return [("top_country", top_index(_certificates(read)["country"].value_counts()), None)]


# ---------------------------------------------------------------- medium
@label(10111)
def l10111(read):
    return [("median_council_tax", _housing(read)["council_tax"].median(), 2)]


@label(10112)
def l10112(read):
    h = _housing(read)
    return [("most_dwellings_per_household", top_index(h["dwellings"] / h["households"]), None)]


@label(10113)
def l10113(read):
    h = _housing(read)
    total = h["private"] + h["social"]
    return [("city_share_pct", pct(total[CITIES].sum(), total.sum()), 2)]


@label(10114)
def l10114(read):
    return [("top_earnings_area", top_index(_labour(read)["earnings"]), None)]


@label(10115)
def l10115(read):
    return [("mean_council_earnings", _labour(read)["earnings"].mean(), 2)]


@label(10116)
def l10116(read):
    l = _labour(read)
    return [("most_claimants_per_1000_employed", top_index(1000 * l["claimants"] / l["employed"]), None)]


@label(10117)
def l10117(read):
    g = _quarters(read)
    sixties = g[g["quarter"].between("1960Q1", "1969Q4")]
    assert len(sixties) == 40
    return [("mean_unemployment_1960s", sixties["unemployment_rate"].mean(), 2)]


@label(10118)
def l10118(read):
    g = _quarters(read)
    annual = g[g["year"] <= 1994].groupby("year")["real_gdp"].mean()
    assert len(annual) == 48 and (g[g["year"] <= 1994].groupby("year").size() == 4).all()
    return [("largest_annual_fall_year", int(top_index(annual.pct_change(), largest=False)), None)]


@label(10119)
def l10119(read):
    areas = _zones(read)["TZ"].str.split("/").str[0]
    return [("area_with_most_zones", top_index(areas.value_counts()), None)]


@label(10120)
def l10120(read):
    counts = _zones(read)["country_code"].value_counts()
    assert "NA" in counts.index
    return [("single_zone_countries", int((counts == 1).sum()), None)]


@label(10121)
def l10121(read):
    return [("most_common_weekday", top_index(_leaps(read)["date"].dt.day_name().value_counts()), None)]


@label(10122)
def l10122(read):
    s = _leaps(read)
    return [("year_of_twentieth", int(s["year"].iloc[19]), None)]


@label(10123)
def l10123(read):
    years = set(_leaps(read)["year"])
    return [("years_without_leap_second", sum(y not in years for y in range(1972, 2017)), None)]


@label(10124)
def l10124(read):
    return [("median_validity_days", _certificates(read)["days"].median(), 2)]


@label(10125)
def l10125(read):
    return [("busiest_start_year", int(top_index(_certificates(read)["start"].dt.year.value_counts())), None)]


@label(10126)
def l10126(read):
    c = _certificates(read)
    late = c[c["start"] >= pd.Timestamp("2015-01-01")]
    return [("pct_rsa4096_since_2015", pct(((late["key_type"] == "RSA") & (late["key_bits"] == 4096)).sum(), len(late)), 2)]


# ---------------------------------------------------------------- hard
@label(10127)
def l10127(read):
    h = _housing(read)
    rho, p = stats.spearmanr(h["rent"], h["council_tax"])
    return [("spearman_rho", rho, 4), ("p_value", p, 4)]


@label(10128)
def l10128(read):
    h = _housing(read)
    total = h["private"] + h["social"]
    kept = h[total >= 200]
    return [("largest_social_share_area", top_index(kept["social"] / (kept["private"] + kept["social"])), None)]


@label(10129)
def l10129(read):
    x = _housing(read)["private"]
    q1, q3 = x.quantile(0.25), x.quantile(0.75)
    iqr = q3 - q1
    return [("private_start_outliers", int(((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)).sum()), None)]


@label(10130)
def l10130(read):
    l = _labour(read).dropna(subset=["ilo"])
    coef, r2 = ols(l["ilo"], l["active"])
    return [("slope", coef[1], 4), ("r_squared", r2, 4)]


@label(10131)
def l10131(read):
    l = _labour(read).dropna(subset=["manufacturing", "earnings"])
    high = l.loc[l["manufacturing"] >= 20, "earnings"]
    low = l.loc[l["manufacturing"] < 20, "earnings"]
    return [("welch_t", stats.ttest_ind(high, low, equal_var=False).statistic, 4)]


@label(10132)
def l10132(read):
    g = _quarters(read)
    g = g[g["year"] >= 1948].set_index("quarter")
    moving = g["rate"].rolling(4).mean()
    end = top_index(moving)
    return [("window_end_quarter", end, None), ("max_moving_average", moving[end], 2)]


@label(10133)
def l10133(read):
    g = _quarters(read)
    d = g[g["quarter"] >= "1948Q2"]
    assert len(d) == 190 and d[["growth", "change"]].notna().all().all()
    coef, r2 = ols(d["change"], d["growth"])
    return [("slope", coef[1], 4), ("r_squared", r2, 4)]


@label(10134)
def l10134(read):
    g = _quarters(read)
    g["next_change"] = g["change"].shift(-1)
    d = g[g["quarter"].between("1948Q1", "1995Q2")]
    assert len(d) == 190 and d[["growth", "next_change"]].notna().all().all()
    return [("lead_correlation", d["growth"].corr(d["next_change"]), 4)]


@label(10135)
def l10135(read):
    growth = _quarters(read)["growth"].dropna()
    assert len(growth) == 194
    z = (growth - growth.mean()) / growth.std(ddof=1)
    return [("growth_outlier_quarters", int((z.abs() > 2.5).sum()), None)]


@label(10136)
def l10136(read):
    return [("mean_abs_latitude", _zones(read)["lat"].abs().mean(), 2)]


@label(10137)
def l10137(read):
    europe = _zones(read)
    europe = europe[europe["TZ"].str.startswith("Europe/")].set_index("TZ")["lon"]
    return [("westernmost", top_index(europe, largest=False), None), ("easternmost", top_index(europe), None)]


@label(10138)
def l10138(read):
    s = _leaps(read)
    gaps = s["date"].diff().dt.days
    later = top_index(gaps)
    return [("longest_gap_days", int(gaps[later]), None), ("gap_end_date", s.loc[later, "date"].strftime("%Y-%m-%d"), None)]


@label(10139)
def l10139(read):
    c = _certificates(read)
    table = pd.crosstab(c["key_type"], c["start"] >= pd.Timestamp("2015-01-01"))
    assert table.shape == (2, 2)
    chi2, p, _, _ = stats.chi2_contingency(table, correction=False)
    return [("chi_square", chi2, 4), ("p_value", p, 6)]


@label(10140)
def l10140(read):
    c = _certificates(read)
    sizes = c["signature_hash"].value_counts()
    groups = [c.loc[c["signature_hash"] == h, "days"] for h in sizes[sizes >= 5].index]
    f, p = stats.f_oneway(*groups)
    return [("f_statistic", f, 4), ("p_value", p, 4)]
