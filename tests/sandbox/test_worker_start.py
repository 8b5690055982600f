"""A worker that ends before it is ready: silent deaths (a signal, no message) are met with up to
two more starts; a third says how the worker ended instead of "no reply"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from dsagent.sandbox import Sandbox, SandboxStartError, process
from tests.sandbox.conftest import TEST_LIMITS

_SELF_KILL = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
_original_launch = process.WorkerProcess._launch


def _launcher(deaths: int):
    """A ``_launch`` whose first ``deaths`` workers kill themselves at once; then the real worker."""
    calls = {"n": 0}

    def launch(command_r, reply_w, env, cwd):
        calls["n"] += 1
        if calls["n"] > deaths:
            return _original_launch(command_r, reply_w, env, cwd)
        return subprocess.Popen([sys.executable, "-c", _SELF_KILL], pass_fds=(reply_w,), env=env, cwd=cwd,
                                stdin=command_r, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return launch, calls


@pytest.fixture
def new_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    if sys.platform != "linux":
        pytest.skip("the sandbox tests exercise Linux confinement")
    monkeypatch.setenv("DSAGENT_HOME", str(tmp_path / "home"))
    made = []

    def make() -> Sandbox:
        sb = Sandbox(tmp_path / "workspace", {"t": pd.DataFrame({"a": [1, 2]})}, TEST_LIMITS)
        made.append(sb)
        return sb
    yield make
    for sb in made:
        sb.close()


def test_a_worker_killed_before_it_is_ready_is_started_again(new_sandbox, monkeypatch):
    launch, calls = _launcher(deaths=2)
    monkeypatch.setattr(process.WorkerProcess, "_launch", staticmethod(launch))
    sb = new_sandbox()
    assert sb.run("result = int(df['a'].sum())").result == '3'
    assert calls["n"] == 3


def test_three_silent_deaths_say_how_the_worker_ended(new_sandbox, monkeypatch):
    launch, calls = _launcher(deaths=3)
    monkeypatch.setattr(process.WorkerProcess, "_launch", staticmethod(launch))
    with pytest.raises(SandboxStartError, match="3 times: it was ended by SIGKILL before it was ready"):
        new_sandbox().start()
    assert calls["n"] == 3


def test_a_worker_starts_and_runs_when_the_process_holds_over_a_thousand_descriptors(new_sandbox):
    """select() cannot watch a descriptor numbered 1024 or above (ValueError): the reply pipe read
    as ended at once, and the worker was killed before it was ready, three starts in a row. A long
    test suite, or a server that has opened many files and sockets, gets such numbers."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("the process may not hold 1,200 descriptors")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        sb = new_sandbox()
        assert sb.run("result = int(df['a'].sum())").result == '3'
        assert sb._state["worker"].reply_r >= 1024  # the reply pipe is above select()'s range
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_second_start_reads_matplotlibs_cache_under_a_home_closed_to_others(new_sandbox, tmp_path):
    """The home is 0700 (as /root is). The first start builds the font cache before it is confined;
    a later one imports matplotlib confined, under its own uid. access() checks the real uid
    without capabilities, so it said the cache dir could not be written: matplotlib made a
    temporary one and printed a warning, which landed in whatever cell was running."""
    tmp_path.chmod(0o700)
    first = new_sandbox()
    first.start()
    if not first.isolation.features.get("own_uid"):
        pytest.skip("the worker keeps the user's uid here: access() answers for it")
    assert first.run("import matplotlib.font_manager\nresult = 'ok'").result == "ok"
    first.close()
    mpl_dir = (tmp_path / "home" / "cache" / "matplotlib").resolve()
    assert any(mpl_dir.glob("fontlist-*.json"))
    res = new_sandbox().run("import matplotlib.pyplot\nresult = matplotlib.get_cachedir()")
    assert res.result == str(mpl_dir)
    assert res.stdout == ""
