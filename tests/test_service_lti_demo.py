"""``make lti-demo`` as a newcomer uses it, and the accounts of one person joined.

The demo is started as the make target starts it (``python -m autograder service lti demo``, on
free ports, in a temporary folder), and its printed addresses are all the test knows: in
Chromium, the stand-in LMS's page has a launch button per link and person; a learner launches,
submits, reads the score, and the score arrives in the LMS's gradebook (by name, in the LMS's
clock, with a link to the feedback page; a learner sees only her own); the instructor's launch
opens the class table sorted by the link's assignment. Ctrl-C (SIGINT) stops the LMS and the service, each cleanly.

Against the demo's own service (its database, its command line): a student on the roster who
then comes from the LMS is two accounts, and grades.csv lists both; ``service accounts
duplicates`` names the pair, ``merge --dry-run`` changes nothing, ``merge`` leaves one row per
person and assignment, and the LMS is owed the merged account's score. A merge that would join
two people is refused, with nothing changed.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest
import requests
from service_harness import LiveService, free_port, notebook_bytes

from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS

pytestmark = [pytest.mark.live, pytest.mark.browser]

A01 = "01_attention_scores"
READY = "Ctrl-C stops both."


class RunningDemo:
    """The demo's process, and what it printed."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="kit-lti-demo-test-"))
        self.folder.chmod(0o755)  # the web process's own user reads the service's data
        command = [sys.executable, "-m", "autograder", "service", "lti", "demo", "--folder", str(self.folder),
                   "--service-port", str(free_port()), "--platform-port", str(free_port())]
        self.process = subprocess.Popen(command, cwd=KIT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, start_new_session=True)
        self.printed: list[str] = []
        deadline = time.monotonic() + 240
        while READY not in self.printed:
            line = self.process.stdout.readline()
            if not line or time.monotonic() > deadline:
                self.process.kill()
                raise AssertionError("the demo did not start:\n" + "".join(self.printed) + self._logs())
            self.printed.append(line.rstrip("\n"))
        text = "\n".join(self.printed)
        self.lms = re.search(r"The stand-in LMS: (http://\S+)/ ", text).group(1)
        self.service = re.search(r"The service: (http://\S+)/ ", text).group(1)
        self.person = dict(re.findall(r"^  (?:instructor|learner) (\w+) \(.*\): (http://\S+)$", text, re.M))
        self.gradebook = re.search(r"gradebook at the LMS .*: (http://\S+)$", text, re.M).group(1)
        self.children = psutil.Process(self.process.pid).children(recursive=True)

    def lms_query(self, sql: str) -> list[tuple]:
        with contextlib.closing(sqlite3.connect(f"file:{self.folder / 'platform' / 'platform.sqlite3'}?mode=ro",
                                                uri=True, timeout=30)) as connection:
            return connection.execute(sql).fetchall()

    def _logs(self) -> str:
        return "".join(f"\n{log.name}:\n{log.read_text()[-3000:]}" for log in self.folder.glob("*.log"))

    def interrupt(self) -> tuple[int, str]:
        """Ctrl-C, as a terminal sends it to the demo; its exit status and what it printed since."""
        self.process.send_signal(signal.SIGINT)
        rest = self.process.communicate(timeout=90)[0]
        return self.process.returncode, rest


@pytest.fixture(scope="module")
def demo():
    running = RunningDemo()
    yield running
    if running.process.poll() is None:
        running.interrupt()
    subprocess.run(["rm", "-rf", str(running.folder)], check=False)


@pytest.fixture
def page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


def submit(page, service_url: str, notebook: bytes, tmp_path) -> str:
    path = tmp_path / f"{A01}.ipynb"
    path.write_bytes(notebook)
    page.goto(f"{service_url}/assignments/{A01}")
    page.set_input_files("#notebook", str(path))
    page.click("#submit")
    page.wait_for_selector("#score", timeout=120_000)
    return page.inner_text("#score")


def wait_for_text(page, url: str, text: str, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    while True:
        page.goto(url)
        shown = page.inner_text("body")
        if text in shown:
            return shown
        assert time.monotonic() < deadline, f"{text!r} never appeared at {url}:\n{shown}"
        time.sleep(0.5)


def grades(service: LiveService, tmp_path) -> list[dict]:
    out = tmp_path / f"grades-{time.monotonic_ns()}.csv"
    service.cli("grades", "--out", str(out))
    return list(csv.DictReader(io.StringIO(out.read_text())))


def test_the_demo_prints_a_launch_button_per_link_and_person(demo, page):
    assert set(demo.person) == {"teacher", "ana", "ben"}
    page.goto(demo.lms + "/")
    buttons = page.locator("button.launch")
    assert buttons.count() == len(ASSIGNMENTS) * 3
    assert page.get_by_role("button", name="Launch as Ana Learner").count() == len(ASSIGNMENTS)
    assert page.locator("table.launches th[scope=row]").first.inner_text() == "01 Attention scores"


def test_a_learner_launches_submits_and_the_score_reaches_the_lms(demo, page, tmp_path):
    page.goto(demo.person["ana"])  # the address printed for ana: her course at the LMS, as docs/service/lti.md says
    page.wait_for_url(f"{demo.lms}/course/demo/")
    assert page.locator("a.tool-link").all_inner_texts()[0] == "Launch 01 Attention scores"
    assert "Signed in as Ana Learner" in page.inner_text("body")
    assert page.locator("#add-tool").count() == 0  # adding tools is the teacher's
    docs = (KIT_ROOT / "docs" / "service" / "lti.md").read_text()
    assert "opens the course's page" in docs
    assert "**Launch ...** link per assignment" in docs
    page.click("a.tool-link >> nth=0")  # "Launch 01 Attention scores"
    page.wait_for_url(f"{demo.service}/assignments/{A01}")
    assert submit(page, demo.service, notebook_bytes("ada_full_marks", A01), tmp_path) == "Score: 100 of 100"
    shown = wait_for_text(page, demo.gradebook, "Ana Learner")
    assert "lms-ana" not in shown
    # The LMS's clock (UTC), to the second, with its offset.
    assert re.search(r"01 Attention scores\s+Ana Learner\s+100\.0 / 100\.0\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000\s",
                     shown), shown
    feedback = page.locator("#gradebook a")
    assert re.fullmatch(re.escape(demo.service) + r"/submissions/\d+/feedback", feedback.get_attribute("href"))
    feedback.click()
    page.wait_for_selector("p.score")
    assert page.inner_text("p.score") == "100 / 100"


def test_the_instructor_launches_into_the_class_by_that_assignment(demo, page):
    page.goto(demo.person["teacher"])
    assert page.locator("#add-tool").count() == 1
    page.goto(demo.lms + "/")
    page.get_by_role("button", name="Launch as Tess Teacher").first.click()  # "01 Attention scores"
    page.wait_for_url(f"{demo.service}/instructor/class?sort={A01}")
    sorted_by = page.locator("th[aria-sort=ascending]")
    assert sorted_by.count() == 1
    assert "01" in sorted_by.inner_text()


def test_two_accounts_of_one_person_merge_into_one_row_per_person(demo, browser, tmp_path):
    service = LiveService.of_running(demo.folder / "service", demo.service)
    # ben is on the roster first, and submits there ...
    roster_session = service.signed_in("ben")
    assert service.upload(roster_session, A01, notebook_bytes("ada_full_marks", A01, attempt=1)).status_code == 200
    # ... then comes from the LMS: a second account, ben@demo-lms, which submits too.
    context = browser.new_context()
    page = context.new_page()
    page.goto(demo.person["ben"])
    page.click("a.tool-link >> nth=0")
    page.wait_for_url(f"{demo.service}/assignments/{A01}")
    submit(page, demo.service, notebook_bytes("ada_full_marks", A01, attempt=2), tmp_path)
    context.close()
    ben_rows = [row for row in grades(service, tmp_path) if row["student_id"].startswith("ben")]
    assert sorted(row["student_id"] for row in ben_rows) == ["ben", "ben@demo-lms"]

    listed = service.cli("accounts", "duplicates").stdout
    assert "ben@demo-lms may be ben: service accounts merge ben@demo-lms ben --dry-run" in listed
    dry = service.cli("accounts", "merge", "ben@demo-lms", "ben", "--dry-run").stdout
    assert "would merge ben@demo-lms -> ben: 1 submissions (01_attention_scores)" in dry
    assert "LTI identities demo-lms: lms-ben" in dry
    assert len(service.query("SELECT id FROM auth_user WHERE username LIKE 'ben%'")) == 2  # nothing changed

    refused = service.cli("accounts", "merge", "teacher", "ben", check=False)
    assert refused.returncode == 2
    assert "teacher is an instructor and the other is not" in refused.stderr
    refused = service.cli("accounts", "merge", "ben@demo-lms", "ana", check=False)  # ana's LMS account: two people
    assert refused.returncode == 2
    assert "both are people of the platform demo-lms ('lms-ben' and 'lms-ana')" in refused.stderr

    merged = service.cli("accounts", "merge", "ben@demo-lms", "ben").stdout
    assert merged.startswith("merged ben@demo-lms -> ben: 1 submissions")
    rows = grades(service, tmp_path)
    people = [(row["student_id"], row["assignment_id"]) for row in rows]
    assert len(people) == len(set(people))  # one row per person and assignment
    assert [row["student_id"] for row in rows if row["student_id"].startswith("ben")] == ["ben"]
    [(user_id,)] = service.query("SELECT id FROM auth_user WHERE username = 'ben'")
    assert service.query("SELECT COUNT(*) FROM service_submission WHERE user_id = ?", user_id) == [(2,)]
    assert service.query("SELECT i.subject FROM service_ltiidentity i WHERE i.user_id = ?", user_id) == [("lms-ben",)]
    assert service.query("SELECT COUNT(*) FROM service_scorepassback WHERE reason = 'merged'") == [(1,)]
    # The LMS takes the merged account's counted score: a second score for ben, after his launch's own.
    deadline = time.monotonic() + 90
    while demo.lms_query("SELECT COUNT(*) FROM lti_platform_scorereceipt WHERE user_id = 'lms-ben'") != [(2,)]:
        assert time.monotonic() < deadline, "the merged score never reached the LMS"
        time.sleep(0.5)
    service.close()  # its command line's folder (the demo's data stays the demo's)


def test_the_lms_gradebook_shows_a_learner_only_her_own_scores(demo, page):
    """After the test above, ben's (merged) score is in the gradebook beside ana's."""
    page.goto(demo.person["teacher"])
    page.goto(demo.gradebook)
    everyone = page.locator("#gradebook tbody td:nth-child(2)").all_inner_texts()
    assert {"Ana Learner", "Ben Learner"} <= set(everyone)
    page.goto(demo.person["ana"])
    page.goto(demo.gradebook)
    assert set(page.locator("#gradebook tbody td:nth-child(2)").all_inner_texts()) == {"Ana Learner"}


def test_ctrl_c_stops_the_lms_and_the_service_cleanly(demo):
    status, printed = demo.interrupt()
    assert status == 0, printed
    assert "The LTI demo stopped: the LMS and the service exited cleanly." in printed
    _, alive = psutil.wait_procs(demo.children, timeout=30)
    assert alive == []
    for url in (demo.lms + "/jwks", demo.service + "/"):
        with pytest.raises(requests.ConnectionError):
            requests.get(url, timeout=5)
    assert os.path.exists(demo.folder / "service" / "service.sqlite3")  # the data stays for another start
