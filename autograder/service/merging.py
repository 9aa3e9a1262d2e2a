"""Two accounts that are one person, made one: ``service accounts merge FROM INTO``.

How people become accounts: a roster's sign-in links and ``service token --create`` make an
account named by the student id given; an LMS's person is a (platform, ``sub``) pair
(``LtiIdentity``), whose account is made at their first launch or class list, named by the id
the LMS sends for them (``person_sourcedid``, else ``sub``), or ``<that id>@<platform name>``
when the name is taken. The tool never joins a launch to an account it did not make for that
(platform, ``sub``): a platform, or whoever can set a person's id there, could otherwise sign in
as anyone. So a learner already on the roster comes back from the LMS as a second account, and
the instructor joins the two here (``duplicates`` lists the likely pairs).

``merge`` moves everything of FROM to INTO in one transaction: submissions, adjustments,
sign-in links, API tokens and LTI identities (with their links, class lists and the scores owed
to the LMS); FROM is deleted, so its sessions end. The LMS is then owed INTO's counted score for
each assignment FROM had submitted (the one that counts may be another now). It refuses, changing
nothing, when the two may well be two people: one teaches and the other does not, or both are
people of one platform (two ids there).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from autograder.service.lti.passback import queue_scores
from autograder.service.models import Adjustment, ApiToken, LtiIdentity, SignInLink, Submission


class MergeRefused(ValueError):
    """The two accounts cannot be merged; the message says why, and what to do."""


@dataclass(frozen=True)
class MergePlan:
    """What merging FROM into INTO moves."""

    source: str
    target: str
    submissions: int
    adjustments: int
    signin_links: int
    api_tokens: int
    identities: tuple[str, ...]  # "platform: sub" of each LTI identity FROM has
    assignments: tuple[str, ...]  # FROM's assignments, whose counted score the LMS is owed again

    def summary(self) -> str:
        identities = ", ".join(self.identities) or "none"
        assignments = ", ".join(self.assignments) or "none"
        return (f"{self.source} -> {self.target}: {self.submissions} submissions ({assignments}),"
                f" {self.adjustments} adjustments, {self.signin_links} sign-in links, {self.api_tokens} API tokens,"
                f" LTI identities {identities}; then {self.source} is deleted")


def _account(name: str):
    user = get_user_model().objects.select_for_update().filter(username=name).first()
    if user is None:
        raise MergeRefused(f"there is no account {name!r}")
    return user


def plan(source_name: str, target_name: str) -> MergePlan:
    """What a merge would move, or ``MergeRefused``; call it inside a transaction (it locks both)."""
    if source_name == target_name:
        raise MergeRefused(f"{source_name!r} is one account already")
    source, target = _account(source_name), _account(target_name)
    if source.is_staff != target.is_staff:
        teacher = source_name if source.is_staff else target_name
        raise MergeRefused(f"{teacher} is an instructor and the other is not: an instructor and a student are kept"
                           " apart (if they are one person, revoke the wrong account instead: service revoke NAME)")
    theirs = {identity.platform_id: identity for identity in LtiIdentity.objects.filter(user=target)}
    identities = list(LtiIdentity.objects.filter(user=source).select_related("platform"))
    for identity in identities:
        other = theirs.get(identity.platform_id)
        if other is not None:
            raise MergeRefused(f"both are people of the platform {identity.platform.name} ({identity.subject!r} and"
                               f" {other.subject!r}): the LMS knows them as two persons")
    submissions = Submission.objects.filter(user=source)
    return MergePlan(source_name, target_name, submissions.count(), Adjustment.objects.filter(user=source).count(),
                     SignInLink.objects.filter(user=source).count(), ApiToken.objects.filter(user=source).count(),
                     tuple(f"{i.platform.name}: {i.subject}" for i in identities),
                     tuple(sorted(set(submissions.values_list("assignment_id", flat=True)))))


def merge(source_name: str, target_name: str) -> MergePlan:
    """Merge FROM into INTO (see the module's text): all of it, or nothing."""
    with transaction.atomic():
        chosen = plan(source_name, target_name)
        source, target = _account(source_name), _account(target_name)
        for model in (Submission, Adjustment, SignInLink, ApiToken, LtiIdentity):
            model.objects.filter(user=source).update(user=target)
        source.delete()
        for assignment in chosen.assignments:
            queue_scores(target, assignment, "merged")
    return chosen


def duplicates() -> list[tuple[str, str]]:
    """(LMS account, account of the same id) pairs: an LMS person named ``<id>@<platform>`` because
    an account ``<id>`` was there first; most often one person (see the module's text)."""
    users = get_user_model().objects
    pairs = []
    for identity in LtiIdentity.objects.select_related("user", "platform").order_by("user__username"):
        name = identity.user.username
        match = re.fullmatch(rf"(.+)@{re.escape(identity.platform.name)}(-\d+)?", name)
        if match and users.filter(username=match.group(1)).exists():
            pairs.append((name, match.group(1)))
    return pairs


def accounts_command(args) -> int:
    """``service accounts merge FROM INTO [--dry-run]`` and ``service accounts duplicates``."""
    if args.accounts_action == "duplicates":
        pairs = duplicates()
        for source, target in pairs:
            print(f"{source} may be {target}: service accounts merge {source} {target} --dry-run")
        if not pairs:
            print("no account of an LMS shares its id with another account")
        return 0
    try:
        if args.dry_run:
            with transaction.atomic():
                print("would merge " + plan(args.source, args.target).summary() + " (nothing changed: --dry-run)")
        else:
            print("merged " + merge(args.source, args.target).summary())
    except MergeRefused as refusal:
        print(f"cannot merge {args.source} into {args.target} (nothing was changed): {refusal}", file=sys.stderr)
        return 2
    return 0
