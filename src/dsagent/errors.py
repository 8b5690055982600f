"""The three families of error, each handled in one place.

- What the model can fix (a traceback, invalid JSON) is *data* in graph state, not an exception.
- What the user must fix raises :class:`UserError`; its message says the fix.
- Provider and runtime failures are :class:`ProviderError` / :class:`LimitExceeded`.

The CLI renders every :class:`DsagentError` as one clean line (``--debug`` shows the traceback).
"""

from __future__ import annotations


class DsagentError(Exception):
    """Base of every error dsagent raises on purpose."""


class UserError(DsagentError):
    """Bad input that the user must fix. The message names the thing and says what to do."""


class ProviderError(DsagentError):
    """A model provider failed: unreachable, timed out, out of replies, unusable output."""


class StructuredOutputError(ProviderError):
    """The model's reply could not be parsed into the requested schema, even after one repair."""

    def __init__(self, message: str, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


class LimitExceeded(DsagentError):
    """A sandbox limit (wall time, memory, output size) was breached."""
