"""The words of the feedback page, in the submitted notebook's language.

The results JSON keeps every message in English (it is the same whatever the notebook's
language). Only the page is translated: its own text (``PAGE_TEXT``), and the test messages as
far as they are made of known sentences: the grader's own (``GRADER_SENTENCES``) and the named
mistakes of ``autograder.mistakes``, which the hidden tests append with ``mistake_hint``. What
the hidden tests write around a mistake (``softmax_naive(x) for x of shape (2, 3): returned
shape ...``) is not keyed, so it stays English.

Translations: ``autograder/locales/<language>/feedback.json`` (the keys of ``PAGE_TEXT`` and
``GRADER_SENTENCES``, the phrases of ``DOING``, and ``likely_mistake``) and
``autograder/locales/<language>/mistakes.json`` (the ids of ``autograder.mistakes.MESSAGES``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from autograder import i18n
from autograder.compare import mistake_hint
from autograder.mistakes import MESSAGES as MISTAKES

PAGE_TEXT: dict[str, str] = {
    "heading": "{assignment_id}: feedback for {student_id}",
    "not_graded": "Your notebook could not be graded: {status}.",
    "load_problems": "Some of your definitions could not be loaded, so the stages that need them earned nothing:",
    "definitions_only": (
        "Only your definitions (imports, functions, classes and simple constants) were graded; demo"
        " cells were not run."
    ),
    "column.stage": "Stage",
    "column.tests_passed": "Tests passed",
    "column.points": "Points",
    "message_label": "{label}:",  # above a failure message
    "message_label_tests": "{label} ({count} tests):",  # the same message from several tests
    "status.passed": "Passed",
    "status.failed": "Not yet right",
    "status.error": "Your code raised an error",
    "status.timeout": "Ran out of time",
}

# Where a sentence may stand in a message: the whole message, its start, or anywhere.
WHOLE, START, ANYWHERE = "whole", "start", "anywhere"

# The grader's sentences, word for word as autograder/grading_plugin.py, worker_session.py,
# probe_client.py, probe_server.py and notebook_code.py write them into the results.
# tests/test_translations.py makes the grader produce them and fails when one is not recognised.
GRADER_SENTENCES: dict[str, tuple[str, str]] = {
    "not_implemented": (WHOLE, "{stage} is not implemented yet: the stub still raises NotImplementedError."),
    "no_message": (WHOLE, "{stage} did not pass a hidden check."),
    "grader_could_not_check": (WHOLE, (
        "The grader could not check {stage} ({error_type}); your code may return something unexpected."
        " Tell your instructor if this persists.")),
    "timeout": (WHOLE, (
        "Your code ran longer than the {limit} s limit while {doing} (an endless loop, or work far"
        " bigger than the test needs) and was stopped")),
    "crashed": (WHOLE, (
        "The process running your code stopped while {doing} (it exited, crashed or went over the"
        " memory limit): {error}")),
    "stage_timed_out": (WHOLE, "not run: an earlier test of this stage already ran out of time"),
    "stages_timed_out": (WHOLE, (
        "not run: {count} stages of this notebook already ran out of time (an endless loop shared by"
        " several stages?)")),
    "worker_not_started": (WHOLE, "the worker did not start properly"),
    "object_lost": (WHOLE, "this object was lost when the worker was restarted"),
    "bad_reply": (WHOLE, "the worker sent a reply that is not an answer"),
    "not_defined": (START, (
        "{name} is not defined in your notebook: define it in its answer cell, with exactly this name.")),
    "raised": (START, "Your code raised {error_type}: "),
    "demo_variable": (ANYWHERE, (
        ". Only imports, functions, classes and simple constants are loaded for grading: your function"
        " must not use a variable made in a demo cell.")),
    "while_loading": (ANYWHERE, " While loading your notebook: "),
    "syntax_error": (ANYWHERE, (
        "code cell {cell} has a syntax error at line {line} ({reason}); none of its definitions were"
        " loaded")),
    "cell_raised": (ANYWHERE, "code cell {cell}, line {line}: "),
}
# What the worker was doing when it timed out or crashed (the {doing} of those sentences).
DOING: dict[str, str] = {
    "loading your notebook's definitions": "doing.loading",
    "answering this test": "doing.answering",
}
LIKELY_MISTAKE = "likely_mistake"  # the key of " Likely mistake: {mistake}" in feedback.json

_FIELD_PATTERNS = {"stage": r"\w+", "error_type": r"[A-Za-z_][\w.]*", "name": r"[\w.]+", "limit": r"[\d.e+-]+",
                   "count": r"\d+", "cell": r"\d+", "line": r"[\d?]+", "reason": r"[^\n]*?",
                   "doing": "|".join(re.escape(phrase) for phrase in DOING)}


def _pattern(template: str) -> re.Pattern:
    """A regular expression matching ``template`` with its {fields} as named groups."""
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(re.escape(part) if index % 2 == 0 else f"(?P<{part}>{_FIELD_PATTERNS.get(part, '.*?')})"
                    for index, part in enumerate(parts))
    return re.compile(regex, re.DOTALL)


_PATTERNS = {key: (where, _pattern(template)) for key, (where, template) in GRADER_SENTENCES.items()}


def page_text(language: str) -> Mapping[str, str]:
    """The page's own text (PAGE_TEXT's keys) in ``language``."""
    return i18n.messages(language, "feedback", PAGE_TEXT)


def _sentence(catalog: Mapping[str, str], key: str, match: re.Match) -> str:
    fields = {name: catalog.get(DOING[value], value) if name == "doing" else value
              for name, value in match.groupdict().items()}
    return catalog[key].format(**fields)


def localize_message(text: str, language: str) -> str:
    """A test message from the results, with every known sentence in ``language``."""
    if language not in i18n.TRANSLATIONS or not text:
        return text
    catalog = i18n.load_catalog(language, "feedback")
    for key, (where, pattern) in _PATTERNS.items():
        if where == WHOLE and (match := pattern.fullmatch(text)):
            return _sentence(catalog, key, match)
    for key, (where, pattern) in _PATTERNS.items():
        if where == START and (match := pattern.match(text)):
            text = _sentence(catalog, key, match) + text[match.end():]
            break
    for key, (where, pattern) in _PATTERNS.items():
        if where == ANYWHERE:
            text = pattern.sub(lambda match, key=key: _sentence(catalog, key, match), text)
    mistakes = i18n.load_catalog(language, "mistakes")
    # Longest first, so that no sentence is replaced inside a longer one.
    for mistake_id in sorted(MISTAKES, key=lambda mistake_id: -len(MISTAKES[mistake_id])):
        if mistake_id in mistakes:
            hint = catalog[LIKELY_MISTAKE].format(mistake=mistakes[mistake_id])
            text = text.replace(mistake_hint(mistake_id), hint)
    return text
