"""What a client of a served door may choose: the operator's allow-lists, in one place.

Files and database sources (:func:`allowed_paths`), models (:func:`client_model`) and folders
(:class:`ClientPolicy`) are all checked here, so a door adds no rule of its own.

A person at a shell chooses anything (it is their machine). A client of a long-lived door — the
LangGraph server, the MCP server, the web app reached through its token — is not the operator, so
every choice it makes is held to the operator's settings:

- a model: the configured ``model`` or one listed in ``allowed_models``, exactly as written there
  (an ``openai-compatible:`` spec with its base URL, so a client cannot send the server's key and
  the data profile to a host of its choosing); a ``scripted:`` spec, which names a file to read,
  only when it is the operator's own ``model``;
- a folder (the assistant's project): a folder under ``allowed_roots``, symlinks resolved first.

The LangGraph server serves graphs that read their model and project from the run's
configuration and state, which a client writes (also through the API's ``update_state``). So the
process that serves them turns the policy on once (:func:`serve_clients`) and the places where a
model spec or a project folder is read (``assistant.Configuration``, ``assistant.Project``) apply
:func:`client_policy` when it is on; a CLI process never turns it on.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from dsagent.errors import UserError

SOURCE_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+._-]*://")
"""A database URL's scheme (``postgresql://``, ``sqlite:///``): what sets a source apart from a file
name, here and in ``sources/url.py`` (the access check stands below the sources it guards)."""

_lock = threading.Lock()
_serving: "ClientPolicy | None" = None


def resolved_roots(roots: Iterable[Path | str]) -> list[Path]:
    return [Path(r).expanduser().resolve() for r in roots]


def under_roots(path: Path | str, roots: Iterable[Path | str]) -> bool:
    """Does ``path``, links resolved, lie under (or at) one of ``roots``? Every door's one test."""
    real = Path(path).expanduser().resolve()
    return any(real == base or real.is_relative_to(base) for base in resolved_roots(roots))


def allowed_paths(paths: Sequence[str] | str, roots: Iterable[Path | str], sources: Iterable[str] = ()) -> list[str]:
    """The paths, resolved, when every one is an existing file under a root or a database URL
    (``env:NAME``) listed in ``sources`` (the setting ``allowed_sources``); else a UserError that
    names the path and the fix. A URL's password is never repeated in the message."""
    if isinstance(paths, str):
        paths = [paths]
    if not paths:
        raise UserError("no data files given: pass `paths`, a list of CSV, Excel, Parquet or JSON files")
    bases = resolved_roots(roots)
    shown = ", ".join(str(b) for b in bases)
    out = []
    for raw in paths:
        if not isinstance(raw, str) or not raw.strip():
            raise UserError(f"{raw!r} is not a file path: pass each data file as a string")
        if _is_url(raw):
            if raw not in set(sources):
                raise UserError(f"{masked_url(raw)}: this database is not among the server's allowed sources; allow it with the setting "
                                "allowed_sources (DSAGENT_ALLOWED_SOURCES='[\"postgresql://reader@host/db\"]' or '[\"env:NAME\"]')")
            out.append(raw)
            continue
        path = Path(raw).expanduser().resolve()
        if not under_roots(path, bases):
            raise UserError(
                f"{raw} is outside the allowed folders ({shown}); move the file there, or allow its folder "
                "with the setting allowed_roots (DSAGENT_ALLOWED_ROOTS='[\"/path/to/data\"]', or `dsagent mcp --root DIR`)"
            )
        if not path.is_file():
            raise UserError(f"{raw}: no such file under the allowed folders ({shown}); check the path")
        out.append(str(path))
    return out


def _is_url(raw: str) -> bool:
    """A database source named by URL or ``env:NAME`` (a database file is checked as a file)."""
    return raw.startswith("env:") or bool(SOURCE_URL.match(raw))


def masked_url(raw: str) -> str:
    """The URL with its password masked (for a message or the run log)."""
    if raw.startswith("env:"):
        return raw
    from sqlalchemy.engine import make_url

    try:
        return make_url(raw).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - an unreadable URL is shown by its scheme only
        return raw.split("://", 1)[0] + "://…"


class ClientPolicy:
    """The choices a door's client may make, from the operator's settings."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings

    def model(self, requested: str | None) -> str:
        """The model spec to use for a client that asked for ``requested`` (None: the operator's)."""
        return client_model(requested, self.settings)

    def folder(self, raw: str | Path | None, what: str = "project folder") -> Path:
        """``raw`` resolved, when it lies under an allowed root; else a UserError naming the fix."""
        path = Path(raw or ".").expanduser().resolve()
        if not under_roots(path, self.settings.allowed_roots):
            shown = ", ".join(str(r) for r in resolved_roots(self.settings.allowed_roots))
            raise UserError(f"{raw or '.'}: this {what} is outside the allowed folders ({shown}); allow its folder with the "
                            "setting allowed_roots (DSAGENT_ALLOWED_ROOTS='[\"/path/to/project\"]')")
        return path


def client_model(requested: str | None, settings: Any) -> str:
    """``requested`` when the operator allows it (its own ``model``, or a spec in ``allowed_models``),
    the operator's ``model`` when nothing was asked; else a UserError that says how to allow it."""
    own = settings.model
    spec = (requested or "").strip()
    if not spec or spec == own:
        return own
    if spec.startswith("scripted:"):
        raise UserError("a client cannot choose a scripted model (it names a file on the server); the server's own model is "
                        f"{_shown(own)}")
    if spec in set(settings.allowed_models):
        return spec
    choices = ", ".join(_shown(m) for m in [own, *settings.allowed_models])
    raise UserError(f"the model {_shown(spec)} is not one this server offers (choose one of: {choices}); the operator can "
                    "allow it with the setting allowed_models (DSAGENT_ALLOWED_MODELS='[\"openai:gpt-4.1-mini\"]')")


def _shown(spec: str) -> str:
    return spec.partition(":")[0] + ":…" if spec.startswith("scripted:") else spec


def serve_clients(settings: Any = None) -> ClientPolicy:
    """Hold every run of this process to the operator's allow-lists from now on (a served door)."""
    global _serving
    from dsagent.config import load_settings

    with _lock:
        _serving = ClientPolicy(settings or load_settings())
        return _serving


def client_policy() -> "ClientPolicy | None":
    """The policy when this process serves clients; None in a CLI process."""
    return _serving


def stop_serving() -> None:
    """Back to a process that trusts its caller (tests)."""
    global _serving
    with _lock:
        _serving = None
