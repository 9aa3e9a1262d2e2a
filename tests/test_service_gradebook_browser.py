"""The class page in a real browser (Debian's Chromium, driven by Playwright), over a live service
whose class is seeded as the grading worker stores it (``tools.seed_class``): an instructor sorts,
filters and pages the matrix by its links and form alone (the pages run no script), and reads each
assignment's histogram and failed stages, which agree with the matrix."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright import sync_api as playwright
from service_harness import CHROMIUM, CHROMIUM_ARGS, LiveService, follow

from autograder.course.rubric import max_score
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import ASSIGNMENTS

pytestmark = [pytest.mark.live, pytest.mark.browser]

STUDENTS = 120


@pytest.fixture(scope="module")
def service():
    live = LiveService(workers=0).start(wait_for_worker=False)
    subprocess.run([sys.executable, "-m", "tools.seed_class", "--students", str(STUDENTS), "--prefix", "pw"],
                   cwd=KIT_ROOT, env=live.env, check=True, timeout=300)
    yield live
    live.close()


@pytest.fixture
def page(service):
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page()
        page.goto(service.link_for("pw-teacher", instructor=True))
        page.click("#signin")
        page.wait_for_url(re.compile(r"/instructor/$"))
        yield page
        chromium.close()


def _students(page) -> list[str]:
    return page.locator("#class tbody th a").all_inner_texts()


def _totals(page) -> list[float]:
    return [float(text) for text in page.locator("#class tbody td:last-child").all_inner_texts()]


def test_an_instructor_sorts_filters_and_pages_the_class(service, page):
    page.goto(f"{service.url}/instructor/class")
    assert _students(page) == [f"pw{index:04d}" for index in range(50)]  # by name, a page of 50
    assert page.get_attribute("#class thead th:first-child", "aria-sort") == "ascending"
    assert "Page 1 of 3" in page.inner_text("#class-page-note")

    arrow = "window.getComputedStyle(document.querySelector('#class thead th:%s a'), '::after').content"
    assert page.evaluate(arrow % "first-child") == '" ▲"'  # the sorted column shows its way
    assert page.evaluate(arrow % "last-child") == '" ↕"'
    follow(page, "#class thead th:last-child a")  # Total: highest first, then lowest first
    assert page.get_attribute("#class thead th:last-child", "aria-sort") == "descending"
    assert page.evaluate(arrow % "last-child") == '" ▼"'
    follow(page, "#class thead th:last-child a")
    assert page.get_attribute("#class thead th:last-child", "aria-sort") == "ascending"
    follow(page, "#class thead th:last-child a")
    assert page.get_attribute("#class thead th:last-child", "aria-sort") == "descending"
    first = _totals(page)
    assert first == sorted(first, reverse=True)
    follow(page, "#class-pages a[rel=next]")
    second = _totals(page)
    assert second == sorted(second, reverse=True)
    assert max(second) <= min(first)
    assert page.get_attribute("#class thead th:last-child", "aria-sort") == "descending"  # kept while paging

    column = page.locator("#class thead th", has_text=ASSIGNMENTS[1])
    follow(page, column.locator("a"))
    scores = [float(text.split()[0]) for text in page.locator("#class tbody td:nth-child(3)").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)
    button = page.locator("#class-filter button").bounding_box()
    field = page.locator("#class-filter input[name=q]").bounding_box()
    assert button["width"] < 200  # no longer a pill across the page
    assert abs(button["y"] + button["height"] - field["y"] - field["height"]) < 2  # on the field's row

    page.fill("#class-filter input[name=q]", "PW011")  # any case; the sort stays
    follow(page, "#class-filter button")
    assert sorted(_students(page)) == [f"pw{index:04d}" for index in range(110, 120)]
    assert f"10 of {STUDENTS} students match “PW011”." in page.inner_text("#class-page-note")
    assert page.get_attribute("#class thead th:nth-child(3)", "aria-sort") == "descending"
    assert page.locator("#class-pages a").count() == 0

    page.fill("#class-filter input[name=q]", "nobody")
    follow(page, "#class-filter button")
    assert "No student matches" in page.inner_text("#class tbody")
    follow(page, "#clear-search")
    assert len(_students(page)) == 50
    assert page.locator("#clear-search").count() == 0
    assert page.input_value("#class-filter input[name=q]") == ""

    page.goto(f"{service.url}/instructor/class?q=pw0003")
    follow(page, "#class tbody th a")
    assert page.url.endswith("/instructor/students/pw0003")
    assert page.locator("#submissions strong", has_text="counts").count() == len(ASSIGNMENTS)
    follow(page, "#back-to-class")
    assert page.url.endswith("/instructor/class")


def test_the_histograms_and_failed_stages_agree_with_the_matrix(service, page):
    page.goto(f"{service.url}/instructor/class?sort=name")
    for number, assignment in enumerate(ASSIGNMENTS):
        histogram = page.locator(f"#histogram-{assignment}")
        counts = [int(count) for count in histogram.locator("g.bar").evaluate_all(
            "bars => bars.map(bar => bar.dataset.count)")]
        never = STUDENTS // 10 if number == len(ASSIGNMENTS) - 1 else 0  # one in ten never submits the last
        graded = STUDENTS - never
        assert sum(counts) == graded
        assert len(counts) == 10
        assert histogram.locator("svg").get_attribute("role") == "img"
        assert f"of the {graded} whose counted submission was graded; students without a graded submission are" \
               " left out." in histogram.locator("desc").text_content()
        assert [int(text) for text in histogram.locator("g.bar text.count").all_text_contents()] == counts
        assert histogram.locator("text.tick").all_text_contents() == ["0 %", "50 %", "100 %"]
        stages = page.locator(f"#stages-{assignment} g.bar")
        failing = [int(count) for count in stages.evaluate_all("bars => bars.map(bar => bar.dataset.count)")]
        assert failing == sorted(failing, reverse=True)
        assert 0 < failing[0] <= graded
        assert stages.locator("text.label").all_text_contents() == stages.evaluate_all(
            "bars => bars.map(bar => bar.dataset.label)")  # each stage's name whole
        for figure in (histogram, page.locator(f"#stages-{assignment}")):  # and every word inside its chart
            outside = figure.locator("svg").evaluate(
                "svg => [...svg.querySelectorAll('text')].filter(text => { const box = text.getBBox();"
                " return box.x < -0.5 || box.y < -0.5 || box.x + box.width > svg.viewBox.baseVal.width + 0.5"
                " || box.y + box.height > svg.viewBox.baseVal.height + 4; }).map(text => text.textContent)")
            assert outside == [], outside
    # the highest band of the first assignment counts the matrix's scores of 90 % or more, page by page
    page.goto(f"{service.url}/instructor/class?sort={ASSIGNMENTS[0]}&order=desc")
    top, maximum = 0, max_score(ASSIGNMENTS[0])
    while True:
        scores = [float(text.split()[0]) for text in page.locator("#class tbody td:nth-child(2)").all_inner_texts()]
        top += sum(1 for score in scores if score >= 0.9 * maximum)
        if page.locator("#class-pages a[rel=next]").count() == 0:
            break
        follow(page, "#class-pages a[rel=next]")
    assert top == int(page.locator(f"#histogram-{ASSIGNMENTS[0]} g.bar").last.get_attribute("data-count"))
