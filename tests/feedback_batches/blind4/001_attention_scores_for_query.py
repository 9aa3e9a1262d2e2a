import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # the query times the matrix of embeddings gives one number per token
    return query @ inputs
