"""Batch M's first solution (pandas and scipy): for each question id, a function of ``read`` (a
table's file name -> its DataFrame) that returns the answer's items, ``[(name, value, decimals)]``
in the format's order, ``decimals`` None where the value is written as it is (a count, a label, a
year, a period). ``make_labels.py`` writes them with ``heldout_common.render``, which refuses a value
within 1e-3 of a rounding half; ``top_index`` refuses a tied "which is highest". Do not read this
file before a measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from scipy import stats

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import label_registry, ols, pct, top_index  # noqa: E402
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_m.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
PARLIAMENT = "I agree that there should be a Scottish Parliament"
TAX = "I agree that a Scottish Parliament should have tax-varying powers"
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _penguins(read) -> pd.DataFrame:
    p = read("penguins.csv")
    assert len(p) == 344
    return p


def _referendum(read) -> pd.DataFrame:
    """The 32 council areas of both questions (the Scotland rows left out), numbers parsed."""
    r = read("devolution_referendum.csv")
    assert len(r) == 66
    r = r[r["Authority"] != "Scotland"].copy()
    for side in ("Yes", "No"):
        r[f"{side}_n"] = r[f"{side} votes"].str.replace(",", "").astype(int)
        r[f"{side}_pct"] = r[f"{side} %"].str.replace("%", "").str.strip().astype(float)
    assert (r["Question"].value_counts() == 32).all()
    return r


def _sunspots_long(read) -> pd.Series:
    """The monthly means as one series in time order, indexed by ``YYYY-MM``, empty months left out."""
    s = read("sunspots_monthly.csv")
    assert len(s) == 261 and list(s.columns) == ["Year", *MONTHS]
    long = s.melt(id_vars="Year", value_vars=MONTHS, var_name="month", value_name="value")
    long["m"] = long["month"].map({m: i + 1 for i, m in enumerate(MONTHS)})
    long = long.dropna(subset=["value"]).sort_values(["Year", "m"])
    long.index = [f"{y:04d}-{m:02d}" for y, m in zip(long["Year"], long["m"])]
    assert len(long) == 260 * 12 + 6
    return long["value"]


def _annual_sunspots(read) -> pd.Series:
    """Mean of the twelve months of each complete year (2009 left out), indexed by year."""
    s = read("sunspots_monthly.csv").set_index("Year")[MONTHS]
    s = s[s.notna().all(axis=1)]
    assert len(s) == 260
    return s.mean(axis=1)


def _unemployment(read) -> pd.DataFrame:
    u = read("us_unemployment.csv")
    u["q"] = u["Period"].str[1:].astype(int)
    u = u.sort_values(["Year", "q"]).reset_index(drop=True)
    assert len(u) == 203 and (u["Series id"] == "LNS14000000Q").all()
    u["label"] = u["Year"].astype(str) + "-" + u["Period"]
    return u


def _within(read) -> pd.DataFrame:
    w = read("within_subject_scores.csv")
    assert len(w) == 96 and w.groupby("id").size().eq(12).all()
    return w


def _runs(flags: pd.Series) -> tuple[int, str]:
    """Length and first index label of the longest run of True in ``flags`` (ordered); tie refused."""
    best, best_start, length, start = 0, None, 0, None
    tied = False
    for key, flag in flags.items():
        if flag:
            start = key if length == 0 else start
            length += 1
            if length > best:
                best, best_start, tied = length, start, False
            elif length == best:
                tied = True
        else:
            length = 0
    assert not tied, (best, best_start)
    return best, best_start


# ---------------------------------------------------------------- easy
@label(10021)
def l10021(read):
    return [("dream_penguins", int((_penguins(read)["island"] == "Dream").sum()), None)]


@label(10022)
def l10022(read):
    return [("models_without_cache", int((read("cpu_performance.csv")["CACH"] == 0).sum()), None)]


@label(10023)
def l10023(read):
    z = read("zoo_animals.csv")
    return [("airborne_animals", int(z["airborne"].sum()), None)]


@label(10024)
def l10024(read):
    g = read("glass_fragments.csv")
    return [("median_sodium_class1", g.loc[g["class"] == 1, "Sodium"].median(), 3)]


@label(10025)
def l10025(read):
    s = read("sunspots_monthly.csv").set_index("Year")
    return [("year_highest_january", int(top_index(s["Jan"])), None)]


@label(10026)
def l10026(read):
    u = _unemployment(read).set_index("label")
    return [("peak_quarter", top_index(u["Value"]), None)]


@label(10027)
def l10027(read):
    r = _referendum(read)
    parl = r[r["Question"] == PARLIAMENT].set_index("Authority")
    return [("strongest_yes_area", top_index(parl["Yes_pct"]), None)]


@label(10028)
def l10028(read):
    s = read("silicon_resistivity.csv")
    assert len(s) == 25
    return [("mean_resistance", s["Resistance"].mean(), 4)]


@label(10029)
def l10029(read):
    a = read("afinn_word_scores.csv")
    assert len(a) == 2477
    return [("negative_entries", int((a["score"] < 0).sum()), None)]


@label(10030)
def l10030(read):
    w = _within(read)
    return [("mean_dv_level_b", w.loc[w["A"] == "b", "DV"].mean(), 2)]


# ---------------------------------------------------------------- medium
@label(10031)
def l10031(read):
    p = _penguins(read)
    chosen = p[(p["species"] == "Gentoo") & (p["sex"] == "MALE")]["body_mass_g"].dropna()
    return [("mean_mass_male_gentoo", chosen.mean(), 2)]


@label(10032)
def l10032(read):
    p = _penguins(read)
    adelie = p[p["species"] == "Adelie"]
    return [("heaviest_adelie_island", top_index(adelie.groupby("island")["body_mass_g"].mean()), None)]


@label(10033)
def l10033(read):
    c = read("cpu_performance.csv")
    groups = c.groupby("vendor")["class"].agg(["size", "mean"])
    return [("top_vendor", top_index(groups.loc[groups["size"] >= 10, "mean"]), None)]


@label(10034)
def l10034(read):
    c = read("cpu_performance.csv")
    return [("r_mmax_class", c["MMAX"].corr(c["class"]), 4)]


@label(10035)
def l10035(read):
    z = read("zoo_animals.csv")
    layers = z[z["eggs"]]
    return [("pct_aquatic_egg_layers", pct(layers["aquatic"].sum(), len(layers)), 2)]


@label(10036)
def l10036(read):
    z = read("zoo_animals.csv")
    return [("most_venomous_type", top_index(z.groupby("type")["venomous"].mean()), None)]


@label(10037)
def l10037(read):
    g = read("glass_fragments.csv")
    means = g.groupby("class")["Magnesium"].mean()
    return [("magnesium_gap", means[0] - means[1], 4)]


@label(10038)
def l10038(read):
    return [("most_active_year", int(top_index(_annual_sunspots(read))), None)]


@label(10039)
def l10039(read):
    values = _sunspots_long(read)
    return [("spotless_months", int((values[values.index < "2009-01"] == 0).sum()), None)]


@label(10040)
def l10040(read):
    u = _unemployment(read)
    full = u.groupby("Year").filter(lambda g: len(g) == 4)
    annual = full.groupby("Year")["Value"].mean()
    return [("worst_year", int(top_index(annual)), None)]


@label(10041)
def l10041(read):
    u = _unemployment(read).set_index("label")
    return [("sharpest_rise_quarter", top_index(u["Value"].diff().round(10)), None)]


@label(10042)
def l10042(read):
    r = _referendum(read)
    return [("council_yes_votes_tax", int(r.loc[r["Question"] == TAX, "Yes_n"].sum()), None)]


@label(10043)
def l10043(read):
    r = _referendum(read)
    tax = r[r["Question"] == TAX]
    return [("areas_voting_no_tax", int((tax["No_n"] > tax["Yes_n"]).sum()), None)]


@label(10044)
def l10044(read):
    s = read("silicon_resistivity.csv")
    return [("sd_instrument_4", s.loc[s["Instrument"] == 4, "Resistance"].std(ddof=1), 5)]


@label(10045)
def l10045(read):
    a = read("afinn_word_scores.csv")
    return [("mean_positive_score", a.loc[a["score"] > 0, "score"].mean(), 4)]


@label(10046)
def l10046(read):
    w = _within(read)
    return [("top_b_level", top_index(w.groupby("B")["DV"].mean()), None)]


# ---------------------------------------------------------------- hard
@label(10047)
def l10047(read):
    p = _penguins(read)
    adelie = p[p["species"] == "Adelie"]
    male = adelie.loc[adelie["sex"] == "MALE", "body_mass_g"].dropna()
    female = adelie.loc[adelie["sex"] == "FEMALE", "body_mass_g"].dropna()
    res = stats.ttest_ind(male, female, equal_var=False)
    return [("welch_t", res.statistic, 3), ("degrees_of_freedom", res.df, 2)]


@label(10048)
def l10048(read):
    p = _penguins(read).dropna(subset=["body_mass_g", "flipper_length_mm", "culmen_depth_mm"])
    coef, r2 = ols(p["body_mass_g"], p["flipper_length_mm"], p["culmen_depth_mm"])
    return [("flipper_coefficient", coef[1], 3)]


@label(10049)
def l10049(read):
    p = _penguins(read)
    chi2, _, _, _ = stats.chi2_contingency(pd.crosstab(p["species"], p["island"]), correction=False)
    return [("chi_square", chi2, 3)]


@label(10050)
def l10050(read):
    c = read("cpu_performance.csv")
    coef, r2 = ols(c["class"], c["MYCT"], c["MMAX"], c["CACH"])
    return [("cache_coefficient", coef[3], 4), ("r_squared", r2, 4)]


@label(10051)
def l10051(read):
    c = read("cpu_performance.csv")
    q1, q3 = c["class"].quantile(0.25), c["class"].quantile(0.75)
    return [("high_performance_outliers", int((c["class"] > q3 + 1.5 * (q3 - q1)).sum()), None)]


@label(10052)
def l10052(read):
    z = read("zoo_animals.csv")
    chi2, pval, _, _ = stats.chi2_contingency(pd.crosstab(z["predator"], z["toothed"]), correction=False)
    return [("chi_square", chi2, 4), ("p_value", pval, 4)]


@label(10053)
def l10053(read):
    g = read("glass_fragments.csv")
    zero, one = (g.loc[g["class"] == k, "Refractive_Index"] for k in (0, 1))
    res = stats.mannwhitneyu(zero, one, use_continuity=False, alternative="two-sided", method="asymptotic")
    return [("u_statistic", res.statistic, 1), ("p_value", res.pvalue, 4)]


@label(10054)
def l10054(read):
    g = read("glass_fragments.csv")
    oxides = ["Sodium", "Magnesium", "Aluminum", "Silicon", "Potassium", "Calcium", "Barium", "Iron"]
    corr = g[oxides].corrwith(g["Refractive_Index"]).abs()
    return [("strongest_oxide", top_index(corr), None)]


@label(10055)
def l10055(read):
    values = _sunspots_long(read)
    length, start = _runs(values < 10)
    return [("longest_quiet_months", length, None), ("quiet_start", start, None)]


@label(10056)
def l10056(read):
    annual = _annual_sunspots(read)
    return [("biggest_jump_year", int(top_index(annual.diff())), None)]


@label(10057)
def l10057(read):
    u = _unemployment(read)
    return [("lag4_correlation", u["Value"].corr(u["Value"].shift(4)), 4)]


@label(10058)
def l10058(read):
    r = _referendum(read)
    share = (100 * r["Yes_n"] / (r["Yes_n"] + r["No_n"]))
    wide = r.assign(share=share).pivot(index="Authority", columns="Question", values="share")
    drop = wide[PARLIAMENT] - wide[TAX]
    return [("largest_drop_area", top_index(drop), None), ("drop_points", drop.max(), 2)]


@label(10059)
def l10059(read):
    s = read("silicon_resistivity.csv")
    res = stats.f_oneway(*[g["Resistance"].to_numpy() for _, g in s.groupby("Instrument")])
    return [("f_statistic", res.statistic, 4), ("p_value", res.pvalue, 4)]


@label(10060)
def l10060(read):
    w = _within(read)
    per = w.pivot_table(index="id", columns="A", values="DV", aggfunc="mean")
    res = stats.ttest_rel(per["a"], per["b"])
    return [("paired_t", res.statistic, 4), ("p_value", res.pvalue, 4)]
