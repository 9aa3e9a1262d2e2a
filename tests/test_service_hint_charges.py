"""Hint charges in the submission service (issue 41): an assignment's policy may set its own prices
over the rubric's (on the policy page and with ``service policy``, refused in the reader's words),
and the score that counts, grades.csv, the feedback page and the score sent to the LMS all take the
charge. On the service's real database, through Django's test client and the real command; the
live service, with a real grading worker on loopback, is tried in tests/test_service_http.py."""

from __future__ import annotations

import csv
import html
import io
import os
import re
import subprocess
import sys

import pytest
from service_harness import notebook_bytes

from autograder.paths import KIT_ROOT
from autograder.records.results import (
    GradedRow,
    HintCharge,
    HintUse,
    RowKind,
    RowStatus,
    ScoredTest,
    TestStatus,
)
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

A04 = "04_multi_head_attention"
HOST = "localhost"
PRICES = "0, 0.5, 1; split_heads: 0, 1, 2"


def _client(user):
    from django.test import Client

    client = Client(HTTP_HOST=HOST)
    client.force_login(user)
    return client


def _instructor():
    from autograder.service import accounts

    return _client(accounts.person("charges-teacher", instructor=True))


def _graded_submission(student_id: str, hints: dict[str, int], rubric_charges: tuple[HintCharge, ...] = ()):
    """A submission of A04 with a finished grading, recorded through the queue's claim and finish as
    a worker records it: every stage right (10 points each, 60 in all), ``hints`` opened, and what
    the rubric charged for them when it was graded."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from autograder.service import accounts, queue
    from autograder.service.models import Grading, Submission

    user = accounts.person(student_id, name=student_id.title())
    token = accounts.make_api_token(user)
    answer = Client(HTTP_HOST=HOST, HTTP_AUTHORIZATION=f"Bearer {token}").post(
        "/api/v1/submissions", {"assignment": A04, "notebook": SimpleUploadedFile(
            f"{A04}.ipynb", notebook_bytes("ada_full_marks", A04, run=student_id))})
    submission = Submission.objects.get(id=answer.json()["id"])
    tests = tuple(ScoredTest(f"test_{stage}", stage, 10.0, 10.0, TestStatus.PASSED)
                  for stage in STAGES_BY_ASSIGNMENT[A04])
    row = GradedRow(student_id, A04, RowStatus(RowKind.GRADED), 60.0, 60.0, tests,
                    hints=tuple(HintUse(stage, tier) for stage, tier in hints.items()), hint_charges=rubric_charges)
    grading = queue.claim(Grading.objects.get(submission=submission).id, "test-worker")
    assert queue.finish(grading, "test-worker", row.to_json(), row.tests_score)
    return user, submission


def _set_policy(**fields: str):
    """The policy page's form, posted whole, with ``fields`` typed in."""
    posted = {"accepting": "on", "due_at": "", "late_penalty_percent": "0", "closes_at": "",
              "visibility_before_due": "everything", "counts": "latest", "per_hour_limit": "", "total_limit": "",
              "hint_charges": "", **fields}
    return _instructor().post(f"/instructor/policies/{A04}", posted)


def _grades(student_id: str) -> dict[str, str]:
    answer = _instructor().get("/instructor/grades.csv").content.decode()
    return next(row for row in csv.DictReader(io.StringIO(answer)) if row["student_id"] == student_id
                and row["assignment_id"] == A04)


def _feedback(user, submission) -> str:
    return html.unescape(_client(user).get(f"/submissions/{submission.id}/feedback").content.decode())


@pytest.fixture
def fresh_policy(service_data):
    """A04's policy as it starts, and put back after the test."""
    from autograder.service.models import AssignmentPolicy

    AssignmentPolicy.objects.filter(assignment_id=A04).delete()
    yield
    AssignmentPolicy.objects.filter(assignment_id=A04).delete()


def test_a_charge_set_in_the_policy_shows_in_grades_csv_and_on_the_feedback_page(fresh_policy):
    user, submission = _graded_submission("hc_policy", {"split_heads": 2, "merge_heads": 3, "MultiHeadAttention": 1})
    assert _grades("hc_policy")["score"] == "60"
    assert "Hint charge" not in _feedback(user, submission)  # no charge by default: nothing shown

    assert _set_policy(hint_charges=PRICES).status_code == 302
    assert _grades("hc_policy")["score"] == "58"  # split_heads' own tier 2 (1), merge_heads' tier 3 (1), tier 1 free
    page = _feedback(user, submission)
    assert '<td>Hint charge (tier 2 opened for split_heads)</td><td class="points">\u22121</td>' in page
    assert '<td>Hint charge (tier 3 opened for merge_heads)</td><td class="points">\u22121</td>' in page
    assert "MultiHeadAttention)" not in page
    assert '<p class="score">58 / 60</p>' in page
    shown = _instructor().get(f"/instructor/policies/{A04}").content.decode()
    assert f'value="{PRICES}"' in shown  # the page shows what it saved, as it is typed


def test_the_policy_replaces_the_rubrics_charge_or_leaves_it(fresh_policy):
    """A grading keeps what the rubric charged; the policy's own prices (or none) replace it."""
    by_rubric = (HintCharge("split_heads", 3, 3.0, 3.0),)
    user, submission = _graded_submission("hc_rubric", {"split_heads": 3}, by_rubric)
    assert _grades("hc_rubric")["score"] == "57"
    assert '<td>Hint charge (tier 3 opened for split_heads)</td><td class="points">\u22123</td>' in _feedback(
        user, submission)
    _set_policy(hint_charges="none")
    assert _grades("hc_rubric")["score"] == "60"
    assert "Hint charge" not in _feedback(user, submission)
    _set_policy(hint_charges="split_heads: 0, 0, 0.25")
    assert _grades("hc_rubric")["score"] == "59.75"
    _set_policy(hint_charges="")
    assert _grades("hc_rubric")["score"] == "57"


def test_the_score_sent_to_the_lms_is_after_the_charge(fresh_policy):
    from django.utils import timezone

    from autograder.service import accounts
    from autograder.service.models import (
        LtiContext,
        LtiDeployment,
        LtiIdentity,
        LtiLinkUser,
        LtiPlatform,
        LtiResourceLink,
        ScorePassback,
    )

    _set_policy(hint_charges="every_stage: 0, 2, 4")
    user = accounts.person("hc_lms", name="Hc Lms")
    platform = LtiPlatform.objects.create(name="charges-lms", issuer="https://lms.example.edu/hc", client_id="kit",
                                          auth_login_url="https://lms.example.edu/auth",
                                          auth_token_url="https://lms.example.edu/token",
                                          key_set_url="https://lms.example.edu/keys")
    context = LtiContext.objects.create(deployment=LtiDeployment.objects.create(platform=platform, deployment_id="1"),
                                        context_id="course", lineitems_url="https://lms.example.edu/lineitems")
    link = LtiResourceLink.objects.create(context=context, resource_link_id="a04", assignment_id=A04)
    LtiLinkUser.objects.create(link=link, identity=LtiIdentity.objects.create(platform=platform, subject="hc",
                                                                             user=user),
                               last_launch_at=timezone.now())
    _graded_submission("hc_lms", {"split_heads": 3})
    sent = ScorePassback.objects.get(link_user__identity__user=user)
    assert (sent.score_given, sent.score_maximum) == (56.0, 60.0)


# -- refusals, in the reader's words, on the page and from the command ----------------------------
REFUSALS = {
    "0, 0.5": "0, 0.5: give 3 prices, one per hint tier, as 0, 0.5, 1.",
    "0, half, 1": "0, half, 1: half is not a number of points (write a half as 0.5).",
    "0, 0,5, 1": "0, 0,5, 1: give 3 prices, one per hint tier, as 0, 0.5, 1.",
    "0, -1, 1": "0, -1, 1: a price is 0 points or more, not -1.",
    "split_heads: 2, 1, 3": "split_heads: 2, 1, 3: a higher tier never costs less than a lower one.",
    "softmax_naive: 0, 1, 2": ("softmax_naive is no stage of 04_multi_head_attention; its stages are"
                               " MultiHeadAttentionWrapper, wrapper_with_2d_output, split_heads, merge_heads,"
                               " MultiHeadAttention, gpt2_small_attention."),
    "split_heads: 0, 1, 2; split_heads: 0, 0, 1": ("split_heads: 0, 0, 1: that stage has a row already; keep one row"
                                                   " per stage (and one without a stage, for every stage)."),
    "0, inf, inf": "0, inf, inf: inf is not a number of points (write a half as 0.5).",
}


def _refusal_of(page) -> str:
    found = re.search(r'id="hint_charges-refusal"[^>]*>([^<]*)<', page.content.decode())
    assert found, "no refusal beside the hint charges"
    return html.unescape(found.group(1))


@pytest.mark.parametrize(("typed", "refusal"), REFUSALS.items())
def test_the_policy_page_refuses_prices_it_cannot_use_beside_the_field_and_saves_nothing(fresh_policy, typed,
                                                                                         refusal):
    from autograder.service.policy import policy_for

    page = _set_policy(hint_charges=typed)
    assert page.status_code == 400
    assert _refusal_of(page) == refusal
    assert f'value="{html.escape(typed)}"' in page.content.decode()  # kept, to be corrected
    assert policy_for(A04).hint_charges is None


@pytest.mark.parametrize(("language", "refusal"), [
    ("zh", "0, -1, 1：价格是 0 分或更多，不能是 -1。"),
    ("pt", "0, -1, 1: um preço é de 0 pontos ou mais, não -1."),
])
def test_the_policy_page_refuses_prices_in_the_readers_language(fresh_policy, language, refusal):
    posted = {"accepting": "on", "late_penalty_percent": "0", "visibility_before_due": "everything",
              "counts": "latest", "hint_charges": "0, -1, 1"}
    page = _instructor().post(f"/instructor/policies/{A04}?lang={language}", posted)
    assert _refusal_of(page) == refusal


def _service(data, *args: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("KIT_SERVICE_")}
    return subprocess.run([sys.executable, "-m", "autograder", "service", *args], cwd=KIT_ROOT, capture_output=True,
                          text=True, timeout=120, env={**environment, "KIT_SERVICE_DATA": str(data)})


def test_service_policy_sets_hint_charges_and_refuses_with_the_pages_words(fresh_policy, service_data):
    from autograder.service.policy import policy_for

    refused = _service(service_data, "policy", A04, "--hint-charges", "0, -1, 1")
    assert refused.returncode == 2, refused.stderr
    assert "--hint-charges: 0, -1, 1: a price is 0 points or more, not -1." in refused.stderr.splitlines()
    assert policy_for(A04).hint_charges is None
    saved = _service(service_data, "policy", A04, "--hint-charges", PRICES)
    assert saved.returncode == 0, saved.stderr
    assert f"hint charges {PRICES}" in saved.stdout
    assert policy_for(A04).hint_charges == {"every_stage": [0, 0.5, 1], "split_heads": [0, 1, 2]}
    kept = _service(service_data, "policy", A04, "--late-penalty", "5")  # the other options leave it as it is
    assert policy_for(A04).hint_charges == {"every_stage": [0, 0.5, 1], "split_heads": [0, 1, 2]}, kept.stderr
    assert _service(service_data, "policy", A04, "--hint-charges", "").returncode == 0
    assert policy_for(A04).hint_charges is None
