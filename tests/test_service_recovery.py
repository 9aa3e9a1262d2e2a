"""Nothing lost: a grading worker killed with SIGKILL in the middle of a job, and a whole service
killed with jobs in its queue, leave every acknowledged submission graded exactly once, on SQLite
and on PostgreSQL; and two grading workers of separate process trees on PostgreSQL (as on two
machines), one killed in the middle of a rush, lose nothing and grade nothing twice."""

from __future__ import annotations

import os
import signal
import time

import pytest
import requests
from service_harness import LiveService, notebook_bytes

pytestmark = pytest.mark.live

KINDS = [("ada_full_marks", "01_attention_scores"), ("ben_partial", "02_self_attention"),
         ("cy_untouched_stubs", "03_causal_attention"), ("ada_full_marks", "04_multi_head_attention")]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def service(request):
    database = request.getfixturevalue("postgres").new_database("recovery") if request.param == "postgres" else None
    live = LiveService(database_url=database).start()
    yield live
    live.close()


def _submit_many(service: LiveService, count: int, tag: str) -> list[int]:
    ids = []
    for index in range(count):
        student = f"{tag}{index}"
        service.link_for(student)
        token = service.cli("token", student).stdout.strip()
        source, assignment = KINDS[index % len(KINDS)]
        answer = service.api_submit(token, assignment, notebook_bytes(source, assignment, run=f"{tag}{index}"))
        assert answer.status_code == 201, answer.text  # acknowledged: stored and committed
        ids.append(answer.json()["id"])
    return ids


def _wait_all_done(service: LiveService, ids: list[int], timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    marks = ",".join("?" * len(ids))
    while service.query(f"SELECT COUNT(*) FROM service_grading WHERE state = 'done' AND submission_id IN ({marks})",
                        *ids)[0][0] < len(ids):
        assert time.monotonic() < deadline, service.log.read_text()[-4000:]
        time.sleep(0.2)


def _graded_exactly_once(service: LiveService, ids: list[int]) -> dict[int, int]:
    """Each submission's one grading (round 1, done), and how many times it was claimed."""
    claims = {}
    for submission in ids:
        rows = service.query("SELECT round, state, attempts, row IS NOT NULL FROM service_grading WHERE"
                             " submission_id = ?", submission)
        assert [(round_, state, has_row) for round_, state, _, has_row in rows] == [(1, "done", 1)], (submission, rows)
        claims[submission] = rows[0][2]
    return claims


def test_a_worker_killed_mid_job_loses_nothing_and_grades_nothing_twice(service):
    ids = _submit_many(service, 8, "k")
    deadline = time.monotonic() + 120
    while not (running := service.query("SELECT g.worker_id, w.pid FROM service_grading g JOIN service_gradingworker"
                                        " w ON w.worker_id = g.worker_id WHERE g.state = 'running'")):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    worker_id, pid = running[0]
    os.kill(pid, signal.SIGKILL)
    _wait_all_done(service, ids)
    claims = _graded_exactly_once(service, ids)
    assert max(claims.values()) == 2  # the job it was grading was claimed again, and recorded once
    assert service.query("SELECT state FROM service_gradingworker WHERE worker_id = ?", worker_id) == [("stopped",)]
    assert len(service.ready_workers()) == 1  # serve started another


def test_a_service_killed_with_a_full_queue_resumes_it_when_started_again(service):
    ids = _submit_many(service, 6, "r")
    service.stop(hard=True)  # every process of the service, at once, mid-queue
    stored = service.query("SELECT COUNT(*) FROM service_submission WHERE id IN ({})".format(",".join(map(str, ids))))
    assert stored == [(len(ids),)]
    service.start()
    _wait_all_done(service, ids)
    _graded_exactly_once(service, ids)
    assert service.query("SELECT COUNT(*) FROM service_grading WHERE state != 'done'") == [(0,)]


def test_the_worker_proves_its_guarantees_and_runs_the_canaries_again(tmp_path):
    live = LiveService(recheck_seconds="8").start()
    try:
        first = live.query("SELECT checked_at FROM service_gradingworker WHERE state = 'ready'")[0][0]
        deadline = time.monotonic() + 90
        while not live.query("SELECT 1 FROM service_gradingworker WHERE state = 'ready' AND checked_at > ?", first):
            assert time.monotonic() < deadline, live.log.read_text()[-3000:]
            time.sleep(0.5)
        token = (live.link_for("again"), live.cli("token", "again").stdout.strip())[1]
        answer = live.api_submit(token, "01_attention_scores", notebook_bytes("ada_full_marks", "01_attention_scores"))
        assert live.wait_graded(token, answer.json()["id"])["score"] == 100  # and it grades on after the re-check
    finally:
        live.close()


def test_a_worker_that_cannot_trust_its_run_grades_nothing_and_the_instructor_is_told():
    # A per-test time limit no canary can meet: the canaries fail, so nothing may be graded.
    live = LiveService(test_timeout="0.00001").start(wait_for_worker=False)
    try:
        deadline = time.monotonic() + 120
        while not live.query("SELECT message FROM service_gradingworker WHERE state = 'refusing'"):
            assert time.monotonic() < deadline, live.log.read_text()[-3000:]
            time.sleep(0.5)
        [(message,)] = live.query("SELECT message FROM service_gradingworker WHERE state = 'refusing'")
        assert "did not earn full marks through the sandbox" in message
        live.link_for("waiting")
        token = live.cli("token", "waiting").stdout.strip()
        answer = live.api_submit(token, "01_attention_scores", notebook_bytes("ada_full_marks", "01_attention_scores"))
        assert answer.status_code == 201  # stored, and it waits
        time.sleep(3)
        assert live.query("SELECT state FROM service_grading") == [("queued",)]
        page = live.signed_in("teacher", instructor=True).get(f"{live.url}/instructor/", timeout=30).text
        assert "A grading worker refuses to grade" in page
        assert "did not earn full marks" in page

        # Waiting students are told to look again less often the further back they are.
        for run in range(8):
            live.api_submit(token, "02_self_attention", notebook_bytes("ada_full_marks", "02_self_attention", run=run))
        statuses = [requests.get(f"{live.url}/api/v1/submissions/{submission}", timeout=30,
                                 headers={"Authorization": f"Bearer {token}"}).json()
                    for (submission,) in live.query("SELECT id FROM service_submission ORDER BY id")]
        assert [(status["position"], status["poll_after"]) for status in statuses] == [
            (1, 1), (2, 1), (3, 1), (4, 1), (5, 2), (6, 2), (7, 2), (8, 2), (9, 3)]
        student = live.signed_in("waiting")
        last = student.get(f"{live.url}/submissions/{statuses[-1]['id']}", timeout=30).text
        assert '<meta http-equiv="refresh" content="3">' in last
    finally:
        live.close()


def test_two_workers_on_postgres_one_killed_mid_rush_lose_nothing_and_grade_nothing_twice(postgres):
    live = LiveService(workers=0, separate_workers=2, database_url=postgres.new_database("rush")).start()
    try:
        tokens = {}
        for index in range(24):
            live.link_for(f"rush{index}")  # makes the student
            tokens[f"rush{index}"] = live.cli("token", f"rush{index}").stdout.strip()
        ids = []
        for index, (student, token) in enumerate(tokens.items()):
            source, assignment = KINDS[index % len(KINDS)]
            answer = live.api_submit(token, assignment, notebook_bytes(source, assignment, run=student))
            assert answer.status_code == 201, answer.text
            ids.append(answer.json()["id"])
        victim = live.separate[0].pid
        [(victim_id,)] = live.query("SELECT worker_id FROM service_gradingworker WHERE pid = ?", victim)
        deadline = time.monotonic() + 120
        while not live.query("SELECT 1 FROM service_grading WHERE state = 'running' AND worker_id = ?", victim_id):
            assert time.monotonic() < deadline, "the first worker never took a job"
            time.sleep(0.01)
        live.kill_separate_worker(0)  # its whole tree, mid-job
        _wait_all_done(live, ids)
        claims = _graded_exactly_once(live, ids)
        assert max(claims.values()) == 2  # what it held went back to the queue, and was recorded once
        graders = dict(live.query("SELECT worker_id, graded FROM service_gradingworker"))
        assert sum(graders.values()) == len(ids)
        assert graders[victim_id] < len(ids)
        assert live.query("SELECT state FROM service_gradingworker WHERE worker_id = ?", victim_id) == [("stopped",)]
    finally:
        live.close()
