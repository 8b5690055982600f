"""Drive ``dsagent web`` in Debian's headless Chromium through Playwright (no browser download).

Used by the end-to-end test and by ``scripts/screenshots.py``. Chromium is started with the flags
this closed network needs: without the background-networking ones it keeps trying to reach
Google's hosts.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("DSAGENT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--lang=en-US",
]
SKIP_VAR = "DSAGENT_SKIP_BROWSER_TESTS"


def chromium_problem() -> str | None:
    """Why a browser test cannot run here, or None."""
    if not Path(CHROMIUM).is_file():
        return (f"{CHROMIUM} is missing: install Debian's chromium (`bash scripts/setup.sh` as root does), "
                f"or set {SKIP_VAR}=1 to skip the browser tests")
    try:
        import playwright  # noqa: F401
    except ImportError:
        return f"the playwright package is missing: `uv sync --group dev`, or set {SKIP_VAR}=1"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def dsagent_command() -> list[str]:
    script = Path(sys.executable).with_name("dsagent")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "dsagent.cli.main"]


class WebServer:
    """``dsagent web`` on a free localhost port as a subprocess; stopped (by its own pid) on exit."""

    def __init__(self, model: str, log_path: Path, env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.model = model
        self.log_path = log_path
        self.env = {**os.environ, **(env or {})}
        self.cwd = cwd
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> "WebServer":
        command = [*dsagent_command(), "web", "--host", "127.0.0.1", "--port", str(self.port), "--model", self.model]
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT, env=self.env, cwd=self.cwd)
        self.wait_healthy()
        return self

    def wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"dsagent web exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.25)
        raise RuntimeError(f"dsagent web did not answer on {self.url} within {timeout:.0f}s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __exit__(self, *exc: Any) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._log.close()


def launch_browser(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)


def open_app(browser: Any, url: str, width: int = 1400, height: int = 1000) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height}, locale="en-US")
    page.set_default_timeout(60_000)
    page.goto(url)
    page.get_by_test_id("stFileUploader").wait_for()
    # The model field is filled from the settings by the first script run; wait until it is drawn.
    page.wait_for_function("() => document.querySelector('[data-testid=stTextInputField]')?.value")
    return page


def upload(page: Any, *files: Path) -> None:
    """Put files into the sidebar's uploader, as a person choosing them would."""
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files([str(f) for f in files])
    for f in files:
        page.get_by_test_id("stSidebar").get_by_text(f.name).first.wait_for()


def ask(page: Any, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for()
    page.wait_for_function("() => !document.querySelector('[data-testid=stChatInputTextArea]').disabled")
    box.fill(question)
    box.press("Enter")


def wait_for_answer(page: Any, text: str, timeout_ms: int = 120_000) -> None:
    page.get_by_test_id("stChatMessage").filter(has_text=text).first.wait_for(timeout=timeout_ms)


def chromium_version() -> str:
    exe = shutil.which(CHROMIUM) or CHROMIUM
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip()
