"""The submission service over HTTP, as browsers, CI jobs and attackers reach it: sign-in, every
refusal (nothing stored), every security rule, policies, lateness by the server's clock, and the
instructor's actions. One live service (one warm grading worker) serves the whole module."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import subprocess
import sys
import time
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import requests
from service_harness import LiveService, notebook_bytes, secret_lines

from autograder.paths import KIT_ROOT

pytestmark = pytest.mark.live

A01, A02, A03, A04 = "01_attention_scores", "02_self_attention", "03_causal_attention", "04_multi_head_attention"


@pytest.fixture(scope="module")
def service():
    live = LiveService(max_upload_mb="1").start()
    yield live
    live.close()


def _token(service, student: str) -> str:
    service.link_for(student)  # makes the student
    return service.cli("token", student).stdout.strip()


def _graded(service, token: str, assignment: str, content: bytes) -> dict:
    return service.wait_graded(token, service.api_submit(token, assignment, content).json()["id"])


def _submission_id(response) -> int:
    return int(re.search(r"/submissions/(\d+)", response.url).group(1))


# -- signing in -------------------------------------------------------------------------------
def test_a_sign_in_link_signs_in_after_a_button_and_a_forged_or_revoked_one_does_not(service):
    link = service.link_for("sid")
    page = requests.get(link, timeout=30)
    assert page.status_code == 200
    assert "Sign in as Sid?" in page.text
    assert "sessionid" not in page.cookies
    session = service.signed_in("sid")
    assert "Your assignments" in session.get(service.url, timeout=30).text
    assert requests.get(link[:-3] + "abc", timeout=30).status_code == 404  # the signature no longer matches
    service.cli("revoke", "sid")
    refused = requests.get(link, timeout=30)
    assert refused.status_code == 404
    assert "was revoked" in refused.text


def test_an_expired_link_is_refused(service):
    roster = service.root / "short.csv"
    roster.write_text("student_id\nshort\n")
    link = service.cli("links", str(roster), "--days", "0.00001").stdout.strip().splitlines()[-1].split(",")[-1]
    time.sleep(1.5)
    assert requests.get(link, timeout=30).status_code == 404


def test_links_and_tokens_are_kept_only_as_hashes(service):
    link = service.link_for("hashed")
    token = _token(service, "hashed")
    secret = link.rsplit("/", 1)[1].split(":")[0]
    dump = "\n".join(sqlite3.connect(f"file:{service.data / 'service.sqlite3'}?mode=ro", uri=True).iterdump())
    assert secret not in dump
    assert token not in dump
    assert token[:10] in dump  # the prefix that tells tokens apart


# -- a submission's journey -----------------------------------------------------------------------
def test_a_correct_notebook_is_graded_and_its_feedback_page_is_the_kits(service):
    session = service.signed_in("ana")
    answer = service.upload(session, A01, notebook_bytes("ada_full_marks", A01))
    assert answer.status_code == 200
    assert "/submissions/" in answer.url
    submission = _submission_id(answer)
    deadline = time.monotonic() + 60
    while "Score: 100 of 100" not in (page := session.get(answer.url, timeout=30).text):
        assert time.monotonic() < deadline, page[-2000:]
        assert 'http-equiv="refresh"' in page
        assert ("number" in page or "being graded" in page)
        time.sleep(0.2)
    feedback = session.get(f"{service.url}/submissions/{submission}/feedback", timeout=30)
    assert feedback.status_code == 200
    assert "feedback for ana" in feedback.text
    history = session.get(f"{service.url}/assignments/{A01}", timeout=30).text
    assert "100 / 100" in history
    assert "counts" in history


def test_the_feedback_page_is_in_the_notebooks_language(service):
    token = _token(service, "li")
    submitted = service.api_submit(token, A01, notebook_bytes("ben_partial", A01, language="zh")).json()
    status = service.wait_graded(token, submitted["id"])
    assert status["score"] < 100
    session = service.signed_in("li")
    page = session.get(f"{service.url}/submissions/{submitted['id']}/feedback", timeout=30).text
    assert "给 li 的反馈" in page
    assert "通过" in page
    assert any(re.search(r"[\u4e00-\u9fff]", stage["message"]) for stage in status["stages"] if stage["message"])


def test_an_otter_export_zip_is_accepted(service):
    token = _token(service, "otto")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"{A02}.ipynb", notebook_bytes("ada_full_marks", A02))
        archive.writestr("otter_check.json", "{}")
    answer = service.api_submit(token, A02, buffer.getvalue(), "02_self_attention_2026_11_27T10_00_00.zip")
    assert answer.status_code == 201, answer.text
    assert service.wait_graded(token, answer.json()["id"])["score"] == 100


# -- refusals: a clear message, and nothing stored -----------------------------------------------
def _zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{A01}.ipynb", b"{" + b" " * (40 * 2**20) + b"}")
    return buffer.getvalue()


REFUSALS = {
    "too large": (lambda: b"{" + b" " * (2 * 2**20) + b"}", f"{A01}.ipynb", 413, "larger than 1 MB"),
    "not a notebook": (lambda: b"just some text, not JSON", "notes.txt", 400,
                       "notes.txt is plain text, not a notebook"),
    "a damaged zip": (lambda: b"PK\x03\x04broken", "export.zip", 400, "export.zip is a damaged zip file"),
    "the wrong assignment": (lambda: notebook_bytes("ada_full_marks", A02), f"{A01}.ipynb", 400,
                             "looks like the notebook of 02_self_attention"),
    "a zip bomb": (_zip_bomb, "export.zip", 400, "unpacks to far more than a notebook"),
    "an empty file": (lambda: b"", f"{A01}.ipynb", 400, "The file is empty"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_bad_uploads_are_refused_with_a_reason_and_nothing_is_stored(service, case):
    content, filename, status, reason = REFUSALS[case]
    session = service.signed_in("rex")
    token = _token(service, "rex")
    before = service.submissions()
    page = service.upload(session, A01, content(), filename)
    assert page.status_code == status
    assert reason in page.text
    assert "nothing was stored" in page.text
    api = service.api_submit(token, A01, content(), filename)
    assert api.status_code == status
    assert reason in api.json()["error"]
    assert service.submissions() == before


def test_a_duplicate_within_a_second_is_refused(service):
    token = _token(service, "dup")
    content = notebook_bytes("cy_untouched_stubs", A01, run="dup")
    first, second = service.api_submit(token, A01, content), service.api_submit(token, A01, content)
    assert first.status_code == 201
    assert second.status_code == 409
    assert "same file a moment ago" in second.json()["error"]
    assert service.query("SELECT COUNT(*) FROM service_submission WHERE sha256 IN (SELECT sha256 FROM"
                         " service_submission WHERE id = ?)", first.json()["id"])[0][0] == 1


def test_over_the_hourly_limit_the_refusal_says_when_the_next_is_allowed(service):
    service.cli("policy", A03, "--per-hour", "1")
    try:
        token = _token(service, "hasty")
        first = service.api_submit(token, A03, notebook_bytes("cy_untouched_stubs", A03, run=1))
        second = service.api_submit(token, A03, notebook_bytes("cy_untouched_stubs", A03, run=2))
        assert first.status_code == 201
        assert second.status_code == 429
        allowed_at = r"allowed at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \(UTC\+00:00\)"
        allowed = re.search(allowed_at, second.json()["error"]).group(1)
        expected = datetime.fromisoformat(first.json()["received_at"]) + timedelta(hours=1)
        shown = datetime.strptime(allowed, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
        assert abs((shown - expected).total_seconds()) <= 1
    finally:
        service.cli("policy", A03, "--per-hour", "0")


def test_the_total_limit_and_a_hard_deadline_refuse(service):
    service.cli("policy", A04, "--total", "1")
    token = _token(service, "tess")
    try:
        assert service.api_submit(token, A04, notebook_bytes("cy_untouched_stubs", A04, run=1)).status_code == 201
        again = service.api_submit(token, A04, notebook_bytes("cy_untouched_stubs", A04, run=2))
        assert again.status_code == 429
        assert "all the submissions" in again.json()["error"]
        service.cli("policy", A04, "--total", "0", "--closes", "2020-01-01T00:00+00:00")
        closed = service.api_submit(token, A04, notebook_bytes("cy_untouched_stubs", A04, run=3))
        assert closed.status_code == 403
        assert "closed at 2020-01-01 00:00 (UTC+00:00)" in closed.json()["error"]
    finally:
        service.cli("policy", A04, "--total", "0", "--closes", "none")


# -- time and policies --------------------------------------------------------------------------
def test_lateness_comes_from_the_servers_clock(service):
    due = datetime.now(timezone.utc) - timedelta(days=2, hours=1)
    service.cli("policy", A02, "--due", due.isoformat(), "--late-penalty", "10")
    try:
        token = _token(service, "late")
        # Whatever time the notebook or the request claims, the server's receipt time counts.
        notebook = json.loads(notebook_bytes("ada_full_marks", A02))
        notebook["metadata"]["submitted_at"] = "2020-01-01T00:00:00Z"
        answer = requests.post(f"{service.url}/api/v1/submissions", headers={"Authorization": f"Bearer {token}",
                               "Date": "Wed, 01 Jan 2020 00:00:00 GMT"},
                               data={"assignment": A02, "submitted_at": "2020-01-01T00:00:00Z"},
                               files={"notebook": (f"{A02}.ipynb", json.dumps(notebook).encode())}, timeout=60)
        before = datetime.now(timezone.utc)
        status = service.wait_graded(token, answer.json()["id"])
        assert status["score"] == 70  # 3 started days late, 10 % each
        service.cli("grades", "--out", str(service.root / "g.csv"))
        rows = {tuple(line.split(",")[:2]): line.split(",") for line in
                (service.root / "g.csv").read_text().splitlines()[1:]}
        submitted_at = datetime.fromisoformat(rows["late", A02][5])
        assert abs((submitted_at - before).total_seconds()) < 60
        assert rows["late", A02][2] == "70"
        assert rows["late", A02][6] == "30"
    finally:
        service.cli("policy", A02, "--due", "none", "--late-penalty", "0")


def test_before_the_due_date_the_policy_decides_what_a_student_sees(service):
    due = datetime.now(timezone.utc) + timedelta(days=3)
    token = _token(service, "vis")
    session = service.signed_in("vis")
    try:
        service.cli("policy", A03, "--due", due.isoformat(), "--visibility", "score")
        scored = _graded(service, token, A03, notebook_bytes("ben_partial", A03))
        assert "score" in scored
        assert "stages" not in scored
        assert session.get(f"{service.url}/submissions/{scored['id']}/feedback", timeout=30).status_code == 404
        assert "only the score until the due date" in session.get(f"{service.url}/submissions/{scored['id']}",
                                                                  timeout=30).text
        service.cli("policy", A03, "--visibility", "public")
        hidden = requests.get(f"{service.url}/api/v1/submissions/{scored['id']}",
                              headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        assert "score" not in hidden
        assert "public checks" in hidden["visible"]
        assert "check(" in session.get(f"{service.url}/submissions/{scored['id']}", timeout=30).text
        service.cli("policy", A03, "--due", (datetime.now(timezone.utc) - timedelta(minutes=1)).isoformat())
        after = requests.get(f"{service.url}/api/v1/submissions/{scored['id']}",
                             headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        assert "stages" in after  # after the due date, everything
    finally:
        service.cli("policy", A03, "--due", "none", "--visibility", "everything")


def test_latest_or_best_counts(service):
    token = _token(service, "bestie")
    good = _graded(service, token, A01, notebook_bytes("ada_full_marks", A01))
    worse = _graded(service, token, A01, notebook_bytes("ben_partial", A01))
    assert good["score"] == 100 > worse["score"]

    def counted() -> str:
        service.cli("grades", "--out", str(service.root / "c.csv"))
        return next(line for line in (service.root / "c.csv").read_text().splitlines()
                    if line.startswith(f"bestie,{A01},")).split(",")[2]

    assert float(counted()) == worse["score"]
    service.cli("policy", A01, "--counts", "best")
    try:
        assert counted() == "100"
    finally:
        service.cli("policy", A01, "--counts", "latest")


def test_a_hint_charge_set_in_the_policy_shows_in_the_score_grades_csv_and_the_feedback_page(service):
    """Issue 41: the grading worker reads the hint tiers the notebook records; the policy's prices
    (here split_heads' own, 1 point for tier 2) are taken from the score that counts."""
    notebook = json.loads(notebook_bytes("ada_full_marks", A04, run="hint-charges"))
    notebook["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": 1,
                              "source": 'hint("split_heads", 2)',
                              "outputs": [{"output_type": "display_data", "data": {"text/plain": "hint"},
                                           "metadata": {"attention_kit": {"hint": {"stage": "split_heads",
                                                                                   "tier": 2}}}}]})
    token = _token(service, "hinted")
    service.cli("policy", A04, "--hint-charges", "0, 0.5, 1; split_heads: 0, 1, 2")
    try:
        status = _graded(service, token, A04, json.dumps(notebook).encode())
        assert (status["score"], status["max_score"]) == (99, 100)
        page = service.signed_in("hinted").get(f"{service.url}/submissions/{status['id']}/feedback", timeout=30).text
        assert '<td>Hint charge (tier 2 opened for split_heads)</td><td class="points">\u22121</td>' in page
        service.cli("grades", "--out", str(service.root / "h.csv"))
        assert f"hinted,{A04},99,100," in (service.root / "h.csv").read_text()
    finally:
        service.cli("policy", A04, "--hint-charges", "")
    again = requests.get(f"{service.url}/api/v1/submissions/{status['id']}",
                         headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    assert again["score"] == 100  # the rubric, as committed, charges nothing


# -- security ---------------------------------------------------------------------------------
def test_every_page_has_a_csp_without_script_and_safe_cookies(service):
    session = service.signed_in("csp")
    for path in ("/", f"/assignments/{A01}", "/token", "/signin/whatever"):
        answer = session.get(service.url + path, timeout=30)
        policy = answer.headers["Content-Security-Policy"]
        assert "script-src 'none'" in policy
        assert "default-src 'none'" in policy
        assert "<script" not in answer.text.lower()
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    link = service.link_for("cookie")
    first = requests.get(link, timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first.text).group(1)
    signed = requests.post(link, data={"csrfmiddlewaretoken": token}, cookies=first.cookies,
                           headers={"Referer": link}, allow_redirects=False, timeout=30)
    cookie = signed.headers["Set-Cookie"]
    assert "sessionid=" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP on loopback; behind TLS, see the next test


def test_behind_tls_cookies_are_secure():
    code = ("import os; os.environ['DJANGO_SETTINGS_MODULE']='autograder.service.settings'; import django;"
            " django.setup(); from django.conf import settings as s;"
            " print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER)")
    for behind, expected in (("true", "True True ('HTTP_X_FORWARDED_PROTO', 'https')"), ("false", "False False")):
        env = {"KIT_SERVICE_BEHIND_TLS": behind, "KIT_SERVICE_SECRET_KEY": "x" * 50, "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=KIT_ROOT)
        assert done.stdout.startswith(expected), done.stderr


def test_every_form_needs_its_csrf_token(service):
    session = service.signed_in("forger")
    instructor = service.signed_in("prof", instructor=True)
    for who, path, data in ((session, f"/assignments/{A01}/upload", {}), (session, "/token", {"action": "new"}),
                            (session, "/signout", {}), (instructor, f"/instructor/policies/{A01}", {"counts": "best"}),
                            (instructor, "/instructor/regrade", {}),
                            (instructor, "/instructor/students/forger/adjust",
                             {"assignment_id": A01, "points": "5", "reason": "x"})):
        answer = who.post(service.url + path, data=data, files={"notebook": ("a.ipynb", b"{}")}, timeout=30)
        assert answer.status_code == 403, path
    assert service.query("SELECT COUNT(*) FROM service_adjustment WHERE reason = 'x'")[0][0] == 0


def test_no_student_reaches_another_students_submission_and_no_student_reaches_instructor_pages(service):
    owner_token = _token(service, "owner")
    theirs = service.wait_graded(owner_token, service.api_submit(
        owner_token, A01, notebook_bytes("ben_partial", A01, run="idor")).json()["id"])["id"]
    intruder = service.signed_in("intruder")
    intruder_token = _token(service, "intruder")
    for path in (f"/submissions/{theirs}", f"/submissions/{theirs}/feedback"):
        answer = intruder.get(service.url + path, timeout=30)
        assert answer.status_code == 404
        assert "owner" not in answer.text
    api = requests.get(f"{service.url}/api/v1/submissions/{theirs}",
                       headers={"Authorization": f"Bearer {intruder_token}"}, timeout=30)
    assert api.status_code == 404
    for path in ("/instructor/", f"/instructor/policies/{A01}", "/instructor/class", "/instructor/grades.csv",
                 "/instructor/students/owner", "/instructor/report", "/instructor/similarity"):
        assert intruder.get(service.url + path, timeout=30).status_code == 404, path
        assert requests.get(service.url + path, timeout=30).status_code == 404, path
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', intruder.get(service.url + "/token").text).group(1)
    for path, data in ((f"/instructor/policies/{A01}", {"counts": "best"}), ("/instructor/regrade", {}),
                       ("/instructor/students/owner/adjust", {"assignment_id": A01, "points": "50", "reason": "me"})):
        answer = intruder.post(service.url + path, data={"csrfmiddlewaretoken": token, **data},
                               headers={"Referer": service.url + "/token"}, timeout=30)
        assert answer.status_code == 404, path
    for path in (f"/submissions/{theirs}", "/token", f"/assignments/{A01}"):
        assert requests.get(service.url + path, timeout=30).status_code == 401  # not signed in
    assert requests.get(f"{service.url}/api/v1/submissions/{theirs}", timeout=30).status_code == 401
    assert requests.get(f"{service.url}/api/v1/submissions/{theirs}", timeout=30,
                        headers={"Authorization": "Bearer kit_forged"}).status_code == 401


def test_student_content_is_escaped(service):
    hostile = "<img src=x onerror=alert(1)>"
    token = _token(service, "esc")
    notebook = json.loads(notebook_bytes("cy_untouched_stubs", A02))
    notebook["cells"].append({"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                              "source": f"def broken(:\n    '{hostile}'\n"})
    answer = service.api_submit(token, A02, json.dumps(notebook).encode(), f"{hostile}.ipynb")
    submission = service.wait_graded(token, answer.json()["id"])["id"]
    session = service.signed_in("esc")
    for path in (f"/submissions/{submission}", f"/submissions/{submission}/feedback", f"/assignments/{A02}"):
        assert hostile not in session.get(service.url + path, timeout=30).text


def test_no_response_to_a_student_holds_hidden_tests_rubric_or_solutions(service):
    token = _token(service, "curious")
    session = service.signed_in("curious")
    responses = []
    for student, assignment in (("ben_partial", A01), ("cy_untouched_stubs", A03), ("dee_broken", A02)):
        answer = service.api_submit(token, assignment, notebook_bytes(student, assignment, run="secrets"))
        status = service.wait_graded(token, answer.json()["id"])
        responses.append(json.dumps(status, ensure_ascii=False))
        for path in (f"/submissions/{status['id']}", f"/submissions/{status['id']}/feedback",
                     f"/assignments/{assignment}", "/", "/client/submit.py"):
            responses.append(session.get(service.url + path, timeout=30).text)
    text = "\n".join(responses)
    leaked = [line for line in secret_lines() if line in text]
    assert not leaked


# -- the instructor's actions, on the pages and from the command line ---------------------------
def test_instructor_regrades_and_adjusts_and_the_class_table_follows(service):
    token = _token(service, "adj")
    graded = _graded(service, token, A04, notebook_bytes("ada_full_marks", A04))
    instructor = service.signed_in("prof2", instructor=True)
    page = instructor.get(f"{service.url}/instructor/students/adj", timeout=30)
    token_field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    referer = {"Referer": f"{service.url}/instructor/students/adj"}
    answer = instructor.post(f"{service.url}/instructor/students/adj/adjust", headers=referer, timeout=30,
                             data={"csrfmiddlewaretoken": token_field, "assignment_id": A04, "points": "-10",
                                   "reason": "Copied split_heads (admitted)"})
    assert answer.status_code == 200
    service.cli("adjust", "adj", A04, "4", "Regrade request: the test was too strict")
    after = requests.get(f"{service.url}/api/v1/submissions/{graded['id']}",
                         headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    assert after["score"] == 94
    feedback = service.signed_in("adj").get(f"{service.url}/submissions/{graded['id']}/feedback", timeout=30).text
    assert "Copied split_heads (admitted)" in feedback
    assert "the test was too strict" in feedback
    rounds_before = service.query("SELECT COUNT(*) FROM service_grading WHERE submission_id = ?", graded["id"])[0][0]
    instructor.post(f"{service.url}/instructor/regrade", headers=referer, timeout=30,
                    data={"csrfmiddlewaretoken": token_field, "submission": str(graded["id"])})
    service.cli("regrade", "--submission", str(graded["id"]))
    deadline = time.monotonic() + 60
    while service.query("SELECT COUNT(*) FROM service_grading WHERE submission_id = ? AND state = 'done'",
                        graded["id"])[0][0] < rounds_before + 2:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    table = instructor.get(f"{service.url}/instructor/class", timeout=30).text
    assert "adj" in table
    assert ">94<" in table
    csv_text = instructor.get(f"{service.url}/instructor/grades.csv", timeout=30).text
    assert csv_text.splitlines()[0] == "student_id,assignment_id,score,max_score,status,submitted_at,late_penalty"
    assert any(line.startswith(f"adj,{A04},94,100,graded") for line in csv_text.splitlines())
    assert csv_text == (service.cli("grades", "--out", str(service.root / "same.csv"))
                        and (service.root / "same.csv").read_text())
    for path in ("/instructor/report", "/instructor/similarity", "/instructor/"):
        page = instructor.get(service.url + path, timeout=60)
        assert page.status_code == 200
        assert "<script" not in page.text.lower()
    assert "guarantees proved" in instructor.get(f"{service.url}/instructor/", timeout=30).text


def test_the_web_process_is_not_root_and_imports_no_secrets(service):
    web_pid = int(re.search(r"web pid (\d+)", service.log.read_text()).group(1))
    children = subprocess.run(["pgrep", "-P", str(web_pid)], capture_output=True, text=True).stdout.split()
    for pid in [web_pid, *map(int, children)]:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        uids = next(line for line in status if line.startswith("Uid:")).split()[1:]
        assert "0" not in uids, pid
    code = ("import os, sys; os.environ['DJANGO_SETTINGS_MODULE']='autograder.service.settings'; import django;"
            " django.setup(); import autograder.service.web.urls, autograder.service.webserver;"
            " print(sorted(m for m in sys.modules if m.startswith(('autograder.hidden', 'autograder.course.reference',"
            " 'autograder.course.rubric', 'autograder.grading.engine', 'autograder.sandbox', 'torch'))))")
    done = subprocess.run([sys.executable, "-c", code], env=service.env, capture_output=True, text=True, cwd=KIT_ROOT)
    assert done.stdout.strip() == "[]", done.stderr


def test_a_class_graded_by_the_service_gets_the_rows_grade_writes(service, tmp_path):
    """The same notebooks through ``grade`` and through the service: the same grades.csv rows (but
    the submission time, which is the server's) and the same tests in each results file."""
    submitted = tmp_path / "submitted"
    students = {"same_ada": "ada_full_marks", "same_ben": "ben_partial", "same_cy": "cy_untouched_stubs"}
    for student, source in students.items():
        token = _token(service, student)
        for notebook in sorted((KIT_ROOT / "source_data" / "example_class" / source).glob("*/*.ipynb")):
            target = submitted / student / notebook.parent.name / notebook.name
            target.parent.mkdir(parents=True)
            target.write_bytes(notebook.read_bytes())
            answer = service.api_submit(token, notebook.parent.name, notebook.read_bytes())
            service.wait_graded(token, answer.json()["id"])
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out)],
                          capture_output=True, text=True, cwd=KIT_ROOT, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    service.cli("grades", "--out", str(tmp_path / "service.csv"))

    def rows(path) -> list[list[str]]:
        return [line.split(",")[:5] for line in path.read_text().splitlines()[1:] if line.startswith("same_")]

    assert rows(tmp_path / "service.csv") == rows(out / "grades.csv")
    assert len(rows(out / "grades.csv")) == 12  # ben has no 04: a missing row in both
    for student in students:
        for results in (out / "results" / student).glob("*.json"):
            stored = service.query("SELECT g.row FROM service_grading g JOIN service_submission s ON s.id ="
                                   " g.submission_id JOIN auth_user u ON u.id = s.user_id WHERE u.username = ? AND"
                                   " s.assignment_id = ? AND g.state = 'done'", student, results.stem)
            if not stored:
                continue  # a missing row: no file of the service's either
            assert json.loads(stored[0][0])["tests"] == json.loads(results.read_text())["tests"]
