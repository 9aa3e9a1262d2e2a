"""The service's class report in a real browser (Debian's Chromium, driven by Playwright): two
students submit through the page, one with an answer under a "Think about it" question (with
HTML in it), one with every answer cell left as it was; the instructor opens the report and reads
the answer, as text, under its question."""

from __future__ import annotations

import re

import pytest
from service_harness import LiveService, follow

from autograder.notebooks.variants import filled, load_solution, load_student, with_think_answer, write_submission
from autograder.student import think_about_it
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

pytestmark = [pytest.mark.live, pytest.mark.browser]

A01 = "01_attention_scores"
HOSTILE = '<img src=x onerror="window.pwned = 1"> <script>window.pwned = 2</script> & <b>not bold</b>'


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _signed_in_page(browser, link: str):
    page = browser.new_context().new_page()
    page.goto(link)
    follow(page, "#signin")
    return page


def test_the_class_report_lists_each_think_about_it_answer_as_text(service, browser, tmp_path):
    complete = filled(load_student(A01), load_solution(A01), STAGES_BY_ASSIGNMENT[A01])
    notebooks = {"ana": with_think_answer(complete, "exp_not_division", f"Negative scores!\n{HOSTILE}"),
                 "bo": load_student(A01)}
    for student, notebook in notebooks.items():
        path = write_submission(tmp_path, student, A01, notebook)
        page = _signed_in_page(browser, service.link_for(student))
        page.goto(f"{service.url}/assignments/{A01}")
        page.set_input_files("#notebook", str(path))
        page.click("#submit")
        page.wait_for_selector("#score", timeout=120_000)  # the queue page refreshes itself until graded
        page.context.close()

    page = _signed_in_page(browser, service.link_for("teacher", instructor=True))
    page.goto(f"{service.url}/instructor/report")
    question = page.locator("#think-exp_not_division")
    summary = " ".join(question.locator("summary").inner_text().split())
    title = think_about_it.QUESTIONS["exp_not_division"].title
    assert summary == f"{title} {A01}: answered by 1 of 2 graded submissions"
    assert not question.locator("td.answer").is_visible()  # folded until the instructor opens it
    question.locator("summary").click()
    assert question.locator("tr").all_inner_texts()[1:] == [f"ana\tNegative scores!\n{HOSTILE}"]
    assert question.locator("td.answer *").count() == 0  # no element made of the student's text
    assert page.evaluate("window.pwned") is None
    other = page.locator("#think-word_order")
    assert re.search(r"answered by 0 of 2 graded submissions$", " ".join(other.locator("summary").inner_text().split()))
    assert other.locator("td.answer").count() == 0
    assert page.locator("details td:first-child").all_inner_texts() == ["ana"]  # bo's placeholders are no answers
