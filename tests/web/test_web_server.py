"""``dsagent web``: the Streamlit command line it runs (localhost, headless, no telemetry)."""

from __future__ import annotations

import sys

import pytest

from dsagent.cli.main import main
from dsagent.web import server


def test_streamlit_command_is_headless_local_and_quiet():
    command = server.streamlit_command("127.0.0.1", 8765, python="/py")
    assert command[:5] == ["/py", "-m", "dsagent.web.launch", "run", str(server.APP_FILE)]  # streamlit's CLI, outside calls cut
    options = dict(zip(command[5::2], command[6::2], strict=True))
    assert options["--server.headless"] == "true"
    assert options["--server.address"] == "127.0.0.1" and options["--server.port"] == "8765"
    assert options["--browser.gatherUsageStats"] == "false"
    assert options["--client.showErrorDetails"] == "none"  # never a traceback in the page
    assert server.APP_FILE.is_file()


def test_cmd_web_execs_streamlit_with_the_defaults(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(server.os, "execve", lambda exe, argv, env: calls.append((exe, argv, env)))
    assert main(["web"]) == 0
    exe, argv, env = calls[0]
    assert exe == sys.executable and argv[argv.index("--server.address") + 1] == "127.0.0.1"
    assert argv[argv.index("--server.port") + 1] == "8501"
    assert "DSAGENT_MODEL" not in env and env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] == "false"
    assert "http://localhost:8501" in capsys.readouterr().err
    main(["web", "--port", "9000", "--host", "0.0.0.0", "--model", "scripted:r.json", "--workflow", "robust", "--token", "a-long-token"])
    _, argv, env = calls[1]
    assert argv[argv.index("--server.port") + 1] == "9000" and argv[argv.index("--server.address") + 1] == "0.0.0.0"
    assert env["DSAGENT_MODEL"] == "scripted:r.json" and env["DSAGENT_WORKFLOW"] == "robust"


def test_bad_port_is_a_user_error(capsys):
    assert main(["web", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["web", "--workflow", "nope"]])
def test_unknown_workflow_is_refused_by_the_parser(argv, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    assert "invalid choice" in capsys.readouterr().err
