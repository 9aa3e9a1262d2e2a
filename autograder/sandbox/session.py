"""The trusted side of one submission's worker: start it, ask it, and kill it for good."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import select
import shutil
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

import psutil
import torch

from autograder.findings.finding import Finding, finding
from autograder.findings.render import render
from autograder.probes.errors import GraderOverloaded, ProbeTimeout, SandboxError, WorkerCrashed, WorkerProblem
from autograder.reading.notebook import ExtractedCode
from autograder.sandbox.clock import StudentClock, wall_ceiling
from autograder.sandbox.leftovers import kill_until_none_left, sweep_user
from autograder.worker import cgroups, protocol
from autograder.worker.cgroups import OomKill
from autograder.worker.config import SandboxConfig
from autograder.worker.isolation import Isolation
from autograder.worker.nvidia import CudaContext
from autograder.worker.text import clean_text

# Everything a worker says is bounded here, before the grader stores it: code in the worker can
# rewrite the worker's own replies (it shares its process), so caps inside the worker are not enough.
MAX_NAMES = 2000
MAX_NAME_CHARS = 200
MAX_PROBLEMS = 20
MAX_PROBLEM_CHARS = 500
MAX_TEXT_CHARS = 4000
# What a scratch folder made by worker.confinement outside namespaces looks like (mkdtemp), and
# a worker's own cgroup (worker.cgroups).
SCRATCH_NAME = re.compile(r"/(?:[\w.-]+/)*attention-worker-[\w]+")
CGROUP_NAME = re.compile(r"/sys/fs/cgroup/(?:[\w.:@-]+/)*attention-kit-\d+(?:-\d+)?/worker-\d+")
# What an answer can be: the largest a correct notebook's reply to each kind of probe needs, with
# room to spare (GPT-2 small's outputs, and its 2.4 million gradients in float64 for ``backward``).
# A reply over its bound is refused before the grader allocates anything for it, and a reply is
# received into one buffer that its tensors share: what the trusted side spends on any reply
# stays a small multiple of these, whatever a student's code sends.
REPLY_BYTES = {"call": 16 * 2**20, "getattr": 16 * 2**20, "backward": 32 * 2**20, "build_module": 4 * 2**20,
               "describe": 4 * 2**20, "stand_in": 64 * 2**10, "restore": 64 * 2**10,
               "redefine": 64 * 2**10, "undo_redefine": 64 * 2**10, "stand_in_records": 1 * 2**20,
               "container": 64 * 2**10}
REPLY_HEADER_BYTES = 1 * 2**20  # the JSON part of any reply: values travel as tensors
# Questions a worker may ask while answering one probe (a consulted stand-in's calls); the
# notebook's time budget bounds what they take.
MAX_CONSULTATIONS = 256
# How a worker that exited while answering is described, whether its exit or its socket's closing came first.
WORKER_GONE = "the worker exited"
# Answers the trusted side gives a worker's question: (header, tensors) from the question's frame.
Consult = Callable[[protocol.Message], tuple[dict, dict]]
LOADED_REPLY_BYTES = 2 * 2**20  # "ready": the names a notebook defines and what failed to load (capped)
SANDBOX_REPLY_BYTES = 64 * 2**10  # the first frame: how the worker is confined
# How long a worker may take to confine itself (and make its CUDA context) before it says so: the
# grader's own time, never the student's. A worker that does not make it is started once more;
# then the grader gives up, as its own failure.
SANDBOX_START_SECONDS = 60.0
SANDBOX_START_TRIES = 2
# What a reply's error says when the worker's CUDA context is broken (a device-side assert, say):
# every later probe would fail too, so the worker is replaced before the next one.
_CUDA_BROKEN = re.compile(r"CUDA error|device-side assert|CUBLAS_STATUS|CUDNN_STATUS|illegal memory access",
                          re.IGNORECASE)


class _OverTheLimit(Exception):
    """The student's clock passed the answer's limit."""


# (namespace init, supervisor) pidfds of killed workers the kernel may still be tearing down
# (see WorkerSession.close).
_killed: list[tuple[int, int, list[str]]] = []  # with the cgroups to remove once they are gone


class ForkServerChannel:
    """A job slot's control channel to the fork server, through which its shard forks workers."""

    def __init__(self, control: socket.socket):
        self._control = control

    def spawn(self, request: dict) -> tuple[int, socket.socket]:
        """Fork a worker; returns the forked pid and the grader's end of its probe socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            socket.send_fds(self._control, [b"spawn"], [theirs.fileno()])
            theirs.close()
            protocol.send(ours, request, {})
            reply = self._control.recv(4096)
        except OSError as error:
            ours.close()
            theirs.close()
            raise SandboxError(f"the fork server cannot be reached ({error}); see the messages above") from None
        if not reply:
            ours.close()
            raise SandboxError("the fork server stopped; see the messages above")
        return json.loads(reply)["forked"], ours


@dataclass(frozen=True)
class WorkerReady:
    """What a started worker reported, bounded: the names it defined, what failed to load, and
    (from its first frame, before any student code ran) how it is confined."""

    defined: set[str]
    load_problems: list[Finding]
    isolation: Isolation
    cuda: CudaContext | None = None  # the worker's CUDA context, when it made one


class WorkerSession:
    """A Transport to a sandboxed worker; a new worker replaces one that died or hung."""

    def __init__(self, forkserver: ForkServerChannel, code: ExtractedCode, sandbox: SandboxConfig,
                 timeout: float, budget: float | None = None):
        """``timeout``: seconds the student's code may take per answer; ``budget``: seconds all of
        a notebook's answers may take together (None: no budget). Both are the student's seconds
        (``sandbox.clock``), not the machine's; no answer is waited for past either."""
        self._forkserver = forkserver
        self._request = {"sandbox": sandbox.to_dict(), "blocks": [vars(b) for b in code.blocks]}
        self._uid = sandbox.uid
        self._memory_bytes = sandbox.memory_bytes
        self._timeout = timeout
        self._budget = budget
        self.students_seconds = 0.0  # what this notebook's answers took of the student's time
        self._pid: int | None = None
        self._worker: int | None = None  # the supervisor's child, whose main thread runs the student's code
        self._worker_exit: int | None = None  # a pidfd of it, readable once it has exited
        self._supervisor: int | None = None  # a pidfd for the forked worker (pid is _pid)
        self._namespace_init: int | None = None  # a pidfd for the worker when it has a PID namespace
        self._sock: socket.socket | None = None
        self._scratch: str | None = None  # the worker's scratch folder outside any namespace
        self._cgroups: list[str] = []  # the worker's own cgroups
        self._confined: tuple[Isolation, CudaContext | None] | None = None  # from the running worker's first frame
        self.generation = 0

    def start(self) -> WorkerReady:
        """Fork a fresh worker and wait until it has loaded the definitions."""
        pid, sandbox = self._start_sandbox()
        if "sandbox_error" in sandbox.header:
            self.close()
            raise SandboxError(f"the worker's sandbox could not be set up: {sandbox.header['sandbox_error']}")
        try:
            isolation = Isolation.from_json(sandbox.header.get("isolation"), MAX_NAME_CHARS)
        except ValueError:
            isolation = None
        if sandbox.header.get("sandboxed") is not True or isolation is None:
            self.close()
            raise WorkerCrashed(finding("worker_not_started"))
        scratch, groups = sandbox.header.get("scratch"), sandbox.header.get("cgroups")
        # A scratch folder of its own on the real /tmp (no namespaces), and its cgroups, are
        # removed once it is gone.
        self._scratch = scratch if isinstance(scratch, str) and SCRATCH_NAME.fullmatch(scratch) else None
        self._cgroups = [group for group in groups if isinstance(group, str) and CGROUP_NAME.fullmatch(group)] \
            if isinstance(groups, list) else []
        self._confined = (isolation, CudaContext.from_json(sandbox.header.get("cuda")))
        self._worker = _child_of(pid)
        self._worker_exit = _open_pidfd(self._worker) if self._worker is not None else None
        reply = self._exchange(None, {}, "doing.loading", max_bytes=LOADED_REPLY_BYTES, timeout=self._students_time())
        self._namespace_init = _open_namespace_init(pid)
        return self._loaded(reply)

    def load(self, code: ExtractedCode) -> WorkerReady:
        """Another notebook of the same student, loaded into the worker already running (in a
        namespace of its own; the worker, its sandbox and its uid stay), with a budget of its own:
        one worker start per student rather than per notebook. A fresh worker when none runs."""
        self._request["blocks"] = [vars(block) for block in code.blocks]
        self.students_seconds = 0.0
        if self._sock is None:
            return self.start()
        self.generation += 1  # what the worker held for the last notebook is gone
        probe_id = secrets.token_hex(8)
        reply = self._exchange({"load": self._request["blocks"], "probe_id": probe_id}, {}, "doing.loading",
                               max_bytes=LOADED_REPLY_BYTES, timeout=self._students_time())
        if reply.header.get("probe_id") != probe_id:
            self.close()
            raise WorkerCrashed(finding("forged_reply"))
        return self._loaded(reply)

    def _loaded(self, reply: protocol.Message) -> WorkerReady:
        """What a worker that loaded a notebook reported, bounded."""
        if reply.header.get("ready") is not True or self._confined is None:
            self.close()
            raise WorkerCrashed(finding("worker_not_started"))
        problems = reply.header.get("problems")
        return WorkerReady(
            set(_bounded_strings(reply.header.get("defined"), MAX_NAMES, MAX_NAME_CHARS)),
            [load_problem(item) for item in (problems if isinstance(problems, list) else [])[:MAX_PROBLEMS]],
            *self._confined,
        )

    def _start_sandbox(self) -> tuple[int, protocol.Message]:
        """Fork a worker (its pid is returned) and read its first frame, sent once it is confined and before any student
        code runs: that frame alone is believed (a notebook could forge anything later, a
        "sandbox_error" that stops the class included). Until then nothing the student wrote has
        run, so a worker that does not get there is the grader's problem: it is started once more,
        then the run stops (SandboxError)."""
        for attempt in range(1, SANDBOX_START_TRIES + 1):
            self.close()
            self.generation += 1
            pid, self._sock = self._forkserver.spawn(self._request)
            self._pid, self._supervisor = pid, _open_pidfd(pid)
            try:
                return pid, self._exchange(None, {}, "doing.sandbox", timeout=max(self._timeout, SANDBOX_START_SECONDS),
                                           max_bytes=SANDBOX_REPLY_BYTES, students=False)
            except (ProbeTimeout, WorkerCrashed, GraderOverloaded) as problem:
                if attempt == SANDBOX_START_TRIES:
                    why = render(problem.finding) if isinstance(problem, WorkerProblem) else str(problem)
                    raise SandboxError(f"a sandboxed worker could not be started, {SANDBOX_START_TRIES} times ({why});"
                                       " nothing a student wrote had run yet. Run `python -m autograder doctor` to"
                                       " see what this machine can do.") from None
        raise AssertionError("unreachable")

    def request(self, header: dict, tensors: dict[str, torch.Tensor],
                consult: Consult | None = None) -> protocol.Message:
        """The worker's answer to one probe. Before it, the worker may ask questions of its own
        (a consulted stand-in's call: ``worker/stand_ins.py``): ``consult`` answers each, at most
        ``MAX_CONSULTATIONS`` of them; without it, or past that, each is declined."""
        if self._sock is None:
            self.start()
        # The worker echoes this id; a frame that student code wrote to the socket itself would
        # answer the wrong probe and shift every later answer, so it ends the worker instead.
        probe_id = secrets.token_hex(8)
        max_bytes = REPLY_BYTES[header["op"]]
        reply = self._exchange({**header, "probe_id": probe_id}, tensors, "doing.answering",
                               max_bytes=max_bytes, timeout=self._students_time())
        asked = 0
        while reply.header.get("probe_id") == probe_id and "consult" in reply.header:
            asked += 1
            answer = consult(reply) if consult is not None and asked <= MAX_CONSULTATIONS else ({"declined": True}, {})
            reply = self._exchange(*answer, "doing.answering", max_bytes=max_bytes, timeout=self._students_time())
        if reply.header.get("probe_id") != probe_id:
            self.close()
            raise WorkerCrashed(finding("forged_reply"))
        if _broke_cuda(reply.header):  # this answer stands; the next probe gets a fresh worker
            self.close()
        return reply

    def _students_time(self) -> float:
        """How long the student's code may take for the next answer: the per-answer limit, or what
        is left of the notebook's budget when that is less (ProbeTimeout when none is left)."""
        if self._budget is None:
            return self._timeout
        left = self._budget - self.students_seconds
        if left <= 0:
            self.close()
            raise ProbeTimeout(finding("notebook_budget", budget=f"{self._budget:g}"))
        return min(self._timeout, left)

    def _exchange(self, header: dict | None, tensors: dict[str, torch.Tensor], doing: str, max_bytes: int,
                  timeout: float, students: bool = True) -> protocol.Message:
        """Send ``header`` (if any) and read a reply of at most ``max_bytes`` within ``timeout``;
        ``doing`` (a ``doing.*`` key) says what the worker was doing, for the student, should it
        run out of time or stop. ``students``: the time is the student's (``sandbox.clock``), not
        the grader's own (a worker confining itself is timed on the wall clock)."""
        if self._sock is None or self._pid is None:
            raise RuntimeError("no worker is running to exchange with")
        sock = self._sock
        clock = StudentClock(self._pid, self._worker) if students else None
        # One deadline for the whole answer: a worker that sends a byte now and then must not
        # keep the grader waiting forever (a socket timeout alone restarts at every byte).
        ceiling = wall_ceiling(timeout) if clock else timeout
        deadline = time.monotonic() + ceiling
        took = 0.0
        try:
            if header is not None:
                sock.settimeout(ceiling)
                protocol.send(sock, header, tensors)
            if clock:
                clock.start()
                self._await_answer(sock, clock, timeout, deadline)
                took = clock.elapsed()  # the reply is arriving: reading it is the grader's time
            reply = _bounded_reply(protocol.receive(sock, max_bytes, deadline, REPLY_HEADER_BYTES))
        except (TimeoutError, _OverTheLimit) as over:
            timed = clock if clock is not None and clock.started else None
            held_back = isinstance(over, TimeoutError) and timed is not None and timed.held_back_by_the_machine() \
                and timed.elapsed(precise=True) < timeout
            waited = timed.wall() if timed is not None else ceiling
            self.close()
            if not held_back and timed is not None:
                self.students_seconds += timeout  # the student's code used all it could
            if held_back:
                raise GraderOverloaded(f"a worker waited {waited:.0f} s for a CPU while its code used less than its"
                                       f" {timeout:g} s: the machine or container is too busy, or has too little CPU"
                                       " for --jobs") from None
            if timeout < self._timeout:  # the notebook's budget, not this answer's limit, ran out
                raise ProbeTimeout(finding("notebook_budget_spent", budget=f"{self._budget:g}",
                                           doing=finding(doing))) from None
            raise ProbeTimeout(finding("timeout", limit=f"{timeout:g}", doing=finding(doing))) from None
        except protocol.ProtocolError as error:  # over a budget, or not a frame at all
            self.close()
            raise WorkerCrashed(finding("reply_refused", error=str(error))) from None
        except (EOFError, OSError) as error:
            killed = cgroups.oom_kill(self._cgroups)  # read before close() removes the groups
            self.close()
            if killed is OomKill.FROM_OUTSIDE:
                raise GraderOverloaded("the out-of-memory killer stopped a worker that was within its own limit:"
                                       " the container or machine ran out of memory") from None
            if killed is OomKill.OWN_LIMIT:
                limit = f"{self._memory_bytes // 2**20} MiB"
                raise WorkerCrashed(finding("memory_limit", doing=finding(doing), limit=limit)) from None
            # The worker gone shows as its exit or as its socket closing, whichever the poll sees
            # first: one description for both, so that a regrade writes the same file.
            gone = isinstance(error, (EOFError, ConnectionError))
            raise WorkerCrashed(finding("crashed", doing=finding(doing),
                                        error=WORKER_GONE if gone else str(error))) from None
        self.students_seconds += took
        return reply

    def _await_answer(self, sock: socket.socket, clock: StudentClock, limit: float, deadline: float) -> None:
        """Return once the worker's reply starts to arrive (or its socket closes); raise EOFError
        once the worker has exited (its supervisor may still hold the socket open), _OverTheLimit
        once the student's clock passes ``limit``, TimeoutError at ``deadline``. The clock is read
        ever more rarely, from 20 ms to every quarter of a second."""
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        if self._worker_exit is not None:
            poller.register(self._worker_exit, select.POLLIN)
        interval = 0.02
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready = {fd for fd, _ in poller.poll(min(interval, left) * 1000)}
            if sock.fileno() in ready:
                return
            if ready:
                raise EOFError(WORKER_GONE)
            if clock.elapsed(precise=True) > limit:
                raise _OverTheLimit
            interval = min(2 * interval, 0.25)

    def close(self, wait: bool = True) -> None:
        """Kill the worker and everything it started, and wait until they are gone.

        ``wait=False`` returns once the kill is sent, when the worker has its own PID namespace:
        a killed process runs no more code, and the kernel's teardown (milliseconds) then
        overlaps the next notebook's grading. ``wait_for_killed_workers`` waits for them.
        """
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._worker = None
        if self._worker_exit is not None:
            os.close(self._worker_exit)
            self._worker_exit = None
        if self._pid is None:
            return
        if self._namespace_init is None:  # not started yet, or died early: look once more
            self._namespace_init = _open_namespace_init(self._pid)
        if self._namespace_init is not None and self._supervisor is not None:
            _kill_namespace(self._namespace_init)
            # The supervisor reaps its child and exits by itself; it is waited for (and killed
            # if it has not exited) afterwards, in that order, so that no zombie is left to PID 1.
            _killed.append((self._namespace_init, self._supervisor, self._cgroups))
            self._cgroups = []
            self._namespace_init = self._supervisor = self._pid = None
            if wait:
                wait_for_killed_workers()
            else:
                _forget_exited()  # so that a class of any size holds only a few pidfds
            return
        # Without a PID namespace to kill (the limits-only fallback, or no handle on it), every
        # descendant of the supervisor (a child subreaper: setsid() and double forks keep them its
        # own) is killed, then the supervisor; a worker user of its own is swept as well.
        sweep = self._uid if self._namespace_init is None else None  # a worker user of its own
        _kill_descendants(self._pid)
        if self._namespace_init is not None:
            _kill_namespace(self._namespace_init)
            _wait_for_exit(self._namespace_init)
            os.close(self._namespace_init)
            self._namespace_init = None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._pid, signal.SIGKILL)
        if self._supervisor is not None:
            _wait_for_exit(self._supervisor)
            os.close(self._supervisor)
            self._supervisor = None
        else:
            _wait_until_gone(self._pid)
        if sweep is not None:
            sweep_user(sweep)
        self._pid = None
        if self._scratch is not None:  # nothing left for the next worker of this uid to find
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
        cgroups.remove(self._cgroups)
        self._cgroups = []


def _kill_descendants(pid: int) -> None:
    """Kill every descendant of ``pid`` (again and again while a fork bomb adds more)."""

    def descendants() -> list[psutil.Process]:
        try:
            return psutil.Process(pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    kill_until_none_left(descendants, pause=0.005)


def _kill_namespace(namespace_init: int) -> None:
    """Kill a worker by pidfd (no pid reuse race). It is the first process of its PID namespace,
    so the kernel kills every process in it too, including those that left the process group
    with setsid() and cleared their parent-death signal."""
    with contextlib.suppress(ProcessLookupError):
        signal.pidfd_send_signal(namespace_init, signal.SIGKILL)


def wait_for_killed_workers() -> None:
    """Return once every worker closed with ``wait=False`` (and its PID namespace) has exited."""
    while _killed:
        namespace_init, supervisor, groups = _killed.pop()
        _wait_for_exit(namespace_init)
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(supervisor, signal.SIGKILL)
        _wait_for_exit(supervisor)
        os.close(namespace_init)
        os.close(supervisor)
        cgroups.remove(groups)


def _forget_exited() -> None:
    """Close the pidfds of killed workers that have fully exited, without waiting."""
    poller = select.poll()
    for namespace_init, supervisor, _ in _killed:
        poller.register(namespace_init, select.POLLIN)
        poller.register(supervisor, select.POLLIN)
    exited = {pidfd for pidfd, _ in poller.poll(0)}
    for killed in [killed for killed in _killed if {killed[0], killed[1]} <= exited]:
        _killed.remove(killed)
        os.close(killed[0])
        os.close(killed[1])
        cgroups.remove(killed[2])


def _open_pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except OSError:  # already gone
        return None


def _bounded_strings(value: object, count: int, chars: int) -> list[str]:
    items = value if isinstance(value, list) else []
    return [clean_text(item, chars) for item in items[:count] if isinstance(item, str)]


def _broke_cuda(header: dict) -> bool:
    """Whether a reply is an error that leaves the worker's CUDA context unusable."""
    error = header.get("error") if header.get("ok") is not True else None
    return isinstance(error, dict) and (error.get("type") == "AcceleratorError"
                                        or bool(_CUDA_BROKEN.search(str(error.get("message", "")))))


def _bounded_reply(message: protocol.Message) -> protocol.Message:
    """Cap the texts of an error reply; the grader stores them in results and feedback."""
    error = message.header.get("error")
    if message.header.get("ok") is not True and isinstance(error, dict):
        bounded = {key: clean_text(str(error.get(key, "")), limit) for key, limit in
                   (("type", MAX_NAME_CHARS), ("message", MAX_TEXT_CHARS), ("traceback", MAX_TEXT_CHARS))}
        if isinstance(error.get("undefined"), str):
            bounded["undefined"] = clean_text(error["undefined"], MAX_NAME_CHARS)
        message.header["error"] = bounded
    return message


def load_problem(item: object) -> Finding:
    """A definition that failed to load, as the worker reported it (cell, line and error)."""
    if not isinstance(item, dict) or type(item.get("cell")) is not int or type(item.get("line")) is not int:
        return finding("bad_reply")
    error = clean_text(str(item.get("error", "")), MAX_PROBLEM_CHARS)
    return finding("cell_raised", cell=item["cell"], line=item["line"], error=error)


def _child_of(pid: int) -> int | None:
    """The one child of a worker's supervisor (the supervisor forks once, then only waits)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            pids = children.read().split()
    except OSError:
        return None
    return int(pids[0]) if len(pids) == 1 else None


def _open_namespace_init(supervisor: int) -> int | None:
    """A pidfd for the supervisor's child if that child is the first process of a PID namespace."""
    child = _child_of(supervisor)
    if child is None:
        return None
    try:
        pidfd = os.pidfd_open(child)
    except OSError:
        return None
    try:
        with open(f"/proc/{child}/status") as status:
            nspid = next((line.split()[1:] for line in status if line.startswith("NSpid:")), [])
    except OSError:
        nspid = []
    # Checked after pidfd_open: if the pid had been reused, its NSpid would not end in 1.
    if len(nspid) >= 2 and nspid[-1] == "1" and _child_of(supervisor) == child:
        return pidfd
    os.close(pidfd)
    return None


def _wait_for_exit(pidfd: int, limit_s: float = 5.0) -> None:
    """A pidfd becomes readable when its process has exited."""
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.poll(limit_s * 1000)


def _is_running(pid: int) -> bool:
    """True while the process exists and is not a zombie (a zombie holds nothing)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_until_gone(pid: int, limit_s: float = 5.0) -> None:
    deadline = time.monotonic() + limit_s
    while _is_running(pid) and time.monotonic() < deadline:
        time.sleep(0.002)
