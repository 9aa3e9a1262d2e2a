import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # contract axis 1 of inputs (the features) with the only axis of query
    return torch.tensordot(inputs, query, dims=([1], [0]))
