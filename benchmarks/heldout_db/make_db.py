"""Write the held-out database batch's table, ``tables/shop.sqlite``: a small made-up retail shop.

    .venv/bin/python benchmarks/heldout_db/make_db.py [OUT.sqlite]

Deterministic (numpy seed 20261127, no network, standard library + numpy only). Five tables with
real FOREIGN KEY clauses:

- ``stores(store_id PK, name, city, country, opened_date)``
- ``customers(customer_id PK, name, city, country, segment, signup_date)``
- ``products(product_id PK, name, category, unit_price)``
- ``orders(order_id PK, customer_id FK -> customers, store_id FK -> stores, order_date, status)``
- ``order_items(order_item_id PK, order_id FK -> orders, product_id FK -> products, quantity, discount)``

Dates are ISO text (``YYYY-MM-DD``), orders run from 2024-01-01 to 2025-06-30, discounts are
fractions (0.1 = 10 % off the list price). Every name is generated; nothing comes from a known
sample database.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DB = HERE / "tables" / "shop.sqlite"
SEED = 20261127

COLUMNS = {  # table -> its columns, in the order of the rows; the foreign keys are added from FOREIGN_KEYS
    "stores": ["store_id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "city TEXT NOT NULL", "country TEXT NOT NULL",
               "opened_date TEXT NOT NULL"],
    "customers": ["customer_id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "city TEXT NOT NULL", "country TEXT NOT NULL",
                  "segment TEXT NOT NULL", "signup_date TEXT NOT NULL"],
    "products": ["product_id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "category TEXT NOT NULL", "unit_price REAL NOT NULL"],
    "orders": ["order_id INTEGER PRIMARY KEY", "customer_id INTEGER NOT NULL", "store_id INTEGER NOT NULL",
               "order_date TEXT NOT NULL", "status TEXT NOT NULL"],
    "order_items": ["order_item_id INTEGER PRIMARY KEY", "order_id INTEGER NOT NULL", "product_id INTEGER NOT NULL",
                    "quantity INTEGER NOT NULL", "discount REAL NOT NULL"],
}
FOREIGN_KEYS = {  # table -> {(column, referenced table, referenced column)}; the test checks the file against it
    "orders": {("customer_id", "customers", "customer_id"), ("store_id", "stores", "store_id")},
    "order_items": {("order_id", "orders", "order_id"), ("product_id", "products", "product_id")},
}


def schema() -> str:
    """The CREATE TABLE statements, each with its FOREIGN KEY clauses."""
    statements = []
    for table, columns in COLUMNS.items():
        keys = [f"FOREIGN KEY ({column}) REFERENCES {target} ({key})" for column, target, key in sorted(FOREIGN_KEYS.get(table, ()))]
        statements.append(f"CREATE TABLE {table} (\n    " + ",\n    ".join(columns + keys) + "\n);")
    return "\n".join(statements)


CITIES = {  # country -> cities, with a weight for how many customers live there
    "Germany": [("Berlin", 5), ("Hamburg", 3), ("Cologne", 2)],
    "France": [("Paris", 5), ("Lyon", 2), ("Nantes", 1)],
    "Spain": [("Madrid", 3), ("Valencia", 2)],
    "Italy": [("Milan", 3), ("Turin", 2)],
    "Netherlands": [("Utrecht", 2), ("Eindhoven", 1)],
    "Poland": [("Krakow", 2), ("Gdansk", 1)],
}
STORES = [("North Hall", "Hamburg", "Germany", "2019-03-01"), ("Riverside", "Lyon", "France", "2020-09-15"),
          ("Old Town", "Krakow", "Poland", "2021-05-10"), ("Harbour Point", "Valencia", "Spain", "2018-11-20"),
          ("Central Arcade", "Milan", "Italy", "2022-02-01"), ("Online", "Utrecht", "Netherlands", "2017-06-01")]
SEGMENTS = [("Consumer", 0.6), ("Small Business", 0.25), ("Corporate", 0.15)]
FIRST = ["Anna", "Ben", "Clara", "David", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Katja", "Luca",
         "Marta", "Nils", "Olga", "Pavel", "Rosa", "Simon", "Tara", "Viktor", "Wanda", "Yusuf", "Zoe", "Emil"]
LAST = ["Adler", "Brandt", "Costa", "Dubois", "Engel", "Fischer", "Garcia", "Horvat", "Iversen", "Jansen", "Kowalski",
        "Lambert", "Moreau", "Novak", "Ortega", "Petit", "Rossi", "Schulz", "Torres", "Vogel", "Weber", "Zielinski"]
CATEGORIES = {  # category -> (nouns, price range)
    "Electronics": (["Headphones", "Charger", "Speaker", "Keyboard", "Webcam", "Router", "Monitor"], (19, 320)),
    "Home": (["Lamp", "Kettle", "Blanket", "Mirror", "Vase", "Clock"], (12, 140)),
    "Garden": (["Hose", "Planter", "Shears", "Lantern", "Bench"], (9, 210)),
    "Sports": (["Yoga Mat", "Dumbbell", "Water Bottle", "Backpack", "Jump Rope", "Tent"], (8, 260)),
    "Books": (["Cookbook", "Atlas", "Novel", "Field Guide"], (7, 45)),
    "Toys": (["Puzzle", "Kite", "Robot Kit", "Board Game", "Building Set"], (6, 90)),
}
ADJECTIVES = ["Classic", "Compact", "Deluxe", "Everyday", "Pro", "Eco", "Nordic", "Urban"]
STATUSES = [("completed", 0.78), ("shipped", 0.08), ("pending", 0.03), ("cancelled", 0.08), ("returned", 0.03)]
START, END = dt.date(2024, 1, 1), dt.date(2025, 6, 30)


def _pick(rng: np.random.Generator, weighted: list, size: int) -> list:
    names, weights = zip(*weighted)
    p = np.array(weights, dtype=float)
    return [names[i] for i in rng.choice(len(names), size=size, p=p / p.sum())]


def _day(rng: np.random.Generator, first: dt.date, last: dt.date) -> dt.date:
    return first + dt.timedelta(days=int(rng.integers(0, (last - first).days + 1)))


def rows(seed: int = SEED) -> dict[str, list[tuple]]:
    """Every table's rows, in insertion order."""
    rng = np.random.default_rng(seed)
    places = [((city, country), w) for country, cities in CITIES.items() for city, w in cities]
    customers = []
    for cid in range(1, 401):
        city, country = _pick(rng, places, 1)[0]
        name = f"{FIRST[rng.integers(len(FIRST))]} {LAST[rng.integers(len(LAST))]}"
        signup = _day(rng, dt.date(2021, 1, 1), dt.date(2025, 5, 31))
        customers.append((cid, name, city, country, _pick(rng, SEGMENTS, 1)[0], signup.isoformat()))

    products, seen = [], set()
    for category, (nouns, (low, high)) in CATEGORIES.items():
        for _ in range(8):
            name = f"{ADJECTIVES[rng.integers(len(ADJECTIVES))]} {nouns[rng.integers(len(nouns))]}"
            while name in seen:
                name = f"{ADJECTIVES[rng.integers(len(ADJECTIVES))]} {nouns[rng.integers(len(nouns))]}"
            seen.add(name)
            price = round(float(rng.uniform(low, high)), 0) - 0.01
            products.append((len(products) + 1, name, category, round(price, 2)))
    popularity = rng.gamma(1.2, 1.0, size=len(products))  # a few products sell far more than others

    activity = rng.gamma(0.9, 1.0, size=len(customers))  # some customers never order, some often
    active = [c for c in customers if rng.random() > 0.12]
    weights = np.array([activity[c[0] - 1] for c in active])
    orders, items = [], []
    store_weights = list(zip(range(1, len(STORES) + 1), [0.2, 0.15, 0.1, 0.15, 0.1, 0.3]))
    for oid in range(1, 1801):
        customer = active[rng.choice(len(active), p=weights / weights.sum())]
        first = max(START, dt.date.fromisoformat(customer[5]))
        # a gently growing shop: later days are a little more likely
        day = first + dt.timedelta(days=int(rng.random() ** 0.85 * ((END - first).days + 1)))
        store = int(_pick(rng, store_weights, 1)[0])
        orders.append((oid, customer[0], store, day.isoformat(), _pick(rng, STATUSES, 1)[0]))
        for product in rng.choice(len(products), size=int(rng.integers(1, 5)), replace=False, p=popularity / popularity.sum()):
            quantity = int(rng.choice([1, 1, 1, 2, 2, 3, 4, 5]))
            discount = float(rng.choice([0.0, 0.0, 0.0, 0.05, 0.1, 0.15, 0.2]))
            items.append((len(items) + 1, oid, int(product) + 1, quantity, discount))
    orders.sort(key=lambda o: (o[3], o[0]))  # ids in date order, as a shop's system would number them
    renumber = {o[0]: i for i, o in enumerate(orders, 1)}
    orders = [(renumber[o[0]], *o[1:]) for o in orders]
    items = sorted(((0, renumber[oid], *rest) for _, oid, *rest in items), key=lambda r: r[1])
    items = [(i, *r[1:]) for i, r in enumerate(items, 1)]
    stores = [(i, *s) for i, s in enumerate(STORES, 1)]
    return {"stores": stores, "customers": customers, "products": products, "orders": orders, "order_items": items}


def build(out: Path = DB) -> Path:
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
