"""A clean process with torch imported that forks one worker per submission.

``import torch`` costs seconds; forking a process that has already paid for it costs
milliseconds. The fork server is started fresh (``python -I``, scrubbed environment) before
the grader loads any reference or test, so a worker forked from it holds nothing secret.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import selectors
import signal
import socket
import sys

# Imported here, before any fork, so that every worker starts with them loaded.
import torch  # noqa: F401

from autograder.worker import main as worker
from autograder.worker import protocol
from autograder.worker.warmup import warm_up_torch

# Modules the notebooks import at the top: loaded once here, so a worker's import is free
# (and the kit's public helpers import even though the kit's folder is hidden from workers).
PRELOADED_MODULES = ["numpy", "matplotlib.pyplot", "autograder.student.example", "autograder.student.selfcheck"]


def warm_up() -> None:
    """Pay imports and torch's first-call costs once, here, rather than in every worker."""
    for name in PRELOADED_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    warm_up_torch()


def serve(controls: list[socket.socket]) -> None:
    """Fork a worker for every request on any control channel (one channel per grading shard);
    each request carries the worker's probe socket. Returns when every channel is closed."""
    warm_up()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps finished workers
    selector = selectors.DefaultSelector()
    for control in controls:
        selector.register(control, selectors.EVENT_READ)
    while selector.get_map():
        for key, _ in selector.select():
            control = key.fileobj
            try:
                payload, fds, _, _ = socket.recv_fds(control, 64, 1)
            except OSError:
                payload, fds = b"", []
            if not payload or not fds:
                selector.unregister(control)
                continue
            pid = _fork_worker(socket.socket(fileno=fds[0]), controls)
            control.sendall(json.dumps({"forked": pid}).encode())


def _fork_worker(probe: socket.socket, controls: list[socket.socket]) -> int:
    pid = os.fork()
    if pid == 0:
        for control in controls:
            control.close()
        try:
            # The request (sandbox settings and the student's code) follows on the probe socket.
            worker.run_worker(probe, protocol.receive(probe).header)
        finally:
            os._exit(70)
    probe.close()
    return pid


if __name__ == "__main__":
    serve([socket.socket(fileno=int(fd)) for fd in sys.argv[1:]])
