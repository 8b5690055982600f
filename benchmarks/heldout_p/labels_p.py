"""Batch P's first solution (pandas and scipy): for each question id, a function of ``read`` (a
table's file name -> its DataFrame) that returns the answer's items, ``[(name, value, decimals)]``
in the format's order, ``decimals`` None where the value is written as it is (a count, a label, a
code, a year, a date). ``make_labels.py`` writes them with ``heldout_common.render``, which refuses
a value within 1e-3 of a rounding half; ``top_index`` refuses a tied "which is highest". Do not read
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
from heldout_common import render  # noqa: E402,F401  (make_labels writes the values with labels_p.render)

LABELS, label = label_registry()
HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
PLACEHOLDER = r"<[A-Za-z0-9_]+>"


def _nist_number(text: str) -> float:
    """A value or uncertainty as NIST writes it: blanks between digit groups and before the power
    of ten, ``...`` after the digits of an exact value that goes on."""
    return float(text.replace(" ", "").replace("...", ""))


def _codata(read) -> pd.DataFrame:
    """Both editions with the value, the uncertainty (missing for an exact constant) and the relative
    standard uncertainty as numbers."""
    c = read("codata_constants.csv")
    assert len(c) == 709 and set(c["edition"]) == {2018, 2022}
    c["v"] = c["value"].map(_nist_number)
    c["exact"] = c["uncertainty"] == "(exact)"
    c["u"] = c["uncertainty"].where(~c["exact"]).map(_nist_number, na_action="ignore")
    c["rel"] = c["u"] / c["v"].abs()
    return c


def _edition(read, year: int) -> pd.DataFrame:
    c = _codata(read)
    e = c[c["edition"] == year].set_index("quantity")
    assert e.index.is_unique
    return e


def _both_editions(read) -> pd.DataFrame:
    """The constants listed in both editions with an uncertainty in both, 2018 and 2022 side by side."""
    both = _edition(read, 2018).merge(_edition(read, 2022), left_index=True, right_index=True, suffixes=("_18", "_22"))
    both = both[~both["exact_18"] & ~both["exact_22"]]
    assert (both["unit_18"].fillna("") == both["unit_22"].fillna("")).all()
    return both


def _devices(read) -> pd.DataFrame:
    d = read("browser_devices.csv")
    assert len(d) == 207 and d["device"].is_unique
    d["upright"] = ~d["device"].str.endswith(" landscape")
    return d


def _upright_mobile(read) -> pd.DataFrame:
    d = _devices(read)
    m = d[d["upright"] & d["is_mobile"]]
    assert len(m) == 100
    return m


def _models(read) -> pd.DataFrame:
    m = read("openai_models.csv")
    assert len(m) == 61 and m["model"].is_unique
    m["released"] = pd.to_datetime(m["release_date"], format="%Y-%m-%d")
    m["updated"] = pd.to_datetime(m["last_updated"], format="%Y-%m-%d")
    return m


def _sqlstates(read) -> pd.DataFrame:
    s = read("sqlstate_codes.csv")
    assert len(s) == 1262 and s["sql_state"].is_unique and (s["sql_state"].str.len() == 5).all()
    s["cls"] = s["sql_state"].str[:2]
    s["users"] = s["used_by"].str.split(", ")
    s["postgres"] = s["users"].map(lambda names: "PostgreSQL" in names)
    return s


def _conditions(read) -> pd.DataFrame:
    e = read("spark_error_conditions.csv")
    assert len(e) == 1347 and e["error_condition"].is_unique
    return e


# ---------------------------------------------------------------- easy
@label(10141)
def l10141(read):
    return [("exact_constants", int(_edition(read, 2022)["exact"].sum()), None)]


@label(10142)
def l10142(read):
    return [("dimensionless_constants", int(_edition(read, 2022)["unit"].isna().sum()), None)]


@label(10143)
def l10143(read):
    return [("landscape_variants", int((~_devices(read)["upright"]).sum()), None)]


@label(10144)
def l10144(read):
    return [("webkit_descriptors", int((_devices(read)["default_browser_type"] == "webkit").sum()), None)]


@label(10145)
def l10145(read):
    return [("deprecated_models", int((_models(read)["status"] == "deprecated").sum()), None)]


@label(10146)
def l10146(read):
    return [("released_2025", int((_models(read)["released"].dt.year == 2025).sum()), None)]


@label(10147)
def l10147(read):
    return [("standard_codes", int((_sqlstates(read)["standard"] == "Y").sum()), None)]


@label(10148)
def l10148(read):
    return [("class_22_codes", int((_sqlstates(read)["cls"] == "22").sum()), None)]


@label(10149)
def l10149(read):
    return [("conditions_without_sqlstate", int(_conditions(read)["sql_state"].isna().sum()), None)]


@label(10150)
def l10150(read):
    return [("conditions_with_subconditions", int((_conditions(read)["sub_conditions"] >= 1).sum()), None)]


# ---------------------------------------------------------------- medium
@label(10151)
def l10151(read):
    return [("proton_electron_mass_ratio", _edition(read, 2022).loc["proton-electron mass ratio", "v"], 6)]


@label(10152)
def l10152(read):
    e = _edition(read, 2022)
    return [("least_precise_constant", top_index(e.loc[~e["exact"], "rel"]), None)]


@label(10153)
def l10153(read):
    new = set(_edition(read, 2022).index) - set(_edition(read, 2018).index)
    return [("new_in_2022", len(new), None)]


@label(10154)
def l10154(read):
    return [("median_viewport_width", _upright_mobile(read)["viewport_width"].median(), 1)]


@label(10155)
def l10155(read):
    m = _upright_mobile(read).set_index("device")
    pixels = m["viewport_width"] * m["viewport_height"] * m["device_scale_factor"] ** 2
    return [("most_device_pixels", top_index(pixels), None)]


@label(10156)
def l10156(read):
    d = _devices(read)
    iphones = d[d["upright"] & d["device"].str.startswith("iPhone")]
    return [("mean_iphone_scale", iphones["device_scale_factor"].mean(), 4)]


@label(10157)
def l10157(read):
    years = _models(read)["released"].dropna().dt.year.astype(int)
    return [("busiest_release_year", int(top_index(years.value_counts())), None)]


@label(10158)
def l10158(read):
    m = _models(read).set_index("model")
    days = (m["updated"] - m["released"]).dt.days.dropna()
    model = top_index(days)
    return [("longest_updated_model", model, None), ("days", int(days[model]), None)]


@label(10159)
def l10159(read):
    tokens = _models(read)["max_input_tokens"]
    median = tokens[tokens > 0].median()
    assert median == int(median)
    return [("median_max_input_tokens", int(median), None)]


@label(10160)
def l10160(read):
    levels = _models(read)["reasoning_effort_levels"].dropna().str.split(";")
    return [("xhigh_models", int(levels.map(lambda items: "xhigh" in items).sum()), None)]


@label(10161)
def l10161(read):
    weekdays = _models(read)["released"].dropna().dt.day_name()
    return [("release_weekday", top_index(weekdays.value_counts()), None)]


@label(10162)
def l10162(read):
    s = _sqlstates(read)
    return [("pct_postgresql", pct(s["postgres"].sum(), len(s)), 2)]


@label(10163)
def l10163(read):
    s = _sqlstates(read)
    return [("top_standard_class", top_index(s.loc[s["standard"] == "Y", "cls"].value_counts()), None)]


@label(10164)
def l10164(read):
    names = _conditions(read)["error_condition"]
    names = names[~names.str.startswith("_LEGACY_ERROR_TEMP_")]
    return [("top_first_word", top_index(names.str.split("_").str[0].value_counts()), None)]


@label(10165)
def l10165(read):
    return [("top_sqlstate", top_index(_conditions(read)["sql_state"].value_counts()), None)]


@label(10166)
def l10166(read):
    e = _conditions(read).set_index("error_condition")
    name = top_index(e["sub_conditions"])
    return [("condition", name, None), ("sub_conditions", int(e.loc[name, "sub_conditions"]), None)]


# ---------------------------------------------------------------- hard
@label(10167)
def l10167(read):
    both = _both_editions(read)
    return [("more_precise_in_2022", int((both["u_22"] < both["u_18"]).sum()), None)]


@label(10168)
def l10168(read):
    both = _both_editions(read)
    shift = (both["v_22"] - both["v_18"]).abs() / both["u_18"]
    name = top_index(shift)
    return [("most_shifted_constant", name, None), ("shift", shift[name], 2)]


@label(10169)
def l10169(read):
    e = _edition(read, 2022)
    return [("median_relative_uncertainty_ppb", 1e9 * e.loc[~e["exact"], "rel"].median(), 4)]


@label(10170)
def l10170(read):
    both = _both_editions(read)
    coef, r2 = ols(np.log10(both["rel_22"]), np.log10(both["rel_18"]))
    return [("slope", coef[1], 4), ("r_squared", r2, 4)]


@label(10171)
def l10171(read):
    m = _upright_mobile(read)
    m = m[m["screen_height"].notna()]
    bar = m["screen_height"] - m["viewport_height"]
    chromium, webkit = bar[m["default_browser_type"] == "chromium"], bar[m["default_browser_type"] == "webkit"]
    assert len(chromium) + len(webkit) == len(m)
    t = stats.ttest_ind(chromium, webkit, equal_var=False).statistic
    return [("mean_difference", webkit.mean() - chromium.mean(), 4), ("welch_t", t, 4)]


@label(10172)
def l10172(read):
    d = _devices(read)
    versions = d.loc[d["upright"], "user_agent"].str.extract(r"(?:iPhone OS|CPU OS) (\d+)_")[0].dropna().astype(int)
    return [("top_ios_version", int(top_index(versions.value_counts())), None)]


@label(10173)
def l10173(read):
    h = _upright_mobile(read)["viewport_height"]
    q1, q3 = h.quantile(0.25), h.quantile(0.75)
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    assert not ((h == low) | (h == high)).any()
    return [("viewport_height_outliers", int(((h < low) | (h > high)).sum()), None)]


@label(10174)
def l10174(read):
    m = _upright_mobile(read)
    return [("pearson_r", stats.pearsonr(m["viewport_width"], m["device_scale_factor"]).statistic, 4)]


@label(10175)
def l10175(read):
    running = _models(read)["released"].dropna().value_counts().sort_index().cumsum()
    return [("thirtieth_release_date", running[running >= 30].index[0].strftime("%Y-%m-%d"), None)]


@label(10176)
def l10176(read):
    m = _models(read)
    m = m[m["released"].notna() & (m["max_input_tokens"] > 0)]
    days = (m["released"] - pd.Timestamp("1970-01-01")).dt.days
    coef, r2 = ols(np.log10(m["max_input_tokens"]), days)
    return [("slope_per_day", coef[1], 6), ("r_squared", r2, 4)]


@label(10177)
def l10177(read):
    s = _sqlstates(read)
    table = pd.crosstab(s["standard"], s["postgres"])
    assert table.shape == (2, 2)
    chi2 = stats.chi2_contingency(table, correction=False).statistic
    return [("chi_square", chi2, 4), ("cramers_v", np.sqrt(chi2 / len(s)), 4)]


@label(10178)
def l10178(read):
    return [("mean_distinct_users", _sqlstates(read)["users"].map(lambda names: len(set(names))).mean(), 4)]


@label(10179)
def l10179(read):
    s = _sqlstates(read)
    by_class = s.groupby("cls")["standard"].agg(["size", lambda x: (x == "Y").sum()])
    by_class.columns = ["codes", "standard"]
    kept = by_class[by_class["codes"] >= 20]
    return [("nonstandard_classes", int((kept["standard"] == 0).sum()), None)]


@label(10180)
def l10180(read):
    e = _conditions(read)
    e = e[e["sql_state"].notna()].copy()
    e["cls"] = e["sql_state"].str[:2]
    e["placeholders"] = e["message"].fillna("").str.count(PLACEHOLDER)
    sizes = e["cls"].value_counts()
    groups = [e.loc[e["cls"] == cls, "placeholders"] for cls in sizes[sizes >= 50].index]
    result = stats.f_oneway(*groups)
    return [("f_statistic", result.statistic, 4), ("p_value", result.pvalue, 6)]
