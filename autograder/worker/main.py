"""The sandboxed worker: confine itself, load the student's definitions, answer probes.

It is forked from the fork server (torch already imported) with one socket to the trusted
grader. What it prints goes to /dev/null: nothing it prints is ever read as a result.
"""

from __future__ import annotations

import functools
import os
import signal
import socket

import torch

from autograder.worker import protocol
from autograder.worker.accelerators import open_cuda_context
from autograder.worker.config import SandboxConfig
from autograder.worker.confinement import OUTPUT_SINK, confine
from autograder.worker.names import WORKER_NAME, name_process
from autograder.worker.probe_server import ProbeServer, load_definitions
from autograder.worker.warmup import warm_up_after_fork


def _isolate_io(keep_fd: int) -> None:
    """Stdin from /dev/null, stdout and stderr into /dev/null, every other descriptor closed.

    Nothing a student prints is ever read, and a write into the sink never fails, so printing
    cannot cost a test (a capped file would refuse writes once full).
    """
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    sink = os.open(OUTPUT_SINK, os.O_WRONLY)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    os.closerange(3, keep_fd)
    os.closerange(keep_fd + 1, 65536)
    # Past the file-size limit a write to a file of its own fails with an error instead of
    # killing the worker.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _refuse(sock: socket.socket, problem: str) -> None:
    """Tell the grader its sandbox could not be set up (its failure, not the student's), and go."""
    protocol.send(sock, {"ready": False, "sandbox_error": problem}, {})
    os._exit(71)


def run_worker(sock: socket.socket, request: dict) -> None:
    """Serve one submission until the grader hangs up; never returns normally."""
    name_process(WORKER_NAME)
    config = SandboxConfig(**request["sandbox"])
    try:
        confinement = confine(config)
    except OSError as error:  # the grader's setup is at fault, not the student: say so
        _refuse(sock, str(error))
    # Before CUDA opens the driver's descriptors, which this would close.
    _isolate_io(sock.fileno())
    cuda = None
    if config.cuda:  # made now, confined, before any student code runs and outside the student's time
        try:
            cuda = open_cuda_context(config.gpu_memory_fraction).to_json()
        except Exception as error:  # noqa: BLE001 - whatever CUDA raises here is the grader's problem
            _refuse(sock, f"CUDA cannot be used in the sandbox ({type(error).__name__}: {error})")
    warm_up_after_fork()
    # Sent before any student code runs, so the grader believes it (and only this frame).
    protocol.send(sock, {"sandboxed": True, "isolation": confinement.isolation.to_json(),
                         "scratch": confinement.scratch, "cgroups": confinement.cgroups, "cuda": cuda}, {})
    torch.set_num_threads(config.threads)
    server = _load(sock, request["blocks"], {}, config.threads)
    while True:
        try:
            # Outside any inference mode a student's code left on: the probe's input tensors
            # would otherwise be inference tensors, which refuse autograd and in-place updates.
            with torch.inference_mode(False):
                message = protocol.receive(sock)
        except (EOFError, OSError):
            os._exit(0)
        if "load" in message.header:  # the same student's next notebook, in a namespace of its own
            server = _load(sock, message.header["load"], {"probe_id": message.header.get("probe_id")}, config.threads)
            continue
        protocol.send(sock, *server.handle(message))


def _load(sock: socket.socket, blocks: list[dict], echo: dict, threads: int) -> ProbeServer:
    """Load a notebook's definitions, say what they define, and serve probes on them."""
    namespace, problems = load_definitions(blocks)
    defined = sorted(name for name in namespace if not name.startswith("__"))
    protocol.send(sock, {"ready": True, "defined": defined, "problems": problems, **echo}, {})
    return ProbeServer(namespace, threads=threads, exchange=functools.partial(_exchange, sock))


def _exchange(sock: socket.socket, header: dict, tensors: dict) -> protocol.Message:
    """A frame to the grader in the middle of a probe (a consulted stand-in's question), and its answer."""
    protocol.send(sock, header, tensors)
    with torch.inference_mode(False):
        return protocol.receive(sock)
