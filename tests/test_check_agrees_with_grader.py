"""The public check never says what the grader would contradict (issue 40, "one diagnosis, two
places"): on every answer of the kit's corpora (tests/mutations.py's CORPUS, the batches of
tests/feedback_batches/), a mistake the check names is one the grader names on the same answer.

The grader's names are the ones the corpora record (each mutant's ``mistake``; a batch entry's
``named_as`` and ``also_named``; none for a correct answer or one the kit does not charge), which
tests/test_hidden_tests.py and tests/test_feedback_batches.py hold the grader to. A check that
names nothing (it states what it found, or passes) never contradicts a name.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from mutations import CORPUS

from autograder.notebooks.variants import load_solution, with_answer
from autograder.reading.notebook import extract_definitions
from autograder.student.selfcheck import run_check
from autograder.worker.probe_server import load_definitions

pytestmark = pytest.mark.slow

BATCHES_DIR = Path(__file__).resolve().parent / "feedback_batches"


@dataclass(frozen=True)
class Answer:
    """One answer of a corpus and the mistakes the grader names on it."""

    name: str
    stage: str
    notebook_of: object  # () -> the solution notebook with this answer in it
    grader_names: frozenset[str]


def _batch_answers() -> list[Answer]:
    answers = []
    for manifest in sorted(BATCHES_DIR.glob("*/manifest.json")):
        for item in json.loads(manifest.read_text(encoding="utf-8")):
            named = {item.get("named_as"), *item.get("also_named", [])} - {None}
            source = (manifest.parent / item["file"]).read_text(encoding="utf-8")
            answers.append(Answer(f"{manifest.parent.name}/{item['file']}", item["stage"],
                                  lambda item=item, source=source: with_answer(
                                      load_solution(item["assignment"]), item["stage"], source),
                                  frozenset(named)))
    return answers


ANSWERS = [Answer(mutation.name, mutation.stage, mutation.notebook, frozenset({mutation.mistake} - {None}))
           for mutation in CORPUS] + _batch_answers()


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda answer: answer.name)
def test_a_mistake_the_check_names_is_the_graders(answer):
    namespace, _ = load_definitions([vars(block) for block in extract_definitions(answer.notebook_of()).blocks])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # keys.T on a batch warns before it fails
        result = run_check(answer.stage, namespace, "en")
    if result.mistake is not None:
        assert result.mistake in answer.grader_names, (
            f"the check names {result.mistake!r} ({result.message}); the grader names"
            f" {sorted(answer.grader_names) or 'none'}")
