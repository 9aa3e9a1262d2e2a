"""The student's pages: sign-in, assignments, upload, the queue, results, history, API tokens."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login, logout
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from autograder.feedback.page import feedback_html
from autograder.service import accounts, metrics, queue
from autograder.service.answers import solutions_for
from autograder.service.models import (
    ApiToken,
    GradingState,
    PassbackState,
    ScorePassback,
    Submission,
    Visibility,
)
from autograder.service.policy import adjustments_of, counted, policy_for, scored, standing, visibility
from autograder.service.web.common import (
    moment,
    own_submission,
    page,
    refusal_status,
    refusal_text,
    say,
    student_required,
)
from autograder.service.web.static import STYLESHEET_URLS
from autograder.service.web.submitting import store_upload
from autograder.service.web.uploads import Refusal
from autograder.student.curriculum import ASSIGNMENTS


@require_http_methods(["GET", "POST"])
def signin(request, signed: str):
    """GET shows a button (mail scanners that follow links sign no one in); POST signs in. A link
    that signs no one in says why: revoked, expired, or not valid."""
    checked = accounts.check_link(signed, settings.CONFIG.signin_link_days)
    user = checked.user
    if user is None:
        key = {"revoked": "signin.revoked", "expired": "signin.expired"}.get(checked.refusal, "signin.bad")
        return page(request, "signin.html", {"bad": say(request, key), "refusal": checked.refusal}, status=404)
    if request.method == "POST":
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("/")
    name = user.first_name or user.username
    return page(request, "signin.html", {"confirm": say(request, "signin.confirm", name=name)})


@require_POST
def signout(request):
    """Sign out here, or (``everywhere``) end every session and API token of the reader's."""
    if request.POST.get("everywhere") and request.user.is_authenticated:
        accounts.sign_out_everywhere(request.user)
    logout(request)
    return redirect("/")


def home(request):
    if not request.user.is_authenticated:
        return page(request, "welcome.html", {})
    if request.user.is_staff:
        return redirect("/instructor/")
    rows = []
    for assignment_id in ASSIGNMENTS:
        policy = policy_for(assignment_id)
        mine = list(Submission.objects.filter(user=request.user, assignment_id=assignment_id)
                    .select_related("user").prefetch_related("gradings"))
        adjustments = adjustments_of(request.user, assignment_id)
        best = counted([scored(s, policy, adjustments) for s in mine], policy)
        shown = best is not None and visibility(policy, timezone.now()) != Visibility.PUBLIC
        rows.append({"assignment_id": assignment_id, "due": moment(policy.due_at), "count": len(mine),
                     "counted": f"{best.row.score:g} / {best.row.max_score:g}" if shown else "",
                     "accepting": policy.accepting})
    return page(request, "home.html", {"rows": rows})


def _history(request, assignment_id: str) -> list[dict]:
    policy = policy_for(assignment_id)
    now = timezone.now()
    seen = visibility(policy, now)
    submissions = list(Submission.objects.filter(user=request.user, assignment_id=assignment_id)
                       .select_related("user").prefetch_related("gradings"))
    adjustments = adjustments_of(request.user, assignment_id)
    items = [scored(submission, policy, adjustments) for submission in submissions]
    best = counted(items, policy)
    history = []
    for item in items:
        states = {grading.state for grading in item.submission.gradings.all()}
        state = GradingState.DONE if item.row is not None else (
            GradingState.RUNNING if GradingState.RUNNING in states else GradingState.QUEUED)
        history.append({"id": item.submission.id, "received": moment(item.submission.received_at),
                        "filename": item.submission.filename, "state": state,
                        "score": f"{item.row.score:g} / {item.row.max_score:g}"
                        if item.row and seen != Visibility.PUBLIC else "",
                        "counts": best is not None and item.submission.id == best.submission.id})
    return history


def _assignment_page(request, assignment_id: str, refusal: Refusal | None = None):
    policy = policy_for(assignment_id)
    none = say(request, "limit.none")
    history = _history(request, assignment_id)
    for item in history:
        item["state_text"] = say(request, f"state.{item['state']}")
    return page(request, "assignment.html", {
        "assignment_id": assignment_id, "policy": policy, "due": moment(policy.due_at),
        "closes": moment(policy.closes_at), "closes_text": say(request, "closes", time=moment(policy.closes_at)),
        "limits": say(request, "limits", per_hour=policy.per_hour_limit or none, total=policy.total_limit or none),
        "upload_help": say(request, "upload.help", assignment=assignment_id,
                           limit_mb=f"{settings.CONFIG.max_upload_bytes / 2**20:g}"),
        "history": history, "refusal": refusal_text(request, refusal) if refusal else ""},
        status=refusal_status(refusal) if refusal else 200)


@student_required
def assignment(request, assignment_id: str):
    if assignment_id not in ASSIGNMENTS:
        raise Http404
    return _assignment_page(request, assignment_id)


@student_required
@require_POST
def upload(request, assignment_id: str):
    sent = request.FILES.get("notebook")
    try:
        submission = store_upload(request.user, assignment_id, sent.name if sent else "",
                                  sent.read() if sent else None, via="web")
    except Refusal as refusal:
        metrics.count_refusal(refusal.key)
        if assignment_id not in ASSIGNMENTS:
            raise Http404 from None
        return _assignment_page(request, assignment_id, refusal)
    return redirect(f"/submissions/{submission.id}")


def result_of(submission: Submission) -> dict:
    """What the reader may see of a submission now: its state, place in the queue (and when to look
    again), score, page; once graded, the assignment's counting rule and the submission's standing
    (``policy.standing``: whether it counts now, and what counted before it)."""
    gradings = list(submission.gradings.all())
    if not any(grading.state == GradingState.DONE for grading in gradings):
        # Waiting: the cheap answer that a page or a CI job asks for again and again.
        waiting = next((grading for grading in gradings if grading.state != GradingState.DONE), None)
        running = waiting is not None and waiting.state == GradingState.RUNNING
        place = queue.position(waiting) if waiting else 1
        return {"state": "running" if running else "queued", "position": place, "row": None,
                "poll_after": queue.poll_after(place)}
    policy = policy_for(submission.assignment_id)
    item = scored(submission, policy, adjustments_of(submission.user, submission.assignment_id))
    return {"state": "done", "row": item.row, "seen": visibility(policy, timezone.now()), "due": moment(policy.due_at),
            "counting": policy.counts, "standing": standing(submission, policy)}


@student_required
def submission_page(request, submission_id: int):
    submission = own_submission(request, submission_id)
    result = result_of(submission)
    if request.user.is_staff:
        result["seen"] = Visibility.EVERYTHING
    received = moment(submission.received_at)
    texts = {"received_text": say(request, "result.received", time=received)}
    if result["state"] == "queued":
        texts["queue_text"] = say(request, "queue.position", time=received, position=result["position"])
    elif result["state"] == "running":
        texts["queue_text"] = say(request, "queue.running", time=received)
    else:
        row, due = result["row"], result["due"]
        texts["score_text"] = say(request, "result.score", score=f"{row.score:g}", max_score=f"{row.max_score:g}")
        texts["public_text"] = say(request, "result.public_only", due=due)
        texts["score_only_text"] = say(request, "result.score_only", due=due)
        time = row.submission_time
        if time is not None and time.days_late:
            texts["late_text"] = say(request, "result.late", days=time.days_late, penalty=f"{time.penalty:g}")
        texts["counting_text"] = _counting_text(request, submission, result)
        texts["gradebook_text"] = _gradebook_text(request, submission)
    return page(request, "submission.html", {"submission": submission, "result": result, **texts})


def _counting_text(request, submission: Submission, result: dict) -> str:
    """One line when this submission's score is not simply the better one that counts (as
    ``submit()`` says it): under "latest" it replaced a higher score, under "best" a higher one
    still counts; "" otherwise, and while the policy hides scores."""
    place = result["standing"]
    if result["seen"] == Visibility.PUBLIC or place is None:
        return ""
    change = place.change(result["row"].score, result["counting"])
    if change == "replaced":
        return say(request, "result.counts_now", assignment=submission.assignment_id,
                   before=f"{place.before.row.score:g}")
    if change == "best_counts":
        return say(request, "result.best_counts", score=f"{place.counted.row.score:g}")
    return ""


def _gradebook_text(request, submission: Submission) -> str:
    """Whether this submission's score went to the course's gradebook (LTI), or waits to: "" when
    it was never owed there (no LMS launch, or another submission counts)."""
    states = set(ScorePassback.objects.filter(submission=submission).values_list("state", flat=True))
    if PassbackState.SENT in states:
        return say(request, "result.gradebook_sent")
    if states & {PassbackState.PENDING, PassbackState.SENDING}:
        return say(request, "result.gradebook_pending")
    return ""


@student_required
def submission_feedback(request, submission_id: int):
    """The kit's own feedback page, in the notebook's language (only when the policy shows it),
    ending with the solutions once the assignment is closed (``service/answers.py``)."""
    submission = own_submission(request, submission_id)
    result = result_of(submission)
    if result["row"] is None or (result["seen"] != Visibility.EVERYTHING and not request.user.is_staff):
        raise Http404
    solutions = solutions_for(result["row"], policy_for(submission.assignment_id), timezone.now(),
                              instructor=request.user.is_staff)
    return HttpResponse(feedback_html(result["row"], settings.CONFIG.time_zone, STYLESHEET_URLS,
                                      submission_url=f"/submissions/{submission.id}", solutions=solutions),
                        content_type="text/html; charset=utf-8")


@student_required
@require_http_methods(["GET", "POST"])
def token(request):
    made = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            accounts.revoke_tokens(request.user)
        else:
            made = accounts.make_api_token(request.user)
    active = ApiToken.objects.filter(user=request.user, revoked_at__isnull=True).count()
    return page(request, "token.html", {"made": made, "active_text": say(request, "token.active", count=active)})
