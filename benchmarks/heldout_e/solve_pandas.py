"""First solution of held-out batch E: pandas reads every whole table and merges, filters, groups.

    .venv/bin/python benchmarks/heldout_e/solve_pandas.py [clinic.sqlite]

The labels come from this solution (``make_labels.py``). It refuses to give an answer that the
question's wording could not pin down: a tie for a "which ... highest/lowest" answer, or a number
lying on a rounding half at the asked precision.
"""

from __future__ import annotations

import math
import sqlite3
import sys
from pathlib import Path

import pandas as pd

DB = Path(__file__).resolve().parent / "tables" / "clinic.sqlite"
TABLES = ["departments", "doctors", "patients", "appointments", "medications", "prescriptions"]


class Ambiguous(ValueError):
    """An answer the question's wording does not decide (a tie, a rounding half)."""


def load(db: Path) -> dict[str, pd.DataFrame]:
    con = sqlite3.connect(f"file:{Path(db)}?mode=ro", uri=True)
    try:
        frames = {t: pd.read_sql_query(f"SELECT * FROM {t}", con) for t in TABLES}
    finally:
        con.close()
    frames["appointments"]["day"] = pd.to_datetime(frames["appointments"]["scheduled_at"]).dt.normalize()
    return frames


def _num(x: float, places: int = 2) -> str:
    scaled = abs(float(x)) * 10 ** places
    if abs(scaled - math.floor(scaled) - 0.5) < 1e-6:
        raise Ambiguous(f"{x!r} is on a rounding half at {places} places")
    return f"{float(x):.{places}f}"


def _top(series: pd.Series, largest: bool = True):
    """The index label of the largest (or smallest) value; a tie is refused."""
    best = series.max() if largest else series.min()
    winners = series[(series - best).abs() < 1e-9]
    if len(winners) != 1:
        raise Ambiguous(f"tie between {list(winners.index)}")
    return winners.index[0]


def _between(frame: pd.DataFrame, first: str, last: str) -> pd.DataFrame:
    """Rows whose appointment day is from first to last, both inclusive."""
    return frame[(frame["day"] >= pd.Timestamp(first)) & (frame["day"] <= pd.Timestamp(last))]


def _rx_costed(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    rx = t["prescriptions"].merge(t["medications"], on="medication_id", how="inner", validate="many_to_one")
    rx["cost"] = rx["quantity"] * rx["unit_cost"]
    return rx


def _appts_with_dept(t: dict[str, pd.DataFrame]) -> pd.DataFrame:
    doctors = t["doctors"].rename(columns={"id": "doctor_id"})
    departments = t["departments"].rename(columns={"id": "department_id", "name": "department"})
    joined = t["appointments"].merge(doctors, on="doctor_id", how="inner", validate="many_to_one")
    return joined.merge(departments, on="department_id", how="inner", validate="many_to_one")


def q9401(t):
    return [["uninsured_patients", str(int(t["patients"]["insurance_plan"].isna().sum()))]]


def q9402(t):
    a = t["appointments"]
    fees = a.loc[a["status"] == "completed", "fee"].dropna()
    return [["average_fee", _num(fees.mean())]]


def q9403(t):
    year = _between(t["appointments"], "2025-01-01", "2025-12-31")
    return [["no_show_rate", _num(100 * (year["status"] == "no-show").mean())]]


def q9404(t):
    return [["category", _top(t["medications"].groupby("category")["unit_cost"].mean(), largest=False)]]


def q9405(t):
    doctors = t["doctors"].dropna(subset=["department_id"])
    joined = doctors.merge(t["departments"], left_on="department_id", right_on="id", suffixes=("_doc", ""))
    return [["department", _top(joined.groupby("name")["annual_salary"].sum())]]


def q9406(t):
    a = t["appointments"]
    done = a[a["status"] == "completed"].merge(t["doctors"], left_on="doctor_id", right_on="id")
    counts = done.groupby("doctor_id").size()
    winner = _top(counts)
    return [["doctor", t["doctors"].set_index("id").loc[winner, "full_name"]]]


def q9407(t):
    return [["total_cost", _num(_rx_costed(t)["cost"].sum())]]


def q9408(t):
    a = t["appointments"]
    joined = a[a["status"] == "completed"].merge(t["patients"], on="patient_id")
    return [["premium_patients", str(joined.loc[joined["insurance_plan"] == "Premium", "patient_id"].nunique())]]


def q9409(t):
    a = t["appointments"]
    done = a[(a["status"] == "completed") & a["fee"].notna()].merge(t["doctors"], left_on="doctor_id", right_on="id")
    means = done.groupby("grade")["fee"].mean()
    grade = _top(means)
    return [["grade", grade], ["average_fee", _num(means[grade])]]


def q9410(t):
    rx = _rx_costed(t)
    assert len(rx) == len(t["prescriptions"])
    return [["antibiotic_share", _num(100 * (rx["category"] == "Antibiotic").mean())]]


def q9411(t):
    rx = _rx_costed(t)
    winner = _top(rx.groupby("medication_id")["quantity"].sum())
    return [["medication", t["medications"].set_index("medication_id").loc[winner, "name"]]]


def q9412(t):
    a = _appts_with_dept(t)
    year = _between(a[a["status"] == "completed"], "2024-01-01", "2024-12-31")
    revenue = year.groupby("department")["fee"].sum()
    best = _top(revenue)
    return [["department", best], ["revenue", _num(revenue[best])]]


def q9413(t):
    rx = _rx_costed(t).merge(t["appointments"], on="appointment_id", validate="many_to_one")
    return [["total_cost", _num(_between(rx, "2025-01-01", "2025-06-30")["cost"].sum())]]


def q9414(t):
    rx = _rx_costed(t)
    rx = rx[rx["category"] == "Antibiotic"].merge(_appts_with_dept(t), on="appointment_id")
    return [["patients", str(rx.loc[rx["department"] == "Pediatrics", "patient_id"].nunique())]]


def q9415(t):
    rx = _rx_costed(t).merge(t["appointments"], on="appointment_id").merge(t["patients"], on="patient_id")
    year = _between(rx, "2024-01-01", "2024-12-31").dropna(subset=["insurance_plan"])
    return [["insurance_plan", _top(year.groupby("insurance_plan")["cost"].sum())]]


def q9416(t):
    a = _appts_with_dept(t)
    a = _between(a[(a["status"] == "completed") & (a["department"] == "Cardiology")], "2025-01-01", "2025-12-31")
    winner = _top(a.groupby("doctor_id")["patient_id"].nunique())
    return [["doctor", t["doctors"].set_index("id").loc[winner, "full_name"]]]


SOLVERS = {int(name[1:]): f for name, f in sorted(globals().items()) if name.startswith("q94") and callable(f)}


def answers(db: Path = DB) -> dict[int, list[list[str]]]:
    """Question id -> [[name, rendered value], ...] in the order of its format."""
    tables = load(db)
    return {qid: [[name, str(value)] for name, value in solve(tables)] for qid, solve in SOLVERS.items()}


if __name__ == "__main__":
    for qid, answer in answers(Path(sys.argv[1]) if len(sys.argv) > 1 else DB).items():
        print(qid, " ".join(f"@{name}[{value}]" for name, value in answer))
