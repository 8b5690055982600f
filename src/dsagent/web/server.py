"""``dsagent web``: run the Streamlit app, on localhost unless told otherwise, with no telemetry."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

APP_FILE = Path(__file__).with_name("app.py")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8501


def streamlit_command(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, python: str | None = None) -> list[str]:
    """``python -m streamlit run app.py`` headless, bound to ``host:port``, sending no usage stats."""
    return [
        python or sys.executable, "-m", "streamlit", "run", str(APP_FILE),
        "--server.headless", "true",
        "--server.address", host,
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "minimal",
        "--client.showErrorDetails", "none",
        "--theme.base", "light",
    ]


def streamlit_env(model: str | None = None, workflow: str | None = None) -> dict[str, str]:
    """The app reads its default model and workflow from the settings: pass them as DSAGENT_* env."""
    env = dict(os.environ)
    if model:
        env["DSAGENT_MODEL"] = model
    if workflow:
        env["DSAGENT_WORKFLOW"] = workflow
    env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] = "false"
    return env


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, model: str | None = None, workflow: str | None = None) -> None:
    """Replace this process with the Streamlit server (so Ctrl+C and kill reach it directly)."""
    from dsagent.errors import UserError

    if importlib.util.find_spec("streamlit") is None:
        raise UserError("the web app needs streamlit: `pip install streamlit` (a dsagent dependency)")
    if not 0 < port < 65536:
        raise UserError(f"--port must be between 1 and 65535, got {port}")
    command = streamlit_command(host, port)
    shown = "localhost" if host in ("127.0.0.1", "localhost", "::1") else host
    print(f"dsagent web: http://{shown}:{port}  (Ctrl+C to stop)", file=sys.stderr, flush=True)
    os.execve(command[0], command, streamlit_env(model, workflow))
