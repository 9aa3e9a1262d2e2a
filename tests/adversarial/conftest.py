"""The hostile class, graded once per test session by the real command (see containment.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path

import pytest
from containment import GRADE_ARGS, GradingRun, control_id, grade_contained, make_context
from hostile_corpus import GRADER_KEY, ROOT_SECRET_FILE, SECRET_TEXT, hostile_submissions

from autograder.notebooks.variants import load_solution
from autograder.student.curriculum import ASSIGNMENTS


@contextlib.contextmanager
def world_writable_folder():
    """A folder anyone may write to, outside every scratch folder the workers get (like /var/crash
    or /var/mail on many machines): workers must not write there either. Removed afterwards."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="attention-kit-adversarial-", dir="/var"))
    except OSError:
        yield None
        return
    try:
        folder.chmod(0o1777)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def service_socket():
    """A socket file in /run that anyone may connect to (as D-Bus's or journald's often are):
    workers must not reach it. Removed afterwards."""
    path = Path("/run") / f"attention-kit-adversarial-{os.getpid()}.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        path.chmod(0o666)
        server.listen(64)
    except OSError:
        server.close()
        yield None
        return
    try:
        yield path
    finally:
        server.close()
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def root_file():
    """A secret in a file directly under / (no folder cover hides it). Removed afterwards."""
    try:
        ROOT_SECRET_FILE.write_text(SECRET_TEXT)
    except OSError:
        yield None
        return
    try:
        yield ROOT_SECRET_FILE
    finally:
        ROOT_SECRET_FILE.unlink(missing_ok=True)


# The grader runs in a session keyring holding a secret, as under a systemd service.
IN_SESSION_KEYRING = [sys.executable, str(Path(__file__).with_name("in_session_keyring.py")), GRADER_KEY,
                      SECRET_TEXT, "--"]


@pytest.fixture(scope="session")
def hostile_run(tmp_path_factory) -> GradingRun:
    if os.geteuid() != 0:
        pytest.skip("the adversarial suite checks the isolation of a grader run as root, as in CI"
                    " (run it as root; test_fallback_isolation covers the unprivileged grader)")
    with world_writable_folder() as world_writable, service_socket(), root_file():
        context = make_context(tmp_path_factory.mktemp("adversarial"), world_writable)
        controls = {control_id(assignment): (assignment, load_solution(assignment)) for assignment in ASSIGNMENTS}
        return grade_contained(context, hostile_submissions(), GRADE_ARGS, wrap=IN_SESSION_KEYRING, students=controls)
