"""Batch O's second, independent solution: DuckDB SQL over the CSV files plus statistics written out
by hand with numpy and the standard library (no pandas, no scipy), sharing no code with
``labels_o.py``. Do not read this file before a measurement of the batch.

    .venv/bin/python benchmarks/heldout_o/solve_independent.py            # writes independent_answers.jsonl
    .venv/bin/python benchmarks/heldout_o/solve_independent.py TABLES_DIR # prints the answers

Each file is read with explicit column names and types (its header line skipped, empty cells as
missing): the Regional Trends measures that hold ``..`` or ``.`` as text, cast with ``TRY_CAST`` in
views of the 32 council areas; the quarters as text with the year cut from them; the time zones'
country codes as text (so ``NA``, Namibia, stays a code) and their coordinates cut into degrees,
minutes and seconds with ``regexp_extract``; the leap seconds' dates made with ``strptime``; the
certificates' validity bounds as TIMESTAMP. Quartiles use ``quantile_cont``, medians ``median``,
ranks ``rank()`` with ties averaged by hand, previous and next quarters ``lag``/``lead``, moving
averages a window frame. By hand: the least-squares fits and R squared, Pearson's correlation, the
Spearman correlation from the SQL ranks and its p-value from Student's t distribution in closed form
(an even number of degrees of freedom, Abramowitz and Stegun 26.7.3), Welch's t, the chi-square
statistic from the expected counts with its 1-degree-of-freedom p-value from ``math.erfc``, and the
one-way ANOVA F with the closed-form tail of the F distribution for 2 numerator degrees of freedom.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import (  # noqa: E402
    Answers, SqlTables, dec_refusing_halves, one_way_f, only_top, pearson, run_solver)
from heldout_stats import average_ranks, chi_square, fit, welch  # noqa: E402

HERE = Path(__file__).resolve().parent
TEXT, NUM, INT = "VARCHAR", "DOUBLE", "BIGINT"

FILES = {
    "scotland_housing.csv": ("housing_raw", [
        ("area", TEXT), ("private_starts", NUM), ("social_starts", NUM), ("dwellings", NUM),
        ("households", NUM), ("rent", TEXT), ("council_tax", TEXT)]),
    "scotland_labour_market.csv": ("labour_raw", [
        ("area", TEXT), ("active_pct", NUM), ("employed_k", NUM), ("manufacturing_pct", TEXT),
        ("ilo_rate", TEXT), ("claimants_k", NUM), ("female_pct", NUM), ("long_term_pct", NUM),
        ("earnings", TEXT)]),
    "us_gdp_unemployment_quarterly.csv": ("quarters_raw", [
        ("quarter", TEXT), ("gdp", NUM), ("unemp", NUM)]),
    "time_zones.csv": ("zones", [("cc", TEXT), ("coords", TEXT), ("tz", TEXT), ("note", TEXT)]),
    "leap_seconds.csv": ("leaps_raw", [
        ("yr", INT), ("mon", TEXT), ("dy", INT), ("clock", TEXT), ("corr", TEXT), ("kind", TEXT)]),
    "root_certificates.csv": ("certs", [
        ("label", TEXT), ("serial", TEXT), ("org", TEXT), ("country", TEXT), ("valid_from", "TIMESTAMP"),
        ("valid_to", "TIMESTAMP"), ("key_type", TEXT), ("key_bits", INT), ("sig_hash", TEXT)]),
}


class Tables(SqlTables):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.read_files(folder, FILES)
        c = self.con
        c.execute("""CREATE VIEW housing AS SELECT area, private_starts, social_starts, dwellings, households,
                     TRY_CAST(rent AS DOUBLE) AS rent, TRY_CAST(council_tax AS DOUBLE) AS council_tax
                     FROM housing_raw WHERE area NOT IN ('United Kingdom', 'Scotland')""")
        c.execute("""CREATE VIEW labour AS SELECT area, active_pct, employed_k, claimants_k,
                     TRY_CAST(manufacturing_pct AS DOUBLE) AS manufacturing_pct,
                     TRY_CAST(ilo_rate AS DOUBLE) AS ilo_rate, TRY_CAST(earnings AS DOUBLE) AS earnings
                     FROM labour_raw WHERE area NOT IN ('United Kingdom', 'Scotland')""")
        c.execute("""CREATE VIEW quarters AS SELECT quarter, CAST(substr(quarter, 1, 4) AS INTEGER) AS yr,
                     row_number() OVER (ORDER BY quarter) AS k, gdp,
                     CASE WHEN substr(quarter, 1, 4) = '1947' THEN NULL ELSE unemp END AS rate,
                     100 * (gdp / lag(gdp) OVER (ORDER BY quarter) - 1) AS growth
                     FROM quarters_raw""")
        c.execute("""CREATE VIEW quarter_changes AS SELECT *, rate - lag(rate) OVER (ORDER BY quarter) AS d_rate,
                     lead(rate) OVER (ORDER BY quarter) - rate AS next_d_rate FROM quarters""")
        # ISO 6709: sign, degrees (2 digits of latitude, 3 of longitude), minutes, maybe seconds
        c.execute(r"""CREATE VIEW zone_places AS SELECT cc, tz, note,
                     regexp_extract(coords, '^([+-]\d+)([+-]\d+)$', 1) AS lat_text,
                     regexp_extract(coords, '^([+-]\d+)([+-]\d+)$', 2) AS lon_text FROM zones""")
        c.execute("""CREATE VIEW zone_degrees AS SELECT cc, tz, note,
                     (CASE WHEN lat_text[1] = '-' THEN -1 ELSE 1 END) *
                       (CAST(lat_text[2:3] AS DOUBLE) + CAST(lat_text[4:5] AS DOUBLE) / 60
                        + COALESCE(TRY_CAST(NULLIF(lat_text[6:7], '') AS DOUBLE), 0) / 3600) AS lat,
                     (CASE WHEN lon_text[1] = '-' THEN -1 ELSE 1 END) *
                       (CAST(lon_text[2:4] AS DOUBLE) + CAST(lon_text[5:6] AS DOUBLE) / 60
                        + COALESCE(TRY_CAST(NULLIF(lon_text[7:8], '') AS DOUBLE), 0) / 3600) AS lon,
                     length(lat_text) AS lat_len, length(lon_text) AS lon_len
                     FROM zone_places""")
        c.execute("""CREATE VIEW leaps AS SELECT *, CAST(strptime(yr || '-' || mon || '-' || dy, '%Y-%b-%d') AS DATE) AS d
                     FROM leaps_raw""")
        c.execute("""CREATE VIEW cert_days AS SELECT *,
                     (epoch(valid_to) - epoch(valid_from)) / 86400.0 AS days FROM certs""")
        assert self.one("SELECT count(*) FROM housing") == 32 and self.one("SELECT count(*) FROM labour") == 32
        assert self.one("SELECT count(*) FROM quarters") == 195 and self.one("SELECT count(*) FROM zones") == 418
        assert self.one("SELECT count(*) FROM zone_degrees WHERE lat_len NOT IN (5, 7) OR lon_len NOT IN (6, 8)") == 0
        assert self.one("SELECT count(*) FROM leaps") == 27 and self.one("SELECT count(*) FROM certs") == 117


def t_two_sided_even_df(t: float, df: int) -> float:
    """Two-sided tail probability of Student's t with an even number of degrees of freedom
    (Abramowitz and Stegun 26.7.3): A(t|df) = sin(θ)(1 + cos²θ/2 + 1·3 cos⁴θ/(2·4) + ...)."""
    assert df % 2 == 0 and df > 0
    theta = math.atan(abs(t) / math.sqrt(df))
    term, series = 1.0, 1.0
    for k in range(1, df // 2):
        term *= (2 * k - 1) / (2 * k) * math.cos(theta) ** 2
        series += term
    return 1 - math.sin(theta) * series


def solve(t: Tables) -> Answers:
    a: Answers = {}

    def put(qid: int, *items: tuple[str, object]) -> None:
        a[qid] = [[name, value if isinstance(value, str) else str(value)] for name, value in items]

    d2, d4, d6 = (lambda x: dec_refusing_halves(float(x), 2)), (lambda x: dec_refusing_halves(float(x), 4)), \
        (lambda x: dec_refusing_halves(float(x), 6))

    # ---- easy
    put(10101, ("councils_over_1000", t.one("SELECT count(*) FROM housing WHERE private_starts > 1000")))
    put(10102, ("areas_with_ilo_rate", t.one("SELECT count(ilo_rate) FROM labour")))
    put(10103, ("peak_unemployment_quarter", only_top(t.rows("SELECT quarter, unemp FROM quarters_raw ORDER BY unemp DESC LIMIT 2"))))
    put(10104, ("quarters_gdp_fell", t.one("SELECT count(*) FROM quarters WHERE growth < 0")))
    put(10105, ("brazil_zones", t.one("SELECT count(*) FROM zones WHERE cc = 'BR'")))
    put(10106, ("pct_with_comment", d2(t.one("SELECT 100.0 * count(note) / count(*) FROM zones"))))
    put(10107, ("december_leap_seconds", t.one("SELECT count(*) FROM leaps WHERE mon = 'Dec'")))
    put(10108, ("ec_certificates", t.one("SELECT count(*) FROM certs WHERE key_type = 'EC'")))
    put(10109, ("expiring_before_2030", t.one("SELECT count(*) FROM certs WHERE valid_to < TIMESTAMP '2030-01-01 00:00:00'")))
    put(10110, ("top_country", only_top(t.rows(
        "SELECT country, count(*) AS n FROM certs WHERE country IS NOT NULL GROUP BY country ORDER BY n DESC LIMIT 2"))))

    # ---- medium
    put(10111, ("median_council_tax", d2(t.one("SELECT median(council_tax) FROM housing"))))
    put(10112, ("most_dwellings_per_household", only_top(t.rows(
        "SELECT area, dwellings / households AS r FROM housing ORDER BY r DESC LIMIT 2"))))
    put(10113, ("city_share_pct", d2(t.one("""SELECT 100.0 * sum(private_starts + social_starts) FILTER (WHERE area IN
        ('Aberdeen City', 'Dundee City', 'Edinburgh, City of', 'Glasgow City')) / sum(private_starts + social_starts) FROM housing"""))))
    put(10114, ("top_earnings_area", only_top(t.rows(
        "SELECT area, earnings FROM labour WHERE earnings IS NOT NULL ORDER BY earnings DESC LIMIT 2"))))
    put(10115, ("mean_council_earnings", d2(t.one("SELECT avg(earnings) FROM labour"))))
    put(10116, ("most_claimants_per_1000_employed", only_top(t.rows(
        "SELECT area, 1000 * claimants_k / employed_k AS r FROM labour ORDER BY r DESC LIMIT 2"))))
    assert t.one("SELECT count(*) FROM quarters WHERE yr BETWEEN 1960 AND 1969") == 40
    put(10117, ("mean_unemployment_1960s", d2(t.one("SELECT avg(rate) FROM quarters WHERE yr BETWEEN 1960 AND 1969"))))
    falls = t.rows("""WITH annual AS (SELECT yr, avg(gdp) AS g, count(*) AS n FROM quarters WHERE yr <= 1994 GROUP BY yr),
        change AS (SELECT yr, n, g / lag(g) OVER (ORDER BY yr) - 1 AS c FROM annual)
        SELECT yr, -c FROM change WHERE c IS NOT NULL ORDER BY c ASC""")
    assert len(falls) == 47 and t.one("SELECT min(n) FROM (SELECT count(*) AS n FROM quarters WHERE yr <= 1994 GROUP BY yr)") == 4
    put(10118, ("largest_annual_fall_year", only_top(falls)))
    put(10119, ("area_with_most_zones", only_top(t.rows(
        "SELECT split_part(tz, '/', 1) AS region, count(*) AS n FROM zones GROUP BY region ORDER BY n DESC LIMIT 2"))))
    assert t.one("SELECT count(*) FROM zones WHERE cc IS NULL") == 0
    put(10120, ("single_zone_countries", t.one("SELECT count(*) FROM (SELECT cc FROM zones GROUP BY cc HAVING count(*) = 1)")))
    put(10121, ("most_common_weekday", only_top(t.rows(
        "SELECT dayname(d) AS w, count(*) AS n FROM leaps GROUP BY w ORDER BY n DESC LIMIT 2"))))
    put(10122, ("year_of_twentieth", t.one(
        "SELECT yr FROM (SELECT yr, row_number() OVER (ORDER BY d) AS running FROM leaps) WHERE running = 20")))
    put(10123, ("years_without_leap_second", t.one(
        "SELECT count(*) FROM range(1972, 2017) AS y(v) WHERE v NOT IN (SELECT yr FROM leaps)")))
    put(10124, ("median_validity_days", d2(t.one("SELECT quantile_cont(days, 0.5) FROM cert_days"))))
    put(10125, ("busiest_start_year", only_top(t.rows(
        "SELECT year(valid_from) AS y, count(*) AS n FROM certs GROUP BY y ORDER BY n DESC LIMIT 2"))))
    put(10126, ("pct_rsa4096_since_2015", d2(t.one("""SELECT 100.0 * count(*) FILTER (WHERE key_type = 'RSA' AND key_bits = 4096)
        / count(*) FROM certs WHERE valid_from >= TIMESTAMP '2015-01-01 00:00:00'"""))))

    # ---- hard
    pairs = t.array("SELECT rent, council_tax FROM housing ORDER BY area")
    assert len(pairs) == 32 and not np.isnan(pairs).any()
    rho = pearson(np.column_stack([average_ranks(pairs[:, 0]), average_ranks(pairs[:, 1])]))
    n = len(pairs)
    p = t_two_sided_even_df(rho * math.sqrt((n - 2) / (1 - rho * rho)), n - 2)
    put(10127, ("spearman_rho", d4(rho)), ("p_value", d4(p)))
    put(10128, ("largest_social_share_area", only_top(t.rows("""SELECT area, social_starts / (private_starts + social_starts) AS s
        FROM housing WHERE private_starts + social_starts >= 200 ORDER BY s DESC LIMIT 2"""))))
    put(10129, ("private_start_outliers", t.one("""WITH q AS (SELECT quantile_cont(private_starts, 0.25) AS q1,
        quantile_cont(private_starts, 0.75) AS q3 FROM housing)
        SELECT count(*) FROM housing, q WHERE private_starts < q1 - 1.5 * (q3 - q1) OR private_starts > q3 + 1.5 * (q3 - q1)""")))
    beta, r2 = fit(t.array("SELECT ilo_rate, active_pct FROM labour WHERE ilo_rate IS NOT NULL"))
    put(10130, ("slope", d4(beta[1])), ("r_squared", d4(r2)))
    high = t.col("SELECT earnings FROM labour WHERE manufacturing_pct >= 20 AND earnings IS NOT NULL")
    low = t.col("SELECT earnings FROM labour WHERE manufacturing_pct < 20 AND earnings IS NOT NULL")
    put(10131, ("welch_t", d4(welch(high, low)[0])))
    moving = t.rows("""SELECT quarter, avg(rate) OVER w, count(rate) OVER w AS n FROM quarters WHERE yr >= 1948
        WINDOW w AS (ORDER BY quarter ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) ORDER BY 2 DESC""")
    moving = [(q, m) for q, m, k in moving if k == 4]
    put(10132, ("window_end_quarter", only_top(moving[:2])), ("max_moving_average", d2(moving[0][1])))
    okun = t.array("SELECT d_rate, growth FROM quarter_changes WHERE quarter BETWEEN '1948Q2' AND '1995Q3'")
    assert len(okun) == 190 and not np.isnan(okun).any()
    beta, r2 = fit(okun)
    put(10133, ("slope", d4(beta[1])), ("r_squared", d4(r2)))
    lead = t.array("SELECT growth, next_d_rate FROM quarter_changes WHERE quarter BETWEEN '1948Q1' AND '1995Q2'")
    assert len(lead) == 190 and not np.isnan(lead).any()
    put(10134, ("lead_correlation", d4(pearson(lead))))
    growth = t.col("SELECT growth FROM quarters WHERE growth IS NOT NULL")
    assert len(growth) == 194
    z = (growth - growth.mean()) / growth.std(ddof=1)
    put(10135, ("growth_outlier_quarters", int((np.abs(z) > 2.5).sum())))
    put(10136, ("mean_abs_latitude", d2(t.one("SELECT avg(abs(lat)) FROM zone_degrees"))))
    west = t.rows("SELECT tz, -lon FROM zone_degrees WHERE tz LIKE 'Europe/%' ORDER BY lon ASC LIMIT 2")
    east = t.rows("SELECT tz, lon FROM zone_degrees WHERE tz LIKE 'Europe/%' ORDER BY lon DESC LIMIT 2")
    put(10137, ("westernmost", only_top(west)), ("easternmost", only_top(east)))
    gaps = t.rows("SELECT d, d - lag(d) OVER (ORDER BY d) AS gap FROM leaps ORDER BY gap DESC NULLS LAST LIMIT 2")
    put(10138, ("longest_gap_days", int(gaps[0][1])), ("gap_end_date", only_top(gaps).isoformat()))
    counts = t.array("""SELECT count(*) FILTER (WHERE valid_from < TIMESTAMP '2015-01-01 00:00:00'),
        count(*) FILTER (WHERE valid_from >= TIMESTAMP '2015-01-01 00:00:00') FROM certs GROUP BY key_type ORDER BY key_type""")
    chi2 = chi_square(counts)
    put(10139, ("chi_square", d4(chi2)), ("p_value", d6(math.erfc(math.sqrt(chi2 / 2)))))
    kept = [h for h, in t.rows("SELECT sig_hash FROM certs GROUP BY sig_hash HAVING count(*) >= 5 ORDER BY sig_hash")]
    groups = [t.col(f"SELECT days FROM cert_days WHERE sig_hash = '{h}'") for h in kept]
    assert len(groups) == 3  # so the F tail below has 2 numerator degrees of freedom
    f = one_way_f(groups)
    df2 = sum(len(g) for g in groups) - len(groups)
    put(10140, ("f_statistic", d4(f)), ("p_value", d4((df2 / (df2 + 2 * f)) ** (df2 / 2))))
    return a


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
