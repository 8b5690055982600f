"""Shared use of `dsagent web` (issue 24, part 4): a token off loopback, one workspace and sandbox per
browser session, no outside network call at start, and no file descriptors lost over many questions."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from streamlit.testing.v1 import AppTest

from dsagent.cli.main import main
from dsagent.web import server
from dsagent.web import state as web_state

APP = str(Path(__file__).resolve().parents[2] / "src" / "dsagent" / "web" / "app.py")
SRC = str(Path(__file__).resolve().parents[2] / "src")
PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "read"}
TOKEN = "s3cret-token-for-tests"


# --- a token off loopback -------------------------------------------------------------------


def test_a_reachable_address_without_a_token_is_refused(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(server.os, "execve", lambda exe, argv, env: calls.append((argv, env)))
    assert main(["web", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "reachable from other machines" in err and "--token" in err and "DSAGENT_WEB_TOKEN" in err
    assert not calls  # nothing started
    assert main(["web", "--host", "0.0.0.0", "--token", "short"]) == 2
    assert "too short" in capsys.readouterr().err


def test_with_a_token_it_starts_and_says_so(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(server.os, "execve", lambda exe, argv, env: calls.append((argv, env)))
    assert main(["web", "--host", "0.0.0.0", "--port", "9100", "--token", TOKEN]) == 0
    argv, env = calls[0]
    assert env["DSAGENT_WEB_TOKEN"] == TOKEN and argv[argv.index("--server.address") + 1] == "0.0.0.0"
    err = capsys.readouterr().err
    assert f"http://0.0.0.0:9100/?token={TOKEN}" in err and "each browser session needs the token" in err
    monkeypatch.setenv("DSAGENT_WEB_TOKEN", TOKEN)  # the setting is enough
    assert main(["web", "--host", "192.168.1.5"]) == 0
    assert calls[1][1]["DSAGENT_WEB_TOKEN"] == TOKEN


def test_the_page_shows_nothing_until_the_token_is_given(monkeypatch):
    monkeypatch.setenv("DSAGENT_WEB_TOKEN", TOKEN)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert [t.label for t in at.text_input] == ["Access token"]
    assert not at.chat_input and not at.get("file_uploader")  # no upload, no chat
    at.text_input[0].input("wrong-token-value").run()
    assert "not the access token" in at.error[0].value and not at.chat_input
    at.text_input[0].input(TOKEN).run()
    assert at.session_state["authorized"] and at.chat_input and at.get("file_uploader")
    linked = AppTest.from_file(APP, default_timeout=60)
    linked.query_params["token"] = TOKEN  # the link the command prints
    linked.run()
    assert linked.chat_input and not [t for t in linked.text_input if t.label == "Access token"]


def test_without_a_token_on_loopback_the_page_is_open():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.chat_input and not [t for t in at.text_input if t.label == "Access token"]


# --- one workspace and sandbox per browser session ------------------------------------------


def test_a_browser_session_can_read_nothing_of_another(tmp_path, script_file, monkeypatch):
    # The operator's model (a page may not name a script); each Session replays it from its start.
    monkeypatch.setenv("DSAGENT_MODEL", script_file([PLAN, "x", PLAN, "x", "Could not read it.", "x", "x", "x"]))
    alice, bob = {}, {}
    for state in (alice, bob):
        web_state.init_state(state)
    web_state.load_uploads(alice, [("secret.csv", b"name,salary\nalice,123456\n")])
    secret = Path(alice["workspace_dir"]) / "uploads" / "secret.csv"
    root = Path(alice["workspace_dir"]).parent
    steal = (f"import os\nresult = {{'listing': sorted(os.listdir({str(root)!r})), "
             f"'file': open({str(secret)!r}).read()}}")
    bob["model_spec"] = script_file([PLAN, steal, PLAN, steal, "Could not read it.", "x", "x", "x"])
    monkeypatch.setenv("DSAGENT_MODEL", bob["model_spec"])
    web_state.load_uploads(bob, [("mine.csv", b"a,b\n1,2\n")])
    try:
        assert alice["workspace_dir"] != bob["workspace_dir"]
        assert alice["session"] is not bob["session"] and alice["session"].sandbox is not bob["session"].sandbox
        assert not Path(bob["workspace_dir"]).is_relative_to(alice["workspace_dir"])
        message = web_state.ask(bob, "What does the other file say?", "quick", bob["model_spec"])
        result = message["result"]
        answer = json.dumps(result.model_dump(include={"result_str", "error", "failed_attempts", "explanation"}), default=str) if result else message["error"]
        assert "123456" not in answer  # not the file
        assert Path(alice["workspace_dir"]).name not in (result.result_str or "") if result else True  # not the listing
        errors = " ".join(a.get("error", "") for a in (result.failed_attempts if result else []))
        assert "PermissionError" in errors or "Permission denied" in errors, answer
        assert not alice["messages"]  # nothing of bob's reached alice's state
    finally:
        for state in (alice, bob):
            if state.get("session") is not None:
                state["session"].close()


def test_two_workspaces_made_in_the_same_second_are_two(tmp_path):
    from dsagent.session import new_workspace

    made: list[Path] = []
    threads = [threading.Thread(target=lambda: made.append(new_workspace(tmp_path / "ws"))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(made)) == 8


# --- no outside call at start ---------------------------------------------------------------

GUARD = '''
import socket, os
_real = socket.socket.connect
def _connect(self, address):
    host = address[0] if isinstance(address, tuple) else address
    if self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost", "0.0.0.0"):
        with open(os.environ["NET_ATTEMPTS"], "a") as fh:
            fh.write(f"{host}\\n")
        raise OSError("network refused by the test")
    return _real(self, address)
socket.socket.connect = _connect
'''


def test_streamlit_makes_no_outside_call_at_start(tmp_path):
    guard_dir = tmp_path / "guard"
    guard_dir.mkdir()
    (guard_dir / "sitecustomize.py").write_text(GUARD)
    attempts = tmp_path / "attempts.txt"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = server.streamlit_command("0.0.0.0", port)
    env = {**server.streamlit_env(token=TOKEN), "PYTHONPATH": f"{guard_dir}{os.pathsep}{SRC}", "NET_ATTEMPTS": str(attempts)}
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline, up = time.monotonic() + 90, False
        while time.monotonic() < deadline and not up:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    up = r.status == 200
            except OSError:
                time.sleep(0.5)
        assert up, "the server did not come up"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert r.status == 200
        time.sleep(2)  # anything started in the background at start has had its chance
    finally:
        proc.terminate()
        out = proc.communicate(timeout=20)[0]
    assert not attempts.exists(), (attempts.read_text(), out[-2000:])
    assert "External URL" not in out and "Network URL" not in out


def test_the_command_turns_off_every_outside_call():
    command = server.streamlit_command("0.0.0.0", 8501)
    options = dict(zip(command[5::2], command[6::2], strict=True))
    assert command[1:3] == ["-m", "dsagent.web.launch"]  # the external-IP lookup is cut there
    assert options["--browser.gatherUsageStats"] == "false" and options["--logger.hideWelcomeMessage"] == "true"
    assert options["--server.fileWatcherType"] == "none"


# --- no file descriptors lost over many questions -------------------------------------------


def test_thirty_questions_leave_no_fd_or_process_behind(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import soak

    figures = soak.soak(30, per_conversation=10, workdir=tmp_path)
    first, last = figures["checkpoints"][0], figures["checkpoints"][-1]
    assert figures["answered"] == 30, figures
    assert last["fds"] <= first["fds"], figures["checkpoints"]
    assert last["children"] <= first["children"], figures["checkpoints"]
