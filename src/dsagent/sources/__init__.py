"""Data that stays where it is: database sources and Apache Spark, read through a broker in
dsagent's process (the sandbox's ``sql()`` asks it; see docs/scale.md).

- ``url``: which inputs are sources, and their passwords kept out of sight;
- ``guard``: one read statement or a refusal, and the dialect translation (sqlglot);
- ``engines`` and ``spark``: read-only connections (SQLite, DuckDB, any SQLAlchemy URL; Spark);
- ``broker``: runs the sandbox's queries and caps the rows; ``tables`` and ``attach``: the tables as
  datasets, profiled by SQL in the database.
"""
