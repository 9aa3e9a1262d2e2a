"""The trusted side of one submission's worker: start it, ask it, and kill it for good."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time

import torch

from autograder import protocol
from autograder.forkserver import ForkServer
from autograder.notebook_code import ExtractedCode
from autograder.probe_client import ProbeTimeout, WorkerCrashed
from autograder.sandbox import SandboxConfig


class WorkerSession:
    """A Transport to a sandboxed worker; a new worker replaces one that died or hung."""

    def __init__(self, forkserver: ForkServer, code: ExtractedCode, sandbox: SandboxConfig,
                 timeout: float):
        self._forkserver = forkserver
        self._request = {"sandbox": sandbox.to_dict(), "blocks": [vars(b) for b in code.blocks]}
        self._uid = sandbox.uid
        self._timeout = timeout
        self._pid: int | None = None
        self._sock: socket.socket | None = None
        self.generation = 0
        self.ready: dict = {}

    def start(self) -> dict:
        """Fork a fresh worker and wait until it has loaded the definitions."""
        self.close()
        self.generation += 1
        self._pid, self._sock = self._forkserver.spawn(self._request)
        self._sock.settimeout(self._timeout)
        reply = self._exchange(None, {}, "loading your notebook's definitions")
        if reply.header.get("ready") is not True:
            self.close()
            raise WorkerCrashed("the worker did not start properly")
        self.ready = reply.header
        return self.ready

    def request(self, header: dict, tensors: dict[str, torch.Tensor]) -> protocol.Message:
        if self._sock is None:
            self.start()
        return self._exchange(header, tensors, "answering this test")

    def _exchange(self, header, tensors, doing: str) -> protocol.Message:
        try:
            if header is not None:
                protocol.send(self._sock, header, tensors)
            return protocol.receive(self._sock)
        except TimeoutError:
            self.close()
            raise ProbeTimeout(
                f"your code ran longer than the {self._timeout:g} s limit while {doing}"
                " (an endless loop, or work far bigger than the test needs) and was stopped"
            ) from None
        except (EOFError, OSError, protocol.ProtocolError) as error:
            self.close()
            raise WorkerCrashed(
                f"the process running your code stopped while {doing} (it exited, crashed or"
                f" went over the memory limit): {error}"
            ) from None

    def close(self) -> None:
        """Kill the worker and everything it started, and wait until they are gone."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._pid, signal.SIGKILL)
        _wait_until_gone(self._pid)
        if self._uid is not None:
            sweep_user(self._uid)
        self._pid = None


def _is_running(pid: int | str) -> bool:
    """True while the process exists and is not a zombie (a zombie holds nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _wait_until_gone(pid: int, limit_s: float = 5.0) -> None:
    deadline = time.monotonic() + limit_s
    while _is_running(pid) and time.monotonic() < deadline:
        time.sleep(0.002)


def sweep_user(uid: int) -> None:
    """Kill every process of a worker's own user (those that escaped with setsid, say)."""
    for _ in range(100):
        pids = [int(entry) for entry in os.listdir("/proc")
                if entry.isdigit() and _owner(entry) == uid and _is_running(entry)]
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _owner(pid: str) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except FileNotFoundError:
        return None
