import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    # all dot products at once with a matrix product
    scores = torch.matmul(inputs.T, inputs)
    return scores
