"""Analysis operations: the model chooses, code computes.

A 1.5B model writing every analysis from scratch gets the meaning wrong while the code runs fine
(a share computed as a mean of another column, the lowest mean read as the least frequent group).
Here the model only chooses an operation and its arguments under a schema built from the real
table (:mod:`.schema`, :mod:`.choice`: columns as enums, problems found by code), and code writes
the pandas that computes it (:mod:`.compile`), shown to the user as the code.

Where things go: a new operation is a writer in :mod:`.compile` (its code), an entry in
``choice.OPERATIONS`` (one line the model reads), its fields in ``choice._ARGS`` and its needs in
``choice._NEEDS``, with a test in
``tests/ops/`` on a small table whose answer is known by hand.
"""

from dsagent.ops.choice import OPERATIONS, Choice, args_model, available, choice_of, problems
from dsagent.ops.compile import NotCompilable, compile_choice, run_choice
from dsagent.ops.schema import TableSchema, table_schema

__all__ = ["OPERATIONS", "Choice", "NotCompilable", "TableSchema", "args_model", "available", "choice_of", "compile_choice", "problems",
           "run_choice", "table_schema"]
