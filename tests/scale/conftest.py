"""Fixtures of the scale tests: a real PostgreSQL server the tests start themselves, and sample
databases (SQLite, DuckDB) holding the same table.

PostgreSQL refuses to run as root: the server runs as ``nobody`` (``runuser``), from a data
directory made for the session, on a free loopback port. Outside CI a machine without
``pg_ctl`` skips these tests; in CI (CI=1) they fail instead.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

REGIONS = ["North", "South", "East", "West"]
READER_PASSWORD = "s3cret-Reader-pw"


def sales_rows(n: int = 400) -> list[tuple]:
    """Deterministic rows: region, month, units, price."""
    rng = random.Random(7)
    return [(REGIONS[i % 4], f"2024-{i % 12 + 1:02d}", rng.randint(1, 50), round(rng.uniform(1, 20), 2)) for i in range(n)]


def expected_revenue() -> dict[str, float]:
    totals: dict[str, float] = {}
    for region, _month, units, price in sales_rows():
        totals[region] = totals.get(region, 0.0) + units * price
    return totals


def _need(tool: str) -> str:
    # Debian's postgresql package keeps its server tools off PATH, in /usr/lib/postgresql/<major>/bin.
    found = [Path(f"/usr/local/bin/{tool}"), *sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{tool}"), reverse=True)]
    path = shutil.which(tool) or next((str(p) for p in found if p.exists()), None)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing: install PostgreSQL (apt-get install postgresql) for tests/scale")
        pytest.skip(f"{tool} is not installed")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres():
    """``.url`` = ``postgresql://reader@127.0.0.1:PORT/shop`` (the password is READER_PASSWORD, not in the URL), ``.log`` the server's statement log:
    a server with table ``sales``, role ``reader`` granted SELECT only, and role ``owner`` that owns it."""
    initdb, pg_ctl = _need("initdb"), _need("pg_ctl")
    psql = _need("psql")
    user = "nobody" if os.geteuid() == 0 else None
    run_as = ["runuser", "-u", user, "--"] if user else []
    base = Path(tempfile.mkdtemp(prefix="dsagent-pg-"))
    os.chmod(base, 0o755)
    if user:
        shutil.chown(base, user)
    data, port = base / "data", _free_port()
    subprocess.run([*run_as, initdb, "-D", str(data), "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                    "-E", "UTF8", "--no-locale"], check=True, capture_output=True)
    subprocess.run([*run_as, pg_ctl, "-D", str(data), "-l", str(base / "log"), "-w", "-t", "60", "-o",
                    f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c log_statement=all", "start"], check=True, capture_output=True)

    def sql(text: str, db: str = "postgres") -> None:
        subprocess.run([*run_as, psql, "-h", str(base), "-p", str(port), "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1",
                        "-q", "-c", text], check=True, capture_output=True)

    try:
        sql("CREATE DATABASE shop")
        values = ", ".join(f"('{r}', '{m}', {u}, {p})" for r, m, u, p in sales_rows())
        sql(f"CREATE ROLE reader LOGIN PASSWORD '{READER_PASSWORD}'; CREATE ROLE owner LOGIN PASSWORD 'owner-pw';"
            "CREATE TABLE sales (region text, month text, units integer, price numeric(8,2));"
            f"INSERT INTO sales VALUES {values}; ALTER TABLE sales OWNER TO owner;"
            "GRANT SELECT ON sales TO reader; REVOKE CREATE ON SCHEMA public FROM PUBLIC;", db="shop")
        yield SimpleNamespace(url=f"postgresql://reader@127.0.0.1:{port}/shop", port=port, log=base / "log",
                              sql=sql, owner_url=f"postgresql://owner:owner-pw@127.0.0.1:{port}/shop")
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def reader_env(monkeypatch: pytest.MonkeyPatch) -> str:
    """The reader's password in PGPASSWORD (the driver reads it; it is never in the URL)."""
    monkeypatch.setenv("PGPASSWORD", READER_PASSWORD)
    return READER_PASSWORD


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Path:
    import sqlite3

    path = tmp_path / "shop.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE sales (region TEXT, month TEXT, units INTEGER, price REAL)")
        con.executemany("INSERT INTO sales VALUES (?, ?, ?, ?)", sales_rows())
    return path


@pytest.fixture
def duckdb_file(tmp_path: Path) -> Path:
    import duckdb

    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE sales (region VARCHAR, month VARCHAR, units INTEGER, price DECIMAL(8,2))")
    con.executemany("INSERT INTO sales VALUES (?, ?, ?, ?)", sales_rows())
    con.close()
    return path


@pytest.fixture
def orders_csv(tmp_path: Path) -> Path:
    """A 2,000-row CSV of orders with known aggregates (written by DuckDB, never read by pandas)."""
    import duckdb

    path = tmp_path / "orders.csv"
    duckdb.connect().execute(f"""
        copy (select i as order_id, ['North', 'South', 'East', 'West'][1 + i % 4] as region,
                     (i % 7) + 1 as quantity, round(i * 0.5, 2) as amount
              from range(2000) t(i)) to '{path}' (header)""")
    return path


@pytest.fixture(autouse=True)
def _linux_only() -> None:
    if sys.platform != "linux":
        pytest.skip("the sandbox tests exercise Linux confinement")
