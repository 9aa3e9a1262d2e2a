"""How one stage's result depends on another's, once a submission's tests have run.

- A *behaviour* check (``@pytest.mark.behaviour``: runs on the meta device, returns a view,
  rejects a bad argument...) can pass for an answer whose values are wrong, even for one that
  returns zeros. It earns its points only when every value test of its stage passed, or failed
  pinned to a named behaviour (``partial_credit``: the values are the reference's but for that);
  otherwise it is reported as not counted yet, saying why.
- A stage that the notebook builds on another stage (``MultiHeadAttention`` calls
  ``split_heads``) is graded on its own: its tests stand in for the called stage
  (``STANDS_IN_FOR``, ``autograder.hidden.stand_ins``), so its result does not depend on the
  student's version of it. A stage whose code calls another of the student's stages of its own
  accord (a ``CausalAttention`` calling the student's ``masked_softmax``) fails whenever that one
  is broken: when the called stage fails its own tests, the calling stage's failures say so
  first, and name the stage to fix.

Both work on the recorded outcomes, in the trusted process, from the student's code as the
grader read it (``ast``, never run).
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from dataclasses import replace

from autograder.findings.finding import finding
from autograder.reading.notebook import ExtractedCode
from autograder.records.jobs import TestOutcome
from autograder.records.results import WAITING_KEY, TestStatus
from autograder.student.curriculum import CONSULTED, STANDS_IN_FOR


def stages_called(code: ExtractedCode, stages: Collection[str]) -> dict[str, set[str]]:
    """For each stage the notebook defines, the other stages its definition names, but those its
    tests stand in for (its result does not depend on them)."""
    called: dict[str, set[str]] = {}
    for block in code.blocks:
        for stage in set(block.names) & set(stages):
            try:
                tree = ast.parse(block.source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            # The last definition is the one that runs.
            called[stage] = (names & set(stages)) - {stage} - STANDS_IN_FOR.get(stage, set())
    return called


def counted_behaviour_checks(outcomes: list[TestOutcome], behaviour: Collection[str],
                             pinned: Collection[str] = (), unscored: Collection[str] = ()) -> list[TestOutcome]:
    """The outcomes, with each passed behaviour check of a stage whose values are wrong turned
    into a failure that says why it does not count yet. A stage in ``pinned`` has values that are
    right but for faults pinned to named behaviours (``partial_credit.stages_pinned``): its checks
    count. A test in ``unscored`` (worth no points: a note worth fixing) judges no values."""
    # Values on the CPU only: a GPU instance carries no points, and must not take any away either.
    values_wrong = {outcome.stage for outcome in outcomes if outcome.device == "cpu"
                    and outcome.function not in behaviour and outcome.function not in unscored
                    and outcome.status is not TestStatus.PASSED} - set(pinned)
    return [replace(outcome, status=TestStatus.FAILED, finding=finding(WAITING_KEY, stage=outcome.stage))
            if outcome.function in behaviour and outcome.status is TestStatus.PASSED
            and outcome.stage in values_wrong else outcome
            for outcome in outcomes]


def pointed_to_failing_stages(outcomes: list[TestOutcome], called: dict[str, set[str]]) -> list[TestOutcome]:
    """The outcomes, with each failure of a stage that calls a failing stage of the student's
    prefixed by the stage to fix first; a called stage that its tests consulted the reference for
    (``CONSULTED``) is told in a note instead, on the calling stage's tests: it cost nothing there."""
    failing = {outcome.stage for outcome in outcomes if outcome.status is not TestStatus.PASSED}
    pointed = []
    for outcome in outcomes:
        culprits = sorted(called.get(outcome.stage, set()) & failing - CONSULTED)
        unfinished = outcome.finding is not None and outcome.finding.key == "not_implemented"
        if culprits and outcome.status is not TestStatus.PASSED and outcome.finding is not None and not unfinished:
            outcome = replace(outcome, finding=finding("calls_failing_stage", stages=", ".join(culprits),
                                                       found=outcome.finding))
        pointed.append(outcome)
    return _noted_consulted_stages(pointed, called, failing)


def _noted_consulted_stages(outcomes: list[TestOutcome], called: dict[str, set[str]],
                            failing: set[str]) -> list[TestOutcome]:
    """The outcomes, with one note for each stage that calls failing stages its tests consulted the
    reference for: on its first failure (after what that found), or, when it failed nothing, on
    its first test, which then passed "with a note"."""
    noted = list(outcomes)
    for stage in dict.fromkeys(outcome.stage for outcome in outcomes):
        consulted = ", ".join(sorted(called.get(stage, set()) & failing & CONSULTED))
        own = [index for index, outcome in enumerate(outcomes) if outcome.stage == stage and outcome.device == "cpu"]
        if not consulted or not own:
            continue
        failed = [(index, found) for index in own if outcomes[index].status is not TestStatus.PASSED
                  and (found := outcomes[index].finding) is not None]
        plain = [index for index in own if outcomes[index].finding is None]
        if failed and failed[0][1].key != "not_implemented":
            index, found = failed[0]
            noted[index] = replace(outcomes[index], finding=found.with_notes(
                finding("evidence.graded_with_correct_stages", stages=consulted)))
        elif not failed and plain:
            noted[plain[0]] = replace(outcomes[plain[0]], finding=finding(
                "note.graded_with_correct_stages", stage=stage, stages=consulted))
    return noted
