"""A table the role cannot read ends profiling with a clear error that names the table and says
what to do, not with "internal error" (issue 38, finding 12)."""

from __future__ import annotations

import pytest

from dsagent.errors import UserError
from dsagent.sources.tables import describe
from tests.scale.conftest import postgres, reader_env  # noqa: F401 - fixtures (a real server; skipped without one)


class InsufficientPrivilege(Exception):
    """What psycopg raises (SQLSTATE 42501)."""

    sqlstate = "42501"


class _Engine:
    label = "postgresql://reader@db/shop"
    dialect = "postgres"

    def tables(self):
        return ["open", "secret"]

    def columns(self, table):
        return [("x", "INTEGER")]

    def run(self, sql, max_rows):
        import pandas as pd

        if "secret" in sql:
            raise InsufficientPrivilege("permission denied for table secret")
        return pd.DataFrame({"n": [1], "nn_0": [1], "u_0": [1], "lo_0": [1], "hi_0": [1], "x": [1]}), False


def test_permission_denied_names_the_table_and_the_grant():
    with pytest.raises(UserError) as error:
        describe(_Engine(), "full")
    text = str(error.value)
    assert "secret" in text and "GRANT SELECT" in text and "internal" not in text.lower()


def test_a_real_server_table_the_role_cannot_read(postgres, reader_env):  # noqa: F811
    from dsagent.config import load_settings
    from dsagent.sources.attach import open_sources

    postgres.sql("CREATE DATABASE locked")
    postgres.sql("CREATE TABLE visible (x int); CREATE TABLE payroll (salary int); GRANT SELECT ON visible TO reader;",
                 db="locked")
    url = postgres.url.rsplit("/", 1)[0] + "/locked"
    with pytest.raises(UserError) as error:
        open_sources([url], load_settings())
    text = str(error.value)
    assert "payroll" in text and "GRANT SELECT ON payroll TO reader" in text and reader_env not in text
