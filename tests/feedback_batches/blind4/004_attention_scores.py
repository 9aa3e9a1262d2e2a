import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    # every pair (i, j) multiplied feature by feature thanks to broadcasting, then added up
    pairwise = inputs[:, None, :] * inputs[None, :, :]  # (T, T, d)
    return pairwise.sum(dim=0)
