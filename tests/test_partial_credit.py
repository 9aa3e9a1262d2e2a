"""Partial credit, scored from recorded outcomes through the engine's own row builder: a failure
pinned to one behaviour of a big stage costs that behaviour's share, any other failure its whole
test, a stage whose failures show it misses its purpose keeps at most the rubric's share, and the
feedback page says what each behaviour, and the cap, cost in the notebook's language.

The outcomes are what the hidden tests record (one passed CPU instance per test function, then
some failed with the findings the grader gives); ``tests/test_hidden_tests.py`` grades real mutants.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from autograder.course import rubric
from autograder.feedback.page import feedback_html
from autograder.findings.finding import Finding, finding
from autograder.grading.engine import graded_row
from autograder.reading.notebook import ExtractedCode
from autograder.records.jobs import SubmissionRecord, TestOutcome
from autograder.records.results import PURPOSE, BehaviourLoss, GradedRow, RunTrust, TestStatus

ASSIGNMENT = "04_multi_head_attention"
STAGE = "MultiHeadAttention"
FORWARD, GRADIENTS, EQUALS = ("test_multi_head_attention_forward", "test_multi_head_attention_gradients",
                              "test_multi_head_attention_equals_the_wrapper")
EVAL = "test_multi_head_attention_has_no_dropout_in_eval_mode"
BEHAVIOUR_CHECK = "test_multi_head_attention_runs_on_meta_device"


def outcomes() -> list[TestOutcome]:
    """Every test function of the notebook, one CPU instance each, passed."""
    stage_of = rubric.stage_of_test_functions(ASSIGNMENT)
    return [TestOutcome(f"{function}[cpu]", function, stage_of[function], TestStatus.PASSED)
            for function in rubric.points_by_test(ASSIGNMENT)]


def values_differ(mistake: str | None, *notes: Finding) -> Finding:
    """A value comparison's finding, as ``hidden/compare.py`` raises it."""
    return finding("values_differ", mistake, what="MultiHeadAttention(...)", count=3, total=40, difference="0.2",
                   index="(0, 1, 2)", value="0.1").with_notes(*notes)


def graded(changed: dict[str, tuple[TestStatus, Finding]], language: str = "en") -> GradedRow:
    """The row of a notebook whose tests all passed but those ``changed`` (function -> status, finding)."""
    recorded = [replace(outcome, status=changed[outcome.function][0], finding=changed[outcome.function][1])
                if outcome.function in changed else outcome for outcome in outcomes()]
    return graded_row("student", ASSIGNMENT, SubmissionRecord(outcomes=recorded), ExtractedCode(language=language),
                      RunTrust(None), ["cpu"])


def stage_total(row: GradedRow):
    return next(total for total in row.stage_totals() if total.stage == STAGE)


def share(behaviour: str) -> float:
    return rubric.behaviour_shares(STAGE)[behaviour] / 100 * rubric.value_points(ASSIGNMENT, STAGE)


def test_all_passed_is_100_and_the_stage_keeps_its_points():
    row = graded({})
    assert row.score == row.max_score == 100
    assert stage_total(row).lost_to == ()


def test_a_fault_pinned_to_the_scale_costs_only_the_scales_share():
    pinned = (TestStatus.FAILED, values_differ("scaled_by_wrong_size", finding("evidence.scores_divided_by",
                                                                               divisor="3.464", forms="", right="")))
    row = graded({FORWARD: pinned, EQUALS: pinned})
    total = stage_total(row)
    assert total.lost_to == (BehaviourLoss("scale", round(share("scale"), 2)),)
    assert total.points == pytest.approx(total.max_points - share("scale"), abs=0.01)
    assert row.score == pytest.approx(100 - share("scale"), abs=0.01)
    # Its behaviour checks count: the values are the reference's but for the scale.
    assert all(test.passed for test in row.tests if test.name.startswith(BEHAVIOUR_CHECK))


def test_an_unpinned_failure_loses_its_whole_test_and_withholds_the_behaviour_checks():
    pinned = (TestStatus.FAILED, values_differ("scaled_by_wrong_size"))
    unpinned = (TestStatus.FAILED, values_differ(None))  # the gradient test's output: nothing named
    row = graded({FORWARD: pinned, GRADIENTS: unpinned})
    points = rubric.points_by_test(ASSIGNMENT)
    gradients = next(test for test in row.tests if test.name.startswith(GRADIENTS))
    assert (gradients.points, gradients.lost_to) == (0.0, ())
    forward = next(test for test in row.tests if test.name.startswith(FORWARD))
    assert forward.points == pytest.approx(points[FORWARD] - share("scale"), abs=1e-3)
    checks = [test for test in row.tests if test.stage == STAGE and test.name.split("[")[0] in
              rubric.behaviour_tests(ASSIGNMENT)]
    assert checks
    assert all(test.waiting and test.points == 0 for test in checks)


@pytest.mark.parametrize("failure", [
    (TestStatus.ERROR, values_differ("scaled_by_wrong_size")),  # it raised: the values were never seen
    (TestStatus.FAILED, values_differ("future_leak")),  # a probe's finding: not mapped
    (TestStatus.FAILED, values_differ(None, finding("evidence.all_zeros"))),  # zeros: nothing computed
    (TestStatus.FAILED, values_differ("softmax_wrong_dim", finding("evidence.sums_along", dim=-2, expected_dim=-1))),
    (TestStatus.FAILED, values_differ("scaled_by_wrong_size").with_faults(
        finding("modified_input_too", "input_modified_in_place", what="forward(x)", argument="x"))),
    (TestStatus.FAILED, values_differ("heads_summed")),  # a fault of the wrapper, not of this stage
], ids=["raised", "probe", "zeros", "only_sums_along", "second_fault", "other_stage"])
def test_a_failure_not_pinned_to_a_behaviour_of_its_stage_loses_the_whole_test(failure):
    row = graded({FORWARD: failure})
    forward = next(test for test in row.tests if test.name.startswith(FORWARD))
    assert (forward.points, forward.lost_to) == (0.0, ())
    # No behaviour's share is taken (the leak's cap on the stage is tested below).
    assert [loss for loss in stage_total(row).lost_to if loss.behaviour != PURPOSE] == []


def test_a_mistake_the_evidence_could_not_have_named_came_from_a_reproduction():
    """A leak seen by the probe, but the catalogue's exact match names the softmax's dim: pinned."""
    leak = finding("evidence.future_changes_past", position=0, later=1)
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("softmax_wrong_dim", leak))})
    # The softmax's share, then the leak's cap on the stage.
    assert stage_total(row).lost_to[0] == BehaviourLoss("softmax", round(share("softmax"), 2))
    assert [loss.behaviour for loss in stage_total(row).lost_to] == ["softmax", PURPOSE]


def parameters_transposed(*notes: Finding) -> Finding:
    """The parameters' finding of a module whose matrices have their dims swapped (``hidden/modules.py``)."""
    return finding("parameters", "parameter_transposed", what="MultiHeadAttention(...)",
                   problems=[finding("problems.wrong_shape", name="W_query.weight", actual_shape="(3, 4)",
                                     expected_shape="(4, 3)")]).with_notes(*notes)


def test_parameters_kept_otherwise_cost_the_projections_share_when_the_rest_is_right():
    """Matrices with swapped dims, in a module that computes the reference's output once given the
    reference's weights in their place, cost the projections' share (blind11/026 lost its stage)."""
    right_behind = finding("evidence.right_with_reference_weights")
    row = graded({FORWARD: (TestStatus.FAILED, parameters_transposed(right_behind))})
    assert stage_total(row).lost_to == (BehaviourLoss("projections", round(share("projections"), 2)),)


def test_parameters_kept_otherwise_lose_the_whole_test_without_the_evidence():
    """Named from their shapes alone, the parameters say nothing of what the module computes."""
    row = graded({FORWARD: (TestStatus.FAILED, parameters_transposed())})
    forward = next(test for test in row.tests if test.name.startswith(FORWARD))
    assert (forward.points, forward.lost_to) == (0.0, ())


def test_faults_of_two_behaviours_lose_the_sum_of_their_shares():
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("missing_out_proj")),
                  EQUALS: (TestStatus.FAILED, values_differ("scaled_by_wrong_size"))})
    total = stage_total(row)
    assert {loss.behaviour for loss in total.lost_to} == {"scale", "out_proj"}
    assert total.points == pytest.approx(total.max_points - share("scale") - share("out_proj"), abs=0.02)


def test_one_failure_reporting_two_faults_loses_the_sum_of_their_shares():
    """A failure whose further faults (``Finding.faults``) are pinned too loses each one's share;
    one further fault that is not pinned leaves the whole test lost."""
    both = values_differ("scaled_by_wrong_size").with_faults(values_differ("missing_out_proj"))
    total = stage_total(graded({FORWARD: (TestStatus.FAILED, both)}))
    assert {loss.behaviour for loss in total.lost_to} == {"scale", "out_proj"}
    assert total.points == pytest.approx(total.max_points - share("scale") - share("out_proj"), abs=0.02)
    unpinned = values_differ("scaled_by_wrong_size").with_faults(values_differ(None))
    row = graded({FORWARD: (TestStatus.FAILED, unpinned)})
    forward = next(test for test in row.tests if test.name.startswith(FORWARD))
    assert (forward.points, forward.lost_to) == (0.0, ())


def test_a_share_never_takes_more_than_the_pinned_tests_hold():
    """A fault that only a small test shows costs that test at most, never points of passed tests."""
    row = graded({EVAL: (TestStatus.FAILED, values_differ("mask_missing"))})
    in_eval = next(test for test in row.tests if test.name.startswith(EVAL))
    assert share("mask") > in_eval.max_points
    assert in_eval.points == 0.0
    assert sum(loss.points for loss in in_eval.lost_to) == pytest.approx(in_eval.max_points)
    assert row.score == 100 - in_eval.max_points


def test_scores_survive_the_results_json():
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("scaled_by_wrong_size"))})
    again = GradedRow.from_json(row.to_json())
    assert again.tests == row.tests
    assert again.stage_totals() == row.stage_totals()


@pytest.mark.parametrize(("language", "words"), [("en", "scale: \u22125.7 points"),
                                                 ("zh", "缩放：\u22125.7 分"),
                                                 ("pt", "escala: \u22125.7 pontos")])
def test_the_feedback_page_says_which_behaviour_cost_what_in_the_notebooks_language(language, words):
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("scaled_by_wrong_size"))}, language)
    assert share("scale") == pytest.approx(5.7)
    assert words in feedback_html(row)


def test_the_feedback_pages_loss_lines_add_up_to_all_the_stage_lost():
    """A fresh reviewer's MultiHeadAttention lost 40 points while its page listed only 5.7 and 3.8:
    beside the pinned behaviours, the page now says what the failures it could not pin and the
    checks waiting for right values cost, and the lines add up to the stage's loss."""
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("scaled_by_wrong_size")),
                  EVAL: (TestStatus.FAILED, values_differ(None))})
    total = stage_total(row)
    page = feedback_html(row)
    listed = [float(points) for points in re.findall(r"<li>[^<]*: \u2212([0-9.]+) points</li>", page)]
    assert len(listed) >= 2
    assert "other failing tests, each lost in full" in page
    assert sum(listed) == pytest.approx(total.max_points - total.points, abs=0.05)


@pytest.mark.parametrize(("assignment", "stage", "value_test"), [
    ("01_attention_scores", "softmax_stable", "test_softmax_stable"),
    ("03_causal_attention", "mask_and_renormalize", "test_mask_and_renormalize"),
    ("03_causal_attention", "inverted_dropout", "test_inverted_dropout_in_training")])
def test_a_function_that_returns_the_right_values_from_an_input_changed_in_place_loses_that_share(
        assignment, stage, value_test):
    """Fresh reviewers: mask_and_renormalize in place scored 0/10, softmax_stable 0/20. The values
    are the reference's, so only the input's share goes, and the stage's behaviour checks count."""
    changed = finding("modified_input", "input_modified_in_place", what=f"{stage}(x)", argument="x")
    stage_of = rubric.stage_of_test_functions(assignment)
    recorded = [TestOutcome(f"{function}[cpu]", function, stage_of[function],
                            TestStatus.FAILED if function == value_test else TestStatus.PASSED,
                            changed if function == value_test else None)
                for function in rubric.points_by_test(assignment)]
    row = graded_row("student", assignment, SubmissionRecord(outcomes=recorded), ExtractedCode(), RunTrust(None),
                     ["cpu"])
    total = next(total for total in row.stage_totals() if total.stage == stage)
    lost = rubric.behaviour_shares(stage)["input_kept"] / 100 * rubric.value_points(assignment, stage)
    assert total.lost_to == (BehaviourLoss("input_kept", round(lost, 2)),)
    assert total.points == pytest.approx(total.max_points - lost, abs=0.01)
    assert total.passed == total.total - 1


# -- a stage that misses its purpose: [purpose] -----------------------------------------------------
LEAK = finding("evidence.future_changes_past", position=0, later=1)
SCALE_EVIDENCE = finding("evidence.scores_divided_by", divisor="3.464", forms="", right="")


def test_a_leak_of_the_future_caps_the_stage_beside_the_share_its_named_fault_costs():
    """The scale is pinned (its share goes), and the leak beside it caps what the stage keeps."""
    failed = (TestStatus.FAILED, values_differ("scaled_by_wrong_size", SCALE_EVIDENCE, LEAK))
    row = graded({FORWARD: failed})
    total = stage_total(row)
    assert total.points == pytest.approx(rubric.purpose_keeps(STAGE) * total.max_points, abs=0.01)
    lost = dict((loss.behaviour, loss.points) for loss in total.lost_to)
    assert lost["scale"] == pytest.approx(share("scale"), abs=0.01)
    keeps = rubric.purpose_keeps(STAGE)
    assert lost[PURPOSE] == pytest.approx(total.max_points * (1 - keeps) - share("scale"), abs=0.02)
    assert row.score == pytest.approx(100 - total.max_points + total.points, abs=0.01)
    # The cap is taken from the tests that kept points, passed ones included, in proportion.
    assert all(test.points < test.max_points for test in row.tests if test.stage == STAGE and test.max_points)
    assert all(test.stage == STAGE for test in row.tests if any(loss.behaviour == PURPOSE for loss in test.lost_to))


@pytest.mark.parametrize("mistake", ["dropout_not_rescaled", "dropout_keep_probability"])
def test_inverted_dropout_with_another_factor_keeps_at_most_what_a_stage_missing_its_purpose_keeps(mistake):
    """reviews6: survivors never rescaled kept 12.4 of 18 points, though the factor is what the
    notebook has students work out; its checks of eval mode, p at 0 and 1 and the errors still
    count, up to the cap."""
    stage_of = rubric.stage_of_test_functions("03_causal_attention")
    recorded = [TestOutcome(f"{function}[cpu]", function, stage_of[function],
                            TestStatus.FAILED if function == "test_inverted_dropout_in_training" else TestStatus.PASSED,
                            values_differ(mistake) if function == "test_inverted_dropout_in_training" else None)
                for function in rubric.points_by_test("03_causal_attention")]
    row = graded_row("student", "03_causal_attention", SubmissionRecord(outcomes=recorded), ExtractedCode(),
                     RunTrust(None), ["cpu"])
    total = next(total for total in row.stage_totals() if total.stage == "inverted_dropout")
    assert total.points == pytest.approx(rubric.purpose_keeps("inverted_dropout") * total.max_points, abs=0.01)
    assert PURPOSE in {loss.behaviour for loss in total.lost_to}


def test_a_stage_whose_failures_show_no_leak_is_not_capped():
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("scaled_by_wrong_size", SCALE_EVIDENCE))})
    assert PURPOSE not in {loss.behaviour for loss in stage_total(row).lost_to}
    assert stage_total(row).points > rubric.purpose_keeps(STAGE) * stage_total(row).max_points


def test_a_leak_seen_only_on_an_accelerator_caps_nothing():
    """An instance on a GPU carries no points, so that a notebook scores the same on every machine."""
    gpu = TestOutcome(f"{FORWARD}[cuda]", FORWARD, STAGE, TestStatus.FAILED, values_differ("future_leak", LEAK),
                      device="cuda")
    row = graded_row("student", ASSIGNMENT, SubmissionRecord(outcomes=[*outcomes(), gpu]), ExtractedCode(),
                     RunTrust(None), ["cpu", "cuda"])
    assert row.score == 100


def test_a_cap_that_other_failures_already_reach_takes_nothing():
    lost_all = (TestStatus.FAILED, values_differ(None, LEAK))
    row = graded({function: lost_all for function in (FORWARD, GRADIENTS, EQUALS, EVAL)})
    total = stage_total(row)
    assert total.points <= rubric.purpose_keeps(STAGE) * total.max_points
    assert PURPOSE not in {loss.behaviour for loss in total.lost_to}


@pytest.mark.parametrize(("language", "words"), [("en", "keeps at most 50 % of its points"),
                                                 ("zh", "最多保留 50 %"),
                                                 ("pt", "fica com no máximo 50 % dos seus pontos")])
def test_the_feedback_page_says_what_the_cap_took_in_the_notebooks_language(language, words):
    row = graded({FORWARD: (TestStatus.FAILED, values_differ("scaled_by_wrong_size", SCALE_EVIDENCE, LEAK))}, language)
    page = feedback_html(row)
    assert words in page
    taken = sum(loss.points for loss in stage_total(row).lost_to if loss.behaviour == PURPOSE)
    assert taken > 0
    assert f"{taken:g}" in page
