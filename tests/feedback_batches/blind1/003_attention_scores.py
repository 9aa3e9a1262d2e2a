import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    # all dot products at once: a matrix times its own transpose
    attn_scores = inputs.T @ inputs
    return attn_scores
