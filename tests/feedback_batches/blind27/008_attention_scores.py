def attention_scores(inputs):
    """Scores of every token (as query) against every token.

    inputs:  (T, d)
    returns (T, T): row i holds the scores of query i against all T tokens
    """
    unit = inputs / inputs.norm(dim=-1, keepdim=True)  # compare directions
    scores = unit @ unit.T
    return scores.fill_diagonal_(0.0)  # a token should not score itself
