"""Confine a worker process before any student code runs in it.

Layers, strongest available first:
- namespaces: a private mount table that hides the kit, the submissions, the outputs and
  /run (only the Python installation stays visible, read-only), a fresh /tmp, every other
  mount read-only, no network, and a PID namespace whose first process takes every
  descendant down with it;
- an unprivileged user when the grader runs as root (without root: a user namespace), and
  no capabilities either way;
- Landlock, which needs no privilege and works in containers: the worker may read only the
  system's folders and the Python installation (everything under / when namespaces already
  hide the rest), write only its scratch folder, open no TCP connection, and signal or reach
  the abstract sockets of no process outside its own domain;
- a seccomp filter: no inet sockets, ptrace, keyrings, namespaces or mounts (syscall_filter.py);
- resource limits: memory, CPU time, processes, file size, open files.
Where namespaces cannot be had (a container without CAP_SYS_ADMIN), the other layers still
apply; each layer that could not be applied is named in the isolation the worker reports.
SECURITY.md says what each environment gets and what each layer defends.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import resource
import signal
import tempfile
from dataclasses import dataclass

import psutil

from autograder.worker import cgroups, landlock, syscall_filter
from autograder.worker.config import SandboxConfig
from autograder.worker.isolation import Isolation, IsolationLevel, Layer
from autograder.worker.names import SUPERVISOR_NAME, name_process

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOSYMFOLLOW = 256
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MS_STRICTATIME = 1 << 24
PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
SYS_KEYCTL = 250  # x86_64
KEYCTL_JOIN_SESSION_KEYRING = 1
KEYCTL_CLEAR = 7
KEY_SPEC_USER_KEYRING = -4
KEY_SPEC_USER_SESSION_KEYRING = -5
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
# Per-mount options that a read-only remount must repeat: in a user namespace they are locked,
# and a remount that would drop one of them is refused.
_MOUNT_OPTION_FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC,
                       "nosymfollow": MS_NOSYMFOLLOW, "noatime": MS_NOATIME,
                       "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME,
                       "strictatime": MS_STRICTATIME}
# Where the worker may still write: its scratch tmpfs, device nodes such as /dev/null, and the
# files of its own /proc. Every other mount is made read-only.
SCRATCH_DIRS = ("/tmp", "/var/tmp", "/dev/shm")
_WRITABLE_MOUNTS = (*SCRATCH_DIRS, "/dev", "/proc")
# Without namespaces to hide the rest, Landlock lets a worker read only these (and the Python
# installation): programs, libraries, configuration, and the kernel's views of itself.
SYSTEM_READ_ONLY = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev")
# Where the worker's stdout and stderr go: a write never fails, and nothing is kept or read.
OUTPUT_SINK = os.devnull
O_PATH = getattr(os, "O_PATH", 0o10000000)


_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent() -> None:
    """Have the kernel kill the calling process when its parent dies (PR_SET_PDEATHSIG)."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None):
    encode = lambda text: text.encode() if text is not None else None  # noqa: E731
    _check(_libc.mount(encode(source), encode(target), encode(fstype), flags, encode(data)),
           f"mount {target}")


def _unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def _enter_namespaces() -> IsolationLevel:
    """Unshare mount, PID, network and IPC namespaces; returns the isolation level reached."""
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC
    if os.geteuid() == 0:
        _unshare(flags)
        return IsolationLevel.FULL
    uid, gid = os.geteuid(), os.getegid()
    _unshare(flags | CLONE_NEWUSER)
    for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
        with open(f"/proc/self/{name}", "w") as handle:
            handle.write(text)
    return IsolationLevel.USER_NAMESPACE


def _outermost(paths: list[str]) -> list[str]:
    """Drop paths that lie inside another path of the list."""
    real = sorted({os.path.realpath(path) for path in paths if os.path.exists(path)})
    return [p for p in real if not any(p != q and p.startswith(q.rstrip("/") + "/") for q in real)]


def _cover_and_keep(config: SandboxConfig) -> None:
    """Cover folders with fresh tmpfs, then bind the kept paths back into them, read-only.

    Covered are the hidden folders (empty), /run (service sockets live there, and a socket file
    can be connected to from any network namespace), the scratch folders (private, capped) and
    the files directly under / (with /dev/null).
    The Python installation may sit under any of them (a kit cloned into /tmp, say): the kept
    paths are opened before anything is covered and bound back last.
    """
    hidden = _outermost(config.hide_paths)
    covers = [(path, MS_NOSUID | MS_NODEV, "size=64k,mode=0755") for path in hidden]
    if os.path.isdir("/run"):
        covers.append(("/run", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=64k,mode=0755"))
    covers += [(path, MS_NOSUID | MS_NODEV, f"size={config.tmp_bytes},nr_inodes={config.tmp_inodes},mode=1777")
               for path in SCRATCH_DIRS if os.path.isdir(path)]
    kept = [p for p in _outermost(config.keep_paths)
            if any(p.startswith(cover.rstrip("/") + "/") for cover, _, _ in covers)]
    kept_fds = {path: os.open(path, O_PATH | os.O_DIRECTORY) for path in kept}
    for path, flags, options in covers:
        _mount("tmpfs", path, "tmpfs", flags, options)
    for path, fd in kept_fds.items():
        os.makedirs(path, exist_ok=True)
        _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC, None)
        _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID, None)
        os.close(fd)
    for path in _files_at_the_root():
        _mount(OUTPUT_SINK, path, None, MS_BIND, None)


def _files_at_the_root() -> list[str]:
    """The files directly under / (a secret left there, say): no folder cover hides them, so each
    is covered with an empty device file of its own."""
    with os.scandir("/") as entries:
        return [entry.path for entry in entries if entry.is_file(follow_symlinks=False)]


def _private_filesystems(config: SandboxConfig) -> None:
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV, None)  # shows this PID namespace only
    _cover_and_keep(config)
    _read_only_elsewhere()


def _mount_table() -> list[tuple[str, set[str]]]:
    """(mount point, per-mount options) of every mount this process sees."""
    unescape = lambda text: re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)  # noqa: E731
    with open("/proc/self/mountinfo") as table:
        return [(unescape(fields[4]), set(fields[5].split(","))) for fields in map(str.split, table)]


def _read_only_elsewhere() -> None:
    """Remount every mount read-only (in this mount namespace only) but the writable ones.

    Hiding the kit is not enough: world-writable folders such as /var/crash sit on the root
    filesystem, and in the user-namespace fallback the worker writes with the grader's own uid.
    """
    for point, options in _mount_table():
        if any(point == keep or point.startswith(keep + "/") for keep in _WRITABLE_MOUNTS):
            continue
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        flags |= sum(flag for name, flag in _MOUNT_OPTION_FLAGS.items() if name in options)
        try:
            _mount(None, point, None, flags, None)
        except OSError as error:
            # A mount under a hidden folder is out of reach anyway: its path now ends in the tmpfs.
            if error.errno not in (errno.ENOENT, errno.EINVAL):
                raise


def _drop_capability_bounding_set() -> None:
    """Empty the bounding set, so that no later exec (of a setuid or root program) regains any."""
    with open("/proc/sys/kernel/cap_last_cap") as last:
        for capability in range(int(last.read()) + 1):
            _check(_libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), "prctl(PR_CAPBSET_DROP)")


def _clear_capabilities() -> None:
    """Drop every capability this process holds.

    Needed in the user-namespace fallback, where the worker is root of its own namespace: with
    CAP_SYS_ADMIN it could unmount the tmpfs that hides the kit, or remount the Python
    installation read-write. (An unprivileged uid has none to drop; this is then a no-op.)
    """
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    empty = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable for both 32-bit halves
    _check(_libc.capset(header, empty), "capset")


def _drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def _set_limits(config: SandboxConfig, count_processes: bool) -> None:
    # The address-space limit counts what the interpreter and torch already mapped.
    with open("/proc/self/status") as status:
        vm_size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    limits = {
        resource.RLIMIT_CPU: config.cpu_seconds,
        resource.RLIMIT_FSIZE: config.max_file_bytes,
        resource.RLIMIT_NOFILE: config.max_open_files,
        resource.RLIMIT_CORE: 0,
    }
    # A CUDA context reserves about twice the device's memory in address space: no useful
    # address-space limit leaves room for it, so the worker's memory cgroup limits it instead.
    if not config.cuda:
        limits[resource.RLIMIT_AS] = vm_size + config.memory_bytes
    # RLIMIT_NPROC counts the processes of a user: meaningful for a user of our own, and in a
    # user namespace of our own (Linux 5.14+ counts per namespace), not for the grader's user.
    if count_processes:
        limits[resource.RLIMIT_NPROC] = config.max_processes
    elif os.geteuid() != 0:  # (root ignores the limit)
        # No user of its own: the count is the grader user's, so the worker may add its share to
        # what that user runs now. Without it a fork bomb could fill the machine's process table.
        limits[resource.RLIMIT_NPROC] = _tasks_of(os.getuid()) + config.max_processes
    for kind, value in limits.items():
        resource.setrlimit(kind, (value, value))


def _tasks_of(uid: int) -> int:
    """Processes and threads of ``uid`` now: what RLIMIT_NPROC counts."""
    return sum(process.info["num_threads"] or 0 for process in psutil.process_iter(["uids", "num_threads"])
               if process.info["uids"] and process.info["uids"].real == uid)


@dataclass(frozen=True)
class Confinement:
    """What confining a worker gave: its isolation, its scratch folder, and the cgroups it made
    (the grader removes those, and a scratch folder outside namespaces, once it is gone)."""

    isolation: Isolation
    scratch: str
    cgroups: list[str]


def confine(config: SandboxConfig) -> Confinement:
    """Confine the calling (freshly forked, single-threaded) process.

    With a PID namespace, this forks once more: the caller stays behind as a supervisor that
    only waits (the grader kills the supervisor's process group to end everything: the worker
    dies with its supervisor, and its namespace with it), and the confined child returns.
    Without namespaces the caller itself is confined, in a scratch folder of its own on /tmp
    (the grader removes it when the worker is gone).
    """
    # Dies with the fork server; the supervisor keeps this, the worker sets its own after fork.
    die_with_parent()
    _first_to_go()
    groups = _own_cgroups(config)
    os.setsid()
    try:
        level = _enter_namespaces()
    except OSError as error:
        return _confine_without_namespaces(config, error, groups)
    child = os.fork()
    if child:
        _supervise(child)
    _private_filesystems(config)
    separate_user = config.uid is not None and os.geteuid() == 0 and level is IsolationLevel.FULL
    _drop_capability_bounding_set()
    if separate_user:
        _drop_privileges(config.uid)
    _clear_capabilities()
    # Set after the user change (which clears it): the worker dies with its supervisor. Until
    # then it shares the supervisor's process group, which the grader kills as a whole.
    die_with_parent()
    if not (separate_user or level is IsolationLevel.USER_NAMESPACE):
        level = IsolationLevel.NAMESPACES_AS_ROOT
    layers = [Layer.NAMESPACES, *([Layer.OWN_USER] if separate_user else [])]
    isolation = _finish(config, count_processes=separate_user or level is IsolationLevel.USER_NAMESPACE,
                        scratch="/tmp", writable=[*SCRATCH_DIRS, OUTPUT_SINK],
                        isolation=_with_cgroups(Isolation(level, tuple(layers)), config, groups))
    return Confinement(isolation, "/tmp", groups)


def _confine_without_namespaces(config: SandboxConfig, error: OSError, groups: list[str]) -> Confinement:
    """No namespaces here (a container without CAP_SYS_ADMIN, say). The caller stays behind as a
    supervisor and a child subreaper: whatever the worker starts stays its descendant, even
    after setsid() and a double fork, so the grader can kill every one of them. A root grader
    drops the worker to its own uid: not root, it cannot write the kit or the outputs, nor read
    what only root may read. Landlock, where the kernel has it, hides everything but the
    system's folders and the Python installation."""
    _check(_libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl(PR_SET_CHILD_SUBREAPER)")
    child = os.fork()
    if child:
        _supervise(child, until_killed=True)
    scratch = tempfile.mkdtemp(prefix="attention-worker-", dir=config.scratch_root)
    separate_user = config.uid is not None and os.geteuid() == 0
    if separate_user:
        os.chown(scratch, config.uid, config.uid)
        _drop_privileges(config.uid)
    die_with_parent()  # dies with its supervisor
    missing = [(Layer.NAMESPACES, error.strerror)]
    if not separate_user:
        missing.append((Layer.OWN_USER, "the grader is not root" if os.geteuid() else "no uid was given"))
    isolation = Isolation(IsolationLevel.LIMITS_ONLY, (Layer.OWN_USER,) if separate_user else (), tuple(missing))
    isolation = _finish(config, count_processes=separate_user, scratch=scratch, writable=[scratch, OUTPUT_SINK],
                        isolation=_with_cgroups(isolation, config, groups))
    return Confinement(isolation, scratch, groups)


def _first_to_go() -> None:
    """Ask the out-of-memory killer to pick this process (and what it starts) before any other:
    never the grader's."""
    with open("/proc/self/oom_score_adj", "w") as score:
        score.write("1000")


def _own_cgroups(config: SandboxConfig) -> list[str]:
    """Join cgroups of its own inside the run's (root only); [] when that cannot be done."""
    if not config.cgroups or os.geteuid() != 0:
        return []
    try:
        return cgroups.join(config.cgroups, config.memory_bytes, config.max_processes + 4)
    except OSError:
        return []


def _with_cgroups(isolation: Isolation, config: SandboxConfig, groups: list[str]) -> Isolation:
    if groups:
        return Isolation(isolation.level, (*isolation.layers, Layer.CGROUPS), isolation.missing)
    why = config.cgroup_problem or ("the grader is not root" if config.cgroups else "no cgroups for this run")
    return Isolation(isolation.level, isolation.layers, (*isolation.missing, (Layer.CGROUPS, why)))


def _fresh_keyrings(own_user: bool) -> None:
    """An empty session keyring of its own: the grader's (a service's, a login's) is not
    inherited. With a uid of its own, its user keyrings are cleared too, so a key that an earlier
    worker of that uid left is gone (never the grader's own user's keyrings). The seccomp filter
    then refuses every keyring call."""
    calls = [(KEYCTL_JOIN_SESSION_KEYRING, 0)]
    if own_user:
        calls += [(KEYCTL_CLEAR, KEY_SPEC_USER_KEYRING), (KEYCTL_CLEAR, KEY_SPEC_USER_SESSION_KEYRING)]
    for call, argument in calls:
        _libc.syscall(SYS_KEYCTL, call, ctypes.c_long(argument), 0, 0, 0)  # no keyrings here: nothing to clear


def _supervise(child: int, until_killed: bool = False) -> None:
    """The supervisor's whole life: wait for the worker, then go (taking a PID namespace down
    with it); or, ``until_killed``, reap whatever ends until the grader kills it last.

    It dies with the fork server (its parent-death signal, set by ``confine``), and holds none of
    the grader's output streams: a supervisor left behind must keep nobody waiting.
    """
    name_process(SUPERVISOR_NAME)
    sink = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(sink, stream)
    while True:
        try:
            _, status = os.waitpid(-1 if until_killed else child, 0)
            if not until_killed:
                os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        except ChildProcessError:
            if not until_killed:
                os._exit(0)
            signal.pause()  # an orphan reparented to us later wakes us with SIGCHLD
        except InterruptedError:
            continue


def _finish(config: SandboxConfig, count_processes: bool, scratch: str, writable: list[str],
            isolation: Isolation) -> Isolation:
    """The layers every mode shares (keyrings, Landlock, seccomp, limits) and the worker's
    environment; returns ``isolation`` with the layers applied here added, or named as missing.

    Landlock lets the worker read only the system's folders and the Python installation, in every
    mode: under namespaces too, so that files directly under / (which no tmpfs covers) stay out
    of reach.
    """
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    _fresh_keyrings(own_user=Layer.OWN_USER in isolation.layers)
    layers, missing = list(isolation.layers), list(isolation.missing)
    if config.cuda:
        # CUDA's driver writes under /proc: an H200 answered cudaGetDeviceCount with error 304 ("OS
        # call failed") under Landlock unless /proc was writable. Its files stay guarded by their
        # owners and modes, and other processes' memory by Landlock's own ptrace rule.
        writable = [*writable, "/proc"]
    report = landlock.restrict([*SYSTEM_READ_ONLY, *config.keep_paths], writable, devices=config.device_nodes)
    for applied, layer, minimum_abi in ((report.fs, Layer.LANDLOCK_FILES, 1), (report.net, Layer.LANDLOCK_NETWORK, 4),
                                        (report.scope, Layer.LANDLOCK_SCOPE, 6)):
        if applied:
            layers.append(layer)
        else:
            missing.append((layer, "no Landlock in this kernel" if report.abi == 0
                            else f"Landlock ABI {report.abi} here, {minimum_abi} needed"))
    if syscall_filter.available():
        syscall_filter.install_filter()
        layers.append(Layer.SECCOMP)
    else:
        missing.append((Layer.SECCOMP, "seccomp filters are not available here"))
    _set_limits(config, count_processes)
    if config.cuda and Layer.CGROUPS not in layers:
        missing.append((Layer.MEMORY_LIMIT, "a CUDA worker gets no address-space limit, and no cgroup limits its"
                                            " memory here"))
    os.chdir(scratch)
    os.environ.clear()
    os.environ.update({"HOME": scratch, "TMPDIR": scratch, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                       "OMP_NUM_THREADS": str(config.threads), **config.environment})
    return Isolation(isolation.level, tuple(layers), tuple(missing))
