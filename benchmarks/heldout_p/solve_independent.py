"""Batch P's second, independent solution: DuckDB SQL over the CSV files plus statistics written out
by hand with numpy and the standard library (no pandas, no scipy), sharing no code with
``labels_p.py``. Do not read this file before a measurement of the batch.

    .venv/bin/python benchmarks/heldout_p/solve_independent.py            # writes independent_answers.jsonl
    .venv/bin/python benchmarks/heldout_p/solve_independent.py TABLES_DIR # prints the answers

Each file is read with explicit column names and types (its header line skipped, empty cells as
missing): the CODATA values and uncertainties as text, turned into numbers in a view with
``replace`` (the blanks and a trailing ``...`` dropped) and ``TRY_CAST`` (``(exact)`` becomes
missing), the 2018 and 2022 rows set side by side with a self-join on the quantity; the device
flags as BOOLEAN, the upright descriptors picked with ``NOT LIKE '% landscape'``; the model
profiles' dates as DATE (weekday with ``dayname``, running totals with a window sum), their flags
as text; the SQLSTATE codes as text, the class cut with ``substr``, ``used_by`` split with
``string_split`` and its repeats dropped with ``list_distinct``; the error conditions' placeholders
counted with ``regexp_extract_all``. Medians and quartiles use ``median``/``quantile_cont``. By
hand: the least-squares fits and R squared, Pearson's correlation, Welch's t, the chi-square
statistic from the expected counts, and the one-way ANOVA F with its p-value from the regularised
incomplete beta function (Lentz's continued fraction).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import (  # noqa: E402
    Answers, SqlTables, dec_refusing_halves, one_way_f, only_top, pearson, run_solver)
from heldout_stats import chi_square, f_upper, fit, welch  # noqa: E402

HERE = Path(__file__).resolve().parent
TEXT, NUM, INT, BOOL = "VARCHAR", "DOUBLE", "BIGINT", "BOOLEAN"
MODEL_FLAGS = [
    "open_weights", "max_input_tokens", "max_output_tokens", "text_inputs", "image_inputs", "audio_inputs",
    "video_inputs", "text_outputs", "image_outputs", "audio_outputs", "video_outputs", "reasoning_output",
    "tool_calling", "attachment", "temperature", "image_url_inputs", "pdf_inputs", "pdf_tool_message",
    "image_tool_message", "tool_choice", "tool_call_streaming", "status", "structured_output",
    "mid_conversation_system_messages", "mid_conversation_tools", "effort_levels", "effort_default"]

FILES = {
    "codata_constants.csv": ("codata_raw", [
        ("edition", INT), ("quantity", TEXT), ("value_text", TEXT), ("unc_text", TEXT), ("unit", TEXT)]),
    "browser_devices.csv": ("devices", [
        ("device", TEXT), ("ua", TEXT), ("vw", INT), ("vh", INT), ("sw", INT), ("sh", INT), ("dpr", NUM),
        ("mobile", BOOL), ("touch", BOOL), ("browser", TEXT)]),
    "openai_models.csv": ("models", [
        ("model", TEXT), ("label", TEXT), ("released", "DATE"), ("updated", "DATE"),
        *[(name, INT if name.startswith("max_") else TEXT) for name in MODEL_FLAGS]]),
    "sqlstate_codes.csv": ("states", [
        ("code", TEXT), ("descr", TEXT), ("origin", TEXT), ("std", TEXT), ("used_by", TEXT)]),
    "spark_error_conditions.csv": ("conds", [
        ("cond", TEXT), ("state", TEXT), ("msg", TEXT), ("subs", INT)]),
}


class Tables(SqlTables):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.read_files(folder, FILES)
        c = self.con
        c.execute("""CREATE VIEW codata AS SELECT edition, quantity, unit, unc_text = '(exact)' AS is_exact,
                     CAST(replace(replace(value_text, ' ', ''), '...', '') AS DOUBLE) AS val,
                     TRY_CAST(replace(unc_text, ' ', '') AS DOUBLE) AS unc FROM codata_raw""")
        c.execute("""CREATE VIEW codata_rel AS SELECT *, unc / abs(val) AS rel FROM codata WHERE NOT is_exact""")
        c.execute("""CREATE VIEW paired AS SELECT a.quantity, a.val AS val18, a.unc AS unc18, a.rel AS rel18,
                     b.val AS val22, b.unc AS unc22, b.rel AS rel22, a.unit AS unit18, b.unit AS unit22
                     FROM codata_rel a JOIN codata_rel b ON a.quantity = b.quantity
                     WHERE a.edition = 2018 AND b.edition = 2022""")
        c.execute("""CREATE VIEW phones AS SELECT * FROM devices WHERE device NOT LIKE '% landscape' AND mobile""")
        c.execute("""CREATE VIEW state_users AS SELECT *, substr(code, 1, 2) AS cls,
                     list_contains(string_split(used_by, ', '), 'PostgreSQL') AS pg,
                     len(list_distinct(string_split(used_by, ', '))) AS n_users FROM states""")
        c.execute("""CREATE VIEW cond_marks AS SELECT *, substr(state, 1, 2) AS cls,
                     COALESCE(len(regexp_extract_all(msg, '<[A-Za-z0-9_]+>')), 0) AS marks FROM conds""")
        assert self.one("SELECT count(*) FROM codata") == 709 and self.one("SELECT count(*) FROM devices") == 207
        assert self.one("SELECT count(*) FROM models") == 61 and self.one("SELECT count(*) FROM states") == 1262
        assert self.one("SELECT count(*) FROM conds") == 1347 and self.one("SELECT count(*) FROM phones") == 100
        assert self.one("SELECT count(*) FROM paired WHERE coalesce(unit18, '') <> coalesce(unit22, '')") == 0


def solve(t: Tables) -> Answers:
    a: Answers = {}

    def put(qid: int, *items: tuple[str, object]) -> None:
        a[qid] = [[name, value if isinstance(value, str) else str(value)] for name, value in items]

    def d(places: int):
        return lambda x: dec_refusing_halves(float(x), places)

    d1, d2, d4, d6 = d(1), d(2), d(4), d(6)

    # ---- easy
    put(10141, ("exact_constants", t.one("SELECT count(*) FROM codata WHERE edition = 2022 AND is_exact")))
    put(10142, ("dimensionless_constants", t.one("SELECT count(*) FROM codata WHERE edition = 2022 AND unit IS NULL")))
    put(10143, ("landscape_variants", t.one("SELECT count(*) FROM devices WHERE device LIKE '% landscape'")))
    put(10144, ("webkit_descriptors", t.one("SELECT count(*) FROM devices WHERE browser = 'webkit'")))
    put(10145, ("deprecated_models", t.one("SELECT count(*) FROM models WHERE status = 'deprecated'")))
    put(10146, ("released_2025", t.one("SELECT count(*) FROM models WHERE year(released) = 2025")))
    put(10147, ("standard_codes", t.one("SELECT count(*) FROM states WHERE std = 'Y'")))
    put(10148, ("class_22_codes", t.one("SELECT count(*) FROM states WHERE code LIKE '22%'")))
    put(10149, ("conditions_without_sqlstate", t.one("SELECT count(*) FROM conds WHERE state IS NULL")))
    put(10150, ("conditions_with_subconditions", t.one("SELECT count(*) FROM conds WHERE subs > 0")))

    # ---- medium
    put(10151, ("proton_electron_mass_ratio", d6(t.one(
        "SELECT val FROM codata WHERE edition = 2022 AND quantity = 'proton-electron mass ratio'"))))
    put(10152, ("least_precise_constant", only_top(t.rows(
        "SELECT quantity, rel FROM codata_rel WHERE edition = 2022 ORDER BY rel DESC LIMIT 2"), runner_up=True)))
    put(10153, ("new_in_2022", t.one("""SELECT count(*) FROM codata n WHERE edition = 2022 AND NOT EXISTS
        (SELECT 1 FROM codata o WHERE o.edition = 2018 AND o.quantity = n.quantity)""")))
    put(10154, ("median_viewport_width", d1(t.one("SELECT median(vw) FROM phones"))))
    put(10155, ("most_device_pixels", only_top(t.rows(
        "SELECT device, vw * vh * dpr * dpr AS px FROM phones ORDER BY px DESC LIMIT 2"), runner_up=True)))
    put(10156, ("mean_iphone_scale", d4(t.one(
        "SELECT avg(dpr) FROM devices WHERE device LIKE 'iPhone%' AND device NOT LIKE '% landscape'"))))
    put(10157, ("busiest_release_year", only_top(t.rows("""SELECT year(released) AS y, count(*) AS n FROM models
        WHERE released IS NOT NULL GROUP BY y ORDER BY n DESC LIMIT 2"""), runner_up=True)))
    gap = t.rows("""SELECT model, date_diff('day', released, updated) AS g FROM models
        WHERE released IS NOT NULL AND updated IS NOT NULL ORDER BY g DESC LIMIT 2""")
    put(10158, ("longest_updated_model", only_top(gap, runner_up=True)), ("days", gap[0][1]))
    put(10159, ("median_max_input_tokens", int(t.one("SELECT median(max_input_tokens) FROM models WHERE max_input_tokens > 0"))))
    put(10160, ("xhigh_models", t.one(
        "SELECT count(*) FROM models WHERE list_contains(string_split(effort_levels, ';'), 'xhigh')")))
    put(10161, ("release_weekday", only_top(t.rows("""SELECT dayname(released) AS w, count(*) AS n FROM models
        WHERE released IS NOT NULL GROUP BY w ORDER BY n DESC LIMIT 2"""), runner_up=True)))
    put(10162, ("pct_postgresql", d2(t.one("SELECT 100.0 * count(*) FILTER (WHERE pg) / count(*) FROM state_users"))))
    put(10163, ("top_standard_class", only_top(t.rows("""SELECT cls, count(*) AS n FROM state_users WHERE std = 'Y'
        GROUP BY cls ORDER BY n DESC LIMIT 2"""), runner_up=True)))
    put(10164, ("top_first_word", only_top(t.rows("""SELECT split_part(cond, '_', 1) AS w, count(*) AS n FROM conds
        WHERE NOT starts_with(cond, '_LEGACY_ERROR_TEMP_') GROUP BY w ORDER BY n DESC LIMIT 2"""), runner_up=True)))
    put(10165, ("top_sqlstate", only_top(t.rows("""SELECT state, count(*) AS n FROM conds WHERE state IS NOT NULL
        GROUP BY state ORDER BY n DESC LIMIT 2"""), runner_up=True)))
    most = t.rows("SELECT cond, subs FROM conds ORDER BY subs DESC LIMIT 2")
    put(10166, ("condition", only_top(most, runner_up=True)), ("sub_conditions", most[0][1]))

    # ---- hard
    put(10167, ("more_precise_in_2022", t.one("SELECT count(*) FROM paired WHERE unc22 < unc18")))
    shift = t.rows("SELECT quantity, abs(val22 - val18) / unc18 AS s FROM paired ORDER BY s DESC LIMIT 2")
    put(10168, ("most_shifted_constant", only_top(shift, runner_up=True)), ("shift", d2(shift[0][1])))
    put(10169, ("median_relative_uncertainty_ppb", d4(1e9 * t.one(
        "SELECT quantile_cont(rel, 0.5) FROM codata_rel WHERE edition = 2022"))))
    beta, r2 = fit(np.log10(t.array("SELECT rel22, rel18 FROM paired")))
    put(10170, ("slope", d4(beta[1])), ("r_squared", d4(r2)))
    chromium = t.col("SELECT sh - vh FROM phones WHERE sh IS NOT NULL AND browser = 'chromium'")
    webkit = t.col("SELECT sh - vh FROM phones WHERE sh IS NOT NULL AND browser = 'webkit'")
    assert len(chromium) + len(webkit) == t.one("SELECT count(*) FROM phones WHERE sh IS NOT NULL")
    put(10171, ("mean_difference", d4(webkit.mean() - chromium.mean())), ("welch_t", d4(welch(chromium, webkit)[0])))
    put(10172, ("top_ios_version", int(only_top(t.rows(r"""SELECT v, count(*) AS n FROM (
        SELECT CAST(regexp_extract(ua, '(iPhone OS|CPU OS) (\d+)_', 2) AS INTEGER) AS v FROM devices
        WHERE device NOT LIKE '% landscape' AND regexp_matches(ua, '(iPhone OS|CPU OS) \d+_'))
        GROUP BY v ORDER BY n DESC LIMIT 2"""), runner_up=True))))
    q1, q3 = t.rows("SELECT quantile_cont(vh, 0.25), quantile_cont(vh, 0.75) FROM phones")[0]
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    assert t.one(f"SELECT count(*) FROM phones WHERE vh = {low} OR vh = {high}") == 0
    put(10173, ("viewport_height_outliers", t.one(f"SELECT count(*) FROM phones WHERE vh < {low} OR vh > {high}")))
    put(10174, ("pearson_r", d4(pearson(t.array("SELECT vw, dpr FROM phones")))))
    put(10175, ("thirtieth_release_date", t.one("""SELECT min(released) FROM (SELECT released,
        sum(count(*)) OVER (ORDER BY released) AS running FROM models WHERE released IS NOT NULL GROUP BY released)
        WHERE running >= 30""").isoformat()))
    growth = t.array("""SELECT log10(max_input_tokens), epoch(released) / 86400 FROM models
        WHERE released IS NOT NULL AND max_input_tokens > 0""")
    beta, r2 = fit(growth)
    put(10176, ("slope_per_day", d6(beta[1])), ("r_squared", d4(r2)))
    counts = t.array("""SELECT count(*) FILTER (WHERE pg), count(*) FILTER (WHERE NOT pg) FROM state_users
        GROUP BY std ORDER BY std""")
    assert counts.shape == (2, 2)
    chi2 = chi_square(counts)
    put(10177, ("chi_square", d4(chi2)), ("cramers_v", d4(math.sqrt(chi2 / counts.sum()))))
    put(10178, ("mean_distinct_users", d4(t.one("SELECT avg(n_users) FROM state_users"))))
    put(10179, ("nonstandard_classes", t.one("""SELECT count(*) FROM (SELECT cls FROM state_users GROUP BY cls
        HAVING count(*) >= 20 AND count(*) FILTER (WHERE std = 'Y') = 0)""")))
    kept = [cls for cls, in t.rows("""SELECT cls FROM cond_marks WHERE state IS NOT NULL GROUP BY cls
        HAVING count(*) >= 50 ORDER BY cls""")]
    groups = [t.col(f"SELECT marks FROM cond_marks WHERE cls = '{cls}'") for cls in kept]
    f = one_way_f(groups)
    p = f_upper(f, len(groups) - 1, sum(len(g) for g in groups) - len(groups))
    put(10180, ("f_statistic", d4(f)), ("p_value", d6(p)))
    return a


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
