"""``dsagent web``: run the Streamlit app, on localhost unless told otherwise, with no telemetry and
no outside calls; on any other address only with an access token."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

APP_FILE = Path(__file__).with_name("app.py")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8501
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def streamlit_command(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, python: str | None = None) -> list[str]:
    """Streamlit's ``run app.py`` (through :mod:`dsagent.web.launch`, which cuts its external-IP
    lookup) headless, bound to ``host:port``, sending no usage stats, printing no welcome banner."""
    return [
        python or sys.executable, "-m", "dsagent.web.launch", "run", str(APP_FILE),
        "--server.headless", "true",
        "--server.address", host,
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
        "--logger.hideWelcomeMessage", "true",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "minimal",
        "--client.showErrorDetails", "none",
        "--theme.base", "light",
    ]


def streamlit_env(model: str | None = None, workflow: str | None = None, token: str | None = None) -> dict[str, str]:
    """The app reads its default model and workflow, and the access token, from the settings: pass them as DSAGENT_* env."""
    env = dict(os.environ)
    if token:
        env["DSAGENT_WEB_TOKEN"] = token
    if model:
        env["DSAGENT_MODEL"] = model
    if workflow:
        env["DSAGENT_WORKFLOW"] = workflow
    env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] = "false"
    return env


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, model: str | None = None, workflow: str | None = None,
          token: str | None = None) -> None:
    """Replace this process with the Streamlit server (so Ctrl+C and kill reach it directly).

    On an address other machines can reach, an access token is required (``--token`` or the setting
    ``web_token``): without one it refuses to start; with one every browser session must give it.
    """
    from dsagent.config import load_settings
    from dsagent.errors import UserError

    token = token or load_settings().web_token

    if importlib.util.find_spec("streamlit") is None:
        raise UserError("the web app needs streamlit: `pip install streamlit` (a dsagent dependency)")
    if not 0 < port < 65536:
        raise UserError(f"--port must be between 1 and 65535, got {port}")
    exposed = host not in LOOPBACK
    if exposed and not token:
        raise UserError(
            f"--host {host} makes the app reachable from other machines, and anyone who reaches it could run code "
            "on this one: give an access token (--token TOKEN or DSAGENT_WEB_TOKEN), or leave --host at 127.0.0.1"
        )
    if token and len(token) < 8:
        raise UserError("the access token is too short: use at least 8 characters (e.g. `python -c 'import secrets; print(secrets.token_urlsafe())'`)")
    command = streamlit_command(host, port)
    shown = "localhost" if not exposed else host
    link = f"http://{shown}:{port}" + (f"/?token={token}" if token else "")
    note = "reachable from other machines; each browser session needs the token" if exposed else "this machine only" + (", token required" if token else "")
    print(f"dsagent web: {link}  ({note}; Ctrl+C to stop)", file=sys.stderr, flush=True)
    os.execve(command[0], command, streamlit_env(model, workflow, token))
