import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    # the Gram matrix of the rows; .mT transposes the last two dims
    return torch.linalg.matmul(inputs, inputs.mT)
