"""What every page needs: who is asking, in which language, and the refusal of what they may not see."""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.http import Http404, HttpRequest
from django.shortcuts import render

from autograder.feedback.moments import shown_moment
from autograder.service.models import Submission
from autograder.service.web.text import page_text
from autograder.service.web.uploads import Refusal
from autograder.student.language import LANGUAGES


def language_of(request: HttpRequest) -> str:
    """The reader's chosen language, else that of their latest notebook, else English."""
    chosen = request.GET.get("lang")
    if chosen in LANGUAGES:
        request.session["language"] = chosen
        return chosen
    if request.session.get("language") in LANGUAGES:
        return request.session["language"]
    if request.user.is_authenticated:
        latest = Submission.objects.filter(user=request.user).values_list("language", flat=True).first()
        if latest in LANGUAGES:
            return latest
    return "en"


def moment(value) -> str:
    """A stored time as pages show it: the course's wall-clock time (the ``time_zone`` setting) with
    its offset, ``2026-12-01 23:59 (UTC+01:00)``, so that a reader anywhere knows which moment it
    is; to the second when it has seconds (a receipt), to the minute when not (a typed due date)."""
    if not value:
        return ""
    return shown_moment(value, settings.CONFIG.time_zone, seconds=bool(value.second or value.microsecond))


def say(request: HttpRequest, key: str, **fields) -> str:
    """One of the pages' sentences in the reader's language, its fields filled in."""
    return page_text(language_of(request))[key].format(**fields)


def page(request: HttpRequest, template: str, context: dict, status: int = 200):
    """A page in the reader's language; templates read its words as ``t.<key>`` (dots as underscores)."""
    language = language_of(request)
    words = {key.replace(".", "_"): value for key, value in page_text(language).items()}
    return render(request, f"service/{template}", {"t": words, "language": language, "languages": LANGUAGES,
                                                   **context}, status=status)


def student_required(view):
    """A signed-in person (student or instructor); others get the sign-in page's text."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return page(request, "welcome.html", {}, status=401)
        return view(request, *args, **kwargs)
    return wrapped


def instructor_required(view):
    """An instructor; anyone else gets a 404, which says nothing about what exists."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not (request.user.is_authenticated and request.user.is_staff):
            raise Http404
        return view(request, *args, **kwargs)
    return wrapped


def own_submission(request: HttpRequest, submission_id: int) -> Submission:
    """The submission, if it is the reader's own (an instructor's: any); else 404, never 403, so
    that no one learns which ids exist."""
    found = Submission.objects.filter(id=submission_id).select_related("user").first()
    if found is None or not (found.user_id == request.user.id or request.user.is_staff):
        raise Http404
    return found


def refusal_text(request: HttpRequest, refusal: Refusal, language: str | None = None) -> str:
    """Why an upload was refused and what to do, in the reader's language (or ``language``)."""
    text = page_text(language or language_of(request))
    fields = {"limit_mb": f"{settings.CONFIG.max_upload_bytes / 2**20:g}", **refusal.fields}
    return text[f"refusal.{refusal.key}"].format(**fields)


def refusal_status(refusal: Refusal) -> int:
    """The HTTP status of a refusal: too large, too many, a duplicate, closed, or a bad file."""
    return {"too_large": 413, "per_hour": 429, "total": 429, "duplicate": 409, "closed": 403,
            "not_accepting": 403}.get(refusal.key, 400)
