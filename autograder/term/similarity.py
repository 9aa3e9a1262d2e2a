"""Similar submissions: the pairs of students whose graded code is most alike, per assignment.

The comparison is copydetect's (https://github.com/blingenf/copydetect), an implementation of
winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003), the fingerprinting behind Stanford's
MOSS. It tokenises the code with Pygments and replaces every identifier by its kind, so renamed
variables and functions do not hide a copy; fingerprints are compared as sets, so reordered
definitions do not either; comments and blank lines are left out. Starter code (the released
notebook's own code: signatures, docstrings, stubs, given classes) is boilerplate, removed from
every fingerprint, so that only what students wrote counts. With a window of 1 every k-gram is
a fingerprint, so the result does not depend on Python's per-process string hashing.

Every answer is also compared with the code that another released notebook gives every student
for one of its graded names: notebook 04 brings a working ``CausalAttention`` head, the last
answer of notebook 03, and a student who has 04 before 03 is due can hand that head in.

Input: ``<out>/answers/<student_id>/<assignment_id>.py``, the code each notebook was graded on.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
from copydetect import CodeFingerprint, compare_files

from autograder.paths import student_notebook
from autograder.reading.notebook import NotebookError, extract_definitions, read_notebook_json
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.term.answers import ANSWERS_FOLDER, graded_code

# The shortest run of matching tokenised characters that counts (identifiers count one each):
# about one line of code, so that a shared idiom like `return x @ y.T` alone is no match.
NOISE_THRESHOLD = 20
WINDOW = 1
# An answer is listed beside code given in another notebook when it holds at least this share of
# that code. Measured on 03: a renamed copy of 04's given head holds 100 % of it, correct heads
# in eleven other styles (the book's, einsum, SDPA with is_causal, torch.where...) 11 to 34 %.
GIVEN_SHARE_LISTED = 0.5


class SimilarityError(Exception):
    """Similarity cannot be computed; the message says what to do."""


@dataclass(frozen=True)
class MarkedCode:
    """Code and the character ranges of it that match another answer (start, end)."""

    code: str
    regions: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Answer:
    """One student's graded code, and its fingerprints less the starter code."""

    student_id: str
    code: str
    fingerprint: CodeFingerprint

    @property
    def own_tokens(self) -> int:
        """How much of the code is the student's own (tokenised characters outside the starter code)."""
        return int(self.fingerprint.token_coverage)


@dataclass(frozen=True)
class SimilarPair:
    """Two students' answers to one assignment, how alike they are and where."""

    assignment_id: str
    first: str
    second: str
    similarity: float  # the share of both students' own code that matches the other's, 0 to 1
    first_share: float  # the share of the first student's own code found in the second's
    second_share: float
    first_marked: MarkedCode  # the first student's code and its matching regions
    second_marked: MarkedCode


def _fingerprint(name: str, code: str, boilerplate: np.ndarray) -> CodeFingerprint:
    return CodeFingerprint(name, NOISE_THRESHOLD, WINDOW, boilerplate, fp=io.StringIO(code), language="python")


@functools.cache  # the released notebooks: read once per process (the service's web process may not read them later)
def starter_code(assignment_id: str) -> str:
    """The released notebook's own code, which every student starts from."""
    notebook = student_notebook(assignment_id)
    code = graded_code(notebook, assignment_id)
    if code is None:
        raise SimilarityError(f"{notebook} is missing or unreadable: it holds the starter code to leave out; run"
                              " `make assignments` to write it")
    return code


@functools.cache
def starter_fingerprints(assignment_id: str) -> np.ndarray:
    """The fingerprints of the released notebook's own code."""
    return np.array(sorted(_fingerprint("starter.py", starter_code(assignment_id), np.array([])).hashes))


@functools.cache
def given_elsewhere(assignment_id: str) -> dict[str, str]:
    """The code that the other released notebooks give every student and that defines one of this
    assignment's graded names, by the assignment whose notebook gives it."""
    graded_names = set(STAGES_BY_ASSIGNMENT[assignment_id])
    given = {}
    for other in ASSIGNMENTS:
        if other == assignment_id:
            continue
        notebook = student_notebook(other)
        try:
            blocks = extract_definitions(read_notebook_json(notebook)).blocks
        except (NotebookError, OSError) as error:
            raise SimilarityError(f"{notebook} cannot be read ({error}): run `make assignments` to write it") from None
        code = "\n\n".join(block.source for block in blocks if graded_names & set(block.names))
        if code:
            given[other] = code + "\n"
    return given


def read_answers(out: Path) -> dict[str, dict[str, str]]:
    """The graded code kept by a grading run, by assignment and student."""
    folder = out / ANSWERS_FOLDER
    if not folder.is_dir():
        raise SimilarityError(f"{folder} does not exist: grade with this version of the kit first"
                              f" (python -m autograder grade <submitted> --out {out})")
    answers: dict[str, dict[str, str]] = {}
    for path in sorted(folder.glob("*/*.py")):
        answers.setdefault(path.stem, {})[path.parent.name] = path.read_text(encoding="utf-8", errors="replace")
    return answers


def _marked(code: str, slices: np.ndarray) -> MarkedCode:
    """The code and its matching regions, as copydetect places them (the similarity page marks the
    whole tokens they fall on, outside the starter code)."""
    regions = tuple((int(start), int(end)) for start, end in zip(*slices, strict=True)) if len(slices) else ()
    return MarkedCode(code, regions)


def _pair(assignment_id: str, first: Answer, second: Answer) -> SimilarPair | None:
    overlap, (first_share, second_share), (first_slices, second_slices) = compare_files(
        first.fingerprint, second.fingerprint)
    if overlap == 0:
        return None
    first_share, second_share = min(float(first_share), 1.0), min(float(second_share), 1.0)
    both = (first_share * first.own_tokens + second_share * second.own_tokens) / (first.own_tokens + second.own_tokens)
    return SimilarPair(assignment_id, first.student_id, second.student_id, round(both, 4), round(first_share, 4),
                       round(second_share, 4), _marked(first.code, first_slices), _marked(second.code, second_slices))


def own_code_answers(answers: dict[str, str], boilerplate: np.ndarray) -> list[Answer]:
    """The answers with code of their own beyond the starter code (a notebook of stubs has none), fingerprinted."""
    fingerprinted = [Answer(student, code, _fingerprint(f"{student}.py", code, boilerplate))
                     for student, code in sorted(answers.items())]
    return [answer for answer in fingerprinted if answer.own_tokens > 0]


def similar_pairs(assignment_id: str, answers: list[Answer]) -> list[SimilarPair]:
    """Every pair of these answers with some code in common, the most alike first."""
    pairs = [pair for first, second in combinations(answers, 2) if (pair := _pair(assignment_id, first, second))]
    return sorted(pairs, key=lambda pair: (-pair.similarity, pair.first, pair.second))


@dataclass(frozen=True)
class GivenCodeFound:
    """A student's answer that holds much of the code another released notebook gives for it."""

    student_id: str
    given_in: str  # the assignment whose released notebook gives the code
    given_share: float  # the share of the given code found in the answer, 0 to 1
    answer_marked: MarkedCode  # the answer and its regions matching the given code
    given_marked: MarkedCode


def given_code_found(answers: list[Answer], given: dict[str, str], boilerplate: np.ndarray) -> list[GivenCodeFound]:
    """The answers that hold at least ``GIVEN_SHARE_LISTED`` of some code given in another
    released notebook, those holding the most first."""
    found = []
    for given_in, code in sorted(given.items()):
        given_fingerprint = _fingerprint(f"{given_in}.py", code, boilerplate)
        if given_fingerprint.token_coverage == 0:  # nothing beyond the starter code
            continue
        for answer in answers:
            _, (_, given_share), (answer_slices, given_slices) = compare_files(answer.fingerprint, given_fingerprint)
            if given_share >= GIVEN_SHARE_LISTED:
                found.append(GivenCodeFound(answer.student_id, given_in, round(min(float(given_share), 1.0), 4),
                                            _marked(answer.code, answer_slices), _marked(code, given_slices)))
    return sorted(found, key=lambda item: (-item.given_share, item.student_id, item.given_in))


@dataclass(frozen=True)
class AssignmentSimilarity:
    """One assignment's most alike pairs, its answers that hold code given in another notebook,
    and how many answers there were and were compared."""

    assignment_id: str
    answers: int
    compared: int  # those with code of their own
    pairs: list[SimilarPair]
    given_code: list[GivenCodeFound]
    starter_code: str = ""  # the released notebook's own code, which the comparison leaves out


def class_similarity(out: Path, pairs_per_assignment: int) -> list[AssignmentSimilarity]:
    """The most alike pairs of each assignment that a grading run in ``out`` graded."""
    similarities = []
    for assignment_id, answers in sorted(read_answers(out).items()):
        if assignment_id not in ASSIGNMENTS:
            continue
        boilerplate = starter_fingerprints(assignment_id)
        own = own_code_answers(answers, boilerplate)
        similarities.append(AssignmentSimilarity(assignment_id, len(answers), len(own),
                                                 similar_pairs(assignment_id, own)[:pairs_per_assignment],
                                                 given_code_found(own, given_elsewhere(assignment_id), boilerplate),
                                                 starter_code(assignment_id)))
    return sorted(similarities, key=lambda similarity: ASSIGNMENTS.index(similarity.assignment_id))
