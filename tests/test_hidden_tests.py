"""The hidden tests grade right: through the grading engine, correct notebooks in any idiom
earn full marks, untouched stubs earn zero, and every mutant loses points where expected.

The whole class (solutions, stubs, alternative idioms and every mutant of every notebook) is
graded in one call of the engine, once per session.
"""

from __future__ import annotations

import ast
import functools

import pytest
from meta_class import ALTERNATIVES, COMPOSITIONS, alternative_answers
from mutations import CORPUS, Mutation
from wrong_answers import WRONG_ANSWERS

from autograder.course import rubric
from autograder.feedback.page import feedback_html
from autograder.findings.english import SENTENCES
from autograder.grading.dependencies import STANDS_IN_FOR
from autograder.notebooks.variants import (
    load_solution,
    solved_source,
)
from autograder.records.results import PURPOSE, GradedRow
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages, assignment_of
from autograder.student.mistakes import MISTAKES as MESSAGES

# The meta-class (conftest's ``graded``) is graded once per session: its users share a worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("meta-class")]


@functools.cache
def stage_calls() -> dict[str, set[str]]:
    """For each stage, the other graded stages that its solution calls."""
    calls = {}
    for assignment_id, stages in STAGES_BY_ASSIGNMENT.items():
        solution = load_solution(assignment_id)
        for stage in stages:
            tree = ast.parse(solved_source(solution, stage))
            names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
            calls[stage] = (names & set(stages)) - {stage}
    return calls


def test_every_stage_the_notebooks_compose_is_stood_in():
    """A stage built on other graded stages is graded with stand-ins for them (ARCHITECTURE.md,
    "Fairness"): the solutions' compositions, and the modules exercise 3.1 copies between."""
    composed = {stage: called for stage, called in stage_calls().items() if called}
    assert composed == {stage: called for stage, called in STANDS_IN_FOR.items()
                        if stage != "copy_v2_weights_into_v1"}
    assert STANDS_IN_FOR["copy_v2_weights_into_v1"] == {"SelfAttention_v1", "SelfAttention_v2"}


def points_by_stage(row: GradedRow) -> dict[str, float]:
    points: dict[str, float] = {}
    for test in row.tests:
        points[test.stage] = points.get(test.stage, 0.0) + test.points
    return points


def grader_failures(row: GradedRow) -> list[str]:
    """Messages of tests that tripped over the grader itself rather than the student's code."""
    return [test.message() for test in row.tests if "The grader could not check" in test.message()]


def unpassed(row: GradedRow) -> list[str]:
    return [f"{test.name}: {test.status}: {test.message()}" for test in row.tests
            if test.status != "passed"]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_solutions_earn_full_marks(graded, assignment_id):
    row = graded[("solution", assignment_id)]
    assert row.status.text() == "graded"
    assert row.score == row.max_score == 100, unpassed(row)
    assert {test.stage for test in row.tests} == set(STAGES_BY_ASSIGNMENT[assignment_id])


@pytest.mark.parametrize("path", ALTERNATIVES, ids=lambda path: path.stem)
def test_correct_answers_in_other_styles_earn_full_marks(graded, path):
    """Behaviour over form: every correct answer earns 100, whatever its idiom, buffer names and
    shapes, dtype of the result or extra dropout (ARCHITECTURE.md, "Fairness")."""
    assignment_id, _ = alternative_answers(path)
    row = graded[(f"alternative_{path.stem}", assignment_id)]
    assert row.status.text() == "graded"
    assert row.score == row.max_score == 100, unpassed(row)


def test_every_stage_has_correct_answers_in_several_styles():
    styles_by_stage: dict[str, int] = {}
    for path in ALTERNATIVES:
        for stage in alternative_answers(path)[1]:
            styles_by_stage[stage] = styles_by_stage.get(stage, 0) + 1
    assert len(ALTERNATIVES) >= 34
    assert {stage for stage, count in styles_by_stage.items() if count >= 2} == set(all_stages()), styles_by_stage


def test_the_books_loops_earn_full_marks_with_a_note_worth_fixing(graded):
    """A correct answer keeps full marks whatever its form (ARCHITECTURE.md, "Fairness"); what
    notebook 1 asks in words and does not charge (no Python loop in the scores, a result in its
    inputs' dtype and device) is still told, in a note for no points. The solution gets none."""
    row = graded[("alternative_01_book_loops", "01_attention_scores")]
    assert row.score == row.max_score
    notes = {test.stage: {problem.key for problem in test.finding.fields["problems"]} for test in row.tests
             if test.passed and test.finding is not None and test.finding.key == "note.worth_fixing"}
    for stage in ("attention_scores_for_query", "attention_scores"):
        assert notes[stage] == {"worth_fixing.dtype", "worth_fixing.device", "worth_fixing.python_loop"}, notes
    assert "Not graded, but worth fixing: attention_scores(inputs) returns torch.float32" in feedback_html(row)
    total = stage_total(row, "attention_scores")  # the note is shown, but is no test to pass
    assert total.total == len([test for test in row.tests if test.stage == "attention_scores" and test.max_points])
    assert total.total < len([test for test in row.tests if test.stage == "attention_scores"])
    assert not [test.name for test in graded[("solution", "01_attention_scores")].tests if test.finding is not None]


def test_a_loop_stage_without_its_loop_earns_full_marks_with_a_note(graded):
    """causal_average_loop asks for the loop the stages after it replace: running sums (cumsum)
    are right and keep every point, and the note says that the stage wanted the loop; the
    solution's loop gets no note."""
    def loop_notes(row: GradedRow) -> set[str]:
        return {problem.key for test in row.tests if test.stage == "causal_average_loop" and test.finding is not None
                and test.finding.key == "note.worth_fixing" for problem in test.finding.fields["problems"]}

    row = graded[("alternative_03_cumulative_sums", "03_causal_attention")]
    assert row.score == row.max_score, unpassed(row)
    assert "worth_fixing.loop_asked" in loop_notes(row)
    assert "worth_fixing.loop_asked" not in loop_notes(graded[("solution", "03_causal_attention")])


def test_forms_the_notebook_asks_for_in_words_are_noted_for_no_points(graded):
    """Notebook 3 asks for a running mean as one matrix product, a masked softmax in one pass and the
    mask as a buffer (as notebook 4 does): right values in other forms keep every point, and a note says what the
    notebook asked for. Forms that compute a matrix product or a softmax another way (einsum, scaled
    dot-product attention, exp and a sum by hand) and the solution get none. (The running mean
    through a softmax is what its stage is for, and is charged.)"""
    def notes(style: str, assignment: str = "03_causal_attention") -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for test in graded[(style, assignment)].tests:
            if test.finding is not None and test.finding.key == "note.worth_fixing":
                found.setdefault(test.stage, set()).update(problem.key for problem in test.finding.fields["problems"])
        return found

    forms = {"worth_fixing.renormalised", "worth_fixing.no_buffer", "worth_fixing.no_matrix_product"}
    told = notes("alternative_03_forms_told_in_notes")
    assert graded[("alternative_03_forms_told_in_notes", "03_causal_attention")].score == 100
    assert "worth_fixing.renormalised" in told["masked_softmax"]
    assert "worth_fixing.no_matrix_product" in told["causal_average_matmul"]
    assert "worth_fixing.no_buffer" in notes("alternative_03_mask_in_forward")["CausalAttention"]
    # MultiHeadAttention's contract registers its mask too: nanoGPT's flash path has none (notebook 4's review).
    assert "worth_fixing.no_buffer" in notes("alternative_04_flash_attention", "04_multi_head_attention")[
        "MultiHeadAttention"]
    assert "worth_fixing.no_buffer" not in notes("solution", "04_multi_head_attention").get("MultiHeadAttention", set())
    for style in ("solution", "alternative_03_sdpa_is_causal", "alternative_03_renormalised_weights",
                  "alternative_03_einsum_and_bmm"):
        said = notes(style)
        assert not said.get("causal_average_matmul", set()) & forms, (style, said)
        assert not said.get("causal_average_softmax", set()) & forms, (style, said)
        assert not said.get("masked_softmax", set()) & forms, (style, said)
    assert not set().union(*notes("solution").values(), set()) & forms


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_untouched_stubs_earn_zero(graded, assignment_id):
    row = graded[("stubs", assignment_id)]
    assert row.status.text() == "graded"
    assert row.score == 0
    assert len(row.tests) == len(graded[("solution", assignment_id)].tests)
    for test in row.tests:
        assert test.status in ("failed", "error"), test
        # Every test reached the student's stub; none tripped over the grader itself.
        assert "NotImplementedError" in test.message(), test


@pytest.mark.parametrize("mutation", CORPUS, ids=lambda mutation: mutation.name)
def test_mutant_loses_points_only_where_expected(graded, mutation: Mutation):
    """One mistake, one deduction: a mutant loses points in its own stage and in no other, not
    even in the stages that call it (each is graded on its own: ARCHITECTURE.md, "Fairness")."""
    row = graded[(mutation.name, mutation.assignment)]
    full = points_by_stage(graded[("solution", mutation.assignment)])
    points = points_by_stage(row)
    assert points[mutation.stage] < full[mutation.stage], (
        f"{mutation.name} kept all points of {mutation.stage}")
    assert not grader_failures(row)
    lost_elsewhere = {stage: points[stage] for stage in points
                      if stage != mutation.stage and points[stage] < full[stage]}
    assert not lost_elsewhere, (lost_elsewhere, unpassed(row))


def named_mistakes(graded, mutation) -> set[str]:
    """The mistakes the feedback names on the tests of the mutant's stage."""
    row = graded[(mutation.name, mutation.assignment)]
    return set().union(*(test.finding.mistakes() for test in row.tests
                         if test.stage == mutation.stage and test.finding is not None))


@pytest.mark.parametrize("mutation", CORPUS, ids=lambda mutation: mutation.name)
def test_feedback_names_no_mistake_that_was_not_made(graded, mutation: Mutation):
    """A hint only where the evidence supports one: never another mistake than the mutant's (or one
    its code also makes, ``also_named``)."""
    assert named_mistakes(graded, mutation) <= {mutation.mistake, *mutation.also_named}


def test_feedback_names_the_actual_mistake_of_most_of_the_corpus(graded):
    """Feedback that teaches: at least 95% of the corpus of 100 or more mistakes (every one
    labelled with the mistake it makes) get a message that names that mistake, in its words."""
    named = [mutation for mutation in CORPUS if mutation.mistake in named_mistakes(graded, mutation)]
    for mutation in named:
        row = graded[(mutation.name, mutation.assignment)]
        assert any(MESSAGES[mutation.mistake] in test.message() for test in row.tests), mutation.name
    unnamed = sorted(mutation.name for mutation in CORPUS if mutation not in named)
    rate = len(named) / len(CORPUS)
    print(f"named {len(named)} of {len(CORPUS)} mistakes ({rate:.0%}); not named: {', '.join(unnamed)}")
    assert len(CORPUS) >= 100
    assert rate >= 0.95, (f"{rate:.0%}", unnamed)


DEVICE_MISTAKES = {"device_not_followed", "mask_plain_attribute"}


@pytest.mark.parametrize("mutation", [mutation for mutation in CORPUS if mutation.mistake in DEVICE_MISTAKES],
                         ids=lambda mutation: mutation.name)
def test_every_device_mistake_fails_the_stand_in_gpu(graded, mutation):
    """The device checks run each stage on fake tensors that check every operation's devices, in-place
    ones included (autograder.worker.fake_gpu): every device mistake of the corpus fails there, while
    every correct idiom passes (test_correct_answers_in_other_styles_earn_full_marks)."""
    row = graded[(mutation.name, mutation.assignment)]
    device_checks = [test for test in row.tests if test.stage == mutation.stage and "meta_device" in test.name]
    assert device_checks
    assert any(not test.passed and test.finding.mistake in DEVICE_MISTAKES for test in device_checks), [
        test.message() for test in device_checks]


# The misdiagnoses of a reviewer's list and the vague messages on real code (issue 23), each a
# mistake of the corpus: the one mistake its feedback names, and no bare exception without a hint.
REVIEWED = {
    "scores_scaled_by_tokens": "scaled_by_wrong_size",  # keys.shape[1] was told "keys.T on a batch"
    "matmul_upper_triangle": "mask_swapped",  # these three were told "rows were not normalised"
    "matmul_weights_transposed": "weights_transposed",
    "matmul_normalised_by_columns": "normalised_wrong_dim",
    "dropout_in_place": "input_modified_in_place",  # was told "survivors were not rescaled"
    "wrapper_one_shared_head": "shared_head",  # was told to concatenate along the last dim
    "wrapper_2d_one_head": "one_head_of_two_features",
    "split_wrong_transpose": "wrong_transpose",  # was told "split with view alone"
    "attention_keys_T": "keys_T_on_batch",  # these two got only a raw RuntimeError
    "attention_lecture_head_keys_T": "keys_T_on_batch",
    "attention_mask_not_cropped": "mask_not_sliced",
    "v2_unscaled": "no_sqrt_scaling",  # SelfAttention_v2's mistakes all got one sentence
    "v2_values_from_keys": "wrong_projection",
    "v2_softmax_dim0": "softmax_wrong_dim",
    "v2_scores_transposed": "scores_transposed",
    "v2_bias_ignored": "qkv_bias_ignored",
    "stable_subtracts_mean": "softmax_shift_not_max",  # the self-checks passed it
    "scores_einsum_for_three_dims": "fixed_rank",  # the vague ones on real code
    "masked_softmax_tokens_from_first_dim": "batch_dims_not_handled",
    "masked_softmax_dim_one": "softmax_wrong_dim",
    "multi_head_merges_the_weights": "merged_weights",
    "renormalize_zeroes_in_place": "input_modified_in_place",
    "mask_true_means_visible": "mask_inverted",
    "attention_sdpa_given_the_hidden_mask": "sdpa_mask_inverted",
    "gpt2_with_qkv_bias": "gpt2_qkv_bias",
}


@pytest.mark.parametrize(("name", "mistake"), REVIEWED.items())
def test_reviewed_misdiagnoses_name_the_real_mistake(graded, name, mistake):
    mutation = next(mutation for mutation in CORPUS if mutation.name == name)
    assert mutation.mistake == mistake
    assert named_mistakes(graded, mutation) == {mistake}
    row = graded[(mutation.name, mutation.assignment)]
    bare = [test.message() for test in row.tests if test.stage == mutation.stage and test.finding is not None
            and test.finding.key == "raised" and not test.finding.mistakes()]
    assert not bare


def _mutant_row(graded, name: str) -> tuple[Mutation, GradedRow]:
    mutation = next(mutation for mutation in CORPUS if mutation.name == name)
    return mutation, graded[(mutation.name, mutation.assignment)]


def test_a_leak_through_the_heads_is_not_told_as_a_missing_mask(graded):
    """A module that masks its weights right but cuts its heads with view alone leaks the future
    through the heads: the grader points at the split, never at the mask it has (blind11/091,
    whose leak no catalogue output reproduces, is told by ``heads_leak_cause``: tests/test_diagnosis.py)."""
    mutation, row = _mutant_row(graded, "multi_head_views_heads_inline")
    messages = [test.message() for test in row.tests if test.stage == mutation.stage and not test.passed]
    assert any(MESSAGES["view_without_transpose"] in message for message in messages), messages
    assert not any(MESSAGES["future_leak"] in message for message in messages), messages


def test_a_mask_not_cut_to_the_tokens_costs_the_forward_tests_and_not_dropout(graded):
    """The dropout tests build their module for exactly as many tokens as they feed it: a mask not
    cut to T raises in the forward tests, which charge it, and dropout done right keeps its points
    (blind11/065, where it hid dropout on the context)."""
    mutation, row = _mutant_row(graded, "attention_mask_not_cropped")
    dropout_tests = [test for test in row.tests if test.stage == mutation.stage and "dropout" in test.name]
    assert dropout_tests
    assert all(test.passed for test in dropout_tests), [test.message() for test in dropout_tests if not test.passed]
    assert not all(test.passed for test in row.tests if test.stage == mutation.stage)


def test_a_copy_with_the_same_mistake_in_every_matrix_tells_it_once(graded):
    """All three matrices copied without their transpose: the first is told with its values and the
    mistake, the other two are named beside it, not told again, value by value, once per matrix."""
    mutation, row = _mutant_row(graded, "copy_without_transpose")
    messages = [test.message() for test in row.tests if test.stage == mutation.stage and not test.passed]
    assert messages
    for message in messages:
        if MESSAGES["copy_without_transpose"] in message:
            assert message.count(MESSAGES["copy_without_transpose"]) == 1, message
            assert "The same holds for sa_v1.W_key, sa_v1.W_value." in message, message


def test_no_text_says_gpt2_has_no_qkv_bias():
    """Notebook 04 rightly says OpenAI's GPT-2 weights use qkv_bias=True: the exercise's layer has
    none because the exercise says so, and the words say that."""
    for text in (MESSAGES["gpt2_qkv_bias"], SENTENCES["built_differently"]):
        assert "has no bias" not in text
        assert "no qkv bias" not in text
    assert "qkv_bias=False" in MESSAGES["gpt2_qkv_bias"]
    assert "OpenAI's released GPT-2 weights do have those biases" in MESSAGES["gpt2_qkv_bias"]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_untouched_stubs_are_told_not_implemented_yet(graded, assignment_id):
    """A stub is no error of the student's: every test says "not implemented yet", in its label too,
    and no stub is told to fix another stage first."""
    row = graded[("stubs", assignment_id)]
    assert {test.finding.key for test in row.tests} == {"not_implemented"}
    page = feedback_html(row)
    assert "Not implemented yet" in page
    assert "Your code raised an error" not in page


def test_a_later_redefinition_is_ignored_and_reported(graded):
    """The notebooks' grading contract: a scratch definition of a graded name outside its answer
    cell changes nothing, and the student is told it was ignored."""
    row = graded[("scratch_redefinition", "01_attention_scores")]
    assert row.score == 100, unpassed(row)
    assert [note.key for note in row.notes] == ["note.ignored_definition"]
    assert "softmax_naive is defined again in code cell" in str(row.notes[0])
    page = feedback_html(row)
    assert "How your notebook was read:" in page
    assert "softmax_naive is defined again in code cell" in page


@pytest.mark.parametrize(("mutation_name", "stage"), [("attention_returns_zeros", "CausalAttention")])
def test_behaviour_checks_earn_nothing_without_right_values(graded, mutation_name, stage):
    """A module that returns zeros "hides the future" and "runs on meta": none of it counts. (A
    split_heads without its transpose is a fault of its heads' layout, pinned to that share since
    the stage shares its points: its behaviour checks count beside it.)"""
    row = graded[(mutation_name, assignment_of(stage))]
    assert points_by_stage(row)[stage] == 0, unpassed(row)
    assert any(test.finding is not None and test.finding.key == "counts_with_values" for test in row.tests
               if test.stage == stage)


def stage_total(row: GradedRow, stage: str):
    return next(total for total in row.stage_totals() if total.stage == stage)


@pytest.mark.parametrize(("mutation_name", "stage", "behaviour"), [
    ("multi_head_scaled_by_d_out", "MultiHeadAttention", "scale"),
    ("multi_head_without_out_proj", "MultiHeadAttention", "out_proj"),
    ("multi_head_without_dropout", "MultiHeadAttention", "dropout"),
    ("attention_scaled_by_d_in", "CausalAttention", "scale"),
    ("v2_unscaled", "SelfAttention_v2", "scale"),
    # Function stages: the right values from an input changed in place; a wrong dropout scale.
    ("naive_exp_in_place", "softmax_naive", "input_kept"),
    ("stable_shifts_in_place", "softmax_stable", "input_kept"),
    ("renormalize_in_place", "mask_and_renormalize", "input_kept"),
    ("masked_softmax_in_place", "masked_softmax", "input_kept"),
    ("dropout_in_place", "inverted_dropout", "input_kept"),
])
def test_a_pinned_fault_costs_only_its_behaviours_share(graded, mutation_name, stage, behaviour):
    """The grader reproduced the output as the reference's with this one mistake: its tests lose
    that behaviour's share of the stage's value points (at most what they hold), every other failed
    test of the stage loses all of its own, and nothing else is taken."""
    assignment_id = assignment_of(stage)
    row = graded[(mutation_name, assignment_id)]
    total = stage_total(row, stage)
    assert [loss.behaviour for loss in total.lost_to] == [behaviour], unpassed(row)
    failed = [test for test in row.tests if test.stage == stage and not test.passed and test.max_points]
    pinned = [test for test in failed if test.lost_to]
    assert all(test.points == 0 for test in failed if not test.lost_to)
    owed = rubric.behaviour_shares(stage)[behaviour] / 100 * rubric.value_points(assignment_id, stage)
    lost = sum(loss.points for test in pinned for loss in test.lost_to)
    assert lost == pytest.approx(min(owed, sum(test.max_points for test in pinned)), abs=1e-3)
    unpinned_points = sum(test.max_points for test in failed if not test.lost_to)
    assert total.points == pytest.approx(total.max_points - lost - unpinned_points, abs=0.01)
    assert total.points > 0


@pytest.mark.parametrize(("mutation_name", "stage", "behaviour"), [
    ("multi_head_softmax_dim2", "MultiHeadAttention", "softmax"),
    ("attention_mask_after_softmax", "CausalAttention", "mask"),  # masked after the softmax, never renormalised
    ("v2_softmax_dim0", "SelfAttention_v2", "softmax"),  # no attention: each query's weights must sum to 1
    ("dropout_rescaled_by_p", "inverted_dropout", "dropout"),  # the factor the stage is for (reviews6)
])
def test_a_pinned_fault_that_misses_the_stages_purpose_caps_the_stage(graded, mutation_name, stage, behaviour):
    """A softmax along the queries, or a mask after it, lets later tokens change earlier outputs
    (and in v2 leaves no attention): the behaviour's share goes, and the stage keeps at most the
    rubric's share for missing its purpose (``[purpose]``), the cap taken last."""
    row = graded[(mutation_name, assignment_of(stage))]
    total = stage_total(row, stage)
    assert [loss.behaviour for loss in total.lost_to] == [behaviour, PURPOSE], unpassed(row)
    assert total.points == pytest.approx(rubric.purpose_keeps(stage) * total.max_points, abs=0.01), unpassed(row)
    assert points_by_stage(row)[stage] == pytest.approx(total.points, abs=1e-3)


# (keys.T on a batch, which crashes, is repaired and pinned since: tests/test_repairs.py.)
@pytest.mark.parametrize(("mutation_name", "stage"), [("attention_returns_zeros", "CausalAttention"),
                                                     ("v1_key_matrix_transposed", "SelfAttention_v1")])
def test_a_fault_the_evidence_does_not_pin_loses_every_test_it_fails(graded, mutation_name, stage):
    """Zeros (nothing named), parameters of another shape (the values never computed with the
    reference's weights): no test keeps a share."""
    row = graded[(mutation_name, assignment_of(stage))]
    assert stage_total(row, stage).points == 0, unpassed(row)
    assert not any(test.lost_to for test in row.tests)


@pytest.mark.parametrize(("mutation_name", "stage", "behaviour"), [
    ("multi_head_scaled_by_d_out", "MultiHeadAttention", "scale"),
    ("attention_scaled_by_d_in", "CausalAttention", "scale"),
    ("v2_unscaled", "SelfAttention_v2", "scale"),
])
def test_the_gradient_tests_are_pinned_to_the_fault_the_forward_names(graded, mutation_name, stage, behaviour):
    """The training-mode output of a gradient test is read like the forward's: a wrong scale costs
    its share once (5.7 points of MultiHeadAttention, not all of its gradient tests lost)."""
    assignment_id = assignment_of(stage)
    row = graded[(mutation_name, assignment_id)]
    gradients = [test for test in row.tests if test.stage == stage and "gradients" in test.name and not test.passed]
    assert gradients, unpassed(row)
    assert all([loss.behaviour for loss in test.lost_to] == [behaviour] for test in gradients), unpassed(row)
    total = stage_total(row, stage)
    owed = rubric.behaviour_shares(stage)[behaviour] / 100 * rubric.value_points(assignment_id, stage)
    assert total.max_points - total.points == pytest.approx(owed, abs=0.01), unpassed(row)


def test_the_feedback_page_says_what_the_scale_cost(graded):
    row = graded[("multi_head_scaled_by_d_out", "04_multi_head_attention")]
    assert "scale: \u22125.7 points" in feedback_html(row)


# The rows of issue 40's table: a mistake in a stage that another stage calls, that stage, and the
# stage its note names.
OWN_STAGE_NOTES = [
    ("split_without_transpose", "MultiHeadAttention", "split_heads"),
    ("split_without_transpose", "gpt2_small_attention", "split_heads"),
    ("merge_without_contiguous", "MultiHeadAttention", "merge_heads"),
    ("merge_without_contiguous", "gpt2_small_attention", "merge_heads"),
    ("multi_head_scaled_by_d_out", "gpt2_small_attention", "MultiHeadAttention"),
    ("v2_bias_ignored", "copy_v2_weights_into_v1", "SelfAttention_v2"),
    ("wrapper_plain_list", "wrapper_with_2d_output", "MultiHeadAttentionWrapper"),
]


def own_stage_notes(row: GradedRow, stage: str) -> list:
    return [test.finding for test in row.tests if test.stage == stage and test.finding is not None
            and test.finding.key == "note.own_stage_breaks"]


@pytest.mark.parametrize(("mutation_name", "stage", "culprit"), OWN_STAGE_NOTES)
def test_a_stage_calling_a_broken_stage_keeps_its_points_and_names_it_in_a_note(graded, mutation_name, stage,
                                                                               culprit):
    """With the student's own called stage, the calling stage does not work: it keeps its points
    (graded with stand-ins), and a note, costing nothing, names the stage to fix."""
    row = graded[(mutation_name, assignment_of(stage))]
    assert points_by_stage(row)[stage] == points_by_stage(graded[("solution", assignment_of(stage))])[stage]
    notes = own_stage_notes(row, stage)
    assert notes, unpassed(row)
    assert {note.fields["stages"] for note in notes} == {culprit}
    assert f"With your own {culprit}, {stage} does not give the right result" in str(notes[0])
    assert not own_stage_notes(graded[("solution", assignment_of(stage))], stage)


@pytest.mark.parametrize(("name", "assignment_id", "culprit", "callers"),
                         [composition[:4] for composition in COMPOSITIONS], ids=[c[0] for c in COMPOSITIONS])
def test_a_stage_calling_a_wrong_stage_of_its_own_accord_keeps_its_points_and_says_why(
        graded, name, assignment_id, culprit, callers):
    """A simple_self_attention calling the student's softmax_naive, a SelfAttention_v1 calling their
    scaled_dot_product_scores, a CausalAttention calling their masked_softmax: the called stage
    loses its points, the callers keep all of theirs (gradients, meta device and device checks
    included), graded with the reference answering the calls, and a note says so."""
    row, solution = graded[(name, assignment_id)], graded[("solution", assignment_id)]
    points = points_by_stage(row)
    assert points[culprit] < points_by_stage(solution)[culprit], unpassed(row)
    for stage in callers:
        assert points[stage] == points_by_stage(solution)[stage], unpassed(row)
        notes = [test.finding for test in row.tests if test.stage == stage and test.finding is not None
                 and test.finding.key == "note.graded_with_correct_stages"]
        assert notes, unpassed(row)
        assert {note.fields["stages"] for note in notes} == {culprit}
    assert {stage for stage, earned in points.items() if earned < points_by_stage(solution)[stage]} == {culprit}


def test_the_corpus_covers_every_stage_and_labels_every_mistake():
    assert {mutation.stage for mutation in CORPUS} == set(all_stages())
    assert {mutation.stage for mutation in WRONG_ANSWERS} == set(all_stages())
    assert len({mutation.name for mutation in CORPUS}) == len(CORPUS)
    for mutation in CORPUS:
        assert mutation.mistake is None or mutation.mistake in MESSAGES, mutation
    assert sum(mutation.mistake is None for mutation in CORPUS) <= 1  # a module that returns zeros
