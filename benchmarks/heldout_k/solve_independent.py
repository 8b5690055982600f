"""Second, independent solution of held-out batch K, written from the text of each question alone.

It does not share code with ``labels_k.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (explicit column names and types, header rows skipped, empty cells
read as missing, the ``1960-01`` months and ``1954Q1`` quarters taken apart with ``split_part`` and
``strptime``, medians and quartiles with ``quantile_cont``, previous periods with ``lag``, runs of
inverted months with the difference of two ``row_number`` windows, the long methylation and wind
tables pivoted with conditional aggregates, the ships' indicator columns turned into labels with
``CASE``), and the statistics written out by hand with numpy and the standard library: the
least-squares fits from the normal equations, the Pearson correlations from centred sums, the
chi-square statistic from expected counts, the Mann-Whitney U from SQL average ranks with its
tie-corrected normal approximation, the one-way ANOVA F from sums of squares and the Welch
statistic with its degrees of freedom (scipy is used only for the t distribution's tail).

    .venv/bin/python benchmarks/heldout_k/solve_independent.py [TABLES_DIR]

writes ``independent_answers.jsonl`` (layout of a labels file) beside this file, unless a tables
folder is given, in which case it only prints the answers. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

import math
import sys
from functools import partial
from pathlib import Path

import numpy as np

# heldout_common (in benchmarks/) has what the batches share; taken from it here: the command line,
# the DuckDB query helpers and the reading of the files, the value formatting, the tie check and the
# statistics written out by hand (least squares, Pearson, one-way F), as batch L takes them.
sys.path.append(str(Path(__file__).resolve().parents[1]))
import heldout_common  # noqa: E402
from heldout_common import dec_refusing_halves as dec  # noqa: E402
from heldout_common import least_squares, one_way_f, pearson  # noqa: E402

only_top = partial(heldout_common.only_top, runner_up=True)  # a runner-up is wanted, as in I-J

HERE = Path(__file__).resolve().parent
DBL, INT, BIG, TXT = "DOUBLE", "INTEGER", "BIGINT", "VARCHAR"

# file -> (table name, [(column, type), ...]); every table is read without its header line, with
# the names and types given here.
FILES = {
    "ships.csv": ("sh", [("ship", INT), ("yr_con", INT), ("yr_op", INT), ("service", DBL), ("accident", DBL),
                         ("op_75_79", INT), ("co_65_69", INT), ("co_70_74", INT), ("co_75_79", INT)]),
    "medicare_stays.csv": ("ms", [("los", INT), ("admitype", TXT), ("codes", INT)]),
    "vasoconstriction.csv": ("vc", [("case_no", INT), ("diagnosis", TXT), ("rate", DBL), ("volume", DBL),
                                    ("constrict", INT), ("const", DBL), ("log_rate", DBL), ("log_volume", DBL)]),
    "methylation.csv": ("mt", [("row0", INT), ("row1", INT), ("gender", TXT), ("age", DBL), ("basename", TXT),
                               ("label", TXT), ("person", TXT), ("plate", BIG), ("site", TXT),
                               ("meth", DBL)]),
    "food_expenditure.csv": ("fe", [("food", DBL), ("income", DBL), ("persons", INT)]),
    "motorcycle.csv": ("mc", [("t", DBL), ("accel", DBL)]),
    "wind.csv": ("wi", [("direction", TXT), ("strength", TXT), ("freq", DBL)]),
    "german_interest_rates.csv": ("gr_raw", [("month", TXT), ("i_short", DBL), ("i_long", DBL)]),
    "us_money_gnp.csv": ("us_raw", [("quarter", TXT), ("m1", DBL), ("gnp", DBL), ("rd", DBL), ("rb", DBL)]),
    "german_income.csv": ("gi_raw", [("quarter", TXT), ("inc", DBL), ("cons", DBL)]),
}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a table per file and derived views: gr (months with a date ``d``,
    year ``yr`` and a running month number ``k``), us and gi (quarters with year ``yr``, quarter of
    the year ``q`` and a running quarter number ``k``)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.con.execute("SET threads = 1")
        self.read_files(folder, FILES)
        self.con.execute(
            "CREATE VIEW gr AS SELECT CAST(strptime(month || '-01', '%Y-%m-%d') AS DATE) AS d, "
            "year(CAST(strptime(month || '-01', '%Y-%m-%d') AS DATE)) AS yr, "
            "year(CAST(strptime(month || '-01', '%Y-%m-%d') AS DATE)) * 12 "
            "+ month(CAST(strptime(month || '-01', '%Y-%m-%d') AS DATE)) AS k, * FROM gr_raw")
        for view, raw in (("us", "us_raw"), ("gi", "gi_raw")):
            self.con.execute(
                f"CREATE VIEW {view} AS SELECT CAST(split_part(quarter, 'Q', 1) AS INTEGER) AS yr, "
                f"CAST(split_part(quarter, 'Q', 2) AS INTEGER) AS q, "
                f"CAST(split_part(quarter, 'Q', 1) AS INTEGER) * 4 + CAST(split_part(quarter, 'Q', 2) AS INTEGER) "
                f"AS k, * FROM {raw}")


def welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Welch's t (a minus b) and its two-sided p-value from the Welch-Satterthwaite degrees of freedom."""
    from scipy.stats import t as t_dist

    (ma, va), (mb, vb) = ((x.mean(), x.var(ddof=1) / len(x)) for x in (a, b))
    t = (ma - mb) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / sum(v * v / (len(x) - 1) for v, x in ((va, a), (vb, b)))
    return t, 2 * t_dist.sf(abs(t), df)


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # ---- easy
    A[9941] = [["total_incidents", str(int(T.one("SELECT sum(accident) FROM sh")))]]
    A[9942] = [["long_stays", str(T.one("SELECT count(*) FROM ms WHERE los > 30"))]]
    A[9943] = [["median_emergency_stay", dec(T.one(
        "SELECT quantile_cont(los, 0.5) FROM ms WHERE admitype = 'type3'"), 1)]]
    A[9944] = [["fast_constrictions", str(T.one(
        "SELECT count(*) FROM vc WHERE diagnosis = 'constrict' AND rate >= 2.0"))]]
    A[9945] = [["women", str(T.one("SELECT count(DISTINCT person) FROM mt WHERE gender = 'F'"))]]
    A[9946] = [["mean_food_large_households", dec(T.one("SELECT avg(food) FROM fe WHERE persons >= 4"), 3)]]
    A[9947] = [["time_of_lowest_accel", dec(only_top(T.rows("SELECT t, -accel FROM mc ORDER BY accel ASC")), 1)]]
    A[9948] = [["most_frequent_direction", only_top(T.rows(
        "SELECT direction, sum(freq) s FROM wi GROUP BY direction ORDER BY s DESC"))]]
    A[9949] = [["peak_short_rate_month", only_top(T.rows(
        "SELECT strftime(d, '%Y-%m'), i_short FROM gr ORDER BY i_short DESC"))]]
    A[9950] = [["quarters_above_10pct", str(T.one("SELECT count(*) FROM us WHERE rb > 0.10"))]]
    # ---- medium
    rates = T.rows(
        "SELECT ship, 1000 * sum(accident) / sum(service) r FROM sh "
        "WHERE accident IS NOT NULL AND service IS NOT NULL GROUP BY ship ORDER BY r DESC")
    A[9951] = [["ship_type", str(only_top(rates))], ["incidents_per_1000_months", dec(rates[0][1], 2)]]
    A[9952] = [["busiest_construction_period", only_top(T.rows(
        "SELECT CASE WHEN co_65_69 = 1 THEN '1965-69' WHEN co_70_74 = 1 THEN '1970-74' "
        "WHEN co_75_79 = 1 THEN '1975-79' ELSE '1960-64' END AS period, sum(accident) s FROM sh "
        "GROUP BY period ORDER BY s DESC"))]]
    A[9953] = [["emergency_pct", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE admitype = 'type3') / count(*) FROM ms WHERE codes = 9"), 2)]]
    A[9954] = [["shortest_stay_codes", str(only_top(T.rows(
        "SELECT codes, -avg(los) m FROM ms GROUP BY codes HAVING count(*) >= 50 ORDER BY m DESC")))]]
    t, p = welch(T.col("SELECT volume FROM vc WHERE diagnosis = 'constrict'"),
                 T.col("SELECT volume FROM vc WHERE diagnosis = 'no_constrict'"))
    A[9955] = [["t_statistic", dec(t, 4)], ["p_value", dec(p, 4)]]
    A[9956] = [["largest_rise_person", only_top(T.rows(
        "SELECT person, max(meth) FILTER (WHERE site = 'CpG_2') - max(meth) FILTER (WHERE site = 'CpG_0') AS rise "
        "FROM mt GROUP BY person ORDER BY rise DESC"))]]
    A[9957] = [["age_methylation_r", dec(pearson(T.array("SELECT age, meth FROM mt WHERE site = 'CpG_1'")), 4)]]
    A[9958] = [["median_food_share_pct", dec(T.one("SELECT quantile_cont(100 * food / income, 0.5) FROM fe"), 2)]]
    A[9959] = [["z_outliers", str(T.one(
        "SELECT count(*) FROM mc, (SELECT avg(accel) mu, stddev_samp(accel) sd FROM mc) s "
        "WHERE abs(accel - mu) / sd > 2"))]]
    A[9960] = [["most_common_strength", only_top(T.rows(
        "SELECT strength, sum(freq) s FROM wi GROUP BY strength ORDER BY s DESC"))]]
    A[9961] = [["highest_rate_year", str(only_top(T.rows(
        "SELECT yr, avg(i_short) m FROM gr GROUP BY yr HAVING count(*) = 12 ORDER BY m DESC")))]]
    A[9962] = [["inverted_months", str(T.one("SELECT count(*) FROM gr WHERE i_short > i_long"))]]
    A[9963] = [["long_rate_sd_1970s", dec(T.one(
        "SELECT stddev_samp(i_long) FROM gr WHERE d BETWEEN DATE '1970-01-01' AND DATE '1979-12-01'"), 4)]]
    g81, g82 = (T.one(f"SELECT avg(gnp) FROM us WHERE yr = {y}") for y in (1981, 1982))
    A[9964] = [["gnp_change_pct", dec(100 * (g82 / g81 - 1), 2)]]
    A[9965] = [["falling_quarters", str(T.one(
        "SELECT count(*) FROM (SELECT gnp - lag(gnp) OVER (ORDER BY k) AS ch FROM us) WHERE ch < 0"))]]
    A[9966] = [["peak_spending_quarter", str(only_top(T.rows(
        "SELECT q, avg(cons / inc) m FROM gi GROUP BY q ORDER BY m DESC")))]]
    # ---- hard
    r1, r2 = (T.one(f"SELECT sum(accident) / sum(service) FROM sh WHERE yr_op = {k} "
                    "AND accident IS NOT NULL AND service IS NOT NULL") for k in (1, 2))
    A[9967] = [["rate_change_pct", dec(100 * (r2 / r1 - 1), 2)]]
    n1, n2, rank_sum = T.rows(
        "WITH r AS (SELECT admitype, rank() OVER (ORDER BY los) AS lo, count(*) OVER (PARTITION BY los) AS c "
        "FROM ms) SELECT count(*) FILTER (WHERE admitype = 'type3'), count(*) FILTER (WHERE admitype = 'type1|2'), "
        "sum(lo + (c - 1) / 2.0) FILTER (WHERE admitype = 'type3') FROM r")[0]
    u = rank_sum - n1 * (n1 + 1) / 2
    n = n1 + n2
    tie_term = T.one("SELECT sum(c * c * c - c) FROM (SELECT CAST(count(*) AS DOUBLE) c FROM ms GROUP BY los)")
    z = (u - n1 * n2 / 2) / math.sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))))
    A[9968] = [["u_statistic", dec(u, 1)], ["z_statistic", dec(z, 4)]]
    A[9969] = [["iqr_outliers", str(T.one(
        "WITH f AS (SELECT admitype, quantile_cont(los, 0.25) q1, quantile_cont(los, 0.75) q3 FROM ms "
        "GROUP BY admitype) SELECT count(*) FROM ms JOIN f USING (admitype) "
        "WHERE los < q1 - 1.5 * (q3 - q1) OR los > q3 + 1.5 * (q3 - q1)"))]]
    cells = T.rows("SELECT admitype, codes = 9 AS nine, count(*) FROM ms GROUP BY ALL")
    observed = {(a, b): c for a, b, c in cells}
    total = sum(observed.values())
    rows_t = {a: sum(c for (x, _), c in observed.items() if x == a) for a, _ in observed}
    cols_t = {b: sum(c for (_, y), c in observed.items() if y == b) for _, b in observed}
    assert len(observed) == 4
    chi = sum((observed[(a, b)] - rows_t[a] * cols_t[b] / total) ** 2 / (rows_t[a] * cols_t[b] / total)
              for a, b in observed)
    A[9970] = [["chi_square", dec(chi, 4)]]
    A[9971] = [["log_log_slope", dec(least_squares(T.array(
        "SELECT log_volume, log_rate FROM vc WHERE diagnosis = 'no_constrict'"))[1], 4)]]
    person = "SELECT person, any_value(gender) g, avg(meth) m FROM mt GROUP BY person"
    t, _ = welch(T.col(f"SELECT m FROM ({person}) WHERE g = 'F'"), T.col(f"SELECT m FROM ({person}) WHERE g = 'M'"))
    A[9972] = [["t_statistic", dec(t, 4)]]
    A[9973] = [["persons_coefficient", dec(least_squares(T.array("SELECT food, income, persons FROM fe"))[2], 4)]]
    A[9974] = [["most_variable_window", str(only_top(T.rows(
        "SELECT CAST(floor(t / 10) * 10 AS INTEGER) w, stddev_samp(accel) s FROM mc GROUP BY w ORDER BY s DESC")))]]
    A[9975] = [["lightest_wind_direction", only_top(T.rows(
        "SELECT direction, 100 * (sum(freq) FILTER (WHERE strength = '0-1') + sum(freq) FILTER (WHERE strength = '1-2')) "
        "/ sum(freq) AS share FROM wi GROUP BY direction ORDER BY share DESC"))]]
    A[9976] = [["change_correlation", dec(pearson(T.array(
        "SELECT ds, dl FROM (SELECT i_short - lag(i_short) OVER (ORDER BY k) ds, "
        "i_long - lag(i_long) OVER (ORDER BY k) dl FROM gr) WHERE ds IS NOT NULL")), 4)]]
    runs = T.rows(
        "WITH f AS (SELECT k, d, i_short > i_long AS inv, row_number() OVER (ORDER BY k) "
        "- row_number() OVER (PARTITION BY i_short > i_long ORDER BY k) AS grp FROM gr) "
        "SELECT strftime(min(d), '%Y-%m'), count(*) n FROM f WHERE inv GROUP BY grp ORDER BY n DESC")
    A[9977] = [["longest_inversion_months", str(runs[0][1])], ["inversion_start", only_top(runs)]]
    A[9978] = [["income_elasticity", dec(least_squares(T.array("SELECT ln(m1), ln(gnp), rb FROM us"))[1], 4)]]
    growth = T.rows(
        "SELECT a.quarter, 100 * (a.inc / b.inc - 1) g FROM gi a JOIN gi b ON b.yr = a.yr - 1 AND b.q = a.q "
        "ORDER BY g DESC")
    A[9979] = [["fastest_growth_quarter", only_top(growth)], ["growth_pct", dec(growth[0][1], 2)]]
    A[9980] = [["f_statistic", dec(one_way_f(
        [T.col(f"SELECT cons / inc FROM gi WHERE q = {k}") for k in (1, 2, 3, 4)]), 4)]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
