import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    return torch.inner(inputs, inputs)  # sum over the feature dim of both -> (T, T)
