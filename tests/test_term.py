"""The term around grading, without grading: nbgrader's timestamps, due dates and penalties,
the adjustments file, and the command line's refusals (each says what to do, exit 2)."""

from __future__ import annotations

import os
import re
import zipfile
from datetime import datetime, timedelta

import pytest
from nbgrader.exchange.abc import Exchange
from nbgrader.utils import parse_utc

from autograder import cli
from autograder.grading.discovery import discover
from autograder.notebooks.variants import load_solution, load_student, with_answer, write_submission
from autograder.term.adjustments import AdjustmentsError, read_adjustments
from autograder.term.lateness import (
    UTC,
    DueDateError,
    check_late_penalty,
    days_late,
    late_penalty,
    parse_due_dates,
    parse_timestamp,
    read_timestamp,
)

ASSIGNMENT = "01_attention_scores"


def nbgrader_timestamp(timezone: str = "UTC", timestamp_format: str | None = None) -> str:
    """A timestamp written by nbgrader's own code, as `nbgrader submit` writes timestamp.txt."""
    exchange = Exchange(timezone=timezone, **({"timestamp_format": timestamp_format} if timestamp_format else {}))
    exchange.set_timestamp()
    return exchange.timestamp


@pytest.mark.parametrize(("timezone", "timestamp_format"), [
    ("UTC", "%Y-%m-%d %H:%M:%S.%f %Z"),  # nbgrader's default: 2025-03-01 12:00:00.123456 UTC
    ("Europe/Lisbon", "%Y-%m-%d %H:%M:%S.%f %z"),  # a numeric offset
    ("America/Sao_Paulo", "%Y-%m-%d %H:%M:%S %z"),
    ("Asia/Shanghai", "%Y-%m-%dT%H:%M:%S%z"),  # ISO-8601 in one piece
])
def test_nbgrader_timestamps_are_read_as_the_moment_they_name(timezone, timestamp_format):
    text = nbgrader_timestamp(timezone, timestamp_format)
    written = datetime.strptime(text, timestamp_format)  # the format that wrote it reads it back
    assert parse_timestamp(text) == (written if written.tzinfo else written.replace(tzinfo=UTC)).astimezone(UTC)


def test_nbgrader_default_timestamps_agree_with_nbgrader():
    text = nbgrader_timestamp()
    assert parse_timestamp(text) == parse_utc(text).replace(tzinfo=UTC)
    # nbgrader's own parse_utc reads "-0300" as minus 300 seconds; the moment is three hours on
    assert parse_timestamp("2025-03-01 04:49:43 -0300") == datetime(2025, 3, 1, 7, 49, 43, tzinfo=UTC)


def test_zip_collect_timestamps_without_offset_are_utc():
    # zip_collect writes datetime.isoformat(" ") of nbgrader's naive UTC times
    assert parse_timestamp("2025-03-01 12:00:00") == datetime(2025, 3, 1, 12, tzinfo=UTC)
    assert parse_timestamp("2025-03-01 12:00:00.250000\n") == datetime(2025, 3, 1, 12, 0, 0, 250000, tzinfo=UTC)


def test_zone_names_come_from_the_tz_database():
    assert parse_timestamp("2025-01-10 08:00:00.000000 EST") == datetime(2025, 1, 10, 13, tzinfo=UTC)
    assert parse_timestamp("2025-07-10 08:00:00 Europe/Lisbon") == datetime(2025, 7, 10, 7, tzinfo=UTC)
    for ambiguous in ("2025-07-10 08:00:00 EDT", "2025-07-10 08:00:00 CEST", "yesterday", "", "1 2 3 4"):
        with pytest.raises(ValueError):  # noqa: PT011 - every unreadable time is a ValueError
            parse_timestamp(ambiguous)


def test_read_timestamp_says_why_there_is_no_time(tmp_path):
    assert read_timestamp(tmp_path).problem == "missing"
    (tmp_path / "timestamp.txt").write_text("not a time")
    assert read_timestamp(tmp_path).problem == "unparsable"
    (tmp_path / "timestamp.txt").write_text("2025-03-01 12:00:00.000000 UTC" + " " * 1000)
    assert read_timestamp(tmp_path).problem == "unparsable"  # longer than any timestamp nbgrader writes
    (tmp_path / "timestamp.txt").write_text(nbgrader_timestamp())
    assert read_timestamp(tmp_path).moment is not None


def test_read_timestamp_follows_no_link_and_opens_no_pipe(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("2025-03-01 12:00:00 UTC")
    linked, piped = tmp_path / "linked", tmp_path / "piped"
    linked.mkdir()
    piped.mkdir()
    (linked / "timestamp.txt").symlink_to(secret)
    os.mkfifo(piped / "timestamp.txt")  # opening it for reading without O_NONBLOCK would hang
    assert read_timestamp(linked) == read_timestamp(piped) == read_timestamp(piped)
    assert read_timestamp(linked).problem == "unreadable"


def test_days_late_count_every_started_day():
    due = datetime(2025, 3, 1, 23, 59, tzinfo=UTC)
    assert days_late(due, due) == 0
    assert days_late(due - timedelta(hours=5), due) == 0
    assert days_late(due + timedelta(seconds=1), due) == 1
    assert days_late(due + timedelta(days=1), due) == 1
    assert days_late(due + timedelta(days=1, seconds=1), due) == 2
    assert late_penalty(2, 10, 100) == 20
    assert late_penalty(3, 12.5, 80) == 30
    assert late_penalty(20, 10, 100) == 100  # never more than the maximum


def test_due_dates_need_an_assignment_and_an_offset():
    due = parse_due_dates([f"{ASSIGNMENT}=2025-03-01T23:59+01:00", "02_self_attention=2025-03-08T22:59Z"])
    assert due[ASSIGNMENT] == datetime(2025, 3, 1, 22, 59, tzinfo=UTC)
    assert due["02_self_attention"].isoformat() == "2025-03-08T22:59:00+00:00"
    for values, expected in [
        ([f"{ASSIGNMENT}=2025-03-01T23:59"], "with its offset from UTC"),
        (["01_attention=2025-03-01T23:59Z"], "ASSIGNMENT one of 01_attention_scores"),
        (["2025-03-01T23:59Z"], "--due takes ASSIGNMENT=TIME"),
        ([f"{ASSIGNMENT}=next friday"], "ISO-8601"),
        ([f"{ASSIGNMENT}=2025-03-01T23:59Z", f"{ASSIGNMENT}=2025-03-02T23:59Z"], "twice"),
    ]:
        with pytest.raises(DueDateError, match=expected):
            parse_due_dates(values)
    with pytest.raises(DueDateError, match="needs a due date"):
        check_late_penalty(10, {})
    with pytest.raises(DueDateError, match="from 0 to 100"):
        check_late_penalty(150, due)


def _adjustments(tmp_path, text: str, students=("ada", "ben")):
    path = tmp_path / "adjustments.csv"
    path.write_text(text, encoding="utf-8")
    return read_adjustments(path, set(students))


def test_adjustments_are_read_with_their_reasons(tmp_path):
    found = _adjustments(tmp_path, "\ufeffstudent_id,assignment_id,points,reason,grader\n"
                                   f"ada,{ASSIGNMENT},2.5,\"Regrade: softmax_naive, dim=-1 is right\",TA1\n"
                                   f"ada,{ASSIGNMENT},-1,Copied the demo output,TA2\n"
                                   "ben,02_self_attention,+4,Extension granted late,TA1\n")
    assert [(a.points, a.reason) for a in found[("ada", ASSIGNMENT)]] == [
        (2.5, "Regrade: softmax_naive, dim=-1 is right"), (-1.0, "Copied the demo output")]
    assert found[("ben", "02_self_attention")][0].points == 4


@pytest.mark.parametrize(("text", "expected"), [
    ("student_id,assignment_id,points\n", r"lacks the column\(s\) reason"),
    (f"student_id,assignment_id,points,reason\nada,{ASSIGNMENT},1,ok\ncy,{ASSIGNMENT},1,ok\n",
     "line 3: no student 'cy' in this class"),
    ("student_id,assignment_id,points,reason\nada,05_transformers,1,ok\n", "line 2: no assignment '05_transformers'"),
    (f"student_id,assignment_id,points,reason\n\"ada\",{ASSIGNMENT},1,\"two\nlines\"\nben,{ASSIGNMENT},two,ok\n",
     "line 4: points must be a number"),
    (f"student_id,assignment_id,points,reason\nada,{ASSIGNMENT},inf,ok\n", "line 2: points must be a number"),
    (f"student_id,assignment_id,points,reason\nada,{ASSIGNMENT},1,  \n", "line 2: the reason is empty"),
])
def test_a_bad_adjustment_is_refused_with_its_line(tmp_path, text, expected):
    with pytest.raises(AdjustmentsError, match=expected):
        _adjustments(tmp_path, text)


def _class(tmp_path):
    submitted = tmp_path / "submitted"
    write_submission(submitted, "ada", ASSIGNMENT, load_student(ASSIGNMENT))
    return submitted


def _refused(capsys, *argv: str) -> str:
    """Run the command, which must refuse (exit 2) before grading; returns what it said."""
    assert cli.main(list(argv)) == 2
    return capsys.readouterr().out


def test_grade_refuses_an_out_that_is_a_file(tmp_path, capsys):
    submitted = _class(tmp_path)
    (tmp_path / "grades").write_text("a file")
    said = _refused(capsys, "grade", str(submitted), "--out", str(tmp_path / "grades"))
    assert "is a file; name a folder" in said
    assert (tmp_path / "grades").read_text() == "a file"


def test_grade_refuses_an_out_inside_the_submissions(tmp_path, capsys):
    submitted = _class(tmp_path)
    said = _refused(capsys, "grade", str(submitted), "--out", str(submitted / "out"))
    assert "inside the submissions folder" in said
    assert "--out" in said
    assert not (submitted / "out").exists()
    _refused(capsys, "grade", str(submitted), "--out", str(submitted))


def test_grade_refuses_an_out_whose_parent_does_not_exist(tmp_path, capsys):
    submitted = _class(tmp_path)
    said = _refused(capsys, "grade", str(submitted), "--out", str(tmp_path / "gradse" / "week1"))
    assert f"the folder {tmp_path / 'gradse'} does not exist" in said
    assert "mkdir -p" in said
    assert not (tmp_path / "gradse").exists()
    said = _refused(capsys, "grade", str(submitted), "--out", str(tmp_path / "out"), "--junit",
                    str(tmp_path / "reprots" / "junit.xml"))
    assert "--junit" in said
    assert not (tmp_path / "out").exists()
    said = _refused(capsys, "merge", str(tmp_path / "shard1"), "--out", str(tmp_path / "nowhere" / "grades"))
    assert "does not exist" in said


def test_grade_refuses_a_class_zip_and_says_how_to_sort_it(tmp_path, capsys):
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as download:
        download.writestr(f"ada_{ASSIGNMENT}.ipynb", "{}")
    for extra in ([], ["--assignment", ASSIGNMENT]):  # the hint once was --assignment, which graded "class"
        said = _refused(capsys, "grade", str(archive), "--out", str(tmp_path / "out"), *extra)
        assert "is a zip file" in said
        assert "nbgrader zip_collect" in said
    (tmp_path / "notes.txt").write_text("hello")
    assert "is not a notebook" in _refused(capsys, "grade", str(tmp_path / "notes.txt"), "--out",
                                           str(tmp_path / "out"), "--assignment", ASSIGNMENT)
    assert not (tmp_path / "out").exists()


def test_a_grading_output_inside_the_submissions_is_no_student(tmp_path):
    submitted = _class(tmp_path)
    earlier = submitted / "out"  # what an --out inside the submissions left, before it was refused
    (earlier / "results").mkdir(parents=True)
    (earlier / "feedback").mkdir()
    (earlier / "grades.csv").write_text("student_id\n")
    assert [entry.student_id for entry in discover(submitted)] == ["ada"]


@pytest.mark.parametrize(("extra", "expected"), [
    (["--due", f"{ASSIGNMENT}=2025-03-01"], "offset from UTC"),
    (["--late-penalty", "10"], "needs a due date"),
    (["--adjustments", "adjustments.csv"], "line 2: no student 'bob'"),
    (["--adjustments", "missing.csv"], "cannot be read"),
])
def test_grade_checks_the_term_options_before_grading(tmp_path, capsys, extra, expected):
    submitted = _class(tmp_path)
    (tmp_path / "adjustments.csv").write_text(f"student_id,assignment_id,points,reason\nbob,{ASSIGNMENT},1,why\n")
    extra = [str(tmp_path / value) if value.endswith(".csv") else value for value in extra]
    said = _refused(capsys, "grade", str(submitted), "--out", str(tmp_path / "out"), *extra)
    assert expected in said
    assert not (tmp_path / "out").exists()


def test_similarity_needs_a_grading_run(tmp_path, capsys):
    said = _refused(capsys, "similarity", str(tmp_path))
    assert "grades.csv does not exist" in said
    assert "python -m autograder grade" in said


def test_the_similarity_page_shows_code_as_text(tmp_path):
    """Two students' code, side by side on the instructor's page, can never become markup."""
    from autograder.feedback.similarity_page import similarity_html
    from autograder.term.similarity import AssignmentSimilarity, own_code_answers, similar_pairs, starter_fingerprints

    body = ("def softmax_naive(x, dim=-1):\n    note = '</pre><script>alert(1)</script>'\n"
            "    exps = torch.exp(x - x.max(dim=dim, keepdim=True).values)\n"
            "    return exps / exps.sum(dim=dim, keepdim=True)  # <b>bold</b>\n")
    answers = own_code_answers({"ada": body, "ben": body.replace("exps", "e")}, starter_fingerprints(ASSIGNMENT))
    [pair] = similar_pairs(ASSIGNMENT, answers)
    assert (pair.first, pair.second) == ("ada", "ben")
    assert pair.similarity > 0.9  # a renamed variable hides nothing
    page = similarity_html([AssignmentSimilarity(ASSIGNMENT, 2, 2, [pair], [])])
    assert "<script>" not in page
    assert "<b>" not in page
    assert "&lt;script&gt;" in page
    assert "<mark>" in page


def test_an_answer_to_03_holding_the_head_given_in_04_is_listed(tmp_path):
    """Notebook 04 gives a working CausalAttention, notebook 03's last answer: a disguised copy
    handed in for 03 is listed beside the given code, and no correct head in another style is."""
    from meta_class import ALTERNATIVES, alternative_notebook

    from autograder.feedback.similarity_page import similarity_html
    from autograder.term.answers import answer_path, graded_code
    from autograder.term.similarity import class_similarity, given_elsewhere

    causal = "03_causal_attention"
    given = given_elsewhere(causal)
    assert list(given) == ["04_multi_head_attention"]
    disguised = re.sub(r'""".*?"""\n', "", given["04_multi_head_attention"], flags=re.S)  # no docstring
    for name, renamed in (("W_query", "q_proj"), ("W_key", "k_proj"), ("W_value", "v_proj"), ("position", "idx"),
                          ("visible", "allowed")):
        disguised = disguised.replace(name, renamed)
    notebooks = {"solution": load_solution(causal),
                 "copier": with_answer(load_solution(causal), "CausalAttention", disguised)}
    notebooks |= {path.stem: alternative_notebook(path)[1] for path in ALTERNATIVES if path.name.startswith("03_")}
    for student, notebook in notebooks.items():
        code = graded_code(write_submission(tmp_path / "class", student, causal, notebook), causal)
        answer_path(tmp_path, student, causal).parent.mkdir(parents=True)
        answer_path(tmp_path, student, causal).write_text(code)
    [similarity] = class_similarity(tmp_path, pairs_per_assignment=3)
    assert [(found.student_id, found.given_in) for found in similarity.given_code] == [
        ("copier", "04_multi_head_attention")]
    assert similarity.given_code[0].given_share > 0.9
    page = similarity_html([similarity])
    assert "Answers holding code given in another notebook" in page
    assert "<code>copier</code> holds 100 % of the code" in page
