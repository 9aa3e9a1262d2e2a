"""The instructor's pages (``is_staff``): the workers, policies, the class table (with the LMS's
class lists) and grades.csv, a student's submissions with regrades and adjustments, the class
report and the similarity page."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from autograder.feedback.moments import offset_label
from autograder.service import gradebook, queue
from autograder.service.answers import students_from
from autograder.service.lti import roster
from autograder.service.lti.passback import queue_scores, retry_now
from autograder.service.matrix import SORTS, AssignmentSummary, chosen_rows, class_matrix, page_of
from autograder.service.models import (
    Adjustment,
    Counting,
    Grading,
    GradingState,
    GradingWorker,
    LtiContext,
    LtiPlatform,
    PassbackState,
    ScorePassback,
    Submission,
    Visibility,
    WorkerState,
)
from autograder.service.policy import adjustments_of, counted, policy_for, scored
from autograder.service.web.charts import bar_chart, row_chart
from autograder.service.web.common import instructor_required, language_of, moment, page, say
from autograder.service.web.policy_form import PolicyForm
from autograder.service.web.text import page_text
from autograder.student.curriculum import ASSIGNMENTS


@instructor_required
def dashboard(request):
    workers = list(GradingWorker.objects.exclude(state=WorkerState.STOPPED))
    counts = {state: Grading.objects.filter(state=state).count() for state in GradingState.values}
    return page(request, "instructor/dashboard.html", {
        "workers": workers, "grading_ready": any(w.state == WorkerState.READY for w in workers),
        "refusing": [w for w in workers if w.state == WorkerState.REFUSING], "counts": counts,
        "policies": [policy_for(a) for a in ASSIGNMENTS], "submissions": Submission.objects.count(),
        "saved": _saved_note(request), **_lms(), "base_url": settings.CONFIG.base_url})


def _saved_note(request) -> str:
    """After the policy page saves (``?saved=<assignment>``, so it shows without script), what the
    stored policy now says, read again rather than carried in the address."""
    assignment_id = request.GET.get("saved", "")
    if assignment_id not in ASSIGNMENTS:
        return ""
    due = policy_for(assignment_id).due_at
    return (say(request, "policy.saved", assignment=assignment_id, due=moment(due)) if due
            else say(request, "policy.saved_no_due", assignment=assignment_id))


def _lms() -> dict:
    """The LMS part of the dashboard: registered platforms, and the scores owed to them."""
    unsent = (ScorePassback.objects.exclude(state__in=[PassbackState.SENT, PassbackState.SUPERSEDED])
              .select_related("link_user__identity__user", "link_user__link__context__deployment__platform"))
    return {"platforms": LtiPlatform.objects.prefetch_related("deployments"),
            "passback_counts": {state: ScorePassback.objects.filter(state=state).count()
                                for state in PassbackState.values},
            "unsent": [{"student": p.link_user.identity.user.username, "assignment": p.link_user.link.assignment_id,
                        "platform": p.link_user.link.context.deployment.platform.name,
                        "course": p.link_user.link.context.title, "score": f"{p.score_given:g} / {p.score_maximum:g}",
                        "state": p.get_state_display(), "attempts": p.attempts,
                        "next": moment(p.not_before) if p.state == PassbackState.PENDING else "",
                        "why": p.last_error} for p in unsent.order_by("id")[:200]]}


@instructor_required
@require_http_methods(["GET", "POST"])
def policy(request, assignment_id: str):
    """An assignment's policy: shown in the course's time zone, checked by ``PolicyForm`` (each
    refusal beside its field, in the reader's language), saved only whole."""
    if assignment_id not in ASSIGNMENTS:
        raise Http404
    current = policy_for(assignment_id)
    zone = settings.CONFIG.time_zone  # a typed time without an offset is the course's
    values, refusals = PolicyForm.data_of(current, zone), {}
    if request.method == "POST":
        form = PolicyForm(request.POST, language=language_of(request), zone=zone)
        if form.is_valid():
            form.apply(current)
            current.save()
            return redirect("/instructor/?" + urlencode({"saved": assignment_id}))
        values = {name: request.POST.get(name, "") for name in values} | {"accepting": "accepting" in request.POST}
        refusals = {name: " ".join(messages) for name, messages in form.refusals().items()}
    return page(request, "instructor/policy.html", {
        "policy": current, "values": values, "refusals": refusals, "visibilities": Visibility.choices,
        "countings": Counting.choices, "solutions_from": moment(students_from(current)),
        "zone_note": say(request, "policy.zone", zone=str(zone), offset=offset_label(datetime.now(zone)))},
        status=400 if refusals else 200)


@instructor_required
def class_table(request):
    """The class as a matrix: a student per row, the counted score per assignment, the total; the
    rows that ``q`` finds (in a name or id), sorted by ``sort`` (name, total or an assignment) in
    ``order``, ``page`` by page; and each assignment's histogram and most failed stages. All in
    the query string, so that it works without script and a link shows the same rows."""
    matrix = class_matrix()
    search = request.GET.get("q", "")[:100]
    sort = request.GET.get("sort", "name")
    sort = sort if sort in SORTS or sort in matrix.assignments else "name"
    descending = request.GET.get("order") == "desc"
    shown = page_of(chosen_rows(matrix, search, sort, descending), request.GET.get("page"))
    here = {"q": search, "sort": sort, "order": "desc" if descending else "asc"}

    def link(**changes) -> str:
        return "?" + urlencode({key: value for key, value in (here | changes).items() if value})

    def column(key: str, label: str) -> dict:
        """A sortable column head: its aria-sort (kit.css draws it as an arrow), and the link that
        sorts by it: the other way when it is sorted, else names A to Z and scores highest first."""
        sorted_here = key == sort
        first_descending = key != "name"
        return {"label": label, "key": key,
                "aria_sort": ("descending" if descending else "ascending") if sorted_here else "none",
                "href": link(sort=key, order=("asc" if descending else "desc") if sorted_here
                             else ("desc" if first_descending else "asc"), page="")}

    text = page_text(language_of(request))
    return page(request, "instructor/class.html", {
        "matrix": matrix, "shown": shown, "search": search, "sort": sort, "order": here["order"],
        "student_column": column("name", text["class.student"]), "total_column": column("total", text["class.total"]),
        "assignment_columns": [column(a, a) for a in matrix.assignments],
        "previous": link(page=shown.previous_page_number()) if shown.has_previous() else "",
        "next": link(page=shown.next_page_number()) if shown.has_next() else "",
        "page_note": _page_note(text, search, shown, len(matrix.rows)),
        "clear_search": link(q="", page="") if search.strip() else "",
        "charts": [_charts(summary, text) for summary in matrix.summaries],
        "lms_courses": LtiContext.objects.exists(), "fetched": request.session.pop(FETCHED, None)})


def _page_note(text: Mapping[str, str], search: str, shown, students: int) -> str:
    """How many students the class has, or how many of them the search finds; and which page, when there are more."""
    note = (text["class.found"].format(found=shown.paginator.count, students=students, search=search.strip())
            if search.strip() else text["class.count"].format(students=students))
    pages = shown.paginator.num_pages
    return note + (" " + text["class.page"].format(page=shown.number, pages=pages) if pages > 1 else "")


def _charts(summary: AssignmentSummary, text: Mapping[str, str]) -> dict:
    """An assignment's two charts, drawn from the same rows as the matrix."""
    assignment = summary.assignment_id
    return {"assignment": assignment, "graded": summary.graded,
            "histogram": bar_chart(f"histogram-{assignment}", text["class.histogram"].format(assignment=assignment),
                                   text["class.histogram_help"].format(graded=summary.graded),
                                   summary.histogram),
            "stages": row_chart(f"stages-{assignment}", text["class.stages"].format(assignment=assignment),
                                text["class.stages_help"].format(graded=summary.graded),
                                summary.failed_stages)}


FETCHED = "fetched_class_lists"  # the session's key for what the last fetch found, shown once


@instructor_required
@require_POST
def fetch_class_lists(request):
    """Each LMS course's class list (Names and Role Provisioning), then back to the class table
    (post, redirect, get: reloading it fetches nothing again), which shows the result once."""
    request.session[FETCHED] = [
        {"course": f"{context.deployment.platform.name}: {context.title or context.context_id}",
         "students": result if isinstance(result, int) else None,
         "why": "" if isinstance(result, int) else str(result)} for context, result in roster.fetch_all()]
    return redirect("/instructor/class")


@instructor_required
def grades_csv(request):
    response = HttpResponse(gradebook.grades_csv(gradebook.class_rows()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="grades.csv"'
    return response


@instructor_required
def student(request, student_id: str):
    user = get_user_model().objects.filter(username=student_id).first()
    if user is None:
        raise Http404
    submissions = list(Submission.objects.filter(user=user).defer("notebook").select_related("user")
                       .prefetch_related("gradings"))
    scores, counting = {}, set()
    for assignment_id in ASSIGNMENTS:
        policy = policy_for(assignment_id)
        items = [scored(s, policy, adjustments_of(user, assignment_id)) for s in submissions
                 if s.assignment_id == assignment_id]
        scores |= {item.submission.id: item.row for item in items}
        best = counted(items, policy)
        counting |= {best.submission.id} if best else set()
    return page(request, "instructor/student.html", {
        "person": user, "assignments": ASSIGNMENTS, "adjustments": Adjustment.objects.filter(user=user),
        "submissions": [{"id": s.id, "assignment": s.assignment_id, "received": s.received_at,
                         "gradings": len(s.gradings.all()), "counts": s.id in counting,
                         "score": scores[s.id].score if scores.get(s.id) else None,
                         "max_score": scores[s.id].max_score if scores.get(s.id) else None}
                        for s in submissions]})


@instructor_required
@require_POST
def adjust(request, student_id: str):
    user = get_user_model().objects.filter(username=student_id).first()
    assignment_id = request.POST.get("assignment_id", "")
    reason = request.POST.get("reason", "").strip()
    try:
        points = float(request.POST.get("points", ""))
    except ValueError:
        points = None
    if user is None or assignment_id not in ASSIGNMENTS or points is None or not reason:
        return HttpResponse("An adjustment needs an assignment, a number of points and a reason.", status=400,
                            content_type="text/plain; charset=utf-8")
    with transaction.atomic():
        Adjustment.objects.create(user=user, assignment_id=assignment_id, points=points, reason=reason[:500],
                                  created_by=request.user.username)
        queue_scores(user, assignment_id, "adjusted")
    return redirect(f"/instructor/students/{student_id}")


@instructor_required
@require_POST
def regrade(request):
    """Regrade one submission (``submission``), one assignment's, or all."""
    chosen = Submission.objects.all()
    if request.POST.get("submission"):
        if not request.POST["submission"].isdigit():
            return HttpResponse("No such submission.", status=400, content_type="text/plain; charset=utf-8")
        chosen = chosen.filter(id=int(request.POST["submission"]))
    elif request.POST.get("assignment_id") in ASSIGNMENTS:
        chosen = chosen.filter(assignment_id=request.POST["assignment_id"])
    queue.regrade(list(chosen))
    return redirect(request.POST.get("next") if request.POST.get("next", "").startswith("/instructor/")
                    else "/instructor/")


@instructor_required
def report(request):
    return HttpResponse(gradebook.report_page(), content_type="text/html; charset=utf-8")


@instructor_required
def similarity(request):
    return HttpResponse(gradebook.similarity_page(), content_type="text/html; charset=utf-8")


@instructor_required
@require_POST
def retry_passbacks(request):
    """Send the failed and waiting scores to the LMS now (a newer score already sent supersedes a failed one)."""
    retry_now()
    return redirect("/instructor/")
