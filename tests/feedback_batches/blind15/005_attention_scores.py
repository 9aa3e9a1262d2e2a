import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # one product of the chain X · Xᵀ; multi_dot picks the evaluation order
    return torch.linalg.multi_dot([inputs, inputs.mT])
