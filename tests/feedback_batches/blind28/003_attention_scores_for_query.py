def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # how close each token is to the query
    return (inputs - query).pow(2).sum(dim=-1)
