import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    d = inputs.shape[-1]
    return torch.matmul(inputs, inputs.mT) / d  # average product per feature
