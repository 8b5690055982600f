"""Second, independent solution of held-out batch E: one plain SQL query per question, run by sqlite3.

    .venv/bin/python benchmarks/heldout_e/solve_sql.py [clinic.sqlite]

Written from each question's text and constraints alone (not from the pandas solution). Numbers are
rounded in Python from the exact SQL result (``f"{x:.2f}"``); a "which ... highest" answer is the
first row of an ORDER BY (``make_labels.py`` refuses ties through the pandas solution).
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

DB = Path(__file__).resolve().parent / "tables" / "clinic.sqlite"

QUERIES = {
    9401: ("SELECT COUNT(*) FROM patients WHERE insurance_plan IS NULL", ["uninsured_patients"], ["int"]),
    9402: ("SELECT AVG(fee) FROM appointments WHERE status = 'completed' AND fee IS NOT NULL",
           ["average_fee"], ["2"]),
    9403: ("""SELECT 100.0 * SUM(status = 'no-show') / COUNT(*) FROM appointments
              WHERE date(scheduled_at) BETWEEN '2025-01-01' AND '2025-12-31'""", ["no_show_rate"], ["2"]),
    9404: ("""SELECT category FROM medications GROUP BY category ORDER BY AVG(unit_cost) ASC LIMIT 1""",
           ["category"], ["str"]),
    9405: ("""SELECT dep.name FROM doctors d JOIN departments dep ON dep.id = d.department_id
              GROUP BY dep.id ORDER BY SUM(d.annual_salary) DESC LIMIT 1""", ["department"], ["str"]),
    9406: ("""SELECT d.full_name FROM appointments a JOIN doctors d ON d.id = a.doctor_id
              WHERE a.status = 'completed' GROUP BY d.id ORDER BY COUNT(*) DESC LIMIT 1""", ["doctor"], ["str"]),
    9407: ("""SELECT SUM(p.quantity * m.unit_cost) FROM prescriptions p
              JOIN medications m ON m.medication_id = p.medication_id""", ["total_cost"], ["2"]),
    9408: ("""SELECT COUNT(DISTINCT a.patient_id) FROM appointments a JOIN patients pt ON pt.patient_id = a.patient_id
              WHERE pt.insurance_plan = 'Premium' AND a.status = 'completed'""", ["premium_patients"], ["int"]),
    9409: ("""SELECT d.grade, AVG(a.fee) AS avg_fee FROM appointments a JOIN doctors d ON d.id = a.doctor_id
              WHERE a.status = 'completed' AND a.fee IS NOT NULL
              GROUP BY d.grade ORDER BY avg_fee DESC LIMIT 1""", ["grade", "average_fee"], ["str", "2"]),
    9410: ("""SELECT 100.0 * SUM(m.category = 'Antibiotic') / COUNT(*) FROM prescriptions p
              JOIN medications m ON m.medication_id = p.medication_id""", ["antibiotic_share"], ["2"]),
    9411: ("""SELECT m.name FROM prescriptions p JOIN medications m ON m.medication_id = p.medication_id
              GROUP BY m.medication_id ORDER BY SUM(p.quantity) DESC LIMIT 1""", ["medication"], ["str"]),
    9412: ("""SELECT dep.name, SUM(a.fee) AS revenue FROM appointments a
              JOIN doctors d ON d.id = a.doctor_id
              JOIN departments dep ON dep.id = d.department_id
              WHERE a.status = 'completed' AND date(a.scheduled_at) BETWEEN '2024-01-01' AND '2024-12-31'
              GROUP BY dep.id ORDER BY revenue DESC LIMIT 1""", ["department", "revenue"], ["str", "2"]),
    9413: ("""SELECT SUM(p.quantity * m.unit_cost) FROM prescriptions p
              JOIN appointments a ON a.appointment_id = p.appointment_id
              JOIN medications m ON m.medication_id = p.medication_id
              WHERE date(a.scheduled_at) BETWEEN '2025-01-01' AND '2025-06-30'""", ["total_cost"], ["2"]),
    9414: ("""SELECT COUNT(DISTINCT a.patient_id) FROM prescriptions p
              JOIN medications m ON m.medication_id = p.medication_id
              JOIN appointments a ON a.appointment_id = p.appointment_id
              JOIN doctors d ON d.id = a.doctor_id
              JOIN departments dep ON dep.id = d.department_id
              WHERE m.category = 'Antibiotic' AND dep.name = 'Pediatrics'""", ["patients"], ["int"]),
    9415: ("""SELECT pt.insurance_plan FROM prescriptions p
              JOIN medications m ON m.medication_id = p.medication_id
              JOIN appointments a ON a.appointment_id = p.appointment_id
              JOIN patients pt ON pt.patient_id = a.patient_id
              WHERE date(a.scheduled_at) BETWEEN '2024-01-01' AND '2024-12-31' AND pt.insurance_plan IS NOT NULL
              GROUP BY pt.insurance_plan ORDER BY SUM(p.quantity * m.unit_cost) DESC LIMIT 1""",
           ["insurance_plan"], ["str"]),
    9416: ("""SELECT d.full_name FROM appointments a
              JOIN doctors d ON d.id = a.doctor_id
              JOIN departments dep ON dep.id = d.department_id
              WHERE dep.name = 'Cardiology' AND a.status = 'completed'
                AND date(a.scheduled_at) BETWEEN '2025-01-01' AND '2025-12-31'
              GROUP BY d.id ORDER BY COUNT(DISTINCT a.patient_id) DESC LIMIT 1""", ["doctor"], ["str"]),
}


def _render(value, kind: str) -> str:
    if kind == "int":
        return str(int(value))
    if kind == "str":
        return str(value)
    return f"{float(value):.{int(kind)}f}"


def answers(db: Path = DB) -> dict[int, list[list[str]]]:
    """Question id -> [[name, rendered value], ...] in the order of its format."""
    out = {}
    con = sqlite3.connect(f"file:{Path(db)}?mode=ro", uri=True)
    try:
        for qid, (sql, names, kinds) in QUERIES.items():
            row = con.execute(sql).fetchone()
            out[qid] = [[name, _render(value, kind)] for name, value, kind in zip(names, row, kinds)]
    finally:
        con.close()
    return out


if __name__ == "__main__":
    for qid, answer in answers(Path(sys.argv[1]) if len(sys.argv) > 1 else DB).items():
        print(qid, " ".join(f"@{name}[{value}]" for name, value in answer))
