"""Every limit and every confinement promise is breached here, and the Sandbox survives it."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import socket
import sys
from pathlib import Path

import pytest

from dsagent.sandbox import Sandbox

from .conftest import SECRET, TEST_LIMITS, assert_recovers, require


def test_isolation_is_full_here(sandbox: Sandbox) -> None:
    iso = sandbox.isolation
    assert iso.features["env_scrubbed"]
    if not all(iso.features.get(f) for f in ("netns", "landlock_fs", "landlock_net", "seccomp", "memory_cgroup")):
        pytest.skip(f"this machine offers less confinement: {iso.describe()}")
    assert iso.level == "full", iso.describe()


@pytest.mark.parametrize(
    "code",
    [
        "b = bytearray(2 * 1024**3)",
        "a = np.ones(300_000_000)",
        "a = np.ones(80_000_000)",  # 640 MB: under RLIMIT_AS, so the cgroup (or polling) must stop it
    ],
    ids=["bytearray-2GB", "numpy-2.4GB", "numpy-640MB-touched"],
)
def test_memory_limit(sandbox: Sandbox, code: str) -> None:
    restarts = sandbox.restarts
    # The memory limit must trip, not the wall limit: touching 640 MB can take over 3 s on a busy machine.
    res = sandbox.run(code, dataclasses.replace(TEST_LIMITS, wall_s=60.0))
    assert not res.success
    assert res.limit_breached == "memory", res.error
    assert "Memory limit exceeded" in res.error and f"{TEST_LIMITS.memory_mb} MB" in res.error
    assert "state was reset" in res.error
    assert sandbox.restarts == restarts + 1
    assert_recovers(sandbox)


@pytest.mark.parametrize("code", ["while True: pass", "import time\ntime.sleep(30)"], ids=["busy", "sleep"])
def test_wall_time_limit(sandbox: Sandbox, code: str) -> None:
    res = sandbox.run(code)
    assert not res.success and res.limit_breached == "wall_time"
    assert f"after {TEST_LIMITS.wall_s:g} s" in res.error and "state was reset" in res.error
    assert res.duration_s < TEST_LIMITS.wall_s + 1.5
    assert_recovers(sandbox)


def test_output_limit(sandbox: Sandbox) -> None:
    res = sandbox.run("for i in range(10**6):\n    try:\n        print('x' * 100)\n    except Exception:\n        pass")
    assert not res.success and res.limit_breached == "output"
    assert f"more than {TEST_LIMITS.output_kb} KB" in res.error
    assert len(res.stdout.encode()) <= TEST_LIMITS.output_kb * 1024
    assert_recovers(sandbox)


def test_reading_etc_passwd_fails(sandbox: Sandbox) -> None:
    require(sandbox, "landlock_fs")
    res = sandbox.run("result = open('/etc/passwd').read()")
    assert not res.success and "PermissionError" in res.error
    assert_recovers(sandbox)


def test_source_files_are_read_only(sandbox: Sandbox, source_file: Path) -> None:
    require(sandbox, "landlock_fs")
    before = hashlib.sha256(source_file.read_bytes()).hexdigest()
    assert sandbox.run(f"result = open({str(source_file)!r}).read()").result.startswith("region,amount")
    for code in (
        f"open({str(source_file)!r}, 'w').write('gone')",
        f"open({str(source_file)!r}, 'a').write('more')",
        f"import os; os.remove({str(source_file)!r})",
        f"df.to_csv({str(source_file)!r})",
    ):
        res = sandbox.run(code)
        assert not res.success and "PermissionError" in res.error, code
    assert hashlib.sha256(source_file.read_bytes()).hexdigest() == before


def test_writing_outside_the_workspace_fails(sandbox: Sandbox, tmp_path: Path) -> None:
    require(sandbox, "landlock_fs")
    target = tmp_path / "escape.txt"
    for path in ("/tmp/dsagent-escape.txt", str(target)):
        res = sandbox.run(f"open({path!r}, 'w').write('x')")
        assert not res.success and "PermissionError" in res.error
    assert not target.exists() and not Path("/tmp/dsagent-escape.txt").exists()
    res = sandbox.run("open('inside.txt', 'w').write('ok'); result = open('inside.txt').read()")
    assert res.result == "ok" and (sandbox.sandbox_dir / "inside.txt").exists()


def test_tcp_to_localhost_fails(sandbox: Sandbox) -> None:
    require(sandbox, "netns")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        res = sandbox.run(
            f"import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(('127.0.0.1', {port}))"
        )
    assert not res.success
    assert any(e in res.error for e in ("PermissionError", "ConnectionRefusedError", "OSError", "unreachable"))
    assert_recovers(sandbox)


def test_odd_socket_families_are_denied(sandbox: Sandbox) -> None:
    require(sandbox, "seccomp")
    res = sandbox.run("import socket\nsocket.socket(socket.AF_PACKET, socket.SOCK_RAW)")
    assert not res.success and "PermissionError" in res.error
    res = sandbox.run("import socket\nsocket.socket(40, socket.SOCK_STREAM)")  # AF_VSOCK
    assert not res.success and "PermissionError" in res.error


def test_no_new_processes(sandbox: Sandbox) -> None:
    require(sandbox, "seccomp")
    res = sandbox.run("import os\nresult = os.system('echo hi')")
    assert res.stdout == "" and res.result != "0"
    res = sandbox.run("import subprocess\nsubprocess.run(['true'])")
    assert not res.success and "PermissionError" in res.error
    res = sandbox.run("import os\nos.fork()")
    assert not res.success and "PermissionError" in res.error
    res = sandbox.run("import threading\nt = threading.Thread(target=lambda: None)\nt.start(); t.join(); result = 'threads ok'")
    assert res.result == "threads ok"


def test_rlimits_cannot_be_raised(sandbox: Sandbox) -> None:
    require(sandbox, "seccomp")
    res = sandbox.run(
        "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))"
    )
    assert not res.success and ("PermissionError" in res.error or "not allowed" in res.error)
    res = sandbox.run("import resource\nresult = resource.getrlimit(resource.RLIMIT_FSIZE)[0]")
    assert res.result == str(TEST_LIMITS.file_mb * 1024 * 1024)


def test_file_size_limit(sandbox: Sandbox) -> None:
    res = sandbox.run(f"open('big.bin', 'wb').write(b'x' * {(TEST_LIMITS.file_mb + 1) * 1024 * 1024})")
    assert not res.success and "File too large" in res.error
    (sandbox.sandbox_dir / "big.bin").unlink(missing_ok=True)


def test_environment_is_scrubbed(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("SOME_SERVICE_TOKEN", SECRET)
    # A breach restarts the worker: the new one is launched while the keys are set here.
    assert sandbox.run("print('x' * 40_000)").limit_breached == "output"
    res = sandbox.run("import os\nresult = (os.environ.get('OPENAI_API_KEY'), sorted(k for k in os.environ if 'KEY' in k or 'TOKEN' in k))")
    assert res.result == "(None, [])"
    res = sandbox.run("result = open('/proc/self/environ', 'rb').read().decode()")
    assert res.success and SECRET not in res.result and "OPENAI" not in res.result


def test_parent_environ_is_unreadable(sandbox: Sandbox) -> None:
    require(sandbox, "landlock_fs")
    res = sandbox.run(f"result = open('/proc/{os.getpid()}/environ', 'rb').read()")
    assert not res.success and "PermissionError" in res.error
    res = sandbox.run("import os\nresult = open(f'/proc/{os.getppid()}/environ', 'rb').read()")
    assert not res.success and "PermissionError" in res.error


def test_close_removes_private_data(tmp_path: Path) -> None:
    if sys.platform != "linux":
        pytest.skip("Linux only")
    import pandas as pd

    sb = Sandbox(tmp_path / "ws", {"a": pd.DataFrame({"x": [1]}), "b": pd.DataFrame({"y": [2]})}, TEST_LIMITS,
                 cache_dir=tmp_path / "cache", preload=False)
    with sb:
        res = sb.run("result = sorted(datasets) + ['df' in dir()]")
        assert res.result == "['a', 'b', False]"
        data_dir = sb._state["data_dir"]
        group = sb._state["cgroup"]
        assert data_dir.exists() and not str(data_dir).startswith(str(sb.workspace))
    assert not data_dir.exists()
    if group is not None:
        assert not group.path.exists()
