import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # contract the embedding dim of the left copy with the embedding dim of the right copy
    return torch.tensordot(inputs, inputs, dims=([1], [1]))
