def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # vecdot broadcasts query (d,) against each row of inputs (T, d)
    return torch.linalg.vecdot(inputs, query, dim=-1)
