"""The worker's limits for one cell and between cells: a memory cap (cgroup, or the parent's
polling), RLIMIT_AS, RLIMIT_CPU and RLIMIT_FSIZE, set from the parent (see docs/sandbox.md)."""

from __future__ import annotations

import os
import resource
from typing import Any

from dsagent.sandbox import memory
from dsagent.sandbox.base import Limits

# A cell pauses the background imports, but one may be halfway: allow what the largest adds.
_IMPORT_RSS_MB = 100.0
_IMPORT_VM_MB = 256.0
_AS_SLACK_MB = 512.0  # RLIMIT_AS only turns huge allocations into MemoryError (trap 1)
_CPU_MARGIN_S = 5
# Between cells the worker keeps a memory cap: its libraries (all of them, while the background
# imports run) plus the limit. A thread that outlives its cell meets the same limit.
_ALL_LIBRARIES_MB = 400.0
_ALL_LIBRARIES_VM_MB = 1024.0


def cell_limits(pid: int, limits: Limits, group: Any, baseline_mb: float, status: dict[str, Any]) -> float:
    """Memory cap (cgroup or polling), RLIMIT_AS, RLIMIT_CPU and RLIMIT_FSIZE for one run; returns the cap in MB."""
    allowance = _IMPORT_RSS_MB if status.get("importing") else 0.0
    cap_mb = baseline_mb + status["library_mb"] + allowance + limits.memory_mb
    if group is not None:
        group.set_limit(int(cap_mb * memory.MB))
    if not hasattr(resource, "prlimit"):
        return cap_mb
    vm_mb = memory.read_status(pid).get("VmSize", 0) / 1024
    vm_allowance = _IMPORT_VM_MB if status.get("importing") else 0.0
    address_space = int((vm_mb + limits.memory_mb + vm_allowance + _AS_SLACK_MB) * memory.MB)
    cpu = int(memory.cpu_seconds(pid) + limits.wall_s * (os.cpu_count() or 1)) + _CPU_MARGIN_S
    _prlimit(pid, resource.RLIMIT_AS, address_space)
    _prlimit(pid, resource.RLIMIT_FSIZE, limits.file_mb * memory.MB)
    _prlimit(pid, resource.RLIMIT_CPU, cpu)
    return cap_mb


def idle_limits(pid: int, limits: Limits, group: Any, baseline_mb: float, library_mb: float, warm: bool) -> None:
    """Between cells the cap stays: the libraries (all of them while the background imports
    run) plus the limit, so a thread that outlives its cell cannot grow past it."""
    library_mb = library_mb if warm else max(library_mb, _ALL_LIBRARIES_MB)
    if group is not None:
        group.set_limit(int((baseline_mb + library_mb + limits.memory_mb) * memory.MB))
    if hasattr(resource, "prlimit"):
        vm_mb = memory.read_status(pid).get("VmSize", 0) / 1024
        vm_allowance = 0.0 if warm else _ALL_LIBRARIES_VM_MB
        _prlimit(pid, resource.RLIMIT_AS, int((vm_mb + limits.memory_mb + vm_allowance + _AS_SLACK_MB) * memory.MB))


def _prlimit(pid: int, which: int, soft: int) -> None:
    """Soft limits only: lowering a hard limit could not be undone without CAP_SYS_RESOURCE.

    The worker cannot raise them back: seccomp denies it setrlimit and prlimit64 writes. A soft
    limit above the hard one the worker set at start is clamped to it.
    """
    try:
        hard = resource.prlimit(pid, which)[1]
        resource.prlimit(pid, which, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    except (OSError, ValueError):
        pass  # the worker just exited; the run reports that instead
