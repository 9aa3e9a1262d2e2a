"""LTI 1.3 Advantage against a real platform implementation (lti1p3platform, on loopback, see
``autograder/service/lti/demo_platform``), driven in Chromium as a person uses an LMS: an instructor adds an assignment
through deep linking; a student launches it, submits, reads the feedback, and the score arrives in
the platform's gradebook (Assignment and Grade Services); with the platform down, scores wait and
then arrive each exactly once, in order; a score the platform refuses fails with its reason on the
instructor's page and is sent again from there; a regrade and an adjustment send the new score; the
tool's key is rotated under way; a column the tool must make is made once and made again when
the LMS deletes it; the course's class list (Names and Role Provisioning) lists who has not
submitted. And each refusal: a token changed on the way (its signature), replayed (its
nonce), expired, for another client id (its audience), from an unknown deployment or platform, or
for a role the service does not know; each says why and creates nothing. And a launch that names
its grade service or class list on another host (the loopback's, a cloud's metadata address)
points the tool nowhere: nothing is fetched there, and the instructor's pages say why."""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, urlencode

import pytest
import requests
from lti_harness import CLIENT_ID, served_with_platform
from service_harness import LiveService, notebook_bytes
from test_service_browser import screenshot

pytestmark = [pytest.mark.live, pytest.mark.browser]

A01, A02 = "01_attention_scores", "02_self_attention"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"


@pytest.fixture(scope="module")
def service():
    with served_with_platform(LiveService(passback_retry_seconds="1")) as live:
        yield live


@pytest.fixture
def person(browser):
    """A browser of its own per person (the LMS's cookies and the service's)."""
    contexts = []

    def open_as(service, user: str, course: str, role: str = "Learner"):
        context = browser.new_context()
        contexts.append(context)
        page = context.new_page()
        page.goto(service.lms.signin_url(user, course, role))
        return page

    yield open_as
    for context in contexts:
        context.close()


def wait_for(condition, timeout: float = 90, what: str = ""):
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.2)
    return result


def add_assignment(service, person, course: str, assignment: str = A01) -> int:
    """An instructor's deep link: the assignment becomes a link (and a column) of the course; its id."""
    page = person(service, f"teacher-{course}", course, "Instructor")
    page.click("#add-tool")  # the LMS's "add external tool": a deep linking launch into the service
    page.wait_for_selector("#offers")
    assert page.inner_text("h1") == "Add an assignment to your course"
    screenshot(page, "lti-deep-linking")  # for the documentation (KIT_DOCS_SCREENSHOTS), else nothing
    page.click(f"#add-{assignment}")  # posts the signed content item back to the LMS
    page.wait_for_url(re.compile(rf"/course/{course}/$"))
    [(link_id,)] = service.lms.query("SELECT l.id FROM lti_platform_resourcelink l WHERE l.course_id = ? AND"
                                     " l.custom LIKE ?", course, f'%"{assignment}"%')
    return link_id


def launch(service, person, user: str, course: str, link_id: int, role: str = "Learner", **knobs):
    page = person(service, user, course, role)
    query = "&".join(f"{key}={value}" for key, value in knobs.items())
    page.goto(f"{service.lms.url}/launch/{link_id}{'?' + query if query else ''}")
    page.wait_for_load_state()
    return page


def submit(page, service, notebook: bytes, tmp_path, assignment: str = A01) -> tuple[int, str]:
    path = tmp_path / f"{assignment}-{time.monotonic_ns()}.ipynb"
    path.write_bytes(notebook)
    page.goto(f"{service.url}/assignments/{assignment}")
    page.set_input_files("#notebook", str(path))
    page.click("#submit")
    page.wait_for_selector("#score", timeout=90_000)
    return int(re.search(r"/submissions/(\d+)", page.url).group(1)), page.inner_text("#score")


def receipts(service, user: str) -> list[tuple]:
    return service.lms.query("SELECT score_given, timestamp, outcome, comment, submitted_at, line_item_id FROM"
                             " lti_platform_scorereceipt WHERE user_id = ? ORDER BY id", f"lms-{user}")


def test_an_instructor_adds_an_assignment_by_deep_linking(service, person):
    link_id = add_assignment(service, person, "deep")
    [(title, custom, item_id)] = service.lms.query("SELECT title, custom, line_item_id FROM"
                                                   " lti_platform_resourcelink WHERE id = ?", link_id)
    assert title == "01 Attention scores"
    assert '"assignment": "01_attention_scores"' in custom
    assert service.lms.query("SELECT label, score_maximum, resource_id, made_by FROM lti_platform_lineitem WHERE"
                             " id = ?", item_id) == [("01 Attention scores", 100.0, A01, "deep linking")]
    assert service.query("SELECT is_staff FROM auth_user WHERE username = 'teacher-deep'") == [(1,)]


def test_the_deep_linking_page_marks_what_the_course_links_and_cancel_adds_nothing(service, person):
    link_id = add_assignment(service, person, "marked")
    launch(service, person, "teacher-marked", "marked", link_id, role="Instructor")  # the service learns of it
    page = person(service, "teacher-marked", "marked", "Instructor")
    page.click("#add-tool")
    page.wait_for_selector("#offers")
    linked = page.locator("#offers tr.linked")
    assert linked.count() == 1
    assert "01 Attention scores" in linked.inner_text()
    assert "Already in this course" in linked.inner_text()
    assert page.inner_text(f"#add-{A01}") == "Add a second link"
    assert page.inner_text(f"#add-{A02}") == "Add to the course"
    assert "Adding one again makes a second link" in page.inner_text("main")
    page.click("#cancel")  # an empty deep linking response: back in the LMS, nothing added
    page.wait_for_url(re.compile(r"/course/marked/$"))
    assert service.lms.query("SELECT COUNT(*) FROM lti_platform_resourcelink WHERE course_id = 'marked'") == [(1,)]


def test_a_student_launches_submits_reads_feedback_and_the_score_reaches_the_lms(service, person, tmp_path):
    link_id = add_assignment(service, person, "course1")
    page = launch(service, person, "ana", "course1", link_id)
    assert page.url == f"{service.url}/assignments/{A01}"  # signed in by the launch, on the linked assignment
    submission, score = submit(page, service, notebook_bytes("ada_full_marks", A01), tmp_path)
    assert score == "Score: 100 of 100"
    page.click("#feedback")
    assert "01_attention_scores: feedback for ana" in page.inner_text("h1")

    [(given, timestamp, outcome, comment, submitted_at, item)] = wait_for(lambda: receipts(service, "ana"),
                                                                          what="the score at the LMS")
    assert (given, outcome) == (100.0, "created")
    assert comment == f"Feedback: {service.url}/submissions/{submission}/feedback"
    received = service.query("SELECT received_at FROM service_submission WHERE id = ?", submission)[0][0]
    assert submitted_at[:19] == str(received).replace(" ", "T")[:19]  # the server's receipt time
    [(column,)] = service.lms.query("SELECT line_item_id FROM lti_platform_resourcelink WHERE id = ?", link_id)
    assert item == column  # the column deep linking made
    lms = person(service, "teacher-course1", "course1", "Instructor")
    lms.goto(f"{service.lms.url}/gradebook/course1")
    assert "100.0 / 100.0" in lms.inner_text("#gradebook")


def test_with_the_lms_down_scores_wait_then_arrive_each_once_in_order(service, person, tmp_path):
    link_id = add_assignment(service, person, "outage")
    page = launch(service, person, "ben", "outage", link_id)
    service.lms.stop()
    try:
        first, _ = submit(page, service, notebook_bytes("ada_full_marks", A01, run="1"), tmp_path)
        second, score = submit(page, service, notebook_bytes("ben_partial", A01, run="2"), tmp_path)
        partial = float(re.search(r"Score: ([\d.]+)", score).group(1))
        assert partial < 100
        wait_for(lambda: service.query("SELECT COUNT(*) FROM service_scorepassback WHERE attempts >= 2")[0][0] >= 1,
                 what="retries while the LMS is down")
        teacher = service.signed_in("outage-teacher", instructor=True)
        dashboard = teacher.get(f"{service.url}/instructor/", timeout=30).text
        assert "waiting to be sent" in dashboard
        assert "the LMS could not be reached" in dashboard
    finally:
        service.lms.start()
    got = wait_for(lambda: (rows := receipts(service, "ben")) and len(rows) >= 2 and rows, what="both scores")
    time.sleep(3)  # any duplicate would come now
    got = receipts(service, "ben")
    assert [(given, outcome) for given, _, outcome, *_ in got] == [(100.0, "created"), (partial, "success")]
    assert got[0][1] < got[1][1]  # timestamps in the order the scores were decided
    assert service.query("SELECT state, COUNT(*) FROM service_scorepassback p JOIN service_ltilinkuser u ON"
                         " u.id = p.link_user_id JOIN service_ltiidentity i ON i.id = u.identity_id WHERE"
                         " i.subject = 'lms-ben' GROUP BY state") == [("sent", 2)]

    # A regrade sends the score again, newer; so does an adjustment, with the points in.
    teacher.post(f"{service.url}/instructor/regrade", data={"submission": str(second), "csrfmiddlewaretoken":
                 teacher.cookies.get("csrftoken", "")}, headers={"Referer": f"{service.url}/instructor/"}, timeout=30)
    wait_for(lambda: len(receipts(service, "ben")) == 3, what="the regrade's score")
    service.cli("adjust", "ben", A01, "5", "a fair question")
    got = wait_for(lambda: len(rows := receipts(service, "ben")) == 4 and rows, what="the adjusted score")
    assert [given for given, *_ in got] == [100.0, partial, partial, partial + 5]
    assert [timestamp for _, timestamp, *_ in got] == sorted(timestamp for _, timestamp, *_ in got)
    assert all(outcome != "oldtimestamp" for _, _, outcome, *_ in got)
    assert first < second


def test_a_score_the_lms_refuses_fails_with_its_reason_and_is_sent_again_from_the_instructors_page(
        service, person, tmp_path):
    link_id = add_assignment(service, person, "dropped")
    page = launch(service, person, "fay", "dropped", link_id)
    service.lms.execute("DELETE FROM lti_platform_member WHERE user_id = 'lms-fay'")  # she left the course
    submit(page, service, notebook_bytes("ada_full_marks", A01), tmp_path)
    [(why,)] = wait_for(lambda: service.query(
        "SELECT p.last_error FROM service_scorepassback p JOIN service_ltilinkuser u ON u.id = p.link_user_id JOIN"
        " service_ltiidentity i ON i.id = u.identity_id WHERE i.subject = 'lms-fay' AND p.state = 'failed'"),
        what="the refusal")
    assert why.startswith("the LMS refused the score (HTTP 422")  # refused for good: not tried again
    assert receipts(service, "fay") == []

    teacher = launch(service, person, "teacher-dropped", "dropped", link_id, role="Instructor")
    assert teacher.url == f"{service.url}/instructor/class?sort={A01}"  # the class, by the link's assignment
    teacher.goto(f"{service.url}/instructor/")
    row = teacher.locator("#passbacks tr", has_text="fay")
    assert "failed: the LMS refused it" in row.inner_text()
    assert "User not found in course or is not a student" in row.inner_text()

    service.lms.execute("INSERT INTO lti_platform_member (course_id, user_id, name, role) VALUES (?, ?, ?, ?)",
                        "dropped", "lms-fay", "Fay", "Learner")  # enrolled again
    teacher.click("#retry-passbacks")
    got = wait_for(lambda: receipts(service, "fay"), what="the score sent again")
    time.sleep(3)  # any duplicate would come now
    assert [(given, outcome) for given, _, outcome, *_ in receipts(service, "fay")] == [(100.0, "created")]
    teacher.goto(f"{service.url}/instructor/")
    assert teacher.locator("#passbacks tr", has_text="fay").count() == 0  # nothing owed to her now
    assert got[0][0] == 100.0


def test_the_tools_key_rotates_and_scores_still_arrive(service, person, tmp_path):
    before = requests.get(f"{service.url}/lti/jwks", timeout=30).json()["keys"]
    service.cli("lti", "rotate-key")
    after = requests.get(f"{service.url}/lti/jwks", timeout=30).json()["keys"]
    assert len(after) == len(before) + 1  # the new key, and the old one for platforms that cached it
    assert all("d" not in key for key in after)  # public parts only
    link_id = add_assignment(service, person, "rotated")  # signed with the new key: the LMS takes it
    page = launch(service, person, "cy", "rotated", link_id)
    submit(page, service, notebook_bytes("ada_full_marks", A01), tmp_path)
    wait_for(lambda: receipts(service, "cy"), what="a score signed for with the new key")


def test_a_column_the_tool_must_make_is_made_once_and_again_when_deleted(service, person, tmp_path):
    course = "handmade"
    add_assignment(service, person, course, A02)  # the course and its first link
    # A link the instructor placed by hand, without a gradebook column.
    service.lms.execute("INSERT INTO lti_platform_resourcelink (course_id, title, url, custom) VALUES (?, ?, ?, ?)",
                        course, "By hand", f"{service.url}/lti/launch", f'{{"assignment": "{A01}"}}')
    [(link_id,)] = service.lms.query("SELECT id FROM lti_platform_resourcelink WHERE title = 'By hand'")
    for user in ("dee", "eve"):
        page = launch(service, person, user, course, link_id)
        submit(page, service, notebook_bytes("ada_full_marks", A01), tmp_path)
        wait_for(lambda user=user: receipts(service, user), what=f"{user}'s score")
    made = service.lms.query("SELECT id, resource_id, resource_link_id FROM lti_platform_lineitem WHERE"
                             " made_by = 'tool'")
    assert [(resource, link) for _, resource, link in made] == [(A01, str(link_id))]  # made once, then reused
    service.lms.execute("DELETE FROM lti_platform_lineitem WHERE id = ?", made[0][0])  # deleted in the LMS
    service.cli("adjust", "dee", A01, "-1", "late by a minute")
    wait_for(lambda: len(receipts(service, "dee")) == 2, what="the score after the column was deleted")
    remade = service.lms.query("SELECT id FROM lti_platform_lineitem WHERE made_by = 'tool'")
    [(remade_id,)] = remade
    assert remade_id != made[0][0]
    assert receipts(service, "dee")[-1][5] == remade_id
    assert CLIENT_ID in service.cli("lti", "show").stdout


def class_table(page) -> dict[str, dict[str, str]]:
    """The instructor's class matrix: student -> assignment -> the text of its cell."""
    assignments = page.locator("#class thead th").all_inner_texts()[1:-1]  # between the student and the total
    rows = {}
    for row in page.locator("#class tbody tr").all():
        if row.locator("th a").count():  # not the row saying that no student matches
            cells = row.locator("td").all_inner_texts()[:-1]
            rows[row.locator("th a").inner_text()] = dict(zip(assignments, cells, strict=True))
    return rows


def test_the_class_list_from_the_lms_lists_students_who_submitted_nothing(service, person, tmp_path):
    course = "roster"
    link_id = add_assignment(service, person, course, A02)
    for user, role in (("hal", "Learner"), ("ivy", "Mentor")):
        person(service, user, course, role)  # enrolled in the LMS's course; never opened the tool
    page = launch(service, person, "gus", course, link_id)
    submit(page, service, notebook_bytes("ada_full_marks", A02), tmp_path, A02)
    teacher = launch(service, person, "teacher-roster", course, link_id, role="Instructor")
    teacher.goto(f"{service.url}/instructor/class")
    assert "hal" not in class_table(teacher)

    teacher.click("#fetch-class-lists")  # Names and Role Provisioning
    assert "2 students on its class list" in teacher.locator("#class-lists li", has_text="lms: Roster").inner_text()
    assert teacher.url == f"{service.url}/instructor/class"  # redirected after the post: a reload fetches nothing
    table = class_table(teacher)
    assert table["hal"][A02] == "0 missing"  # and missing for what other courses' students submitted
    assert all(cell == "0 missing" for cell in table["hal"].values())
    assert table["gus"][A02] == "100"
    assert "ivy" not in table  # a mentor is no student
    assert "teacher-roster" not in table
    teacher.reload()
    assert teacher.locator("#class-lists").count() == 0  # the result is shown once

    users = service.query("SELECT COUNT(*) FROM auth_user")
    page = launch(service, person, "hal", course, link_id)  # his first launch finds the user the list made
    assert page.url == f"{service.url}/assignments/{A02}"
    assert service.query("SELECT COUNT(*) FROM auth_user") == users

    service.lms.execute("DELETE FROM lti_platform_member WHERE user_id = 'lms-hal'")  # he left the course
    assert "lms: Roster: 1 student on its class list" in service.cli("lti", "roster").stdout
    teacher.goto(f"{service.url}/instructor/class")
    assert "hal" not in class_table(teacher)


# -- refusals: each says why, and creates nothing ------------------------------------------------------
def placed_link(service, course: str, assignment: str = A01) -> int:
    """A link of ``assignment`` in ``course``, placed in the LMS by its administrator."""
    service.lms.execute("INSERT OR IGNORE INTO lti_platform_course (course_id, title) VALUES (?, ?)", course, course)
    service.lms.execute("INSERT INTO lti_platform_resourcelink (course_id, title, url, custom) VALUES (?, ?, ?, ?)",
                        course, assignment, f"{service.url}/lti/launch", f'{{"assignment": "{assignment}"}}')
    return service.lms.query("SELECT MAX(id) FROM lti_platform_resourcelink")[0][0]


def records(service) -> dict[str, int]:
    """How many people, identities, courses, links and link users the service holds."""
    return {table: service.query(f"SELECT COUNT(*) FROM {table}")[0][0] for table in (
        "auth_user", "service_ltiidentity", "service_lticontext", "service_ltiresourcelink", "service_ltilinkuser")}


def refusal(page) -> str:
    return page.get_attribute("#lti-refused", "data-reason")


@pytest.mark.parametrize(("knobs", "reason"), [
    ({"lifetime": "-120"}, "expired"),  # expired two minutes ago: beyond the minute of leeway
    ({"audience": "another-tool"}, "wrong_audience"),  # the platform's token names another client id
    ({"deployment": "deployment-unregistered"}, "unknown_deployment"),
])
def test_a_launch_the_platform_got_wrong_is_refused_and_creates_nothing(service, person, knobs, reason):
    link_id = placed_link(service, "refusals")
    before = records(service)
    page = launch(service, person, f"who-{reason}", "refusals", link_id, **knobs)
    assert refusal(page) == reason
    assert "The launch from your course was refused, and nothing was stored" in page.inner_text("#lti-refused")
    assert records(service) == before
    assert page.context.request.get(f"{service.url}/assignments/{A01}").status == 401  # nobody signed in


def test_clock_skew_within_the_leeway_is_accepted(service, person):
    page = launch(service, person, "skewed", "refusals", placed_link(service, "refusals"), lifetime="-30")
    assert page.url == f"{service.url}/assignments/{A01}"


def test_a_role_the_service_does_not_know_is_refused_and_creates_nothing(service, person):
    link_id = placed_link(service, "refusals")
    before = records(service)
    page = launch(service, person, "mentor", "refusals", link_id, role="Mentor")
    assert refusal(page) == "unknown_role"
    assert "Students need the Learner role" in page.inner_text("#lti-refused")
    assert records(service) == before


def _forged(post_data: str) -> str:
    """The launch form with the id_token's claims changed and its signature kept: another person."""
    form = dict(parse_qsl(post_data))
    header, body, signature = form["id_token"].split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["sub"] = "lms-the-instructor"
    claims[CLAIM + "roles"] = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]
    body = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    form["id_token"] = f"{header}.{body}.{signature}"
    return urlencode(form)


def test_a_launch_changed_on_the_way_fails_its_signature_and_creates_nothing(service, person):
    link_id = placed_link(service, "refusals")
    before = records(service)
    page = person(service, "mallory", "refusals")
    page.route(f"{service.url}/lti/launch", lambda route: route.continue_(post_data=_forged(route.request.post_data)))
    page.goto(f"{service.lms.url}/launch/{link_id}")
    page.wait_for_selector("#lti-refused")
    assert refusal(page) == "bad_signature"
    assert records(service) == before


def test_a_replayed_launch_is_refused_in_the_same_browser_and_in_another(service, person, browser):
    link_id = placed_link(service, "refusals")
    page = person(service, "replayed", "refusals")
    sent = []

    def keep(route):
        sent.append(dict(parse_qsl(route.request.post_data)))
        route.continue_()

    page.route(f"{service.url}/lti/launch", keep)
    page.goto(f"{service.lms.url}/launch/{link_id}")
    page.wait_for_url(f"{service.url}/assignments/{A01}")
    before = records(service)
    again = page.context.request.post(f"{service.url}/lti/launch", form=sent[0])  # same cookies, same token
    assert again.status == 403
    assert 'data-reason="replayed"' in again.text()
    elsewhere = browser.new_context()
    try:
        stolen = elsewhere.request.post(f"{service.url}/lti/launch", form=sent[0])  # no state cookie there
        assert stolen.status == 403
        assert 'data-reason="state"' in stolen.text()
    finally:
        elsewhere.close()
    assert records(service) == before


def test_an_unknown_platform_is_refused_at_the_login(service):
    answer = requests.get(f"{service.url}/lti/login", params={"iss": "https://lms.example.org", "login_hint": "x",
                                                              "target_link_uri": f"{service.url}/lti/launch"},
                          timeout=30)
    assert answer.status_code == 403
    assert 'data-reason="unknown_platform"' in answer.text
    assert "https://lms.example.org" in answer.text


# -- a platform cannot point the service elsewhere -------------------------------------------------
class Listener:
    """An HTTP server on another loopback port that records every request it gets (and answers 200)."""

    def __init__(self):
        self.requests: list[str] = []
        heard = self.requests

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                heard.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            do_GET = do_POST = do_PUT = _answer

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Listener:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def _passback_errors(service, subject: str) -> list[tuple[str, str]]:
    return service.query("SELECT p.state, p.last_error FROM service_scorepassback p JOIN service_ltilinkuser u ON"
                         " u.id = p.link_user_id JOIN service_ltiidentity i ON i.id = u.identity_id WHERE i.subject = ?"
                         " AND p.state = 'failed'", subject)


def test_a_launch_cannot_point_the_service_at_another_host(service, person, tmp_path):
    with Listener() as listener:
        targets = {"loop": f"{listener.url}/", "meta": "http://169.254.169.254/latest/meta-data/"}
        for label, target in targets.items():
            course = f"elsewhere-{label}"
            link_id = placed_link(service, course)
            knobs = {service_name: quote(f"{target}{path}", safe="")
                     for service_name, path in (("lineitems", "lineitems"), ("memberships", "members"))}
            page = launch(service, person, f"sly-{label}", course, link_id, **knobs)
            assert page.url == f"{service.url}/assignments/{A01}"  # the student is let in; the addresses are not used
            submit(page, service, notebook_bytes("ada_full_marks", A01, run=label), tmp_path)
            wait_for(lambda label=label: _passback_errors(service, f"lms-sly-{label}") or listener.requests,
                     what="the passback refused")
            assert listener.requests == []  # the score was not sent to the other address
            [(_, why)] = _passback_errors(service, f"lms-sly-{label}")
            assert f"at {target}lineitems" in why
            assert "is not on the hosts registered for lms" in why
            assert "--service-host" in why

            teacher = launch(service, person, f"teacher-{course}", course, link_id, role="Instructor", **knobs)
            teacher.goto(f"{service.url}/instructor/")
            row = teacher.locator("#passbacks tr", has_text=f"sly-{label}").inner_text()
            assert "is not on the hosts registered for lms" in row
            teacher.goto(f"{service.url}/instructor/class")
            teacher.click("#fetch-class-lists")
            fetched = teacher.locator("#class-lists li", has_text=course).inner_text()
            assert "not fetched" in fetched
            assert f"at {target}members is not on the hosts registered for lms" in fetched
        assert receipts(service, "sly-loop") == []
        assert listener.requests == []  # nothing was fetched from the other address, not even once
