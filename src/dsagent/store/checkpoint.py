"""LangGraph's SQLite checkpointer under the dsagent home: the one place threads are saved.

The clean workflow's human review and the assistant's conversations are checkpointed here, so a
thread can be resumed by its id after the process that started it has exited.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # langgraph's SQLite saver is imported only when a thread is opened
    from langgraph.checkpoint.sqlite import SqliteSaver


def checkpoint_path(home: Path) -> Path:
    """The checkpoint database of a dsagent home (``<home>/checkpoints.db``)."""
    return Path(home).expanduser() / "checkpoints.db"


@contextmanager
def sqlite_checkpointer(home: Path) -> Iterator["SqliteSaver"]:
    """A ``SqliteSaver`` on ``<home>/checkpoints.db``, closed on exit; WAL so a reader never blocks."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = checkpoint_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        saver = SqliteSaver(conn)
        saver.setup()
        yield saver
    finally:
        conn.close()
