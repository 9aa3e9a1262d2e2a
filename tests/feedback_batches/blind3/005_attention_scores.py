import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    # contract the feature axis (1) of the first copy with the feature axis (1) of the second
    return torch.tensordot(inputs, inputs, dims=([1], [1]))
