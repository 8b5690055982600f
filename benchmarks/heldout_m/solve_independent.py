"""Batch M's second solution, written again from each question's text alone, with no code of
``labels_m.py`` and in another style. DuckDB SQL does the data work: each CSV file read with its
header line skipped and explicit names and types (empty cells missing, the ``true``/``false`` traits
as BOOLEAN), the referendum's ``44,619`` and ``60.7 %`` cleaned with ``replace``, the wide sunspot
table made long by ``UNPIVOT``, quarters ordered by their year and the number in ``Q01``, the
previous period by ``lag``, runs of quiet months by the difference of two ``row_number`` windows,
quartiles by ``quantile_cont`` and per-subject means by conditional aggregates. numpy and the
standard library do the statistics by hand: least squares by the normal equations and its R
squared, Pearson correlations, chi-square statistics from expected counts, Welch's t and its
degrees of freedom, the Mann-Whitney U from SQL average ranks with its tie-corrected normal
approximation, the ANOVA F, the paired t, the t and F p-values by the regularised incomplete beta
function (a continued fraction) and the normal and 1-degree chi-square ones by ``math.erfc``.
``heldout_common`` and ``heldout_stats`` lend the fit, the correlation, the F, Welch's t, the
chi-square and the t and F tails (solver helpers the labels do not use);
there is no scipy and no pandas here.

    .venv/bin/python benchmarks/heldout_m/solve_independent.py [TABLES_DIR]

Without an argument it solves from ``tables/`` and writes ``independent_answers.jsonl``; with a
tables folder it prints the answers only. Do not read this file before a measurement of the batch.
"""

from __future__ import annotations

import math
import sys
from functools import partial
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import SqlTables, dec_refusing_halves, least_squares, one_way_f, only_top, pearson  # noqa: E402
from heldout_common import run_solver  # noqa: E402
from heldout_stats import chi_square, f_upper, fit, t_two_sided, welch  # noqa: E402

dec = dec_refusing_halves  # a value within 1e-3 of a rounding half is refused, as the labels refuse it
best = partial(only_top, runner_up=True)  # the top of (key, score) rows, untied, with a runner-up

HERE = Path(__file__).resolve().parent
DBL, INT, TXT, BOOL = "DOUBLE", "INTEGER", "VARCHAR", "BOOLEAN"
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
TRAITS = ["hair", "feathers", "eggs", "milk", "airborne", "aquatic", "predator", "toothed", "backbone", "breathes",
          "venomous", "fins"]
OXIDES = ["Sodium", "Magnesium", "Aluminum", "Silicon", "Potassium", "Calcium", "Barium", "Iron"]
PARL = "I agree that there should be a Scottish Parliament"
TAX = "I agree that a Scottish Parliament should have tax-varying powers"

# file -> (table name, [(column, type), ...]); every table is read without its header line, with
# the names and types given here.
FILES = {
    "penguins.csv": ("pg", [("species", TXT), ("island", TXT), ("bill_len", DBL), ("bill_depth", DBL),
                            ("flipper", DBL), ("mass", DBL), ("sex", TXT)]),
    "cpu_performance.csv": ("cpu", [("vendor", TXT), ("myct", DBL), ("mmin", DBL), ("mmax", DBL), ("cach", DBL),
                                    ("chmin", DBL), ("chmax", DBL), ("perf", DBL)]),
    "zoo_animals.csv": ("zoo", [("animal", TXT), *[(t, BOOL) for t in TRAITS], ("legs", INT), ("tail", BOOL),
                                ("domestic", BOOL), ("catsize", BOOL), ("kind", TXT)]),
    "glass_fragments.csv": ("gl", [("ri", DBL), *[(o.lower(), DBL) for o in OXIDES], ("cls", INT)]),
    "sunspots_monthly.csv": ("sun_wide", [("yr", INT), *[(m.lower(), DBL) for m in MONTHS]]),
    "us_unemployment.csv": ("un_raw", [("series", TXT), ("yr", INT), ("period", TXT), ("rate", DBL)]),
    "devolution_referendum.csv": ("ref_raw", [("question", TXT), ("authority", TXT), ("yes_votes", TXT),
                                              ("yes_pct", TXT), ("no_votes", TXT), ("no_pct", TXT)]),
    "silicon_resistivity.csv": ("si", [("instrument", INT), ("resistance", DBL)]),
    "afinn_word_scores.csv": ("af", [("word", TXT), ("score", INT)]),
    "within_subject_scores.csv": ("ws", [("rownum", INT), ("subject", INT), ("a", TXT), ("b", TXT), ("d", TXT),
                                         ("dv", DBL)]),
}


class Tables(SqlTables):
    """One DuckDB connection with a table per file and derived views: sun (one row per month, with
    ``k`` counting months from January 1749 and ``ym`` written YYYY-MM, empty months left out),
    sun_year (annual means of complete years), un (quarters with a running number ``k`` and the label
    ``YYYY-Qnn``) and ref (the council rows, numbers parsed, the Scotland totals left out)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.con.execute("SET threads = 1")
        self.read_files(folder, FILES)
        cases = " ".join(f"WHEN '{m.lower()}' THEN {i + 1}" for i, m in enumerate(MONTHS))
        self.con.execute(
            f"CREATE VIEW sun AS SELECT yr, mo, v, yr * 12 + mo AS k, printf('%04d-%02d', yr, mo) AS ym FROM "
            f"(SELECT yr, CASE name {cases} END AS mo, v FROM "
            f"(UNPIVOT sun_wide ON {', '.join(m.lower() for m in MONTHS)} INTO NAME name VALUE v))")
        self.con.execute("CREATE VIEW sun_year AS SELECT yr, avg(v) AS a FROM sun GROUP BY yr HAVING count(*) = 12")
        self.con.execute(
            "CREATE VIEW un AS SELECT yr, period, rate, yr * 4 + CAST(substr(period, 2) AS INTEGER) AS k, "
            "yr || '-' || period AS lbl FROM un_raw")
        self.con.execute(
            "CREATE VIEW ref AS SELECT question, authority, "
            "CAST(replace(yes_votes, ',', '') AS BIGINT) AS yes, CAST(replace(no_votes, ',', '') AS BIGINT) AS no, "
            "CAST(trim(replace(yes_pct, '%', '')) AS DOUBLE) AS yes_share FROM ref_raw WHERE authority <> 'Scotland'")
        assert self.one("SELECT count(*) FROM sun") == 260 * 12 + 6  # UNPIVOT drops the empty cells
        assert self.one("SELECT count(*) FROM sun_year") == 260
        assert self.one("SELECT max(k) - min(k) + 1 = count(*) AND count(DISTINCT k) = count(*) FROM un")
        assert self.rows("SELECT question, count(*) FROM ref GROUP BY ALL ORDER BY 1") == [(TAX, 32), (PARL, 32)]


def crosstab(T: Tables, table: str, row: str, col: str) -> np.ndarray:
    cells = T.rows(f"SELECT {row}, {col}, count(*) FROM {table} GROUP BY ALL")
    rows, cols = sorted({r for r, _, _ in cells}), sorted({c for _, c, _ in cells})
    out = np.zeros((len(rows), len(cols)))
    for r, c, n in cells:
        out[rows.index(r), cols.index(c)] = n
    return out


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # ---- easy
    A[10021] = [["dream_penguins", str(T.one("SELECT count(*) FROM pg WHERE island = 'Dream'"))]]
    A[10022] = [["models_without_cache", str(T.one("SELECT count(*) FROM cpu WHERE cach = 0"))]]
    A[10023] = [["airborne_animals", str(T.one("SELECT count(*) FROM zoo WHERE airborne"))]]
    A[10024] = [["median_sodium_class1", dec(T.one("SELECT quantile_cont(sodium, 0.5) FROM gl WHERE cls = 1"), 3)]]
    A[10025] = [["year_highest_january", str(best(T.rows(
        "SELECT yr, jan FROM sun_wide WHERE jan IS NOT NULL ORDER BY jan DESC")))]]
    A[10026] = [["peak_quarter", best(T.rows("SELECT lbl, rate FROM un ORDER BY rate DESC"))]]
    A[10027] = [["strongest_yes_area", best(T.rows(
        f"SELECT authority, yes_share FROM ref WHERE question = '{PARL}' ORDER BY yes_share DESC"))]]
    A[10028] = [["mean_resistance", dec(T.one("SELECT avg(resistance) FROM si"), 4)]]
    A[10029] = [["negative_entries", str(T.one("SELECT count(*) FROM af WHERE score < 0"))]]
    A[10030] = [["mean_dv_level_b", dec(T.one("SELECT avg(dv) FROM ws WHERE a = 'b'"), 2)]]
    # ---- medium
    A[10031] = [["mean_mass_male_gentoo", dec(T.one(
        "SELECT avg(mass) FROM pg WHERE species = 'Gentoo' AND sex = 'MALE' AND mass IS NOT NULL"), 2)]]
    A[10032] = [["heaviest_adelie_island", best(T.rows(
        "SELECT island, avg(mass) m FROM pg WHERE species = 'Adelie' AND mass IS NOT NULL GROUP BY island "
        "ORDER BY m DESC"))]]
    A[10033] = [["top_vendor", best(T.rows(
        "SELECT vendor, avg(perf) m FROM cpu GROUP BY vendor HAVING count(*) >= 10 ORDER BY m DESC"))]]
    A[10034] = [["r_mmax_class", dec(pearson(T.array("SELECT mmax, perf FROM cpu")), 4)]]
    A[10035] = [["pct_aquatic_egg_layers", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE aquatic) / count(*) FROM zoo WHERE eggs"), 2)]]
    A[10036] = [["most_venomous_type", best(T.rows(
        "SELECT kind, avg(CASE WHEN venomous THEN 1.0 ELSE 0.0 END) s FROM zoo GROUP BY kind ORDER BY s DESC"))]]
    A[10037] = [["magnesium_gap", dec(T.one(
        "SELECT avg(magnesium) FILTER (WHERE cls = 0) - avg(magnesium) FILTER (WHERE cls = 1) FROM gl"), 4)]]
    A[10038] = [["most_active_year", str(best(T.rows("SELECT yr, a FROM sun_year ORDER BY a DESC")))]]
    A[10039] = [["spotless_months", str(T.one("SELECT count(*) FROM sun WHERE yr <= 2008 AND v = 0"))]]
    years = T.rows("SELECT yr, avg(rate) a FROM un GROUP BY yr HAVING count(*) = 4 ORDER BY a DESC")
    A[10040] = [["worst_year", str(best(years))]]
    A[10041] = [["sharpest_rise_quarter", best(T.rows(
        "SELECT lbl, round(rate - lag(rate) OVER (ORDER BY k), 9) c FROM un QUALIFY c IS NOT NULL ORDER BY c DESC"))]]
    A[10042] = [["council_yes_votes_tax", str(T.one(f"SELECT sum(yes) FROM ref WHERE question = '{TAX}'"))]]
    A[10043] = [["areas_voting_no_tax", str(T.one(f"SELECT count(*) FROM ref WHERE question = '{TAX}' AND no > yes"))]]
    A[10044] = [["sd_instrument_4", dec(T.one("SELECT stddev_samp(resistance) FROM si WHERE instrument = 4"), 5)]]
    A[10045] = [["mean_positive_score", dec(T.one("SELECT avg(score) FROM af WHERE score > 0"), 4)]]
    A[10046] = [["top_b_level", best(T.rows("SELECT b, avg(dv) m FROM ws GROUP BY b ORDER BY m DESC"))]]
    # ---- hard
    male, female = (T.col(f"SELECT mass FROM pg WHERE species = 'Adelie' AND sex = '{s}' AND mass IS NOT NULL")
                    for s in ("MALE", "FEMALE"))
    welch_t, welch_df = welch(male, female)
    A[10047] = [["welch_t", dec(welch_t, 3)], ["degrees_of_freedom", dec(welch_df, 2)]]
    flipper_fit = least_squares(T.array(
        "SELECT mass, flipper, bill_depth FROM pg WHERE mass IS NOT NULL AND flipper IS NOT NULL "
        "AND bill_depth IS NOT NULL"))
    A[10048] = [["flipper_coefficient", dec(flipper_fit[1], 3)]]
    table = crosstab(T, "pg", "species", "island")
    assert table.shape == (3, 3)
    A[10049] = [["chi_square", dec(chi_square(table), 3)]]
    coef, r2 = fit(T.array("SELECT perf, myct, mmax, cach FROM cpu"))
    A[10050] = [["cache_coefficient", dec(coef[3], 4)], ["r_squared", dec(r2, 4)]]
    A[10051] = [["high_performance_outliers", str(T.one(
        "WITH q AS (SELECT quantile_cont(perf, 0.25) q1, quantile_cont(perf, 0.75) q3 FROM cpu) "
        "SELECT count(*) FROM cpu, q WHERE perf > q3 + 1.5 * (q3 - q1)"))]]
    stat = chi_square(crosstab(T, "zoo", "predator", "toothed"))
    A[10052] = [["chi_square", dec(stat, 4)], ["p_value", dec(math.erfc(math.sqrt(stat / 2)), 4)]]
    n0, n1 = (T.one(f"SELECT count(*) FROM gl WHERE cls = {k}") for k in (0, 1))
    rank_sum0 = T.one(
        "SELECT sum(r) FILTER (WHERE cls = 0) FROM (SELECT cls, rank() OVER (ORDER BY ri) "
        "+ (count(*) OVER (PARTITION BY ri) - 1) / 2.0 AS r FROM gl)")
    ties = T.one("SELECT coalesce(sum(c * c * c - c), 0) FROM (SELECT CAST(count(*) AS DOUBLE) c FROM gl GROUP BY ri)")
    u0 = float(rank_sum0) - n0 * (n0 + 1) / 2
    n = n0 + n1
    sigma = math.sqrt(n0 * n1 / 12 * ((n + 1) - ties / (n * (n - 1))))
    A[10053] = [["u_statistic", dec(u0, 1)],
                ["p_value", dec(math.erfc(abs(u0 - n0 * n1 / 2) / sigma / math.sqrt(2)), 4)]]
    strength = sorted(((o, abs(pearson(T.array(f"SELECT {o.lower()}, ri FROM gl")))) for o in OXIDES),
                      key=lambda pair: -pair[1])
    A[10054] = [["strongest_oxide", best(strength)]]
    runs = T.rows(
        "WITH f AS (SELECT k, ym, v < 10 AS quiet FROM sun), "
        "g AS (SELECT k, ym, quiet, row_number() OVER (ORDER BY k) - row_number() OVER (PARTITION BY quiet ORDER BY k) "
        "AS grp FROM f) SELECT arg_min(ym, k), count(*) n FROM g WHERE quiet GROUP BY grp ORDER BY n DESC")
    assert runs[0][1] != runs[1][1], runs[:2]
    A[10055] = [["longest_quiet_months", str(runs[0][1])], ["quiet_start", runs[0][0]]]
    A[10056] = [["biggest_jump_year", str(best(T.rows(
        "SELECT yr, a - lag(a) OVER (ORDER BY yr) j FROM sun_year QUALIFY j IS NOT NULL ORDER BY j DESC")))]]
    A[10057] = [["lag4_correlation", dec(pearson(T.array(
        "SELECT rate, lag(rate, 4) OVER (ORDER BY k) p FROM un QUALIFY p IS NOT NULL")), 4)]]
    falls = T.rows(
        f"SELECT authority, avg(s) FILTER (WHERE question = '{PARL}') - avg(s) FILTER (WHERE question = '{TAX}') "
        "AS fall FROM (SELECT authority, question, 100.0 * yes / (yes + no) s FROM ref) GROUP BY authority "
        "ORDER BY fall DESC")
    A[10058] = [["largest_drop_area", best(falls)], ["drop_points", dec(falls[0][1], 2)]]
    groups = [T.col(f"SELECT resistance FROM si WHERE instrument = {i}") for i in range(1, 6)]
    f = one_way_f(groups)
    A[10059] = [["f_statistic", dec(f, 4)], ["p_value", dec(f_upper(f, 4, 20), 4)]]
    diffs = T.col("SELECT avg(dv) FILTER (WHERE a = 'a') - avg(dv) FILTER (WHERE a = 'b') FROM ws GROUP BY subject")
    t = diffs.mean() / (diffs.std(ddof=1) / math.sqrt(len(diffs)))
    A[10060] = [["paired_t", dec(t, 4)], ["p_value", dec(t_two_sided(t, len(diffs) - 1), 4)]]
    return A


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
