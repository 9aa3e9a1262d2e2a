"""The assignments and their graded stages, in teaching order: the one list every tool reads.

Stage names are the student API (functions and classes the notebooks define) and the
``grade_id`` of each answer cell in the master notebooks.
"""

from __future__ import annotations

STAGES_BY_ASSIGNMENT: dict[str, list[str]] = {
    "01_attention_scores": [
        "attention_scores_for_query",
        "attention_scores",
        "softmax_naive",
        "softmax_stable",
        "context_vector",
        "simple_self_attention",
    ],
    "02_self_attention": [
        "scaled_dot_product_scores",
        "SelfAttention_v1",
        "SelfAttention_v2",
        "copy_v2_weights_into_v1",
    ],
    "03_causal_attention": [
        "causal_average_loop",
        "causal_average_matmul",
        "causal_average_softmax",
        "causal_mask",
        "mask_and_renormalize",
        "masked_softmax",
        "inverted_dropout",
        "CausalAttention",
    ],
    "04_multi_head_attention": [
        "MultiHeadAttentionWrapper",
        "wrapper_with_2d_output",
        "split_heads",
        "merge_heads",
        "MultiHeadAttention",
        "gpt2_small_attention",
    ],
}

ASSIGNMENTS: list[str] = list(STAGES_BY_ASSIGNMENT)


def all_stages() -> list[str]:
    """Every stage of the course, in teaching order."""
    return [stage for stages in STAGES_BY_ASSIGNMENT.values() for stage in stages]


def assignment_of(stage: str) -> str:
    """The assignment id that grades `stage` (KeyError when the stage is unknown)."""
    for assignment, stages in STAGES_BY_ASSIGNMENT.items():
        if stage in stages:
            return assignment
    raise KeyError(f"unknown stage {stage!r}")


# The pure function stages that any other stage calling them of the student's own accord is
# graded with the reference's answers for (the grader's ``probes/consultation.py``): a
# ``simple_self_attention`` calling the student's ``softmax_naive``, a ``SelfAttention_v1``
# calling their ``scaled_dot_product_scores``, a ``CausalAttention`` calling their
# ``masked_softmax``; the notebook's check says when one of them fails its own check. Not inverted
# dropout (its draws are the student's random stream), nor the stages that change or build modules.
CONSULTED = frozenset({
    "attention_scores_for_query", "attention_scores", "softmax_naive", "softmax_stable", "context_vector",
    "simple_self_attention", "scaled_dot_product_scores", "causal_average_loop", "causal_average_matmul",
    "causal_average_softmax", "causal_mask", "mask_and_renormalize", "masked_softmax",
})

# For each stage, the graded stages that its hidden tests stand in for (ARCHITECTURE.md, "Fairness"),
# whatever the student's code calls: the notebook's check says when one of them fails its own check.
STANDS_IN_FOR: dict[str, set[str]] = {
    "MultiHeadAttention": {"split_heads", "merge_heads"},
    "gpt2_small_attention": {"MultiHeadAttention"},
    "wrapper_with_2d_output": {"MultiHeadAttentionWrapper"},
    "copy_v2_weights_into_v1": {"SelfAttention_v1", "SelfAttention_v2"},
}

# The defaults of the notebook's signatures (a test keeps them those of the reference): the demos
# and the stages built on a stage leave these arguments out, so a default written otherwise changes
# what they compute (the check says so, as the grader does: ``hidden/signatures.py``).
NOTEBOOK_DEFAULTS: dict[str, dict[str, object]] = {
    "softmax_naive": {"dim": -1},
    "softmax_stable": {"dim": -1},
    "SelfAttention_v2": {"qkv_bias": False},
    "causal_mask": {"device": None},
    "inverted_dropout": {"training": True, "generator": None},
    "CausalAttention": {"qkv_bias": False},
    "MultiHeadAttentionWrapper": {"qkv_bias": False},
    "MultiHeadAttention": {"qkv_bias": False},
}
