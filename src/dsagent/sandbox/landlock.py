"""Landlock through raw syscalls (ctypes): files, TCP and (ABI 6+) signals/abstract sockets.

Detection uses the syscall itself: ``/sys/kernel/security/lsm`` is absent on some kernels that
still enforce Landlock (SANDBOX-NOTES).
"""

from __future__ import annotations

import ctypes
import os
import platform
from collections.abc import Iterable
from dataclasses import dataclass, field

# The new syscalls use the asm-generic numbers on both architectures.
_SYSCALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_ABI1_ALL = (1 << 13) - 1  # EXECUTE … MAKE_SYM
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

READ = EXECUTE | READ_FILE | READ_DIR


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _numbers() -> tuple[int, int, int] | None:
    return _SYSCALLS.get(platform.machine()) if platform.system() == "Linux" else None


def abi_version() -> int:
    """The kernel's Landlock ABI, 0 when Landlock is unavailable."""
    numbers = _numbers()
    if numbers is None:
        return 0
    version = _libc.syscall(
        ctypes.c_long(numbers[0]), ctypes.c_void_p(None), ctypes.c_size_t(0),
        ctypes.c_uint32(_CREATE_RULESET_VERSION),
    )
    return max(int(version), 0)


def set_no_new_privs() -> bool:
    prctl = getattr(_libc, "prctl", None)  # absent on macOS
    return prctl is not None and prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0


@dataclass
class LandlockOutcome:
    abi: int = 0
    fs: bool = False
    net: bool = False
    scoped: bool = False
    notes: list[str] = field(default_factory=list)


def _fs_rights(abi: int) -> int:
    rights = _ABI1_ALL
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def restrict_self(
    read: Iterable[str], write: Iterable[str], read_files: Iterable[str] = (),
    devices: Iterable[str] = (),
) -> LandlockOutcome:
    """Confine this thread (and threads it starts later) to the given paths; deny all TCP.

    ``read`` trees get read+execute (shared libraries are mmapped executable), ``write`` trees
    every right, ``read_files`` read only, ``devices`` read+write. Missing paths are skipped.
    """
    out = LandlockOutcome(abi=abi_version())
    numbers = _numbers()
    if not out.abi or numbers is None:
        out.notes.append("Landlock is not available in this kernel")
        return out
    create, add_rule, restrict = numbers
    handled = _fs_rights(out.abi)
    attr = _RulesetAttr(handled_access_fs=handled)
    size = 8
    if out.abi >= 4:
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
        size = 16
    if out.abi >= 6:
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        size = 24
    ruleset = _libc.syscall(ctypes.c_long(create), ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        out.notes.append(f"landlock_create_ruleset failed: {os.strerror(ctypes.get_errno())}")
        return out
    try:
        plan = [(p, READ) for p in read] + [(p, handled) for p in write]
        plan += [(p, READ_FILE) for p in read_files]
        plan += [(p, READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV) for p in devices]
        for path, rights in plan:
            _add_path_rule(add_rule, ruleset, path, rights & handled, out)
        if not set_no_new_privs():
            out.notes.append("prctl(PR_SET_NO_NEW_PRIVS) failed")
            return out
        if _libc.syscall(ctypes.c_long(restrict), ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            out.notes.append(f"landlock_restrict_self failed: {os.strerror(ctypes.get_errno())}")
            return out
    finally:
        os.close(ruleset)
    out.fs = True
    out.net = out.abi >= 4
    out.scoped = out.abi >= 6
    return out


def _add_path_rule(add_rule: int, ruleset: int, path: str, rights: int, out: LandlockOutcome) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _FILE_ONLY  # directory rights on a file make the kernel answer EINVAL
        rule = _PathBeneathAttr(allowed_access=rights, parent_fd=fd)
        res = _libc.syscall(
            ctypes.c_long(add_rule), ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH),
            ctypes.byref(rule), ctypes.c_uint32(0),
        )
        if res != 0:
            out.notes.append(f"landlock rule for {path} failed: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)
