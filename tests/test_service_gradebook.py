"""The instructor's class page (a matrix of students by assignments) and a student's page, on the
service's real database in this process: the class page's queries are bounded whatever the class's
size, its rows are grades.csv's, and a student's page marks the submission that counts."""

from __future__ import annotations

import csv
import io
import itertools
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
    assert max(after.values()) <= 35  # the session, the user, the fingerprint, the rows', a policy and maximum each,
    # the done gradings and the maxima kept (to tell what changed later)
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
    assert re.search(r"120 of \d+ students match “mx”\. Page 3 of 3\.", last)
    assert '<a href="?sort=total&amp;order=desc" id="clear-search">' in last
    whole = client.get("/instructor/class?sort=total&order=desc").content.decode()
    assert re.search(r"Students in the class: \d+\.", whole)  # no search: no count of matches, no clear link
    assert "clear-search" not in whole
    assert f"sort={A01}&amp;order=desc" in whole  # an unsorted score column sorts highest first
    assert "sort=name&amp;order=asc" in whole  # names A to Z
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
    assert re.search(r"\d+ 名学生中有 1 名匹配“mx0001”。", chinese)
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


_CLASSES = itertools.count()  # the tests share one database: each seeds a class of its own


@pytest.fixture
def followed(service_data, monkeypatch):
    """A seeded class whose matrix this process keeps, and the students each ``class_rows`` call
    was restricted to since (None: every student, a full build)."""
    from autograder.service import gradebook

    ids = seed_class(40, prefix=f"inc{next(_CLASSES)}-", seed=4)
    client = _instructor()
    client.get("/instructor/class")
    client.get("/instructor/class")  # built again after the first made the assignments' default policies
    calls = []
    every_row = gradebook.class_rows

    def recorded(user_ids=None):
        calls.append(None if user_ids is None else set(user_ids))
        return every_row(user_ids)

    monkeypatch.setattr(gradebook, "class_rows", recorded)
    return client, ids, calls


def _follows(client, calls: list) -> list:
    """The page's matrix, kept after a change, equals one built from every row; returns the
    restrictions of the rows read for the page."""
    from autograder.service import matrix

    assert client.get("/instructor/class").status_code == 200
    read = list(calls)
    assert matrix._built["matrix"].matrix == matrix._build()
    calls.clear()
    return read


def _user(student: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=student)


def _submit(user, assignment: str, skill: float, state: str = "done", hours_ago: float = 0):
    from django.utils import timezone

    from autograder.service.models import Grading, Submission

    row = graded_row(user.username, assignment, skill, random.Random(7))
    when = timezone.now() - timedelta(hours=hours_ago)
    made = Submission.objects.create(user=user, assignment_id=assignment, received_at=when, sha256="s", size=2,
                                     filename=f"{assignment}.ipynb", notebook=b"{}")
    return Grading.objects.create(submission=made, state=state, queued_at=when, row=row.to_json() if state == "done"
                                  else None, tests_score=row.tests_score)


def test_the_kept_matrix_rebuilds_only_the_students_that_changed(followed):
    from django.utils import timezone

    from autograder.service import accounts
    from autograder.service.models import Adjustment, Grading, GradingState

    client, ids, calls = followed
    newcomer = accounts.person("inc-newcomer", name="Newcomer")
    _submit(newcomer, A01, 0.8)
    assert _follows(client, calls) == [{newcomer.id}]  # a new student's first submission
    assert any(row.student_id == "inc-newcomer" for row in _matrix_rows())

    waiting = _submit(_user(ids[1]), A02, 1.0, state="queued")
    assert _follows(client, calls) == [{_user(ids[1]).id}]  # uploaded, not graded yet
    row = graded_row(ids[1], A02, 1.0, random.Random(7))
    Grading.objects.filter(id=waiting.id).update(state=GradingState.DONE, row=row.to_json(),  # on a slow clock
                                                 finished_at=timezone.now() - timedelta(days=365))
    assert _follows(client, calls) == [{_user(ids[1]).id}]

    counted = Grading.objects.filter(submission__user__username=ids[2], submission__assignment_id=A02).first()
    regraded = graded_row(ids[2], A02, 0.0, random.Random(8))
    Grading.objects.create(submission=counted.submission, round=2, state=GradingState.DONE, queued_at=timezone.now(),
                           finished_at=timezone.now(), row=regraded.to_json(), tests_score=regraded.tests_score)
    assert _follows(client, calls) == [{_user(ids[2]).id}]  # a regrade finished

    Adjustment.objects.create(user=_user(ids[4]), assignment_id=A01, points=3, reason="fair", created_by="test")
    assert _follows(client, calls) == [{_user(ids[4]).id}]

    Grading.objects.create(submission=counted.submission, round=3, queued_at=timezone.now())
    assert _follows(client, calls) == []  # a regrade queued: no row changes


def _matrix_rows():
    from autograder.service import matrix

    return matrix._built["matrix"].matrix.rows


def test_the_kept_matrix_is_built_again_after_a_policy_change_or_a_merge(followed):
    from autograder.service import merging
    from autograder.service.policy import policy_for

    client, ids, calls = followed
    policy = policy_for(ASSIGNMENTS[2])
    policy.late_penalty_percent, policy.due_at = 50, policy_for(A01).due_at
    policy.save()
    try:
        assert _follows(client, calls) == [None]
    finally:
        policy.late_penalty_percent, policy.due_at = 0, None
        policy.save()
    assert _follows(client, calls) == [None]
    merging.merge(ids[5], ids[6])  # the submissions move: their counts and ids stay
    assert _follows(client, calls) == [None]
    assert ids[5] not in {row.student_id for row in _matrix_rows()}
