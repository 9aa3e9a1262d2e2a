import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # make the query a column vector so that it is a proper matrix product
    query_column = query.unsqueeze(-1)  # (d, 1)
    return inputs @ query_column  # one score per token
