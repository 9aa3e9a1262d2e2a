"""Landlock: a worker confines its own file-system access, TCP and IPC, with no privilege.

Landlock is an unprivileged Linux security module: a process may restrict itself (and every
child it will have) without CAP_SYS_ADMIN and without namespaces, so it works inside Docker,
Kubernetes and Gradescope. Restrictions can only be tightened, never lifted.

The worker calls ``restrict`` after fork, after dropping to its own uid and before any student
code runs. Constants and struct layouts follow the kernel's ``include/uapi/linux/landlock.h``
and ``samples/landlock/sandboxer.c``; the ABI history (Documentation/userspace-api/landlock.rst):
    ABI 1 (5.13) file-system rights 0-12   ABI 2 (5.19) REFER         ABI 3 (6.2) TRUNCATE
    ABI 4 (6.7)  TCP bind/connect          ABI 5 (6.10) IOCTL_DEV     ABI 6 (6.12) scoping
    ABI 7 (6.15) audit flags only (nothing to handle here).

What Landlock does not do (handled elsewhere): descriptors opened before ``restrict`` keep their
access (the worker closes every other descriptor first); stat/chmod/chdir on paths are not
restricted; connect() to a pathname UNIX socket is not restricted before ABI 9 (the secrets are
no sockets); UDP is not restricted (the seccomp filter refuses inet sockets). Before ABI 8 the
domain covers the calling thread only, so ``restrict`` refuses to run with several threads.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import stat

# x86_64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl, asm/unistd_64.h).
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
PR_SET_NO_NEW_PRIVS = 38

LANDLOCK_CREATE_RULESET_VERSION = 1 << 0
LANDLOCK_RULE_PATH_BENEATH = 1

# Filesystem access rights (handled_access_fs / allowed_access).
FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
FS_REMOVE_DIR = 1 << 4
FS_REMOVE_FILE = 1 << 5
FS_MAKE_CHAR = 1 << 6
FS_MAKE_DIR = 1 << 7
FS_MAKE_REG = 1 << 8
FS_MAKE_SOCK = 1 << 9
FS_MAKE_FIFO = 1 << 10
FS_MAKE_BLOCK = 1 << 11
FS_MAKE_SYM = 1 << 12
FS_REFER = 1 << 13  # ABI 2: link/rename across directories
FS_TRUNCATE = 1 << 14  # ABI 3
FS_IOCTL_DEV = 1 << 15  # ABI 5: ioctl() on char/block devices opened after restrict()

# Network access rights (ABI 4, handled_access_net / landlock_net_port_attr).
NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1

# IPC scopes (ABI 6, `scoped`): deny these towards processes outside our Landlock domain.
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1

_FS_ABI1 = (1 << 13) - 1  # bits 0..12
# Only these rights make sense on a non-directory; add_rule() fails with EINVAL otherwise.
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
# "Read-only" = read files, list directories, execute (we must be able to run /bin/*, .so files).
_READ_RIGHTS = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR


class _RulesetAttr(ctypes.Structure):
    # Grows with the ABI; we pass the size the running ABI knows (8, 16 or 24 bytes).
    _fields_ = [("handled_access_fs", ctypes.c_uint64),
                ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # __attribute__((packed)) in the uapi header: sizeof == 12, not 16
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


if ctypes.sizeof(_PathBeneathAttr) != 12 or ctypes.sizeof(_RulesetAttr) != 24:
    raise ImportError("landlock: unexpected struct layout")

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _syscall(nr: int, *args) -> int:
    """syscall(2) with every argument already a ctypes object; raises OSError on -1."""
    ret = _libc.syscall(ctypes.c_long(nr), *args)
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return ret


def _version_query(flag: int) -> int:
    return _syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(flag))


def abi_version() -> int:
    """Highest Landlock ABI the kernel supports; 0 if not built in (ENOSYS) or disabled (EOPNOTSUPP)."""
    try:
        return _version_query(LANDLOCK_CREATE_RULESET_VERSION)
    except OSError:
        return 0


def handled_fs_rights(abi: int) -> int:
    """All filesystem rights the given ABI knows (handling an unknown bit is EINVAL)."""
    rights = _FS_ABI1 if abi >= 1 else 0
    if abi >= 2:
        rights |= FS_REFER
    if abi >= 3:
        rights |= FS_TRUNCATE
    if abi >= 5:
        rights |= FS_IOCTL_DEV
    return rights


@dataclasses.dataclass
class LandlockReport:
    """What ``restrict`` applied: the ABI used (0: Landlock unavailable, nothing applied), whether
    file-system rules, the TCP ban and the IPC scoping are enforced, and the paths it skipped."""

    abi: int
    fs: bool = False
    net: bool = False
    scope: bool = False
    skipped: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def _thread_count() -> int:
    return len(os.listdir("/proc/self/task"))


def restrict(read_only: list[str], read_write: list[str], *, devices: list[str] = (),
             allow_tcp: bool = False) -> LandlockReport:
    """Confine this process (and its future children) with Landlock, best effort per ABI.

    read_only:  paths beneath which reading files, listing dirs and executing is allowed.
    read_write: paths beneath which every filesystem right is allowed (files get file rights).
    devices:    device nodes that may be opened for reading and writing and driven with ioctls
                (the NVIDIA driver's, for a CUDA worker); every other device may only be read.
    allow_tcp:  if False (default) and ABI >= 4, *all* TCP bind() and connect() are denied.
    Everything else on the filesystem is denied (reads included).  On ABI >= 6 the process
    also cannot signal, or connect to abstract UNIX sockets of, processes outside its domain.

    Paths that do not exist (or that we cannot even reach) are skipped and listed in the
    report.  Returns a report with abi == 0 and no side effect if Landlock is unavailable.
    Raises OSError if a Landlock syscall fails, RuntimeError if called with several threads.
    Sets PR_SET_NO_NEW_PRIVS (irreversible), which landlock_restrict_self() requires unless
    the caller has CAP_SYS_ADMIN.
    """
    abi = abi_version()
    report = LandlockReport(abi=abi)
    if abi < 1:
        return report
    if _thread_count() != 1:
        # landlock_restrict_self() only restricts the calling thread (TSYNC needs ABI 8);
        # an unrestricted sibling thread would be an escape hatch for student code.
        raise RuntimeError("landlock.restrict() must be called while single-threaded")
    attr = _RulesetAttr(handled_access_fs=handled_fs_rights(abi))
    if abi >= 4 and not allow_tcp:
        # Handled with no NET_PORT rule at all => no port may be bound or connected to.
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
    if abi >= 6:
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    # Older kernels reject a bigger struct whose unknown tail is nonzero (E2BIG); pass exactly
    # the part this ABI knows: 1 field before ABI 4, 2 before ABI 6, 3 from ABI 6.
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8

    ruleset_fd = _syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr),
                          ctypes.c_size_t(size), ctypes.c_uint32(0))
    try:
        device_rights = FS_READ_FILE | FS_WRITE_FILE | (FS_IOCTL_DEV if abi >= 5 else 0)
        for paths, rights in ((read_only, _READ_RIGHTS), (read_write, attr.handled_access_fs),
                              (devices, device_rights)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError as e:  # ENOENT, ENOTDIR, EACCES (unreachable for us anyway)
                    report.skipped.append((path, e.strerror))
                    continue
                try:
                    allowed = rights
                    if not stat.S_ISDIR(os.fstat(fd).st_mode):
                        allowed &= _FILE_RIGHTS  # directory-only rights on a file => EINVAL
                    rule = _PathBeneathAttr(allowed_access=allowed, parent_fd=fd)
                    _syscall(SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset_fd),
                             ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH), ctypes.byref(rule),
                             ctypes.c_uint32(0))
                finally:
                    os.close(fd)
        # Required for unprivileged callers (else EPERM); also stops setuid binaries from
        # regaining privileges.  Inherited by children, cannot be unset.
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, *map(ctypes.c_ulong, (1, 0, 0, 0))) != 0:
            err = ctypes.get_errno()
            raise OSError(err, "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(err))
        _syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset_fd), ctypes.c_uint32(0))
    finally:
        os.close(ruleset_fd)
    report.fs = True
    report.net = attr.handled_access_net != 0
    report.scope = attr.scoped != 0
    return report
