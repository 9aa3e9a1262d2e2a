import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    # i indexes the query token, j the key token, f the features that are summed away
    return torch.einsum("if,jf->ij", inputs, inputs)
