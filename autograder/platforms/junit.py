"""JUnit XML of a grading run, for CI systems (GitHub Actions test reporters, GitLab, Jenkins).

One ``<testsuite>`` per row of grades.csv (named ``<student_id>/<assignment_id>``, with the score
as properties), one ``<testcase>`` per hidden test (classname ``<assignment_id>.<stage>``). A
failed test is a ``<failure>``; student code that raised or ran out of time is an ``<error>``; a
notebook that could not be graded (missing, misnamed, unreadable) is one failing test case named
``submission`` whose message is the status.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections import Counter

from autograder.records.results import GradedRow, row_order

# Characters XML 1.0 cannot hold (control characters a student's exception text may carry).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_MESSAGE_ATTRIBUTE_LENGTH = 200


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _short(message: str) -> str:
    first = _clean(message).strip().splitlines()[0] if message.strip() else ""
    return first if len(first) <= _MESSAGE_ATTRIBUTE_LENGTH else first[:_MESSAGE_ATTRIBUTE_LENGTH - 3] + "..."


def _add_case(suite: ElementTree.Element, classname: str, name: str, status: str, message: str) -> str:
    """Append one test case; returns its JUnit outcome: passed, failure or error."""
    case = ElementTree.SubElement(suite, "testcase", classname=classname, name=_clean(name))
    if status == "passed":
        return "passed"
    outcome = "failure" if status not in ("error", "timeout") else "error"
    detail = ElementTree.SubElement(case, outcome, message=_short(message) or status, type=status)
    detail.text = _clean(message) or status
    return outcome


def junit_xml(rows: list[GradedRow]) -> str:
    """The JUnit XML document of these grading rows (the same rows always give the same text)."""
    root = ElementTree.Element("testsuites", name="attention-kit grading")
    totals: Counter[str] = Counter()
    for row in sorted(rows, key=row_order):
        suite = ElementTree.SubElement(root, "testsuite", name=_clean(f"{row.student_id}/{row.assignment_id}"))
        properties = ElementTree.SubElement(suite, "properties")
        for name, value in (("score", f"{row.score:g}"), ("max_score", f"{row.max_score:g}"),
                            ("status", row.status_text())):
            ElementTree.SubElement(properties, "property", name=name, value=_clean(value))
        outcomes: Counter[str] = Counter()
        if not row.graded:
            status = row.status_text()
            outcomes[_add_case(suite, row.assignment_id, "submission", status, status)] += 1
        for test in row.tests:
            outcomes[_add_case(suite, f"{row.assignment_id}.{test.stage}", test.name, test.status.value,
                               test.message(row.language))] += 1
        counts = {"tests": sum(outcomes.values()), "failures": outcomes["failure"], "errors": outcomes["error"],
                  "skipped": 0}
        suite.attrib.update({key: str(value) for key, value in counts.items()})
        totals.update(counts)
    root.attrib.update({key: str(totals[key]) for key in ("tests", "failures", "errors", "skipped")})
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
