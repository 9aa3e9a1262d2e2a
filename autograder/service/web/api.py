"""The API for CI in student repositories: ``Authorization: Bearer <token>``; JSON in and out.

``POST /api/v1/submissions`` (multipart: ``assignment``, ``notebook`` and, optionally, ``language``
for a refusal's text: en, zh or pt; the notebooks' ``submit()`` sends theirs) stores and queues, then
``GET /api/v1/submissions/<id>`` says where it is (while it waits, its place in the queue and
``poll_after``, the seconds before asking again) and, once graded, what the policy lets the
student see: the score and, per stage, the tests passed and the feedback's text in the
notebook's language, and the feedback page's address when the policy shows it; and whether it is
the submission that counts now (with the score that counts, and the one it replaced).
``GET /api/v1/submissions`` lists the caller's own submissions, newest first, each as its own
address answers (``?assignment=<id>`` for one assignment's). Times are ISO-8601 with their offset.
Nothing of the hidden tests leaves the server but what the feedback page says.
"""

from __future__ import annotations

from pathlib import Path

from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from autograder.service import accounts, metrics
from autograder.service.models import Submission, Visibility
from autograder.service.times import iso_moment
from autograder.service.web.common import refusal_status, refusal_text
from autograder.service.web.student import result_of
from autograder.service.web.submitting import store_upload
from autograder.service.web.uploads import Refusal
from autograder.student import service_client
from autograder.student.language import LANGUAGES

CLIENT_SOURCE = Path(service_client.__file__).read_text(encoding="utf-8")


def _caller(request):
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    return accounts.user_for_token(secret.strip()) if scheme.lower() == "bearer" and secret.strip() else None


def _unauthorised() -> JsonResponse:
    return JsonResponse({"error": "a valid API token is needed: Authorization: Bearer <your token>"}, status=401)


@csrf_exempt  # no cookie is read here: the token in the header is the credential
@require_http_methods(["GET", "POST"])
def submissions(request):
    """``/api/v1/submissions``: GET lists the caller's own submissions, POST submits one."""
    user = _caller(request)
    if user is None:
        return _unauthorised()
    if request.method == "GET":
        return _list(request, user)
    return _submit(request, user)


def _list(request, user) -> JsonResponse:
    """The caller's own submissions, newest first, each described as ``status`` describes it: the
    same policy decides what shows. Only ``user``'s: an instructor's token lists their own too."""
    mine = Submission.objects.filter(user=user).select_related("user").prefetch_related("gradings")
    assignment_id = request.GET.get("assignment")
    if assignment_id:
        mine = mine.filter(assignment_id=assignment_id)
    return JsonResponse({"submissions": [_described(submission) for submission in mine]})


def _submit(request, user) -> JsonResponse:
    sent = request.FILES.get("notebook")
    assignment_id = request.POST.get("assignment", "")
    try:
        submission = store_upload(user, assignment_id, sent.name if sent else "", sent.read() if sent else None,
                                  via="api")
    except Refusal as refusal:
        metrics.count_refusal(refusal.key)
        language = request.POST.get("language")
        return JsonResponse({"error": refusal_text(request, refusal, language if language in LANGUAGES else "en"),
                             "refusal": refusal.key},
                            status=refusal_status(refusal))
    return JsonResponse({"id": submission.id, "received_at": iso_moment(submission.received_at),
                         "status_url": f"/api/v1/submissions/{submission.id}",
                         "page_url": f"/submissions/{submission.id}"}, status=201)


@require_GET
def status(request, submission_id: int):
    user = _caller(request)
    if user is None:
        return _unauthorised()
    submission = Submission.objects.filter(id=submission_id, user=user).first()
    if submission is None:
        return JsonResponse({"error": "no such submission of yours"}, status=404)
    return JsonResponse(_described(submission))


def _described(submission: Submission) -> dict:
    """A submission as its owner may see it now (``result_of`` and the assignment's policy): where
    it waits, or the score, the stages and the feedback page's address as far as the policy shows them;
    once graded, the counting rule (``counting``: latest or best), whether this one ``counts`` now and,
    with the score, the score that counts and the one that counted before it came in (null: none)."""
    result = result_of(submission)
    body = {"id": submission.id, "assignment": submission.assignment_id, "state": result["state"],
            "received_at": iso_moment(submission.received_at), "page_url": f"/submissions/{submission.id}"}
    if result["row"] is None:
        return {**body, "position": result["position"], "poll_after": result["poll_after"]}
    row, seen, place = result["row"], result["seen"], result["standing"]
    body.update(counting=result["counting"], counts=place.counts)
    if seen == Visibility.PUBLIC:
        return {**body, "visible": "public checks only until the due date"}
    body.update(score=row.score, max_score=row.max_score, status=row.status.text(),
                counted_score=place.counted.row.score,
                counted_before=place.before.row.score if place.before else None)
    if seen == Visibility.EVERYTHING:
        body["feedback_url"] = f"/submissions/{submission.id}/feedback"
        body["stages"] = [{"stage": total.stage, "passed": total.passed, "tests": total.total,
                           "points": total.points, "max_points": total.max_points,
                           "message": _first_failure(row, total.stage)} for total in row.stage_totals()]
    return body


def _first_failure(row, stage: str) -> str:
    """The stage's first failure, in the notebook's language (the feedback page's own text)."""
    failed = next((test for test in row.tests if test.stage == stage and not test.passed), None)
    return failed.message(row.language).splitlines()[0][:500] if failed else ""


def client(request):
    """The CI client (``autograder/student/service_client.py``): all a runner needs."""
    return HttpResponse(CLIENT_SOURCE, content_type="text/x-python; charset=utf-8")
