"""Every fault of a stage, and only what fits (issue 40, items 4 and 5), on real answers.

The batch tests/feedback_batches/issue40_dev holds answers written outside the kit with several
independent faults each (a mask inverted, in uint8 and of shape (1, 1, T, T); a ViT block used as
MultiHeadAttention; nanoGPT's heads used as the wrapper) and one whose named mistake used to list
only causes its code rules out (a constructor that reseeds). Its manifest says, per answer, the
faults its stage's feedback must report (``faults``: for each, the faults one test reports, each
by its mistake, or by its finding's key where it names none, in the order to fix them) and the
mistakes the evidence rules out (``ruled_out``), which no finding may name. The grader runs for
real, sandbox included.

Every other batch's answers that carry ``faults`` are read alike: issue40_functions holds answers
with two faults of the function stages and the wrapper, in styles of their own (einsum, a loop
over columns, a table of getattr names, map and reverse, numpy's cumsum), and blind5 the
multi-fault answers of its blind writer whose every fault the grader reports (two faults of one module
reproduced together; a check of another behaviour, dropout in eval mode or a gradient, that tells
its own fault beside the first); blind6 those of its multi-fault answers whose every charged fault
the grader reports (a fault the kit does not charge is in the manifest's ``faults_not_charged``);
blind8, for 32 of its 35 multi-fault answers (not 035, charged nothing, nor the known gaps 095
and 114), the faults its stage's tests report (016's memory shared with sa_v2 is a note, ``noted``);
issue40_dev3 modules whose second fault a behaviour test reports beside the first (a dropout made
and never applied or applied to the context, parameters frozen, the biases of qkv_bias=True left
out), and one whose residual dropout after out_proj is no fault (``ruled_out``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autograder.course import rubric
from autograder.feedback.page import feedback_html
from autograder.findings.finding import Finding
from autograder.records.results import PURPOSE, GradedRow, ScoredTest
from autograder.tools.feedback_batch import graded_rows, read_batch

pytestmark = pytest.mark.slow

BATCHES = sorted(path.parent for path in (Path(__file__).resolve().parent / "feedback_batches").glob("*/manifest.json"))
# The answers whose faults are listed, by "batch/file".
MANIFEST = {f"{batch.name}/{item['file']}": item for batch in BATCHES
            for item in json.loads((batch / "manifest.json").read_text()) if "faults" in item}


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[str, tuple[GradedRow, list[ScoredTest]]]:
    """Each listed answer's graded row and its stage's failing tests, by "batch/file"."""
    entries = [entry for batch in BATCHES for entry in read_batch(batch, prefix=f"{batch.name}__")
               if f"{batch.name}/{entry.file}" in MANIFEST]
    rows = graded_rows(entries, tmp_path_factory.mktemp("issue40"), jobs=2)
    found = {}
    for entry in entries:
        row = rows[(entry.student_id, entry.assignment)]
        found[f"{entry.prefix.removesuffix('__')}/{entry.file}"] = row, [
            test for test in row.tests if test.stage == entry.stage and not test.passed]
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


def test_faults_reproduced_together_each_lose_their_share_once(graded):
    """SelfAttention_v2 scaled by the number of tokens with a softmax along dim 0: each value test
    (forward and gradients) reports both faults, and the stage loses the two behaviours' shares;
    a softmax along another dim is no attention, so the stage then keeps half its points (the
    purpose cap, ``[purpose]``)."""
    row, failing = graded["blind5/035_SelfAttention_v2.py"]
    value_tests = [test for test in failing if "forward" in test.name or "gradients" in test.name]
    assert value_tests
    assert all({loss.behaviour for loss in test.lost_to} - {PURPOSE} == {"scale", "softmax"}
               for test in value_tests), [(test.name, test.lost_to) for test in value_tests]
    stage = [test for test in row.tests if test.stage == "SelfAttention_v2"]
    assert sum(test.points for test in stage) == pytest.approx(
        rubric.purpose_keeps("SelfAttention_v2") * sum(test.max_points for test in stage), abs=1e-3)


@pytest.mark.parametrize("file", sorted(MANIFEST))
def test_no_finding_names_a_cause_the_evidence_rules_out(graded, file):
    _, failing = graded[file]
    named = set().union(*(test.finding.mistakes() for test in failing if test.finding is not None))
    assert not named & set(MANIFEST[file].get("ruled_out", [])), named
    item = MANIFEST[file]
    assert named <= {item["named_as"], *item.get("also_named", [])} - {None}, named


def test_the_faults_travel_as_data_and_each_has_its_own_paragraph_on_the_page(graded):
    row, failing = graded["issue40_dev/mask_inverted_uint8_4d.py"]
    test = next(test for test in failing if len(test.finding.faults) == 2)
    stored = test.to_json()["finding"]
    assert [fault.get("mistake") for fault in stored["faults"]] == [None, "mask_inverted"]
    assert Finding.from_json(stored) == test.finding
    page = feedback_html(row)
    assert page.count('<p class="finding">Another fault, to fix as well: causal_mask(') >= 2
    assert "read in shape" in page
    assert "the mask has the opposite meaning" in page


def test_a_reseeding_constructor_is_told_what_its_instances_show(graded):
    _, failing = graded["issue40_dev/v1_seeds_itself.py"]
    message = failing[0].message()
    assert "built twice one after the other, starts with the same W_query both times" in message
    assert "torch.manual_seed" in message
    assert "is not what torch.rand" not in message


def test_the_wrapper_is_told_what_it_must_and_must_not_do(graded):
    _, failing = graded["issue40_dev/wrapper_karpathy_heads.py"]
    message = failing[0].message()
    assert "d_out is the size of each head" in message
    assert "only runs its heads and concatenates their outputs" in message
    assert "proj.weight" in message


def test_heads_in_another_order_are_told_which_head_sits_where(graded):
    _, failing = graded["issue40_functions/wrapper_map_reversed.py"]
    message = failing[0].message()
    assert "features 0 to 1 hold head 1's; features 2 to 3 hold head 0's" in message
    assert failing[0].finding.mistake == "heads_reversed"


def test_mistakes_made_together_are_each_named_as_a_fault_of_its_own(graded):
    _, failing = graded["blind5/059_mask_and_renormalize.py"]
    found = failing[0].finding
    assert [fault.mistake for fault in found.all_faults()] == ["mask_hides_diagonal", "normalised_wrong_dim"]
    assert "exactly what this mistake gives together with the one above" in failing[0].message()
