"""The service's configuration: environment variables ``KIT_SERVICE_*``, or the same keys (lower
case, without the prefix) in a TOML file named by ``KIT_SERVICE_CONFIG`` or ``serve --config``.
An environment variable wins over the file. docs/service/settings.md lists them."""

from __future__ import annotations

import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from autograder.paths import KIT_ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PREFIX = "KIT_SERVICE_"
# As root, the web process runs as an unprivileged user, who must reach the database: not inside
# a kit that may sit in a private folder.
DEFAULT_DATA_AS_ROOT = Path("/var/lib/attention-kit")
HERE = Path(__file__).resolve().parent


class ConfigError(ValueError):
    """A setting has a value the service cannot use; the message names it."""


def _settings_file() -> dict:
    path = os.environ.get(PREFIX + "CONFIG")
    if not path:
        return {}
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{PREFIX}CONFIG={path} cannot be read ({error})") from None


@dataclass(frozen=True)
class ServiceConfig:
    data_dir: Path
    database_url: str
    base_url: str
    allowed_hosts: list[str]
    behind_tls: bool
    max_upload_bytes: int
    signin_link_days: float
    test_timeout: float
    device: str
    web_user: str
    recheck_seconds: float
    upload_bytes_unzipped: int
    passback_retry_seconds: float  # the first retry of a score the LMS did not take; doubled each time
    passback_give_up_hours: float  # then the passback is failed, and the instructor's page says why
    metrics_token: str  # who may scrape /metrics (from the environment only, as the secret key); "": nobody

    @classmethod
    def from_environment(cls) -> ServiceConfig:
        file = _settings_file()

        def get(name: str, default: str) -> str:
            value = os.environ.get(PREFIX + name.upper())
            return value if value is not None else str(file.get(name, default))

        def number(name: str, default: float) -> float:
            text = get(name, str(default))
            try:
                return float(text)
            except ValueError:
                raise ConfigError(f"{PREFIX}{name.upper()} must be a number, not {text!r}") from None

        data_dir = Path(get("data", str(DEFAULT_DATA_AS_ROOT if os.geteuid() == 0 else KIT_ROOT / "service-data")))
        data_dir = data_dir.resolve()
        base_url = get("base_url", "http://localhost:8000").rstrip("/")
        hosts = [host.strip() for host in get("allowed_hosts", "").split(",") if host.strip()]
        hosts = hosts or sorted({"localhost", "127.0.0.1", urlsplit(base_url).hostname or "localhost"})
        max_mb = number("max_upload_mb", 5)
        return cls(data_dir, get("database_url", f"sqlite:///{data_dir / 'service.sqlite3'}"), base_url, hosts,
                   get("behind_tls", "false").lower() in ("1", "true", "yes"), int(max_mb * 2**20),
                   number("signin_link_days", 30), number("test_timeout", 10), get("device", "auto"),
                   get("web_user", "nobody"), number("recheck_seconds", 3600), int(4 * max_mb * 2**20),
                   number("passback_retry_seconds", 30), number("passback_give_up_hours", 72),
                   os.environ.get(PREFIX + "METRICS_TOKEN", ""))

    @property
    def templates_dir(self) -> Path:
        return HERE / "web" / "templates"

    @property
    def trusted_origins(self) -> list[str]:
        parts = urlsplit(self.base_url)
        return [f"{parts.scheme}://{parts.netloc}"]

    def secret_key(self) -> str:
        """``KIT_SERVICE_SECRET_KEY``, or one made once and kept in the data folder (0600)."""
        given = os.environ.get(PREFIX + "SECRET_KEY")
        if given:
            return given
        path = self.data_dir / "secret_key"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as handle:
                handle.write(secrets.token_urlsafe(48))
        return path.read_text().strip()

    def database(self) -> dict:
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
