"""A clean process with torch imported that forks one worker per submission.

``import torch`` costs seconds; forking a process that has already paid for it costs
milliseconds. The fork server is started fresh (``python -I``, scrubbed environment) before
the grader loads any reference or test, so a worker forked from it holds nothing secret.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import selectors
import signal
import socket

# Imported here, before any fork, so that every worker and shard starts with them loaded.
from autograder.worker import main as worker
from autograder.worker import protocol
from autograder.worker.accelerators import machine_report
from autograder.worker.confinement import die_with_parent
from autograder.worker.names import SERVER_NAME, SHARD_NAME, name_process
from autograder.worker.nvidia import nvidia_driver
from autograder.worker.warmup import warm_up_after_fork, warm_up_torch

# Modules the notebooks import at the top (their setup cell's included): loaded once here, so a
# worker's import is free (and the student package imports although the kit's folder, where
# an editable install keeps it, is hidden from workers). The setup cell's module of each language
# follows (``helper_modules``).
PRELOADED_MODULES = ["numpy", "matplotlib.pyplot", "contextlib", "importlib.util", "subprocess",
                     "attention_kit_student", "attention_kit_student.selfcheck"]


def helper_modules() -> list[str]:
    """``attention_kit_student.<language>`` for every language of the student package's own list
    (a new language is preloaded with no change here); none without the package."""
    try:
        languages = importlib.import_module("attention_kit_student.language").LANGUAGES
    except ImportError:
        return []
    return [f"attention_kit_student.{language}" for language in languages]


def warm_up() -> None:
    """Pay imports and torch's first-call costs once, here, rather than in every worker."""
    for name in [*PRELOADED_MODULES, *helper_modules()]:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    warm_up_torch(cuda_may_follow=nvidia_driver() is not None)  # NVML only: it starts no CUDA


def serve(launcher: socket.socket, controls: list[socket.socket]) -> None:
    """Serve the grader until it closes its launcher channel (then this server, its shards and workers end).

    ``launcher`` is the grading command's channel: once warm, the server says hello there (what
    the machine offers torch, ``machine_report``), then forks a shard for each request, handing it a link to the
    grading command and the control channel of its job slot. ``controls`` are the job slots'
    channels: each request there forks a worker and carries the worker's probe socket.
    """
    name_process(SERVER_NAME)
    _spared_by_the_oom_killer()
    warm_up()
    # Every object made so far is left out of garbage collection: the collections of a worker or
    # a shard would otherwise write to each object's header and copy nearly every page it shares.
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps finished children
    # Never torch.cuda.is_available() here: it initialises CUDA, which no forked child could then use.
    launcher.sendall(json.dumps(machine_report()).encode())
    selector = selectors.DefaultSelector()
    for channel in (launcher, *controls):
        selector.register(channel, selectors.EVENT_READ)
    while selector.get_map():
        for key, _ in selector.select():
            channel = key.fileobj
            try:
                payload, fds, _, _ = socket.recv_fds(channel, 64, 2)
            except OSError:
                payload, fds = b"", []
            if channel is launcher and not payload:
                # The grading command is gone (done, or killed by a signal it could not handle):
                # nothing of its run is worth finishing, and its shards and workers die with us.
                os._exit(0)
            if not payload or not fds:
                selector.unregister(channel)
                continue
            ours = [launcher, *controls]
            if channel is launcher and payload == b"shard" and len(fds) == 2:
                pid = _fork(ours, _shard, *fds)
            else:
                pid = _fork(ours, _worker, fds[0])
            channel.sendall(json.dumps({"forked": pid}).encode())


def _spared_by_the_oom_killer() -> None:
    """Lower the out-of-memory killer's interest in this server and the shards it forks (a root
    grader may; elsewhere it stays as it is). Workers raise their own to the maximum."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as score:
        score.write("-500")


def _fork(ours: list[socket.socket], life, *fds: int) -> int:
    """Fork a child that closes the server's channels and lives ``life(*fds)``, then exits. It
    grades for the grading command only: should the server die (the run ended, or the server was
    killed), the child dies too."""
    server = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            die_with_parent()
            if os.getppid() != server:  # the server died before the signal was asked for
                os._exit(70)
            for channel in ours:
                channel.close()
            life(*fds)
        finally:
            os._exit(70)
    for fd in fds:
        os.close(fd)
    return pid


def _worker(probe_fd: int) -> None:
    """A worker: the request (sandbox settings and the student's code) follows on its probe socket."""
    probe = socket.socket(fileno=probe_fd)
    worker.run_worker(probe, protocol.receive(probe).header)


def _shard(link_fd: int, control_fd: int) -> None:
    """A grading shard: trusted code, imported only now, in this child (the server itself never
    holds any); it shares the server's warm torch instead of importing its own."""
    name_process(SHARD_NAME)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    warm_up_after_fork()  # before any test's clock starts
    importlib.import_module("autograder.grading.shard").serve(link_fd, control_fd)
    os._exit(0)


def main(argv: list[str]) -> None:
    """``<launcher fd> <control fd>...``: the channels the grader passed to this process."""
    launcher_fd, *control_fds = argv
    serve(socket.socket(fileno=int(launcher_fd)), [socket.socket(fileno=int(fd)) for fd in control_fds])
