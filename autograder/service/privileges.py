"""Who the web process runs as, and what it owns.

The web process (gunicorn and the LMS passback sender) runs as a system user of its own,
``attention-kit`` by default (``web_user``), never root and never the shared ``nobody``: the
secret key signs every session and sign-in link, so any other daemon that could read it could sign
in as an instructor. That user owns the data folder (0700) and everything in it: the SQLite
database, the secret key (0600), the web's temporary files (``tmp/``) and the report's fonts.
The grading workers run as root, apart: their scratch folders are root's own (0700, made by
``tempfile.mkdtemp``), never in the web's folder.

The supported start is as that user, on an install it can read (the systemd unit's ``User=``, the
image's ``USER``). Started as root, ``serve`` makes the user when it is missing (as the unit's
comment does by hand), hands it the data folder, and its web and sender children leave root
before they serve (``drop_privileges``).
"""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

SHARED_ACCOUNTS = ("nobody", "nfsnobody")
NOLOGIN_SHELLS = ("/usr/sbin/nologin", "/sbin/nologin", "/bin/false")
# The system's certificate authorities, readable by every user (certifi's copy in the kit's .venv
# may not be, for the web user).
SYSTEM_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


class PrivilegeError(SystemExit):
    """The web process cannot run as its own user; the message says what to do."""


def web_user_ids(name: str) -> tuple[int, int]:
    """The uid and gid of the web user, refusing root and accounts that other daemons share."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise PrivilegeError(f"the web user {name!r} does not exist here: start serve as root once (it makes the"
                             " user), or make it: useradd --system --user-group --home-dir /nonexistent"
                             f" --shell /usr/sbin/nologin {name}") from None
    if entry.pw_uid == 0:
        raise PrivilegeError(f"web_user names {name!r}, which is root: the web process never runs as root")
    if name in SHARED_ACCOUNTS or entry.pw_uid == 65534:
        raise PrivilegeError(f"web_user names {name!r}, an account other daemons share, which could then read the"
                             " secret key: use a user of the web's own (the default, attention-kit, is made for you)")
    return entry.pw_uid, entry.pw_gid


def ensure_web_user(name: str) -> tuple[int, int]:
    """The web user's ids, made first as a system user with no login when it is missing (as root)."""
    try:
        pwd.getpwnam(name)
    except KeyError:
        shell = next((path for path in NOLOGIN_SHELLS if Path(path).exists()), "/bin/false")
        try:
            made = subprocess.run(["useradd", "--system", "--user-group", "--home-dir", "/nonexistent",
                                   "--no-create-home", "--shell", shell, "--comment", "attention-kit web", name],
                                  capture_output=True, text=True)
            why = made.stderr.strip() or f"exit {made.returncode}"
        except FileNotFoundError:
            why = "not installed here"
        try:
            pwd.getpwnam(name)  # another serve may have made it at the same moment
        except KeyError:
            raise PrivilegeError(f"could not make the web user {name!r} (useradd: {why}); make it yourself:"
                                 f" useradd --system --user-group --home-dir /nonexistent --shell /usr/sbin/nologin"
                                 f" {name}") from None
    return web_user_ids(name)


def web_temp_dir(data_dir: Path) -> Path:
    """The web process's temporary files (uploads while they are checked): inside its own folder."""
    return data_dir / "tmp"


def prepare_data_dir(data_dir: Path, owner: tuple[int, int] | None) -> None:
    """The data folder (0700) with its temporary folder, and, as root, all of it handed to ``owner``
    (links are changed themselves, never followed). The secret key stays 0600."""
    data_dir.mkdir(parents=True, exist_ok=True)
    web_temp_dir(data_dir).mkdir(mode=0o700, exist_ok=True)
    os.chmod(data_dir, 0o700)
    key = data_dir / "secret_key"
    if key.exists():
        os.chmod(key, 0o600)
    if owner is None:
        return
    uid, gid = owner
    os.lchown(data_dir, uid, gid)
    for folder, folders, files in os.walk(data_dir):
        for name in folders + files:
            os.lchown(Path(folder) / name, uid, gid)


def drop_privileges(name: str) -> None:
    """Leave root for ``name`` for good (groups, gid, uid), after what the process needs is loaded."""
    if SYSTEM_CA_BUNDLE.exists():
        os.environ.setdefault("REQUESTS_CA_BUNDLE", str(SYSTEM_CA_BUNDLE))
    uid, gid = web_user_ids(name)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() == 0 or os.geteuid() == 0:
        raise PrivilegeError("could not leave root for the web process")
