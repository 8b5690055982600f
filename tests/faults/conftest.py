"""The clean workflow's dirty CSV fixture, shared with the crash tests that resume a clean run."""

from tests.workflows.clean.conftest import dirty_csv  # noqa: F401 (a fixture)
