"""The worker confines itself: private network namespace, Landlock, no capabilities, seccomp.

Each step is detected at runtime and reported instead of failing, so the worker still runs (less
confined) on a laptop, as non-root or on macOS. The parent turns the report into ``Isolation``.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import resource
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dsagent.sandbox import landlock

try:  # imported before confinement: finding libseccomp runs ldconfig, which seccomp then forbids
    import pyseccomp
except (ImportError, RuntimeError, OSError) as _exc:
    pyseccomp = None
    _SECCOMP_IMPORT_ERROR = str(_exc)

_CLONE_NEWNET = 0x40000000
_CLONE_NEWUSER = 0x10000000
_CLONE_THREAD = 0x00010000
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
_PR_SET_PDEATHSIG, _PR_SET_KEEPCAPS = 1, 8
_CAP_VERSION_3 = 0x20080522
_CAP_DAC_READ_SEARCH = 2
_LAST_CAP = 63
_LIBRARIES_VM_MB, _AS_SLACK_MB = 1024, 512  # as manager.py's _ALL_LIBRARIES_VM_MB and _AS_SLACK_MB

# Families a Python data stack may touch; namespaces and Landlock stop real traffic for these.
# Everything else (vsock, packet, …) is denied: a network namespace does not isolate vsock.
# AF_UNIX is denied too: a socket on a path outside the workspace would reach (or be reached by)
# processes outside; socketpair() (a separate syscall, used by libraries) stays allowed.
_ALLOWED_SOCKET_FAMILIES = {2, 10, 16}  # AF_INET, AF_INET6, AF_NETLINK
_DENIED_SYSCALLS = (
    "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "bpf", "perf_event_open",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "keyctl", "add_key", "request_key", "userfaultfd",
    "open_by_handle_at", "name_to_handle_at", "iopl", "ioperm",
    # Landlock has no right for metadata: no mode, owner, times or xattrs on any file (this also
    # holds when dsagent is not root and the worker owns the user's files); no hard links.
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
    "utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
    "setxattrat", "removexattr", "lremovexattr", "fremovexattr", "removexattrat", "link", "linkat",
)


@dataclass
class ConfinementReport:
    features: dict[str, bool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def enter_network_namespace(report: ConfinementReport) -> None:
    """Run before anything else: unshare needs the capabilities that are dropped later."""
    if platform.system() != "Linux":
        report.features["netns"] = False
        report.notes.append("network namespace: not Linux")
        return
    libc = _libc()
    if libc.unshare(_CLONE_NEWNET) == 0:
        report.features["netns"] = True
        return
    first = ctypes.get_errno()
    # Non-root: a user namespace grants CLONE_NEWNET; map our own ids so files keep their owner.
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) == 0:
        try:
            Path("/proc/self/setgroups").write_text("deny")
            Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
            Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1")
        except OSError as exc:
            report.notes.append(f"user namespace id map failed: {exc}")
        report.features["netns"] = True
        return
    report.features["netns"] = False
    report.notes.append(f"network namespace unavailable: {os.strerror(first)}")


def set_parent_death_signal(parent_pid: int) -> None:
    """The worker dies with dsagent (SIGKILL when its spawning thread ends); the kernel clears
    this on a change of uid, so it is set again after :func:`switch_user`."""
    if platform.system() != "Linux":
        return
    _libc().prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)
    if os.getppid() != parent_pid:  # dsagent died before the signal was armed
        os._exit(1)


def set_hard_limits(file_mb: int, memory_mb: int) -> None:
    """Hard rlimits for the worker's whole life, set by itself: a parent without CAP_SYS_RESOURCE
    cannot prlimit a worker of another uid. Files up to ``file_mb``; address space for what is
    loaded now, every library still to come and the memory limit (the cgroup holds resident
    memory; this turns a huge allocation into a MemoryError)."""
    mb = 1024 * 1024
    vm_kb = 0
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                vm_kb = int(line.split()[1])
    except (OSError, ValueError):
        return
    address_space = vm_kb * 1024 + (_LIBRARIES_VM_MB + memory_mb + _AS_SLACK_MB) * mb
    for which, value in ((resource.RLIMIT_FSIZE, file_mb * mb), (resource.RLIMIT_AS, address_space)):
        soft, hard = resource.getrlimit(which)
        if hard == resource.RLIM_INFINITY or value < hard:
            resource.setrlimit(which, (value, value))


def switch_user(uid: int | None, report: ConfinementReport) -> None:
    """Give up root: a uid of its own owns none of the user's files, so modes, times, owners and
    xattrs outside cannot change. Only CAP_DAC_READ_SEARCH survives (drop_capabilities), so the
    interpreter stays readable where it lives under a 0700 home (SANDBOX-NOTES trap 9)."""
    if uid is None or platform.system() != "Linux":
        report.features["own_uid"] = False
        report.notes.append("own uid: dsagent is not root, so the worker keeps the user's uid "
                            "(seccomp still refuses chmod, chown, utime and xattrs)")
        return
    libc = _libc()
    libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0)
    try:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    except OSError as exc:
        report.features["own_uid"] = False
        report.notes.append(f"own uid: could not switch to uid {uid}: {exc.strerror}")
        return
    finally:
        libc.prctl(_PR_SET_KEEPCAPS, 0, 0, 0, 0)
    report.features["own_uid"] = True
    _answer_access_for_effective_ids()


def _answer_access_for_effective_ids() -> None:
    """``os.access`` asks as the effective uid with its capabilities, as ``open`` does.

    Plain access() checks the real uid and leaves capabilities out, so under a 0700 home (as
    /root is) it says no to a directory this worker reads through CAP_DAC_READ_SEARCH. Matplotlib
    asks it of its cache dir, then made a temporary one and printed a warning into the running
    cell. Landlock is not asked by either form; it still refuses what it refuses."""
    real = os.access

    def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):  # noqa: ANN001, ANN202
        return real(path, mode, dir_fd=dir_fd, effective_ids=True, follow_symlinks=follow_symlinks)

    os.access = access


def drop_capabilities(report: ConfinementReport) -> None:
    """No capability but CAP_DAC_READ_SEARCH, and that one only after a switch to an own uid:
    the worker cannot raise rlimits, load modules, mount, chown or override file modes."""
    if platform.system() != "Linux":
        report.features["caps_dropped"] = False
        return
    libc = _libc()
    keep = 1 << _CAP_DAC_READ_SEARCH if report.features.get("own_uid") else 0
    for cap in range(_LAST_CAP + 1):
        if not keep >> cap & 1:
            libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    data = (Data * 2)()
    data[0].effective = data[0].permitted = keep
    ok = libc.capset(ctypes.byref(Header(_CAP_VERSION_3, 0)), data) == 0
    report.features["caps_dropped"] = ok
    if not ok:
        report.notes.append(f"capset failed: {os.strerror(ctypes.get_errno())}")


def apply_seccomp(report: ConfinementReport) -> None:
    """Default allow; deny new programs and processes (threads stay allowed) and odd sockets."""
    sc = pyseccomp
    if sc is None:
        report.features["seccomp"] = False
        report.notes.append(f"seccomp unavailable: {_SECCOMP_IMPORT_ERROR}")
        return
    eperm = sc.ERRNO(errno.EPERM)
    try:
        filt = sc.SyscallFilter(sc.ALLOW)
        try:
            filt.set_attr(sc.Attr.CTL_TSYNC, 1)  # also filter BLAS threads started during imports
        except OSError:
            pass
        for name in _DENIED_SYSCALLS:
            try:
                filt.add_rule(eperm, name)
            except OSError:
                pass  # not a syscall on this architecture (fork on aarch64, iopl on arm)
        filt.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))
        # The parent sets soft rlimits per run; the code may read them but not raise them.
        filt.add_rule(eperm, "setrlimit")
        filt.add_rule(eperm, "prlimit64", sc.Arg(2, sc.NE, 0))
        # The parent-death signal stays as set: the worker cannot outlive dsagent.
        filt.add_rule(eperm, "prctl", sc.Arg(0, sc.EQ, _PR_SET_PDEATHSIG))
        # glibc tries clone3 first; ENOSYS makes it fall back to clone, whose flags we can see.
        filt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
        for family in range(64):
            if family not in _ALLOWED_SOCKET_FAMILIES:
                filt.add_rule(eperm, "socket", sc.Arg(0, sc.EQ, family))
        filt.add_rule(eperm, "socket", sc.Arg(0, sc.GE, 64))
        filt.load()
    except OSError as exc:
        report.features["seccomp"] = False
        report.notes.append(f"seccomp filter failed: {exc}")
        return
    report.features["seccomp"] = True


def python_paths() -> list[str]:
    """Everything the interpreter may import from, including an editable dsagent checkout."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    paths.update(p for p in sys.path if p and os.path.exists(p))
    return sorted(paths)


def _cgroup_limit_files() -> list[str]:
    """The CPU quota and memory limit files of this process's cgroup, which DuckDB (``sql()``)
    reads when it starts; files missing on this machine are skipped by Landlock."""
    files = ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us", "/sys/fs/cgroup/cpu.max"]
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return files
    for line in lines:
        _, controllers, group = (line.split(":", 2) + ["", ""])[:3]
        if "memory" in controllers.split(","):
            files.append(f"/sys/fs/cgroup/memory{group}/memory.limit_in_bytes")
        elif controllers == "":
            files += [f"/sys/fs/cgroup{group}/memory.max", f"/sys/fs/cgroup{group}/cpu.max"]
    return files


def confine(
    workspace: str, data_dir: str, mpl_dir: str, read_files: Sequence[str], report: ConfinementReport,
    uid: int | None = None, parent_pid: int | None = None, hard_limits: dict[str, int] | None = None,
) -> None:
    """Landlock, an own uid, capabilities and seccomp, in that order (seccomp last: it denies
    ``unshare``). ``workspace`` is the code's own directory: the only one it may write."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if platform.system() != "Linux":
        report.features.update(landlock_fs=False, landlock_net=False, seccomp=False, own_uid=False)
        report.notes.append("not Linux: no Landlock or seccomp")
        return
    system = ["/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/usr/share",
              "/sys/devices/system/cpu", f"/proc/{os.getpid()}"]
    etc = ["/etc/localtime", "/etc/ld.so.cache", "/etc/timezone", "/etc/mime.types"]
    cgroup_limits = _cgroup_limit_files()
    outcome = landlock.restrict_self(
        read=python_paths() + system + [data_dir, mpl_dir],
        write=[workspace],
        read_files=list(read_files) + etc + cgroup_limits + ["/dev/urandom", "/dev/random"],
        devices=["/dev/null", "/dev/zero"],
    )
    report.features["landlock_fs"] = outcome.fs
    report.features["landlock_net"] = outcome.net
    report.features["landlock_scope"] = outcome.scoped
    report.notes.extend(outcome.notes)
    if outcome.fs:
        report.notes.append(f"Landlock ABI {outcome.abi}")
    if hard_limits:
        set_hard_limits(hard_limits["file_mb"], hard_limits["memory_mb"])
    switch_user(uid, report)
    drop_capabilities(report)
    if parent_pid is not None:
        set_parent_death_signal(parent_pid)
    apply_seccomp(report)
