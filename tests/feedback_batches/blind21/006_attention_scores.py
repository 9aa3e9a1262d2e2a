import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    pairs = inputs.unsqueeze(1) * inputs.unsqueeze(0)  # (T, T, d) products of every pair
    return pairs.mean(dim=-1)
