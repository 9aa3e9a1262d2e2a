"""A seccomp-BPF filter: the system calls a worker never needs are refused by the kernel.

Landlock confines what a worker may touch; this filter closes what Landlock cannot express and
shrinks the kernel's attack surface: inet sockets, ptrace and process_vm_*, keyrings, namespaces
(unshare, setns, clone with CLONE_NEW*), mounts, bpf, perf, userfaultfd, io_uring, modules,
kexec. Everything else is allowed, so Python, torch on the CPU, threads, fork/exec, pipes,
socketpair and AF_UNIX sockets keep working.

The filter needs no_new_privs (set here), is inherited across fork, clone and execve, and
cannot be removed; SECCOMP_FILTER_FLAG_TSYNC puts it on every thread at once. The program is
classic BPF over ``struct seccomp_data {int nr; u32 arch; u64 instruction_pointer; u64 args[6];}``,
written for x86_64 (``available`` is False elsewhere).
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform

# x86_64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl).
SYS_SECCOMP = 317
SYS_SOCKET = 41
SYS_CLONE = 56
SYS_CLONE3 = 435

# Denied with EPERM whatever their arguments.
DENIED = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
    "kcmp": 312, "pidfd_getfd": 438,                      # peek at other processes
    "add_key": 248, "request_key": 249, "keyctl": 250,    # kernel keyrings (not namespaced)
    "unshare": 272, "setns": 308,                         # namespaces
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "move_mount": 429,
    "open_tree": 428, "mount_setattr": 442, "open_tree_attr": 467,
    "open_by_handle_at": 304, "name_to_handle_at": 303,   # bypass path-based checks
    "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "kexec_load": 246, "kexec_file_load": 320,
    "init_module": 175, "finit_module": 313, "delete_module": 176,
    "swapon": 167, "swapoff": 168, "reboot": 169, "acct": 163,
    "quotactl": 179, "quotactl_fd": 443, "sethostname": 170, "setdomainname": 171,
    "syslog": 103,                                        # kernel log (host information)
}
# Deliberately NOT denied: memfd_create (used by torch/CPython), socketpair, AF_UNIX sockets,
# landlock_* and seccomp itself (they can only add restrictions), prctl.

AF_UNIX = 1
# CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET.  (CLONE_NEWTIME = 0x80 overlaps
# the exit-signal byte of clone(); it can only be requested via clone3/unshare, both denied.)
CLONE_NS_MASK = 0x7E020000

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

SECCOMP_SET_MODE_FILTER = 1
SECCOMP_GET_ACTION_AVAIL = 2
SECCOMP_FILTER_FLAG_TSYNC = 1
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000
PR_SET_NO_NEW_PRIVS = 38
PR_GET_SECCOMP = 21

# Classic BPF opcodes (linux/filter.h, linux/bpf_common.h).
_LD_W_ABS = 0x20   # BPF_LD | BPF_W | BPF_ABS : A = *(u32 *)(data + k)
_JEQ_K = 0x15      # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35      # BPF_JMP | BPF_JGE | BPF_K  (unsigned)
_JSET_K = 0x45     # BPF_JMP | BPF_JSET | BPF_K : A & k != 0
_RET_K = 0x06      # BPF_RET | BPF_K
# Offsets in struct seccomp_data; little-endian, so the low 32 bits of args[0] are at 16.
_OFF_NR, _OFF_ARCH, _OFF_ARG0_LO = 0, 4, 16


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8),
                ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _errno_ret(err: int) -> int:
    return SECCOMP_RET_ERRNO | (err & 0xFFFF)


def build_program() -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) tuples; jt/jf are relative forward jumps."""
    prog = [
        # 1. Wrong architecture (e.g. i386 `int 0x80` from a 64-bit process): syscall numbers
        #    would mean something else, so the deny-list is meaningless -> kill the process.
        (_LD_W_ABS, 0, 0, _OFF_ARCH),
        (_JEQ_K, 1, 0, AUDIT_ARCH_X86_64),
        (_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS),
        # 2. x32 ABI numbers (nr | 0x40000000) would bypass every check below; no honest
        #    x86_64 program uses them.  ENOSYS is what a kernel without x32 says anyway.
        (_LD_W_ABS, 0, 0, _OFF_NR),
        (_JGE_K, 0, 1, X32_SYSCALL_BIT),
        (_RET_K, 0, 0, _errno_ret(errno.ENOSYS)),
    ]

    def on_syscall(nr: int, body: list) -> None:
        # "if (A == nr) { body } else skip body"; every body ends in RET, so A is still nr
        # for the next test when the body is skipped.
        prog.append((_JEQ_K, 0, len(body), nr))
        prog.extend(body)

    for nr in sorted(DENIED.values()):
        on_syscall(nr, [(_RET_K, 0, 0, _errno_ret(errno.EPERM))])
    # clone3 passes its flags in a struct that BPF cannot read: say "not implemented", glibc
    # (pthread_create, posix_spawn, fork) then falls back to clone(), which we can inspect.
    on_syscall(SYS_CLONE3, [(_RET_K, 0, 0, _errno_ret(errno.ENOSYS))])
    # clone(flags, ...): deny any new namespace.  Thread/fork/vfork flags pass.
    on_syscall(SYS_CLONE, [
        (_LD_W_ABS, 0, 0, _OFF_ARG0_LO),
        (_JSET_K, 0, 1, CLONE_NS_MASK),
        (_RET_K, 0, 0, _errno_ret(errno.EPERM)),
        (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
    ])
    # socket(domain, ...): only AF_UNIX.  The kernel reads `domain` as an int, so comparing the
    # low 32 bits is exact.  (socketpair() is a different syscall and stays allowed.)
    on_syscall(SYS_SOCKET, [
        (_LD_W_ABS, 0, 0, _OFF_ARG0_LO),
        (_JEQ_K, 0, 1, AF_UNIX),
        (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
        (_RET_K, 0, 0, _errno_ret(errno.EPERM)),
    ])
    prog.append((_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    return prog


def available() -> bool:
    """True on x86_64 when the kernel supports seccomp filters with the actions this module uses."""
    if platform.machine() != "x86_64":
        return False  # the syscall numbers above are x86_64's
    if _libc.prctl(PR_GET_SECCOMP, *map(ctypes.c_ulong, (0, 0, 0, 0))) < 0:
        return False  # EINVAL: kernel built without CONFIG_SECCOMP
    for action in (SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_ERRNO, SECCOMP_RET_ALLOW):
        act = ctypes.c_uint32(action)
        if _libc.syscall(ctypes.c_long(SYS_SECCOMP), ctypes.c_uint(SECCOMP_GET_ACTION_AVAIL),
                         ctypes.c_uint(0), ctypes.byref(act)) != 0:
            return False
    return True


def install_filter() -> None:
    """Install the filter on every thread of this process (irreversible). Raises OSError."""
    insns = build_program()
    array = (_SockFilter * len(insns))(*[_SockFilter(*i) for i in insns])
    fprog = _SockFprog(len(insns), ctypes.cast(array, ctypes.POINTER(_SockFilter)))
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, *map(ctypes.c_ulong, (1, 0, 0, 0))) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(err))
    ret = _libc.syscall(ctypes.c_long(SYS_SECCOMP), ctypes.c_uint(SECCOMP_SET_MODE_FILTER),
                        ctypes.c_uint(SECCOMP_FILTER_FLAG_TSYNC), ctypes.byref(fprog))
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, "seccomp(SET_MODE_FILTER): " + os.strerror(err))
    if ret > 0:  # TSYNC: ret is the id of a thread that could not be synchronised
        raise OSError(errno.EAGAIN, f"seccomp TSYNC failed for thread {ret}")
