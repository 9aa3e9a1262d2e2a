"""Where the tool may send requests on a platform's behalf: never where a launch points it.

A launch's claims name the course's grade service (Assignment and Grade Services: ``lineitems``,
``lineitem``) and class list (Names and Role Provisioning: ``context_memberships_url``), and the
tool later sends requests there with an access token. A platform, or whoever controls a launch,
could name any address: the loopback's services, a cloud's metadata service
(``http://169.254.169.254/``), the internal network. So a URL is requested only when its origin is
one of the platform's registered addresses (issuer, login, token, key set), or its host is one the
administrator registered for that platform's services (``service lti register --service-host``,
for an LMS that serves them elsewhere, as hosted Canvas does). Every request to a platform is
checked here (``PlatformSession`` calls ``check`` for each, redirects included), and a refusal
says the instructor what to register; nothing is fetched.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from autograder.service.models import LtiPlatform

DEFAULT_PORTS = {"http": 80, "https": 443}


class ForeignEndpoint(Exception):
    """A URL that is not the platform's: the message says which, and what to register if it is."""


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL, or None."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:  # a port that is no number
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or port is None:
        return None
    return parts.scheme, parts.hostname.lower().rstrip("."), port


def _host_port(origin: tuple[str, str, int]) -> str:
    scheme, host, port = origin
    host = f"[{host}]" if ":" in host else host
    return host if DEFAULT_PORTS[scheme] == port else f"{host}:{port}"


def platform_origins(platform: LtiPlatform) -> set[tuple[str, str, int]]:
    """The origins of the addresses its administrator registered for ``platform``."""
    urls = [platform.issuer, platform.auth_login_url, platform.auth_token_url, platform.key_set_url]
    return {origin for origin in map(_origin, urls) if origin is not None}


def _allowed_host(entry: str, origin: tuple[str, str, int]) -> bool:
    """``entry`` is ``host`` (its scheme's default port) or ``host:port``, from ``--service-host``."""
    registered = _origin(f"{origin[0]}://{entry.strip()}")
    return registered is not None and registered[1:] == origin[1:]


def check(platform: LtiPlatform, url: str, what: str = "a request") -> None:
    """Raise ForeignEndpoint unless ``url`` is on ``platform``'s registered hosts."""
    origin = _origin(url)
    if origin is not None and (origin in platform_origins(platform)
                               or any(_allowed_host(entry, origin) for entry in platform.service_hosts)):
        return
    name = platform.name
    hosts = sorted({_host_port(known) for known in platform_origins(platform)} | set(platform.service_hosts))
    shown = url[:200]
    hint = (f"; if {name} really serves it from there, register the host: python -m autograder service lti register"
            f" {name} ... --service-host {_host_port(origin)}") if origin else ""
    raise ForeignEndpoint(f"{what} at {shown} is not on the hosts registered for {name} ({', '.join(hosts)}): the"
                          f" tool sends nothing there{hint}")
