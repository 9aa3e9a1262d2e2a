"""The operator's addresses: ``/healthz`` (the web process answers), ``/readyz`` (the service can
take and grade a submission: its database answers and a grading worker is ready) and ``/metrics``
(Prometheus' text format, for whoever holds ``KIT_SERVICE_METRICS_TOKEN``).

The probes need no sign-in and say nothing but ready or why not; they are what the Kubernetes
manifests probe. The metrics name no person, submission or secret, but they show how busy the
service is, so they are off until a token is set: loopback alone cannot tell a scraper from a
student when a TLS proxy on the same machine forwards everyone's requests from 127.0.0.1.
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.db import DatabaseError
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from autograder.service import metrics
from autograder.service.models import WorkerState
from autograder.service.queue import living_workers


def _text(body: str, status: int = 200) -> HttpResponse:
    response = HttpResponse(body + "\n", status=status, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def healthz(request):
    """The process is alive and answers (a liveness probe: restart it when this fails)."""
    return _text("ok")


@require_GET
def readyz(request):
    """The database answers and at least one grading worker that proved its guarantees is alive
    (a readiness probe); 503 with the reason otherwise."""
    try:
        ready = living_workers().filter(state=WorkerState.READY).exists()
    except DatabaseError:
        return _text("not ready: the database does not answer", status=503)
    if not ready:
        return _text("not ready: no grading worker is ready (see `python -m autograder service status`)", status=503)
    return _text("ready")


@require_GET
def prometheus(request):
    """The metrics, to a bearer of the metrics token; 404 when no token is set (the metrics are off)."""
    token = settings.CONFIG.metrics_token
    if not token:
        raise Http404
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        response = _text("the metrics need Authorization: Bearer <KIT_SERVICE_METRICS_TOKEN>", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    try:
        body = metrics.exposition()
    except DatabaseError:
        return _text("the database does not answer", status=503)
    return HttpResponse(body, content_type=metrics.CONTENT_TYPE)
