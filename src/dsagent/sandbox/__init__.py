"""Run generated code in a warm, confined worker process: ``Sandbox(...).run(code)``.

Importing this package is cheap: pandas and the plotting libraries load only in the worker.
"""

from __future__ import annotations

from dsagent.sandbox.base import CodeRun, Isolation, Limits
from dsagent.sandbox.manager import Sandbox, SandboxStartError
from dsagent.sandbox.process import SandboxWarning

__all__ = ["CodeRun", "Isolation", "Limits", "Sandbox", "SandboxStartError", "SandboxWarning"]
