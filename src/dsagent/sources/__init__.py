"""Data that stays where it is: database sources and Apache Spark, read through a broker in
dsagent's process (the sandbox's ``sql()`` asks it; see docs/scale.md).

- ``url``: which inputs are sources, and their passwords kept out of sight;
- ``guard``: one read statement or a refusal, and the dialect translation (sqlglot); ``allowed``:
  the pure functions a statement may call, per dialect;
- ``engines`` and ``spark``: read-only connections (SQLite, DuckDB, any SQLAlchemy URL; Spark);
- ``fetch``: a result's rows read in batches under the row cap and the byte budget;
- ``broker``: runs the sandbox's queries and answers with bounded rows; ``tables`` and ``attach``:
  the tables as datasets, profiled by SQL in the database.
"""
