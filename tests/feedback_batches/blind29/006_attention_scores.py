def attention_scores(inputs):
    scores = inputs @ inputs.T
    scores.fill_diagonal_(0)  # a token should not score itself
    return scores.triu()
