"""What a submitted notebook says about how its student learned: the hint tiers opened, the
predictions made and the answers to the "Think about it" questions, read from the notebook without
running it.

- **Hints.** ``hint("<stage>", tier)`` shows its text as an output whose metadata records the
  stage and tier (``autograder.student.records``); a call whose arguments are written out counts
  too, should its output have been cleared (a cell that shows outputs is read from them alone: a
  stage that passes opens no tier). The highest tier per stage is kept.
- **Predictions.** ``predict("<question>", ...)`` is read from the code, where the student wrote
  the answer: literal arguments only (``ast.literal_eval``), the last call per question. A call
  whose answer is not written out as a literal, or still holds ``...``, counts as unanswered.

Both come from a hostile file: every value is checked and bounded before it is kept.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from autograder.student import think_about_it
from autograder.student.predictions import QUESTIONS, answer_fields, problems
from autograder.student.records import RECORD_KEY, TIERS
from autograder.worker.text import clean_text

MAX_CELL_CHARS = 200_000  # as the definitions' reader: a longer cell is not read
MAX_ANSWER_CHARS = 3000  # a think-about-it answer is a few sentences; a longer one is cut, with an ellipsis


@dataclass
class LearningRecords:
    """The highest hint tier opened per stage, the answer written per prediction (None when
    the call is there but its answer is not a well-formed literal), and the answer written per
    think-about-it question (only those answered)."""

    hint_tiers: dict[str, int] = field(default_factory=dict)
    predictions: dict[str, dict | None] = field(default_factory=dict)
    think_answers: dict[str, str] = field(default_factory=dict)


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return source if isinstance(source, str) else ""


def _literal(node: ast.AST) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


_NOT_LITERAL = object()


def _calls(tree: ast.AST, name: str) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            yield node


def _keep_tier(records: LearningRecords, stage: object, tier: object, stages: set[str]) -> None:
    if isinstance(stage, str) and stage in stages and type(tier) is int and 1 <= tier <= TIERS:
        records.hint_tiers[stage] = max(tier, records.hint_tiers.get(stage, 0))


def _prediction(call: ast.Call) -> tuple[str, dict | None] | None:
    """(question id, answer or None) of one ``predict(...)`` call, or None when it names no question."""
    question_id = _literal(call.args[0]) if call.args else None
    if not isinstance(question_id, str) or question_id not in QUESTIONS:
        return None
    question = QUESTIONS[question_id]
    if len(call.args) > 2 or any(keyword.arg is None for keyword in call.keywords):
        return question.id, None
    answer = _literal(call.args[1]) if len(call.args) == 2 else None
    fields = {keyword.arg: _literal(keyword.value) for keyword in call.keywords if keyword.arg is not None}
    if answer is _NOT_LITERAL or _NOT_LITERAL in fields.values():
        return question.id, None
    given = answer_fields(question, answer, fields)
    return question.id, (given if not problems(question, given) else None)


def _keep_think_answer(records: LearningRecords, cell: dict) -> None:
    question_id = think_about_it.question_of(cell)
    source = _source(cell)
    if question_id is None or question_id in records.think_answers or len(source) > MAX_CELL_CHARS:
        return
    answer = think_about_it.answer_text(source)
    if answer:
        records.think_answers[question_id] = clean_text(answer, MAX_ANSWER_CHARS)


def learning_records(notebook: dict, stages: list[str]) -> LearningRecords:
    """The hint tiers (for ``stages``), the predictions and the think-about-it answers that
    ``notebook`` (parsed JSON) records."""
    records, stage_set = LearningRecords(), set(stages)
    for cell in notebook.get("cells", []):
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            _keep_think_answer(records, cell)
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs", []) if isinstance(cell.get("outputs"), list) else []:
            metadata = output.get("metadata") if isinstance(output, dict) else None
            record = metadata.get(RECORD_KEY) if isinstance(metadata, dict) else None
            hint = record.get("hint") if isinstance(record, dict) else None
            if isinstance(hint, dict):
                _keep_tier(records, hint.get("stage"), hint.get("tier"), stage_set)
        source = _source(cell)
        if len(source) > MAX_CELL_CHARS or ("hint" not in source and "predict" not in source):
            continue
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        # A cell that still shows its outputs says itself which tiers it opened (none, for a stage
        # that passes: "no hint needed"); only a cell whose outputs were cleared is read from its call.
        for call in _calls(tree, "hint") if not cell.get("outputs") else ():
            arguments = [_literal(arg) for arg in call.args[:2]]
            if len(arguments) >= 1:
                _keep_tier(records, arguments[0], arguments[1] if len(arguments) == 2 else 1, stage_set)
        for call in _calls(tree, "predict"):
            found = _prediction(call)
            if found:
                records.predictions[found[0]] = found[1]
    return records
