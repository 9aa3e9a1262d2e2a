"""The grader's guarantees, proved before it grades: tried from real sandboxed workers.

Before any student's code runs, the grader starts workers exactly as it starts a student's (same
fork server, sandbox, uid and limits) with ``escape_attempts`` as their "notebook", and checks
that code there cannot read the secrets or other students' work, write into the outputs, the
submissions or the kit, open a TCP connection to 127.0.0.1, signal the grader or its fork
server, or see another worker's files. The report names each guarantee that holds, and the files
of the Python installation a worker could not read (where correct code would fail).
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from autograder.probes.client import Submission
from autograder.reading.notebook import extract_definitions
from autograder.sandbox import escape_attempts
from autograder.sandbox.session import ForkServerChannel, WorkerSession
from autograder.worker.config import SandboxConfig
from autograder.worker.isolation import Guarantee, GuaranteeReport, Targets

_ATTEMPTS = extract_definitions({"cells": [{"cell_type": "code",
                                            "source": Path(escape_attempts.__file__).read_text(encoding="utf-8")}]})


@contextlib.contextmanager
def _attempting(channel: ForkServerChannel, sandbox: SandboxConfig, timeout: float) -> Iterator[Submission]:
    session = WorkerSession(channel, _ATTEMPTS, sandbox, timeout)
    try:
        ready = session.start()
        yield Submission(session, ready.defined, ready.load_problems, ready.isolation)
    finally:
        session.close()


@contextlib.contextmanager
def _listening() -> Iterator[int]:
    """A TCP port on 127.0.0.1 that accepts connections while the block runs."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


def is_the_real_folder(folder: str, device: int, inode: int) -> bool:
    """Whether the folder a worker wrote into is the real one, not a stand-in at the same path in
    the worker's own scratch tmpfs: a kept path under /tmp (the Python installation of a kit
    cloned there) is bound back into folders made in that tmpfs, which a worker that is root of
    its user namespace owns. A folder that cannot be compared counts as the real one."""
    try:
        seen = os.stat(folder)
    except OSError:
        return True
    return (seen.st_dev, seen.st_ino) == (device, inode)


def check_guarantees(channel: ForkServerChannel, sandbox: SandboxConfig, neighbour: SandboxConfig, targets: Targets,
                     timeout: float = 30.0) -> GuaranteeReport:
    """Try every forbidden thing from a worker in ``sandbox``, and whether a worker in
    ``neighbour`` (another job slot: another student's user) sees its files; report what held.
    Raises WorkerProblem when a worker cannot even start."""
    broken: dict[Guarantee, str] = {}
    with _attempting(channel, sandbox, timeout) as first, _listening() as port:
        readable = first.call("read_any", targets.python_files)
        unreadable = tuple(path for path in targets.python_files if path not in readable)
        if read := first.call("read_any", targets.secrets):
            broken[Guarantee.SECRETS_UNREADABLE] = "read " + ", ".join(read)
        if written := [folder for folder, device, inode in first.call("write_any", targets.protected)
                       if is_the_real_folder(folder, device, inode)]:
            broken[Guarantee.OUTPUTS_UNWRITABLE] = "wrote into " + ", ".join(written)
        if first.call("connect", port):
            broken[Guarantee.NO_NETWORK] = f"connected to 127.0.0.1:{port}"
        if reached := first.call("signal_any", targets.pids):
            broken[Guarantee.NO_SIGNALS] = "could signal process " + ", ".join(map(str, reached))
        left = first.call("leave_file")
        with _attempting(channel, neighbour, timeout) as second:
            if isinstance(left, str) and second.call("read_any", [left]):
                broken[Guarantee.WORKERS_APART] = f"read {left}, written by another worker"
    return GuaranteeReport(tuple(g for g in Guarantee if g not in broken), tuple(broken.items()), unreadable)

