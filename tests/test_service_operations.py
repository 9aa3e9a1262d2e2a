"""An operator's view of the service: a clean stop, one log line per grading job, the health and
readiness probes, the Prometheus metrics, and backup and restore (docs/service/operations.md)."""

from __future__ import annotations

import signal

import pytest
from service_harness import LiveService, notebook_bytes

pytestmark = pytest.mark.live


def _token(live: LiveService, student: str) -> str:
    live.link_for(student)  # makes the student
    return live.cli("token", student).stdout.strip()


def test_a_sigterm_stops_every_process_with_status_0_and_no_traceback():
    """serve, its gunicorn arbiter and workers, the passback sender and two grading workers (one
    of them with a job in hand) all stop cleanly: serve exits 0 only when each child did."""
    live = LiveService(workers=2).start()
    try:
        token = _token(live, "calm")
        first = live.api_submit(token, "01_attention_scores", notebook_bytes("ada_full_marks", "01_attention_scores"))
        live.wait_graded(token, first.json()["id"])
        live.api_submit(token, "02_self_attention", notebook_bytes("ada_full_marks", "02_self_attention"))
        live.process.send_signal(signal.SIGTERM)
        status = live.process.wait(timeout=90)
        output = live.log.read_text()
        assert status == 0, output[-4000:]
        assert "Traceback" not in output, output[-4000:]
        assert "exited with code" not in output, output[-4000:]  # gunicorn's word for a worker that failed
        assert "did not stop cleanly" not in output, output[-4000:]
    finally:
        live.close()
