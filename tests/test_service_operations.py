"""An operator's view of the service: a clean stop, one log line per grading job, the health and
readiness probes, the Prometheus metrics, and backup and restore (docs/service/operations.md)."""

from __future__ import annotations

import re
import signal
import time
from datetime import datetime

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from service_harness import LiveService, notebook_bytes

pytestmark = pytest.mark.live

METRICS_TOKEN = "scrape-" + "x" * 40
KINDS = [("ada_full_marks", "01_attention_scores"), ("ben_partial", "02_self_attention"),
         ("cy_untouched_stubs", "03_causal_attention"), ("ada_full_marks", "04_multi_head_attention")]


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
        assert output.rstrip().endswith("serve stopped: every process exited cleanly"), output[-2000:]
    finally:
        live.close()


def _wait_until(condition, live: LiveService, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, live.log.read_text()[-3000:]
        time.sleep(0.3)


def test_the_probes_say_whether_the_process_lives_and_whether_the_service_can_grade():
    live = LiveService(workers=0).start()
    try:
        def probe(path: str) -> requests.Response:
            return requests.get(live.url + path, timeout=30)

        assert (probe("/healthz").status_code, probe("/healthz").text) == (200, "ok\n")
        assert probe("/readyz").status_code == 503
        assert "no grading worker is ready" in probe("/readyz").text
        assert probe("/metrics").status_code == 404  # no metrics token set: nobody may scrape

        live.separate = [None]
        live.start_separate_worker(0)  # it proves its guarantees and grades the canaries first
        _wait_until(lambda: probe("/readyz").status_code == 200, live)
        assert live.ready_workers(), "ready before a worker said it was"
        assert probe("/readyz").text == "ready\n"

        live.separate[0].terminate()
        assert live.separate[0].wait(timeout=60) == 0
        assert probe("/readyz").status_code == 503  # its worker stopped: nothing would grade an upload

        database = live.data / "service.sqlite3"
        mode = database.stat().st_mode
        database.chmod(0)  # the web process (never root) can no longer open it
        try:
            assert (probe("/readyz").status_code, probe("/readyz").text) == (
                503, "not ready: the database does not answer\n")
            assert probe("/healthz").status_code == 200  # alive all the same: no restart would help
        finally:
            database.chmod(mode)
    finally:
        live.close()


def _scrape(live: LiveService) -> dict[str, float]:
    """Every sample of /metrics, by its name and labels (``name{label="value"}``)."""
    answer = requests.get(f"{live.url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            labels = ",".join(f'{key}="{value}"' for key, value in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


def _done(live: LiveService, ids: list[int]) -> list[tuple[datetime, datetime]]:
    marks = ",".join("?" * len(ids))
    rows = live.query(f"SELECT queued_at, finished_at FROM service_grading WHERE state = 'done' AND submission_id"
                      f" IN ({marks})", *ids)
    return [tuple(value if isinstance(value, datetime) else datetime.fromisoformat(value) for value in row)
            for row in rows]


def _queued(live: LiveService) -> int:
    return live.query("SELECT COUNT(*) FROM service_grading WHERE state = 'queued'")[0][0]


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_the_metrics_scraped_during_a_rush_match_the_database(request, database):
    url = request.getfixturevalue("postgres").new_database("metrics") if database == "postgres" else None
    live = LiveService(workers=0, database_url=url, metrics_token=METRICS_TOKEN).start()
    try:
        for refused in (None, "Bearer wrong", METRICS_TOKEN):
            headers = {"Authorization": refused} if refused else {}
            assert requests.get(f"{live.url}/metrics", headers=headers, timeout=30).status_code == 401
        students = [f"rusher{index}" for index in range(8)]
        ids = []
        for index, student in enumerate(students):
            token = _token(live, student)
            source, assignment = KINDS[index % len(KINDS)]
            answer = live.api_submit(token, assignment, notebook_bytes(source, assignment, run=student))
            assert answer.status_code == 201, answer.text
            ids.append(answer.json()["id"])
        refusal = live.api_submit(token, "01_attention_scores", b"not a notebook").json()["refusal"]
        assert refusal.startswith("not_a_notebook")

        # The whole class waits: no worker yet.
        waiting = _scrape(live)
        assert waiting['attention_kit_gradings{state="queued"}'] == len(ids) == _queued(live)
        assert waiting['attention_kit_gradings{state="running"}'] == 0
        assert waiting["attention_kit_grading_wait_seconds_count"] == 0
        assert waiting['attention_kit_grading_workers{state="ready"}'] == 0
        assert waiting["attention_kit_queue_oldest_seconds"] > 0
        assert waiting[f'attention_kit_upload_refusals_total{{kind="{refusal}"}}'] == 1

        live.separate = [None]
        live.start_separate_worker(0)
        scrapes = 0
        while len(_done(live, ids)) < len(ids):  # scraped while it grades: between the database before and after
            done_before, queued_before = len(_done(live, ids)), _queued(live)
            during = _scrape(live)
            done_after, queued_after = len(_done(live, ids)), _queued(live)
            assert done_before <= during["attention_kit_grading_wait_seconds_count"] <= done_after
            assert queued_after <= during['attention_kit_gradings{state="queued"}'] <= queued_before
            scrapes += 1
            assert scrapes < 2000, live.log.read_text()[-3000:]
            time.sleep(0.2)

        graded = _scrape(live)
        waits = [(finished - queued).total_seconds() for queued, finished in _done(live, ids)]
        assert graded["attention_kit_grading_wait_seconds_count"] == len(ids)
        buckets = {float(key.split('"')[1]): value for key, value in graded.items()
                   if key.startswith("attention_kit_grading_wait_seconds_bucket{")}
        assert len(buckets) > 5
        assert buckets == {bound: sum(wait <= bound for wait in waits) for bound in buckets}
        assert graded["attention_kit_grading_wait_seconds_sum"] == pytest.approx(sum(waits), abs=1e-3)
        assert graded["attention_kit_grading_seconds_count"] == len(ids)
        assert graded['attention_kit_gradings{state="queued"}'] == 0
        assert graded['attention_kit_grading_workers{state="ready"}'] == 1
        assert graded["attention_kit_grading_workers_busy"] == 0
        assert graded['attention_kit_passbacks{state="pending"}'] == 0
        text = requests.get(f"{live.url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"},
                            timeout=30).text
        assert not [student for student in students if student in text]  # no student in any label
        assert METRICS_TOKEN not in text
        # One line per job in the worker's log.
        log = (live.root / "worker-0.log").read_text()
        assert sorted(int(found) for found in re.findall(r"^grading job submission=(\d+) ", log, re.MULTILINE)) == ids
    finally:
        live.close()


def _without_csrf(html: str) -> str:
    """A page without the one thing each rendering makes anew: its forms' CSRF token."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', html)


def _pages(live: LiveService, submissions: dict[str, int]) -> dict[str, str]:
    """Each student's feedback page and the instructor's class table, as they read them."""
    pages = {}
    for student, submission in submissions.items():
        answer = live.signed_in(student).get(f"{live.url}/submissions/{submission}/feedback", timeout=30)
        assert answer.status_code == 200, answer.text[-500:]
        pages[student] = answer.text
    table = live.signed_in("teacher", instructor=True).get(f"{live.url}/instructor/class", timeout=30)
    assert table.status_code == 200
    pages["class table"] = _without_csrf(table.text)
    return pages


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_backup_restored_into_a_fresh_service_serves_the_same_pages(request, database):
    server = request.getfixturevalue("postgres") if database == "postgres" else None
    original = LiveService(database_url=server.new_database("original") if server else None).start()
    restored = LiveService(workers=0, database_url=server.new_database("restored") if server else None)
    try:
        submissions = {}
        for student, source, assignment in (("kept", "ada_full_marks", "01_attention_scores"),
                                            ("also_kept", "ben_partial", "02_self_attention")):
            token = _token(original, student)
            answer = original.api_submit(token, assignment, notebook_bytes(source, assignment))
            submissions[student] = answer.json()["id"]
            original.wait_graded(token, submissions[student])
        before = _pages(original, submissions)
        assert "kept" in before["class table"]

        backup = original.root / "service.backup"
        old_link = original.link_for("kept")  # made before the backup: in it
        original.cli("backup", str(backup))  # while the service runs
        assert backup.stat().st_mode & 0o777 == 0o600  # it holds the tool's keys
        refused = original.cli("restore", str(backup), check=False)
        assert refused.returncode == 1
        assert "--replace" in refused.stderr  # a database in use is never overwritten unasked
        original.stop()

        made_here = restored.cli("restore", str(backup))  # into a fresh data folder (and a new PostgreSQL database)
        assert "was made just now" in made_here.stdout
        assert "--secret-key" in made_here.stdout
        # The old service's key comes with the backup: its sign-in links still sign in.
        brought = restored.cli("restore", str(backup), "--replace", "--secret-key", str(original.data / "secret_key"))
        assert "still work" in brought.stdout
        restored.start(wait_for_worker=False)
        assert _pages(restored, submissions) == before
        assert requests.get(old_link.replace(original.url, restored.url), timeout=30).status_code == 200
    finally:
        restored.close()
        original.close()
