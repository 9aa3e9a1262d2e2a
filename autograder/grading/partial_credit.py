"""Partial credit: a failure pinned to one wrong behaviour of a big stage costs that behaviour's share.

``rubric.toml`` shares a big stage's value points (its tests not marked behaviour) among the
behaviours it must get right (``[behaviours.<stage>]``), and says which named mistakes are faults
of which behaviour (``[faults]``). A failed value test is *pinned* when every fault it reports is
a named mistake that maps to a behaviour of its stage, and that mistake was read off what the
answer returned, reproduced (never an exception, a probe of the future or values that merely sum
wrongly: see ``UNREPRODUCED_EVIDENCE``). Then the answer is, on that test's inputs, the
reference with exactly those mistakes: the other behaviours are backed by its values. The rubric
maps only mistakes that the grader names so (``[faults]``).

The stage then loses the shares of the pinned behaviours (each once, however many tests show it),
taken from its pinned tests in proportion to their points and never more than those points; a
failure pinned to nothing loses its whole test, as without partial credit. A failure with
several faults (a list, once the diagnosis reports each on its own) loses the sum of their shares.

Like ``dependencies``, this works on recorded outcomes in the trusted process.
"""

from __future__ import annotations

from collections.abc import Collection

from autograder.course import rubric
from autograder.findings.finding import REPRODUCED_FIELD, Finding
from autograder.records.jobs import TestOutcome
from autograder.records.results import BehaviourLoss, TestStatus

# Evidence that may name a mistake without reproducing the answer's output, and the mistakes it
# names so (None: evidence of a second fault, whatever is named). A mistake named beside it that
# it could not have named came from a reproduction (the catalogue's exact match); one that it could
# have named may be a guess: a probe that changed the input (a leak, sequences mixed), values that
# sum to 1 along another dim or not at all, a diagonal changed, every value 0, an input or a
# parameter changed in place.
UNREPRODUCED_EVIDENCE: dict[str, frozenset[str] | None] = {
    "evidence.future_changes_past": frozenset({"future_leak", "tokens_mixed_outside_weights"}),
    "evidence.future_keys_change_row": frozenset({"future_leak"}),
    "evidence.batch_mixed": frozenset({"batch_mixed"}),
    "evidence.batch_carried_over": frozenset({"batch_carried_over"}),
    "evidence.sums_along": frozenset({"softmax_wrong_dim", "normalised_wrong_dim"}),
    "evidence.sums_to": frozenset({"not_normalised"}),
    "evidence.diagonal_only": frozenset({"diagonal_changed"}),
    "evidence.all_zeros": frozenset(),
    "evidence.parameter_changed": None,
    "evidence.mistake_times_factor": None,
    "evidence.softmax_of_mistake": None,
    "evidence.random_between_calls": frozenset({"dropout_in_eval"}),
    "evidence.nan_as_mistake": frozenset({"mask_after_softmax_renormalised"}),
}
# The finding of a stage that calls a failing stage of the student's wraps what was found under this field.
_CALLED_STAGE_KEY, _FOUND_FIELD = "calls_failing_stage", "found"


def faults(found: Finding) -> list[Finding]:
    """The faults one failure reports: its finding and the further faults it carries (those of
    the one it wraps, when it points to a called stage first)."""
    inner = found.fields.get(_FOUND_FIELD)
    if found.key == _CALLED_STAGE_KEY and isinstance(inner, Finding):
        found = inner
    return found.all_faults()


def pinned_behaviours(outcome: TestOutcome) -> frozenset[str] | None:
    """The behaviours of its stage that a failed test's faults are pinned to; None when the failure
    is not pinned (it raised, ran out of time, named no mapped mistake, or named it from evidence
    that does not reproduce the output)."""
    shares = rubric.behaviour_shares(outcome.stage)
    if outcome.status is not TestStatus.FAILED or outcome.finding is None or not shares:
        return None
    behaviours = set()
    for fault in faults(outcome.finding):
        behaviour = rubric.fault_behaviours(outcome.stage).get(fault.mistake or "")
        if behaviour not in shares or not _reproduced(fault):
            return None
        behaviours.add(behaviour)
    return frozenset(behaviours)


# Evidence that the named mistakes, made together, reproduce the answer's output exactly.
REPRODUCED_TOGETHER = frozenset({"evidence.faults_together", "evidence.one_of_faults_together"})
# Evidence that a module's parameters are only kept otherwise: given the reference's weights in
# their place, it computes the reference's output or shows the faults that follow
# (``hidden.modules.with_faults_behind``), each judged on its own evidence.
PLACED_WEIGHTS = frozenset({"evidence.right_with_reference_weights", "evidence.right_without_what_it_lacks",
                            "evidence.right_with_heads_alike", "evidence.weights_placed"})


def _reproduced(fault: Finding) -> bool:
    """Whether the fault's named mistake can only have come from reproducing the answer's output.
    A fault of the parameters is named from their names and shapes, so it counts only with the
    evidence that, given the reference's weights in their place, the module computes the rest right
    or shows the other faults the failure reports."""
    if fault.key == "parameters":
        return any(note.key in PLACED_WEIGHTS for note in fault.notes)
    if fault.fields.get(REPRODUCED_FIELD):
        return True
    if any(note.key in REPRODUCED_TOGETHER for note in fault.notes) or _evidence_key(fault) in REPRODUCED_TOGETHER:
        return True
    if UNREPRODUCED_EVIDENCE.get(_evidence_key(fault) or "", ()) is None:
        return False  # a further fault stated from evidence that reproduces nothing (a factor on top)
    for note in fault.notes:
        if note.key in UNREPRODUCED_EVIDENCE:
            could_name = UNREPRODUCED_EVIDENCE[note.key]
            if could_name is None or fault.mistake in could_name:
                return False
    return True


def _evidence_key(fault: Finding) -> str | None:
    """The key of the evidence a further fault is stated with (``fault_seen``), if any."""
    evidence = fault.fields.get("evidence")
    return evidence.key if isinstance(evidence, Finding) else None


def _failed_values(outcomes: list[TestOutcome], behaviour_tests: Collection[str]) -> list[TestOutcome]:
    """The value tests that did not pass, on the CPU (a GPU instance carries no points)."""
    return [outcome for outcome in outcomes if outcome.device == "cpu" and outcome.function not in behaviour_tests
            and outcome.status is not TestStatus.PASSED]


def stages_pinned(outcomes: list[TestOutcome], behaviour_tests: Collection[str]) -> set[str]:
    """The stages whose values are right but for pinned faults: every failed value test of the
    stage is pinned. Their behaviour checks count (``dependencies.counted_behaviour_checks``): the
    values show a module that computes attention, not one that returns zeros."""
    failed = _failed_values(outcomes, behaviour_tests)
    return {outcome.stage for outcome in failed} - {outcome.stage for outcome in failed
                                                    if pinned_behaviours(outcome) is None}


def losses(assignment_id: str, outcomes: list[TestOutcome], points: dict[int, float]
           ) -> dict[int, tuple[BehaviourLoss, ...]]:
    """What each pinned failed test loses to each behaviour, by ``id(outcome)`` (``points``: each
    outcome's share of the rubric's points, by the same id). A test left out loses all it had."""
    behaviour_tests = rubric.behaviour_tests(assignment_id)
    pinned: dict[str, list[tuple[TestOutcome, frozenset[str]]]] = {}
    for outcome in _failed_values(outcomes, behaviour_tests):
        behaviours = pinned_behaviours(outcome)
        if behaviours is not None:
            pinned.setdefault(outcome.stage, []).append((outcome, behaviours))
    lost: dict[int, tuple[BehaviourLoss, ...]] = {}
    charged: dict[str, set[str]] = {}
    for stage, tests in pinned.items():
        shares = rubric.behaviour_shares(stage)
        value_points = rubric.value_points(assignment_id, stage)
        stage_behaviours = sorted(set().union(*(found for _, found in tests)), key=list(shares).index)
        owed = {behaviour: shares[behaviour] / 100 * value_points for behaviour in stage_behaviours}
        at_stake = sum(points[id(outcome)] for outcome, _ in tests)
        if not at_stake:
            continue
        # Each behaviour's share once, from the pinned tests in proportion to their points, never more than they hold.
        taken = min(1.0, at_stake / sum(owed.values()))
        for outcome, _ in tests:
            part = points[id(outcome)] / at_stake
            lost[id(outcome)] = tuple(BehaviourLoss(behaviour, round(part * owed[behaviour] * taken, 4))
                                      for behaviour in stage_behaviours)
        charged[stage] = set(stage_behaviours)
    lost.update(_behaviour_checks_already_charged(outcomes, behaviour_tests, charged))
    return lost


def _behaviour_checks_already_charged(outcomes: list[TestOutcome], behaviour_tests: Collection[str],
                                     charged: dict[str, set[str]]) -> dict[int, tuple[BehaviourLoss, ...]]:
    """The behaviour checks that failed for faults pinned to behaviours the stage's values already
    charge (a slip that stopped them and passed once repaired, plain-tensor weights that stay on the
    CPU): they lose nothing more (one fault costs its share once), each told with a loss of 0 to
    those behaviours."""
    kept = {}
    for outcome in outcomes:
        if outcome.device != "cpu" or outcome.function not in behaviour_tests or outcome.finding is None:
            continue
        behaviours = pinned_behaviours(outcome)
        if behaviours and behaviours <= charged.get(outcome.stage, set()):
            kept[id(outcome)] = tuple(BehaviourLoss(behaviour, 0.0) for behaviour in sorted(behaviours))
    return kept
