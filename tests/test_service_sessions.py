"""Sessions end when access ends: ``service revoke`` and "Sign out everywhere" end every open
session (and API token) of the person at once, not when their cookie expires; a revoked link's
page says it was revoked; the session's lifetime is a setting. One live service, no grading
worker (an upload is stored and queued, which is all these tests need)."""

from __future__ import annotations

import re

import pytest
import requests
from playwright import sync_api as playwright
from service_harness import CHROMIUM, CHROMIUM_ARGS, LiveService, notebook_bytes
from test_service_browser import _sign_in

A01 = "01_attention_scores"
SESSION_HOURS = 2


@pytest.fixture(scope="module")
def service():
    live = LiveService(workers=0, session_hours=str(SESSION_HOURS)).start(wait_for_worker=False)
    yield live
    live.close()


def _uploads_of(service, student: str) -> int:
    return service.query("SELECT COUNT(*) FROM service_submission s JOIN auth_user u ON u.id = s.user_id WHERE"
                         " u.username = ?", student)[0][0]


@pytest.mark.live
def test_revoking_a_student_ends_their_open_session_at_once(service):
    session = service.signed_in("rory")
    assert service.upload(session, A01, notebook_bytes("ada_full_marks", A01, run=1)).status_code == 200
    link = service.link_for("rory")
    service.cli("revoke", "rory")
    # The same browser, still holding its 2-hour cookie, is signed out: its next upload is refused.
    assert session.get(f"{service.url}/assignments/{A01}", timeout=30).status_code == 401
    after = session.post(f"{service.url}/assignments/{A01}/upload",
                         data={"csrfmiddlewaretoken": session.cookies["csrftoken"]},
                         files={"notebook": (f"{A01}.ipynb", notebook_bytes("ada_full_marks", A01, run=2))},
                         headers={"Referer": f"{service.url}/assignments/{A01}"}, timeout=60)
    assert after.status_code == 401
    assert _uploads_of(service, "rory") == 1
    revoked = requests.get(link, timeout=30)
    assert revoked.status_code == 404
    assert "revoked" in revoked.text
    assert 'data-reason="revoked"' in revoked.text


@pytest.mark.live
@pytest.mark.browser
def test_revoking_a_student_ends_the_session_of_their_open_browser(service, tmp_path):
    notebook = tmp_path / f"{A01}.ipynb"
    notebook.write_bytes(notebook_bytes("ada_full_marks", A01, run=3))
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = chromium.new_page()
            _sign_in(page, service.link_for("vic"))
            page.goto(f"{service.url}/assignments/{A01}")  # the upload form is open when access ends
            service.cli("revoke", "vic")
            page.set_input_files("#notebook", str(notebook))
            page.click("#submit")
            page.wait_for_load_state()
            assert page.locator("#signout").count() == 0  # signed out, not shown the upload's page
            page.goto(f"{service.url}/assignments/{A01}")
            assert page.locator("#notebook").count() == 0
        finally:
            chromium.close()
    assert _uploads_of(service, "vic") == 0


@pytest.mark.live
def test_a_revoked_link_says_revoked_and_a_forged_one_says_not_valid(service):
    link = service.link_for("sami")
    service.cli("revoke", "sami")
    assert "This sign-in link was revoked" in requests.get(link, timeout=30).text
    forged = requests.get(link[:-2] + ("AA" if not link.endswith("AA") else "BB"), timeout=30)
    assert forged.status_code == 404
    assert "This sign-in link is not valid" in forged.text


@pytest.mark.live
def test_the_session_lifetime_is_a_setting(service):
    link = service.link_for("tess")
    first = requests.get(link, timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first.text).group(1)
    signed = requests.post(link, data={"csrfmiddlewaretoken": token}, cookies=first.cookies,
                           headers={"Referer": link}, allow_redirects=False, timeout=30)
    cookie = signed.headers["Set-Cookie"]
    assert re.search(r"sessionid=\w+;", cookie)
    assert f"Max-Age={SESSION_HOURS * 3600}" in cookie


@pytest.mark.live
@pytest.mark.browser
def test_sign_out_everywhere_ends_the_persons_other_sessions_and_tokens(service):
    link = service.link_for("uma")
    token = service.cli("token", "uma").stdout.strip()
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            laptop, phone = chromium.new_context(), chromium.new_context()
            pages = []
            for context in (laptop, phone):
                page = context.new_page()
                page.goto(link)
                page.click("#signin")
                page.wait_for_url(re.compile(r"/$"))
                assert "Your assignments" in page.inner_text("h1")
                pages.append(page)
            pages[0].click("#signout-everywhere")
            pages[0].wait_for_url(re.compile(r"/$"))
            pages[1].goto(f"{service.url}/assignments/{A01}")
            assert pages[1].locator("#signout").count() == 0  # the other browser is signed out too
            assert pages[1].context.request.get(f"{service.url}/token").status == 401
        finally:
            chromium.close()
    api = requests.get(f"{service.url}/api/v1/submissions/1", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert api.status_code == 401  # and the API token with them
    assert service.signed_in("uma").get(service.url, timeout=30).status_code == 200  # the link still signs in
