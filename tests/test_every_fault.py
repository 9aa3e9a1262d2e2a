"""Every fault of a stage, and only what fits (issue 40, items 4 and 5), on real answers.

The batch tests/feedback_batches/issue40_dev holds answers written outside the kit with several
independent faults each (a mask inverted, in uint8 and of shape (1, 1, T, T); a ViT block used as
MultiHeadAttention; nanoGPT's heads used as the wrapper) and one whose named mistake used to list
only causes its code rules out (a constructor that reseeds). Its manifest says, per answer, the
faults its stage's feedback must report (``faults``: for each, the faults one test reports, each
by its mistake, or by its finding's key where it names none, in the order to fix them) and the
mistakes the evidence rules out (``ruled_out``), which no finding may name. The grader runs for
real, sandbox included.

The blind batch tests/feedback_batches/blind5 gives ``faults`` to its multi-fault answers whose
every fault the grader reports (two faults of one module reproduced together; a check of another
behaviour, dropout in eval mode or a gradient, that tells its own fault beside the first): they are
graded and held to the same rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.feedback.page import feedback_html
from autograder.findings.finding import Finding
from autograder.records.results import GradedRow, ScoredTest
from autograder.tools.feedback_batch import graded_rows, read_batch

pytestmark = pytest.mark.slow

BATCH = Path(__file__).resolve().parent / "feedback_batches" / "issue40_dev"
MANIFEST = {item["file"]: item for item in json.loads((BATCH / "manifest.json").read_text())}
BLIND5 = BATCH.parent / "blind5"
BLIND5_FAULTS = {item["file"]: item for item in json.loads((BLIND5 / "manifest.json").read_text()) if "faults" in item}


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[str, tuple[GradedRow, list[ScoredTest]]]:
    """Each answer's graded row and its stage's failing tests, by file."""
    return _graded(read_batch(BATCH), tmp_path_factory.mktemp("issue40"))


@pytest.fixture(scope="module")
def graded_blind5(tmp_path_factory) -> dict[str, tuple[GradedRow, list[ScoredTest]]]:
    """blind5's answers that list their faults, graded, by file."""
    entries = [entry for entry in read_batch(BLIND5) if entry.file in BLIND5_FAULTS]
    return _graded(entries, tmp_path_factory.mktemp("blind5"))


def _graded(entries, out: Path) -> dict[str, tuple[GradedRow, list[ScoredTest]]]:
    rows = graded_rows(entries, out, jobs=2)
    found = {}
    for entry in entries:
        row = rows[(entry.student_id, entry.assignment)]
        found[entry.file] = row, [test for test in row.tests if test.stage == entry.stage and not test.passed]
    return found


def _labels(found: Finding) -> list[str]:
    """The faults a finding reports, in its order: each by its mistake, or its key where it names none."""
    return [fault.mistake or fault.key for fault in found.all_faults()]


@pytest.mark.parametrize("file", sorted(MANIFEST))
def test_every_fault_is_reported_in_the_order_to_fix_them(graded, file):
    _, failing = graded[file]
    reported = [_labels(test.finding) for test in failing if test.finding is not None]
    for faults in MANIFEST[file]["faults"]:
        assert faults in reported, (faults, sorted(set(map(tuple, reported))))


@pytest.mark.parametrize("file", sorted(BLIND5_FAULTS))
def test_every_fault_of_a_blind_answer_is_reported_in_the_order_to_fix_them(graded_blind5, file):
    _, failing = graded_blind5[file]
    reported = [_labels(test.finding) for test in failing if test.finding is not None]
    for faults in BLIND5_FAULTS[file]["faults"]:
        assert faults in reported, (faults, sorted(set(map(tuple, reported))))
    named = set().union(*(test.finding.mistakes() for test in failing if test.finding is not None))
    item = BLIND5_FAULTS[file]
    assert named <= {item["named_as"], *item.get("also_named", [])}, named


def test_faults_reproduced_together_each_lose_their_share_once(graded_blind5):
    """SelfAttention_v2 scaled by the number of tokens with a softmax along dim 0: each value test
    (forward and gradients) reports both faults, and the stage loses the two behaviours' shares."""
    row, failing = graded_blind5["035_SelfAttention_v2.py"]
    value_tests = [test for test in failing if "forward" in test.name or "gradients" in test.name]
    assert value_tests
    assert all({loss.behaviour for loss in test.lost_to} == {"scale", "softmax"} for test in value_tests), [
        (test.name, test.lost_to) for test in value_tests]
    lost = sum(test.max_points - test.points for test in row.tests if test.stage == "SelfAttention_v2")
    assert 0 < lost < sum(test.max_points for test in row.tests if test.stage == "SelfAttention_v2")


@pytest.mark.parametrize("file", sorted(MANIFEST))
def test_no_finding_names_a_cause_the_evidence_rules_out(graded, file):
    _, failing = graded[file]
    named = set().union(*(test.finding.mistakes() for test in failing if test.finding is not None))
    assert not named & set(MANIFEST[file].get("ruled_out", [])), named
    item = MANIFEST[file]
    assert named <= {item["named_as"], *item.get("also_named", [])} - {None}, named


def test_the_faults_travel_as_data_and_each_has_its_own_paragraph_on_the_page(graded):
    row, failing = graded["mask_inverted_uint8_4d.py"]
    test = next(test for test in failing if len(test.finding.faults) == 2)
    stored = test.to_json()["finding"]
    assert [fault.get("mistake") for fault in stored["faults"]] == [None, "mask_inverted"]
    assert Finding.from_json(stored) == test.finding
    page = feedback_html(row)
    assert page.count('<p class="finding">Another fault, to fix as well: causal_mask(') >= 2
    assert "read in shape" in page
    assert "the mask has the opposite meaning" in page


def test_a_reseeding_constructor_is_told_what_its_instances_show(graded):
    _, failing = graded["v1_seeds_itself.py"]
    message = failing[0].message()
    assert "built twice one after the other, starts with the same W_query both times" in message
    assert "torch.manual_seed" in message
    assert "is not what torch.rand" not in message


def test_the_wrapper_is_told_what_it_must_and_must_not_do(graded):
    _, failing = graded["wrapper_karpathy_heads.py"]
    message = failing[0].message()
    assert "d_out is the size of each head" in message
    assert "only runs its heads and concatenates their outputs" in message
    assert "proj.weight" in message
