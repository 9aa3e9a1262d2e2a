"""The service's pages in a real browser (Debian's Chromium, driven by Playwright): a student
signs in, submits a correct and a wrong notebook and reads both feedback pages, in English and
in Chinese; an instructor changes a policy and downloads grades.csv.

The pages' screenshots illustrate the documentation: with ``KIT_DOCS_SCREENSHOTS=<folder>`` (``make
docs-screenshots`` sets it to ``docs/img``) each is also written there."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from service_harness import LiveService, follow, notebook_bytes

pytestmark = [pytest.mark.live, pytest.mark.browser]

A01 = "01_attention_scores"
DOCS_SCREENSHOTS = "KIT_DOCS_SCREENSHOTS"
# Narrow enough for a documentation page, and a bound on a long page's height, to keep the PNGs small.
SCREENSHOT_VIEWPORT = {"width": 1000, "height": 720}
SCREENSHOT_MAX_HEIGHT = 1000


def screenshot(page, name: str, tmp_path: Path | None = None, for_docs: bool = True) -> None:
    """The page, 1000 pixels wide, as ``<name>.png`` beside the test's files and, when
    KIT_DOCS_SCREENSHOTS names a folder (and ``for_docs``), in that folder for the documentation."""
    page.set_viewport_size(SCREENSHOT_VIEWPORT)
    height = min(page.evaluate("document.documentElement.scrollHeight"), SCREENSHOT_MAX_HEIGHT)
    area = {"x": 0, "y": 0, "width": SCREENSHOT_VIEWPORT["width"], "height": height}
    folders = [tmp_path, os.environ.get(DOCS_SCREENSHOTS) if for_docs else None]
    for folder in filter(None, folders):
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True, clip=area)


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _sign_in(page, link: str) -> None:
    page.goto(link)
    page.click("#signin")
    page.wait_for_url(re.compile(r"/(instructor/)?$"))


def _submit(page, service, path, assignment: str = A01) -> str:
    page.goto(f"{service.url}/assignments/{assignment}")
    page.set_input_files("#notebook", str(path))
    page.click("#submit")
    page.wait_for_selector("#score", timeout=60_000)  # the queue page refreshes itself until graded
    return page.inner_text("#score")


def test_a_student_signs_in_submits_and_reads_feedback_in_english_and_chinese(service, browser, tmp_path):
    page = browser.new_page()
    _sign_in(page, service.link_for("mei"))
    assert "Your assignments" in page.inner_text("h1")
    correct, wrong, chinese = tmp_path / "correct.ipynb", tmp_path / "wrong.ipynb", tmp_path / "zh.ipynb"
    correct.write_bytes(notebook_bytes("ada_full_marks", A01))
    wrong.write_bytes(notebook_bytes("ben_partial", A01))
    chinese.write_bytes(notebook_bytes("ben_partial", A01, language="zh", run="zh"))

    assert _submit(page, service, correct) == "Score: 100 of 100"
    follow(page, "#feedback")
    assert "01_attention_scores: feedback for mei" in page.inner_text("h1")
    assert "Not yet right" not in page.content()
    screenshot(page, "service-feedback-correct", tmp_path)

    score = _submit(page, service, wrong)
    assert score.startswith("Score: ")
    assert score != "Score: 100 of 100"
    follow(page, "#feedback")
    assert "Not yet right" in page.content()
    screenshot(page, "service-feedback-wrong", tmp_path)

    page.goto(f"{service.url}/assignments/{A01}?lang=zh")
    assert page.inner_text("h2") == "提交你的笔记本"
    assert _submit(page, service, chinese).startswith("分数：")
    follow(page, "#feedback")
    assert "给 mei 的反馈" in page.inner_text("h1")
    assert "还不正确" in page.content()  # "Not yet right", in the notebook's language
    # Debian's Chromium here has no Chinese font: the page is right, its picture is not worth showing.
    screenshot(page, "service-feedback-zh", tmp_path, for_docs=False)

    page.goto(f"{service.url}/assignments/{A01}?lang=en")
    rows = page.locator("#history tbody tr")
    assert rows.count() == 3
    assert "counts" in rows.first.inner_text()
    bad = tmp_path / "notes.txt"
    bad.write_text("not a notebook")
    page.set_input_files("#notebook", str(bad))
    page.click("#submit")
    assert "nothing was stored" in page.inner_text("#refusal")
    assert page.locator("#history tbody tr").count() == 3
    screenshot(page, "service-assignment-refusal", tmp_path)


def test_an_instructor_changes_a_policy_and_downloads_grades_csv(service, browser, tmp_path):
    student = browser.new_page()
    _sign_in(student, service.link_for("noor"))
    notebook = tmp_path / "n.ipynb"
    notebook.write_bytes(notebook_bytes("ben_partial", "02_self_attention"))
    _submit(student, service, notebook, "02_self_attention")

    page = browser.new_page()
    _sign_in(page, service.link_for("teacher", instructor=True))
    assert "guarantees proved" in page.inner_text("#workers")
    follow(page, "a[href='/instructor/policies/02_self_attention']")
    page.fill("#due_at", "2099-01-31T23:59+00:00")
    page.select_option("#visibility", "score")
    page.fill("#late_penalty_percent", "5")
    screenshot(page, "service-policy", tmp_path)
    page.click("#save-policy")
    page.wait_for_url(re.compile(r"/instructor/\?saved=02_self_attention$"))
    assert page.inner_text("#policy-saved").startswith("Policy of 02_self_attention saved: due 2099-01-31 23:59")
    row = page.locator("#policies tr", has_text="02_self_attention").inner_text()
    assert "2099-01-31" in row
    assert "the score only" in row
    assert "5.0 %" in row

    with page.expect_download() as download:
        page.click("#grades-csv")
    grades = download.value.path().read_text()
    assert grades.splitlines()[0] == "student_id,assignment_id,score,max_score,status,submitted_at,late_penalty"
    assert re.search(r"^noor,02_self_attention,[\d.]+,100,graded,\d{4}-", grades, re.M)
    screenshot(page, "service-instructor", tmp_path)

    student.reload()
    assert student.locator("#score-only").count() == 1  # the new policy holds at once
