"""The words of the feedback page, in the submitted notebook's language.

The results JSON keeps every message in English (it is the same whatever the notebook's
language). Only the page is translated: its own text (``PAGE_TEXT``), and the test messages,
which are made of known sentences: the grader's own (``GRADER_SENTENCES``), the hidden tests'
failure messages (``autograder.findings.english.SENTENCES``, such as ``softmax_naive(x) for x of
shape (2, 3): returned shape ...``) and the named mistakes of ``autograder.hidden.wrong_outputs``, which the
hidden tests append with ``mistake_hint``. A sentence is recognised by a regular expression
built from its template; its fields (code, shapes, numbers) are kept as they are. What no
template matches, such as the text of an exception the student's code raised, stays English.

Translations: ``autograder/locales/<language>/feedback.json`` (the keys of ``PAGE_TEXT`` and
``GRADER_SENTENCES``, and the phrases of ``DOING``), ``autograder/locales/<language>/checks.json``
(the keys of ``check_messages.SENTENCES``) and ``autograder/locales/<language>/mistakes.json``
(the ids of ``autograder.hidden.wrong_outputs.MESSAGES``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from autograder.course.paths import LOCALES_DIR
from autograder.findings.english import SENTENCES as CHECK_SENTENCES
from autograder.hidden.compare import mistake_hint
from autograder.hidden.wrong_outputs import MESSAGES as MISTAKES
from autograder.student import language as i18n

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

_FIELD_PATTERNS = {"stage": r"\w+", "error_type": r"[A-Za-z_][\w.]*", "name": r"[\w.]+", "limit": r"[\d.e+-]+",
                   "count": r"\d+", "cell": r"\d+", "line": r"[\d?]+", "reason": r"[^\n]*?",
                   "doing": "|".join(re.escape(phrase) for phrase in DOING)}

# What each field of check_messages.SENTENCES may hold. Precise patterns keep a sentence from
# matching where another one was meant; {what} and {problems} are phrases, translated in turn.
_SHAPE = r"\([\d, ]*\)"  # (2, 5, 4), (6,), ()
_NUMBER = r"-?(?:\d+(?:\.\d*)?(?:e[-+]?\d+)?|nan|inf)"  # 0.5, -3, 1.2e-05, nan, -inf
CHECK_FIELD_PATTERNS = {
    "what": r".+?", "problems": r".+?",
    "call": r"[\w.]+\(.*?\)",  # softmax_naive(x, dim=1), CausalAttention(3, 4, 8, 0.0, qkv_bias=False)
    "argument": r"\w+", "attribute": r"[\w.]+", "module": r"\w+", "name": r"[\w.]+", "class_name": r"\w+",
    "names": r"[\w.]+(?:, [\w.]+)*", "type_name": r"[\w.]+", "error_type": r"[A-Za-z_][\w.]*",
    "shape": _SHAPE, "actual_shape": _SHAPE, "expected_shape": _SHAPE, "index": _SHAPE,
    "queries_shape": _SHAPE, "keys_shape": _SHAPE,
    "actual_dtype": r"torch\.\w+", "expected_dtype": r"torch\.\w+",
    "actual_device": r"[\w:]+", "expected_device": r"[\w:]+",
    "count": r"\d+", "total": r"\d+", "position": r"\d+", "heads": r"\d+", "expected_heads": r"\d+",
    "features": r"\d+", "tokens": r"\d+",
    "value": rf"{_NUMBER}|True|False", "difference": _NUMBER, "p": _NUMBER,
    "fraction": r"[\d.]+%", "expected_fraction": r"[\d.]+%",
    "parameters": r"[\d,]+", "expected_parameters": r"[\d,]+",  # 2,360,064
    "kinds": r"\[.*?\]",  # ['CausalAttention', 'Linear']
}
PHRASE_FIELDS = ("what", "problems")  # fields holding phrases of the table: what.*, problems.*
# Full-width punctuation brings its own spacing: a blank after it, left by a template that puts
# one after {what} as it should after code, is dropped ("（x 的形状为 (2, 5)）保留下来的元素").
_BLANK_AFTER_FULL_WIDTH = re.compile(r"(?<=[）：；，。]) ")
LIKELY_MISTAKE = "hint.likely_mistake"  # the key of " Likely mistake: {mistake}" in checks.json


def _pattern(template: str, fields: Mapping[str, str] | None = None, suffix: str = "") -> re.Pattern:
    """A regular expression matching ``template`` with its {fields} as named groups.

    ``fields`` gives each field's pattern (by default the grader's, or any text). A field that
    comes twice must hold the same text both times. ``suffix`` is appended to the expression.
    """
    fields = _FIELD_PATTERNS if fields is None else fields
    parts, seen, regex = re.split(r"\{(\w+)\}", template), set(), ""
    for index, part in enumerate(parts):
        if index % 2 == 0:
            regex += re.escape(part)
        elif part in seen:
            regex += f"(?P={part})"
        else:
            seen.add(part)
            regex += f"(?P<{part}>{fields.get(part, '.*?')})"
    return re.compile(regex + suffix, re.DOTALL)


_PATTERNS = {key: (where, _pattern(template)) for key, (where, template) in GRADER_SENTENCES.items()}


def _check_patterns(keys, suffix: str = "") -> list[tuple[str, re.Pattern]]:
    """The patterns of the check sentences ``keys``, longest template first: where two could
    match, the longer one is the more specific (``... on the meta device, for x of shape ...``
    before ``... for x of shape ...``)."""
    ordered = sorted(keys, key=lambda key: -len(CHECK_SENTENCES[key]))
    return [(key, _pattern(CHECK_SENTENCES[key], CHECK_FIELD_PATTERNS, suffix)) for key in ordered]


# A failure message starts with one sentence, which ends the message or is followed by more
# (a mistake hint); phrases are matched whole, inside a sentence's {what} or {problems}.
_CHECK_SENTENCE_PATTERNS = _check_patterns([key for key in CHECK_SENTENCES if "." not in key], r"(?=\s|\Z)")
_PHRASE_PATTERNS = {family: _check_patterns([key for key in CHECK_SENTENCES
                                             if key.startswith(f"{family}.") and key != f"{family}.separator"])
                    for family in PHRASE_FIELDS}


def page_text(language: str) -> Mapping[str, str]:
    """The page's own text (PAGE_TEXT's keys) in ``language``."""
    return i18n.messages(language, "feedback", PAGE_TEXT, LOCALES_DIR)


def _sentence(catalog: Mapping[str, str], key: str, match: re.Match) -> str:
    fields = {name: catalog.get(DOING[value], value) if name == "doing" else value
              for name, value in match.groupdict().items()}
    return catalog[key].format(**fields)


def _check_sentence(checks: Mapping[str, str], key: str, match: re.Match) -> str:
    """The translation of a matched check sentence or phrase, its phrase fields translated too."""
    fields = {name: _phrase_field(checks, name, value) if name in PHRASE_FIELDS else value
              for name, value in match.groupdict().items()}
    return _BLANK_AFTER_FULL_WIDTH.sub("", checks[key].format(**fields))


def _phrase_field(checks: Mapping[str, str], family: str, text: str) -> str:
    """A {what} or {problems} field in the catalog's language (a list when its family has a separator)."""
    separator = CHECK_SENTENCES.get(f"{family}.separator")
    if separator is None:
        return _phrase(checks, family, text)
    return checks[f"{family}.separator"].join(_phrase(checks, family, item) for item in text.split(separator))


def _phrase(checks: Mapping[str, str], family: str, text: str) -> str:
    """One phrase of ``family`` in the catalog's language; code (a call, a name) stays as it is."""
    for key, pattern in _PHRASE_PATTERNS[family]:
        if match := pattern.fullmatch(text):
            return _check_sentence(checks, key, match)
    return text


def _check_message(checks: Mapping[str, str], text: str) -> str:
    """``text`` with the hidden tests' sentence that starts it (if one does) translated."""
    for key, pattern in _CHECK_SENTENCE_PATTERNS:
        if match := pattern.match(text):
            return _check_sentence(checks, key, match) + text[match.end():]
    return text


def localize_message(text: str, language: str) -> str:
    """A test message from the results, with every known sentence in ``language``."""
    if language not in i18n.TRANSLATIONS or not text:
        return text
    catalog = i18n.load_catalog(language, "feedback", LOCALES_DIR)
    checks = i18n.load_catalog(language, "checks", LOCALES_DIR)
    for key, (where, pattern) in _PATTERNS.items():
        if where == WHOLE and (match := pattern.fullmatch(text)):
            return _sentence(catalog, key, match)
    for key, (where, pattern) in _PATTERNS.items():
        if where == START and (match := pattern.match(text)):
            text = _sentence(catalog, key, match) + text[match.end():]
            break
    else:  # not the grader's: the failure message of a hidden test
        text = _check_message(checks, text)
    for key, (where, pattern) in _PATTERNS.items():
        if where == ANYWHERE:
            text = pattern.sub(lambda match, key=key: _sentence(catalog, key, match), text)
    mistakes = i18n.load_catalog(language, "mistakes")
    # Longest first, so that no sentence is replaced inside a longer one.
    for mistake_id in sorted(MISTAKES, key=lambda mistake_id: -len(MISTAKES[mistake_id])):
        if mistake_id in mistakes:
            hint = checks[LIKELY_MISTAKE].format(mistake=mistakes[mistake_id])
            text = text.replace(mistake_hint(mistake_id), hint)
    return text
