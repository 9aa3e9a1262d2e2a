"""A throwaway PostgreSQL server on loopback, in a temporary folder: for the kit's tests and for
``make bench-serve DB=postgres``. Never for a course's data (durability is switched off).

It uses Debian's server programs (``make setup`` installs the package ``postgresql``), found on
PATH or in ``/usr/lib/postgresql/<version>/bin``. The server runs as the caller's own user; as
root, which PostgreSQL refuses, as the ``postgres`` system user that Debian's package makes (else
``nobody``). It listens on 127.0.0.1 on a free port, with a password (scram-sha-256), and is
stopped, and its folder removed, by ``stop`` (or leaving the ``with`` block).

    with ScratchPostgres() as server:
        os.environ["KIT_SERVICE_DATABASE_URL"] = server.url
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

DEBIAN_BINARIES = Path("/usr/lib/postgresql")
DATABASE = "kit"
ROLE = "kit"


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed; the message says how to get them."""


def server_binaries() -> Path:
    """The folder of ``initdb`` and ``postgres``: PATH's, else the newest Debian version's."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted((path for path in DEBIAN_BINARIES.glob("*/bin") if (path / "initdb").exists()),
                      key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0)
    if not versions:
        raise PostgresMissing("PostgreSQL's server is not installed: run `make setup` as root (it runs"
                              " `apt-get install postgresql`), or install Debian's package postgresql")
    return versions[-1]


def _server_user() -> pwd.struct_passwd | None:
    """Whom the server runs as: None for the caller; an unprivileged system user for root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresMissing("as root, the server needs an unprivileged user to run as (postgres or nobody)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ScratchPostgres:
    """One PostgreSQL server with one database, ``url`` to reach it."""

    def __init__(self):
        self.binaries = server_binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="kit-postgres-"))
        self.folder.chmod(0o755)  # the server's own user passes through to its data folder
        self.port = _free_port()
        self.password = secrets.token_urlsafe(18)
        self.url = f"postgresql://{ROLE}:{self.password}@127.0.0.1:{self.port}/{DATABASE}"
        self.log = self.folder / "postgres.log"
        self._user = _server_user()
        self._process: subprocess.Popen | None = None

    def __enter__(self) -> ScratchPostgres:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def pid(self) -> int | None:
        """The server's main process (its backends are its children), while it runs."""
        return self._process.pid if self._process is not None else None

    def _owned(self, path: Path, mode: int) -> Path:
        path.mkdir(mode=mode)
        if self._user is not None:
            os.chown(path, self._user.pw_uid, self._user.pw_gid)
        return path

    def _run(self, *command: str) -> None:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.folder,
                              **self._as_user())
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[:2])} failed:\n{done.stdout}{done.stderr}")

    def _as_user(self) -> dict:
        if self._user is None:
            return {}
        return {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": [],
                "env": {"PATH": os.environ.get("PATH", ""), "LANG": "C", "HOME": str(self.folder)}}

    def start(self) -> ScratchPostgres:
        data = self._owned(self.folder / "data", 0o700)
        sockets = self._owned(self.folder / "run", 0o700)
        password_file = self._owned(self.folder / "secret", 0o700) / "password"
        password_file.write_text(self.password + "\n")
        if self._user is not None:
            os.chown(password_file, self._user.pw_uid, self._user.pw_gid)
        try:
            self._run(str(self.binaries / "initdb"), "-D", str(data), "-U", ROLE, "--auth=scram-sha-256",
                      f"--pwfile={password_file}", "-E", "UTF8", "--locale=C")
            password_file.unlink()
            with self.log.open("ab") as log:
                # Thrown away at the end: durability costs time and buys nothing here.
                self._process = subprocess.Popen(
                    [str(self.binaries / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(self.port),
                     "-k", str(sockets), "-c", "fsync=off", "-c", "synchronous_commit=off", "-c",
                     "full_page_writes=off", "-c", "max_connections=200"],
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=self.folder, **self._as_user())
            self._create_database()
        except BaseException:
            self.stop()
            raise
        return self

    def _create_database(self) -> None:
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"PostgreSQL stopped at its start:\n{self.log.read_text()[-2000:]}")
            try:
                with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True,
                                     connect_timeout=5) as connection:
                    connection.execute(f"CREATE DATABASE {DATABASE}")
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def new_database(self, name: str) -> str:
        """The URL of a new, empty database ``name`` on this server (one per service under test)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop(self) -> None:
        """A fast shutdown (SIGINT), then the folder goes."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait(timeout=30)
        self._process = None
        shutil.rmtree(self.folder, ignore_errors=True)
