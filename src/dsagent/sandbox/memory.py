"""Memory of the worker: a cgroup (v1 or v2) when the OS lets us make one, /proc readings always.

The cgroup enforces the limit in the kernel. /proc is polled anyway (SANDBOX-NOTES trap 7): it
gives the peak, notices an OOM kill and, without a cgroup, is the enforcement itself.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

_V1_ROOT = Path("/sys/fs/cgroup/memory")
_V2_CANDIDATES = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))
MB = 1024 * 1024


def read_status(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM, VmSize… of ``pid`` in kB; empty once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    values = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key.startswith("Vm") and rest.strip().endswith("kB"):
            values[key] = int(rest.split()[0])
    return values


def reset_peak(pid: int) -> bool:
    """Reset VmHWM so that it measures the coming run only (Linux ≥ 4.0)."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class MemoryCgroup:
    """One cgroup per Sandbox holding the worker; reused across restarts, removed at close."""

    def __init__(self, path: Path, version: int) -> None:
        self.path = path
        self.version = version

    @classmethod
    def create(cls) -> tuple["MemoryCgroup | None", str]:
        """A fresh cgroup, or None and the reason it could not be made."""
        name = f"dsagent-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        reasons = []
        for parent in _v1_parents():
            try:
                path = parent / name
                path.mkdir()
                group = cls(path, 1)
                group._write("memory.move_charge_at_immigrate", "3", required=False)
                return group, ""
            except OSError as exc:
                reasons.append(f"cgroup v1 {parent}: {exc.strerror}")
        for root in _V2_CANDIDATES:
            try:
                if "memory" not in (root / "cgroup.controllers").read_text().split():
                    continue
                if "memory" not in (root / "cgroup.subtree_control").read_text().split():
                    (root / "cgroup.subtree_control").write_text("+memory")
                path = root / name
                path.mkdir()
                group = cls(path, 2)
                group._write("memory.swap.max", "0", required=False)
                return group, ""
            except OSError as exc:
                reasons.append(f"cgroup v2 {root}: {exc.strerror}")
        return None, "; ".join(reasons) or "no writable memory cgroup"

    def _write(self, name: str, value: str, required: bool = True) -> None:
        try:
            (self.path / name).write_text(value)
        except OSError:
            if required:
                raise

    def _read(self, name: str) -> str:
        try:
            return (self.path / name).read_text()
        except OSError:
            return ""

    def add(self, pid: int) -> None:
        self._write("cgroup.procs", str(pid))

    def set_limit(self, limit_bytes: int) -> bool:
        """A negative limit means none."""
        try:
            if self.version == 1:
                # memsw must stay ≥ the plain limit, so order the two writes by direction.
                current = int(self._read("memory.limit_in_bytes") or 0)
                raising = limit_bytes < 0 or limit_bytes > current
                value = "-1" if limit_bytes < 0 else str(limit_bytes)
                files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
                for name in reversed(files) if raising else files:
                    self._write(name, value, required=name == files[0])
            else:
                self._write("memory.max", "max" if limit_bytes < 0 else str(limit_bytes))
            return True
        except OSError:
            return False

    def oom_kills(self) -> int:
        text = self._read("memory.oom_control" if self.version == 1 else "memory.events")
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def remove(self) -> None:
        """Only after the worker has exited (trap 10); the kernel may need a moment."""
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)


def _v1_parents() -> list[Path]:
    if not _V1_ROOT.is_dir():
        return []
    parents = []
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if "memory" in controllers.split(","):
                parents.append(_V1_ROOT / path.lstrip("/"))
    except (OSError, ValueError):
        pass
    parents.append(_V1_ROOT)
    return [p for i, p in enumerate(parents) if p.is_dir() and p not in parents[:i]]


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def owner_pid(name: str, prefix: str) -> int | None:
    """The pid in ``<prefix><pid>-…`` (the dsagent process that made it), else None."""
    if not name.startswith(prefix):
        return None
    head = name[len(prefix):].split("-", 1)[0]
    return int(head) if head.isdigit() else None


def remove_stale_cgroups() -> int:
    """Remove the cgroups of dsagent processes that died without cleaning up (kill -9): kill
    what still runs in them, then remove them. Returns how many went."""
    roots = _v1_parents() + [r for r in _V2_CANDIDATES if (r / "cgroup.controllers").exists()]
    removed = 0
    for root in roots:
        try:
            entries = list(root.iterdir())
        except OSError:
            continue
        for path in entries:
            pid = owner_pid(path.name, "dsagent-")
            if pid is None or pid == os.getpid() or pid_alive(pid) or not path.is_dir():
                continue
            group = MemoryCgroup(path, 1 if root in _v1_parents() else 2)
            for line in group._read("cgroup.procs").split():
                try:
                    os.kill(int(line), 9)
                except (OSError, ValueError):
                    pass
            group.remove()
            removed += not path.exists()
    return removed
