import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    products = inputs.unsqueeze(0) * inputs.unsqueeze(1)  # (T, T, d)
    return products.sum(dim=1)
