"""``service backup FILE`` and ``service restore FILE``: the database is the service's whole state
(submissions, results, policies, accounts, LTI registrations and keys, scores owed to an LMS), so a
copy of it is a backup of the service.

- SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies a consistent snapshot
  while ``serve`` runs, and puts a backup back in place the same way.
- PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore`` (Debian's ``postgresql-client``),
  given the password in their environment, never on their command line.

A backup holds the tool's private keys and the hashes of sign-in links and tokens: it is written
0600. The secret key is not in it (it lives in the environment or in ``<data>/secret_key``):
without it, a restored service works, but sign-in links and sessions made before do not. So
``restore --secret-key OLD`` puts the old service's key in place with the database, and a restore
into a fresh data folder without it says that the key there was just made, and how to bring the
old one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import psutil
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from autograder.service.models import Submission

# Tables every database of the service has: what tells a backup of it from another file.
SERVICE_TABLES = ("django_migrations", "service_submission", "service_grading")
DEBIAN_CLIENTS = Path("/usr/lib/postgresql")


class BackupError(Exception):
    """The backup or restore could not be done; the message says why and what to do."""


def backup(target: Path) -> str:
    """Copy the service's database to ``target`` (0600); what was done, in a sentence."""
    target = target.resolve()
    if _is_sqlite():
        _sqlite_backup(_sqlite_path(), target)
    else:
        _pg("pg_dump", "--format=custom", f"--file={target}")
        target.chmod(0o600)
    return f"backed up the service's database to {target}{_secret_key_reminder()}"


def restore(source: Path, replace: bool, secret_key: Path | None = None) -> str:
    """Put the backup ``source`` in place of the service's database (``serve`` stopped), and the old
    service's key file ``secret_key`` in place of this one's; what was done."""
    source = source.resolve()
    if not source.is_file():
        raise BackupError(f"{source}: no such backup file")
    key = _key_to_bring(secret_key)
    if _holds_a_service() and not replace:
        raise BackupError("the service's database already holds submissions or accounts: give --replace to"
                          " replace it with the backup (stop serve and every grading worker first)")
    if _is_sqlite():
        _sqlite_restore(source, _sqlite_path())
    else:
        connection.close()
        _pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
            "--exit-on-error", str(source))
    done = (f"restored the service's database from {source}; start serve (it migrates the database if the kit is"
            " newer than the backup)")
    if key is not None:
        _put_key(key)
        return f"{done}, with the secret key of {secret_key}: sign-in links and sessions made before still work"
    return done + _restored_key_note()


def _key_to_bring(secret_key: Path | None) -> str | None:
    """The old service's secret key, read before anything is restored (a wrong path stops the restore)."""
    if secret_key is None:
        return None
    if os.environ.get("KIT_SERVICE_SECRET_KEY"):
        raise BackupError("--secret-key and KIT_SERVICE_SECRET_KEY both give a secret key: give the old key in one"
                          " place (the environment wins over any file)")
    try:
        key = secret_key.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise BackupError(f"--secret-key {secret_key}: cannot read it ({error.strerror})") from None
    if not key:
        raise BackupError(f"--secret-key {secret_key} is empty: give the old service's <data>/secret_key")
    return key


def _put_key(key: str) -> None:
    path = settings.CONFIG.data_dir / "secret_key"
    descriptor, partial = tempfile.mkstemp(prefix=".secret_key.", dir=path.parent)  # 0600
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(key + "\n")
    os.replace(partial, path)


def _restored_key_note() -> str:
    """After a restore without --secret-key: whether this data folder's key was made just now."""
    path = settings.CONFIG.data_dir / "secret_key"
    if os.environ.get("KIT_SERVICE_SECRET_KEY") or not path.exists():
        return ""
    if path.stat().st_mtime >= psutil.Process().create_time() - 1:
        return (f". The secret key {path} was made just now, so sign-in links and sessions of the backed-up service"
                " will not work here: copy its <data>/secret_key over this one (0600) before starting serve, or"
                " restore again with --replace --secret-key OLD_KEY_FILE")
    return _secret_key_reminder()


def _is_sqlite() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")


def _sqlite_path() -> Path:
    return Path(settings.DATABASES["default"]["NAME"])


def _secret_key_reminder() -> str:
    path = settings.CONFIG.data_dir / "secret_key"
    if os.environ.get("KIT_SERVICE_SECRET_KEY") or not path.exists():
        return ""
    return (f". The secret key is not in the backup: keep {path} with it (it signs sign-in links and sessions;"
            " without it, those made before stop working)")


def _holds_a_service() -> bool:
    """Whether the configured database already has data of a service (a new one has no tables yet)."""
    if "service_submission" not in connection.introspection.table_names():
        return False
    return Submission.objects.exists() or get_user_model().objects.exists()


def _sqlite_backup(database: Path, target: Path) -> None:
    if not database.exists():
        raise BackupError(f"there is no database at {database} (KIT_SERVICE_DATA or KIT_SERVICE_DATABASE_URL)")
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)  # 0600
    os.close(descriptor)
    try:
        with contextlib.closing(sqlite3.connect(database, timeout=30)) as live, \
                contextlib.closing(sqlite3.connect(partial)) as copy:
            live.backup(copy)  # a consistent snapshot, page by page, while others write
        _check_sqlite_backup(Path(partial))
        os.replace(partial, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)


def _check_sqlite_backup(path: Path) -> None:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as copy:
            tables = {name for (name,) in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            [(verdict,)] = copy.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is no SQLite database ({error})") from None
    if not set(SERVICE_TABLES) <= tables:
        raise BackupError(f"{path} is no backup of the service (it lacks the service's tables)")
    if verdict != "ok":
        raise BackupError(f"{path} is damaged: {verdict}")


def _sqlite_restore(source: Path, database: Path) -> None:
    _check_sqlite_backup(source)
    connection.close()
    database.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as backup_copy, \
            contextlib.closing(sqlite3.connect(database, timeout=30)) as live:
        backup_copy.backup(live)  # page by page into the database, in one transaction
    database.chmod(0o600)


def _client(name: str) -> str:
    """PostgreSQL's ``pg_dump`` or ``pg_restore``: PATH's, else the newest Debian version's."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted((path for path in DEBIAN_CLIENTS.glob(f"*/bin/{name}")),
                      key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0)
    if not versions:
        raise BackupError(f"{name} is not installed: install PostgreSQL's client programs (Debian's package"
                          " postgresql-client), of the server's version or newer")
    return str(versions[-1])


def _pg(program: str, *arguments: str) -> None:
    """Run ``pg_dump`` or ``pg_restore`` on the service's database, its password in the environment."""
    database = settings.DATABASES["default"]
    environment = {**os.environ, "PGHOST": database["HOST"] or "", "PGPORT": database["PORT"] or "",
                   "PGUSER": database["USER"] or "", "PGPASSWORD": database["PASSWORD"] or "",
                   "PGDATABASE": database["NAME"]}
    if program == "pg_restore":
        arguments = (f"--dbname={database['NAME']}", *arguments)
    done = subprocess.run([_client(program), *arguments], env={key: value for key, value in environment.items()
                                                              if value}, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{program} failed (exit status {done.returncode}):\n{done.stderr.strip()[-2000:]}")
