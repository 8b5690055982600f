"""Write held-out batch E's database, ``tables/clinic.sqlite``: a made-up hospital's outpatient clinics.

    .venv/bin/python benchmarks/heldout_e/make_db.py [OUT.sqlite]

Deterministic (numpy seed 20261127 + 5, no network, standard library + numpy only). Six tables:

- ``departments(id PK, name, floor, phone_extension)``
- ``doctors(id PK, full_name, department_id FK -> departments.id, grade, hire_date, annual_salary)``
  (locum doctors have no department: ``department_id`` is NULL)
- ``patients(patient_id PK, full_name, birth_date, sex, city, insurance_plan)``
  (``city`` and ``insurance_plan`` are sometimes NULL; NULL plan = no insurance on record)
- ``appointments(appointment_id PK, patient_id FK -> patients.patient_id, doctor_id, scheduled_at,
  status, fee)``; ``doctor_id`` refers to ``doctors.id`` by its name only (no FOREIGN KEY clause)
- ``medications(medication_id PK, name, category, unit_cost, manufacturer)``
- ``prescriptions(prescription_id PK, appointment_id FK -> appointments.appointment_id, medication_id,
  quantity, refills)``; ``medication_id`` refers to ``medications.medication_id`` by its name only

``scheduled_at`` is ISO text with a time of day (``YYYY-MM-DD HH:MM``), from 2024-01-02 to
2025-12-31; ``hire_date`` and ``birth_date`` are ISO dates (``YYYY-MM-DD``). ``fee`` is NULL when
nothing was billed. ``unit_cost`` is the cost of one unit (tablet, capsule, ...). Every person's
name is generated from generic word lists; nothing comes from a known sample database.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DB = HERE / "tables" / "clinic.sqlite"
SEED = 20261127 + 5

COLUMNS = {  # table -> its columns, in the order of the rows; the foreign keys are added from FOREIGN_KEYS
    "departments": ["id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "floor INTEGER NOT NULL",
                    "phone_extension TEXT NOT NULL"],
    "doctors": ["id INTEGER PRIMARY KEY", "full_name TEXT NOT NULL", "department_id INTEGER", "grade TEXT NOT NULL",
                "hire_date TEXT NOT NULL", "annual_salary REAL NOT NULL"],
    "patients": ["patient_id INTEGER PRIMARY KEY", "full_name TEXT NOT NULL", "birth_date TEXT NOT NULL",
                 "sex TEXT NOT NULL", "city TEXT", "insurance_plan TEXT"],
    "appointments": ["appointment_id INTEGER PRIMARY KEY", "patient_id INTEGER NOT NULL", "doctor_id INTEGER NOT NULL",
                     "scheduled_at TEXT NOT NULL", "status TEXT NOT NULL", "fee REAL"],
    "medications": ["medication_id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "category TEXT NOT NULL",
                    "unit_cost REAL NOT NULL", "manufacturer TEXT"],
    "prescriptions": ["prescription_id INTEGER PRIMARY KEY", "appointment_id INTEGER NOT NULL",
                      "medication_id INTEGER NOT NULL", "quantity INTEGER NOT NULL", "refills INTEGER NOT NULL"],
}
FOREIGN_KEYS = {  # declared keys: table -> {(column, referenced table, referenced column)}
    "doctors": {("department_id", "departments", "id")},
    "appointments": {("patient_id", "patients", "patient_id")},
    "prescriptions": {("appointment_id", "appointments", "appointment_id")},
}
IMPLICIT_KEYS = {  # joins by naming only (no FOREIGN KEY clause); the test checks every value resolves
    "appointments": {("doctor_id", "doctors", "id")},
    "prescriptions": {("medication_id", "medications", "medication_id")},
}


def schema() -> str:
    """The CREATE TABLE statements, each with its FOREIGN KEY clauses."""
    statements = []
    for table, columns in COLUMNS.items():
        keys = [f"FOREIGN KEY ({column}) REFERENCES {target} ({key})" for column, target, key in sorted(FOREIGN_KEYS.get(table, ()))]
        statements.append(f"CREATE TABLE {table} (\n    " + ",\n    ".join(columns + keys) + "\n);")
    return "\n".join(statements)


DEPARTMENTS = [  # name, floor, base consultation fee, how busy it is
    ("Cardiology", 3, 180.0, 1.3), ("Pediatrics", 1, 95.0, 1.4), ("Orthopedics", 2, 150.0, 1.1),
    ("Neurology", 4, 200.0, 0.8), ("Dermatology", 2, 120.0, 0.9), ("General Medicine", 1, 80.0, 1.8),
    ("Oncology", 5, 240.0, 0.6), ("Endocrinology", 4, 160.0, 0.7),
]
GRADES = [("Consultant", 0.3, 1.35, (145_000, 210_000)), ("Specialist", 0.4, 1.0, (105_000, 150_000)),
          ("Resident", 0.3, 0.75, (62_000, 88_000))]  # grade, share, fee multiplier, salary range
FIRST = ["Amira", "Bruno", "Chiara", "Daniel", "Esther", "Farid", "Grace", "Henrik", "Ingrid", "Jamal", "Keiko",
         "Lars", "Maya", "Nikolai", "Oona", "Priya", "Rafael", "Sofia", "Tomas", "Ursula", "Vera", "Walter",
         "Ximena", "Yara", "Zoltan", "Aisha", "Ben", "Carmen", "Diego", "Elif"]
LAST = ["Okafor", "Lindqvist", "Moretti", "Haddad", "Novak", "Brennan", "Takahashi", "Fischer", "Oyelaran",
        "Castillo", "Petrov", "Andersen", "Kaur", "Delacroix", "Mwangi", "Ferreira", "Kowalczyk", "Nakamura",
        "Olsen", "Reyes", "Schneider", "Yilmaz", "Varga", "Hughes", "Dimitrov", "Sato"]
CITIES = [("Riverton", 6), ("Oakdale", 4), ("Millbrook", 3), ("Easton", 3), ("Cedar Falls", 2), ("Westport", 2),
          ("Harbor View", 1)]
PLANS = [("Basic", 0.35), ("Standard", 0.30), ("Premium", 0.18), (None, 0.17)]
MEDICATIONS = {  # category -> (names with strength, unit cost range)
    "Antibiotic": (["Amoxicillin 500 mg", "Azithromycin 250 mg", "Cephalexin 500 mg", "Doxycycline 100 mg",
                    "Ciprofloxacin 500 mg", "Clarithromycin 500 mg"], (0.20, 2.80)),
    "Analgesic": (["Paracetamol 500 mg", "Ibuprofen 400 mg", "Naproxen 250 mg", "Tramadol 50 mg",
                   "Diclofenac 50 mg"], (0.04, 1.10)),
    "Antihypertensive": (["Lisinopril 10 mg", "Amlodipine 5 mg", "Losartan 50 mg", "Metoprolol 50 mg",
                          "Hydrochlorothiazide 25 mg", "Ramipril 5 mg"], (0.08, 0.90)),
    "Antidiabetic": (["Metformin 850 mg", "Gliclazide 80 mg", "Sitagliptin 100 mg", "Empagliflozin 10 mg",
                      "Pioglitazone 30 mg"], (0.10, 3.60)),
    "Statin": (["Atorvastatin 20 mg", "Simvastatin 40 mg", "Rosuvastatin 10 mg", "Pravastatin 40 mg"], (0.09, 1.40)),
    "Antihistamine": (["Cetirizine 10 mg", "Loratadine 10 mg", "Fexofenadine 180 mg", "Desloratadine 5 mg"],
                      (0.05, 0.70)),
    "Anticonvulsant": (["Levetiracetam 500 mg", "Lamotrigine 100 mg", "Gabapentin 300 mg", "Pregabalin 75 mg",
                        "Topiramate 50 mg"], (0.15, 2.40)),
    "Oncology support": (["Ondansetron 8 mg", "Dexamethasone 4 mg", "Tamoxifen 20 mg", "Anastrozole 1 mg"],
                         (0.30, 4.90)),
}
MAKERS = ["Norvale Pharma", "Brightwell Labs", "Astera Generics", "Kestrel Health", "Meridian Drugs"]
PREFERRED = {  # department -> medication categories its doctors prescribe most
    "Cardiology": ["Antihypertensive", "Statin"], "Pediatrics": ["Antibiotic", "Antihistamine", "Analgesic"],
    "Orthopedics": ["Analgesic"], "Neurology": ["Anticonvulsant", "Analgesic"], "Dermatology": ["Antihistamine", "Antibiotic"],
    "General Medicine": ["Antibiotic", "Analgesic", "Antihypertensive", "Antidiabetic"], "Oncology": ["Oncology support", "Analgesic"],
    "Endocrinology": ["Antidiabetic", "Statin"],
}
STATUSES = [("completed", 0.77), ("cancelled", 0.13), ("no-show", 0.10)]
START, END = dt.date(2024, 1, 2), dt.date(2025, 12, 31)


def _pick(rng: np.random.Generator, weighted: list, size: int) -> list:
    names, weights = zip(*weighted)
    p = np.array(weights, dtype=float)
    return [names[i] for i in rng.choice(len(names), size=size, p=p / p.sum())]


def _day(rng: np.random.Generator, first: dt.date, last: dt.date) -> dt.date:
    return first + dt.timedelta(days=int(rng.integers(0, (last - first).days + 1)))


def rows(seed: int = SEED) -> dict[str, list[tuple]]:
    """Every table's rows, in insertion order."""
    rng = np.random.default_rng(seed)
    departments = [(i, name, floor, f"{4100 + 10 * i}") for i, (name, floor, _, _) in enumerate(DEPARTMENTS, 1)]

    names = [f"{f} {l}" for f in FIRST for l in LAST]
    order = rng.permutation(len(names))
    doctor_names = [names[i] for i in order[:66]]  # unique doctor names
    doctors = []
    for i, name in enumerate(doctor_names, 1):
        dept = None if i in (23, 51) else int((i - 1) % len(DEPARTMENTS)) + 1  # two locums without a department
        grade, _, _, (low, high) = GRADES[int(rng.choice(len(GRADES), p=[g[1] for g in GRADES]))]
        hire = _day(rng, dt.date(2003, 1, 1), dt.date(2023, 12, 31))
        salary = round(float(rng.uniform(low, high)) / 100) * 100.0
        doctors.append((i, name, dept, grade, hire.isoformat(), salary))

    patients = []
    for pid in range(1, 901):
        name = names[int(rng.integers(len(names)))]  # patients' names may repeat, as in life
        birth = _day(rng, dt.date(1935, 1, 1), dt.date(2023, 6, 30))
        city = _pick(rng, CITIES, 1)[0] if rng.random() > 0.04 else None
        plan = _pick(rng, PLANS, 1)[0]
        patients.append((pid, name, birth.isoformat(), "F" if rng.random() < 0.52 else "M", city, plan))

    medications = []
    for category, (meds, (low, high)) in MEDICATIONS.items():
        for med in meds:
            maker = MAKERS[int(rng.integers(len(MAKERS)))] if rng.random() > 0.1 else None
            medications.append((len(medications) + 1, med, category, round(float(rng.uniform(low, high)), 2), maker))
    by_category: dict[str, list[int]] = {}
    for med in medications:
        by_category.setdefault(med[2], []).append(med[0])

    busy = np.array([DEPARTMENTS[(d[2] or 6) - 1][3] * rng.gamma(3.0, 1 / 3.0) for d in doctors])
    visits = rng.gamma(0.8, 1.0, size=len(patients))
    raw = []
    for _ in range(2400):
        doctor = doctors[int(rng.choice(len(doctors), p=busy / busy.sum()))]
        patient = patients[int(rng.choice(len(patients), p=visits / visits.sum()))]
        day = _day(rng, START, END)
        while day.weekday() == 6:  # closed on Sundays
            day = _day(rng, START, END)
        minute = 8 * 60 + 15 * int(rng.integers(0, 38))
        when = f"{day.isoformat()} {minute // 60:02d}:{minute % 60:02d}"
        status = _pick(rng, STATUSES, 1)[0]
        dept_name, _, base, _ = DEPARTMENTS[(doctor[2] or 6) - 1]
        multiplier = next(g[2] for g in GRADES if g[0] == doctor[3])
        if status == "completed":
            fee = round(base * multiplier * float(rng.choice([1.0, 1.0, 1.0, 1.25, 1.5, 0.8])), 2)
            fee = None if rng.random() < 0.04 else fee  # not billed yet
        elif status == "no-show":
            fee = 35.0 if rng.random() < 0.6 else None
        else:
            fee = None
        raw.append((when, patient[0], doctor[0], status, fee, dept_name))
    raw.sort(key=lambda r: r[0])
    appointments, prescriptions = [], []
    for aid, (when, pid, did, status, fee, dept_name) in enumerate(raw, 1):
        appointments.append((aid, pid, did, when, status, fee))
        if status != "completed":
            continue
        for _ in range(int(rng.choice([0, 0, 1, 1, 1, 2, 2, 3]))):
            preferred = rng.random() < 0.75
            category = (PREFERRED[dept_name][int(rng.integers(len(PREFERRED[dept_name])))] if preferred
                        else list(MEDICATIONS)[int(rng.integers(len(MEDICATIONS)))])
            med = by_category[category][int(rng.integers(len(by_category[category])))]
            quantity = int(rng.choice([7, 10, 14, 20, 28, 30, 56, 60, 90]))
            refills = int(rng.choice([0, 0, 0, 1, 2, 3]))
            prescriptions.append((len(prescriptions) + 1, aid, med, quantity, refills))
    return {"departments": departments, "doctors": doctors, "patients": patients, "appointments": appointments,
            "medications": medications, "prescriptions": prescriptions}


def build(out: Path = DB) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    con = sqlite3.connect(out)
    try:
        con.execute("PRAGMA foreign_keys = ON")
        con.executescript(schema())
        for table, data in rows().items():
            con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(data[0]))})", data)
        con.commit()
        assert not con.execute("PRAGMA foreign_key_check").fetchall()
        con.execute("VACUUM")
    finally:
        con.close()
    return out


if __name__ == "__main__":
    path = build(Path(sys.argv[1]) if len(sys.argv) > 1 else DB)
    print(f"wrote {path} ({path.stat().st_size} bytes)")
