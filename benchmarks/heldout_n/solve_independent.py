"""Batch N's second solution, written again from each question's text alone, with no code of
``labels_n.py`` and in another style. DuckDB SQL does the data work: each CSV file read with its
header line skipped and explicit names and types (empty cells missing, tickets as text, the
catalogue's ``true``/``false`` flags as BOOLEAN, the Regional Trends measures that hold ``..`` or
``-`` as text), the export values' thousands separators removed with ``replace``, the totals of
the Regional Trends tables filtered out in views (the measure names of one header, which an answer
names, read with the ``csv`` module), years cut from the quarter labels, previous quarters by
``lag`` over the quarter labels (``1947Q1`` sorts as time does), runs of rising quarters by the
difference of two ``row_number`` windows, medians and quartiles by ``quantile_cont``, top five by
``ORDER BY ... LIMIT``, average ranks by ``rank()`` and the size of each tie. numpy and the standard library do the statistics by hand: least squares by the normal
equations and its R squared, Pearson correlations (of ranks too, for Spearman's), the chi-square
statistic from expected counts, Welch's t and its degrees of freedom, the Mann-Whitney U from SQL
average ranks with its tie-corrected normal approximation (p-value by ``math.erfc``) and the ANOVA
F with its p-value (the F distribution's tail has a closed form for 2 numerator degrees of
freedom). ``heldout_common`` and ``heldout_stats`` lend the fit, the correlation, the F and Welch's t (solver
helpers the labels do not use); there is no scipy and no pandas here.

    .venv/bin/python benchmarks/heldout_n/solve_independent.py [TABLES_DIR]

Without an argument it solves from ``tables/`` and writes ``independent_answers.jsonl``; with a
tables folder it prints the answers only. Do not read this file before a measurement of the batch.
"""

from __future__ import annotations

import csv
import math
import sys
from functools import partial
from pathlib import Path


sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import SqlTables, dec_refusing_halves, one_way_f, only_top, pearson  # noqa: E402
from heldout_common import run_solver  # noqa: E402
from heldout_stats import fit, welch  # noqa: E402

dec = dec_refusing_halves  # a value within 1e-3 of a rounding half is refused, as the labels refuse it
best = partial(only_top, runner_up=True)  # the top of (key, score) rows, untied, with a runner-up

HERE = Path(__file__).resolve().parent
DBL, INT, BIG, TXT, BOOL = "DOUBLE", "INTEGER", "BIGINT", "VARCHAR", "BOOLEAN"

# file -> (table name, [(column, type), ...]); every table is read without its header line, with
# the names and types given here.
FILES = {
    "titanic_passengers.csv": ("tit", [("pclass", INT), ("survived", INT), ("name", TXT), ("sex", TXT), ("age", DBL),
                                       ("sibsp", INT), ("parch", INT), ("ticket", TXT), ("fare", DBL), ("cabin", TXT),
                                       ("embarked", TXT), ("boat", TXT), ("body", DBL), ("home_dest", TXT)]),
    "us_investment_quarterly.csv": ("inv", [("qtr", TXT), ("fixed", DBL), ("stocks", DBL)]),
    "scotland_vital_statistics.csv": ("vital_raw", [("area", TXT), ("birth_rate", DBL), ("death_rate", DBL),
                                                    ("perinatal", DBL), ("infant", DBL), ("outside", DBL)]),
    "scotland_education.csv": ("edu_raw", [("area", TXT), ("nursery", TXT), ("under5", TXT), ("ptr_primary", DBL),
                                           ("ptr_secondary", DBL), ("post16", DBL), ("no_grades", TXT),
                                           ("five_grades", DBL), ("training", TXT)]),
    "scottish_manufactured_exports.csv": ("exp_raw", [("sector", TXT), ("value_text", TXT), ("share", DBL),
                                                      ("growth", DBL), ("contribution", DBL)]),
    "scottish_export_destinations.csv": ("dest_raw", [("dest", TXT), ("value_text", TXT), ("share", DBL),
                                                      ("growth", DBL), ("contribution", DBL)]),
    "vega_dataset_catalog.csv": ("cat", [("dataset_name", TXT), ("suffix", TXT), ("file_name", TXT), ("bytes", BIG),
                                         ("is_image", BOOL), ("is_tabular", BOOL), ("is_geo", BOOL), ("is_topo", BOOL),
                                         ("is_spatial", BOOL), ("is_json", BOOL), ("has_schema", BOOL), ("sha", TXT),
                                         ("url", TXT)]),
    "linnerud_fitness.csv": ("lin", [("chins", INT), ("situps", INT), ("jumps", INT), ("weight", INT), ("waist", INT),
                                     ("pulse", INT)]),
}
TOTALS = "('United Kingdom', 'Scotland')"


class Tables(SqlTables):
    """One DuckDB connection with a table per file and derived views: vital and edu (the 32 council
    areas, totals left out), sectors (the ten named export sectors, values parsed), dest (the ten
    export destinations, values parsed), inv_q (quarters with their year and the change of fixed
    investment from the previous quarter)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.folder = Path(folder)
        self.con.execute("SET threads = 1")
        self.read_files(folder, FILES)
        self.con.execute(f"CREATE VIEW vital AS SELECT * FROM vital_raw WHERE area NOT IN {TOTALS}")
        self.con.execute(f"CREATE VIEW edu AS SELECT * FROM edu_raw WHERE area NOT IN {TOTALS}")
        self.con.execute(
            "CREATE VIEW sectors AS SELECT sector, CAST(replace(value_text, ',', '') AS DOUBLE) AS val, growth "
            "FROM exp_raw WHERE sector NOT IN ('Other  sectors', 'All Manufacturing Industries')")
        self.con.execute(
            "CREATE VIEW dest AS SELECT dest, CAST(replace(value_text, ',', '') AS DOUBLE) AS val, growth FROM dest_raw")
        self.con.execute(
            "CREATE VIEW inv_q AS SELECT qtr, CAST(left(qtr, 4) AS INTEGER) AS yr, fixed, stocks, "
            "fixed - lag(fixed) OVER (ORDER BY qtr) AS delta FROM inv")
        assert self.one("SELECT count(*) FROM tit") == 1309
        assert self.one("SELECT count(*) FROM dest") == 10
        assert self.rows("SELECT count(*), min(qtr), max(qtr), count(DISTINCT yr) FROM inv_q") == [
            (104, "1947Q1", "1972Q4", 26)]
        assert self.one("SELECT count(*) FROM vital") == self.one("SELECT count(*) FROM edu") == 32
        assert self.one("SELECT count(*) FROM sectors") == 10
        assert self.one("SELECT count(*) FROM cat") == 72 and self.one("SELECT count(*) FROM lin") == 20


def average_ranks_sql(table: str, column: str, where: str = "TRUE") -> str:
    """SQL giving every row its average rank of ``column`` (ties share the mean of their ranks)."""
    return (f"SELECT *, rank() OVER (ORDER BY {column}) + (count(*) OVER (PARTITION BY {column}) - 1) / 2.0 "
            f"AS r_{column} FROM {table} WHERE {where}")


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # ---- easy
    A[10061] = [["queenstown_passengers", str(T.one("SELECT count(*) FROM tit WHERE embarked = 'Q'"))]]
    A[10062] = [["median_first_class_fare", dec(T.one(
        "SELECT quantile_cont(fare, 0.5) FROM tit WHERE pclass = 1 AND fare IS NOT NULL"), 2)]]
    A[10063] = [["destinations_with_falls", str(T.one("SELECT count(*) FROM dest WHERE growth < 0"))]]
    A[10064] = [["lowest_inventory_quarter", best(T.rows("SELECT qtr, -stocks FROM inv ORDER BY stocks"))]]
    A[10065] = [["quarters_inventories_fell", str(T.one("SELECT count(*) FROM inv WHERE stocks < 0"))]]
    A[10066] = [["highest_outside_marriage_area", best(T.rows("SELECT area, outside FROM vital ORDER BY outside DESC"))]]
    A[10067] = [["areas_with_training_figure", str(T.one(
        "SELECT count(*) FROM edu WHERE TRY_CAST(training AS DOUBLE) IS NOT NULL"))]]
    A[10068] = [["named_sector_exports", dec(T.one("SELECT sum(val) FROM sectors"), 1)]]
    A[10069] = [["tabular_json_entries", str(T.one("SELECT count(*) FROM cat WHERE is_tabular AND is_json"))]]
    A[10070] = [["mean_situps_slim_waist", dec(T.one("SELECT avg(situps) FROM lin WHERE waist < 36"), 2)]]
    # ---- medium
    A[10071] = [["survival_pct_female_third", dec(T.one(
        "SELECT 100.0 * sum(survived) / count(*) FROM tit WHERE sex = 'female' AND pclass = 3"), 2)]]
    A[10072] = [["best_survival_port", best(T.rows(
        "SELECT embarked, avg(survived) s FROM tit WHERE embarked IS NOT NULL GROUP BY embarked ORDER BY s DESC"))]]
    ages = dict(T.rows("SELECT survived, avg(age) FROM tit WHERE age IS NOT NULL GROUP BY survived"))
    A[10073] = [["mean_age_survivors", dec(ages[1], 2)], ["mean_age_non_survivors", dec(ages[0], 2)]]
    A[10074] = [["tickets_with_5_or_more", str(T.one(
        "SELECT count(*) FROM (SELECT ticket FROM tit GROUP BY ticket HAVING count(*) >= 5)"))]]
    A[10075] = [["asia_share_pct", dec(T.one(
        "SELECT 100 * sum(val) FILTER (WHERE dest IN ('Japan', 'Other Asia Pacific')) / sum(val) FROM dest"), 2)]]
    A[10076] = [["oldest_class", str(best(T.rows(
        "SELECT pclass, quantile_cont(age, 0.5) m FROM tit WHERE age IS NOT NULL GROUP BY pclass ORDER BY m DESC")))]]
    A[10077] = [["fastest_growth_year", str(best(T.rows(
        "SELECT yr, 100 * (total / lag(total) OVER (ORDER BY yr) - 1) g FROM "
        "(SELECT yr, sum(fixed) total FROM inv_q GROUP BY yr HAVING count(*) = 4) QUALIFY g IS NOT NULL "
        "ORDER BY g DESC")))]]
    m60, m70 = (T.one(f"SELECT avg(fixed) FROM inv_q WHERE yr = {y}") for y in (1960, 1970))
    A[10078] = [["pct_change_1960_1970", dec(100 * (m70 - m60) / m60, 2)]]
    A[10079] = [["mean_infant_mortality", dec(T.one("SELECT avg(infant) FROM vital"), 3)]]
    A[10080] = [["areas_more_deaths_than_births", str(T.one("SELECT count(*) FROM vital WHERE death_rate > birth_rate"))]]
    A[10081] = [["median_primary_ratio", dec(T.one("SELECT quantile_cont(ptr_primary, 0.5) FROM edu"), 2)]]
    A[10082] = [["smallest_ratio_gap_area", best(T.rows(
        "SELECT area, -round(ptr_primary - ptr_secondary, 9) g FROM edu ORDER BY g DESC"))]]
    A[10083] = [["fastest_growing_sector", best(T.rows("SELECT sector, growth FROM sectors ORDER BY growth DESC"))]]
    A[10084] = [["csv_megabytes", dec(T.one("SELECT sum(bytes) / 1e6 FROM cat WHERE suffix = '.csv'"), 3)]]
    A[10085] = [["largest_mean_suffix", best(T.rows(
        "SELECT suffix, avg(bytes) m FROM cat GROUP BY suffix HAVING count(*) >= 3 ORDER BY m DESC"))]]
    ranked = T.array(
        f"SELECT r_waist, r_situps FROM ({average_ranks_sql('(' + average_ranks_sql('lin', 'waist') + ')', 'situps')})")
    A[10086] = [["spearman_waist_situps", dec(pearson(ranked), 4)]]
    # ---- hard
    cells = T.rows("SELECT pclass, survived, count(*) FROM tit GROUP BY ALL")
    rows_total, cols_total = {}, {}
    for cls, surv, n in cells:
        rows_total[cls] = rows_total.get(cls, 0) + n
        cols_total[surv] = cols_total.get(surv, 0) + n
    assert len(cells) == 6
    grand = sum(n for _, _, n in cells)
    chi2 = sum((n - rows_total[c] * cols_total[s] / grand) ** 2 / (rows_total[c] * cols_total[s] / grand)
               for c, s, n in cells)
    A[10087] = [["chi_square", dec(chi2, 2)]]
    men = "sex = 'male' AND age IS NOT NULL"
    n1, n0 = (T.one(f"SELECT count(*) FROM tit WHERE {men} AND survived = {k}") for k in (1, 0))
    rank_sum = T.one(f"SELECT sum(r_age) FILTER (WHERE survived = 1) FROM ({average_ranks_sql('tit', 'age', men)})")
    ties = T.one(f"SELECT sum(c * c * c - c) FROM (SELECT CAST(count(*) AS DOUBLE) c FROM tit WHERE {men} GROUP BY age)")
    u = float(rank_sum) - n1 * (n1 + 1) / 2
    n = n1 + n0
    sd = math.sqrt(n1 * n0 / 12 * ((n + 1) - ties / (n * (n - 1))))
    A[10088] = [["u_statistic", dec(u, 1)], ["p_value", dec(math.erfc(abs(u - n1 * n0 / 2) / sd / math.sqrt(2)), 4)]]
    groups = [T.col(f"SELECT age FROM tit WHERE embarked = '{port}' AND age IS NOT NULL") for port in "CQS"]
    f = one_way_f(groups)
    d2 = sum(len(g) for g in groups) - 3
    A[10089] = [["f_statistic", dec(f, 4)], ["p_value", dec((1 + 2 * f / d2) ** (-d2 / 2), 4)]]
    coef, r2 = fit(T.array("SELECT perinatal, outside, birth_rate FROM vital"))
    A[10090] = [["outside_marriage_coefficient", dec(coef[1], 4)], ["r_squared", dec(r2, 4)]]
    women, men = (T.col(f"SELECT fare FROM tit WHERE pclass = 1 AND sex = '{s}' AND fare IS NOT NULL")
                  for s in ("female", "male"))
    tw, df = welch(women, men)
    A[10091] = [["welch_t", dec(tw, 4)], ["degrees_of_freedom", dec(df, 2)]]
    header = next(csv.reader((T.folder / "scotland_vital_statistics.csv").read_text(encoding="utf-8").splitlines()))
    measures = dict(zip(["birth_rate", "death_rate", "perinatal", "infant"], header[1:5]))
    assert header[5] == "Percentage of live births outside marriage 1996"
    strength = sorted(((measures[col], abs(pearson(T.array(f"SELECT outside, {col} FROM vital")))) for col in measures),
                      key=lambda pair: -pair[1])
    A[10092] = [["closest_measure", best(strength)]]
    runs = T.rows(
        "WITH f AS (SELECT qtr, coalesce(delta > 0, false) AS up FROM inv_q), "
        "g AS (SELECT qtr, up, row_number() OVER (ORDER BY qtr) - row_number() OVER (PARTITION BY up ORDER BY qtr) "
        "AS grp FROM f) SELECT min(qtr), count(*) n FROM g WHERE up GROUP BY grp ORDER BY n DESC")
    assert runs[0][1] != runs[1][1], runs[:2]
    A[10093] = [["longest_rise_quarters", str(runs[0][1])], ["rise_start", runs[0][0]]]
    A[10094] = [["lag1_change_correlation", dec(pearson(T.array(
        "SELECT delta, lag(delta) OVER (ORDER BY qtr) p FROM inv_q QUALIFY p IS NOT NULL")), 4)]]
    A[10095] = [["r_outside_marriage_infant", dec(pearson(T.array("SELECT outside, infant FROM vital")), 4)]]
    A[10096] = [["nursery_outliers", str(T.one(
        "WITH v AS (SELECT CAST(nursery AS DOUBLE) x FROM edu), "
        "q AS (SELECT quantile_cont(x, 0.25) q1, quantile_cont(x, 0.75) q3 FROM v) "
        "SELECT count(*) FROM v, q WHERE x > q3 + 1.5 * (q3 - q1) OR x < q1 - 1.5 * (q3 - q1)"))]]
    data = T.array(
        "SELECT five_grades, CASE no_grades WHEN '-' THEN 0 ELSE CAST(no_grades AS DOUBLE) END FROM edu "
        "WHERE no_grades <> '..'")
    assert len(data) == 22
    coef, r2 = fit(data)
    A[10097] = [["slope", dec(coef[1], 4)], ["r_squared", dec(r2, 4)]]
    A[10098] = [["implied_1995_exports", dec(T.one("SELECT sum(val / (1 + growth / 100)) FROM sectors"), 1)]]
    A[10099] = [["top5_byte_share", dec(T.one(
        "SELECT 100.0 * (SELECT sum(bytes) FROM (SELECT bytes FROM cat ORDER BY bytes DESC LIMIT 5)) / sum(bytes) "
        "FROM cat"), 2)]]
    coef, r2 = fit(T.array("SELECT chins, weight, waist FROM lin"))
    A[10100] = [["waist_coefficient", dec(coef[2], 4)], ["r_squared", dec(r2, 4)]]
    return A


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
