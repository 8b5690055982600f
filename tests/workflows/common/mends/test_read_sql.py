"""The before-run mend of code over a database that opens its own connection: read_sql → sql()."""

from dsagent.workflows.common.mends import MendFacts, mend_before_run
from dsagent.workflows.common.mends.database import mend_read_sql

OWN_CONNECTION = """import sqlite3
import pandas as pd
conn = sqlite3.connect('shop.sqlite')
query = "SELECT category, SUM(quantity) AS units FROM order_items GROUP BY 1"
result = pd.read_sql_query(query, conn)
products = pd.read_sql_table('products', con=conn)
conn.close()
"""


def test_read_sql_on_an_own_connection_becomes_sql():
    mended = mend_read_sql(OWN_CONNECTION, MendFacts(database=True))
    assert "result = sql(query)" in mended and "products = sql('SELECT * FROM ' + 'products')" in mended
    assert "sqlite3.connect" not in mended and "conn.close" not in mended
    assert 'query = "SELECT category' in mended  # the rest as written


def test_only_over_a_database_and_only_when_the_connection_serves_nothing_else():
    assert mend_read_sql(OWN_CONNECTION, MendFacts(database=False)) == OWN_CONNECTION
    cursor = OWN_CONNECTION + "rows = conn.execute('select 1').fetchall()\n"
    assert mend_read_sql(cursor, MendFacts(database=True)) == cursor
    engine = "from sqlalchemy import create_engine\nengine = create_engine('sqlite:///shop.sqlite')\nresult = pd.read_sql('select 1', engine)\n"
    assert "result = sql('select 1')" in mend_read_sql(engine, MendFacts(database=True))


def test_the_code_step_applies_it_with_its_label():
    mended, labels = mend_before_run(OWN_CONNECTION, MendFacts(database=True))
    assert "read_sql as sql()" in labels and "sql(query)" in mended


def test_query_text_bound_to_sql_gets_a_name_of_its_own():
    from dsagent.workflows.common.mends import mend_before_run
    from dsagent.workflows.common.mends.database import mend_sql_shadowed

    code = 'sql = """\nSELECT a FROM t\n"""\nresult = sql(sql).iloc[0]  # sql() runs it\n'
    assert mend_sql_shadowed(code) == 'query = """\nSELECT a FROM t\n"""\nresult = sql(query).iloc[0]  # sql() runs it\n'
    assert "sql(query_text)" in mend_sql_shadowed("query = 1\nsql = 'x'\nr = sql(sql)\n")
    for kept in ("sql = 'x'\nprint(sql)\n", "def sql(q):\n    return q\nsql = 'x'\nsql(sql)\n",
                 "from helpers import sql\nr = sql('x')\n", "r = sql('SELECT 1')\n",
                 "def q(sql):\n    return sql.upper()\nsql = 'x'\nr = sql(sql)\n", "global sql\nsql = 'x'\nr = sql(sql)\n"):
        assert mend_sql_shadowed(kept) == kept
    # a column counted in bytes by ast, in characters here: a line with 'Zürich' is cut where it should be
    assert mend_sql_shadowed("sql = \"SELECT * FROM t WHERE city = 'Zürich'\"; df = sql(sql)\n") == (
        "query = \"SELECT * FROM t WHERE city = 'Zürich'\"; df = sql(query)\n")
    mended, labels = mend_before_run(code, None)
    assert "sql(query)" in mended and "query text kept apart from sql()" in labels


def test_a_statement_with_non_ascii_text_owns_its_lines():
    import ast

    from dsagent.workflows.common.mends._edit import owns_its_lines

    code = "s = 'üüüüüü'; t=1\nz = 'Zürich'  # ü\n"  # counted in characters, the first seemed to end its line
    tree, lines = ast.parse(code), code.splitlines(keepends=True)
    assert [owns_its_lines(node, lines) for node in tree.body] == [False, False, True]
