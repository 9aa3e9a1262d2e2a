"""The service's settings, each resolved in one order: its command-line flag (``--base-url``), then
its environment variable (``KIT_SERVICE_BASE_URL``), then the settings file (``--config`` or
``KIT_SERVICE_CONFIG``, the same names in lower case: ``base_url``), then its default.

Why one order: a setting given in two places must mean the same in ``serve``, in its grading
workers and in the instructor's commands, and what was typed last (a flag) is the most specific.
Each value keeps where it came from, so that ``serve --show-config`` and ``service config`` can say
why a setting holds the value it does (secrets masked). A file key that is no setting is refused
rather than ignored: a typo must not silently fall back to a default. docs/service/settings.md
lists the settings; tests/test_docs_site.py checks that it lists every one of ``SETTINGS``.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from autograder.paths import KIT_ROOT
from autograder.service.times import course_zone
from autograder.worker.compat import tomllib

PREFIX = "KIT_SERVICE_"
CONFIG_VARIABLE = PREFIX + "CONFIG"
# As root, the web process runs as an unprivileged user, who must reach the database: not inside
# a kit that may sit in a private folder.
DEFAULT_DATA_AS_ROOT = Path("/var/lib/attention-kit")
# The dedicated system user of the web process (the systemd unit's and the image's): never the
# shared `nobody`, whose other daemons could then read the secret key.
DEFAULT_WEB_USER = "attention-kit"
HERE = Path(__file__).resolve().parent
MASK = "****"
# A request body may exceed the upload limit by this much: the multipart framing and the form's
# other fields (the CSRF token, the assignment) around the notebook.
FORM_ALLOWANCE = 64 * 2**10


class ConfigError(ValueError):
    """A setting has a value the service cannot use; the message names it and what to set."""


# -- how each kind of value is read (from a flag or a variable: text; from the file: TOML's types) --
def _text(value: object) -> str:
    return str(value).strip()


def _number(value: object) -> float:
    number = float(value)  # type: ignore[arg-type]  # ValueError or TypeError: reported by _parse
    if number < 0:
        raise ValueError("a number of 0 or more")
    return number


def _positive(value: object) -> float:
    number = _number(value)
    if number <= 0:
        raise ValueError("a number above 0")
    return number


def _port(value: object) -> int:
    number = int(str(value))
    if not 0 < number < 65536:
        raise ValueError("a port from 1 to 65535")
    return number


def _switch(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ValueError("true or false")


def _names(value: object) -> tuple[str, ...]:
    items = value if isinstance(value, list) else str(value).split(",")
    return tuple(name for name in (str(item).strip() for item in items) if name)


def _folder(value: object) -> Path:
    return Path(str(value)).expanduser().resolve()


def _time_zone(value: object) -> ZoneInfo:
    """An IANA zone name (``times.course_zone``), kept as the zone itself."""
    return course_zone(str(value))


def _base_url(value: object) -> str:
    """``scheme://host[:port]``: the pages' own addresses are root-relative, so a path cannot be served."""
    text = str(value).strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        raise ValueError("http(s)://host or http(s)://host:port, without a path (the service is served from /)")
    return text


@dataclass(frozen=True)
class Setting:
    """One setting: its name (the file's key), how its text is read, its default (from the settings
    resolved before it), and what it is for."""

    name: str
    parse: Callable[[object], Any]
    default: Callable[[Mapping[str, Any]], Any]
    what: str
    secret: bool = False  # shown masked
    in_file: bool = True  # the secret key is never read from the settings file
    has_flag: bool = True  # nor given on a command line, where `ps` shows it
    default_note: str = ""  # how the default is made, when it is not a constant

    @property
    def variable(self) -> str:
        return PREFIX + self.name.upper()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


SETTINGS: tuple[Setting, ...] = (
    Setting("data", _folder, lambda _: DEFAULT_DATA_AS_ROOT if os.geteuid() == 0 else KIT_ROOT / "service-data",
            "the web's folder: the database (SQLite), the secret key, its temporary files",
            default_note="service-data/ in the kit; as root /var/lib/attention-kit"),
    Setting("database_url", _text, lambda chosen: f"sqlite:///{chosen['data'] / 'service.sqlite3'}",
            "sqlite:////absolute/path.sqlite3 or postgresql://user:password@host:5432/name", secret=True,
            default_note="from data"),
    Setting("host", _text, lambda _: "127.0.0.1", "the address serve listens on"),
    Setting("port", _port, lambda _: 8000, "the port serve listens on"),
    Setting("base_url", _base_url, lambda chosen: f"http://{chosen['host']}:{chosen['port']}",
            "the address people use (in sign-in links, LMS addresses, passback comments)",
            default_note="from host and port"),
    Setting("allowed_hosts", _names,
            lambda chosen: tuple(sorted({"localhost", "127.0.0.1", urlsplit(chosen["base_url"]).hostname or ""})),
            "host names the web answers to (comma-separated)", default_note="from base_url"),
    Setting("behind_tls", _switch, lambda _: False, "true behind a TLS proxy: Secure cookies, HSTS"),
    Setting("max_upload_mb", _positive, lambda _: 5.0, "the largest upload, in MB"),
    Setting("signin_link_days", _positive, lambda _: 30.0, "how long a sign-in link works"),
    Setting("session_hours", _positive, lambda _: 24.0, "how long a signed-in browser stays signed in"),
    Setting("time_zone", _time_zone, lambda _: ZoneInfo("UTC"),
            "the course's time zone (IANA name, e.g. Europe/Lisbon): due dates typed without an offset are read"
            " in it, and pages show times in it"),
    Setting("test_timeout", _positive, lambda _: 10.0, "as grade --timeout"),
    Setting("device", _text, lambda _: "auto", "as grade --device"),
    Setting("web_user", _text, lambda _: DEFAULT_WEB_USER,
            "the web process's own system user when serve starts as root (made if missing)"),
    Setting("recheck_seconds", _positive, lambda _: 3600.0,
            "how often a grading worker proves its guarantees and runs the canaries again"),
    Setting("passback_retry_seconds", _positive, lambda _: 30.0,
            "the first wait before a score the LMS did not take is sent again"),
    Setting("passback_give_up_hours", _positive, lambda _: 72.0, "then the score is marked failed"),
    Setting("secret_key", _text, lambda _: None, "signs sessions and sign-in links", secret=True, in_file=False,
            has_flag=False, default_note="made once into <data>/secret_key, 0600"),
    Setting("metrics_token", _text, lambda _: "", "the bearer token Prometheus scrapes /metrics with", secret=True,
            in_file=False, has_flag=False, default_note="none: /metrics answers 404"),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}
# What a command line gave (``use_command_line``): read by ``ServiceConfig.load`` in this process,
# which Django's settings module loads without arguments.
_COMMAND_LINE: dict[str, str] = {}


def use_command_line(values: Mapping[str, str]) -> None:
    """The settings given as flags to this process's command (``config``: the settings file)."""
    unknown = set(values) - set(BY_NAME) - {"config"}
    if unknown:
        raise ConfigError(f"no such settings: {', '.join(sorted(unknown))}")
    _COMMAND_LINE.clear()
    _COMMAND_LINE.update(values)


@dataclass(frozen=True)
class Origin:
    """Where a value came from: ``flag``, ``environment``, ``file`` or ``default``, and which one."""

    kind: str
    detail: str = ""

    def __str__(self) -> str:
        label = {"flag": "command line", "environment": "environment", "file": "settings file",
                 "default": "default"}[self.kind]
        if not self.detail:
            return label
        return f"{label} ({self.detail})" if self.kind == "default" else f"{label} {self.detail}"


def _settings_file(flags: Mapping[str, str], environ: Mapping[str, str]) -> tuple[Path | None, Origin, dict[str, Any]]:
    if flags.get("config"):
        path, origin = flags["config"], Origin("flag", "--config")
    elif environ.get(CONFIG_VARIABLE):
        path, origin = environ[CONFIG_VARIABLE], Origin("environment", CONFIG_VARIABLE)
    else:
        return None, Origin("default"), {}
    resolved = Path(path).expanduser().resolve()
    try:
        content = tomllib.loads(resolved.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"the settings file {path} ({origin}) cannot be read: {error}") from None
    unknown = sorted(set(content) - {setting.name for setting in SETTINGS if setting.in_file})
    if "secret_key" in unknown:
        raise ConfigError(f"{resolved} holds secret_key: the secret key is read from the environment only"
                          f" ({BY_NAME['secret_key'].variable}); remove it from the file")
    if unknown:
        raise ConfigError(f"{resolved}: unknown settings {', '.join(unknown)}; the settings are"
                          f" {', '.join(setting.name for setting in SETTINGS if setting.in_file)}"
                          " (docs/service/settings.md)")
    return resolved, origin, content


def _resolve(flags: Mapping[str, str], environ: Mapping[str, str],
             file: Mapping[str, object], file_path: Path | None) -> tuple[dict[str, Any], dict[str, Origin]]:
    values: dict[str, Any] = {}
    origins: dict[str, Origin] = {}
    for setting in SETTINGS:
        if setting.has_flag and flags.get(setting.name) is not None:
            raw: object = flags[setting.name]
            origin = Origin("flag", setting.flag)
        elif environ.get(setting.variable) is not None:
            raw, origin = environ[setting.variable], Origin("environment", setting.variable)
        elif setting.in_file and setting.name in file:
            raw, origin = file[setting.name], Origin("file", str(file_path))
        else:
            values[setting.name] = setting.default(values)
            origins[setting.name] = Origin("default", setting.default_note)
            continue
        try:
            values[setting.name] = setting.parse(raw)
        except (TypeError, ValueError) as error:
            raise ConfigError(f"{setting.name} from the {origin} must be {error or 'valid'}, not {raw!r}") from None
        origins[setting.name] = origin
    return values, origins


@dataclass(frozen=True)
class ServiceConfig:
    data_dir: Path
    database_url: str
    host: str
    port: int
    base_url: str
    allowed_hosts: list[str]
    behind_tls: bool
    max_upload_bytes: int
    signin_link_days: float
    session_hours: float
    test_timeout: float
    device: str
    web_user: str
    recheck_seconds: float
    upload_bytes_unzipped: int
    passback_retry_seconds: float  # the first retry of a score the LMS did not take; doubled each time
    passback_give_up_hours: float  # then the passback is failed, and the instructor's page says why
    metrics_token: str  # who may scrape /metrics (from the environment only, as the secret key); "": nobody
    time_zone: ZoneInfo  # the course's: typed times without an offset are read in it, pages show times in it
    given_secret_key: str | None = field(default=None, repr=False)
    settings_file: Path | None = None
    settings_file_origin: Origin = Origin("default")
    origins: Mapping[str, Origin] = field(default_factory=dict, compare=False)
    values: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)  # as resolved, by name

    @classmethod
    def load(cls, flags: Mapping[str, str] | None = None, environ: Mapping[str, str] | None = None) -> ServiceConfig:
        """The settings as this process's command line (``use_command_line``), the environment and
        the settings file give them."""
        flags = _COMMAND_LINE if flags is None else flags
        environ = os.environ if environ is None else environ
        file_path, file_origin, file = _settings_file(flags, environ)
        values, origins = _resolve(flags, environ, file, file_path)
        max_bytes = int(values["max_upload_mb"] * 2**20)
        return cls(values["data"], values["database_url"], values["host"], values["port"], values["base_url"],
                   list(values["allowed_hosts"]), values["behind_tls"], max_bytes, values["signin_link_days"],
                   values["session_hours"], values["test_timeout"], values["device"], values["web_user"],
                   values["recheck_seconds"], 4 * max_bytes, values["passback_retry_seconds"],
                   values["passback_give_up_hours"], values["metrics_token"], values["time_zone"],
                   values["secret_key"] or None,
                   file_path, file_origin, origins, values)

    @property
    def max_request_bytes(self) -> int:
        """The largest request body the web reads (``web/bounded_requests.py``)."""
        return self.max_upload_bytes + FORM_ALLOWANCE

    @property
    def templates_dir(self) -> Path:
        return HERE / "web" / "templates"

    @property
    def trusted_origins(self) -> list[str]:
        parts = urlsplit(self.base_url)
        return [f"{parts.scheme}://{parts.netloc}"]

    @property
    def secret_key_file(self) -> Path:
        return self.data_dir / "secret_key"

    @property
    def listens_on_loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:  # a host name: it may resolve anywhere
            return False

    def secret_key(self) -> str:
        """``KIT_SERVICE_SECRET_KEY``, or one made once and kept in the data folder (0600)."""
        if self.given_secret_key:
            return self.given_secret_key
        path = self.secret_key_file
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as handle:
                handle.write(secrets.token_urlsafe(48))
        return path.read_text().strip()

    def given_on_command_line(self) -> dict[str, str]:
        """The settings this process's command line gave, as environment variables: what a child
        process (a grading worker) needs to resolve them the same (they beat the environment)."""
        given = {setting.variable: _as_text(self.values[setting.name]) for setting in SETTINGS
                 if self.origins[setting.name].kind == "flag"}
        if self.settings_file is not None:
            given[CONFIG_VARIABLE] = str(self.settings_file)
        return given

    def shown(self, name: str) -> str:
        """A setting's value as ``--show-config`` prints it: secrets masked."""
        if name == "secret_key":
            return MASK if self.given_secret_key else f"(kept in {self.secret_key_file})"
        value = self.values[name]
        if name == "database_url":  # only its password is secret
            return _without_password(str(value))
        if BY_NAME[name].secret:
            return MASK if value else "(none)"
        return _as_text(value)

    def report(self) -> str:
        """Every setting's effective value and where it came from (``serve --show-config``)."""
        width = max(len(setting.name) for setting in SETTINGS)
        file = f"{self.settings_file} (from the {self.settings_file_origin})" if self.settings_file else "none"
        lines = [f"settings file: {file}",
                 "order: command-line flag, then environment (KIT_SERVICE_*), then settings file, then default"]
        for setting in SETTINGS:
            lines.append(f"{setting.name:<{width}}  {self.shown(setting.name)}  <- {self.origins[setting.name]}")
        return "\n".join(lines)

    def database(self) -> dict[str, Any]:
        """Django's DATABASES entry for ``database_url`` (sqlite:///PATH or postgresql://...)."""
        parts = urlsplit(self.database_url)
        if parts.scheme == "sqlite":
            path = self.database_url[len("sqlite:///"):] if self.database_url.startswith("sqlite:///") else ""
            if not path:
                raise ConfigError(f"{PREFIX}DATABASE_URL={self.database_url}: write sqlite:////absolute/path.sqlite3")
            # WAL lets pages read while a worker writes; IMMEDIATE transactions take the write lock
            # up front, so two writers wait for each other instead of failing half-way.
            return {"ENGINE": "django.db.backends.sqlite3", "NAME": path,
                    "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE",
                                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}}
        if parts.scheme in ("postgres", "postgresql"):
            # Connections are kept for a minute (checked before reuse): a page or a grading job then
            # costs no new login, which on PostgreSQL costs more than the queries themselves.
            return {"ENGINE": "django.db.backends.postgresql", "NAME": unquote(parts.path.lstrip("/")),
                    "USER": unquote(parts.username or ""), "PASSWORD": unquote(parts.password or ""),
                    "HOST": parts.hostname or "", "PORT": str(parts.port or ""), "CONN_MAX_AGE": 60,
                    "CONN_HEALTH_CHECKS": True, "OPTIONS": {"connect_timeout": 10}}
        raise ConfigError(f"{PREFIX}DATABASE_URL must start with sqlite:/// or postgresql://, not {parts.scheme}://")


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = f"{parts.username}:{MASK}@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
