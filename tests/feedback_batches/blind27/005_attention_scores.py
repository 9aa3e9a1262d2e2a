import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    return torch.inner(inputs, inputs)  # [i, j] = inputs[i] . inputs[j]
