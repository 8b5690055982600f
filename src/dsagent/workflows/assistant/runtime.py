"""What the tools share within one process: settings, the chat model, one Session per project.

A LangGraph server may build the graph once and run many threads; tools therefore look their
runtime up by (project folder, model spec) instead of holding it. The Session (warm sandbox, run
log) is made on first need and made again when the raw files change.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from dsagent.workflows.assistant.project import Project, fingerprint

_MODELS: dict[str, Any] = {}
_RUNTIMES: dict[tuple[str, str], "AssistantRuntime"] = {}
_LOCK = threading.Lock()


def chat_model(spec: str, settings: Any = None) -> Any:
    """One model instance per spec and process (a scripted model keeps its place in its script)."""
    from dsagent.llm import get_chat_model

    with _LOCK:
        if spec not in _MODELS:
            _MODELS[spec] = get_chat_model(spec, settings)
        return _MODELS[spec]


class AssistantRuntime:
    def __init__(self, project: Project, model_spec: str) -> None:
        from dsagent.config import load_settings

        self.project = project
        self.settings = load_settings(model=model_spec)
        self.model_spec = model_spec
        self._session: Any = None
        self._session_key: tuple[str, ...] = ()

    @property
    def model(self) -> Any:
        return chat_model(self.model_spec, self.settings)

    def session(self) -> Any:
        """A Session over the raw files as they are now (made again when they change)."""
        from dsagent.session import Session

        files = self.project.raw_files()
        key = tuple(f"{p.name}={fingerprint(p)}" for p in files)
        if self._session is None or key != self._session_key:
            if self._session is not None:
                self._session.close()
            settings = self.settings.model_copy(update={"workspace_root": self.project.intermediate / "workspace"})
            self._session = Session(files, settings=settings)
            self._session._model = self.model
            self._session_key = key
        return self._session

    @contextmanager
    def run_context(self, question: str) -> Iterator[Any]:
        """One stage-4 run, logged as workflow ``assistant``: the session's :meth:`~dsagent.session.Session.open_run`
        (failed on an exception; ok unless the block finished it). Printed results are never cut: they are the task's result files."""
        with self.session().open_run("assistant", question, cut_results=False) as ctx:
            yield ctx

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


def runtime_for(project_dir: str | None, model_spec: str) -> AssistantRuntime:
    project = Project.at(project_dir)
    key = (str(project.root), model_spec)
    with _LOCK:
        if key not in _RUNTIMES:
            _RUNTIMES[key] = AssistantRuntime(project, model_spec)
        return _RUNTIMES[key]


def close_all() -> None:
    """Close every Session this process opened (the CLI calls it on exit)."""
    with _LOCK:
        runtimes = list(_RUNTIMES.values())
        _RUNTIMES.clear()
    for runtime in runtimes:
        runtime.close()
