"""The service's Prometheus metrics (prometheus-client), for an operator's dashboards and alerts.

Most of them are read from the database when scraped, because the database is the service's
truth and is shared by every web process, grading worker and machine: the queue (gradings by
state, the oldest one's wait), the grading workers by state and how many hold a job, the LMS
passbacks by state (the backlog and the failures), and two histograms of the gradings done: a
student's wait from receipt to result, and the grading itself from claim to result. Only the
upload refusals, which are never stored, are counted where they happen: in each web process,
summed over gunicorn's processes through prometheus-client's multiprocess mode, whose folder
``serve`` makes (``PROMETHEUS_MULTIPROC_DIR``); they count from the start of ``serve``.

Labels are a state or a refusal's kind, never a person, a submission, an address or a secret.
Who may scrape is the web's decision (``web/operations.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

from django.db.models import Count, DurationField, ExpressionWrapper, F, Min, Q, QuerySet, Sum
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric

from autograder.service.models import Grading, GradingState, PassbackState, ScorePassback, WorkerState
from autograder.service.queue import living_workers

PREFIX = "attention_kit_"
# Seconds: the service's goals are a second warm, 15 s and 60 s at a deadline (docs/measured.md).
BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0)
MULTIPROCESS_FOLDER = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST

REFUSALS = Counter(f"{PREFIX}upload_refusals", "Uploads refused, by kind (the refusal's message key), since serve"
                   " started", ["kind"], registry=None)


def count_refusal(kind: str) -> None:
    REFUSALS.labels(kind=kind).inc()


def _histogram(name: str, documentation: str, start: str) -> HistogramMetricFamily:
    """The gradings done, by the seconds from ``start`` (a ``Grading`` time field) to their result,
    counted in the database in one query."""
    took = ExpressionWrapper(F("finished_at") - F(start), output_field=DurationField())
    done = Grading.objects.filter(state=GradingState.DONE, finished_at__isnull=False).exclude(**{start: None})
    counts = done.annotate(took=took).aggregate(
        total=Count("id"), seconds=Sum("took"),
        **{f"le{index}": Count("id", filter=Q(took__lte=timedelta(seconds=bound)))
           for index, bound in enumerate(BUCKETS)})
    buckets = [(f"{bound:g}", counts[f"le{index}"]) for index, bound in enumerate(BUCKETS)]
    total_seconds = counts["seconds"].total_seconds() if counts["seconds"] else 0.0
    return HistogramMetricFamily(name, documentation, buckets=[*buckets, ("+Inf", counts["total"])],
                                 sum_value=total_seconds)


def _by_state(name: str, documentation: str, states: list[str], rows: QuerySet) -> GaugeMetricFamily:
    """A gauge per state (0 for a state no row is in) of the rows counted by their ``state``."""
    counted = dict(rows.values("state").annotate(count=Count("pk")).order_by().values_list("state", "count"))
    family = GaugeMetricFamily(name, documentation, labels=["state"])
    for state in states:
        family.add_metric([state], counted.get(state, 0))
    return family


class DatabaseCollector:
    """What the database says now, as Prometheus metrics (a prometheus-client custom collector)."""

    def collect(self) -> Iterator[Metric]:
        now = timezone.now()
        yield _by_state(f"{PREFIX}gradings", "Gradings waiting in the queue (queued) and being graded (running)",
                        [GradingState.QUEUED, GradingState.RUNNING],
                        Grading.objects.filter(state__in=[GradingState.QUEUED, GradingState.RUNNING]))
        oldest = Grading.objects.filter(state=GradingState.QUEUED).aggregate(oldest=Min("queued_at"))["oldest"]
        yield GaugeMetricFamily(f"{PREFIX}queue_oldest_seconds", "How long the oldest queued grading has waited",
                                value=(now - oldest).total_seconds() if oldest else 0.0)
        yield _histogram(f"{PREFIX}grading_wait_seconds", "Gradings done, by the seconds from the upload (or the"
                         " regrade) to the result: what a student waits", "queued_at")
        yield _histogram(f"{PREFIX}grading_seconds", "Gradings done, by the seconds a worker took from its claim to"
                         " the result", "claimed_at")
        yield _by_state(f"{PREFIX}grading_workers", "Grading workers alive (a heartbeat in the last minute), by"
                        " state (ready: they proved their guarantees and passed the canaries)",
                        [WorkerState.STARTING, WorkerState.READY, WorkerState.REFUSING],
                        living_workers(now))
        busy = Grading.objects.filter(state=GradingState.RUNNING).values("worker_id").distinct().count()
        yield GaugeMetricFamily(f"{PREFIX}grading_workers_busy", "Grading workers holding a job", value=busy)
        yield _by_state(f"{PREFIX}passbacks", "Scores for LMS gradebooks, by state (pending and sending: the"
                        " backlog; failed: refused by the LMS or given up)", list(PassbackState.values),
                        ScorePassback.objects.all())


def exposition() -> bytes:
    """Every metric, in Prometheus' text format."""
    registry = CollectorRegistry()
    if os.environ.get(MULTIPROCESS_FOLDER):
        multiprocess.MultiProcessCollector(registry)  # the refusals of every web process of this serve
    else:
        registry.register(REFUSALS)
    registry.register(DatabaseCollector())
    return generate_latest(registry)
