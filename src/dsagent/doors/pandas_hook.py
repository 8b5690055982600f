"""The notebook door's hook: registers ``df.dsagent`` when pandas is imported, without importing pandas itself.

``import dsagent`` must stay fast (the CLI imports it for ``--help``), so the accessor is
registered right away only if pandas is already loaded; otherwise a meta-path finder waits for
the first ``import pandas`` and registers it once pandas has finished loading.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from typing import Any


def _register() -> None:
    try:
        from dsagent.doors.notebook import register_accessor

        register_accessor()
    except Exception:  # never break the user's import of pandas
        pass


class _PandasWatcher(importlib.abc.MetaPathFinder):
    done = False

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != "pandas" or self.done:
            return None
        self.done = True  # once (it stays in sys.meta_path: removing it mid-lookup would skip a finder)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module: Any) -> None:
            original(module)
            _register()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    if "pandas" in sys.modules:
        _register()
    elif not any(isinstance(f, _PandasWatcher) for f in sys.meta_path):
        sys.meta_path.insert(0, _PandasWatcher())
