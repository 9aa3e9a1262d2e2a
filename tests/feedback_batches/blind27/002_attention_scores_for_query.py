def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    products = inputs * query  # (T, d): every token times the query, feature by feature
    return products.sum(dim=0) / query.norm()  # normalised so that long queries don't dominate
