"""What a student must not be able to do, tried from inside a real sandboxed worker.

The grader never imports this module: ``autograder.sandbox.guarantees`` loads its source into a
sandboxed worker exactly as it loads a student's notebook, and calls each function there.
Each one tries something the sandbox must prevent and returns what it managed to do.
"""

import os
import socket


def read_any(paths: list[str]) -> list[str]:
    """The files among ``paths`` whose first byte could be read."""
    readable = []
    for path in paths:
        try:
            with open(path, "rb") as handle:
                handle.read(1)
            readable.append(path)
        except Exception:  # noqa: BLE001 - any failure means the file stayed out of reach
            pass
    return readable


def write_any(folders: list[str]) -> list[list[object]]:
    """The folders among ``folders`` in which a new file could be created, each as
    ``[folder, device, inode]``: what the folder at that path is, seen from here."""
    written = []
    for folder in folders:
        path = os.path.join(folder, ".attention-kit-write-attempt")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(path)
            seen = os.stat(folder)
            written.append([folder, seen.st_dev, seen.st_ino])
        except Exception:  # noqa: BLE001 - any failure means the folder stayed closed
            pass
    return written


def connect(port: int) -> bool:
    """Whether a TCP connection to 127.0.0.1:``port`` could be opened."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as connection:
            connection.settimeout(2)
            connection.connect(("127.0.0.1", port))
        return True
    except Exception:  # noqa: BLE001 - any failure means the port stayed out of reach
        return False


def signal_any(pids: list[int]) -> list[int]:
    """The processes among ``pids`` that could be sent a signal (0: a check, nothing is sent)."""
    reached = []
    for pid in pids:
        try:
            os.kill(pid, 0)
            reached.append(pid)
        except Exception:  # noqa: BLE001 - any failure means the process stayed out of reach
            pass
    return reached


def leave_file() -> str:
    """Write a file in the worker's own folder and return its absolute path."""
    path = os.path.abspath("left-by-another-worker")
    with open(path, "w") as handle:
        handle.write("a note for the next student")
    return path
