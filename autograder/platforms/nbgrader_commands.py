"""Running nbgrader from the kit: its command line, and its gradebook's need for ``alembic``.

nbgrader runs ``alembic`` through PATH when it opens a gradebook; alembic is installed beside
the interpreter running the kit, which need not be on PATH (a venv that was never activated).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path


def _path_with_interpreter_bin(path: str) -> str:
    return os.pathsep.join([str(Path(sys.executable).parent), path])


@contextlib.contextmanager
def alembic_on_path() -> Iterator[None]:
    """For nbgrader's Python API in this process: PATH finds alembic while the block runs."""
    saved = os.environ.get("PATH", "")
    os.environ["PATH"] = _path_with_interpreter_bin(saved)
    try:
        yield
    finally:
        os.environ["PATH"] = saved


def run_nbgrader(course_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """``nbgrader <args>`` in ``course_dir`` (its root given explicitly), output captured."""
    env = {**os.environ, "PATH": _path_with_interpreter_bin(os.environ.get("PATH", ""))}
    command = [sys.executable, "-m", "nbgrader", *args, f"--CourseDirectory.root={course_dir.resolve()}"]
    return subprocess.run(command, cwd=course_dir, env=env, capture_output=True, text=True, check=False)
