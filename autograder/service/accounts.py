"""Who is who: personal sign-in links and per-student API tokens, kept only as hashes, and the
end of a person's access.

A sign-in link carries a random secret, signed with the service's key and a time stamp
(``django.core.signing``): a tampered or expired link is refused before the database is asked.
The database keeps the secret's SHA-256, the expiry and the revocation. An API token is a random
secret whose SHA-256 and first characters (to tell tokens apart on a page) are kept.

Access ends at once, everywhere (``revoke_access``, ``sign_out_everywhere``): besides the links
and tokens, every session of the person ends with the next request it makes, not when its cookie
expires. Django checks each request's session against the session hash of its user
(``get_session_auth_hash``, a keyed hash of the password field): people here have no password,
so that field serves as their session version, and ``end_sessions`` gives it a new random value.
"""

from __future__ import annotations

import csv
import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.utils import timezone

from autograder.service.models import ApiToken, SignInLink

SIGNIN_SALT = "attention-kit.signin"
TOKEN_PREFIX = "kit_"
TOKEN_USE_RECORDED_EVERY = timedelta(minutes=5)


class RosterError(ValueError):
    """The roster cannot be read; the message says which line and why."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def person(student_id: str, *, instructor: bool = False, name: str = ""):
    """The user with this id, made when new (an instructor stays one)."""
    user, _ = get_user_model().objects.get_or_create(username=student_id)
    changed = False
    if instructor and not user.is_staff:
        user.is_staff, changed = True, True
    if name and user.first_name != name[:150]:
        user.first_name, changed = name[:150], True
    if changed:
        user.save()
    return user


def make_signin_link(user, base_url: str, days: float) -> str:
    """A new personal sign-in link for ``user``, valid for ``days``."""
    secret = secrets.token_urlsafe(32)
    SignInLink.objects.create(user=user, token_hash=digest(secret), expires_at=timezone.now() + timedelta(days=days))
    return f"{base_url}/signin/{signing.TimestampSigner(salt=SIGNIN_SALT).sign(secret)}"


@dataclass(frozen=True)
class LinkCheck:
    """What a sign-in link is worth: its user, or why not (``invalid``, ``expired``, ``revoked``)."""

    user: object | None
    refusal: str = ""


def check_link(signed: str, max_days: float) -> LinkCheck:
    """The user a sign-in link is for, or why it signs no one in: forged or unknown, expired, revoked."""
    try:
        secret = signing.TimestampSigner(salt=SIGNIN_SALT).unsign(signed, max_age=timedelta(days=max_days))
    except signing.SignatureExpired:
        return LinkCheck(None, "expired")
    except signing.BadSignature:
        return LinkCheck(None, "invalid")
    now = timezone.now()
    link = SignInLink.objects.select_related("user").filter(token_hash=digest(secret)).first()
    if link is None:
        return LinkCheck(None, "invalid")
    if link.revoked_at is not None or not link.user.is_active:
        return LinkCheck(None, "revoked")
    if link.expires_at <= now:
        return LinkCheck(None, "expired")
    SignInLink.objects.filter(id=link.id).update(last_used_at=now)
    return LinkCheck(link.user)


def revoke_links(user) -> int:
    return SignInLink.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())


def end_sessions(user) -> None:
    """End every session of ``user``, in every browser, at its next request (see the module's text)."""
    user.set_unusable_password()  # a fresh random value: the session hash of every session changes
    user.save(update_fields=["password"])


def revoke_access(user) -> tuple[int, int]:
    """End all of a person's access at once: sign-in links, API tokens, sessions; how many links and tokens."""
    with transaction.atomic():
        counts = revoke_links(user), revoke_tokens(user)
        end_sessions(user)
    return counts


def sign_out_everywhere(user) -> int:
    """End every session and API token of ``user`` (their sign-in links still work); how many tokens."""
    with transaction.atomic():
        tokens = revoke_tokens(user)
        end_sessions(user)
    return tokens


def make_api_token(user) -> str:
    """A new API token for ``user`` (the old ones stay valid until revoked)."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, token_hash=digest(secret), prefix=secret[:10])
    return secret


def user_for_token(secret: str):
    token = ApiToken.objects.select_related("user").filter(token_hash=digest(secret), revoked_at__isnull=True).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOKEN_USE_RECORDED_EVERY:
        # Not on every request: a CI job polls its status, and a write per poll would queue behind grading.
        ApiToken.objects.filter(id=token.id).update(last_used_at=now)
    return token.user


def revoke_tokens(user) -> int:
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())


@dataclass(frozen=True)
class RosterEntry:
    student_id: str
    name: str
    email: str


def read_roster(path: Path) -> list[RosterEntry]:
    """A CSV with a ``student_id`` column (and optional ``name``, ``email``), as ``export`` reads."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            if "student_id" not in (reader.fieldnames or []):
                raise RosterError(f"{path} has no student_id column (columns: student_id, name, email)")
            entries = []
            for line, record in enumerate(reader, start=2):
                student_id = (record.get("student_id") or "").strip()
                if not student_id or len(student_id) > 150 or "/" in student_id:
                    raise RosterError(f"{path}, line {line}: a student_id of 1 to 150 characters, without '/', is"
                                      " needed")
                entries.append(RosterEntry(student_id, (record.get("name") or "").strip(),
                                           (record.get("email") or "").strip()))
    except OSError as error:
        raise RosterError(f"{path} cannot be read ({error.strerror or error})") from None
    return entries


def links_for_roster(entries: list[RosterEntry], base_url: str, days: float) -> list[tuple[RosterEntry, str]]:
    """A fresh sign-in link for every student of the roster (made as students when new)."""
    with transaction.atomic():
        return [(entry, make_signin_link(person(entry.student_id, name=entry.name), base_url, days))
                for entry in entries]
