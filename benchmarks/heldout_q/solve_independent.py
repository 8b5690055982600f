"""Batch Q's second, independent solution: DuckDB SQL over the CSV files plus statistics written out
by hand with numpy and the standard library (no pandas, no scipy), sharing no code with
``labels_q.py``. Do not read this file before a measurement of the batch.

    .venv/bin/python benchmarks/heldout_q/solve_independent.py            # writes independent_answers.jsonl
    .venv/bin/python benchmarks/heldout_q/solve_independent.py TABLES_DIR # prints the answers

Each file is read with explicit column names and types (its header line skipped, empty cells as
missing). The survey's interview date is turned into a DATE in a view with ``lpad`` to six digits
and ``strptime(..., '%m%d%y')``; weekdays come from ``dayname``, months from ``strftime``; the
approval months are made with ``make_date`` and the month-to-month change with ``lag``; the
basketball seasons are compared by a self-join of the two seasons' rows. Medians and quartiles
use ``median`` and ``quantile_cont`` (linear interpolation). By hand: Welch's t and its
Welch-Satterthwaite degrees of freedom, the chi-square statistics from the expected counts, the
one-way ANOVA F with its p-value from the regularised incomplete beta function (Lentz's continued
fraction), Spearman's correlation from average ranks, and the least-squares fits (normal equations)
with their R squared.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import (  # noqa: E402
    Answers, SqlTables, dec_refusing_halves, one_way_f, only_top, pearson, run_solver)
from heldout_stats import average_ranks, chi_square, f_upper, fit, welch  # noqa: E402

HERE = Path(__file__).resolve().parent
TEXT, NUM, INT = "VARCHAR", "DOUBLE", "BIGINT"

FILES = {
    "apple_survey.csv": ("apple", [
        ("id", INT), ("educ", INT), ("date_num", INT), ("state", TEXT), ("regprc", NUM), ("ecoprc", NUM),
        ("inseason", INT), ("hhsize", INT), ("male", INT), ("faminc", NUM), ("age", INT), ("reglbs", NUM),
        ("ecolbs", NUM), ("numlt5", INT), ("num5_17", INT), ("num18_64", INT), ("numgt64", INT)]),
    "birth_weights.csv": ("births", [
        ("mage", NUM), ("meduc", NUM), ("monpre", NUM), ("npvis", NUM), ("fage", NUM), ("feduc", NUM),
        ("bwght", NUM), ("omaps", NUM), ("fmaps", NUM), ("cigs", NUM), ("drink", NUM), ("lbw", INT),
        ("vlbw", INT), ("male", INT), ("mwhte", INT), ("mblck", INT), ("moth", INT), ("fwhte", INT),
        ("fblck", INT), ("foth", INT), ("lbwght", NUM), ("magesq", NUM), ("npvissq", NUM)]),
    "ceo_salaries.csv": ("ceo", [
        ("salary", NUM), ("age", INT), ("college", INT), ("grad", INT), ("comten", INT), ("ceoten", INT),
        ("sales", NUM), ("profits", NUM), ("mktval", NUM), ("lsalary", NUM), ("lsales", NUM), ("lmktval", NUM),
        ("comtensq", NUM), ("ceotensq", NUM), ("profmarg", NUM)]),
    "ncaa_basketball.csv": ("ncaa", [
        ("team", TEXT), ("season", TEXT), ("conference", TEXT), ("postrpi", INT), ("prerpi", INT),
        ("postrpi_1", INT), ("postrpi_2", INT), ("recruitrank", INT), ("wins", INT), ("losses", INT),
        ("winperc", NUM), ("tourney", INT), ("coachexper", INT), ("power5", INT)]),
    "house_races.csv": ("races", [
        ("state", TEXT), ("district", INT), ("democ_a", INT), ("vote_a", NUM), ("spend_a", NUM),
        ("spend_b", NUM), ("party_strength_a", NUM), ("log_spend_a", NUM), ("log_spend_b", NUM),
        ("spend_share_a", NUM)]),
    "presidential_approval.csv": ("approval_raw", [
        ("id", INT), ("month", INT), ("year", INT), ("sp500", NUM), ("cpi", NUM), ("cpifood", NUM),
        ("approve", NUM), ("gasprice", NUM), ("unemploy", NUM), ("katrina", INT), ("rgasprice", NUM),
        ("lrgasprice", NUM), ("sep11", INT), ("iraqinvade", INT), ("lsp500", NUM), ("lcpifood", NUM)]),
}


class Tables(SqlTables):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.read_files(folder, FILES)
        c = self.con
        c.execute("""CREATE VIEW survey AS SELECT *,
                     CAST(strptime(lpad(CAST(date_num AS VARCHAR), 6, '0'), '%m%d%y') AS DATE) AS day
                     FROM apple""")
        c.execute("""CREATE VIEW approval AS SELECT *, make_date(year, month, 1) AS first_day,
                     100 * (sp500 - lag(sp500) OVER w) / lag(sp500) OVER w AS sp_change
                     FROM approval_raw WINDOW w AS (ORDER BY year, month)""")
        assert self.one("SELECT count(*) FROM survey") == 660 and self.one("SELECT count(*) FROM births") == 1832
        assert self.one("SELECT count(*) FROM ceo") == 177 and self.one("SELECT count(*) FROM ncaa") == 336
        assert self.one("SELECT count(*) FROM races") == 173 and self.one("SELECT count(*) FROM approval") == 78
        assert self.one("SELECT min(year(day)) * 10000 + max(year(day)) FROM survey") == 19971998


# --- statistics written out by hand ------------------------------------------------------------


def d(value, places: int) -> str:
    return dec_refusing_halves(float(value), places)


# --- the answers -------------------------------------------------------------------------------


def solve(t: Tables) -> Answers:
    ans: Answers = {}
    one, rows, arr = t.one, t.rows, t.array

    # apple_survey.csv
    ans[10181] = [["california_households", str(one("SELECT count(*) FROM survey WHERE state = 'CA'"))]]
    month = only_top(rows("SELECT strftime(day, '%Y-%m') m, count(*) n FROM survey GROUP BY m ORDER BY n DESC"),
                     tolerance=None)
    ans[10182] = [["busiest_month", month]]
    ans[10183] = [["survey_days", str(one("SELECT date_diff('day', min(day), max(day)) FROM survey"))]]
    wd = rows("SELECT dayname(day) w, count(*) n FROM survey GROUP BY w ORDER BY n DESC")
    top_wd = only_top(wd, tolerance=None)
    ans[10184] = [["top_weekday", top_wd], ["weekday_share", d(100 * wd[0][1] / 660, 2)]]
    share = one("SELECT 100.0 * count(*) FILTER (WHERE ecolbs = 0) / count(*) FROM survey WHERE ecoprc = regprc")
    ans[10185] = [["no_eco_share", d(share, 2)]]
    premium_groups = [t.col(f"SELECT ecolbs FROM survey WHERE round(ecoprc - regprc, 2) = {p}") for p in (0, 0.2, 0.4)]
    assert sum(len(g) for g in premium_groups) == 660
    ans[10186] = [["f_statistic", d(one_way_f(premium_groups), 3)]]
    ans[10187] = [["mean_income_65plus", d(one("SELECT avg(faminc) FROM survey WHERE age >= 65"), 2)]]

    # birth_weights.csv
    ans[10188] = [["low_weight_births", str(one("SELECT count(*) FROM births WHERE bwght < 2500"))]]
    ans[10189] = [["mean_girl_weight", d(one("SELECT avg(bwght) FROM births WHERE male = 0"), 2)]]
    ans[10190] = [["incomplete_records", str(one(
        "SELECT count(*) FROM births WHERE cigs IS NULL OR drink IS NULL"))]]
    smokers = t.col("SELECT bwght FROM births WHERE cigs > 0")
    others = t.col("SELECT bwght FROM births WHERE cigs = 0")
    tw, dfw = welch(smokers, others)
    ans[10191] = [["t_statistic", d(tw, 3)], ["degrees_of_freedom", d(dfw, 2)]]
    race_table = arr("""SELECT count(*) FILTER (WHERE bwght < 2500), count(*) FILTER (WHERE bwght >= 2500)
                        FROM births GROUP BY CASE WHEN mwhte = 1 THEN 'w' WHEN mblck = 1 THEN 'b' ELSE 'o' END""")
    assert race_table.shape == (3, 2) and race_table.sum() == 1832
    assert one("SELECT count(*) FROM births WHERE mwhte + mblck + moth <> 1") == 0
    ans[10192] = [["chi_square", d(chi_square(race_table), 3)]]
    best_month = only_top(rows("""SELECT CAST(monpre AS INTEGER), avg(bwght) w FROM births WHERE monpre IS NOT NULL
                                  GROUP BY monpre HAVING count(*) >= 40 ORDER BY w DESC"""))
    ans[10193] = [["month", str(best_month)]]
    ans[10194] = [["outlier_births", str(one("""
        WITH q AS (SELECT quantile_cont(bwght, 0.25) q1, quantile_cont(bwght, 0.75) q3 FROM births)
        SELECT count(*) FROM births, q WHERE bwght < q1 - 1.5 * (q3 - q1) OR bwght > q3 + 1.5 * (q3 - q1)"""))]]
    ans[10195] = [["age_correlation", d(pearson(arr(
        "SELECT mage, fage FROM births WHERE mage IS NOT NULL AND fage IS NOT NULL")), 4)]]

    # ceo_salaries.csv
    ans[10196] = [["loss_making_firms", str(one("SELECT count(*) FROM ceo WHERE profits < 0"))]]
    ans[10197] = [["median_salary", d(one("SELECT median(salary) FROM ceo"), 1)]]
    coef, r2 = fit(arr("SELECT ln(salary), ln(sales) FROM ceo"))
    ans[10198] = [["elasticity", d(coef[1], 4)], ["r_squared", d(r2, 4)]]
    tenure_pay = arr("SELECT ceoten, salary FROM ceo")
    rho = pearson(np.column_stack([average_ranks(tenure_pay[:, 0]), average_ranks(tenure_pay[:, 1])]))
    ans[10199] = [["spearman_rho", d(rho, 4)]]
    assert one("SELECT count(*) FROM ceo WHERE mktval = (SELECT max(mktval) FROM ceo)") == 1
    ans[10200] = [["salary_rank", str(one("""
        SELECT r FROM (SELECT mktval, rank() OVER (ORDER BY salary DESC) r FROM ceo)
        WHERE mktval = (SELECT max(mktval) FROM ceo)"""))]]
    bands = rows("""SELECT CASE WHEN age < 50 THEN 'under 50' WHEN age <= 59 THEN '50-59' ELSE '60+' END g,
                    avg(salary) s FROM ceo GROUP BY g ORDER BY s DESC""")
    assert len(bands) == 3
    ans[10201] = [["age_group", only_top(bands)], ["mean_salary", d(bands[0][1], 2)]]
    ans[10202] = [["top_pay_share", d(one("""
        WITH p AS (SELECT quantile_cont(salary, 0.9) cut FROM ceo)
        SELECT 100 * sum(salary) FILTER (WHERE salary > cut) / sum(salary) FROM ceo, p"""), 2)]]

    # ncaa_basketball.csv
    ans[10203] = [["tournament_teams", str(one(
        "SELECT count(*) FROM ncaa WHERE season = '2015-2016' AND tourney = 1"))]]
    best = rows("SELECT team, season, 100.0 * wins / (wins + losses) p FROM ncaa ORDER BY p DESC LIMIT 2")
    assert best[0][2] - best[1][2] > 1e-9
    ans[10204] = [["team", best[0][0]], ["season", best[0][1]]]
    ans[10205] = [["top_conference", only_top(rows(
        "SELECT conference, avg(wins) w FROM ncaa GROUP BY conference ORDER BY w DESC"))]]
    ans[10206] = [["improved_teams", str(one("""
        SELECT count(*) FROM ncaa a JOIN ncaa b ON a.team = b.team
        WHERE a.season = '2012-2013' AND b.season = '2015-2016' AND b.postrpi < a.postrpi"""))]]
    conferences = [r[0] for r in rows("SELECT DISTINCT conference FROM ncaa ORDER BY 1")]
    groups = [t.col(f"SELECT winperc FROM ncaa WHERE conference = '{c}'") for c in conferences]
    f = one_way_f(groups)
    ans[10207] = [["f_statistic", d(f, 3)],
                  ["p_value", d(f_upper(f, len(groups) - 1, 336 - len(groups)), 4)]]
    ans[10208] = [["every_season_teams", str(one("""
        SELECT count(*) FROM (SELECT team FROM ncaa WHERE tourney = 1 GROUP BY team
                              HAVING count(DISTINCT season) = 4)"""))]]
    assert one("SELECT count(DISTINCT season) FROM ncaa") == 4
    power_table = arr("""SELECT count(*) FILTER (WHERE tourney = 0), count(*) FILTER (WHERE tourney = 1)
                         FROM ncaa GROUP BY power5 ORDER BY power5""")
    ans[10209] = [["chi_square", d(chi_square(power_table), 3)]]

    # house_races.csv
    ans[10210] = [["races_won_by_a", str(one("SELECT count(*) FROM races WHERE vote_a > 50"))]]
    ans[10211] = [["democrat_a_share", d(one("SELECT 100.0 * avg(CASE WHEN democ_a = 1 THEN 1 ELSE 0 END) FROM races"), 2)]]
    ans[10212] = [["top_state", only_top(rows(
        "SELECT state, avg(vote_a) v FROM races GROUP BY state HAVING count(*) >= 5 ORDER BY v DESC"))]]
    ans[10213] = [["median_total_spending", d(one("SELECT median(spend_a + spend_b) FROM races"), 2)]]
    coef, r2 = fit(arr("SELECT vote_a, spend_share_a FROM races"))
    ans[10214] = [["slope", d(coef[1], 4)], ["r_squared", d(r2, 4)]]
    ans[10215] = [["bigger_spender_wins", d(one("""
        SELECT 100.0 * count(*) FILTER (WHERE (spend_a > spend_b) = (vote_a > 50)) / count(*)
        FROM races WHERE vote_a <> 50 AND spend_a <> spend_b"""), 2)]]

    # presidential_approval.csv
    ans[10216] = [["peak_month", only_top(rows(
        "SELECT strftime(first_day, '%Y-%m'), approve FROM approval ORDER BY approve DESC"))]]
    coef, _ = fit(arr("SELECT approve, gasprice, unemploy FROM approval"))
    ans[10217] = [["gas_coefficient", d(coef[1], 4)]]
    years = rows("SELECT year, avg(approve) a FROM approval GROUP BY year ORDER BY a")
    low_year = only_top([(y, -a) for y, a in years])
    ans[10218] = [["lowest_year", str(low_year)], ["mean_approval", d(years[0][1], 2)]]
    ans[10219] = [["correlation", d(pearson(arr("SELECT gasprice, approve FROM approval")), 4)]]
    assert one("SELECT count(*) FROM approval WHERE date_diff('month', make_date(2001, 2, 1), first_day) <> id - 302") == 0
    ans[10220] = [["worst_month", only_top(rows(
        "SELECT strftime(first_day, '%Y-%m'), -sp_change c FROM approval WHERE sp_change IS NOT NULL ORDER BY c DESC"))]]
    return ans


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
