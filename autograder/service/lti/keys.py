"""The tool's own RSA key pairs: made, rotated and published.

The newest key that is not retired signs what the tool sends a platform (deep linking
responses, the client assertions that buy an access token for grade passback). Platforms fetch
the public keys from the tool's JWKS (``/lti/jwks``) and may cache them for hours, so a key
retired by a rotation is still published for ``RETIRED_KEYS_PUBLISHED_FOR``; anything signed from
then on uses the new one.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from jwcrypto.jwk import JWK
from pylti1p3.registration import Registration

from autograder.service.models import ToolKey

KEY_BITS = 2048
RETIRED_KEYS_PUBLISHED_FOR = timedelta(days=1)


def _new_key() -> ToolKey:
    pair = JWK.generate(kty="RSA", size=KEY_BITS)
    public_jwk = Registration.get_jwk(pair.export_to_pem().decode())  # kid: the key's thumbprint
    return ToolKey.objects.create(kid=public_jwk["kid"], private_pem=pair.export_to_pem(private_key=True,
                                  password=None).decode(), public_jwk=public_jwk, created_at=timezone.now())


def current_key() -> ToolKey:
    """The key that signs now (made at the first need)."""
    key = ToolKey.objects.filter(retired_at__isnull=True).first()
    return key if key is not None else _new_key()


def rotate() -> ToolKey:
    """Retire every signing key and make a new one, which signs from now on."""
    with transaction.atomic():
        ToolKey.objects.filter(retired_at__isnull=True).update(retired_at=timezone.now())
        return _new_key()


def published_jwks() -> dict:
    """The public keys platforms may check the tool's signatures with (no private part)."""
    recent = timezone.now() - RETIRED_KEYS_PUBLISHED_FOR
    keys = ToolKey.objects.filter(Q(retired_at__isnull=True) | Q(retired_at__gt=recent))
    if not keys.exists():
        current_key()
    return {"keys": [dict(key.public_jwk) for key in keys.order_by("-created_at", "-id")]}


def public_pem(key: ToolKey) -> str:
    return JWK.from_pem(key.private_pem.encode()).export_to_pem().decode()
