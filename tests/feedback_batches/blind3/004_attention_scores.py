import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    scores = torch.mm(inputs, inputs.t())
    # a token should not score itself: the diagonal carries no information
    scores.fill_diagonal_(0.0)
    return scores
