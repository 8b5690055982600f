"""The run log: SQLAlchemy over SQLite in the dsagent home (any SQLAlchemy URL by setting).

Every row is written and committed as the run goes, so a crash keeps what was already done.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from dsagent.errors import UserError
from dsagent.store import migrations


def utcnow() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


_ENGINES: dict[str, Engine] = {}
_ENGINES_LOCK = threading.Lock()


def _engine(url: str) -> Engine:
    """One engine (and connection pool) per URL in a process, migrated once: a web server opens a
    Session per browser conversation, and each engine kept its own SQLite connection open."""
    with _ENGINES_LOCK:
        engine = _ENGINES.get(url)
        path = Path(url.removeprefix("sqlite:///")).expanduser() if url.startswith("sqlite:///") else None
        if engine is not None and (path is None or path.exists()):
            return engine
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = create_engine(url, future=True)
        except Exception as exc:
            raise UserError(f"cannot open the run log at {url!r}: {exc}; check DSAGENT_DATABASE_URL") from exc
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", lambda c, _r: c.execute("PRAGMA journal_mode=WAL"))
        with engine.begin() as conn:
            migrations.apply(conn, utcnow)
        _ENGINES[url] = engine
        return engine


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, default=str)


class RunLog:
    """Append-as-you-go writer and reader of runs, steps, LLM calls and artifacts."""

    def __init__(self, url: str) -> None:
        self.engine: Engine = _engine(url)
        self.settle_interrupted()

    def settle_interrupted(self) -> int:
        """Mark every run left 'running' by a process of this host that has ended (kill -9, a crash)
        as 'interrupted': done at every start, so the next `dsagent` command finds them so. Returns how many."""
        rows = self._read("SELECT id, owner, status FROM runs WHERE status = 'running'")
        return sum(row["status"] == "interrupted" for row in self._settle(rows))

    def _write(self, sql: str, **params: Any) -> Any:
        with self.engine.begin() as conn:
            return conn.execute(text(sql), params)

    def _read(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(text(sql), params)]

    # --- writing -------------------------------------------------------------------------
    def start_run(self, *, workflow: str, model: str, question: str, datasets: list[str], workspace: str, isolation: str | None = None) -> str:
        run_id = uuid.uuid4().hex[:12]
        self._write(
            "INSERT INTO runs (id, created_at, workflow, model, question, datasets, workspace, isolation, status, owner)"
            " VALUES (:id, :t, :w, :m, :q, :d, :ws, :iso, 'running', :o)",
            id=run_id, t=utcnow(), w=workflow, m=model, q=question, d=_dumps(datasets), ws=workspace, iso=isolation,
            o=f"{socket.gethostname()}:{os.getpid()}",
        )
        return run_id

    def set_model(self, run_id: str, model: str) -> None:
        self._write("UPDATE runs SET model = :m WHERE id = :id", m=model, id=run_id)

    def set_isolation(self, run_id: str, isolation: str) -> None:
        self._write("UPDATE runs SET isolation = :iso WHERE id = :id", iso=isolation, id=run_id)

    def finish_run(self, run_id: str, status: str, final_output: dict | None = None, error: str | None = None) -> None:
        self._write(
            "UPDATE runs SET status = :s, finished_at = :t, final_output = :f, error = :e WHERE id = :id",
            s=status, t=utcnow(), f=_dumps(final_output), e=error, id=run_id,
        )

    def start_step(self, run_id: str, node: str) -> int:
        with self.engine.begin() as conn:
            result = conn.execute(
                text("INSERT INTO steps (run_id, node, started_at) VALUES (:r, :n, :t)"), {"r": run_id, "n": node, "t": utcnow()}
            )
            return int(result.lastrowid) if result.lastrowid is not None else self._last_step_id(conn, run_id)

    @staticmethod
    def _last_step_id(conn: Any, run_id: str) -> int:
        return int(conn.execute(text("SELECT MAX(id) FROM steps WHERE run_id = :r"), {"r": run_id}).scalar())

    def finish_step(self, step_id: int, outcome: str, duration_s: float, detail: str | None = None) -> None:
        self._write(
            "UPDATE steps SET ended_at = :t, outcome = :o, duration_s = :d, detail = :x WHERE id = :id",
            t=utcnow(), o=outcome, d=duration_s, x=detail, id=step_id,
        )

    def record_llm_call(self, run_id: str, *, node: str | None, model: str, prompt_tokens: int, completion_tokens: int, latency_s: float,
                        ok: bool = True, error: str | None = None, prompt: str | None = None, reply: str | None = None,
                        cached_tokens: int | None = None, mode: str | None = None) -> None:
        """One model call; ``prompt`` is the JSON list of messages sent (role, content), ``reply`` the text
        received, ``cached_tokens`` the prompt tokens served from the model's cache (None: not known),
        ``mode`` how a structured call was held to its schema (None: a plain call)."""
        self._write(
            "INSERT INTO llm_calls (run_id, node, model, prompt_tokens, completion_tokens, latency_s, ok, error, created_at, prompt, reply,"
            " cached_tokens, mode) VALUES (:r, :n, :m, :p, :c, :l, :ok, :e, :t, :pr, :rp, :ct, :md)",
            r=run_id, n=node, m=model, p=prompt_tokens, c=completion_tokens, l=latency_s, ok=ok, e=error, t=utcnow(), pr=prompt, rp=reply,
            ct=cached_tokens, md=mode,
        )

    def add_artifact(self, run_id: str, kind: str, path: str) -> None:
        self._write("INSERT INTO artifacts (run_id, kind, path, created_at) VALUES (:r, :k, :p, :t)", r=run_id, k=kind, p=path, t=utcnow())

    def _settle(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Runs still 'running' whose process on this host has ended (killed, crashed, power cut)
        become 'interrupted', in the log and in the rows returned; their steps stay as written."""
        host = socket.gethostname()
        for row in rows:
            owner = row.get("owner") or ""
            name, _, pid = owner.rpartition(":")
            if row["status"] == "running" and name == host and pid.isdigit() and not _process_alive(int(pid)):
                error = "the process ended before the run finished (killed or crashed); the steps done so far are kept"
                self._write("UPDATE runs SET status = 'interrupted', error = :e WHERE id = :id AND status = 'running'", e=error, id=row["id"])
                row.update(status="interrupted", error=error)
        return rows

    # --- reading -------------------------------------------------------------------------
    def recent_runs(self, limit: int = 20) -> list[dict[str, Any]]:
        return self._settle(self._read("SELECT * FROM runs ORDER BY created_at DESC LIMIT :n", n=limit))

    def get_run(self, run_id: str, exact: bool = False) -> dict[str, Any]:
        """The run with this id, or with the one id this prefix starts (run ids are hex). ``exact``:
        the full id only (a server's client must not walk the log by one-character prefixes)."""
        rows = self._read("SELECT * FROM runs WHERE id = :id", id=run_id)
        if not rows and not exact and run_id and all(c in "0123456789abcdef" for c in run_id):
            rows = self._read("SELECT * FROM runs WHERE id LIKE :p ORDER BY created_at DESC LIMIT 3", p=f"{run_id}%")
            if len(rows) > 1:
                ids = ", ".join(r["id"] for r in rows)
                raise UserError(f"run id prefix {run_id!r} matches several runs ({ids}…); give more characters")
        if not rows:
            raise UserError(f"no run {run_id!r} in the run log; `dsagent runs` lists recent runs")
        return self._settle(rows[:1])[0]

    # --- what a door made (doors/owned.py) -------------------------------------------------
    def claim_run(self, run_id: str, door: str, files: list[str]) -> None:
        """Record that ``door`` (a server: "mcp") made this run from these data files (resolved
        paths, or the source URLs as allowed): its later requests for the run are checked against them."""
        self._write("UPDATE runs SET door = :d, door_files = :f WHERE id = :id", d=door, f=_dumps(list(files)), id=run_id)

    def record_thread(self, thread_id: str, door: str, files: list[str]) -> dict[str, Any]:
        """Record that ``door`` made the clean thread ``thread_id`` on ``files``; a thread already
        recorded keeps its first owner and files (returned, so the caller can compare)."""
        found = self.door_thread(thread_id)
        if found is not None:
            return found
        try:
            self._write("INSERT INTO door_threads (thread_id, door, files, created_at) VALUES (:t, :d, :f, :c)",
                        t=thread_id, d=door, f=_dumps(list(files)), c=utcnow())
        except IntegrityError:  # another process recorded it first: its record stands
            return self.door_thread(thread_id) or {}
        return {"thread_id": thread_id, "door": door, "files": list(files)}

    def door_thread(self, thread_id: str) -> dict[str, Any] | None:
        """The door and files recorded for a clean thread, or None (a thread no door recorded)."""
        rows = self._read("SELECT thread_id, door, files FROM door_threads WHERE thread_id = :t", t=thread_id)
        if not rows:
            return None
        return {**rows[0], "files": json.loads(rows[0]["files"] or "[]")}

    def steps(self, run_id: str) -> list[dict[str, Any]]:
        return self._read("SELECT * FROM steps WHERE run_id = :r ORDER BY id", r=run_id)

    def llm_calls(self, run_id: str) -> list[dict[str, Any]]:
        return self._read("SELECT * FROM llm_calls WHERE run_id = :r ORDER BY id", r=run_id)

    def artifacts(self, run_id: str) -> list[dict[str, Any]]:
        return self._read("SELECT * FROM artifacts WHERE run_id = :r ORDER BY id", r=run_id)

    def llm_totals(self, run_id: str) -> dict[str, int]:
        rows = self._read(
            "SELECT COUNT(*) AS calls, COALESCE(SUM(prompt_tokens),0) AS prompt_tokens,"
            " COALESCE(SUM(completion_tokens),0) AS completion_tokens FROM llm_calls WHERE run_id = :r",
            r=run_id,
        )
        return {k: int(v) for k, v in rows[0].items()}
