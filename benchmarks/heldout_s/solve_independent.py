"""Batch S's second, independent solution: DuckDB SQL over the CSV files plus statistics written out
by hand with numpy and the standard library (no pandas, no scipy), sharing no code with
``labels_s.py``. Do not read this file before a measurement of the batch.

    .venv/bin/python benchmarks/heldout_s/solve_independent.py            # writes independent_answers.jsonl
    .venv/bin/python benchmarks/heldout_s/solve_independent.py TABLES_DIR # prints the answers

Each file is read with explicit column names and types (its header line skipped; empty cells and
``NA`` as missing); dates are read as DATE and written back with ``strftime``. Years and months come
from ``year()``/``month()`` of the dates, the change over consecutive surveys and the twelve-month
rise from ``lag`` windows, the wide meat table is read column by column with ``FILTER``ed sums,
shares with ``count(*) FILTER``, percentiles with ``quantile_cont``. By hand with numpy: Welch's t
and its two-sided p-value (Student's t through the regularised incomplete beta function, a
continued fraction by Lentz's method), the one-way ANOVA F and its p-value (the same function), the
chi-square statistic from expected counts and its p-value (the closed form of the chi-square
survival function for an even number of degrees of freedom), Pearson's and Spearman's correlations
(average ranks for ties) and the straight-line fit with its R squared.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import (Answers, SqlTables, column_types, dec_refusing_halves, only_top,  # noqa: E402
                            run_solver, sql_path)
from heldout_stats import average_ranks, chi_square, f_upper, fit, one_way_f, pearson, t_two_sided, welch  # noqa: E402

HERE = Path(__file__).resolve().parent
TEXT, NUM, INT, DATE = "VARCHAR", "DOUBLE", "BIGINT", "DATE"

FILES = {
    "gapminder.csv": ("gap", [("country", TEXT), ("continent", TEXT), ("year", INT), ("life", NUM), ("pop", NUM),
                              ("gdp", NUM)]),
    "txhousing.csv": ("tx", [("city", TEXT), ("year", INT), ("month", INT), ("sales", NUM), ("volume", NUM),
                             ("median", NUM), ("listings", NUM), ("inventory", NUM), ("decimal_date", NUM)]),
    "economics.csv": ("econ", [("d", DATE), ("pce", NUM), ("pop", NUM), ("psavert", NUM), ("uempmed", NUM),
                               ("unemploy", NUM)]),
    "msleep.csv": ("sleep", [("name", TEXT), ("genus", TEXT), ("vore", TEXT), ("ord", TEXT), ("conservation", TEXT),
                             ("sleep_total", NUM), ("sleep_rem", NUM), ("sleep_cycle", NUM), ("awake", NUM),
                             ("brainwt", NUM), ("bodywt", NUM)]),
    "midwest.csv": ("midwest", [("pid", INT), ("county", TEXT), ("state", TEXT), ("area", NUM), ("poptotal", NUM),
                                *[(f"c{i}", NUM) for i in range(5, 27)], ("category", TEXT)]),
    "mpg.csv": ("mpg", [("manufacturer", TEXT), ("model", TEXT), ("displ", NUM), ("year", INT), ("cyl", INT),
                        ("trans", TEXT), ("drv", TEXT), ("cty", NUM), ("hwy", NUM), ("fl", TEXT), ("class", TEXT)]),
    "meat.csv": ("meat", [("d", DATE), ("beef", NUM), ("veal", NUM), ("pork", NUM), ("lamb", NUM),
                          ("broilers", NUM), ("other_chicken", NUM), ("turkey", NUM)]),
    "presidential.csv": ("pres", [("name", TEXT), ("start_date", DATE), ("end_date", DATE), ("party", TEXT)]),
}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


class Tables(SqlTables):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        c = self.con
        for file, (table, columns) in FILES.items():  # plotnine's files write a missing value as NA or leave it empty
            c.execute(f"""CREATE TABLE {table} AS SELECT * FROM read_csv('{sql_path(folder, file)}', header=false,
                          skip=1, delim=',', quote='"', nullstr=['NA', ''], columns={column_types(columns)})""")
        # midwest's inmetro is its 27th column: c26 of the generic names above
        c.execute("CREATE VIEW metro AS SELECT county, state, poptotal, CAST(c26 AS INTEGER) inmetro FROM midwest")
        expect = {"gap": 1704, "tx": 8602, "econ": 574, "sleep": 83, "midwest": 437, "mpg": 234, "meat": 960, "pres": 11}
        for table, n in expect.items():
            assert self.one(f"SELECT count(*) FROM {table}") == n, table
        assert self.one("SELECT count(*) FROM metro WHERE inmetro NOT IN (0, 1)") == 0


# --- statistics by hand -------------------------------------------------------------------------


def chi_square_test(table: np.ndarray) -> tuple[float, float]:
    """Pearson's statistic and its p-value; the degrees of freedom must be even (closed-form tail)."""
    stat = chi_square(table)
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    assert dof % 2 == 0
    half = stat / 2.0
    tail = math.exp(-half) * sum(half ** k / math.factorial(k) for k in range(dof // 2))
    return stat, tail


def v(x, places: int) -> str:
    return dec_refusing_halves(float(x), places)


# --- answers ------------------------------------------------------------------------------------


def solve(t: Tables) -> Answers:
    one, rows = t.one, t.rows
    a: Answers = {}
    ymd = "strftime(d, '%Y-%m-%d')"

    a[10261] = [["african_countries", str(one("SELECT count(DISTINCT country) FROM gap WHERE continent = 'Africa'"))]]
    a[10262] = [["missing_brainwt", str(one("SELECT count(*) FROM sleep WHERE brainwt IS NULL"))]]
    a[10263] = [["mean_hwy_4cyl", v(one("SELECT avg(hwy) FROM mpg WHERE cyl = 4"), 2)]]
    a[10264] = [["big_wi_counties", str(one("SELECT count(*) FROM midwest WHERE state = 'WI' AND poptotal > 100000"))]]
    a[10265] = [["peak_unemployment_month", only_top(rows(f"SELECT {ymd}, unemploy FROM econ ORDER BY 2 DESC"),
                                                     runner_up=True)]]
    a[10266] = [["austin_sales_2014", str(int(one("SELECT sum(sales) FROM tx WHERE city = 'Austin' AND year = 2014")))]]
    a[10267] = [["mean_beef_2000", v(one("SELECT avg(beef) FROM meat WHERE year(d) = 2000"), 2)]]
    a[10268] = [["republican_presidencies", str(one("SELECT count(*) FROM pres WHERE party = 'Republican'"))]]
    a[10269] = [["manual_share", v(one("SELECT 100.0 * count(*) FILTER (WHERE starts_with(trans, 'manual')) / count(*) FROM mpg"), 2)]]
    a[10270] = [["median_life_2007", v(one("SELECT median(life) FROM gap WHERE year = 2007"), 2)]]

    a[10271] = [["lowest_life_country", only_top(rows("SELECT country, -life FROM gap WHERE year = 2007 ORDER BY 2 DESC"),
                                                 runner_up=True)]]
    a[10272] = [["africa_weighted_life", v(one(
        "SELECT sum(life * pop) / sum(pop) FROM gap WHERE year = 2007 AND continent = 'Africa'"), 2)]]
    a[10273] = [["priciest_city_2015", only_top(rows("""SELECT city, avg(median) m FROM tx WHERE year = 2015 AND median IS NOT NULL
                                                       GROUP BY city ORDER BY m DESC"""), runner_up=True)]]
    a[10274] = [["most_missing_listings", only_top(rows("""SELECT city, count(*) FILTER (WHERE listings IS NULL) n FROM tx
                                                          GROUP BY city ORDER BY n DESC"""), runner_up=True)]]
    a[10275] = [["mean_uempmed_2009", v(one("SELECT avg(uempmed) FROM econ WHERE year(d) = 2009"), 3)]]
    a[10276] = [["lowest_saving_month", only_top(rows(f"SELECT {ymd}, -psavert FROM econ ORDER BY 2 DESC"), runner_up=True)]]
    a[10277] = [["sleepiest_diet", only_top(rows("""SELECT vore, avg(sleep_total) s FROM sleep WHERE vore IS NOT NULL
                                                   GROUP BY vore HAVING count(*) >= 10 ORDER BY s DESC"""), runner_up=True)]]
    a[10278] = [["domesticated_share", v(one("""SELECT 100.0 * count(*) FILTER (WHERE conservation = 'domesticated') / count(*)
                                               FROM sleep WHERE conservation IS NOT NULL"""), 2)]]
    metro = rows("SELECT state, 100.0 * sum(inmetro) / count(*) s FROM metro GROUP BY state ORDER BY s DESC")
    a[10279] = [["most_metro_state", only_top(metro, runner_up=True)], ["metro_county_share", v(metro[0][1], 2)]]
    a[10280] = [["cook_share", v(one("""SELECT 100.0 * sum(poptotal) FILTER (WHERE county = 'COOK') / sum(poptotal)
                                       FROM midwest WHERE state = 'IL'"""), 2)]]
    a[10281] = [["best_city_maker", only_top(rows("""SELECT manufacturer, avg(cty) m FROM mpg GROUP BY 1
                                                    HAVING count(*) >= 10 ORDER BY m DESC"""), runner_up=True)]]
    a[10282] = [["most_models_maker", only_top(rows("""SELECT manufacturer, count(DISTINCT model) n FROM mpg GROUP BY 1
                                                      ORDER BY n DESC"""), runner_up=True)]]
    a[10283] = [["top_turkey_year", str(only_top(rows("""SELECT year(d) y, sum(turkey) s FROM meat GROUP BY y
                                                        HAVING count(turkey) = 12 ORDER BY s DESC"""), runner_up=True))]]
    a[10284] = [["republican_days", str(one("SELECT sum(end_date - start_date) FROM pres WHERE party = 'Republican'"))]]
    a[10285] = [["median_price_p90_2015", v(one("SELECT quantile_cont(median, 0.9) FROM tx WHERE year = 2015 AND median IS NOT NULL"), 0)]]
    a[10286] = [["unemploy_duration_r", v(pearson(t.array("SELECT unemploy, uempmed FROM econ")), 4)]]

    changes = rows("""SELECT country, life - lag(life) OVER (PARTITION BY country ORDER BY year) ch FROM gap""")
    changes = [(c, ch) for c, ch in changes if ch is not None]
    assert len(changes) == 142 * 11
    fell = len({c for c, ch in changes if ch < 0})
    drops = sorted(((c, -ch) for c, ch in changes), key=lambda r: r[1], reverse=True)
    a[10287] = [["countries_with_a_fall", str(fell)], ["largest_drop_country", only_top(drops, runner_up=True)]]
    g0, g1 = rows("SELECT gdp FROM gap WHERE country = 'China' AND year IN (1952, 2007) ORDER BY year")
    a[10288] = [["china_gdp_cagr", v(100 * (math.exp(math.log(g1[0] / g0[0]) / 55) - 1), 2)]]
    ly = t.array("SELECT life, log10(gdp) FROM gap WHERE year = 2007")
    coef, r2 = fit(ly)
    a[10289] = [["slope", v(coef[1], 3)], ["r_squared", v(r2, 4)]]
    tt, df = welch(t.col("SELECT life FROM gap WHERE year = 2007 AND continent = 'Europe'"),
                   t.col("SELECT life FROM gap WHERE year = 2007 AND continent = 'Americas'"))
    a[10290] = [["t_statistic", v(tt, 3)], ["p_value", v(t_two_sided(tt, df), 6)]]
    growth = rows("""SELECT city, 100.0 * (sum(sales) FILTER (WHERE year = 2014) / sum(sales) FILTER (WHERE year = 2013) - 1) g
                     FROM tx WHERE year IN (2013, 2014) GROUP BY city
                     HAVING count(sales) FILTER (WHERE year = 2013) = 12 AND count(sales) FILTER (WHERE year = 2014) = 12
                     ORDER BY g DESC""")
    a[10291] = [["fastest_growing_city", only_top(growth, runner_up=True)], ["sales_growth_pct", v(growth[0][1], 2)]]
    month = only_top(rows("""SELECT month, avg(total) m FROM (
                                SELECT year, month, sum(sales) total FROM tx WHERE year BETWEEN 2000 AND 2014 GROUP BY 1, 2)
                             GROUP BY month ORDER BY m DESC"""), runner_up=True)
    a[10292] = [["busiest_month", MONTHS[month - 1]]]
    assert one("SELECT count(*) FROM (SELECT d - lag(d) OVER (ORDER BY d) gap FROM econ) WHERE gap NOT BETWEEN 28 AND 31") == 0
    rise = rows(f"""SELECT ds, r FROM (SELECT {ymd} ds, unemploy - lag(unemploy, 12) OVER (ORDER BY d) r FROM econ)
                    WHERE r IS NOT NULL ORDER BY r DESC""")
    a[10293] = [["month", only_top(rise, runner_up=True)], ["increase_thousands", str(int(rise[0][1]))]]
    a[10294] = [["saving_rate_fall", v(one("""SELECT avg(psavert) FILTER (WHERE d BETWEEN DATE '1970-01-01' AND DATE '1979-12-01')
                                             - avg(psavert) FILTER (WHERE d BETWEEN DATE '2000-01-01' AND DATE '2009-12-01')
                                             FROM econ"""), 2)]]
    a[10295] = [["bodywt_outliers", str(one("""WITH q AS (SELECT quantile_cont(bodywt, 0.25) q1, quantile_cont(bodywt, 0.75) q3 FROM sleep)
        SELECT count(*) FROM sleep, q WHERE bodywt < q1 - 1.5 * (q3 - q1) OR bodywt > q3 + 1.5 * (q3 - q1)"""))]]
    groups = [t.col(f"SELECT sleep_total FROM sleep WHERE vore = '{g}'") for g in ("carni", "herbi", "insecti", "omni")]
    assert sum(len(g) for g in groups) == one("SELECT count(*) FROM sleep WHERE vore IS NOT NULL")
    f = one_way_f(groups)
    p = f_upper(f, len(groups) - 1, sum(len(g) for g in groups) - len(groups))
    a[10296] = [["f_statistic", v(f, 3)], ["p_value", v(p, 4)]]
    table = t.array("""SELECT count(*) FILTER (WHERE inmetro = 0), count(*) FILTER (WHERE inmetro = 1)
                       FROM metro GROUP BY state ORDER BY state""")
    assert table.shape == (5, 2)
    chi, p = chi_square_test(table)
    a[10297] = [["chi_square", v(chi, 3)], ["p_value", v(p, 4)]]
    a[10298] = [["models_improved", str(one("""SELECT count(*) FROM (
        SELECT manufacturer, model, avg(hwy) FILTER (WHERE year = 2008) h08, avg(hwy) FILTER (WHERE year = 1999) h99
        FROM mpg GROUP BY 1, 2) WHERE h08 IS NOT NULL AND h99 IS NOT NULL AND h08 > h99"""))]]
    a[10299] = [["first_broiler_year", str(one("""SELECT min(y) FROM (
        SELECT year(d) y, sum(beef) b, sum(broilers) c FROM meat GROUP BY 1
        HAVING count(beef) = 12 AND count(broilers) = 12) WHERE c > b"""))]]
    bs = t.array("SELECT brainwt, sleep_total FROM sleep WHERE brainwt IS NOT NULL")
    a[10300] = [["spearman_rho", v(pearson(np.column_stack([average_ranks(bs[:, 0]), average_ranks(bs[:, 1])])), 4)]]
    return a


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
