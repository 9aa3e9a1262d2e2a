"""The instructor's class page (a matrix of students by assignments) and a student's page, on the
service's real database in this process: the class page's queries are bounded whatever the class's
size, its rows are grades.csv's, and a student's page marks the submission that counts."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import timedelta

import pytest

from autograder.student.curriculum import ASSIGNMENTS
from tools.seed_class import graded_row, seed_class

HOST = "localhost"
A01, A02 = ASSIGNMENTS[0], ASSIGNMENTS[1]


def _instructor():
    from django.test import Client

    from autograder.service import accounts

    client = Client(HTTP_HOST=HOST)
    client.force_login(accounts.person("gradebook-teacher", instructor=True))
    return client


def _queries(client, path: str, built: bool = True) -> int:
    """The queries of one page; ``built``: with the matrix built afresh (not kept from before)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from autograder.service import matrix

    if built:
        matrix._built.clear()
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path)
    assert answer.status_code == 200, answer.content[-500:]
    return len(queries)


PAGES = ("/instructor/class", "/instructor/class?sort=total&order=desc", f"/instructor/class?sort={A01}&page=2",
         "/instructor/class?q=name+0003")


def test_the_class_page_takes_as_many_queries_for_a_larger_class(service_data):
    client = _instructor()
    seed_class(30, prefix="small")
    client.get(PAGES[0])  # the first request makes the assignments' default policies
    before = {path: _queries(client, path) for path in PAGES}
    seed_class(90, prefix="large", seed=1)
    after = {path: _queries(client, path) for path in PAGES}
    assert after == before
    assert max(after.values()) <= 30  # the session, the user, the fingerprint, the rows', a policy and maximum each
    kept = _queries(client, PAGES[1], built=False)  # nothing changed: the matrix is kept
    assert kept < after[PAGES[1]] - 5


def _reference_csv() -> str:
    """grades.csv computed row by row, as the service did before the class page needed it fast."""
    from django.contrib.auth import get_user_model

    from autograder.records.files import csv_safe
    from autograder.records.results import CSV_COLUMNS
    from autograder.service.models import Submission
    from autograder.service.policy import adjustments_of, counted, max_score, missing_row, policy_for, scored

    submissions = list(Submission.objects.all())
    students = sorted({s.user.username for s in submissions})
    assignments = [a for a in ASSIGNMENTS if any(s.assignment_id == a for s in submissions)]
    lines = []
    for student in students:
        user = get_user_model().objects.get(username=student)
        for assignment in assignments:
            policy = policy_for(assignment)
            mine = [scored(s, policy, adjustments_of(user, assignment)) for s in submissions
                    if s.user_id == user.id and s.assignment_id == assignment]
            best = counted(mine, policy)
            row = best.row if best else missing_row(student, assignment, max_score(assignment))
            fields = row.csv_fields()
            fields[4] = best.status_text if best else row.status.text()
            lines.append([csv_safe(field) for field in fields])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows([CSV_COLUMNS, *lines])
    return buffer.getvalue()


def test_grades_csv_is_the_same_file_row_by_row(service_data):
    seed_class(40, prefix="csv", seed=2)
    answer = _instructor().get("/instructor/grades.csv")
    assert answer.content.decode() == _reference_csv()
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert any(row[4] == "missing" for row in rows)  # the seeded class has every kind of row
    assert any(float(row[6] or 0) > 0 for row in rows[1:])  # a late penalty


def _cells(html: str, student: str) -> list[str]:
    """The text of a student's row in the matrix: the student, each assignment, the total."""
    row = re.search(rf"<tr><th scope=\"row\"><a href=\"/instructor/students/{student}\">.*?</tr>", html, re.S).group(0)
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]


def test_the_matrix_sorts_filters_and_pages_on_the_server(service_data):
    ids = seed_class(120, prefix="mx", seed=3)
    client = _instructor()
    found = client.get("/instructor/class?q=MX0007").content.decode()  # any case, by id
    assert len(re.findall(r'<th scope="row">', found)) == 1
    assert _cells(found, "mx0007")[0] == "mx0007 (Name Mx0007)"
    by_name = client.get("/instructor/class?q=name mx001").content.decode()  # by name
    assert len(re.findall(r'<th scope="row">', by_name)) == 10
    ranked = client.get("/instructor/class?q=mx&sort=total&order=desc").content.decode()
    totals = [float(_cells(ranked, student)[-1]) for student in re.findall(r'<th scope="row"><a href="/instructor/'
                                                                           r'students/([^"]+)"', ranked)]
    assert totals == sorted(totals, reverse=True)
    assert len(totals) == 50
    assert 'aria-sort="descending"' in ranked
    assert "q=mx&amp;sort=total&amp;order=asc" in ranked
    last = client.get("/instructor/class?q=mx&sort=total&order=desc&page=3").content.decode()
    assert len(re.findall(r'<th scope="row">', last)) == 20
    assert 'rel="prev"' in last
    assert 'rel="next"' not in last
    assert "Page 3 of 3: 20 of the 120 students found" in last
    late = _cells(client.get(f"/instructor/class?q={ids[7]}").content.decode(), ids[7])
    assert "late (−" in late[1]  # the seeded late submission of the first assignment
    missing = _cells(client.get(f"/instructor/class?q={ids[9]}").content.decode(), ids[9])
    assert missing[-2] == "0 missing"
    adjusted = _cells(client.get(f"/instructor/class?q={ids[3]}").content.decode(), ids[3])
    assert all("adjusted (5)" in cell for cell in adjusted[1:-2])
    from autograder.service.models import Adjustment

    Adjustment.objects.create(user_id=Adjustment.objects.filter(user__username=ids[3]).first().user_id,
                              assignment_id=A01, points=-2, reason="late fix", created_by="test")
    changed = _cells(client.get(f"/instructor/class?q={ids[3]}").content.decode(), ids[3])
    assert "adjusted (3)" in changed[1]  # a kept matrix follows every change
    chinese = client.get("/instructor/class?q=mx0001&lang=zh").content.decode()
    assert "总分" in chinese
    assert "第 1 页" in chinese
    client.get("/instructor/class?lang=en")


def test_a_student_page_shows_each_score_the_one_that_counts_and_the_way_back(service_data):
    from django.utils import timezone

    from autograder.service import accounts
    from autograder.service.models import Grading, GradingState, Submission
    from autograder.service.policy import policy_for

    student = accounts.person("twice", name="Twice")
    assert policy_for(A02).counts == "latest"
    assert policy_for(A02).due_at is None  # the seeded class's due date is the first assignment's
    now = timezone.now()
    for hours, skill in ((3, 0.0), (1, 1.0)):  # a failing first try, then a full one: the latest counts
        row = graded_row("twice", A02, skill, random.Random(0))
        made = Submission.objects.create(user=student, assignment_id=A02, received_at=now - timedelta(hours=hours),
                                         sha256=str(hours), size=2, filename=f"{A02}.ipynb", notebook=b"{}")
        Grading.objects.create(submission=made, state=GradingState.DONE, queued_at=now, row=row.to_json(),
                               tests_score=row.tests_score)
    Submission.objects.create(user=student, assignment_id=A02, received_at=now, sha256="w", size=2,
                              filename=f"{A02}.ipynb", notebook=b"{}")  # waiting to be graded
    html = _instructor().get("/instructor/students/twice").content.decode()
    assert '<a href="/instructor/class" id="back-to-class">Back to the class</a>' in html
    rows = re.findall(r"<tr( class=\"counts\")?><td><a href=\"/submissions/\d+\">\d+</a></td>(.*?)</tr>", html, re.S)
    texts = [(bool(counts), re.sub(r"<[^>]+>|\s+", " ", cells)) for counts, cells in rows]
    assert [counts for counts, _ in texts] == [False, True, False]  # newest first
    assert "not graded yet" in texts[0][1]
    assert "100 / 100" in texts[1][1]
    assert " counts " in texts[1][1]
    assert "0 / 100" in texts[2][1]
    assert re.search(r"\(UTC[+-]\d\d:\d\d\)", texts[1][1])  # the course's time, with its offset


@pytest.mark.parametrize(("language", "back"), [("zh", "返回班级"), ("pt", "Voltar à turma")])
def test_the_student_page_speaks_the_readers_language(service_data, language, back):
    client = _instructor()
    html = client.get(f"/instructor/students/gradebook-teacher?lang={language}").content.decode()
    assert back in html
    client.get("/instructor/students/gradebook-teacher?lang=en")
