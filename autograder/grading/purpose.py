"""A stage's purpose: a stage whose failures show it misses what it is for keeps at most part of its points.

Partial credit (``partial_credit``) charges one wrong behaviour its share, so that a small slip
in a big stage costs little. Some slips are not small: a causal attention module that lets a
later token change an earlier output is not causal, and a stable softmax that still overflows is
not stable, whatever else they get right. ``rubric.toml``'s ``[purpose]`` names, for each such
stage, the findings that show it (the leak seen by changing only later tokens; an overflow, or a
shift that is not the maximum, named on the values), and what share of its points the stage then
keeps at most. A slip that stops the code, repaired as its fix says (``repairs``), is no such
finding: it costs its share, however many tests it stopped, and so does that slip where it runs. The points above that
share are taken from the stage's tests in proportion to what each kept, and each such test
carries the loss as the behaviour ``purpose``, so that the feedback page says what the cap took.

Only the tests that carry points count (the CPU instances: ``engine.score_outcomes``), so a cap
is the same on every machine. Like ``partial_credit``, this works on scored tests in the trusted
process.
"""

from __future__ import annotations

from dataclasses import replace

from autograder.course import rubric
from autograder.findings.finding import Finding
from autograder.grading.repairs import REWRITES
from autograder.records.results import PURPOSE, BehaviourLoss, ScoredTest


def capped(scored: tuple[ScoredTest, ...]) -> tuple[ScoredTest, ...]:
    """``scored`` with each stage whose failures show it misses its purpose cut to the share the
    rubric lets it keep."""
    by_stage: dict[str, list[int]] = {}
    for index, test in enumerate(scored):
        by_stage.setdefault(test.stage, []).append(index)
    result = list(scored)
    for stage, indices in by_stage.items():
        tests = [scored[index] for index in indices]
        if not any(test.max_points > 0 and not test.passed and _shows(test.finding, rubric.purpose_shown_by(stage))
                   for test in tests):
            continue
        earned = sum(test.points for test in tests)
        excess = earned - rubric.purpose_keeps(stage) * sum(test.max_points for test in tests)
        if excess <= 0:
            continue
        keeping = [(index, test) for index, test in zip(indices, tests, strict=True) if test.points > 0]
        left = excess
        for position, (index, test) in enumerate(keeping):
            # In proportion to what each kept; the last takes what rounding left, so the stage keeps its share exactly.
            taken = round(left if position == len(keeping) - 1 else excess * test.points / earned, 4)
            left -= taken
            result[index] = replace(test, points=round(test.points - taken, 4),
                                    lost_to=(*test.lost_to, BehaviourLoss(PURPOSE, taken)))
    return tuple(result)


def _shows(found: Finding | None, keys: frozenset[str]) -> bool:
    """Whether ``found``, or a finding it holds (evidence, notes, further faults), has one of
    ``keys`` as its key or its named mistake. A finding that names only slips with a mechanical
    fix (``repairs.REWRITES``) shows none: where such a slip runs instead of raising (``keys.T``
    on a batch as wide as it is long mixes the batch), it is still the one slip, and costs its share
    as where it raises. Unless ``keys`` name that very slip: one whose silent runs are the stage's
    main use (a softmax's sum that lost its dim, wrong on every square matrix of scores)."""
    if found is None:
        return False
    mistakes = found.mistakes()
    if mistakes and mistakes <= REWRITES.keys() and not mistakes & keys:
        return False
    return bool(keys & (found.keys() | mistakes))
