"""The service's uploads, API and token command, in one process through Django's test client, on a
real SQLite database migrated for this module: a live server (gunicorn, a grading worker) adds
nothing to what these tests ask. A refusal names the file the student uploaded and says what it is,
in the reader's language; the API lists a caller's own submissions, with ISO-8601 times and the
feedback page's address as far as the policy shows it; ``service token --create`` makes a student.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from datetime import datetime, timedelta

import pytest
from service_harness import notebook_bytes

from autograder.paths import KIT_ROOT

A01, A02 = "01_attention_scores", "02_self_attention"
HOST = "localhost"  # one of the default allowed hosts


def _student(name: str):
    from autograder.service import accounts

    return accounts.person(name, name=name.title())


def _api(token: str | None = None):
    from django.test import Client

    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return Client(HTTP_HOST=HOST, **headers)


def _token_of(user) -> str:
    from autograder.service import accounts

    return accounts.make_api_token(user)


def _submit(token: str, assignment: str, content: bytes, filename: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return _api(token).post("/api/v1/submissions",
                            {"assignment": assignment, "notebook": SimpleUploadedFile(filename, content)})


def _stored() -> int:
    from autograder.service.models import Submission

    return Submission.objects.count()


# -- refusals name the uploaded file and say what it is -------------------------------------------
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + bytes(range(256))
PDF = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" + bytes(range(128, 256))
HTML = b"<!DOCTYPE html>\n<html>\n<head><meta charset='utf-8'><title>01_attention_scores</title></head></html>"
PYTHON = b"import torch\n\n\ndef softmax_naive(x):\n    return torch.exp(x) / torch.exp(x).sum(dim=-1, keepdim=True)\n"
TEXT = b"My answers: the softmax sums to one.\nI could not finish the last part.\n"
DAMAGED = notebook_bytes("ada_full_marks", A01)[:3000]  # a notebook cut short
NOT_CELLS = json.dumps({"name": "settings", "values": [1, 2, 3]}).encode()
GZIP = gzip.compress(notebook_bytes("ada_full_marks", A01))


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


# case -> (content, the name the student gave it, the refusal's key, what the English refusal says)
KINDS = {
    "a screenshot": (PNG, "screenshot.png", "not_a_notebook_image", "screenshot.png is an image, not a notebook"),
    "a screenshot renamed .ipynb": (PNG, "my_answers.ipynb", "not_a_notebook_image",
                                    "my_answers.ipynb is an image, not a notebook"),
    "a photo": (JPEG, "IMG_0042.jpg", "not_a_notebook_image", "IMG_0042.jpg is an image, not a notebook"),
    "a PDF export": (PDF, "attention.pdf", "not_a_notebook_pdf", "attention.pdf is a PDF document, not a notebook"),
    "an HTML export": (HTML, "attention.html", "not_a_notebook_html", "attention.html is a web page (HTML)"),
    "a Python file": (PYTHON, "attention.py", "not_a_notebook_python", "attention.py is a Python file, not a notebook"),
    "plain text": (TEXT, "answers.txt", "not_a_notebook_text", "answers.txt is plain text, not a notebook"),
    "a notebook cut short": (DAMAGED, "attention (1).ipynb", "not_a_notebook_damaged",
                             "attention (1).ipynb starts like a notebook but is damaged"),
    "JSON that is no notebook": (NOT_CELLS, "settings.json", "not_a_notebook_json",
                                 "settings.json is a JSON file, but not a notebook"),
    "a gzip": (GZIP, "attention.ipynb.gz", "not_a_notebook_archive", "attention.ipynb.gz is a compressed archive"),
    "a damaged zip": (b"PK\x03\x04broken", "export.zip", "damaged_zip", "export.zip is a damaged zip file"),
    "a zip without a notebook": (_zip({"word/document.xml": b"<w:document/>"}), "report.docx", "zip_without_notebook",
                                 f"The zip report.docx holds no notebook named {A01}.ipynb"),
    "another assignment's notebook": (notebook_bytes("ada_full_marks", A02), "my_work.ipynb", "wrong_assignment",
                                      f"my_work.ipynb looks like the notebook of {A02}, not of {A01}"),
}


@pytest.mark.parametrize("case", list(KINDS))
def test_a_refusal_names_the_uploaded_file_and_says_what_it_is(service_data, case):
    content, filename, key, says = KINDS[case]
    token = _token_of(_student("rex"))
    before = _stored()
    answer = _submit(token, A01, content, filename)
    assert answer.status_code == 400, answer.content
    assert answer.json()["refusal"] == key
    assert says in answer.json()["error"]
    if filename != f"{A01}.ipynb":
        assert f"{A01}.ipynb" not in answer.json()["error"].replace(f"named {A01}.ipynb", "")
    assert "damaged" not in answer.json()["error"] or key in ("not_a_notebook_damaged", "damaged_zip")
    assert _stored() == before


# What the assignment page says of a PNG in each language: the file's name, and "an image".
IMAGE_IN = {"en": "screenshot.png is an image, not a notebook", "zh": "screenshot.png 是一张图片，不是笔记本",
            "pt": "screenshot.png é uma imagem, não um notebook"}


@pytest.mark.parametrize("language", list(IMAGE_IN))
def test_the_api_words_a_refusal_in_the_language_it_is_asked_for(service_data, language):
    """The notebooks' submit() sends its notebook's language; a language the kit lacks is English."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    token = _token_of(_student("api_language"))
    for asked, says in ((language, IMAGE_IN[language]), ("xx", IMAGE_IN["en"])):
        answer = _api(token).post("/api/v1/submissions", {"assignment": A01, "language": asked,
                                                          "notebook": SimpleUploadedFile("screenshot.png", PNG)})
        assert answer.status_code == 400
        assert says in answer.json()["error"]


@pytest.mark.parametrize("language", list(IMAGE_IN))
def test_the_upload_page_says_what_the_file_is_in_the_readers_language(service_data, language):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    browser = Client(HTTP_HOST=HOST)
    browser.force_login(_student(f"page_{language}"))
    before = _stored()
    page = browser.post(f"/assignments/{A01}/upload?lang={language}",
                        {"notebook": SimpleUploadedFile("screenshot.png", PNG)})
    assert page.status_code == 400
    assert IMAGE_IN[language] in page.content.decode()
    assert _stored() == before


def test_a_notebook_is_still_accepted_whatever_its_name(service_data):
    token = _token_of(_student("nia"))
    answer = _submit(token, A01, notebook_bytes("ada_full_marks", A01, run="nia"), "Untitled (3).ipynb")
    assert answer.status_code == 201, answer.content
    zipped = _submit(token, A02, _zip({f"{A02}.ipynb": notebook_bytes("ada_full_marks", A02)}), "export.zip")
    assert zipped.status_code == 201, zipped.content


# -- the API: ISO-8601 times, the caller's own list, the feedback page's address --------------------
ISO_WITH_OFFSET = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")


def test_received_at_is_iso_8601_with_its_offset(service_data):
    token = _token_of(_student("iso"))
    made = _submit(token, A01, notebook_bytes("ada_full_marks", A01, run="iso"), f"{A01}.ipynb")
    assert made.status_code == 201, made.content
    received = made.json()["received_at"]
    assert ISO_WITH_OFFSET.match(received), received
    assert abs(datetime.fromisoformat(received) - datetime.now().astimezone()) < timedelta(minutes=5)
    status = _api(token).get(made.json()["status_url"]).json()
    assert status["received_at"] == received


def _graded(submission_id: int, score: float) -> None:
    """Record a grading of the submission through the queue's own claim and finish, as a worker does:
    one passed test worth ``score`` (the service scores a row by its tests' points)."""
    from autograder.records.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus
    from autograder.service import queue
    from autograder.service.models import Grading, Submission

    submission = Submission.objects.get(id=submission_id)
    grading = queue.claim(Grading.objects.get(submission=submission).id, "test-worker")
    test = ScoredTest("test_softmax", "softmax_naive", score, 100.0, TestStatus.PASSED)
    row = GradedRow(submission.user.username, submission.assignment_id, RowStatus(RowKind.GRADED), score, 100.0,
                    tests=(test,))
    assert queue.finish(grading, "test-worker", row.to_json(), score)


def test_the_list_holds_the_callers_own_submissions_as_their_own_addresses_describe_them(service_data):
    ana, bob = _token_of(_student("ana_list")), _token_of(_student("bob_list"))
    first = _submit(ana, A01, notebook_bytes("ada_full_marks", A01, run="ana1"), f"{A01}.ipynb").json()["id"]
    second = _submit(ana, A02, notebook_bytes("ada_full_marks", A02, run="ana2"), f"{A02}.ipynb").json()["id"]
    bobs = _submit(bob, A01, notebook_bytes("ada_full_marks", A01, run="bob"), f"{A01}.ipynb").json()["id"]
    _graded(first, 75.0)

    listed = _api(ana).get("/api/v1/submissions")
    assert listed.status_code == 200, listed.content
    items = listed.json()["submissions"]
    assert [item["id"] for item in items] == [second, first]  # newest first, and never bob's
    for item in items:
        assert item == _api(ana).get(f"/api/v1/submissions/{item['id']}").json()  # the same policy shows the same
    assert [item["id"] for item in _api(ana).get(f"/api/v1/submissions?assignment={A01}").json()["submissions"]] \
        == [first]
    assert [item["id"] for item in _api(bob).get("/api/v1/submissions").json()["submissions"]] == [bobs]
    from autograder.service import accounts

    instructor = _token_of(accounts.person("ivy_list", instructor=True))
    assert _api(instructor).get("/api/v1/submissions").json() == {"submissions": []}  # the API shows only one's own
    assert _api().get("/api/v1/submissions").status_code == 401
    assert _api("kit_not-a-token").get("/api/v1/submissions").status_code == 401


def test_the_feedback_address_is_given_only_when_the_policy_shows_the_feedback_and_leads_to_it(service_data):
    from django.test import Client
    from django.utils import timezone

    from autograder.service.policy import policy_for
    from autograder.student.service_client import report

    student = _student("fay")
    token = _token_of(student)
    submitted = _submit(token, A01, notebook_bytes("ada_full_marks", A01, run="fay"), f"{A01}.ipynb").json()["id"]
    _graded(submitted, 100.0)
    status = _api(token).get(f"/api/v1/submissions/{submitted}").json()
    assert status["feedback_url"] == f"/submissions/{submitted}/feedback"
    browser = Client(HTTP_HOST=HOST)
    browser.force_login(student)
    feedback = browser.get(status["feedback_url"])
    assert feedback.status_code == 200
    assert "feedback for fay" in feedback.content.decode()
    printed = report(status, "https://grader.example.edu")
    assert f"Feedback page: https://grader.example.edu/submissions/{submitted}/feedback" in printed

    policy = policy_for(A01)
    policy.due_at, policy.visibility_before_due = timezone.now() + timedelta(days=3), "score"
    policy.save()
    try:
        score_only = _api(token).get(f"/api/v1/submissions/{submitted}").json()
        assert score_only["score"] == status["score"]  # the score shows, the feedback does not
        assert "feedback_url" not in score_only
        assert browser.get(f"/submissions/{submitted}/feedback").status_code == 404
        printed = report(score_only, "https://grader.example.edu")
        assert not [line for line in printed if line.startswith("Feedback page")]
        assert f"Submission page: https://grader.example.edu/submissions/{submitted}" in printed
    finally:
        policy.due_at, policy.visibility_before_due = None, "everything"
        policy.save()


# -- which submission counts: the status and the submission page say when a score was replaced ------------
def _counts_policy(counts: str, due_at=None, visibility_before_due: str = "everything"):
    from autograder.service.policy import policy_for

    policy = policy_for(A01)
    policy.counts, policy.due_at, policy.visibility_before_due = counts, due_at, visibility_before_due
    policy.save()
    return policy


def _two_graded(name: str, first: float, second: float) -> tuple[str, int, int]:
    token = _token_of(_student(name))
    ids = []
    for run, score in (("one", first), ("two", second)):
        made = _submit(token, A01, notebook_bytes("ada_full_marks", A01, run=f"{name}{run}"), f"{A01}.ipynb")
        ids.append(made.json()["id"])
        _graded(ids[-1], score)
    return token, ids[0], ids[1]


def _page_of(name: str, submission_id: int, language: str = "en") -> str:
    from django.contrib.auth.models import User
    from django.test import Client

    browser = Client(HTTP_HOST=HOST)
    browser.force_login(User.objects.get(username=name))
    answer = browser.get(f"/submissions/{submission_id}?lang={language}")
    assert answer.status_code == 200
    return answer.content.decode()


def test_under_latest_a_lower_score_replaces_a_higher_one_and_the_status_and_page_say_so(service_data):
    _counts_policy("latest")
    token, first, second = _two_graded("lea_counts", 88.25, 25.0)
    status = _api(token).get(f"/api/v1/submissions/{second}").json()
    assert (status["counting"], status["counts"]) == ("latest", True)
    assert (status["score"], status["counted_score"], status["counted_before"]) == (25.0, 25.0, 88.25)
    earlier = _api(token).get(f"/api/v1/submissions/{first}").json()
    assert (earlier["counts"], earlier["counted_score"], earlier["counted_before"]) == (False, 25.0, None)
    assert f"This submission now counts for {A01} (before: 88.25)." in _page_of("lea_counts", second)
    assert 'id="counting"' not in _page_of("lea_counts", first)


def test_under_best_a_lower_score_leaves_the_best_counting_and_the_page_says_so(service_data):
    _counts_policy("best")
    try:
        token, first, second = _two_graded("bea_counts", 88.25, 25.0)
        status = _api(token).get(f"/api/v1/submissions/{second}").json()
        assert (status["counting"], status["counts"], status["counted_score"]) == ("best", False, 88.25)
        assert _api(token).get(f"/api/v1/submissions/{first}").json()["counts"] is True
        assert "Your best submission (88.25) still counts." in _page_of("bea_counts", second)
        assert "仍计入成绩的是你分数最高的提交（88.25）。" in _page_of("bea_counts", second, "zh")
        better = _two_graded("bob_counts", 25.0, 88.25)  # simply the better one: nothing extra
        assert 'id="counting"' not in _page_of("bob_counts", better[2])
    finally:
        _counts_policy("latest")


def test_the_counted_scores_hide_while_the_policy_hides_scores(service_data):
    from django.utils import timezone

    _counts_policy("latest", timezone.now() + timedelta(days=3), "public")
    try:
        token, _, second = _two_graded("hal_counts", 88.25, 25.0)
        status = _api(token).get(f"/api/v1/submissions/{second}").json()
        assert (status["counting"], status["counts"]) == ("latest", True)
        assert not {"score", "counted_score", "counted_before"} & set(status)
        page = _page_of("hal_counts", second)
        assert "88.25" not in page
        assert 'id="counting"' not in page
    finally:
        _counts_policy("latest")


def test_the_submission_page_says_when_the_score_goes_to_the_lms_gradebook(service_data):
    from django.utils import timezone

    from autograder.service.lti import passback
    from autograder.service.models import (
        LtiContext,
        LtiDeployment,
        LtiIdentity,
        LtiLinkUser,
        LtiPlatform,
        LtiResourceLink,
        ScorePassback,
    )

    student = _student("gil_gradebook")
    token = _token_of(student)
    platform = LtiPlatform.objects.create(name="gradebook-lms", issuer="https://lms.example.edu", client_id="kit",
                                          auth_login_url="https://lms.example.edu/auth",
                                          auth_token_url="https://lms.example.edu/token",
                                          key_set_url="https://lms.example.edu/keys")
    context = LtiContext.objects.create(deployment=LtiDeployment.objects.create(platform=platform, deployment_id="1"),
                                        context_id="course", lineitems_url="https://lms.example.edu/lineitems")
    link = LtiResourceLink.objects.create(context=context, resource_link_id="a01", assignment_id=A01)
    identity = LtiIdentity.objects.create(platform=platform, subject="gil", user=student)
    LtiLinkUser.objects.create(link=link, identity=identity, last_launch_at=timezone.now())
    unlaunched = _two_graded("nia_gradebook", 50.0, 60.0)[2]
    submitted = _submit(token, A01, notebook_bytes("ada_full_marks", A01, run="gil"), f"{A01}.ipynb").json()["id"]
    _graded(submitted, 70.0)  # the queue owes the LMS the score that counts

    assert "Your score will be sent to your course&#x27;s gradebook." in _page_of("gil_gradebook", submitted)
    assert "你的分数将发送到课程的成绩册。" in _page_of("gil_gradebook", submitted, "zh")
    owed = ScorePassback.objects.get(submission_id=submitted)
    owed.state, owed.claimed_by = "sending", "test-sender"
    owed.save()
    assert passback.delivered(owed, "test-sender")
    assert "Your score was sent to your course&#x27;s gradebook." in _page_of("gil_gradebook", submitted)
    assert "Sua nota foi enviada ao boletim de notas do seu curso." in _page_of("gil_gradebook", submitted, "pt")
    assert 'id="gradebook"' not in _page_of("nia_gradebook", unlaunched)  # no LMS launch: nothing owed


# -- service token: refuses an unknown student unless --create -----------------------------------
def _service(data, *args: str, settings: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``python -m autograder service ARGS`` on ``data``'s database, with ``settings``' KIT_SERVICE_* variables."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("KIT_SERVICE_")}
    return subprocess.run([sys.executable, "-m", "autograder", "service", *args], cwd=KIT_ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**environment, "KIT_SERVICE_DATA": str(data), **(settings or {})})


def test_service_token_refuses_an_unknown_student_saying_how_and_makes_them_with_create(service_data):
    from django.contrib.auth import get_user_model

    refused = _service(service_data, "token", "newcomer")
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert "there is no student 'newcomer'" in refused.stderr
    assert "service token newcomer --create" in refused.stderr
    assert not get_user_model().objects.filter(username="newcomer").exists()

    made = _service(service_data, "token", "newcomer", "--create", "--name", "Nova Newcomer")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert "made the student newcomer (Nova Newcomer)" in made.stderr
    user = get_user_model().objects.get(username="newcomer")
    assert (user.first_name, user.is_staff) == ("Nova Newcomer", False)
    assert _api(token).get("/api/v1/submissions").json() == {"submissions": []}  # the token is theirs

    again = _service(service_data, "token", "newcomer", "--create")
    assert again.returncode == 0, again.stderr
    assert "made the student" not in again.stderr  # an existing student is only given a token
    assert get_user_model().objects.get(username="newcomer").first_name == "Nova Newcomer"


# -- an assignment's policy: one form for the page and service policy, the same refusals -----------
A04 = "04_multi_head_attention"
NOT_A_TIME = "tomorrow is not a date and time."
NOT_A_NUMBER = "ten is not a number: the late penalty is a percent of the maximum, from 0 to 100."
DATE_HINT = "2026-03-01T23:59+01:00"


def _instructor():
    from django.test import Client

    from autograder.service import accounts

    browser = Client(HTTP_HOST=HOST)
    browser.force_login(accounts.person("clock_instructor", instructor=True, name="Clock Instructor"))
    return browser


def _policy_fields(**changed: str) -> dict[str, str]:
    """What the policy page posts for an assignment left as it starts, with ``changed`` typed in."""
    return {"accepting": "on", "due_at": "", "late_penalty_percent": "0", "closes_at": "",
            "visibility_before_due": "everything", "counts": "latest", "per_hour_limit": "", "total_limit": "",
            **changed}


def _refusal_of(page, field: str) -> str:
    """The sentence the policy page shows beside ``field``."""
    found = re.search(rf'id="{field}-refusal"[^>]*>([^<]*)<', page.content.decode())
    assert found, f"no refusal beside {field}"
    import html

    return html.unescape(found.group(1))


@pytest.fixture
def fresh_policy(service_data):
    """A04's policy as it starts, and put back after the test."""
    from autograder.service.models import AssignmentPolicy

    AssignmentPolicy.objects.filter(assignment_id=A04).delete()
    yield
    AssignmentPolicy.objects.filter(assignment_id=A04).delete()


def test_the_policy_page_refuses_each_field_in_words_beside_it_and_saves_nothing(fresh_policy):
    from autograder.service.policy import policy_for

    page = _instructor().post(f"/instructor/policies/{A04}",
                              _policy_fields(due_at="tomorrow", late_penalty_percent="ten", per_hour_limit="0"))
    assert page.status_code == 400
    due, penalty = _refusal_of(page, "due_at"), _refusal_of(page, "late_penalty_percent")
    assert due.startswith(NOT_A_TIME)
    assert DATE_HINT in due
    assert penalty == NOT_A_NUMBER  # no date hint under a penalty's refusal
    assert _refusal_of(page, "per_hour_limit") == "A limit is at least 1, not 0 (leave it empty for none)."
    text = page.content.decode()
    assert "isoformat" not in text
    assert "could not convert" not in text
    assert 'value="tomorrow"' in text  # what was typed stays, to be corrected
    stored = policy_for(A04)
    assert (stored.due_at, stored.late_penalty_percent, stored.per_hour_limit) == (None, 0.0, None)


def test_the_policy_page_refuses_in_the_readers_language(fresh_policy):
    page = _instructor().post(f"/instructor/policies/{A04}?lang=zh", _policy_fields(late_penalty_percent="ten"))
    assert page.status_code == 400
    assert _refusal_of(page, "late_penalty_percent") == "ten 不是数字：迟交扣分是满分的百分比，从 0 到 100。"


def test_service_policy_refuses_with_the_pages_words_and_changes_nothing(fresh_policy, service_data):
    from autograder.service.policy import policy_for

    refused = _service(service_data, "policy", A04, "--due", "tomorrow", "--late-penalty", "ten")
    assert refused.returncode == 2, refused.stderr
    lines = refused.stderr.splitlines()
    assert any(line.startswith(f"--due: {NOT_A_TIME}") for line in lines), refused.stderr
    assert f"--late-penalty: {NOT_A_NUMBER}" in lines
    assert "Traceback" not in refused.stderr
    assert policy_for(A04).due_at is None


def test_a_due_date_with_its_offset_is_the_same_moment_from_the_page_and_the_command(fresh_policy, service_data):
    from datetime import timezone

    from autograder.service.policy import policy_for

    meant = datetime(2026, 12, 1, 22, 59, tzinfo=timezone.utc)
    saved = _service(service_data, "policy", A04, "--due", "2026-12-01T23:59+01:00", "--late-penalty", "12.5")
    assert saved.returncode == 0, saved.stderr
    assert (policy_for(A04).due_at, policy_for(A04).late_penalty_percent) == (meant, 12.5)
    page = _instructor().post(f"/instructor/policies/{A04}",
                              _policy_fields(due_at="2026-12-01T23:59+01:00", late_penalty_percent="12.5"))
    assert page.status_code == 302
    assert policy_for(A04).due_at == meant


# -- the course's clock: a time without an offset is the course's, pages show it with the offset ---
PARIS = {"KIT_SERVICE_TIME_ZONE": "Europe/Paris"}  # UTC+01:00 in December


def _in_paris():
    """The web's settings with the course in Paris, for the requests made under it."""
    from dataclasses import replace
    from zoneinfo import ZoneInfo

    from django.conf import settings
    from django.test import override_settings

    return override_settings(CONFIG=replace(settings.CONFIG, time_zone=ZoneInfo("Europe/Paris")))


def test_a_due_date_without_an_offset_is_the_courses_time_on_the_page_and_in_the_command(fresh_policy, service_data):
    from datetime import timezone

    from autograder.service.policy import policy_for

    paris_midnight_less_a_minute = datetime(2026, 12, 1, 22, 59, tzinfo=timezone.utc)
    saved = _service(service_data, "policy", A04, "--due", "2026-12-01T23:59", settings=PARIS)
    assert saved.returncode == 0, saved.stderr
    assert f"{A04}: due 2026-12-01 23:59 (UTC+01:00)," in saved.stdout  # said back in the course's time
    assert policy_for(A04).due_at == paris_midnight_less_a_minute
    with _in_paris():
        page = _instructor().post(f"/instructor/policies/{A04}", _policy_fields(due_at="2026-12-01 23:59"))
        assert page.status_code == 302
        assert policy_for(A04).due_at == paris_midnight_less_a_minute
        given = _instructor().post(f"/instructor/policies/{A04}", _policy_fields(due_at="2026-12-01T23:59Z"))
        assert given.status_code == 302
        # an offset is taken as given
        assert policy_for(A04).due_at == datetime(2026, 12, 1, 23, 59, tzinfo=timezone.utc)


def test_a_saved_policy_is_confirmed_after_the_redirect_and_the_form_leads_back(fresh_policy):
    instructor = _instructor()
    form = instructor.get(f"/instructor/policies/{A04}").content.decode()
    assert '<a href="/instructor/" id="back-to-instructor">Back to the instructor page</a>' in form
    assert 'aria-describedby="limits-hint"' in form  # the limits' hint is tied to both fields
    with _in_paris():
        saved = instructor.post(f"/instructor/policies/{A04}", _policy_fields(due_at="2026-12-01 23:59"))
        assert saved.status_code == 302
        assert saved["Location"] == f"/instructor/?saved={A04}"
        shown = instructor.get(saved["Location"]).content.decode()
        assert f"Policy of {A04} saved: due 2026-12-01 23:59 (UTC+01:00)." in shown
        in_zh = instructor.get(f"/instructor/?saved={A04}&lang=zh").content.decode()
        assert f"{A04} 的规则已保存：截止时间 2026-12-01 23:59 (UTC+01:00)。" in in_zh
    instructor.get("/instructor/?lang=en")
    instructor.post(f"/instructor/policies/{A04}", _policy_fields())
    assert f"Policy of {A04} saved: no due date." in instructor.get(f"/instructor/?saved={A04}").content.decode()
    assert "policy-saved" not in instructor.get("/instructor/?saved=nonsense").content.decode()


LISBON = {"KIT_SERVICE_TIME_ZONE": "Europe/Lisbon"}
SKIPPED = ("2027-03-28 01:30 does not exist in Europe/Lisbon: the clocks jump from 01:00 to 02:00 that night."
           " Type 02:00, or give the time with its offset from UTC.")


def test_a_due_time_the_courses_clock_skips_or_repeats_is_refused_on_the_page_and_in_the_command(
        fresh_policy, service_data):
    from dataclasses import replace
    from zoneinfo import ZoneInfo

    from django.conf import settings
    from django.test import override_settings

    from autograder.service.policy import policy_for

    with override_settings(CONFIG=replace(settings.CONFIG, time_zone=ZoneInfo("Europe/Lisbon"))):
        skipped = _instructor().post(f"/instructor/policies/{A04}", _policy_fields(due_at="2027-03-28 01:30"))
        assert skipped.status_code == 400
        assert _refusal_of(skipped, "due_at") == SKIPPED
        twice = _instructor().post(f"/instructor/policies/{A04}?lang=pt", _policy_fields(due_at="2027-10-31 01:30"))
        assert _refusal_of(twice, "due_at") == (
            "2027-10-31 01:30 acontece duas vezes em Europe/Lisbon: nessa noite os relógios recuam uma hora. Indique"
            " a diferença para UTC: 2027-10-31T01:30+01:00 (a primeira vez) ou 2027-10-31T01:30+00:00 (a segunda).")
    assert policy_for(A04).due_at is None
    refused = _service(service_data, "policy", A04, "--due", "2027-03-28 01:30", settings=LISBON)
    assert refused.returncode == 2, refused.stderr
    assert f"--due: {SKIPPED}" in refused.stderr.splitlines()
    assert policy_for(A04).due_at is None


def test_an_unknown_time_zone_is_refused_saying_what_to_write(service_data):
    refused = _service(service_data, "config", settings={"KIT_SERVICE_TIME_ZONE": "Mars/Olympus_Mons"})
    assert refused.returncode == 2
    assert "time_zone from the environment KIT_SERVICE_TIME_ZONE must be an IANA time zone name" in refused.stderr
    assert "'Mars/Olympus_Mons'" in refused.stderr
    shown = _service(service_data, "config", settings=PARIS)
    shown_line = r"^time_zone +Europe/Paris +<- environment KIT_SERVICE_TIME_ZONE$"
    assert re.search(shown_line, shown.stdout, re.MULTILINE), shown.stdout


def test_pages_show_times_in_the_courses_zone_with_its_offset_and_the_api_in_iso_8601(fresh_policy, service_data):
    from datetime import timezone

    from django.test import Client

    from autograder.service.policy import policy_for

    policy = policy_for(A04)
    policy.due_at = datetime(2026, 12, 1, 22, 59, tzinfo=timezone.utc)
    policy.save()
    with _in_paris():
        form = _instructor().get(f"/instructor/policies/{A04}").content.decode()
        assert 'value="2026-12-01T23:59+01:00"' in form  # the field reads back as the same moment
        assert re.search(r'id="due_at-zone"[^>]*>[^<]*Europe/Paris', form), "the zone is said beside the field"
        dashboard = _instructor().get("/instructor/").content.decode()
        assert "2026-12-01 23:59 (UTC+01:00)" in dashboard  # the class's policies, as every page shows times
        assert "CET" not in dashboard
        student = Client(HTTP_HOST=HOST)
        student.force_login(_student("clock_student"))
        for address in ("/", f"/assignments/{A04}"):
            assert "2026-12-01 23:59 (UTC+01:00)" in student.get(address).content.decode(), address
        token = _token_of(_student("clock_api"))
        made = _submit(token, A04, notebook_bytes("ada_full_marks", A04, run="clock"), f"{A04}.ipynb")
        assert ISO_WITH_OFFSET.match(made.json()["received_at"]), made.json()  # the API stays in UTC, ISO-8601


def test_the_feedback_page_shows_the_submission_and_due_times_in_the_courses_zone(fresh_policy, service_data):
    from datetime import timezone

    from django.test import Client

    from autograder.service.models import Submission
    from autograder.service.policy import policy_for

    policy = policy_for(A04)
    policy.due_at = datetime(2026, 12, 1, 22, 59, tzinfo=timezone.utc)
    policy.save()
    student = _student("clock_feedback")
    made = _submit(_token_of(student), A04, notebook_bytes("ada_full_marks", A04, run="clockfb"), f"{A04}.ipynb")
    submission_id = made.json()["id"]
    Submission.objects.filter(id=submission_id).update(received_at=datetime(2026, 12, 1, 22, 30, tzinfo=timezone.utc))
    _graded(submission_id, 100.0)
    browser = Client(HTTP_HOST=HOST)
    browser.force_login(student)
    with _in_paris():
        page = browser.get(f"/submissions/{submission_id}/feedback").content.decode()
    assert "Submitted 2026-12-01 23:30:00 (UTC+01:00); due 2026-12-01 23:59:00 (UTC+01:00)." in page
