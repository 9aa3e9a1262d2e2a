"""Where ``serve`` listens, and the address that links given to people carry.

A link mailed to a class must reach the service, so the commands that print links (``service
links``, ``service instructor``, ``service lti show``, ``serve --demo``) use the effective
``base_url`` and refuse, saying what to set, when it is only the built-in default
(``http://<host>:<port>``) while the service listens on a public address (nobody else can open
``http://0.0.0.0:8000``) or somewhere else than that default says. ``serve`` records where it
listens in the data folder, since a command run later cannot see ``serve``'s flags.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from autograder.service.config import BY_NAME, ConfigError, ServiceConfig

LISTENING_FILE = "listening.json"


def record_listening(config: ServiceConfig) -> None:
    """Note in the data folder where this ``serve`` listens (replaced whole, never half-written)."""
    path = config.data_dir / LISTENING_FILE
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps({"host": config.host, "port": config.port}) + "\n", encoding="utf-8")
    os.replace(partial, path)


def recorded_listening(data_dir: Path) -> tuple[str, int] | None:
    """Where ``serve`` last listened with this data folder, when it recorded it and it can be read."""
    try:
        recorded = json.loads((data_dir / LISTENING_FILE).read_text(encoding="utf-8"))
        return str(recorded["host"]), int(recorded["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def link_base_url(config: ServiceConfig) -> str:
    """The base URL for links given to people; ConfigError when it is the built-in default and would
    lead nowhere."""
    if config.origins["base_url"].kind != "default":
        return config.base_url
    setting = BY_NAME["base_url"]
    how = (f"set the address people use: {setting.flag} URL, {setting.variable}=URL, or base_url = \"URL\" in the"
           " settings file (serve --show-config shows where each setting comes from)")
    if not config.listens_on_loopback:
        raise ConfigError(f"base_url is the built-in default {config.base_url}, but the service listens on"
                          f" {config.host}, which is no address to give people: {how}")
    listening = recorded_listening(config.data_dir)
    if listening is not None and listening != (config.host, config.port):
        host, port = listening
        raise ConfigError(f"base_url is the built-in default {config.base_url}, but serve listens on {host}:{port}"
                          f" (as it last started with {config.data_dir}): the links would lead nowhere; {how}")
    return config.base_url
