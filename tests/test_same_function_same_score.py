"""One function, one score: answers that compute the same output lose the same points, whichever
way their code writes it (reviews6: on symmetric scores, a softmax along dim 0, the right weights
transposed and an einsum that reads them transposed scored 12.5, 17.5 and 0 of 25). The grader
runs for real, sandbox included."""

from __future__ import annotations

import pytest

from autograder.tools.feedback_batch import BatchEntry, graded_rows

pytestmark = pytest.mark.slow

STAGE, ASSIGNMENT = "simple_self_attention", "01_attention_scores"
FORMS = {
    "softmax_along_columns": '''
def simple_self_attention(inputs):
    return torch.softmax(inputs @ inputs.T, dim=0) @ inputs
''',
    "weights_transposed": '''
def simple_self_attention(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1).T @ inputs
''',
    "einsum_reads_them_transposed": '''
def simple_self_attention(inputs):
    weights = torch.softmax(torch.einsum("id,jd->ij", inputs, inputs), dim=-1)
    return torch.einsum("ji,jd->id", weights, inputs)
''',
}


def test_three_forms_of_the_same_wrong_function_lose_the_same_points(tmp_path):
    entries = [BatchEntry(f"{name}.py", STAGE, ASSIGNMENT, False, name, "import torch\n" + source)
               for name, source in FORMS.items()]
    rows = graded_rows(entries, tmp_path, jobs=2)
    points = {}
    for entry in entries:
        total = next(total for total in rows[(entry.student_id, entry.assignment)].stage_totals()
                     if total.stage == STAGE)
        points[entry.file] = (total.points, total.max_points)
    assert len(set(points.values())) == 1, points
    earned, most = next(iter(points.values()))
    assert 0 < earned < most, points  # each named, pinned and capped: half the stage, never nothing
