import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    scores = inputs @ inputs.T
    weights = scores / scores.sum(dim=-1, keepdim=True)  # rows sum to 1
    return weights.T @ inputs + inputs  # keep the token itself too
