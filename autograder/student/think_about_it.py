"""The notebooks' "Think about it" questions, and the cell under each where a student answers.

Each question is a markdown section of a master notebook, followed (a few cells later, where
the question is best answered) by a markdown *answer cell* whose metadata names the question,
``{"attention_kit": {"think_about_it": "<question id>"}}``, the same id in every language. The
grader finds the cell by that id, wherever it moved and whatever the student wrote in it. The
model answer stays in the master (a cell for the solutions only, ``autograder.notebooks.solutions_only``).

``make assignments`` writes each answer cell's text: a label and a placeholder line, in the
notebook's language (English here, translations in ``locales/<language>/think_about_it.json``).
What a student writes there is collected for no points (``autograder.reading.learning_records``)
and listed per question in the class report (``autograder.feedback.report``), which is English,
as the titles here are. The questions live here, beside the curriculum's stages and the
predictions' questions, so that every layer of the grader can read them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from . import language as languages

CELL_KEY = "think_about_it"  # in an answer cell's attention_kit metadata: the question's id


@dataclass(frozen=True)
class Question:
    """A think-about-it question: its id, its notebook, and a short title for the class report."""

    id: str
    assignment: str
    title: str


QUESTIONS: dict[str, Question] = {question.id: question for question in (
    Question("exp_not_division", "01_attention_scores", "Why exp, and not plain division by the sum"),
    Question("subtract_max", "01_attention_scores", "Why subtract the row's maximum, not its mean"),
    Question("asymmetric_weights", "01_attention_scores", "Symmetric scores, asymmetric weights"),
    Question("word_order", "01_attention_scores", "“dog bites man” without positions"),
    Question("two_matrices", "02_self_attention", "Why W_query and W_key, not one W"),
    Question("saturated_softmax", "02_self_attention", "Why a saturated softmax passes almost no gradient"),
    Question("batch_transpose", "02_self_attention", "keys.T on a batch"),
    Question("own_values", "02_self_attention", "Why the values get a matrix of their own"),
    Question("first_row", "03_causal_attention", "Why the first row is [1, 0, …, 0]"),
    Question("inverted_dropout", "03_causal_attention", "Why inverted dropout"),
    Question("hidden_diagonal", "03_causal_attention", "A mask that hides the diagonal too"),
    Question("previous_digit_head", "03_causal_attention", "How the trained head finds the previous digit"),
    Question("head_shapes", "04_multi_head_attention", "The shapes inside MultiHeadAttention, predicted"),
    Question("one_head", "04_multi_head_attention", "One head of MultiHeadAttention against CausalAttention"),
    Question("heads_split", "04_multi_head_attention", "Why the two heads split the work"),
    Question("parameter_count", "04_multi_head_attention", "Where GPT-2 small's attention parameters are"),
)}

# The answer cell's words, in English; translations in locales/<language>/think_about_it.json.
WORDS: dict[str, str] = {
    "label": "✍️ **Your answer:**",
    "placeholder": "*Double-click this cell and write your answer in place of this line: a few sentences, in your"
                   " own words. It earns no points; your instructor reads the class's answers.*",
}


def questions_of(assignment_id: str) -> list[Question]:
    """The questions of one notebook, in its order."""
    return [question for question in QUESTIONS.values() if question.assignment == assignment_id]


def words(language: str) -> Mapping[str, str]:
    """The answer cell's words in ``language`` (English where a catalog lacks one)."""
    return languages.messages(language, "think_about_it", WORDS)


def answer_cell_source(language: str) -> str:
    """An answer cell as ``make assignments`` writes it, in ``language``: the label, then the placeholder."""
    said = words(language)
    return f"{said['label']}\n\n{said['placeholder']}"


def question_of(cell: object) -> str | None:
    """The question id an answer cell (parsed JSON, maybe hostile) names; None for any other cell."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    kit = metadata.get(languages.METADATA_KEY) if isinstance(metadata, dict) else None
    question_id = kit.get(CELL_KEY) if isinstance(kit, dict) else None
    return question_id if isinstance(question_id, str) and question_id in QUESTIONS else None


@functools.cache
def _written_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """The placeholder lines and the labels of every language."""
    every = [words(language) for language in languages.LANGUAGES]
    return frozenset(said["placeholder"] for said in every), tuple(said["label"] for said in every)


def answer_text(source: str) -> str:
    """What a student wrote in an answer cell whose text is ``source``: the cell without its label
    and its placeholder line (in any language, should the student have switched notebooks); empty
    when nothing else is written."""
    placeholders, labels = _written_words()
    kept = []
    for line in source.splitlines():
        text = line.strip()
        if text in placeholders:
            continue
        label = next((label for label in labels if text.startswith(label)), None)
        kept.append(text[len(label):].strip() if label else line.rstrip())
    return "\n".join(kept).strip()
