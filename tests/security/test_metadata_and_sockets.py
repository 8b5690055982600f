"""Findings 2 and 3: metadata of files outside the workspace (mode, times, owner, xattrs, setuid)
must not change, and Unix sockets on paths outside the workspace are unreachable both ways."""

from __future__ import annotations

import os
import socket
import stat
import threading
from pathlib import Path

import pytest


def _attack_metadata(target_file: Path, target_dir: Path) -> str:
    return f"""
import os
done = []
f, d = {str(target_file)!r}, {str(target_dir)!r}
for name, call in [
    ("chmod", lambda: os.chmod(f, 0o777)),
    ("setuid", lambda: os.chmod(f, 0o4777)),
    ("chmod_dir", lambda: os.chmod(d, 0)),
    ("utime", lambda: os.utime(f, (0, 0))),
    ("chown", lambda: os.chown(f, 12345, 12345)),
    ("lchown", lambda: os.lchown(f, 12345, 12345)),
    ("setxattr", lambda: os.setxattr(f, "user.dsagent", b"pwned")),
    ("setxattr_trusted", lambda: os.setxattr(f, "trusted.dsagent", b"pwned")),
]:
    try:
        call()
        done.append(name)
    except OSError:
        pass
result = done
"""


def _snapshot(path: Path) -> tuple:
    st = os.lstat(path)
    try:
        xattrs = sorted(os.listxattr(path))
    except OSError:
        xattrs = []
    return (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, st.st_mtime_ns, xattrs)


def test_metadata_outside_the_workspace_cannot_change(make_sandbox, outside: Path) -> None:
    victim = outside / "data.csv"
    victim.write_text("a,b\n1,2\n")
    folder = outside / "folder"
    folder.mkdir()
    before = (_snapshot(victim), _snapshot(folder))
    box = make_sandbox(source_files=[victim])
    res = box.run(_attack_metadata(victim, folder))
    after = (_snapshot(victim), _snapshot(folder))
    assert res.success, res.error
    assert after == before, f"metadata changed: {res.result}"
    assert res.result == "[]", f"calls that succeeded: {res.result}"


def test_metadata_inside_the_workspace_is_denied_too(make_sandbox) -> None:
    """seccomp refuses the chmod/chown/utime/xattr families, so the rule also holds when dsagent
    runs as an ordinary user (the worker then has the user's uid and owns the user's files)."""
    box = make_sandbox()
    res = box.run("open('mine.txt', 'w').write('x')\n" + _attack_metadata(Path("mine.txt"), Path(".")))
    assert res.success, res.error
    assert res.result == "[]", f"calls that succeeded: {res.result}"


def test_worker_has_no_root_powers(make_sandbox) -> None:
    if os.geteuid() != 0:
        pytest.skip("dsagent is not root here: the worker has the user's uid")
    box = make_sandbox()
    res = box.run("import os\nresult = (os.getuid(), os.geteuid(), open('/proc/self/status').read().split('CapEff:')[1].split()[0])")
    assert res.success, res.error
    uid, euid, cap_eff = eval(res.result)  # noqa: S307 - our own tuple of ints and a hex string
    assert uid != 0 and euid != 0
    assert int(cap_eff, 16) & ~(1 << 2) == 0, f"capabilities beyond CAP_DAC_READ_SEARCH: {cap_eff}"


def test_unix_socket_outside_is_unreachable(make_sandbox, outside: Path) -> None:
    path = outside / "agent.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    server.settimeout(6)
    accepted: list[bytes] = []

    def accept() -> None:
        try:
            conn, _ = server.accept()
            accepted.append(conn.recv(100))
            conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    box = make_sandbox()
    res = box.run(
        "import socket\n"
        "try:\n"
        "    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        f"    s.connect({str(path)!r}); s.sendall(b'from the sandbox'); result = 'connected'\n"
        "except OSError as exc:\n"
        "    result = f'blocked: {exc}'\n"
    )
    server.close()
    thread.join(7)
    assert res.success, res.error
    assert accepted == [] and res.result.startswith("blocked"), res.result


def test_unix_socket_bound_by_the_code_is_unreachable(make_sandbox) -> None:
    box = make_sandbox()
    res = box.run(
        "import socket, os\n"
        "try:\n"
        "    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        "    s.bind('listen.sock'); s.listen(1); result = os.path.abspath('listen.sock')\n"
        "except OSError as exc:\n"
        "    result = 'blocked'\n"
    )
    assert res.success, res.error
    if res.result != "blocked":
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(2)
        with pytest.raises(OSError):
            client.connect(res.result)
            client.close()
            raise AssertionError("connected to the sandbox's socket")  # pragma: no cover
    # socketpair (used inside libraries) still works
    pair = box.run("import socket\na, b = socket.socketpair()\na.sendall(b'ok')\nresult = b.recv(2).decode()")
    assert pair.success and pair.result == "ok", pair.error
