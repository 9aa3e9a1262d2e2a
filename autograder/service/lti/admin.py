"""``python -m autograder service lti ...``: what an administrator does once per learning platform.

1. In the LMS, add an LTI 1.3 tool with the addresses ``show`` prints (login, launch and deep
   linking, public key set), with deep linking and the Assignment and Grade Services on.
2. Here, ``register`` the platform with what the LMS shows in return: its issuer, the client id,
   its authorization, token and key set URLs, and each deployment id.
3. ``rotate-key`` makes a new signing key whenever wanted (the old one stays published a day).
4. ``roster`` fetches each course's class list (Names and Role Provisioning), so that the class
   table lists the students who have not submitted yet (also a button on the class page).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction

from autograder.service.addresses import link_base_url
from autograder.service.lti.keys import current_key, rotate
from autograder.service.models import LtiDeployment, LtiPlatform, PassbackState, ScorePassback, ToolKey


def tool_addresses(base_url: str) -> list[tuple[str, str]]:
    return [("OIDC login initiation URL", f"{base_url}/lti/login"),
            ("target link / redirect URI (launch)", f"{base_url}/lti/launch"),
            ("deep linking URL", f"{base_url}/lti/launch"),
            ("public key set (JWKS) URL", f"{base_url}/lti/jwks")]


def _register(args) -> int:
    check = URLValidator(schemes=["http", "https"])
    for option in ("login_url", "token_url", "jwks_url"):
        try:
            check(getattr(args, option))
        except ValidationError:
            print(f"--{option.replace('_', '-')} must be an http(s) URL, not {getattr(args, option)!r}")
            return 2
    chosen = {"issuer": args.issuer, "client_id": args.client_id, "auth_login_url": args.login_url,
              "auth_token_url": args.token_url, "key_set_url": args.jwks_url, "auth_audience": args.audience}
    if args.service_host is not None:
        hosts = [host.strip().lower() for host in args.service_host if host.strip()]
        if any("/" in host or "@" in host for host in hosts):
            print(f"--service-host takes host or host:port, not a URL: {', '.join(args.service_host)}")
            return 2
        chosen["service_hosts"] = hosts
    with transaction.atomic():
        platform, made = LtiPlatform.objects.update_or_create(name=args.name, defaults=chosen)
        for deployment in args.deployment:
            LtiDeployment.objects.get_or_create(platform=platform, deployment_id=deployment)
    current_key()
    deployments = ", ".join(platform.deployments.values_list("deployment_id", flat=True)) or "none yet (--deployment)"
    print(f"{'registered' if made else 'updated'} {platform.name}: issuer {platform.issuer}, client id"
          f" {platform.client_id}, deployments {deployments}, service hosts"
          f" {', '.join(platform.service_hosts) or 'only its own addresses'}")
    return 0


def _show() -> int:
    base_url = link_base_url(settings.CONFIG)  # the addresses an LMS will call: never a default that leads nowhere
    print("Give the LMS these addresses of the tool (LTI 1.3, with deep linking and grade passback):")
    for what, url in tool_addresses(base_url):
        print(f"  {what}: {url}")
    print("Registered platforms:")
    for platform in LtiPlatform.objects.prefetch_related("deployments"):
        deployments = ", ".join(d.deployment_id for d in platform.deployments.all()) or "none"
        print(f"  {platform.name}: issuer {platform.issuer}, client id {platform.client_id}, deployments {deployments},"
              f" service hosts {', '.join(platform.service_hosts) or 'only its own addresses'}")
    print("Tool keys (the newest unretired one signs):")
    for key in ToolKey.objects.all():
        print(f"  {key.kid}: made {key.created_at:%Y-%m-%d %H:%M} UTC"
              + (f", retired {key.retired_at:%Y-%m-%d %H:%M} UTC" if key.retired_at else ", signing"))
    counts = {state: ScorePassback.objects.filter(state=state).count() for state in PassbackState.values}
    print("Scores for LMS gradebooks: " + ", ".join(f"{count} {state}" for state, count in counts.items()))
    return 0


def _roster() -> int:
    from autograder.service.lti.roster import fetch_all

    results = fetch_all()
    if not results:
        print("no LMS course yet: the class lists come from courses whose links were launched")
        return 1
    for context, result in results:
        course = f"{context.deployment.platform.name}: {context.title or context.context_id}"
        print(f"{course}: {result} student{'' if result == 1 else 's'} on its class list" if isinstance(result, int)
              else f"{course}: not fetched: {result}")
    return 0 if all(isinstance(result, int) for _, result in results) else 1


def lti_command(args) -> int:
    if args.lti_action == "register":
        return _register(args)
    if args.lti_action == "roster":
        return _roster()
    if args.lti_action == "rotate-key":
        key = rotate()
        print(f"new signing key {key.kid}; the old one stays in the published key set for a day")
        return 0
    return _show()
