"""Batch N's first solution (pandas and scipy): for each question id, a function of ``read`` (a
table's file name -> its DataFrame) that returns the answer's items, ``[(name, value, decimals)]``
in the format's order, ``decimals`` None where the value is written as it is (a count, a label, a
quarter, a year). ``make_labels.py`` writes them with ``heldout_common.render``, which refuses a
value within 1e-3 of a rounding half; ``top_index`` refuses a tied "which is highest". Do not read
this file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import label_registry, ols, pct, top_index  # noqa: E402
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_n.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
TOTAL_AREAS = ("United Kingdom", "Scotland")
VITAL = ["Area", "births", "deaths", "perinatal", "infant", "outside_marriage"]
EDUCATION = ["Area", "nursery", "under5", "pt_primary", "pt_secondary", "post_compulsory", "no_grades",
             "five_grades", "training"]
EXPORTS = ["sector", "value", "share", "increase", "contribution"]


def _titanic(read) -> pd.DataFrame:
    t = read("titanic_passengers.csv")
    assert len(t) == 1309
    return t


def _destinations(read) -> pd.DataFrame:
    """The ten destinations, the value (its header has lost its pound sign) parsed."""
    d = read("scottish_export_destinations.csv")
    assert len(d) == 10 and d.columns[1].startswith("Value (")
    d["value"] = d.iloc[:, 1].str.replace(",", "").astype(float)
    d["growth"] = d["Nominal percentage growth in 1996"]
    return d


def _investment(read) -> pd.DataFrame:
    u = read("us_investment_quarterly.csv")
    assert len(u) == 104 and u["quarter"].iloc[0] == "1947Q1" and u["quarter"].iloc[-1] == "1972Q4"
    u["year"] = u["quarter"].str[:4].astype(int)
    return u


def _councils(read, name: str, columns: list[str]) -> pd.DataFrame:
    """The 32 council areas of a Regional Trends table (the UK and Scotland rows left out), indexed by area."""
    d = read(name)
    d.columns = columns
    d = d[~d["Area"].isin(TOTAL_AREAS)].set_index("Area")
    assert len(d) == 32
    return d


def _exports(read) -> pd.DataFrame:
    """The ten named sectors (``Other  sectors`` and the total row left out), values parsed."""
    x = read("scottish_manufactured_exports.csv")
    x.columns = EXPORTS
    x["value"] = x["value"].str.replace(",", "").astype(float)
    assert x["sector"].iloc[-1] == "All Manufacturing Industries" and x["sector"].iloc[-2].startswith("Other")
    return x.iloc[:10]


def _catalog(read) -> pd.DataFrame:
    c = read("vega_dataset_catalog.csv")
    assert len(c) == 72
    return c


def _linnerud(read) -> pd.DataFrame:
    l = read("linnerud_fitness.csv")
    assert len(l) == 20
    return l


# ---------------------------------------------------------------- easy
@label(10061)
def l10061(read):
    return [("queenstown_passengers", int((_titanic(read)["embarked"] == "Q").sum()), None)]


@label(10062)
def l10062(read):
    t = _titanic(read)
    return [("median_first_class_fare", t.loc[t["pclass"] == 1, "fare"].dropna().median(), 2)]


@label(10063)
def l10063(read):
    d = _destinations(read)
    return [("destinations_with_falls", int((d["growth"] < 0).sum()), None)]


@label(10064)
def l10064(read):
    u = _investment(read).set_index("quarter")
    return [("lowest_inventory_quarter", top_index(u["y2"], largest=False), None)]


@label(10065)
def l10065(read):
    return [("quarters_inventories_fell", int((_investment(read)["y2"] < 0).sum()), None)]


@label(10066)
def l10066(read):
    v = _councils(read, "scotland_vital_statistics.csv", VITAL)
    return [("highest_outside_marriage_area", top_index(v["outside_marriage"]), None)]


@label(10067)
def l10067(read):
    e = _councils(read, "scotland_education.csv", EDUCATION)
    return [("areas_with_training_figure", int((e["training"] != "..").sum()), None)]


@label(10068)
def l10068(read):
    return [("named_sector_exports", _exports(read)["value"].sum(), 1)]


@label(10069)
def l10069(read):
    c = _catalog(read)
    return [("tabular_json_entries", int((c["is_tabular"] & c["is_json"]).sum()), None)]


@label(10070)
def l10070(read):
    l = _linnerud(read)
    return [("mean_situps_slim_waist", l.loc[l["Waist"] < 36, "Situps"].mean(), 2)]


# ---------------------------------------------------------------- medium
@label(10071)
def l10071(read):
    t = _titanic(read)
    chosen = t[(t["sex"] == "female") & (t["pclass"] == 3)]
    return [("survival_pct_female_third", pct(chosen["survived"].sum(), len(chosen)), 2)]


@label(10072)
def l10072(read):
    t = _titanic(read).dropna(subset=["embarked"])
    return [("best_survival_port", top_index(t.groupby("embarked")["survived"].mean()), None)]


@label(10073)
def l10073(read):
    t = _titanic(read)
    ages = t.groupby("survived")["age"].mean()
    return [("mean_age_survivors", ages[1], 2), ("mean_age_non_survivors", ages[0], 2)]


@label(10074)
def l10074(read):
    counts = _titanic(read)["ticket"].value_counts()
    return [("tickets_with_5_or_more", int((counts >= 5).sum()), None)]


@label(10075)
def l10075(read):
    d = _destinations(read).set_index("Destination")
    return [("asia_share_pct", pct(d.loc[["Japan", "Other Asia Pacific"], "value"].sum(), d["value"].sum()), 2)]


@label(10076)
def l10076(read):
    t = _titanic(read)
    return [("oldest_class", int(top_index(t.groupby("pclass")["age"].median())), None)]


@label(10077)
def l10077(read):
    annual = _investment(read).groupby("year")["y1"].sum()
    return [("fastest_growth_year", int(top_index(annual.pct_change())), None)]


@label(10078)
def l10078(read):
    annual = _investment(read).groupby("year")["y1"].mean()
    return [("pct_change_1960_1970", pct(annual[1970] - annual[1960], annual[1960]), 2)]


@label(10079)
def l10079(read):
    v = _councils(read, "scotland_vital_statistics.csv", VITAL)
    return [("mean_infant_mortality", v["infant"].mean(), 3)]


@label(10080)
def l10080(read):
    v = _councils(read, "scotland_vital_statistics.csv", VITAL)
    return [("areas_more_deaths_than_births", int((v["deaths"] > v["births"]).sum()), None)]


@label(10081)
def l10081(read):
    e = _councils(read, "scotland_education.csv", EDUCATION)
    return [("median_primary_ratio", e["pt_primary"].median(), 2)]


@label(10082)
def l10082(read):
    e = _councils(read, "scotland_education.csv", EDUCATION)
    gap = (e["pt_primary"] - e["pt_secondary"]).round(10)
    return [("smallest_ratio_gap_area", top_index(gap, largest=False), None)]


@label(10083)
def l10083(read):
    x = _exports(read).set_index("sector")
    return [("fastest_growing_sector", top_index(x["increase"]), None)]


@label(10084)
def l10084(read):
    c = _catalog(read)
    return [("csv_megabytes", c.loc[c["suffix"] == ".csv", "bytes"].sum() / 1e6, 3)]


@label(10085)
def l10085(read):
    groups = _catalog(read).groupby("suffix")["bytes"].agg(["size", "mean"])
    return [("largest_mean_suffix", top_index(groups.loc[groups["size"] >= 3, "mean"]), None)]


@label(10086)
def l10086(read):
    l = _linnerud(read)
    return [("spearman_waist_situps", stats.spearmanr(l["Waist"], l["Situps"]).statistic, 4)]


# ---------------------------------------------------------------- hard
@label(10087)
def l10087(read):
    t = _titanic(read)
    chi2, _, dof, _ = stats.chi2_contingency(pd.crosstab(t["pclass"], t["survived"]), correction=False)
    assert dof == 2
    return [("chi_square", chi2, 2)]


@label(10088)
def l10088(read):
    t = _titanic(read)
    men = t[t["sex"] == "male"]
    saved, lost = (men.loc[men["survived"] == k, "age"].dropna() for k in (1, 0))
    res = stats.mannwhitneyu(saved, lost, use_continuity=False, alternative="two-sided", method="asymptotic")
    return [("u_statistic", res.statistic, 1), ("p_value", res.pvalue, 4)]


@label(10089)
def l10089(read):
    t = _titanic(read).dropna(subset=["age", "embarked"])
    res = stats.f_oneway(*[g["age"].to_numpy() for _, g in t.groupby("embarked")])
    return [("f_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


@label(10090)
def l10090(read):
    v = _councils(read, "scotland_vital_statistics.csv", VITAL)
    coef, r2 = ols(v["perinatal"], v["outside_marriage"], v["births"])
    return [("outside_marriage_coefficient", coef[1], 4), ("r_squared", r2, 4)]


@label(10091)
def l10091(read):
    t = _titanic(read)
    first = t[t["pclass"] == 1]
    women, men = (first.loc[first["sex"] == s, "fare"].dropna() for s in ("female", "male"))
    res = stats.ttest_ind(women, men, equal_var=False)
    return [("welch_t", res.statistic, 4), ("degrees_of_freedom", res.df, 2)]


@label(10092)
def l10092(read):
    v = read("scotland_vital_statistics.csv")
    v = v[~v["Area"].isin(TOTAL_AREAS)]
    assert len(v) == 32
    outside = "Percentage of live births outside marriage 1996"
    others = [c for c in v.columns if c not in ("Area", outside)]
    return [("closest_measure", top_index(v[others].corrwith(v[outside]).abs()), None)]


@label(10093)
def l10093(read):
    u = _investment(read)
    runs: list[list] = []  # [length, first quarter] of every run of quarters that rose
    length = 0
    for quarter, rose in zip(u["quarter"], u["y1"].diff() > 0):
        length = length + 1 if rose else 0
        if length == 1:
            runs.append([1, quarter])
        elif length > 1:
            runs[-1][0] = length
    best = max(n for n, _ in runs)
    starts = [start for n, start in runs if n == best]
    assert len(starts) == 1, runs
    return [("longest_rise_quarters", best, None), ("rise_start", starts[0], None)]


@label(10094)
def l10094(read):
    change = _investment(read)["y1"].diff()
    return [("lag1_change_correlation", change.corr(change.shift(1)), 4)]


@label(10095)
def l10095(read):
    v = _councils(read, "scotland_vital_statistics.csv", VITAL)
    return [("r_outside_marriage_infant", v["outside_marriage"].corr(v["infant"]), 4)]


@label(10096)
def l10096(read):
    e = _councils(read, "scotland_education.csv", EDUCATION)
    places = pd.to_numeric(e["nursery"], errors="raise")
    q1, q3 = places.quantile(0.25), places.quantile(0.75)
    fence = 1.5 * (q3 - q1)
    return [("nursery_outliers", int(((places > q3 + fence) | (places < q1 - fence)).sum()), None)]


@label(10097)
def l10097(read):
    e = _councils(read, "scotland_education.csv", EDUCATION)
    none = e["no_grades"].replace({"..": np.nan, "-": "0"}).astype(float)
    kept = e.assign(none=none).dropna(subset=["none"])
    assert len(kept) == 22
    coef, r2 = ols(kept["five_grades"], kept["none"])
    return [("slope", coef[1], 4), ("r_squared", r2, 4)]


@label(10098)
def l10098(read):
    x = _exports(read)
    return [("implied_1995_exports", (x["value"] / (1 + x["increase"] / 100)).sum(), 1)]


@label(10099)
def l10099(read):
    c = _catalog(read)
    return [("top5_byte_share", pct(c["bytes"].nlargest(5).sum(), c["bytes"].sum()), 2)]


@label(10100)
def l10100(read):
    l = _linnerud(read)
    coef, r2 = ols(l["Chins"], l["Weight"], l["Waist"])
    return [("waist_coefficient", coef[2], 4), ("r_squared", r2, 4)]
