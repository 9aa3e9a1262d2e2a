"""The solutions on the service's feedback page, in a real browser (Debian's Chromium, driven by
Playwright), against a live service grading real notebooks: once the assignment is closed, a
student reads the reference code of exactly the stages their submission lost points on and the
model answers to the "Think about it" questions, in their notebook's language; before that,
neither (not in the page, nor in any API answer), and the page says when they will appear; an
instructor sees them at any time. See autograder/service/answers.py for what "closed" means."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
import requests
from service_harness import LiveService, notebook_bytes, secret_lines

from autograder.feedback.moments import shown_moment
from autograder.notebooks.model_answers import answers_of

pytestmark = [pytest.mark.live, pytest.mark.browser]

A01 = "01_attention_scores"


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _token(service, student: str) -> str:
    service.link_for(student)  # makes the student
    return service.cli("token", student).stdout.strip()


def _minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def _policy(service, due: datetime | None, closes: datetime | None, accepting: bool = True) -> None:
    service.cli("policy", A01, "--due", due.isoformat() if due else "none",
                "--closes", closes.isoformat() if closes else "none", "--accepting", "yes" if accepting else "no")


def _signed_in_page(browser, service, user: str, instructor: bool = False):
    page = browser.new_page()
    page.goto(service.link_for(user, instructor))
    page.click("#signin")
    page.wait_for_url(re.compile(r"/(instructor/)?$"))
    return page


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return [value] if isinstance(value, str) else []


def _api(service, token: str, path: str) -> str:
    """Every text an API answer holds, as its reader gets it (not JSON-escaped)."""
    answer = requests.get(f"{service.url}/api/v1/submissions{path}", headers={"Authorization": f"Bearer {token}"},
                          timeout=30)
    assert answer.status_code == 200
    return "\n".join(_strings(answer.json()))


def _shown(page) -> dict:
    """What the page's solutions section shows: each stage's reference code, and the model answers."""
    return {"references": {heading.get_attribute("id").removeprefix("reference-"):
                           heading.evaluate("h => h.nextElementSibling.innerText")
                           for heading in page.locator("#solutions h3[id^=reference-]").all()},
            "answers": [answer.inner_text() for answer in page.locator("#solutions .model-answer").all()]}


def test_the_solutions_appear_once_the_assignment_is_closed_and_not_before(service, browser):
    token = _token(service, "lin")
    submitted = service.api_submit(token, A01, notebook_bytes("ben_partial", A01, run="answers"))
    status = service.wait_graded(token, submitted.json()["id"])
    lost = {stage["stage"] for stage in status["stages"] if stage["points"] < stage["max_points"]}
    assert lost
    assert len(lost) < len(status["stages"])  # some stages lost points, some did not
    feedback = f"{service.url}/submissions/{status['id']}/feedback"
    references = answers_of(A01, "en").references
    now = datetime.now(timezone.utc)
    due, closes = _minute(now + timedelta(days=2)), _minute(now + timedelta(days=3))
    _policy(service, due, closes)
    try:
        # An instructor sees them at any time, with when students will.
        teacher = _signed_in_page(browser, service, "prof", instructor=True)
        teacher.goto(feedback)
        early = _shown(teacher)
        assert set(early["references"]) == lost
        assert all(early["references"][stage] == references[stage] for stage in lost)
        assert len(early["answers"]) == 4
        assert all(text.startswith("Answer.") for text in early["answers"])
        assert shown_moment(closes, timezone.utc) in teacher.inner_text("#solutions-early")
        teacher.goto(f"{service.url}/instructor/policies/{A01}")
        assert f"from {shown_moment(closes, timezone.utc)}, when no one" in teacher.inner_text("#solutions-from")
        revealing = [*early["references"].values(), *early["answers"]]

        # The student, before the assignment closes: neither, and when they will appear.
        student = _signed_in_page(browser, service, "lin")
        student.goto(feedback)
        later = student.inner_text("#solutions-later")
        assert f"When the assignment closes, on {shown_moment(closes, timezone.utc)}, this page will also show" in later
        assert _shown(student) == {"references": {}, "answers": []}
        before = "\n".join((student.content(), student.inner_text("body"), _api(service, token, f"/{status['id']}"),
                            _api(service, token, "")))
        assert not [text for text in revealing if text in before]
        assert not [line for line in secret_lines() if line in before]

        # Past the due date, but late work is still taken with no hard deadline: still neither.
        _policy(service, _minute(now - timedelta(hours=1)), None)
        student.goto(feedback)
        assert "Your instructor has not set that time yet." in student.inner_text("#solutions-later")
        teacher.goto(f"{service.url}/instructor/policies/{A01}")
        assert "until this assignment closes: set a due date" in teacher.inner_text("#solutions-from")
        assert _shown(student) == {"references": {}, "answers": []}
        assert not [text for text in revealing if text in _api(service, token, f"/{status['id']}")]

        # Past the due date and the hard deadline: the reference of exactly the stages that lost
        # points, and the model answers; the API still carries neither.
        _policy(service, _minute(now - timedelta(hours=2)), _minute(now - timedelta(hours=1)))
        student.goto(feedback)
        assert student.locator("#solutions-later").count() == 0
        assert student.locator("#solutions-early").count() == 0
        assert _shown(student) == early
        assert set(_shown(student)["references"]) == lost
        after = _api(service, token, f"/{status['id']}") + _api(service, token, "")
        assert not [text for text in revealing if text in after]
        # Their formulas are drawn (MathML), never shown as LaTeX source.
        formulas = sum(question.answer.count("$") // 2 for question in answers_of(A01, "en").questions)
        assert formulas
        assert student.locator("#solutions .model-answer math").count() == formulas
        assert not [text for text in _shown(student)["answers"] if "$" in text or "\\" in text]

        # Past the due date, and the assignment takes no more submissions: closed too.
        _policy(service, _minute(now - timedelta(hours=1)), None, accepting=False)
        student.goto(feedback)
        assert _shown(student) == early
    finally:
        _policy(service, None, None)


def test_a_chinese_notebook_gets_its_answers_in_chinese_and_full_marks_get_no_reference(service, browser):
    token = _token(service, "wen")
    chinese = service.wait_graded(token, service.api_submit(
        token, A01, notebook_bytes("ben_partial", A01, language="zh", run="answers-zh")).json()["id"])
    full = service.wait_graded(token, service.api_submit(
        token, A01, notebook_bytes("ada_full_marks", A01, run="answers-full")).json()["id"])
    assert full["score"] == 100
    page = _signed_in_page(browser, service, "wen")
    now = datetime.now(timezone.utc)
    closes = _minute(now + timedelta(days=1))
    _policy(service, _minute(now + timedelta(hours=1)), closes)
    try:
        page.goto(f"{service.url}/submissions/{chinese['id']}/feedback")
        assert page.inner_text("#solutions h2") == "参考答案"
        assert page.inner_text("#solutions-later").startswith(f"作业将于 {shown_moment(closes, timezone.utc)} 关闭")
        assert _shown(page) == {"references": {}, "answers": []}

        _policy(service, _minute(now - timedelta(hours=2)), _minute(now - timedelta(hours=1)))
        page.goto(f"{service.url}/submissions/{chinese['id']}/feedback")
        shown = _shown(page)
        lost = {stage["stage"] for stage in chinese["stages"] if stage["points"] < stage["max_points"]}
        assert set(shown["references"]) == lost
        assert len(shown["answers"]) == 4
        assert all(text.startswith("答案。") for text in shown["answers"])
        questions = page.locator("#solutions blockquote.question").all_inner_texts()
        assert questions[0].startswith("演示中还直接用分数除以它们的和")  # the question as the zh notebook asks it

        page.goto(f"{service.url}/submissions/{full['id']}/feedback")
        shown = _shown(page)
        assert shown["references"] == {}
        assert "You lost no points in any stage" in page.inner_text("#solutions")
        assert len(shown["answers"]) == 4
    finally:
        _policy(service, None, None)
