"""The student's API token for ``submit()``: typed once, kept outside every notebook.

The token is the service's ``Authorization: Bearer`` secret (the service's "API token for CI"
page makes one). Anyone holding it can submit as the student, so it never goes into a notebook,
its outputs or a printed line: ``KIT_TOKEN`` gives it (a CI job, a shared machine), or it is
asked once with ``getpass`` (nothing shown while typing) and kept in ``tokens.json`` in the
user's configuration folder, readable by the user alone (0600, in a 0700 folder), one token per
service address. A token the service no longer accepts is forgotten.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

TOKEN_VARIABLE = "KIT_TOKEN"
FOLDER_NAME = "attention-kit"


def config_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the kit keeps the student's settings: ``%APPDATA%`` on Windows, else
    ``$XDG_CONFIG_HOME`` or ``~/.config`` (the XDG rule, which macOS command-line tools follow too)."""
    if sys.platform == "win32" and environ.get("APPDATA"):
        return Path(environ["APPDATA"]) / FOLDER_NAME
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / FOLDER_NAME


def token_file(environ: Mapping[str, str] = os.environ) -> Path:
    return config_folder(environ) / "tokens.json"


def _stored(path: Path) -> dict[str, str]:
    try:
        tokens = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {key: value for key, value in tokens.items() if isinstance(value, str)} if isinstance(tokens, dict) else {}


def stored_token(service: str, environ: Mapping[str, str] = os.environ) -> str:
    """``KIT_TOKEN``, else the token kept for ``service``; "" when there is none."""
    return environ.get(TOKEN_VARIABLE, "").strip() or _stored(token_file(environ)).get(service, "")


def store_token(service: str, token: str, environ: Mapping[str, str] = os.environ) -> Path:
    """Keep ``token`` for ``service``, readable by the user alone; returns the file."""
    path = token_file(environ)
    _write(path, {**_stored(path), service: token})
    return path


def forget_token(service: str, environ: Mapping[str, str] = os.environ) -> None:
    """Drop the token kept for ``service`` (one the service refused)."""
    path = token_file(environ)
    tokens = _stored(path)
    if tokens.pop(service, None) is not None:
        _write(path, tokens)


def _write(path: Path, tokens: dict[str, str]) -> None:
    # Created 0600 before anything is written, then moved over the old file whole: no other user
    # ever reads a token, and an interrupted write leaves the old file.
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(tokens, handle, indent=1)
    os.replace(partial, path)
