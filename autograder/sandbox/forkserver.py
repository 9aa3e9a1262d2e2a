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

from autograder.paths import KIT_ROOT
from autograder.probes.errors import SandboxError
from autograder.worker.nvidia import CUDA_ENVIRONMENT

# Isolated mode (-I) ignores the environment and the working directory; the fork server and its
# shards then import this very kit (the folder holding this package), not another install of it.
# torch's choice of CPU kernels, which the operator may make (to reproduce another CPU's float
# rounding on this one, say): it reaches the fork server, whose torch picks the kernels that its
# shards and workers then inherit.
TORCH_CPU_ENVIRONMENT = ("ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS")
_BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); from autograder.worker.forkserver import main;"
         " main(sys.argv[2:])")


def _resolved_interpreter() -> str:
    """This interpreter, reached through real folders only (the file itself stays a venv link).

    Workers see only resolved paths of the Python installation; an interpreter started through
    a symlinked folder would look for its lazily imported modules where workers cannot see.
    """
    folder, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(folder), name)


class ForkServer:
    """The grader's handle on its fork server process: a launcher channel for shards and one
    control channel per job slot for workers.

    Start it first thing: its ``import torch`` and warm-up then overlap the grader's own start.
    This module imports no torch: the grading command's own process never needs it.
    """

    def __init__(self, slots: int = 1):
        pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET) for _ in range(slots + 1)]
        self._scratch = tempfile.TemporaryDirectory(prefix="attention-forkserver-")
        environment = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OMP_NUM_THREADS": "1",
                       "MPLBACKEND": "Agg", "MPLCONFIGDIR": self._scratch.name,
                       # Should anything in the server ask torch about CUDA, it asks NVML, which
                       # leaves CUDA uninitialised for the shards and workers it forks.
                       "PYTORCH_NVML_BASED_CUDA_CHECK": "1",
                       **{name: os.environ[name] for name in (*CUDA_ENVIRONMENT, *TORCH_CPU_ENVIRONMENT)
                          if name in os.environ}}
        server_fds = [theirs.fileno() for _, theirs in pairs]
        # A session of its own: Ctrl-C at a terminal reaches the grading command alone, which
        # then stops the server, its shards and workers itself. They end with the launcher channel
        # anyway: a command killed by a signal it cannot handle leaves none of them at work.
        self._process = subprocess.Popen(
            [_resolved_interpreter(), "-I", "-c", _BOOT, str(KIT_ROOT), *map(str, server_fds)],
            pass_fds=server_fds, env=environment, stdin=subprocess.DEVNULL, cwd="/", start_new_session=True,
        )
        for _, theirs in pairs:
            theirs.close()
        self._launcher, *self._controls = [ours for ours, _ in pairs]
        self._machine: dict | None = None

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def machine(self) -> dict:
        """What the machine offers torch (``worker.accelerators.machine_report``: the accelerators,
        torch's CUDA build, the NVIDIA driver); waits for the server's hello, sent once it is warm."""
        return self._await_hello()

    @property
    def accelerators(self) -> dict[str, bool]:
        """The accelerators torch could use (found without initialising CUDA)."""
        return self.machine["accelerators"]

    def _await_hello(self) -> dict:
        """The server's hello (what the machine offers), read once: it comes first on the launcher."""
        if self._machine is None:
            self._machine = json.loads(self._reply("starting up"))
        return self._machine

    def control(self, slot: int) -> socket.socket:
        """The control channel of job slot ``slot`` (see ``sandbox.session.ForkServerChannel``)."""
        return self._controls[slot]

    def launch_shard(self, link: socket.socket, slot: int) -> int:
        """Fork a grading shard linked to us by ``link``; it takes over the control channel of
        job slot ``slot``. Returns its pid."""
        self._await_hello()  # it comes first on the launcher
        try:
            socket.send_fds(self._launcher, [b"shard"], [link.fileno(), self._controls[slot].fileno()])
        except OSError as error:
            raise SandboxError(f"the fork server cannot be reached ({error}); see the messages above") from None
        return json.loads(self._reply("forking a shard"))["forked"]

    def _reply(self, doing: str) -> bytes:
        try:
            reply = self._launcher.recv(4096)
        except OSError as error:
            raise SandboxError(f"the fork server cannot be reached ({error}); see the messages above") from None
        if not reply:
            raise SandboxError(f"the fork server stopped while {doing}; see the messages above")
        return reply

    def close(self) -> None:
        """Stop the fork server; it holds nothing worth a clean shutdown."""
        for channel in (self._launcher, *self._controls):
            channel.close()
        self._process.kill()
        self._process.wait()
        self._scratch.cleanup()
