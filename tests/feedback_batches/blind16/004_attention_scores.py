import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # (T, 1, d) * (1, T, d) -> (T, T, d): every pair's products, then summed over the features
    return (inputs[:, None, :] * inputs[None, :, :]).sum(dim=-1)
