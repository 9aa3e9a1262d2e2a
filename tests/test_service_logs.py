"""No secret in any log line (autograder/service/log_redaction.py). Every page and refusal is walked
in Chromium as people use them (sign-in, a sign-in link with one stray character, a revoked link,
a sign-in posted without its form, uploads good and refused, feedback pages, the instructor's
pages, an LTI launch from the stand-in LMS) and the API with a token; then every line the service
wrote (its stdout and stderr, and any file of its own that holds a log) is searched for every
secret met on the way: the sign-in links, API tokens, session keys and CSRF secrets, and the LTI
id_token."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
import requests
from lti_harness import served_with_platform
from playwright import sync_api as playwright
from service_harness import CHROMIUM, CHROMIUM_ARGS, LiveService, notebook_bytes
from test_service_browser import _sign_in

from autograder.service.log_redaction import redact

A01, A02 = "01_attention_scores", "02_self_attention"


@pytest.fixture(scope="module")
def service():
    with served_with_platform(LiveService()) as live:
        yield live


def _signed_part(link: str) -> str:
    return link.rsplit("/signin/", 1)[1]


def _submit(page, service, path, assignment: str = A01) -> None:
    page.goto(f"{service.url}/assignments/{assignment}")
    page.set_input_files("#notebook", str(path))
    page.click("#submit")


def _cookie_secrets(context) -> set[str]:
    return {cookie["value"] for cookie in context.cookies() if cookie["name"] in ("sessionid", "csrftoken")}


def _log_text(service) -> str:
    """Everything the service wrote: serve's stdout and stderr (its web, sender and grading workers
    write there), and any log file in its folder."""
    texts = [service.log.read_text(errors="replace")]
    texts += [path.read_text(errors="replace") for path in service.root.rglob("*.log") if path != service.log]
    return "\n".join(texts)


JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsbXMtYW5hIiwibm9uY2UiOiJ4In0.c2lnbmF0dXJlLWJ5dGVz"


@pytest.mark.parametrize(("line", "kept", "secret"), [
    ("Not Found: /signin/Zm9vYmFy:1vXyZ2:abcdefghijkl", "Not Found: /signin/[redacted]", "Zm9vYmFy"),
    ("Forbidden (CSRF cookie not set.): /signin/Zm9vYmFy:1vXyZ2:abc", "Forbidden (CSRF cookie not set.): /signin/",
     "1vXyZ2"),
    (f"LTI launch refused (malformed): id_token={JWT}", "LTI launch refused (malformed): id_token=", JWT[20:40]),
    (f"token {JWT} rejected", "token [redacted] rejected", JWT[40:60]),
    ("Authorization: Bearer kit_0123456789abcdefghijklmnop", "Authorization: Bearer [redacted]", "0123456789abc"),
    ("used kit_0123456789abcdefghijklmnop twice", "used kit_[redacted] twice", "0123456789abc"),
    ("Cookie: sessionid=abcdefghij0123456789; csrftoken=ZYXWVU98765", "Cookie: sessionid=[redacted];", "ZYXWVU"),
    ("could not connect to postgresql://kit:hunter2secret@db:5432/kit", "postgresql://kit:[redacted]@db:5432/kit",
     "hunter2"),
])
def test_the_filter_takes_each_kind_of_secret_out_and_keeps_the_rest(line, kept, secret):
    redacted = redact(line)
    assert kept in redacted
    assert secret not in redacted


@pytest.mark.live
@pytest.mark.browser
def test_no_secret_reaches_any_log_line(service, tmp_path):
    secrets: dict[str, str] = {}
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # A student: a sign-in link, then the same link with one stray character, then pages.
            student = chromium.new_context()
            page = student.new_page()
            link = service.link_for("lena")
            secrets["sign-in link"] = _signed_part(link)
            assert page.goto(link + "x").status == 404
            assert page.goto(link[:-1] + ("A" if link[-1] != "A" else "B")).status == 404
            assert student.request.post(link).status == 403  # a sign-in posted without its form: CSRF refuses
            _sign_in(page, link)
            correct, wrong, text = tmp_path / "correct.ipynb", tmp_path / "wrong.ipynb", tmp_path / "notes.txt"
            correct.write_bytes(notebook_bytes("ada_full_marks", A01))
            wrong.write_bytes(notebook_bytes("ben_partial", A01))
            text.write_text("not a notebook")
            for path in (correct, wrong):
                _submit(page, service, path)
                page.wait_for_selector("#score", timeout=90_000)
                page.click("#feedback")
                assert "feedback for lena" in page.inner_text("h1")
            _submit(page, service, text)
            assert "nothing was stored" in page.inner_text("#refusal")
            page.goto(f"{service.url}/token")
            page.click("#new-token")
            token = page.inner_text("#token").strip()
            secrets["API token"] = token
            page.goto(f"{service.url}/submissions/999999")  # not hers, not anyone's: 404
            for value in _cookie_secrets(student):
                secrets[f"student cookie {value[:4]}"] = value

            # The API with the token, and with a token one character off.
            answer = requests.post(f"{service.url}/api/v1/submissions", headers={"Authorization": f"Bearer {token}"},
                                   data={"assignment": A02},
                                   files={"notebook": (f"{A02}.ipynb", notebook_bytes("ada_full_marks", A02))},
                                   timeout=60)
            assert answer.status_code == 201
            status = requests.get(f"{service.url}/api/v1/submissions/{answer.json()['id']}",
                                  headers={"Authorization": f"Bearer {token}"}, timeout=30)
            assert status.status_code == 200
            assert requests.get(f"{service.url}/api/v1/submissions/{answer.json()['id']}",
                                headers={"Authorization": f"Bearer {token}x"}, timeout=30).status_code == 401

            # A revoked link.
            revoked = service.link_for("rex")
            secrets["revoked link"] = _signed_part(revoked)
            service.cli("revoke", "rex")
            assert page.goto(revoked).status == 404

            # The instructor's pages.
            teacher = chromium.new_context()
            page = teacher.new_page()
            instructor_link = service.link_for("ines", instructor=True)
            secrets["instructor's link"] = _signed_part(instructor_link)
            _sign_in(page, instructor_link)
            for path in ("/instructor/", "/instructor/class", "/instructor/students/lena",
                         f"/instructor/policies/{A01}", "/instructor/report", "/instructor/similarity",
                         "/instructor/students/nobody-here"):
                page.goto(service.url + path)
            for value in _cookie_secrets(teacher):
                secrets[f"instructor cookie {value[:4]}"] = value

            # An LTI launch from the LMS: its id_token is a secret too.
            learner = chromium.new_context()
            page = learner.new_page()
            sent = []
            page.route(f"{service.url}/lti/launch",
                       lambda route: (sent.append(dict(parse_qsl(route.request.post_data or ""))), route.continue_()))
            service.lms.execute("INSERT OR IGNORE INTO lti_platform_course (course_id, title) VALUES (?, ?)",
                                "logs", "Logs")
            service.lms.execute("INSERT INTO lti_platform_resourcelink (course_id, title, url, custom) VALUES"
                                " (?, ?, ?, ?)", "logs", A01, f"{service.url}/lti/launch", f'{{"assignment": "{A01}"}}')
            link_id = service.lms.query("SELECT MAX(id) FROM lti_platform_resourcelink")[0][0]
            page.goto(service.lms.signin_url("lin", "logs"))
            page.goto(f"{service.lms.url}/launch/{link_id}")
            page.wait_for_url(f"{service.url}/assignments/{A01}")
            secrets["LTI id_token"] = sent[0]["id_token"]
            replayed = learner.request.post(f"{service.url}/lti/launch", form=sent[0])  # refused, and logged
            assert replayed.status == 403
            for value in _cookie_secrets(learner):
                secrets[f"learner cookie {value[:4]}"] = value
        finally:
            chromium.close()

    logs = _log_text(service)
    assert "Not Found" in logs or "Forbidden" in logs  # the refusals above were logged (without their secrets)
    leaked = sorted(name for name, value in secrets.items() if len(value) >= 16 and value in logs)
    assert leaked == [], f"secrets in the logs: {leaked}"
    assert "/signin/[redacted]" in logs
