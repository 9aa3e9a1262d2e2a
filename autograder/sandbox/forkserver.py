"""The trusted side's handle on the fork server (``autograder.worker.forkserver``).

The fork server is started fresh (``python -I``, scrubbed environment) before the grader loads
any reference or test, so that a worker forked from it holds nothing secret.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile

from autograder.probes.errors import SandboxError
from autograder.worker import protocol


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
            [_resolved_interpreter(), "-I", "-m", "autograder.worker.forkserver", *map(str, server_fds)],
            pass_fds=server_fds, env=environment, stdin=subprocess.DEVNULL, cwd="/",
        )
        for _, theirs in pairs:
            theirs.close()
        self.channels = [ForkServerChannel(ours) for ours, _ in pairs]

    @property
    def pid(self) -> int:
        return self._process.pid

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
