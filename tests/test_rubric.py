"""The rubric covers every hidden test, the documentation's Points page shows its current points, and its
partial-credit tables (behaviours and their shares, the faults of each) add up and name what exists."""

import re

from autograder.course import rubric
from autograder.feedback.page import PAGE_TEXT, page_text
from autograder.findings.english import SENTENCES
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.mistakes import MISTAKES

POINTS_PAGE = KIT_ROOT / "docs" / "grading" / "points.md"


def test_every_stage_earns_points_and_every_notebook_is_worth_100():
    for assignment_id, stages in STAGES_BY_ASSIGNMENT.items():
        stage_of = rubric.stage_of_test_functions(assignment_id)
        points = rubric.points_by_test(assignment_id)
        assert {stage_of[name] for name in points} == set(stages)
        assert rubric.max_score(assignment_id) == 100


def test_the_points_page_is_up_to_date():
    page = POINTS_PAGE.read_text()
    assert rubric.points_table() in page, (
        "docs/grading/points.md is stale: paste the table that `python -m autograder.course.rubric` prints into it")


def test_the_points_page_names_the_rubric_where_it_is():
    page = POINTS_PAGE.read_text()
    named = re.findall(r"`(autograder/[\w/.]+\.toml)`", page[: page.index("|")])
    assert named, "the Points page names no rubric file before its table"
    assert all((KIT_ROOT / path).is_file() for path in named), named


# -- partial credit: [behaviours.<stage>] and [faults] ----------------------------------------------
def _shared_stages() -> dict[str, str]:
    """Each stage the rubric shares out among behaviours, with its assignment."""
    return {stage: assignment_id for assignment_id, stages in STAGES_BY_ASSIGNMENT.items() for stage in stages
            if rubric.behaviour_shares(stage)}


def test_the_attention_modules_share_their_value_points_among_behaviours():
    assert {"SelfAttention_v1", "SelfAttention_v2", "CausalAttention", "MultiHeadAttentionWrapper",
            "MultiHeadAttention"} <= set(_shared_stages())


def test_every_share_table_sums_to_100_percent_of_a_stage_with_value_points():
    tables = rubric._table()["behaviours"]
    assert set(tables) == set(_shared_stages()), "a [behaviours.<stage>] table names no stage of the curriculum"
    for stage, assignment_id in _shared_stages().items():
        shares = rubric.behaviour_shares(stage)
        assert sum(shares.values()) == 100, (stage, shares)
        assert all(share > 0 for share in shares.values()), (stage, shares)
        assert rubric.value_points(assignment_id, stage) > 0, stage


def test_every_mapped_mistake_exists_and_is_a_fault_of_one_behaviour():
    table = rubric._table()["faults"]
    faults = {behaviour: mistakes for behaviour, mistakes in table.items() if isinstance(mistakes, list)}
    mapped = [mistake for mistakes in faults.values() for mistake in mistakes]
    assert len(mapped) == len(set(mapped)), "a mistake is listed under two behaviours"
    assert set(mapped) <= set(MISTAKES), set(mapped) - set(MISTAKES)
    shared = {behaviour for stage in _shared_stages() for behaviour in rubric.behaviour_shares(stage)}
    assert set(faults) <= shared, f"behaviours no stage has: {set(faults) - shared}"
    for stage, own in ((stage, own) for stage, own in table.items() if isinstance(own, dict)):
        assert stage in _shared_stages(), f"[faults.{stage}] names no stage that shares its points"
        assert set(own) <= set(rubric.behaviour_shares(stage)), (stage, set(own))
        own_mapped = [mistake for mistakes in own.values() for mistake in mistakes]
        assert len(own_mapped) == len(set(own_mapped)), (stage, own_mapped)
        assert set(own_mapped) <= set(MISTAKES), (stage, own_mapped)


def test_a_stage_reads_a_mistake_by_its_own_table_where_it_has_one():
    """Zeroing the future after the softmax is a fault of the mask in a module, and of the
    renormalisation in mask_and_renormalize, whose mask is then right."""
    assert rubric.fault_behaviours("CausalAttention")["mask_after_softmax"] == "mask"
    assert rubric.fault_behaviours("mask_and_renormalize")["mask_after_softmax"] == "renormalisation"
    assert rubric.fault_behaviours("mask_and_renormalize")["mask_swapped"] == "mask"


def test_no_mistake_named_without_reproducing_the_output_is_mapped():
    """A leak found by a probe, values that merely do not sum to 1, a constant factor of no known
    cause: none says what the rest of the code does, so none may keep the rest of a test's points."""
    named_from_probes_or_sums = {"future_leak", "batch_mixed", "batch_carried_over", "not_normalised",
                                 "normalised_wrong_dim", "constant_factor", "diagonal_changed"}
    assert not named_from_probes_or_sums & set(rubric.fault_behaviours())


def test_the_purpose_caps_name_stages_and_findings_that_exist():
    """A typo in ``[purpose]`` would cap nothing, silently: every stage and key must be real."""
    stages = {stage for stages in STAGES_BY_ASSIGNMENT.values() for stage in stages}
    shown_by = rubric._table()["purpose"]["shown_by"]
    assert shown_by
    assert set(shown_by) <= stages, set(shown_by) - stages
    for stage in shown_by:
        keys = rubric.purpose_shown_by(stage)
        assert keys
        assert keys <= set(MISTAKES) | set(SENTENCES), (stage, keys - set(MISTAKES) - set(SENTENCES))
        assert 0 < rubric.purpose_keeps(stage) < 1


def test_every_behaviour_has_its_words_on_the_feedback_page_in_every_language():
    behaviours = {behaviour for stage in _shared_stages() for behaviour in rubric.behaviour_shares(stage)}
    for language in ("en", "zh", "pt"):
        text = page_text(language)
        missing = {behaviour for behaviour in behaviours if f"behaviour.{behaviour}" not in text}
        assert not missing, (language, missing)
    unused = {key for key in PAGE_TEXT if key.startswith("behaviour.")} - {f"behaviour.{b}" for b in behaviours}
    assert not unused, unused
