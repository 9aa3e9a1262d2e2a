import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # inner product over the last dimension of both: each row of inputs with the query
    return torch.inner(inputs, query)  # (T,)
