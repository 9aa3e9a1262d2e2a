"""A clean process with torch imported that forks one worker per submission.

``import torch`` costs seconds; forking a process that has already paid for it costs
milliseconds. The fork server is started fresh (``python -I``, scrubbed environment) before
the grader loads any reference or test, so a worker forked from it holds nothing secret.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys

# Imported here, before any fork, so that every worker starts with them loaded.
import torch  # noqa: F401

from autograder import protocol, worker


def serve(control: socket.socket) -> None:
    """Fork a worker for every request; the request carries the worker's probe socket."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps finished workers
    while True:
        try:
            payload, fds, _, _ = socket.recv_fds(control, 64, 1)
        except OSError:
            return
        if not payload or not fds:
            return
        probe = socket.socket(fileno=fds[0])
        pid = os.fork()
        if pid == 0:
            control.close()
            try:
                # The request (sandbox settings and the student's code) follows on the probe socket.
                worker.run_worker(probe, protocol.receive(probe).header)
            finally:
                os._exit(70)
        probe.close()
        control.sendall(json.dumps({"forked": pid}).encode())


class ForkServer:
    """The grader's handle on its fork server process."""

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        environment = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OMP_NUM_THREADS": "1"}
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-m", "autograder.forkserver", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], env=environment, stdin=subprocess.DEVNULL,
            cwd="/",
        )
        theirs.close()
        self._control = ours

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

    def close(self) -> None:
        self._control.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


if __name__ == "__main__":
    serve(socket.socket(fileno=int(sys.argv[1])))
