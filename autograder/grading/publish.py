"""Publish a run's outputs whole: one run per output folder, written aside, swapped in at the end.

A run that writes into the folder its readers read (a CI step that uploads ``grades.csv``, a TA
opening feedback pages, ``merge``) must never let them see a mix of two runs, or grades of a run
that failed. So an ``OutputFolder``:

1. takes a lock beside ``--out`` (a second run on the same folder is refused, naming the first);
2. marks the folder as not published at once: ``grades.csv`` goes and a ``FAILED`` file says that
   a run is under way, so a run killed at any moment, even by SIGKILL, leaves the previous
   complete outputs with no ``grades.csv`` and a ``FAILED`` file, never last week's grades;
3. lets the run write everything into a staging folder beside ``--out`` (``staging()``);
4. swaps the staging folder in with one atomic rename (``publish()``), which also drops every
   file of the previous run that this one did not write;
5. on any failure (an exception, Ctrl-C, SIGTERM) writes into ``FAILED`` what went wrong.

Where ``--out`` cannot be renamed (a mount point, as a container's volume is, or a folder whose
parent the grader may not write), the staging folder lives inside it and its entries are moved
in one by one, ``grades.csv`` last; a run stopped during those moves leaves no ``grades.csv`` and
its ``FAILED`` file, as above.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType

from autograder.records.files import write_atomically

FAILED_FILE = "FAILED"
GRADES_FILE = "grades.csv"
_STAGING_MARK = ".staging-"
_OLD_MARK = ".old-"
_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


class OutputFolderError(Exception):
    """``--out`` cannot be written by this run; the message says why and what to do."""


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")  # not datetime.UTC: the kit runs on 3.10 too


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux's renameat2 with RENAME_EXCHANGE); False where the C
    library or the file system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(code, os.strerror(code), str(first))


def _renamable(folder: Path) -> bool:
    """Whether ``folder`` (or where it will be) can be replaced by renaming a sibling onto it:
    not a mount point, and in a parent this process may write."""
    if folder.exists() and (os.path.ismount(folder) or folder.stat().st_dev != folder.parent.stat().st_dev):
        return False
    return os.access(folder.parent, os.W_OK | os.X_OK)


def foreign_folder(folder: Path) -> list[str]:
    """What ``folder`` holds if it is not a grading run's output folder (nor empty): a swap would
    throw it away, so the run refuses. A run's folder is known by its grades.csv, its FAILED
    file, or its results/ and feedback/; everything in it is the run's (a JUnit file, the class
    report and LMS exports made from its grades)."""
    if not folder.is_dir():
        return []
    entries = sorted(entry.name for entry in folder.iterdir() if not entry.name.startswith("."))
    ours = {GRADES_FILE, FAILED_FILE} & set(entries) or {"results", "feedback"} <= set(entries)
    return [] if ours else entries


class _Lock:
    """An exclusive lock on one output folder, held while a run lives (the kernel frees it when
    the process dies, so a killed run never leaves a stale lock). Its file says who holds it."""

    def __init__(self, path: Path):
        self.path = path
        self._handle: int | None = None

    def acquire(self, holder: str) -> None:
        while True:
            handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                other = os.read(handle, 4096).decode("utf-8", "replace").strip() or "another grading run"
                os.close(handle)
                raise OutputFolderError(f"{other} is writing into this output folder; wait until it ends, or give"
                                        " this run another --out") from None
            # The file may have been removed by the run that held it, between our open and lock.
            if os.path.exists(self.path) and os.stat(self.path).st_ino == os.fstat(handle).st_ino:
                break
            os.close(handle)
        os.ftruncate(handle, 0)
        os.write(handle, holder.encode())
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            os.close(self._handle)
            self._handle = None


class OutputFolder:
    """The output folder of one run (``grade``, ``merge``): see the module's docstring.

    Use it as a context manager around the whole run; call ``staging()`` for the folder to write
    into and ``publish()`` once everything is written. Leaving the block without ``publish()``
    (an exception, KeyboardInterrupt, SystemExit) records why in ``FAILED``.
    """

    def __init__(self, out: Path, command: str, *, private: bool = False):
        self.out = Path(os.path.abspath(out.resolve() if out.is_symlink() else out))
        self._command = command
        self._private = private
        self._in_place = not _renamable(self.out)
        lock_folder = self.out if self._in_place else self.out.parent
        self._lock = _Lock(lock_folder / (".lock" if self._in_place else f".{self.out.name}.lock"))
        self._staging: Path | None = None
        self.published = False
        self._failed = False

    # -- the run's life --------------------------------------------------------------
    def __enter__(self) -> OutputFolder:
        if self.out.exists() and not self.out.is_dir():
            raise OutputFolderError(f"{self.out} is a file; name a folder (it is created if it does not exist)")
        foreign = foreign_folder(self.out)
        if foreign:
            listed = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            raise OutputFolderError(f"{self.out} holds files and is not a grading run's output folder ({listed}). A"
                                    " run replaces the whole folder with its outputs: name a new or empty folder, or"
                                    " an earlier run's output folder")
        self.out.mkdir(exist_ok=True)
        self._lock.acquire(f"a run of `{self._command}` (pid {os.getpid()}, started {_now()})")
        try:
            self._remove_leftovers()
            (self.out / GRADES_FILE).unlink(missing_ok=True)
            self._write_failed(f"A run of `{self._command}` (pid {os.getpid()}) started at {_now()} and has not"
                               " finished. If no such run is going on, it stopped without finishing (killed?):"
                               " grade again.")
        except BaseException:
            self._lock.release()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        try:
            if not self.published and not self._failed:
                self.fail(_why(error))
        finally:
            self._lock.release()

    def staging(self) -> Path:
        """A fresh, empty folder to write the whole outputs into (made on first call)."""
        if self._staging is None:
            where = self.out if self._in_place else self.out.parent
            prefix = _STAGING_MARK if self._in_place else f".{self.out.name}{_STAGING_MARK}"
            self._staging = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=where))
            self._staging.chmod(0o700 if self._private else self._folder_mode())
            with contextlib.suppress(OSError):  # keep the folder's owner (a TA group, say) where we may
                if os.geteuid() == 0 and self.out.exists():
                    details = self.out.stat()
                    os.chown(self._staging, details.st_uid, details.st_gid)
        return self._staging

    def publish(self) -> None:
        """Put the staged outputs in place of the folder's, in one step where the system allows."""
        staging = self.staging()
        if self._in_place:
            self._move_in(staging)
        elif not self.out.exists():
            os.rename(staging, self.out)
        elif _exchange(staging, self.out):
            shutil.rmtree(staging, ignore_errors=True)  # now the previous outputs
        else:  # two renames: between them there is no folder at all, never a mix
            old = staging.with_name(staging.name.replace(_STAGING_MARK, _OLD_MARK))
            os.rename(self.out, old)
            os.rename(staging, self.out)
            shutil.rmtree(old, ignore_errors=True)
        self._staging = None
        self.published = True

    # -- helpers -----------------------------------------------------------------------
    def _folder_mode(self) -> int:
        """The mode the folder has now (or a new folder would get, under the umask)."""
        if self.out.exists():
            return self.out.stat().st_mode & 0o7777
        mask = os.umask(0o077)
        os.umask(mask)
        return 0o777 & ~mask

    def _move_in(self, staging: Path) -> None:
        """Publish inside a folder that cannot be renamed: the previous entries go aside, the new
        ones come in, ``grades.csv`` last (until then ``FAILED`` says the run is unfinished)."""
        aside = Path(tempfile.mkdtemp(prefix=f"{_OLD_MARK}{os.getpid()}-", dir=self.out))
        keep = {staging.name, aside.name, self._lock.path.name, FAILED_FILE}
        for entry in list(self.out.iterdir()):
            if entry.name not in keep:
                os.rename(entry, aside / entry.name)
        for entry in sorted(staging.iterdir(), key=lambda path: path.name == GRADES_FILE):
            os.rename(entry, self.out / entry.name)
        (self.out / FAILED_FILE).unlink(missing_ok=True)
        shutil.rmtree(aside, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)

    def _remove_leftovers(self) -> None:
        """Staging and set-aside folders of runs that were killed (we hold the lock: none is alive)."""
        if self._in_place:
            leftovers = [*self.out.glob(f"{_STAGING_MARK}*"), *self.out.glob(f"{_OLD_MARK}*")]
        else:
            leftovers = [*self.out.parent.glob(f".{self.out.name}{_STAGING_MARK}*"),
                         *self.out.parent.glob(f".{self.out.name}{_OLD_MARK}*")]
        for leftover in leftovers:
            shutil.rmtree(leftover, ignore_errors=True)

    def _write_failed(self, text: str) -> None:
        write_atomically(self.out / FAILED_FILE, text + "\n", private=self._private)

    def fail(self, why: str) -> None:
        """Record why the run will not publish (``FAILED``), and remove what it staged."""
        self._failed = True
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
            self._staging = None
        with contextlib.suppress(OSError):
            self._write_failed(f"No grades here: the run of `{self._command}` that started in this folder"
                               f" (pid {os.getpid()}) did not finish ({why}, {_now()}). The other files are those of"
                               " the last run that finished, if any; grade again to replace them.")


def _why(error: BaseException | None) -> str:
    """What ended a run that did not publish, in a few words."""
    if error is None:
        return "it stopped before publishing its outputs"
    if isinstance(error, KeyboardInterrupt):
        return "it was interrupted"
    if isinstance(error, SystemExit):
        return f"it exited with status {error.code}"
    return f"{type(error).__name__}: {str(error)[:500]}"


def command_line() -> str:
    """The command as the user typed it, for the lock and FAILED files."""
    return " ".join(["python -m autograder", *sys.argv[1:]])[:500]
