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
import subprocess
import sys
import tempfile

# Imported here, before any fork, so that every worker starts with them loaded.
import torch  # noqa: F401

from autograder import protocol, worker
from autograder.warmup import warm_up_torch

# Modules the notebooks import at the top: loaded once here, so a worker's import is free
# (and the kit's public helpers import even though the kit's folder is hidden from workers).
PRELOADED_MODULES = ["numpy", "matplotlib.pyplot", "autograder.examples", "autograder.selfcheck"]


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


def _resolved_interpreter() -> str:
    """This interpreter, reached through real folders only (the file itself stays a venv link).

    Workers see only resolved paths of the Python installation; an interpreter started through
    a symlinked folder would look for its lazily imported modules where workers cannot see.
    """
    folder, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(folder), name)


class ForkServerChannel:
    """One control channel of the fork server: each grading shard uses its own."""

    def __init__(self, control: socket.socket):
        self._control = control

    def spawn(self, request: dict) -> tuple[int, socket.socket]:
        """Fork a worker; returns the forked pid and the grader's end of its probe socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        socket.send_fds(self._control, [b"spawn"], [theirs.fileno()])
        theirs.close()
        protocol.send(ours, request, {})
        reply = self._control.recv(4096)
        if not reply:
            raise RuntimeError("the fork server stopped; see the messages above")
        return json.loads(reply)["forked"], ours


class ForkServer:
    """The grader's handle on its fork server process, with ``channels`` control channels.

    Start it first thing: its ``import torch`` and warm-up then overlap the grader's own start.
    """

    def __init__(self, channels: int = 1):
        pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET) for _ in range(channels)]
        self._scratch = tempfile.TemporaryDirectory(prefix="attention-forkserver-")
        environment = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OMP_NUM_THREADS": "1",
                       "MPLBACKEND": "Agg", "MPLCONFIGDIR": self._scratch.name}
        server_fds = [theirs.fileno() for _, theirs in pairs]
        self._process = subprocess.Popen(
            [_resolved_interpreter(), "-I", "-m", "autograder.forkserver", *map(str, server_fds)],
            pass_fds=server_fds, env=environment, stdin=subprocess.DEVNULL, cwd="/",
        )
        for _, theirs in pairs:
            theirs.close()
        self.channels = [ForkServerChannel(ours) for ours, _ in pairs]

    def spawn(self, request: dict) -> tuple[int, socket.socket]:
        """Fork a worker through the first channel (for single-shard use)."""
        return self.channels[0].spawn(request)

    def close(self) -> None:
        """Stop the fork server; it holds nothing worth a clean shutdown."""
        for channel in self.channels:
            channel._control.close()
        self._process.kill()
        self._process.wait()
        self._scratch.cleanup()


if __name__ == "__main__":
    serve([socket.socket(fileno=int(fd)) for fd in sys.argv[1:]])
